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
from solver.cactus.rules import CactusRules

O, T, S, M, NONE = 0, 1, 2, 3, -1
KINDS = (O, T, S, M)
KIND = {O: "other", T: "train", S: "stagecoach", M: "marshal", NONE: "-"}
TIMEOUT_MS = 20_000

PASSAGES = {
    "deck": "Event Card Deck: 'draw a number of cards face down, depending on the number of players ... shuffle "
            "the marshal's arrival card with the bottom 2 cards of the deck, so you always know that the game end "
            "will be triggered with one of the last 3 cards.'",
    "train_stage": "Event Card Table: Train 'Discard the following event. If it is the \"marshal's arrival\", the game "
                   "ends immediately.'; Stagecoach 'Shuffle the event discard pile, draw 2 cards (if possible) and put "
                   "them on top of the event card deck.'",
    "duel": "DUEL: 'If the lone ranger wins a duel he has initiated, discard the following event card from the event "
            "card deck.' (open question C4)",
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
    "duel-discard-reaches-marshal": ["C-duel-discard", "C4"],
    "event-end-bound-with-duels": ["C-duel-discard", "C4"],
    "solo-deck-3-plus-1-through-round-11": ["C-solo-schedule", "C-solo-planning", "C3"],
    "solo-deck-3-plus-1-after-round-11": ["C-solo-schedule", "C2"],
    "solo-marshal-bound": ["C-solo-marshal", "C2"],
    "c5-reading-changes-end": ["C-ev-stagecoach", "C5"],
}


def _timed(check_id: str, title: str, rule: str, fn) -> dict:
    """Run ``fn(ctx)`` with a fresh Z3 context and time it."""
    ctx = z3.Context()
    start = time.perf_counter()
    try:
        out = fn(ctx)
    finally:
        seconds = time.perf_counter() - start
    return {"id": check_id, "title": title, "holds": out.get("holds"), "proven": out.get("holds") is not None,
            "counterexample": out.get("counterexample"), "rule": rule, "open_question": out.get("open_question"),
            "details": out.get("details", {}), "seconds": round(seconds, 4),
            "rule_ids": RULE_IDS.get(check_id.split("/")[0], [])}


TIMEOUT = contextvars.ContextVar("cactus_verify_timeout_ms", default=TIMEOUT_MS)
"""The Z3 time limit of the checks run in this context (``readings impact --time-limit`` sets it)."""


def _solver(ctx: z3.Context) -> z3.Solver:
    s = z3.Solver(ctx=ctx)
    s.set("timeout", TIMEOUT.get())
    return s


# ------------------------------------------------------------------------------- the event deck

