"""Z3 checks of the expansion's deck rules (``ruleslinger cactus verify``).

Each check encodes the rules in Z3 in a fresh ``z3.Context()``, is timed, and reports ``holds``
(True/False, None on a time-out), a counterexample or witness when it fails or when it exposes an
open rule, and the rulebook passage it checks. The event deck is modelled by card kind (marshal,
Train, Stagecoach, any other card: the others act alike on the deck) with every deck the set-up
can deal (rule:C-event-deck), one draw per round (rule:C-event-draw), Train (rule:C-ev-train),
Stagecoach with any cards its shuffle can bring back (rule:C-ev-stagecoach, rule:C5) and duel
discards in any round (rule:C-duel-discard, rule:C4). The solo deck is modelled by card sets per
round with any choice of the added cards (rule:C-solo-schedule, rule:C3), any shuffle, and the
planning split (rule:C-solo-planning, rule:C2, rule:C-solo-marshal).
"""

from __future__ import annotations

import contextvars
import time
from dataclasses import dataclass

import z3

from solver.cactus import events as ev
from solver.cactus.rules import CHOICES, CactusRules
from solver.errors import BadInput

O, T, S, M, NONE = 0, 1, 2, 3, -1
KINDS = (O, T, S, M)
KIND = {O: "other", T: "train", S: "stagecoach", M: "marshal", NONE: "-"}
TIMEOUT_MS = 60_000

PASSAGES = {
    "deck": "Event Card Deck: 'draw a number of cards face down, depending on the number of players ... shuffle "
            "the marshal's arrival card with the bottom 2 cards of the deck, so you always know that the game end "
            "will be triggered with one of the last 3 cards.'",
    "train_stage": "Event Card Table: Train 'Discard the following event. If it is the \"marshal's arrival\", the game "
                   "ends immediately.'; Stagecoach 'Shuffle the event discard pile, draw 2 cards (if possible) and put "
                   "them on top of the event card deck.'",
    "duel": "DUEL: 'If the lone ranger wins a duel he has initiated, discard the following event card from the event "
            "card deck.' (open questions C4, C10: docs/open-questions.md)",
    "solo_deck": "Planning Phase: '1st Round: ... 4 solo mode action cards marked ... 2nd to 5th round: ... add 1 random "
                 "card ... 6th round: add the marshal's arrival card ... The action card draw deck now has 9 cards ... As "
                 "of round 7: Archive 1 card ... take the topmost card ... After his 3 programmed action cards are "
                 "placed, take the topmost card ... as second shot card.'",
    "solo_end": "How to Play in Solo Mode: 'He will win when the marshal's arrival card is revealed as an action.' "
                "Planning Phase: 'If the marshal's arrival card is drawn as second shot card, continue gameplay as normal.'",
}


RULE_IDS = {  # check family -> register ids (docs/register/cactus.toml)
    "event-marshal-last-3": ["C-event-deck"],
    "event-end-bound": ["C-event-draw", "C-ev-train", "C-ev-stagecoach", "C5"],
    "event-last-3-rounds": ["C-event-deck", "C-ev-train", "C-ev-stagecoach"],
    "duel-discard-reaches-marshal": ["C-duel-discard", "C4", "C10", "C-duels-a-round"],
    "event-end-bound-with-duels": ["C-duel-discard", "C4", "C10", "C-duels-a-round"],
    "solo-deck-3-plus-1-through-round-11": ["C-solo-schedule", "C-solo-planning", "C3"],
    "solo-deck-3-plus-1-after-round-11": ["C-solo-schedule", "C2"],
    "solo-marshal-bound": ["C-solo-marshal", "C2"],
    "c5-reading-changes-end": ["C-ev-stagecoach", "C5"],
}


READS = {  # check family -> the CactusRules options its encoding reads; no other option can change it
    "event-marshal-last-3": [],
    "event-end-bound": ["stagecoach_short"],
    "event-last-3-rounds": ["stagecoach_short"],
    "duel-discard-reaches-marshal": ["duel_discards", "max_duels_per_round", "stagecoach_short"],
    "event-end-bound-with-duels": ["marshal_discard", "duel_discards", "max_duels_per_round", "stagecoach_short"],
    "c5-reading-changes-end": [],  # runs both C5 readings itself
    "solo-deck-3-plus-1-through-round-11": [],  # any marked and added cards (C3 any)
    "solo-deck-3-plus-1-after-round-11": ["short_deck"],  # stop_archiving keeps 4 cards
    "solo-marshal-bound": ["short_deck"],  # one check per C2 reading, named in its id
}


