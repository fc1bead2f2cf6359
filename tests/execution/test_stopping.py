"""The early stop of a search (solver.stopping): a Lone Cowboy optimizer run or an Outlaws search asked to stop
ends as at its time limit, with the best found so far and no false proof, long before the limit it was given (an
hour: a run that ignored the stop would outlive the hang guard; no time is asserted, bench/ measures speed)."""

from __future__ import annotations

import threading

import psutil
from ortools.sat.python import cp_model

from solver.stopping import StopSignal, capped, stopped, stopping, watching
from solver.wagons.optimizer.canwin import can_win
from solver.wagons.optimizer.dealsearch import clear_cache
from solver.wagons.optimizer.layout import best_layout
from tests.support.builders.wagons import (  # no minute proves its best
    HARD_CARDS,
    HARD_PILE,
    beat_the_hard_town,
    zygote_pid,
)
from tests.support.limits import HANG_GUARD

LIMIT = 3600.0
"""The time limit the stopped runs are given: far beyond the hang guard, so a run that ignored its stop fails."""
RUN_BEFORE_STOP = 1.5
"""Seconds a stopped run works before its stop: long enough to be under way (past its set-up, with a town or open
lines to report), short because the run's own length is not what is tested (it would go on for the hour)."""


def _stopped_after(seconds: float, fn, *args, **kwargs):
    """Run ``fn`` under a fresh signal in a thread and set the signal after ``seconds``: its result, once it has
    ended within the hang guard (a generous bound that only catches a run going on after the stop)."""
    signal, box = StopSignal(), {}

    def work():
        with stopping(signal):
            box["value"] = fn(*args, **kwargs)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(seconds)
    assert worker.is_alive(), "the run ended before it was asked to stop: pick a harder instance"
    signal.set()
    worker.join(HANG_GUARD)
    assert not worker.is_alive(), f"the run went on after it was asked to stop (hang guard: {HANG_GUARD:.0f} s)"
    return box["value"]


def _ended(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` run in a thread, once it has ended within the hang guard."""
    box = {}
    worker = threading.Thread(target=lambda: box.update(value=fn(*args, **kwargs)), daemon=True)
    worker.start()
    worker.join(HANG_GUARD)
    assert not worker.is_alive(), f"still running after the hang guard ({HANG_GUARD:.0f} s)"
    return box["value"]


def test_without_a_signal_deadlines_stand():
    assert capped(123.0) == 123.0 and not stopped()
    signal = StopSignal()
    with stopping(signal):
        assert capped(10.0 ** 9) == 10.0 ** 9 and not stopped()
        signal.set()
        assert stopped() and capped(10.0 ** 9) == signal.at
    assert not stopped()  # the signal belongs to the block


def test_a_stopped_best_layout_returns_its_best_town_unproven():
    for method in ("cpsat-bound", "cpsat", "bnb"):
        r = _stopped_after(RUN_BEFORE_STOP, best_layout, HARD_CARDS, "through-the-desert", HARD_PILE, time_limit=LIMIT,
                           method=method)
        assert not r.proven_optimal and r.placements, method
        assert r.score >= 25, method  # at least the greedy town's kind of score: a real town, re-scored


def test_a_run_stopped_before_it_starts_gives_the_greedy_town_at_once():
    signal = StopSignal()
    signal.set()

    def stopped_run():
        with stopping(signal):
            return best_layout(HARD_CARDS, "through-the-desert", HARD_PILE, time_limit=LIMIT)

    r = _ended(stopped_run)
    assert not r.proven_optimal and r.placements


def test_a_solver_registered_just_before_its_solve_is_still_stopped():
    """``stop_search`` does nothing before ``solve`` begins; the signal retries while the solver is watched."""
    model, solver = beat_the_hard_town(LIMIT)
    signal = StopSignal()

    def solve_after_the_stop():
        with stopping(signal), watching(solver) as go:
            assert go
            signal.set()  # before the solve: the immediate stop_search is a no-op
            return solver.solve(model.m)

    assert _ended(solve_after_the_stop) == cp_model.UNKNOWN


def test_a_stopped_can_win_is_undecided_and_ends_its_proof_workers():
    clear_cache()
    for schedule in ("resume", "restart"):
        r = _stopped_after(RUN_BEFORE_STOP + 2.5, can_win, "through-the-desert", seed=0, time_limit=LIMIT, schedule=schedule)
        assert r.winnable is None and not r.proven and r.lines_open > 0, schedule
        if schedule == "resume" and zygote_pid() is not None:  # every line's worker was killed with the search
            assert not [c for c in psutil.Process(zygote_pid()).children() if c.status() != psutil.STATUS_ZOMBIE]
    clear_cache()


def test_a_stopped_outlaws_search_ends_undecided():
    """The best-first search under both Outlaws searches (win_possible's sides, the dead-position search) reads the
    signal with its clock; the dead-position search without its lemma runs long from a set-up."""
    from solver.outlaws.position import initial_position
    from solver.outlaws.search import searches as search

    d = _stopped_after(2.0, search.find_dead_positions, initial_position(1), max_depth=200, time_limit=LIMIT,
                       max_nodes=10 ** 9, use_lemma=False)
    assert d["stopped"] == "time" and not d["found"]