@dataclass
class EventModel:
    """The event deck of ``size`` cards + the marshal, unrolled for ``rounds`` rounds.

    Propositional encoding: every card (deck position, card drawn, Stagecoach pick) is a one-hot
    set of 4 Booleans (other, Train, Stagecoach, marshal; all false = no card), the deck pointer is a
    one-hot vector over positions; only the discard counts and the end round are integers.
    """

    ctx: z3.Context
    size: int
    rounds: int
    duels: bool = False
    marshal_discard: str = "revealed"
    stagecoach_short: str = "as_many"

    def build(self, s: z3.Solver) -> None:
        ctx, n = self.ctx, self.size
        B = lambda name: z3.Bool(name, ctx)  # noqa: E731
        F, TR = z3.BoolVal(False, ctx), z3.BoolVal(True, ctx)
        iv = lambda v: z3.IntVal(v, ctx)  # noqa: E731
        empty = {k: F for k in KINDS}

        def one_hot(card, allow_none=False):
            bits = [card[k] for k in KINDS]
            s.add(z3.AtMost(*bits, 1))
            if not allow_none:
                s.add(z3.Or(bits))

        def pick(cond, a, b):  # If over one-hot cards / pointer vectors
            if isinstance(a, dict):
                return {k: z3.If(cond, a[k], b[k]) for k in a}
            return [z3.If(cond, x, y) for x, y in zip(a, b)]

        # set-up (rule C-event-deck): the first ``size`` of the shuffled 17 (one Train, one Stagecoach
        # among the 17), then the marshal shuffled with the bottom 2
        self.pre = [{k: B(f"pre{i}_{k}") for k in KINDS} for i in range(n)]
        for c in self.pre:
            one_hot(c)
            s.add(z3.Not(c[M]))
        for kind in (T, S):
            s.add(z3.AtMost(*[c[kind] for c in self.pre], 1))
        self.slot = z3.Int("slot", ctx)
        s.add(self.slot >= 0, self.slot <= 2)
        a, b = self.pre[n - 2], self.pre[n - 1]
        marshal = {k: z3.BoolVal(k == M, ctx) for k in KINDS}
        self.deck = list(self.pre[:n - 2]) + [pick(self.slot == 0, marshal, a),
                                              pick(self.slot == 0, a, pick(self.slot == 1, marshal, b)),
                                              pick(self.slot == 2, marshal, b)]
        size = n + 1
        ptr = [TR] + [F] * size  # ptr[size] = past the end
        s0, s1 = dict(empty), dict(empty)
        disc = {k: iv(0) for k in KINDS}
        ended, end = F, iv(0)
        self.drawn, self.duel_wins, self.picks, self.duel_hits_marshal, self.ended_at = [], [], [], [], []

        def take(ptr, s0, s1):
            ne = z3.Or([s0[k] for k in KINDS])
            from_deck = {k: z3.Or([z3.And(ptr[i], self.deck[i][k]) for i in range(size)]) for k in KINDS}
            card = pick(ne, s0, from_deck)
            moved = [F] + ptr[:size - 1] + [z3.Or(ptr[size - 1], ptr[size])]
            return card, pick(ne, ptr, moved), pick(ne, s1, s0), pick(ne, empty, s1)

        def add(disc, card, when):
            return {k: disc[k] + z3.If(z3.And(when, card[k]), 1, 0) for k in KINDS}

        for r in range(1, self.rounds + 1):
            live = z3.Not(ended)
            c, p1, a0, a1 = take(ptr, s0, s1)
            c = pick(live, c, empty)
            self.drawn.append(c)
            ptr, s0, s1 = pick(live, p1, ptr), pick(live, a0, s0), pick(live, a1, s1)
            stop = c[M]  # rule:C-ev-marshal
            # Train: discard the following event; the marshal's arrival ends the game
            d, p2, b0, b1 = take(ptr, s0, s1)
            stop = z3.Or(stop, z3.And(c[T], d[M]))
            disc = add(disc, d, z3.And(c[T], z3.Not(d[M])))
            ptr, s0, s1 = pick(c[T], p2, ptr), pick(c[T], b0, s0), pick(c[T], b1, s1)
            # Stagecoach: up to 2 cards of the discard pile (itself not yet in it) go on top
            total = disc[O] + disc[T] + disc[S] + disc[M]
            if self.stagecoach_short == "as_many":
                k = z3.If(total >= 2, 2, total)
            else:
                k = z3.If(total >= 2, 2, 0)
            k = z3.If(c[S], k, 0)
            x1 = {kk: B(f"pick{r}a_{kk}") for kk in KINDS}
            x2 = {kk: B(f"pick{r}b_{kk}") for kk in KINDS}
            one_hot(x1)
            one_hot(x2)
            self.picks.append((x1, x2, k))
            s.add(z3.Implies(k >= 1, z3.Or([z3.And(x1[v], disc[v] >= 1) for v in KINDS])))
            s.add(z3.Implies(k >= 2, z3.Or([z3.And(x2[v], disc[v] - z3.If(x1[v], 1, 0) >= 1) for v in KINDS])))
            disc = {v: disc[v] - z3.If(z3.And(k >= 1, x1[v]), 1, 0) - z3.If(z3.And(k >= 2, x2[v]), 1, 0)
                    for v in KINDS}
            s0 = pick(k >= 1, x1, s0)
            s1 = pick(k >= 2, x2, s1)
            # the drawn event goes to the discard pile (the marshal ends the game instead)
            disc = add(disc, c, z3.Not(c[M]))
            # a duel won by the lone ranger in the action phase (rule C4 for the marshal)
            won = B(f"duel{r}") if self.duels else F
            won = z3.And(won, z3.Not(stop), live)
            self.duel_wins.append(won)
            e, p3, e0, e1 = take(ptr, s0, s1)
            hit = z3.And(won, e[M])
            self.duel_hits_marshal.append(hit)
            if self.marshal_discard == "revealed":
                stop = z3.Or(stop, hit)
                disc = add(disc, e, z3.And(won, z3.Not(e[M])))
            else:
                disc = add(disc, e, won)
            ptr, s0, s1 = pick(won, p3, ptr), pick(won, e0, s0), pick(won, e1, s1)
            newly = z3.And(live, stop)
            end = z3.If(newly, r, end)
            ended = z3.Or(ended, newly)
            self.ended_at.append(ended)
        self.ended, self.end = ended, end

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
            if z3.is_true(m.eval(self.duel_wins[r - 1], model_completion=True)):
                row["lone_ranger_wins_duel"] = True
            if kind == NONE:
                break
            rounds.append(row)
        return {"deck_top_first": [KIND[self._kind(m, d)] for d in self.deck],
                "rounds": rounds, "ends_in_round": num(self.end) or None}