_SHARED: dict = {}  # (check family, deck size, readings) -> result: 3, 4 and 5 players deal the same 10 cards


def _timed(check_id: str, title: str, rule: str, fn, share: tuple | None = None) -> dict:
    """Run ``fn(ctx)`` with a fresh Z3 context and time it; with ``share`` a proven result made for
    the same deal size and readings is reused (results are cached, never solvers)."""
    ctx = z3.Context()
    start = time.perf_counter()
    try:
        out = _SHARED.get(share) if share else None
        if out is None:
            out = fn(ctx)
            if share and out.get("holds") is not None:
                _SHARED[share] = out
    finally:
        seconds = time.perf_counter() - start
    return {"id": check_id, "title": title, "holds": out.get("holds"), "proven": out.get("holds") is not None,
            "counterexample": out.get("counterexample"), "rule": rule, "open_question": out.get("open_question"),
            "details": out.get("details", {}), "seconds": round(seconds, 4),
            "rule_ids": RULE_IDS.get(check_id.split("/")[0], []), "reads": READS.get(check_id.split("/")[0], [])}


TIMEOUT = contextvars.ContextVar("cactus_verify_timeout_ms", default=TIMEOUT_MS)
"""The Z3 time limit of the checks run in this context (``readings impact --time-limit`` sets it)."""


def _solver(ctx: z3.Context) -> z3.Solver:
    s = z3.Solver(ctx=ctx)
    s.set("timeout", TIMEOUT.get())
    return s


# ------------------------------------------------------------------------------- the event deck

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
    ended: object
    end: object


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


def _event_model(ctx, size, rounds, **kw) -> tuple[z3.Solver, EventModel]:
    s = _solver(ctx)
    em = EventModel(ctx, size, rounds, **kw)
    em.build(s)
    return s, em


def _verdict(s: z3.Solver):
    r = s.check()
    return None if r == z3.unknown else r == z3.sat


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
    ctx = z3.Context()
    s, em = _event_model(ctx, size, size + 5, duels=duels, marshal_discard=marshal_discard,
                         stagecoach_short=stagecoach_short, duels_per_round=duels_per_round)
    for cell, kind in zip(em.deck, kinds):
        s.add(cell[kind])
    out = set()
    for r in list(range(1, size + 6)) + [None]:
        s.push()
        s.add(z3.Not(em.ended) if r is None else z3.And(em.ended, em.end == r))
        if s.check() == z3.sat:
            out.add(r)
        s.pop()
    return out


def check_marshal_last_three(players: int) -> dict:
    """The set-up always puts the marshal's arrival among the last 3 event cards."""
    size = ev.deck_size(players)

    def fn(ctx):
        s, em = _event_model(ctx, size, 0)
        s.add(z3.Or([em.deck[k][M] for k in range(size - 2)]))
        found = _verdict(s)
        return {"holds": None if found is None else not found,
                "counterexample": em.trace(s.model()) if found else None,
                "details": {"deck_cards": size + 1, "marshal_positions": [size - 1, size, size + 1]}}
    return _timed(f"event-marshal-last-3/p{players}", f"{players} players: the marshal's arrival is always among "
                  f"the last 3 of the {size + 1} event cards", PASSAGES["deck"], fn)


def _end_range(ctx, size, rounds, latest: bool = True, **kw) -> tuple[int | None, int | None, dict, dict]:
    """Earliest (and latest) end round over all decks and choices, by scanning rounds with one
    incremental solver; with a witness run for each end."""
    s, em = _event_model(ctx, size, rounds, **kw)
    found = {}
    scans = [("earliest", range(1, rounds + 1))] + ([("latest", range(rounds, 0, -1))] if latest else [])
    for label, order in scans:
        for r in order:
            s.push()
            s.add(em.ended, em.end == r)
            res = s.check()
            if res == z3.sat:
                found[label] = (r, em.trace(s.model()))
            s.pop()
            if res == z3.sat:
                break
    if len(found) < len(scans):
        return None, None, {}, {}
    late = found.get("latest", (None, {}))
    return found["earliest"][0], late[0], found["earliest"][1], late[1]


