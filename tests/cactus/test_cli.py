"""`ruleslinger cactus ...` contract: JSON shapes, exit code 2 with one line on bad input."""

import json

import pytest

from solver.cli import main
from solver.paths import SCENARIOS


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_marshal_solo_contract(capsys):
    code, out, err = run(capsys, "cactus", "marshal", "--solo", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["rounds"]["6"] == "1/3" and set(data["rounds"]) == {str(r) for r in range(6, 13)}


def test_marshal_players_contract_and_monte_carlo(capsys):
    code, out, _ = run(capsys, "cactus", "marshal", "--players", "2", "--json", "--monte-carlo", "500", "--seed", "3")
    data = json.loads(out)
    assert code == 0 and set(data["rounds"]) == {str(r) for r in range(6, 12)}
    assert data["monte_carlo"]["games"] == 500 and abs(sum(data["monte_carlo"]["frequencies"].values()) - 1) < 1e-9


def test_marshal_rule_option(capsys):
    code, out, _ = run(capsys, "cactus", "marshal", "--solo", "--json", "--rule", "short_deck=keep_second_shot")
    assert code == 0 and json.loads(out)["rounds"]["14"] == "1/504"


def test_marshal_text_output(capsys):
    code, out, _ = run(capsys, "cactus", "marshal", "--players", "3")
    assert code == 0 and "13" in out and "expected round" in out


def test_verify_contract(capsys):
    code, out, _ = run(capsys, "cactus", "verify", "--players", "2", "--quick", "--json")
    data = json.loads(out)
    assert code == 0
    for c in data["checks"]:
        assert {"id", "holds", "counterexample", "rule"} <= set(c)
    assert any(c["holds"] is False and c["counterexample"] for c in data["checks"])


def test_ranger_and_duel_and_schedule(capsys):
    code, out, _ = run(capsys, "cactus", "ranger", str(SCENARIOS / "cactus" / "example-ranger-sharing.json"), "--json")
    assert code == 0 and json.loads(out)["outcomes"][0]["actions"][1]["icon"] == "DUEL"
    code, out, _ = run(capsys, "cactus", "duel", "--initiator-shot", "2", "--event", "sandstorm", "--json")
    assert code == 0 and json.loads(out)["win"] == "1/2"
    code, out, _ = run(capsys, "cactus", "schedule", "--json")
    assert code == 0 and json.loads(out)["rounds"][11]["second_shot"] is False
    code, out, _ = run(capsys, "cactus", "events", "--json")
    assert code == 0 and len(json.loads(out)["events"]) == 11


@pytest.mark.parametrize("argv", [
    ["cactus", "marshal"],
    ["cactus", "marshal", "--solo", "--players", "2"],
    ["cactus", "marshal", "--players", "7"],
    ["cactus", "marshal", "--solo", "--rule", "nope=1"],
    ["cactus", "marshal", "--solo", "--rule", "solo_events=maybe"],
    ["cactus", "marshal", "--solo", "--rule", "die_sides=x"],
    ["cactus", "marshal", "--solo", "--monte-carlo", "-5"],
    ["cactus", "verify", "--players", "9"],
    ["cactus", "ranger", "/no/such/file.json"],
    ["cactus", "duel", "--event", "rain"],
    ["cactus", "duel", "--initiator-shot", "-3"],
])
def test_bad_input_exits_2_with_one_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err


def test_bad_position_file(capsys, tmp_path):
    p = tmp_path / "pos.json"
    p.write_text('{"town": [], "outlaws": []}')
    code, out, err = run(capsys, "cactus", "ranger", str(p))
    assert code == 2 and "town" in err and err.count("\n") == 1
    p.write_text('{"town": ')
    code, _, err = run(capsys, "cactus", "ranger", str(p))
    assert code == 2 and "invalid JSON" in err


def test_ranger_rule_option_merges_with_position_rules(capsys, tmp_path):
    pos = json.loads((SCENARIOS / "cactus" / "example-ranger-chase.json").read_text())
    pos["rules"] = {"escaped_visible": True}
    p = tmp_path / "pos.json"
    p.write_text(json.dumps(pos))
    code, out, _ = run(capsys, "cactus", "ranger", str(p), "--json", "--rule", "step_tie=horizontal_first")
    readings = json.loads(out)["rules"]
    assert code == 0 and readings["escaped_visible"] is True and readings["step_tie"] == "horizontal_first"