EVENT_READINGS = ("marshal_discard", "stagecoach_short")
"""The CactusRules fields the event-deck model takes (:func:`deck_readings`); ``readings impact``
reruns the event-deck checks under each alternative of these."""

SOLO_READINGS = ("short_deck",)
"""The CactusRules fields the solo-deck model takes (the added cards are free choices, rule:C3)."""


def deck_readings(rules: CactusRules) -> dict:
    """The event-deck model's keyword arguments from a rules object (rule:C4, rule:C5)."""
    return {name: getattr(rules, name) for name in EVENT_READINGS}


def _event_model(ctx, size, rounds, **kw) -> tuple[z3.Solver, EventModel]:
    s = _solver(ctx)
    em = EventModel(ctx, size, rounds, **kw)
    em.build(s)
    return s, em


def _verdict(s: z3.Solver):
    r = s.check()
    return None if r == z3.unknown else r == z3.sat


def possible_end_rounds(deck_top_first, duels: bool = False, marshal_discard: str = "revealed",
                        stagecoach_short: str = "as_many") -> set:
    """Every end round the Z3 model allows for one concrete deck (kinds ``other``, ``train``,
    ``stagecoach``, ``marshal``); ``None`` in the set when some run never ends. Used by the tests to
    check the Z3 encoding against the Python engine (solver.cactus.events)."""
    names = {v: k for k, v in KIND.items()}
    kinds = [names[c] for c in deck_top_first]
    size = len(kinds) - 1
    if kinds.count(M) != 1 or kinds.index(M) < size - 2:
        raise ValueError("the deck needs exactly one marshal among its last 3 cards")
    ctx = z3.Context()
    s, em = _event_model(ctx, size, size + 5, duels=duels, marshal_discard=marshal_discard,
                         stagecoach_short=stagecoach_short)
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


