"""The solo deck checks (rule:C-solo-schedule, rule:C3, rule:C-solo-planning, rule:C2, rule:C-solo-marshal): the
card sets of each round for any marked and added cards, any shuffle, and the planning split into 3 programmed
cards and a second shot.
"""

from __future__ import annotations

import z3

from solver.cactus.verify.base import PASSAGES, fresh_solver, sat_of, timed
from solver.z3check import CheckResult, Finding, Z3Run

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


def check_solo_deck_enough() -> CheckResult:
    """Every round 1-11 the solo deck holds at least 4 cards: 3 programmed + 1 second shot."""
    def fn(run: Z3Run) -> Finding:
        s = fresh_solver(run)
        inn, size = _solo_sets(run.ctx, s)
        r = z3.Int("r", run.ctx)
        s.add(r >= 1, r <= 11, z3.Or([z3.And(r == k, size[k] < 4) for k in range(1, 12)]))
        found = sat_of(run, s)
        sizes = {}
        if found is False:
            s2 = fresh_solver(run)
            _, size2 = _solo_sets(run.ctx, s2)
            run.check(s2)
            sizes = {str(k): s2.model().eval(size2[k]).as_long() for k in size2}
        return Finding(holds=None if found is None else not found,
                       counterexample={"round": s.model().eval(r).as_long()} if found else None,
                       details={"deck_size_by_round": sizes})
    return timed("solo-deck-3-plus-1-through-round-11", "solo: rounds 1-11 always have 3 programmed cards and a "
                  "second shot card, for any marked and added cards", PASSAGES["solo_deck"], fn)


def check_solo_deck_after_11(short_deck: str = "no_second_shot") -> CheckResult:
    """Does the deck still hold 3 + 1 cards after round 11? No: round 12 has 3 (open question C2),
    unless archiving stops at 4 cards (C2 ``stop_archiving``)."""
    def fn(run: Z3Run) -> Finding:
        s = fresh_solver(run)
        inn, size = _solo_sets(run.ctx, s, short_deck)
        r = z3.Int("r", run.ctx)
        s.add(r >= 12, r <= SOLO_ROUNDS, z3.Or([z3.And(r == k, size[k] < 4) for k in range(12, SOLO_ROUNDS + 1)]))
        found = sat_of(run, s)
        cex = None
        if found:
            s.push()
            s.add(r == 12)
            run.check(s)
            m = s.model()
            cex = {"round": 12, "deck_size": m.eval(size[12]).as_long(),
                   "deck": [str(c) for c in CARDS if z3.is_true(m.eval(inn[12][c], model_completion=True))],
                   "what_happens": "C2 default: all 3 cards are programmed, no second shot; the marshal's arrival "
                                   "is then surely revealed in round 12"}
        return Finding(holds=None if found is None else not found, counterexample=cex, open_question="C2")
    return timed("solo-deck-3-plus-1-after-round-11", "solo: rounds 12+ still have 3 programmed + 1 second shot",
                  PASSAGES["solo_deck"], fn)


def check_solo_marshal_bound(short_deck: str = "no_second_shot") -> CheckResult:
    """The marshal's arrival is revealed as an action no earlier than round 6 and by a bound round,
    for every shuffle (the bound: 12 under C2 ``no_second_shot``, 14 under ``keep_second_shot``)."""
    bound = {"no_second_shot": 12, "keep_second_shot": 14, "stop_archiving": SOLO_ROUNDS}[short_deck]

    def fn(run: Z3Run) -> Finding:
        s = fresh_solver(run)
        inn, size = _solo_sets(run.ctx, s, short_deck)
        prog = []
        for r in range(1, bound + 1):
            pos = z3.Int(f"pos{r}", run.ctx)  # the marshal's place in round r's shuffled deck
            s.add(pos >= 0, pos < size[r])
            prog.append(z3.And(inn[r]["M"], pos < _programmed(size[r], short_deck)))
        early = z3.Or(prog[:5])
        s.push()
        s.add(early)
        too_early = sat_of(run, s)
        s.pop()
        s.add(z3.Not(z3.Or(prog)))
        found = sat_of(run, s)
        cex = None
        if found:
            m = s.model()
            cex = {"rounds_without_marshal": bound,
                   "marshal_position_by_round": {str(r): m.eval(z3.Int(f"pos{r}", run.ctx)).as_long()
                                                 for r in range(6, bound + 1)},
                   "note": "the marshal can stay 4th (second shot) every round: no bound (rule C2 alternative)"}
        holds = None if found is None or too_early is None else (not found and not too_early)
        return Finding(holds=holds, counterexample=cex, open_question="C2",
                       details={"reading": short_deck, "bound": [6, bound] if holds else None})
    return timed(f"solo-marshal-bound/{short_deck}", f"solo, C2 '{short_deck}': the marshal's arrival is revealed "
                  f"in rounds 6-{bound}, whatever the shuffles", PASSAGES["solo_end"], fn)

