"""Z3 checks of the expansion's deck rules (``ruleslinger cactus verify``).

Each check encodes the rules in Z3 and runs through the one Z3 check runner (:mod:`solver.z3check`: a fresh
``z3.Context``, timed), and reports ``holds``
(True/False, None on a time-out), a counterexample or witness when it fails or when it exposes an
open rule, and the rulebook passage it checks. The event deck is modelled by card kind (marshal,
Train, Stagecoach, any other card: the others act alike on the deck) with every deck the set-up
can deal (rule:C-event-deck), one draw per round (rule:C-event-draw), Train (rule:C-ev-train),
Stagecoach with any cards its shuffle can bring back (rule:C-ev-stagecoach, rule:C5) and duel
discards in any round (rule:C-duel-discard, rule:C4). The solo deck is modelled by card sets per
round with any choice of the added cards (rule:C-solo-schedule, rule:C3), any shuffle, and the
planning split (rule:C-solo-planning, rule:C2, rule:C-solo-marshal).

This module plans and runs them (``plan``, ``run_check``, ``verify``); the checks live in ``event_checks`` (the
event deck, its Z3 model in ``event_model``) and ``solo_checks``, what they share in ``base``.
"""

from __future__ import annotations

from collections.abc import Callable

from solver import verification
from solver.cactus.readings import CHOICES, CactusReadings
from solver.cactus.verify import base
from solver.cactus.verify.base import (
    KIND,
    PASSAGES,
    READS,
    RULE_IDS,
    TIMEOUT,
    TIMEOUT_MS,
)
from solver.cactus.verify.event_checks import (
    check_c5_reading_matters,
    check_duel_bound,
    check_duel_reaches_marshal,
    check_event_bound,
    check_last_three_rounds,
    check_marshal_last_three,
)
from solver.cactus.verify.event_model import EventModel, possible_end_rounds
from solver.cactus.verify.solo_checks import (
    check_solo_deck_after_11,
    check_solo_deck_enough,
    check_solo_marshal_bound,
)
from solver.errors import BadInput
from solver.execution.progress import OnProgress, Progress
from solver.z3check import CheckResult

__all__ = ["KIND", "PASSAGES", "READS", "RULE_IDS", "TIMEOUT", "TIMEOUT_MS", "EventModel", "possible_end_rounds",
           "check_marshal_last_three", "check_event_bound", "check_last_three_rounds", "check_duel_reaches_marshal",
           "check_duel_bound", "check_c5_reading_matters", "check_solo_deck_enough", "check_solo_deck_after_11",
           "check_solo_marshal_bound", "plan", "run_check", "verify_all", "clear_cache", "verify"]


def _duel_bounds(p: int, readings: CactusReadings, quick: bool) -> list:
    """The duel-bound checks: the given readings first, then (not quick) every other C4 x C10 pair."""
    pairs = [(readings.marshal_discard, readings.duel_discards)]
    if not quick:
        pairs += [(c4, c10) for c4 in CHOICES["marshal_discard"] for c10 in CHOICES["duel_discards"]
                  if (c4, c10) != pairs[0]]
    return [lambda p=p, c4=c4, c10=c10: check_duel_bound(p, c4, c10, readings.max_duels_per_round, readings.stagecoach_short)
            for c4, c10 in pairs]


def plan(players: tuple[int, ...] = (2, 3, 4, 5), quick: bool = False, readings: CactusReadings = CactusReadings()) -> list:
    """The checks to run, as zero-argument callables: event deck checks per player count, then solo."""
    out: list[Callable[..., CheckResult]] = []
    c5 = readings.stagecoach_short
    for p in players:
        out += [lambda p=p: check_marshal_last_three(p), lambda p=p: check_event_bound(p, c5),
                lambda p=p: check_last_three_rounds(p, c5), lambda p=p: check_duel_reaches_marshal(p, readings)]
        out += _duel_bounds(p, readings, quick)
        if not quick:
            out.append(lambda p=p: check_c5_reading_matters(p))
    out += [check_solo_deck_enough, check_solo_deck_after_11, lambda: check_solo_marshal_bound("no_second_shot"),
            lambda: check_solo_marshal_bound("keep_second_shot")]
    if not quick:
        out.append(lambda: check_solo_marshal_bound("stop_archiving"))
    return out


def run_check(family: str, readings: CactusReadings = CactusReadings(), players: int | None = None) -> CheckResult:
    """One check family (a key of :data:`READS`) under ``readings``: the readings it reads (``READS``)
    are taken from ``readings``, every other one cannot change it. ``players`` for the event-deck checks."""
    r = readings
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


def verify_all(players: tuple[int, ...] = (2, 3, 4, 5), quick: bool = False, progress: OnProgress | None = None,
               readings: CactusReadings = CactusReadings()) -> tuple[CheckResult, ...]:
    """All checks, results cached per process (``progress`` after each as they run)."""
    key = (tuple(players), bool(quick), readings)
    if key not in _RESULTS:
        steps = plan(*key)
        out = []
        for i, step in enumerate(steps):
            out.append(step())
            if progress:
                progress(Progress(i + 1, len(steps), "checks"))
        _RESULTS[key] = tuple(out)
    return _RESULTS[key]


def clear_cache() -> None:
    _RESULTS.clear()
    base.clear_shared()


def verify(players: tuple[int, ...] = (2, 3, 4, 5), quick: bool = False, progress: OnProgress | None = None,
           readings: CactusReadings = CactusReadings()) -> dict:
    """The ``ruleslinger cactus verify`` result: ``{"checks": [...], "elapsed": x, ...}`` (the checks as JSON)."""
    return verification.report(verify_all(tuple(players), quick, progress, readings), readings,
                               defaults=CactusReadings().to_json())


def report(readings: CactusReadings, options: dict, progress: OnProgress | None = None) -> dict:
    """The registry's entry (:mod:`solver.verification`): the checks under ``readings`` with the page's or a caller's
    ``options`` ``{"players": [2..5], "quick": bool}``."""
    return verify(tuple(options.get("players", (2, 3, 4, 5))), bool(options.get("quick", True)), progress, readings)
