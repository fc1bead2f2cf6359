"""The event-deck checks (rule:C-event-deck, rule:C-event-draw, rule:C-ev-train, rule:C-ev-stagecoach,
rule:C5, rule:C-duel-discard, rule:C4, rule:C10, rule:C-duels-a-round): where the marshal lies, the rounds
the game can end in with Train and Stagecoach, and what duel discards change.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import z3

from solver.cactus import events as ev
from solver.cactus.readings import CactusReadings
from solver.cactus.verify.base import PASSAGES, M, fresh_solver, sat_of, timed
from solver.cactus.verify.event_model import EventModel, build_event_model
from solver.z3check import CheckResult, Finding, Z3Run


def check_marshal_last_three(players: int) -> CheckResult:
    """The set-up always puts the marshal's arrival among the last 3 event cards."""
    size = ev.deck_size(players)

    def fn(run: Z3Run) -> Finding:
        s, em = build_event_model(run, size, 0)
        s.add(z3.Or([em.deck[k][M] for k in range(size - 2)]))
        found = sat_of(run, s)
        return Finding(holds=None if found is None else not found,
                       counterexample=em.trace(s.model()) if found else None,
                       details={"deck_cards": size + 1, "marshal_positions": [size - 1, size, size + 1]})
    return timed(f"event-marshal-last-3/p{players}", f"{players} players: the marshal's arrival is always among "
                  f"the last 3 of the {size + 1} event cards", PASSAGES["deck"], fn)


def _claim(run: Z3Run, s: z3.Solver, em: EventModel, *claim: z3.BoolRef) -> tuple[bool | None, dict | None]:
    """Whether ``claim`` can hold on the model (None on a time-out), with the run that shows it; the claim is pushed
    and popped, so the model can be scanned afterwards without being built again."""
    s.push()
    s.add(*claim)
    found = sat_of(run, s)
    shown = em.trace(s.model()) if found else None
    s.pop()
    return found, shown


def _end_range(run: Z3Run, s: z3.Solver, em: EventModel, latest: bool = True) -> tuple[int | None, int | None, dict, dict]:
    """Earliest (and latest) end round over all decks and choices of the model ``em`` built in ``s``, by scanning its
    rounds with the same incremental solver (each round's claim pushed and popped); with a witness run for each end."""
    found: dict[str, tuple[int, dict]] = {}
    scans = [("earliest", range(1, em.rounds + 1))] + ([("latest", range(em.rounds, 0, -1))] if latest else [])
    for label, order in scans:
        for r in order:
            ends, shown = _claim(run, s, em, em.ended, em.end == r)
            if ends and shown is not None:  # a run that ends there, and its trace
                found[label] = (r, shown)
                break
    if len(found) < len(scans):
        return None, None, {}, {}
    late = found.get("latest", (None, {}))
    return found["earliest"][0], late[0], found["earliest"][1], late[1]


def check_event_bound(players: int, stagecoach_short: str = "as_many") -> CheckResult:
    """With Train and Stagecoach (no duel discards) the marshal always ends the game, within rounds
    [size-2, size+3]; the bound is tight (witness decks for both ends)."""
    size = ev.deck_size(players)
    lo, hi = size - 2, size + 3

    def fn(run: Z3Run) -> Finding:
        s, em = build_event_model(run, size, hi + 2, stagecoach_short=stagecoach_short)
        found, shown = _claim(run, s, em, z3.Or(z3.Not(em.ended_at[hi - 1]), em.end < lo))
        details: dict[str, Any] = {"bound": [lo, hi]}
        if found is False:
            early, late, w_early, w_late = _end_range(run, s, em)
            details.update({"earliest": early, "latest": late, "witness_earliest": w_early, "witness_latest": w_late})
        return Finding(holds=None if found is None else not found, counterexample=shown, details=details)
    return timed(f"event-end-bound/p{players}", f"{players} players: Train and Stagecoach cannot push the "
                  f"marshal's arrival outside rounds {lo}-{hi}; the game always ends by it", PASSAGES["train_stage"], fn,
                  ("event-end-bound", size, stagecoach_short))


def check_last_three_rounds(players: int, stagecoach_short: str = "as_many") -> CheckResult:
    """'the game end will be triggered with one of the last 3 cards', read as rounds: does the game
    always end in the rounds those cards would be drawn (size-1 .. size+1)? Train and Stagecoach say no."""
    size = ev.deck_size(players)

    def fn(run: Z3Run) -> Finding:
        s, em = build_event_model(run, size, size + 5, stagecoach_short=stagecoach_short)
        s.add(z3.Or(z3.Not(em.ended), em.end < size - 1, em.end > size + 1))
        found = sat_of(run, s)
        return Finding(holds=None if found is None else not found,
                       counterexample=em.trace(s.model()) if found else None,
                       details={"rounds_of_last_3_cards": [size - 1, size + 1],
                                   "finding": "Train can end the game a round early, Stagecoach delays it by up to 2 rounds: "
                                              "the last-3 promise holds for cards, not for rounds"})
    return timed(f"event-last-3-rounds/p{players}", f"{players} players: the game ends in the rounds of the last "
                  f"3 cards ({size - 1}-{size + 1}) despite Train and Stagecoach", PASSAGES["deck"], fn,
                  ("event-last-3-rounds", size, stagecoach_short))


