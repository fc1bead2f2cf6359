"""What CP-SAT spends, measured beside the wall clock (issue 31): ``cpsat.solve.measuring`` adds every solve's
deterministic time, CPU seconds and wall seconds to the meters open around it, in this process and in the proof
workers of a deal search (reported with their messages). The benches read the deterministic figure."""

from __future__ import annotations

import time

import pytest

from solver.wagons.data import load_data
from solver.wagons.optimizer import proofworkers
from solver.wagons.optimizer.cpsat.solve import Effort, measuring, record
from solver.wagons.optimizer.layout import STRATEGIES, best_layout
from solver.wagons.optimizer.proofworkers import ProofWorker
from solver.wagons.readings import WagonsReadings

CARDS, PILE = (3, 7, 11, 14, 2), (0, 1)


def test_a_solve_adds_its_effort_to_every_open_meter():
    with measuring() as outer:
        with measuring() as inner:
            r = best_layout(CARDS, "boomtown", PILE, time_limit=60, method="cpsat")
        assert r.proven_optimal
        best_layout(CARDS[:3], "boomtown", PILE, time_limit=60, method="cpsat")
    assert inner.solves >= 1 and inner.deterministic > 0 and inner.wall > 0 and inner.cpu >= 0
    assert outer.solves > inner.solves and outer.deterministic > inner.deterministic
    with measuring() as none:
        best_layout(CARDS[:3], "boomtown", PILE, time_limit=60, method="oracle")
    assert none == Effort()  # no CP-SAT solve: nothing spent


def test_nothing_is_recorded_outside_a_meter():
    record(Effort(1.0, 1.0, 1.0, 1))  # no meter open: a no-op
    with measuring() as meter:
        record(Effort(0.5, 0.25, 1.0, 2))
    assert meter == Effort(0.5, 0.25, 1.0, 2)


@pytest.mark.skipif(not proofworkers.available(), reason="pausing workers needs Linux pidfds")
def test_a_proof_worker_reports_its_solves_to_the_meter_of_the_search():
    job = dict(strategy=STRATEGIES["cpsat"], method="cpsat", cards=CARDS, scenario_id="boomtown", opponent_pile=PILE,
               readings=WagonsReadings(), time_limit=60, objective="margin", data=load_data(), seed_greedy=False, floor=-100,
               round1=None)
    proofworkers.warm(wait=True)
    worker = ProofWorker(job)
    done = None
    with measuring() as meter:
        try:
            while done is None:
                msg = worker.run(time.monotonic() + 1.0)
                done = msg if msg is not None and msg.kind == "done" else None
        finally:
            worker.kill()
    assert done.proven and meter.solves >= 1 and meter.deterministic > 0
