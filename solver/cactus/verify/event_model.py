"""The event deck as a Z3 model (rule:C-event-deck, rule:C-event-draw, rule:C-ev-train, rule:C-ev-stagecoach,
rule:C5, rule:C-duel-discard, rule:C4, rule:C10): every deck the set-up can deal, one draw a round, Train,
Stagecoach with any cards its shuffle can bring back and duel discards in any round, unrolled round by round;
:func:`possible_end_rounds` runs it on one concrete deck (the tests compare it with the Python engine).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

from solver.cactus.verify.base import KIND, KINDS, NONE, M, O, S, T, fresh_solver
from solver.z3check import Z3Run


def _pick(cond, a, b):
    """``If`` over one-hot cards (dicts) or pointer vectors (lists)."""
    if isinstance(a, dict):
        return {k: z3.If(cond, a[k], b[k]) for k in a}
    return [z3.If(cond, x, y) for x, y in zip(a, b)]


@dataclass
class _Flow:
    """The deck's moving parts during the unrolled rounds: the pointer into the dealt deck, the two
    cards a Stagecoach put on top (``s0`` first), the discard counts by kind, the end so far."""

    ptr: list
    s0: dict
    s1: dict
    disc: dict
    ended: Any  # a Z3 Bool
    end: Any  # a Z3 Int: the round the game ends in


@dataclass
class EventModel:
    """The event deck of ``size`` cards + the marshal, unrolled for ``rounds`` rounds.

    Propositional encoding: every card (deck position, card drawn, Stagecoach pick) is a one-hot
    set of 4 Booleans (other, Train, Stagecoach, marshal; all false = no card), the deck pointer is a
    one-hot vector over positions; only the discard counts and the end round are integers. With
    ``duels`` the lone ranger may win up to ``duels_per_round`` duels in any round, each discarding
    the next event (rule:C10: several a round under ``every_win``; 1 models ``one_per_round``).
    """

    ctx: z3.Context
    size: int
    rounds: int
    duels: bool = False
    marshal_discard: str = "revealed"
    stagecoach_short: str = "as_many"
    duels_per_round: int = 1

    def build(self, s: z3.Solver) -> None:
        self.s = s
        self._F, self._T = z3.BoolVal(False, self.ctx), z3.BoolVal(True, self.ctx)
        self._empty = {k: self._F for k in KINDS}
        self._deal()
        flow = _Flow([self._T] + [self._F] * (self.size + 1), dict(self._empty), dict(self._empty),
                     {k: z3.IntVal(0, self.ctx) for k in KINDS}, self._F, z3.IntVal(0, self.ctx))
        self.drawn, self.duel_wins, self.picks, self.duel_hits_marshal, self.ended_at = [], [], [], [], []
        for r in range(1, self.rounds + 1):
            self._round(flow, r)
        self.ended, self.end = flow.ended, flow.end

    def _bool(self, name: str):
        return z3.Bool(name, self.ctx)

    def _one_hot(self, card: dict, allow_none: bool = False) -> None:
        bits = [card[k] for k in KINDS]
        self.s.add(z3.AtMost(*bits, 1))
        if not allow_none:
            self.s.add(z3.Or(bits))

    def _deal(self) -> None:
        """rule:C-event-deck: the first ``size`` of the shuffled 17 (one Train, one Stagecoach among
        them), then the marshal shuffled with the bottom 2 (``slot`` 0-2)."""
        n = self.size
        self.pre = [{k: self._bool(f"pre{i}_{k}") for k in KINDS} for i in range(n)]
        for c in self.pre:
            self._one_hot(c)
            self.s.add(z3.Not(c[M]))
        for kind in (T, S):
            self.s.add(z3.AtMost(*[c[kind] for c in self.pre], 1))
        self.slot = z3.Int("slot", self.ctx)
        self.s.add(self.slot >= 0, self.slot <= 2)
        a, b = self.pre[n - 2], self.pre[n - 1]
        marshal = {k: z3.BoolVal(k == M, self.ctx) for k in KINDS}
        self.deck = list(self.pre[:n - 2]) + [_pick(self.slot == 0, marshal, a),
                                              _pick(self.slot == 0, a, _pick(self.slot == 1, marshal, b)),
                                              _pick(self.slot == 2, marshal, b)]

    def _take(self, flow: _Flow, when) -> dict:
        """The next event card (a Stagecoach's first, else the deck's), removed from ``flow`` when
        ``when`` holds; no card (all false) past the end."""
        size = self.size + 1
        ne = z3.Or([flow.s0[k] for k in KINDS])
        from_deck = {k: z3.Or([z3.And(flow.ptr[i], self.deck[i][k]) for i in range(size)]) for k in KINDS}
        card = _pick(ne, flow.s0, from_deck)
        moved = [self._F] + flow.ptr[:size - 1] + [z3.Or(flow.ptr[size - 1], flow.ptr[size])]
        flow.ptr = _pick(when, _pick(ne, flow.ptr, moved), flow.ptr)
        flow.s0, flow.s1 = _pick(when, _pick(ne, flow.s1, flow.s0), flow.s0), _pick(
            when, _pick(ne, self._empty, flow.s1), flow.s1)
        return card

    @staticmethod
    def _add(flow: _Flow, card: dict, when) -> None:
        flow.disc = {k: flow.disc[k] + z3.If(z3.And(when, card[k]), 1, 0) for k in KINDS}

    def _round(self, flow: _Flow, r: int) -> None:
        """rule:C-event-draw one event, then Train, Stagecoach and the duel discards."""
        live = z3.Not(flow.ended)
        c = _pick(live, self._take(flow, live), self._empty)
        self.drawn.append(c)
        stop = z3.Or(c[M], self._train(flow, c))  # rule:C-ev-marshal
        self._stagecoach(flow, c, r)
        self._add(flow, c, z3.Not(c[M]))  # the drawn event goes to the discard pile
        stop = self._duels(flow, r, z3.And(live, z3.Not(stop)), stop)
        newly = z3.And(live, stop)
        flow.end = z3.If(newly, r, flow.end)
        flow.ended = z3.Or(flow.ended, newly)
        self.ended_at.append(flow.ended)

    def _train(self, flow: _Flow, c: dict):
        """rule:C-ev-train: discard the following event; the marshal's arrival ends the game."""
        d = self._take(flow, c[T])
        self._add(flow, d, z3.And(c[T], z3.Not(d[M])))
        return z3.And(c[T], d[M])

    def _stagecoach(self, flow: _Flow, c: dict, r: int) -> None:
        """rule:C-ev-stagecoach, rule:C5: up to 2 cards of the discard pile (itself not yet in it)
        go on top, any cards the shuffle can bring."""
        total = flow.disc[O] + flow.disc[T] + flow.disc[S] + flow.disc[M]
        k = z3.If(total >= 2, 2, total if self.stagecoach_short == "as_many" else 0)
        k = z3.If(c[S], k, 0)
        x1 = {kk: self._bool(f"pick{r}a_{kk}") for kk in KINDS}
        x2 = {kk: self._bool(f"pick{r}b_{kk}") for kk in KINDS}
        self._one_hot(x1)
        self._one_hot(x2)
        self.picks.append((x1, x2, k))
        disc = flow.disc
        self.s.add(z3.Implies(k >= 1, z3.Or([z3.And(x1[v], disc[v] >= 1) for v in KINDS])))
        self.s.add(z3.Implies(k >= 2, z3.Or([z3.And(x2[v], disc[v] - z3.If(x1[v], 1, 0) >= 1) for v in KINDS])))
        flow.disc = {v: disc[v] - z3.If(z3.And(k >= 1, x1[v]), 1, 0) - z3.If(z3.And(k >= 2, x2[v]), 1, 0)
                     for v in KINDS}
        flow.s0 = _pick(k >= 1, x1, flow.s0)
        flow.s1 = _pick(k >= 2, x2, flow.s1)

    def _duels(self, flow: _Flow, r: int, can, stop):
        """rule:C-duel-discard, rule:C10: up to ``duels_per_round`` duel wins in the action phase,
        each discarding the next event; rule:C4 for the marshal's arrival."""
        wins, hits = [], []
        for j in range(self.duels_per_round if self.duels else 0):
            won = self._bool(f"duel{r}" if j == 0 else f"duel{r}_{j}")
            if wins:
                self.s.add(z3.Implies(won, self._bool(f"duel{r}" if j == 1 else f"duel{r}_{j - 1}")))
            won = z3.And(won, can, z3.Not(stop))
            e = self._take(flow, won)
            hit = z3.And(won, e[M])
            if self.marshal_discard == "revealed":
                stop = z3.Or(stop, hit)
                self._add(flow, e, z3.And(won, z3.Not(e[M])))
            else:
                self._add(flow, e, won)
            wins.append(won)
            hits.append(hit)
        self.duel_wins.append(wins)
        self.duel_hits_marshal.append(z3.Or(hits) if hits else self._F)
        return stop

    @staticmethod
    def _kind(m: z3.ModelRef, card: dict) -> int:
        for k in KINDS:
            if z3.is_true(m.eval(card[k], model_completion=True)):
                return k
        return NONE

    def trace(self, m: z3.ModelRef) -> dict:
        num = lambda e: m.eval(e, model_completion=True).as_long()  # noqa: E731
        rounds = []
        for r, c in enumerate(self.drawn, 1):
            kind = self._kind(m, c)
            row = {"round": r, "event": KIND[kind]}
            x1, x2, k = self.picks[r - 1]
            if num(k):
                row["stagecoach_puts_on_top"] = [KIND[self._kind(m, x)] for x in (x1, x2)[:num(k)]]
            won = sum(z3.is_true(m.eval(w, model_completion=True)) for w in self.duel_wins[r - 1])
            if won:
                row["lone_ranger_wins_duel"] = True
                row["duel_wins"] = won
            if kind == NONE:
                break
            rounds.append(row)
        return {"deck_top_first": [KIND[self._kind(m, d)] for d in self.deck],
                "rounds": rounds, "ends_in_round": num(self.end) or None}


