"""One Z3 check runner for every game's verifier: a fresh ``z3.Context`` per check, its time limit, and a frozen
result (rule:W-verify, rule:O-verify-invariants, rule:C-event-deck).

One Z3 concept per module: :mod:`.status` (proved / counterexample / unknown), :mod:`.outcome` (what a check's body
finds and what the runner returns: status, counterexample, ``elapsed``), :mod:`.runner` (the context, the clock
and the solves), :mod:`.result` (a named check around an outcome, turned into JSON only at the edges).
"""

from solver.z3check.outcome import Finding, Outcome
from solver.z3check.result import CheckResult, as_json
from solver.z3check.runner import Z3Run, run_check
from solver.z3check.status import Status

__all__ = ["CheckResult", "Finding", "Outcome", "Status", "Z3Run", "as_json", "run_check"]