def check_event_bound(players: int, stagecoach_short: str = "as_many") -> dict:
    """With Train and Stagecoach (no duel discards) the marshal always ends the game, within rounds
    [size-2, size+3]; the bound is tight (witness decks for both ends)."""
    size = ev.deck_size(players)
    lo, hi = size - 2, size + 3

    def fn(ctx):
        s, em = _event_model(ctx, size, hi + 2, stagecoach_short=stagecoach_short)
        s.add(z3.Or(z3.Not(em.ended_at[hi - 1]), em.end < lo))
        found = _verdict(s)
        details = {"bound": [lo, hi]}
        if found is False:
            early, late, w_early, w_late = _end_range(ctx, size, hi + 2, stagecoach_short=stagecoach_short)
            details.update({"earliest": early, "latest": late, "witness_earliest": w_early, "witness_latest": w_late})
        return {"holds": None if found is None else not found,
                "counterexample": em.trace(s.model()) if found else None, "details": details}
    return _timed(f"event-end-bound/p{players}", f"{players} players: Train and Stagecoach cannot push the "
                  f"marshal's arrival outside rounds {lo}-{hi}; the game always ends by it", PASSAGES["train_stage"], fn,
                  ("event-end-bound", size, stagecoach_short))


def check_last_three_rounds(players: int, stagecoach_short: str = "as_many") -> dict:
    """'the game end will be triggered with one of the last 3 cards', read as rounds: does the game
    always end in the rounds those cards would be drawn (size-1 .. size+1)? Train and Stagecoach say no."""
    size = ev.deck_size(players)

    def fn(ctx):
        s, em = _event_model(ctx, size, size + 5, stagecoach_short=stagecoach_short)
        s.add(z3.Or(z3.Not(em.ended), em.end < size - 1, em.end > size + 1))
        found = _verdict(s)
        return {"holds": None if found is None else not found,
                "counterexample": em.trace(s.model()) if found else None,
                "details": {"rounds_of_last_3_cards": [size - 1, size + 1],
                            "finding": "Train can end the game a round early, Stagecoach delays it by up to 2 rounds: "
                                       "the last-3 promise holds for cards, not for rounds"}}
    return _timed(f"event-last-3-rounds/p{players}", f"{players} players: the game ends in the rounds of the last "
                  f"3 cards ({size - 1}-{size + 1}) despite Train and Stagecoach", PASSAGES["deck"], fn,
                  ("event-last-3-rounds", size, stagecoach_short))


def _duel_cap(duel_discards: str, max_duels: int) -> int:
    """rule:C10: duel wins a round can hold: ``max_duels`` (every win discards; rule:C-duels-a-round), or 1."""
    return 1 if duel_discards == "one_per_round" else max_duels


def check_duel_reaches_marshal(players: int, rules: CactusRules = CactusRules()) -> dict:
    """A lone ranger's duel win can discard the marshal's arrival (exposes open question C4)."""
    size = ev.deck_size(players)
    cap = _duel_cap(rules.duel_discards, rules.max_duels_per_round)

    def fn(ctx):
        s, em = _event_model(ctx, size, size + 4, duels=True, duels_per_round=cap,
                             stagecoach_short=rules.stagecoach_short)
        s.add(z3.Or(em.duel_hits_marshal))
        found = _verdict(s)
        return {"holds": found, "counterexample": em.trace(s.model()) if found else None, "open_question": "C4",
                "details": {"reading_default": "revealed: the game ends (like Train)",
                            "alternative": "discarded: it goes to the discard pile",
                            "duel_discards": rules.duel_discards, "duel_wins_a_round_at_most": cap}}
    return _timed(f"duel-discard-reaches-marshal/p{players}", f"{players} players: a duel discard can reach the "
                  "marshal's arrival (the rule text does not say what happens: C4)", PASSAGES["duel"], fn,
                  ("duel-discard-reaches-marshal", size, cap, rules.stagecoach_short))


def check_duel_bound(players: int, marshal_discard: str, duel_discards: str = "every_win",
                     max_duels: int = 4, stagecoach_short: str = "as_many") -> dict:
    """With duel discards in any round (up to ``max_duels`` wins a round under C10 ``every_win``,
    one under ``one_per_round``): does the marshal still always end the game, and how early?"""
    size = ev.deck_size(players)
    hi = size + 3
    cap = _duel_cap(duel_discards, max_duels)

    def fn(ctx):
        out = _duel_bound_result(ctx, size, hi, marshal_discard, cap, stagecoach_short)
        out["details"]["duel_discards"] = duel_discards
        return out
    return _timed(f"event-end-bound-with-duels/{duel_discards}/{marshal_discard}/p{players}",
                  f"{players} players, duel discards allowed (C10 '{duel_discards}', at most {cap} a round), "
                  f"C4 '{marshal_discard}': the marshal always ends the game by round {hi}", PASSAGES["duel"], fn,
                  ("event-end-bound-with-duels", size, duel_discards, marshal_discard, cap, stagecoach_short))


