"""One ``wagons verify`` check result (contracts.md): the shape both :mod:`solver.wagons.verify.checks` and
:mod:`solver.wagons.verify.scores` build, and the register ids each check family rests on."""

from __future__ import annotations

import time

RULE_IDS = {
    "card-conservation": ["W-setup", "W-rounds", "W-player-draft", "W-pile", "W1", "W3"],
    "termination": ["W-rounds", "W10"],
    "automaton": ["W1", "W1-pick", "W1-next", "W2", "W4", "W4-next", "W5"],
    "playability": ["W-place", "W-cover"],
    "winnability": ["W7", "W8", "W11", "W-opt-bestplay"],
    "score-bounds": ["W6", "W7", "W11"],
}


def check_result(check_id: str, title: str, rule: str, started: float, out: dict) -> dict:
    holds = out.get("holds")
    family = check_id.split("/")[0]
    return {"id": check_id, "title": title, "holds": holds, "proven": out.get("proven", holds is not None),
            "counterexample": out.get("counterexample"), "rule": rule, "open_question": out.get("open_question"),
            "details": out.get("details", {}), "elapsed": round(time.perf_counter() - started, 3),
            "rule_ids": RULE_IDS.get(family, []), "check": family,
            "scenario": check_id.split("/")[1] if "/" in check_id else None}