def build_event_model(run: Z3Run, size: int, rounds: int, **kw) -> tuple[z3.Solver, EventModel]:
    """The event deck's model in ``run``'s context and a solver holding it."""
    s = fresh_solver(run)
    em = EventModel(run.ctx, size, rounds, **kw)
    em.build(s)
    return s, em


def possible_end_rounds(deck_top_first, duels: bool = False, marshal_discard: str = "revealed",
                        stagecoach_short: str = "as_many", duels_per_round: int = 1) -> set:
    """Every end round the Z3 model allows for one concrete deck (kinds ``other``, ``train``,
    ``stagecoach``, ``marshal``); ``None`` in the set when some run never ends. Used by the tests to
    check the Z3 encoding against the Python engine (solver.cactus.events); ``duels_per_round`` duel
    wins at most in any round (rule:C10)."""
    names = {v: k for k, v in KIND.items()}
    kinds = [names[c] for c in deck_top_first]
    size = len(kinds) - 1
    if kinds.count(M) != 1 or kinds.index(M) < size - 2:
        raise ValueError("the deck needs exactly one marshal among its last 3 cards")
    run = Z3Run()
    s, em = build_event_model(run, size, size + 5, duels=duels, marshal_discard=marshal_discard,
                         stagecoach_short=stagecoach_short, duels_per_round=duels_per_round)
    for cell, kind in zip(em.deck, kinds):
        s.add(cell[kind])
    out = set()
    for r in list(range(1, size + 6)) + [None]:
        s.push()
        s.add(z3.Not(em.ended) if r is None else z3.And(em.ended, em.end == r))
        if run.check(s) == z3.sat:
            out.add(r)
        s.pop()
    return out