def _duel_cap(duel_discards: str, max_duels: int) -> int:
    """rule:C10: duel wins a round can hold: ``max_duels`` (every win discards; rule:C-duels-a-round), or 1."""
    return 1 if duel_discards == "one_per_round" else max_duels


def check_duel_reaches_marshal(players: int, readings: CactusReadings = CactusReadings()) -> CheckResult:
    """A lone ranger's duel win can discard the marshal's arrival (exposes open question C4)."""
    size = ev.deck_size(players)
    cap = _duel_cap(readings.duel_discards, readings.max_duels_per_round)

    def fn(run: Z3Run) -> Finding:
        s, em = build_event_model(run, size, size + 4, duels=True, duels_per_round=cap,
                             stagecoach_short=readings.stagecoach_short)
        s.add(z3.Or(em.duel_hits_marshal))
        found = sat_of(run, s)
        return Finding(holds=found, counterexample=em.trace(s.model()) if found else None, open_question="C4",
                       details={"reading_default": "revealed: the game ends (like Train)",
                                   "alternative": "discarded: it goes to the discard pile",
                                   "duel_discards": readings.duel_discards, "duel_wins_a_round_at_most": cap})
    return timed(f"duel-discard-reaches-marshal/p{players}", f"{players} players: a duel discard can reach the "
                  "marshal's arrival (the rule text does not say what happens: C4)", PASSAGES["duel"], fn,
                  ("duel-discard-reaches-marshal", size, cap, readings.stagecoach_short))


def check_duel_bound(players: int, marshal_discard: str, duel_discards: str = "every_win",
                     max_duels: int = 4, stagecoach_short: str = "as_many") -> CheckResult:
    """With duel discards in any round (up to ``max_duels`` wins a round under C10 ``every_win``,
    one under ``one_per_round``): does the marshal still always end the game, and how early?"""
    size = ev.deck_size(players)
    hi = size + 3
    cap = _duel_cap(duel_discards, max_duels)

    def fn(run: Z3Run) -> Finding:
        out = _duel_bound_result(run, size, hi, marshal_discard, cap, stagecoach_short)
        return replace(out, details={**out.details, "duel_discards": duel_discards})
    return timed(f"event-end-bound-with-duels/{duel_discards}/{marshal_discard}/p{players}",
                  f"{players} players, duel discards allowed (C10 '{duel_discards}', at most {cap} a round), "
                  f"C4 '{marshal_discard}': the marshal always ends the game by round {hi}", PASSAGES["duel"], fn,
                  ("event-end-bound-with-duels", size, duel_discards, marshal_discard, cap, stagecoach_short))


def _duel_bound_result(run: Z3Run, size: int, hi: int, marshal_discard: str, cap: int,
                       stagecoach_short: str) -> Finding:
    """Whether every run ends by round ``hi`` with up to ``cap`` duel wins a round, and the earliest end."""
    kw = {"duels": True, "marshal_discard": marshal_discard, "duels_per_round": cap, "stagecoach_short": stagecoach_short}
    s, em = build_event_model(run, size, hi, **kw)
    found, shown = _claim(run, s, em, z3.Not(em.ended_at[hi - 1]))
    details = {"reading": marshal_discard, "duel_wins_a_round_at_most": cap, "bound_latest": hi,
               "stagecoach_short": stagecoach_short}
    early, _, w_early, _ = _end_range(run, s, em, latest=False)
    details.update({"earliest": early, "witness_earliest": w_early})
    if found is False:
        details.update({"latest": hi, "latest_note": "reached without duels (event-end-bound witness)"})
    return Finding(holds=None if found is None else not found, open_question="C4", counterexample=shown,
                   details=details)


def check_c5_reading_matters(players: int) -> CheckResult:
    """Claim: the C5 reading (Stagecoach with fewer than 2 discards) never changes the end round.
    Both readings run on the same deal with the same Stagecoach picks (shared Z3 constants); a
    counterexample is a deal where they end the game in different rounds."""
    size = ev.deck_size(players)

    def fn(run: Z3Run) -> Finding:
        s = fresh_solver(run)
        many = EventModel(run.ctx, size, size + 5, stagecoach_short="as_many")
        none = EventModel(run.ctx, size, size + 5, stagecoach_short="none")
        many.build(s)
        none.build(s)  # same constant names: the same deck, slot and picks
        s.add(z3.Or(many.end != none.end, many.ended != none.ended))
        found = sat_of(run, s)
        cex = None
        if found:
            m = s.model()
            cex = {"as_many": many.trace(m), "none": none.trace(m)}
        return Finding(holds=None if found is None else not found, counterexample=cex, open_question="C5")
    return timed(f"c5-reading-changes-end/p{players}", f"{players} players: the Stagecoach reading C5 never "
                  "changes the round the game ends", PASSAGES["train_stage"], fn, ("c5-reading-changes-end", size))

