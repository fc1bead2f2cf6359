"""One ``wagons verify`` check result (contracts.md): the frozen :class:`~solver.z3check.CheckResult` both
:mod:`solver.wagons.verify.checks` and :mod:`solver.wagons.verify.scores` build from the Z3 check runner's run, and
the register ids each check family rests on."""

from __future__ import annotations

from solver.z3check import CheckResult, Finding, Z3Run

RULE_IDS = {
    "card-conservation": ["W-setup", "W-rounds", "W-player-draft", "W-pile", "W1", "W3"],
    "termination": ["W-rounds", "W10"],
    "automaton": ["W1", "W1-pick", "W1-next", "W2", "W4", "W4-next", "W5"],
    "playability": ["W-place", "W-cover"],
    "winnability": ["W7", "W8", "W11", "W-opt-bestplay"],
    "score-bounds": ["W6", "W7", "W11"],
}


def check_result(check_id: str, title: str, rule: str, run: Z3Run, finding: Finding,
                 proven: bool | None = None) -> CheckResult:
    """The check ``check_id`` (``<family>/<scenario>``): ``finding`` timed by ``run``; ``proven`` None: it is proven
    when it is decided."""
    family = check_id.split("/")[0]
    return CheckResult(check_id, title, rule, run.finish(finding), proven, tuple(RULE_IDS.get(family, [])),
                       {"check": family, "scenario": check_id.split("/")[1] if "/" in check_id else None})