def check_event_bound(players: int, rules: CactusRules = CactusRules()) -> dict:
    """With Train and Stagecoach (no duel discards) the marshal always ends the game, within rounds
    [size-2, size+3]; the bound is tight (witness decks for both ends)."""
    size = ev.deck_size(players)
    lo, hi = size - 2, size + 3

    def fn(ctx):
        s, em = _event_model(ctx, size, hi + 2, **deck_readings(rules))
        s.add(z3.Or(z3.Not(em.ended_at[hi - 1]), em.end < lo))
        found = _verdict(s)
        details = {"bound": [lo, hi]}
        if found is False:
            early, late, w_early, w_late = _end_range(ctx, size, hi + 2, **deck_readings(rules))
            details.update({"earliest": early, "latest": late, "witness_earliest": w_early, "witness_latest": w_late})
        return {"holds": None if found is None else not found,
                "counterexample": em.trace(s.model()) if found else None, "details": details}
    return _timed(f"event-end-bound/p{players}", f"{players} players: Train and Stagecoach cannot push the "
                  f"marshal's arrival outside rounds {lo}-{hi}; the game always ends by it", PASSAGES["train_stage"], fn)


def check_last_three_rounds(players: int, rules: CactusRules = CactusRules()) -> dict:
    """'the game end will be triggered with one of the last 3 cards', read as rounds: does the game
    always end in the rounds those cards would be drawn (size-1 .. size+1)? Train and Stagecoach say no."""
    size = ev.deck_size(players)

    def fn(ctx):
        s, em = _event_model(ctx, size, size + 5, **deck_readings(rules))
        s.add(z3.Or(z3.Not(em.ended), em.end < size - 1, em.end > size + 1))
        found = _verdict(s)
        return {"holds": None if found is None else not found,
                "counterexample": em.trace(s.model()) if found else None,
                "details": {"rounds_of_last_3_cards": [size - 1, size + 1],
                            "finding": "Train can end the game a round early, Stagecoach delays it by up to 2 rounds: "
                                       "the last-3 promise holds for cards, not for rounds"}}
    return _timed(f"event-last-3-rounds/p{players}", f"{players} players: the game ends in the rounds of the last "
                  f"3 cards ({size - 1}-{size + 1}) despite Train and Stagecoach", PASSAGES["deck"], fn)


def check_duel_reaches_marshal(players: int, rules: CactusRules = CactusRules()) -> dict:
    """A lone ranger's duel win can discard the marshal's arrival (exposes open question C4)."""
    size = ev.deck_size(players)

    def fn(ctx):
        s, em = _event_model(ctx, size, size + 4, duels=True, **deck_readings(rules))
        s.add(z3.Or(em.duel_hits_marshal))
        found = _verdict(s)
        return {"holds": found, "counterexample": em.trace(s.model()) if found else None, "open_question": "C4",
                "details": {"reading_default": "revealed: the game ends (like Train)",
                            "alternative": "discarded: it goes to the discard pile"}}
    return _timed(f"duel-discard-reaches-marshal/p{players}", f"{players} players: a duel discard can reach the "
                  "marshal's arrival (the rule text does not say what happens: C4)", PASSAGES["duel"], fn)


def check_duel_bound(players: int, marshal_discard: str | None = None, rules: CactusRules = CactusRules()) -> dict:
    """With duel discards in any round: does the marshal still always end the game, and when?
    ``marshal_discard`` (rule:C4) overrides the one of ``rules``."""
    size = ev.deck_size(players)
    kw = deck_readings(rules) | ({"marshal_discard": marshal_discard} if marshal_discard else {})
    marshal_discard = kw["marshal_discard"]
    hi = size + 3

    def fn(ctx):
        s, em = _event_model(ctx, size, hi + 3, duels=True, **kw)
        s.add(z3.Or(z3.Not(em.ended_at[hi - 1])))
        found = _verdict(s)
        details = {"reading": marshal_discard, "bound_latest": hi}
        if found is False:
            early, _, w_early, _ = _end_range(ctx, size, hi, latest=False, duels=True, **kw)
            details.update({"earliest": early, "latest": hi, "witness_earliest": w_early,
                            "latest_note": "reached without duels (event-end-bound witness)"})
        return {"holds": None if found is None else not found, "open_question": "C4",
                "counterexample": em.trace(s.model()) if found else None, "details": details}
    return _timed(f"event-end-bound-with-duels/{marshal_discard}/p{players}",
                  f"{players} players, duel discards allowed, C4 '{marshal_discard}': the marshal always ends the "
                  f"game by round {hi}", PASSAGES["duel"], fn)


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
                  "changes the round the game ends", PASSAGES["train_stage"], fn)


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