def _duel_bound_result(ctx, size: int, hi: int, marshal_discard: str, cap: int, stagecoach_short: str) -> dict:
    """Whether every run ends by round ``hi`` with up to ``cap`` duel wins a round, and the earliest end."""
    kw = {"duels": True, "marshal_discard": marshal_discard, "duels_per_round": cap, "stagecoach_short": stagecoach_short}
    s, em = _event_model(ctx, size, hi, **kw)
    s.add(z3.Or(z3.Not(em.ended_at[hi - 1])))
    found = _verdict(s)
    details = {"reading": marshal_discard, "duel_wins_a_round_at_most": cap, "bound_latest": hi,
               "stagecoach_short": stagecoach_short}
    early, _, w_early, _ = _end_range(ctx, size, hi, latest=False, **kw)
    details.update({"earliest": early, "witness_earliest": w_early})
    if found is False:
        details.update({"latest": hi, "latest_note": "reached without duels (event-end-bound witness)"})
    return {"holds": None if found is None else not found, "open_question": "C4",
            "counterexample": em.trace(s.model()) if found else None, "details": details}


def check_c5_reading_matters(players: int) -> dict:
    """Claim: the C5 reading (Stagecoach with fewer than 2 discards) never changes the end round.
    Both readings run on the same deal with the same Stagecoach picks (shared Z3 constants); a
    counterexample is a deal where they end the game in different rounds."""
    size = ev.deck_size(players)

    def fn(ctx):
        s = _solver(ctx)
        many = EventModel(ctx, size, size + 5, stagecoach_short="as_many")
        none = EventModel(ctx, size, size + 5, stagecoach_short="none")
        many.build(s)
        none.build(s)  # same constant names: the same deck, slot and picks
        s.add(z3.Or(many.end != none.end, many.ended != none.ended))
        found = _verdict(s)
        cex = None
        if found:
            m = s.model()
            cex = {"as_many": many.trace(m), "none": none.trace(m)}
        return {"holds": None if found is None else not found, "counterexample": cex, "open_question": "C5"}
    return _timed(f"c5-reading-changes-end/p{players}", f"{players} players: the Stagecoach reading C5 never "
                  "changes the round the game ends", PASSAGES["train_stage"], fn, ("c5-reading-changes-end", size))


# ------------------------------------------------------------------------------------ the solo deck

SOLO_ROUNDS = 14
CARDS = list(range(1, 9)) + ["M"]


def _solo_sets(ctx, s, short_deck: str = "no_second_shot"):
    """in[r][c]: card c is in the draw deck in round r, for every choice of marked and added cards."""
    inn = {r: {c: z3.Bool(f"in_{r}_{c}", ctx) for c in CARDS} for r in range(1, SOLO_ROUNDS + 1)}
    num = lambda r: [inn[r][c] for c in CARDS if c != "M"]  # noqa: E731
    count = lambda bs: z3.Sum([z3.If(b, 1, 0) for b in bs])  # noqa: E731
    s.add(count(num(1)) == 4, z3.Not(inn[1]["M"]))  # the 4 marked cards (which ones is not printed)
    for r in range(2, SOLO_ROUNDS + 1):
        for c in CARDS:
            prev, cur = inn[r - 1][c], inn[r][c]
            if r <= 5:  # add 1 random numbered card not yet in the deck (C3: any)
                s.add(z3.Implies(prev, cur)) if c != "M" else s.add(z3.Not(cur))
            elif r == 6:
                s.add(cur == (z3.BoolVal(True, ctx) if c == "M" else prev))
            else:  # archive #1, #2, ... (stop at 4 cards under C2 stop_archiving)
                n_arch = r - 6 if short_deck != "stop_archiving" else min(r - 6, 5)
                gone = c != "M" and c <= n_arch
                s.add(cur == (z3.BoolVal(False, ctx) if gone else prev))
        if r <= 5:
            s.add(count(num(r)) == count(num(r - 1)) + 1)
    size = {r: count(list(inn[r].values())) for r in inn}
    return inn, size


def _programmed(size, short_deck):
    if short_deck == "keep_second_shot":
        return z3.If(size >= 4, 3, z3.If(size >= 2, size - 1, size))
    return z3.If(size >= 4, 3, size)


