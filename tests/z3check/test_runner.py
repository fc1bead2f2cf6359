"""The one Z3 check runner (solver.z3check): a fresh context per run, the time limit on every solve, a frozen outcome
with status / counterexample / elapsed, and the check result's JSON at the edges (old ``seconds`` documents load)."""

from __future__ import annotations

import dataclasses

import pytest
import z3

from solver import verification
from solver.outlaws.readings import OutlawsReadings
from solver.z3check import CheckResult, Finding, Outcome, Status, Z3Run, as_json, run_check


def _claim_x_below(bound: int):
    """A check body: "every x in 0..9 is below ``bound``"; a counterexample is an x that is not."""
    def body(run: Z3Run) -> Finding:
        s = run.solver()
        x = z3.Int("x", run.ctx)
        s.add(x >= 0, x <= 9, x >= bound)
        answer = run.check(s)
        if answer == z3.unknown:
            return Finding(None)
        return Finding(answer == z3.unsat, {"x": s.model()[x].as_long()} if answer == z3.sat else None)
    return body


def test_a_proved_claim_and_a_refuted_one():
    proved = run_check(_claim_x_below(10), time_limit=60)
    assert (proved.status, proved.holds, proved.counterexample) == (Status.PROVED, True, None)
    refuted = run_check(_claim_x_below(5), time_limit=60)
    assert refuted.status is Status.COUNTEREXAMPLE and refuted.holds is False
    assert 5 <= refuted.counterexample["x"] <= 9
    assert proved.elapsed >= 0 and refuted.elapsed >= 0


def test_each_run_has_its_own_fresh_context_made_once():
    a, b = Z3Run(), Z3Run()
    assert a.ctx is a.ctx and a.ctx is not b.ctx


def test_a_solve_after_the_time_limit_answers_unknown_without_solving():
    run = Z3Run(time_limit=0.0)
    s = run.solver()
    s.add(z3.Bool("p", run.ctx))
    assert run.out_of_time() and run.check(s) == z3.unknown
    assert run_check(_claim_x_below(5), time_limit=0.0).status is Status.UNKNOWN


def test_the_solve_limit_caps_each_solve_and_the_overall_limit_shrinks():
    run = Z3Run(time_limit=100.0, solve_limit=2.0)
    assert run.remaining() == 2.0
    run.started -= 99.5  # as if 99.5 s had passed
    run.deadline = run.started + 100.0
    assert run.remaining() < 1.0
    assert Z3Run().remaining() is None  # no limit at all


def test_status_follows_holds_and_the_search_answer():
    assert [Status.of_holds(h) for h in (True, False, None)] == [Status.PROVED, Status.COUNTEREXAMPLE, Status.UNKNOWN]
    assert [Status.of_search(a) for a in (z3.sat, z3.unsat, z3.unknown)] == \
        [Status.COUNTEREXAMPLE, Status.PROVED, Status.UNKNOWN]
    assert [s.holds for s in Status] == [True, False, None]


def _result(**kw) -> CheckResult:
    outcome = Outcome(Status.COUNTEREXAMPLE, {"x": 7}, 1.25, {"bound": [1, 2]}, "C4")
    return CheckResult("claim/a", "x stays below 5", "rule text", outcome, rule_ids=("C-event-deck",),
                       extra={"reads": ["short_deck"]}, **kw)


def test_a_check_result_is_frozen_and_its_json_names_its_time_elapsed():
    r = _result()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.id = "other"  # type: ignore[misc]
    doc = r.to_json()
    assert doc["elapsed"] == 1.25 and "seconds" not in doc
    assert (doc["holds"], doc["status"], doc["proven"], doc["reads"]) == (False, "counterexample", True, ["short_deck"])
    assert _result(seconds_alias=True).to_json()["seconds"] == 1.25  # the old key, kept for one version
    assert _result(proven=False).to_json()["proven"] is False


def test_json_reads_back_and_a_stored_seconds_document_still_loads():
    r = _result(seconds_alias=True)
    assert CheckResult.from_json(r.to_json()) == r
    old = {"id": "token-totals", "holds": True, "counterexample": None, "rule": "r", "seconds": 3.5,
           "mutations": [], "per_kind_seconds": {"move/A": 0.1}}
    back = CheckResult.from_json(old)
    assert (back.elapsed, back.status, back.proven) == (3.5, Status.PROVED, True)
    assert back.extra == {"mutations": [], "per_kind_seconds": {"move/A": 0.1}}
    assert back.to_json()["seconds"] == 3.5


def test_the_report_is_the_json_edge():
    out = verification.report([_result(), {"id": "b", "holds": True, "counterexample": None, "rule": "r",
                                             "seconds": 0.75}], OutlawsReadings())
    assert out["checks"][0] == as_json(_result()) and out["elapsed"] == 2.0
    assert out["summary"] == {"holds": 1, "fails": 1, "unknown": 0}


def test_elapsed_is_counted_from_the_start_of_the_run():
    run = Z3Run()
    run.started -= 5.0  # as if the check had run 5 s (no clock is asserted)
    assert run.finish(Finding(True)).elapsed >= 5.0
