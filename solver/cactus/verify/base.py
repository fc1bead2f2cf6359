"""What every Cactus Town deck check shares (rule:C-event-deck, rule:C-solo-schedule): the card kinds of the
event-deck encoding, the rulebook passages and register ids each check reports, the readings each check
family reads, and the run of one check through the Z3 check runner (:mod:`solver.z3check`) with its result cache.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from dataclasses import replace

import z3

from solver.z3check import CheckResult, Finding, Outcome, Z3Run, run_check

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


READS = {  # check family -> the CactusReadings options its encoding reads; no other option can change it
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


_SHARED: dict[tuple, Outcome] = {}  # (family, deck size, readings) -> outcome: 3, 4 and 5 players deal the same 10 cards


def clear_shared() -> None:
    """Forget the results shared between player counts."""
    _SHARED.clear()


def timed(check_id: str, title: str, rule: str, fn: Callable[[Z3Run], Finding],
          share: tuple | None = None) -> CheckResult:
    """Run ``fn`` through the Z3 check runner (a fresh context; each solve limited by :data:`TIMEOUT`); with
    ``share`` a decided outcome made for the same deal size and readings is reused (results are cached, never
    solvers), taking no time."""
    family = check_id.split("/")[0]
    kept = _SHARED.get(share) if share else None
    outcome = replace(kept, elapsed=0.0) if kept else run_check(fn, solve_limit=TIMEOUT.get() / 1000)
    if share and kept is None and outcome.holds is not None:
        _SHARED[share] = outcome
    return CheckResult(check_id, title, rule, outcome, rule_ids=tuple(RULE_IDS.get(family, [])),
                       extra={"reads": READS.get(family, [])}, seconds_alias=True)


TIMEOUT = contextvars.ContextVar("cactus_verify_timeout_ms", default=TIMEOUT_MS)
"""The Z3 time limit of each solve of the checks run in this context (``readings impact --time-limit`` sets it)."""


def fresh_solver(run: Z3Run) -> z3.Solver:
    """A solver in ``run``'s context with this context's time limit (:data:`TIMEOUT`)."""
    return run.solver()


def sat_of(run: Z3Run, s: z3.Solver) -> bool | None:
    """Whether the solver's constraints can hold (a counterexample or witness exists); None on a time-out."""
    r = run.check(s)
    return None if r == z3.unknown else r == z3.sat