def check_solo_deck_enough() -> dict:
    """Every round 1-11 the solo deck holds at least 4 cards: 3 programmed + 1 second shot."""
    def fn(ctx):
        s = _solver(ctx)
        inn, size = _solo_sets(ctx, s)
        r = z3.Int("r", ctx)
        s.add(r >= 1, r <= 11, z3.Or([z3.And(r == k, size[k] < 4) for k in range(1, 12)]))
        found = _verdict(s)
        sizes = {}
        if found is False:
            s2 = _solver(ctx)
            _, size2 = _solo_sets(ctx, s2)
            s2.check()
            sizes = {str(k): s2.model().eval(size2[k]).as_long() for k in size2}
        return {"holds": None if found is None else not found,
                "counterexample": {"round": s.model().eval(r).as_long()} if found else None,
                "details": {"deck_size_by_round": sizes}}
    return _timed("solo-deck-3-plus-1-through-round-11", "solo: rounds 1-11 always have 3 programmed cards and a "
                  "second shot card, for any marked and added cards", PASSAGES["solo_deck"], fn)


def check_solo_deck_after_11(short_deck: str = "no_second_shot") -> dict:
    """Does the deck still hold 3 + 1 cards after round 11? No: round 12 has 3 (open question C2),
    unless archiving stops at 4 cards (C2 ``stop_archiving``)."""
    def fn(ctx):
        s = _solver(ctx)
        inn, size = _solo_sets(ctx, s, short_deck)
        r = z3.Int("r", ctx)
        s.add(r >= 12, r <= SOLO_ROUNDS, z3.Or([z3.And(r == k, size[k] < 4) for k in range(12, SOLO_ROUNDS + 1)]))
        found = _verdict(s)
        cex = None
        if found:
            s.push()
            s.add(r == 12)
            s.check()
            m = s.model()
            cex = {"round": 12, "deck_size": m.eval(size[12]).as_long(),
                   "deck": [str(c) for c in CARDS if z3.is_true(m.eval(inn[12][c], model_completion=True))],
                   "what_happens": "C2 default: all 3 cards are programmed, no second shot; the marshal's arrival "
                                   "is then surely revealed in round 12"}
        return {"holds": None if found is None else not found, "counterexample": cex, "open_question": "C2"}
    return _timed("solo-deck-3-plus-1-after-round-11", "solo: rounds 12+ still have 3 programmed + 1 second shot",
                  PASSAGES["solo_deck"], fn)


def check_solo_marshal_bound(short_deck: str = "no_second_shot") -> dict:
    """The marshal's arrival is revealed as an action no earlier than round 6 and by a bound round,
    for every shuffle (the bound: 12 under C2 ``no_second_shot``, 14 under ``keep_second_shot``)."""
    bound = {"no_second_shot": 12, "keep_second_shot": 14, "stop_archiving": SOLO_ROUNDS}[short_deck]

    def fn(ctx):
        s = _solver(ctx)
        inn, size = _solo_sets(ctx, s, short_deck)
        prog = []
        for r in range(1, bound + 1):
            pos = z3.Int(f"pos{r}", ctx)  # the marshal's place in round r's shuffled deck
            s.add(pos >= 0, pos < size[r])
            prog.append(z3.And(inn[r]["M"], pos < _programmed(size[r], short_deck)))
        early = z3.Or(prog[:5])
        s.push()
        s.add(early)
        too_early = _verdict(s)
        s.pop()
        s.add(z3.Not(z3.Or(prog)))
        found = _verdict(s)
        cex = None
        if found:
            m = s.model()
            cex = {"rounds_without_marshal": bound,
                   "marshal_position_by_round": {str(r): m.eval(z3.Int(f"pos{r}", ctx)).as_long()
                                                 for r in range(6, bound + 1)},
                   "note": "the marshal can stay 4th (second shot) every round: no bound (rule C2 alternative)"}
        holds = None if found is None or too_early is None else (not found and not too_early)
        return {"holds": holds, "counterexample": cex, "open_question": "C2",
                "details": {"reading": short_deck, "bound": [6, bound] if holds else None}}
    return _timed(f"solo-marshal-bound/{short_deck}", f"solo, C2 '{short_deck}': the marshal's arrival is revealed "
                  f"in rounds 6-{bound}, whatever the shuffles", PASSAGES["solo_end"], fn)


