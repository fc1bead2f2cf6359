"""Every game's invariant checks answer in one shape (solver.verification.report), reached through the registry:
the command lines, the Verification page and the verdicts read that shape only."""

from __future__ import annotations

import pytest

from solver import registry, verification

SMALL = {
    "wagons": {"scenarios": ["gold-rush"], "checks": ["card-conservation"], "time_limit": 30},
    "cactus": {"players": [], "quick": True},
    "outlaws": {"only": ["token-totals"], "time_limit": 30},
}
"""One quick run of each game's checks (the registry lists every game: a new one must be added here)."""


@pytest.mark.parametrize("game", registry.ids())
def test_every_games_checks_answer_in_the_one_shape(game):
    info = registry.game(game)
    out = info.verify(info.readings(), SMALL[game])
    assert {"checks", "rules", "summary", "elapsed", "total_seconds"} <= set(out)
    assert out["checks"] and all(set(verification.REQUIRED) <= set(c) for c in out["checks"])
    assert all(c["elapsed"] >= 0 and c["status"] in ("proved", "counterexample", "unknown") for c in out["checks"])
    assert out["rules"] == info.readings().to_json()
    assert sum(out["summary"].values()) == len(out["checks"])
    assert out["summary"]["holds"] == sum(c["holds"] is True for c in out["checks"])


def test_the_summary_counts_each_answer_and_a_check_without_its_keys_is_a_verifier_bug():
    checks = [{"id": "a", "holds": True, "counterexample": None, "rule": "r", "seconds": 1.5},
              {"id": "b", "holds": False, "counterexample": {"x": 1}, "rule": "r", "seconds": 0.5},
              {"id": "c", "holds": None, "counterexample": None, "rule": "r", "elapsed": 2.0}]
    out = verification.report(checks, registry.game("outlaws").readings(), mutations=[])
    assert out["summary"] == {"holds": 1, "fails": 1, "unknown": 1} and out["elapsed"] == out["total_seconds"] == 4.0
    assert out["mutations"] == []
    with pytest.raises(AssertionError, match="counterexample"):
        verification.report([{"id": "a", "holds": True, "rule": "r"}], registry.game("outlaws").readings())
    with pytest.raises(AssertionError, match="holds"):
        verification.report([{"id": "a", "holds": "yes", "counterexample": None, "rule": "r"}],
                            registry.game("outlaws").readings())