def check_solo_deck_enough(rules: CactusRules = CactusRules()) -> dict:
    """Every round 1-11 the solo deck holds at least 4 cards: 3 programmed + 1 second shot."""
    def fn(ctx):
        s = _solver(ctx)
        inn, size = _solo_sets(ctx, s, rules.short_deck)
        r = z3.Int("r", ctx)
        s.add(r >= 1, r <= 11, z3.Or([z3.And(r == k, size[k] < 4) for k in range(1, 12)]))
        found = _verdict(s)
        sizes = {}
        if found is False:
            s2 = _solver(ctx)
            _, size2 = _solo_sets(ctx, s2, rules.short_deck)
            s2.check()
            sizes = {str(k): s2.model().eval(size2[k]).as_long() for k in size2}
        return {"holds": None if found is None else not found,
                "counterexample": {"round": s.model().eval(r).as_long()} if found else None,
                "details": {"deck_size_by_round": sizes}}
    return _timed("solo-deck-3-plus-1-through-round-11", "solo: rounds 1-11 always have 3 programmed cards and a "
                  "second shot card, for any marked and added cards", PASSAGES["solo_deck"], fn)


def check_solo_deck_after_11(rules: CactusRules = CactusRules()) -> dict:
    """Does the deck still hold 3 + 1 cards after round 11? No: round 12 has 3 (open question C2)."""
    def fn(ctx):
        s = _solver(ctx)
        inn, size = _solo_sets(ctx, s, rules.short_deck)
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


def check_solo_marshal_bound(short_deck: str | None = None, rules: CactusRules = CactusRules()) -> dict:
    """The marshal's arrival is revealed as an action no earlier than round 6 and by a bound round,
    for every shuffle (the bound: 12 under C2 ``no_second_shot``, 14 under ``keep_second_shot``)."""
    short_deck = short_deck or rules.short_deck
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


def plan(players: tuple[int, ...] = (2, 3, 4, 5), quick: bool = False) -> list:
    """The checks to run, as zero-argument callables: event deck checks per player count, then solo."""
    out = []
    for p in players:
        out += [lambda p=p: check_marshal_last_three(p), lambda p=p: check_event_bound(p),
                lambda p=p: check_last_three_rounds(p), lambda p=p: check_duel_reaches_marshal(p),
                lambda p=p: check_duel_bound(p, "revealed")]
        if not quick:
            out += [lambda p=p: check_duel_bound(p, "discarded"), lambda p=p: check_c5_reading_matters(p)]
    out += [check_solo_deck_enough, check_solo_deck_after_11, lambda: check_solo_marshal_bound("no_second_shot"),
            lambda: check_solo_marshal_bound("keep_second_shot")]
    if not quick:
        out.append(lambda: check_solo_marshal_bound("stop_archiving"))
    return out


_RESULTS: dict = {}


def verify_all(players: tuple[int, ...] = (2, 3, 4, 5), quick: bool = False, progress=None) -> tuple:
    """All checks, results cached per process (``progress(done, total)`` is called as they run)."""
    key = (tuple(players), bool(quick))
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


def verify(players: tuple[int, ...] = (2, 3, 4, 5), quick: bool = False, progress=None) -> dict:
    """The ``ruleslinger cactus verify`` result: ``{"checks": [...], "total_seconds": x}``."""
    checks = [dict(c) for c in verify_all(tuple(players), quick, progress)]
    return {"checks": checks, "total_seconds": round(sum(c["seconds"] for c in checks), 3),
            "summary": {"holds": sum(c["holds"] is True for c in checks),
                        "fails": sum(c["holds"] is False for c in checks),
                        "unknown": sum(c["holds"] is None for c in checks)},
            "defaults": CactusRules().to_dict()}