def _duel_bounds(p: int, rules: CactusRules, quick: bool) -> list:
    """The duel-bound checks: the given readings first, then (not quick) every other C4 x C10 pair."""
    pairs = [(rules.marshal_discard, rules.duel_discards)]
    if not quick:
        pairs += [(c4, c10) for c4 in CHOICES["marshal_discard"] for c10 in CHOICES["duel_discards"]
                  if (c4, c10) != pairs[0]]
    return [lambda p=p, c4=c4, c10=c10: check_duel_bound(p, c4, c10, rules.max_duels_per_round, rules.stagecoach_short)
            for c4, c10 in pairs]


def plan(players: tuple[int, ...] = (2, 3, 4, 5), quick: bool = False, rules: CactusRules = CactusRules()) -> list:
    """The checks to run, as zero-argument callables: event deck checks per player count, then solo."""
    out = []
    c5 = rules.stagecoach_short
    for p in players:
        out += [lambda p=p: check_marshal_last_three(p), lambda p=p: check_event_bound(p, c5),
                lambda p=p: check_last_three_rounds(p, c5), lambda p=p: check_duel_reaches_marshal(p, rules)]
        out += _duel_bounds(p, rules, quick)
        if not quick:
            out.append(lambda p=p: check_c5_reading_matters(p))
    out += [check_solo_deck_enough, check_solo_deck_after_11, lambda: check_solo_marshal_bound("no_second_shot"),
            lambda: check_solo_marshal_bound("keep_second_shot")]
    if not quick:
        out.append(lambda: check_solo_marshal_bound("stop_archiving"))
    return out


def run_check(family: str, rules: CactusRules = CactusRules(), players: int | None = None) -> dict:
    """One check family (a key of :data:`READS`) under ``rules``: the readings it reads (``READS``)
    are taken from ``rules``, every other one cannot change it. ``players`` for the event-deck checks."""
    r = rules
    event = {"event-marshal-last-3": lambda: check_marshal_last_three(players),
             "event-end-bound": lambda: check_event_bound(players, r.stagecoach_short),
             "event-last-3-rounds": lambda: check_last_three_rounds(players, r.stagecoach_short),
             "duel-discard-reaches-marshal": lambda: check_duel_reaches_marshal(players, r),
             "event-end-bound-with-duels": lambda: check_duel_bound(players, r.marshal_discard, r.duel_discards,
                                                                    r.max_duels_per_round, r.stagecoach_short),
             "c5-reading-changes-end": lambda: check_c5_reading_matters(players)}
    solo = {"solo-deck-3-plus-1-through-round-11": check_solo_deck_enough,
            "solo-deck-3-plus-1-after-round-11": lambda: check_solo_deck_after_11(r.short_deck),
            "solo-marshal-bound": lambda: check_solo_marshal_bound(r.short_deck)}
    if family in event:
        if players not in (2, 3, 4, 5):
            raise BadInput(f"{family}: players must be 2..5, got {players!r}")
        return event[family]()
    if family in solo:
        return solo[family]()
    raise BadInput(f"unknown cactus check '{family}' (known: {', '.join(READS)})")


_RESULTS: dict = {}


def verify_all(players: tuple[int, ...] = (2, 3, 4, 5), quick: bool = False, progress=None,
               rules: CactusRules = CactusRules()) -> tuple:
    """All checks, results cached per process (``progress(done, total)`` is called as they run)."""
    key = (tuple(players), bool(quick), rules)
    if key not in _RESULTS:
        steps = plan(*key)
        out = []
        for i, step in enumerate(steps):
            out.append(step())
            if progress:
                progress(i + 1, len(steps))
        _RESULTS[key] = tuple(out)
    return _RESULTS[key]


def clear_cache() -> None:
    _RESULTS.clear()
    _SHARED.clear()


def verify(players: tuple[int, ...] = (2, 3, 4, 5), quick: bool = False, progress=None,
           rules: CactusRules = CactusRules()) -> dict:
    """The ``ruleslinger cactus verify`` result: ``{"checks": [...], "total_seconds": x}``."""
    checks = [dict(c) for c in verify_all(tuple(players), quick, progress, rules)]
    return {"checks": checks, "total_seconds": round(sum(c["seconds"] for c in checks), 3),
            "summary": {"holds": sum(c["holds"] is True for c in checks),
                        "fails": sum(c["holds"] is False for c in checks),
                        "unknown": sum(c["holds"] is None for c in checks)},
            "defaults": CactusRules().to_json(), "rules": rules.to_json()}
