"""The shipped Outlaws questions (scenarios/questions/outlaws-*.toml) answered through the command line as recorded;
the one-action ones also by the naive brute force; their witnesses replay through the engine. Bad questions get one
line naming the bad part: an unknown measure with the nearest names, a wrong type, a bad domain parameter, a domain
too large to decide with its size."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from solver.ask import condition as cond_mod
from solver.ask.examples import examples, matches
from solver.cli import main
from solver.outlaws.line import line_from_json
from tests.support.ask import outlaws as bo

OURS = [e for e in examples() if e.question.game == "outlaws"]


def _cli(capsys, argv: list[str]) -> tuple[int, dict | None, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, (json.loads(out.out) if code == 0 else None), out.err


def test_there_are_enough_examples_from_players_and_the_rulebook():
    assert len(OURS) >= 8
    assert {e.question.quantifier for e in OURS} == {"exists", "forall", "least", "chance"}
    assert any("issue 40" in e.source for e in OURS) and any("outside-facts" in e.source for e in OURS)


@pytest.mark.parametrize("name", [e.name for e in OURS])
def test_each_example_is_answered_as_recorded(name, capsys):
    code, got, err = _cli(capsys, ["ask", "--examples", name, "--json", "--quiet"])
    assert code == 0, err
    assert got["as_expected"] and matches(got["expected"], got), (got["answer"], got["expected"])
    if got["witness"] is not None:
        start, steps, games = line_from_json(got["witness"])
        values = bo.oracle(tuple(games), tuple((s.play, s.outcome) for s in steps))
        q = next(e.question for e in OURS if e.name == name)
        assert cond_mod.holds(q.condition, values) == (got["verdict"] != "no" and q.quantifier != "forall")


@pytest.mark.parametrize("name", [e.name for e in OURS if e.question.param_map["actions"] == 1])
def test_one_action_examples_agree_with_the_brute_force(name):
    ex = next(e for e in OURS if e.name == name)
    params = dict(ex.question.param_map)
    if isinstance(params["position"], dict):
        params["position"] = json.dumps(params["position"], sort_keys=True)
    _, lines = bo.brute(tuple(sorted(params.items())))
    met = [(w, v) for w, _, _, v in lines if cond_mod.holds(ex.question.condition, v)]
    expected = {"exists": "yes" if met else "no", "forall": "yes" if len(met) == len(lines) else "no"}
    if ex.question.quantifier == "chance":
        assert Fraction(ex.expected["value"]) == sum((w for w, _ in met), Fraction(0))
    else:
        assert ex.expected["verdict"] == expected[ex.question.quantifier]


def _question(tmp_path, where: str, **domain) -> str:
    path = tmp_path / "q.json"
    path.write_text(json.dumps({"game": "outlaws", "ask": "exists", "where": where,
                                "domain": {"kind": "lines", "position": "sheriff-save", "actions": 1, **domain}}))
    return str(path)


@pytest.mark.parametrize("where,domain,words", [
    ("A.vote >= 1", {}, ["unknown measure 'A.vote'", "nearest: A.votes"]),
    ("sudden-death.when == 1", {}, ["unknown measure", "sudden-death.at"]),
    ("A.votes == yes", {}, ["A.votes is a number"]),
    ("sudden-death == 2", {}, ["sudden-death is yes or no"]),
    ("winner == C", {}, ["winner is one of A, B, none"]),
    ("victory >= 1", {}, ["victory is one of good, bad, ugly, none"]),
    ("winner == A", {"actions": 7}, ["domain.actions", "1 to 6"]),
    ("winner == A", {"actions": True}, ["domain.actions"]),
    ("winner == A", {"seed": -1}, ["domain.seed"]),
    ("winner == A", {"choices": "greedy"}, ["domain.choices", "uniform"]),
    ("winner == A", {"position": "no-such-position"}, ["domain.position", "sudden-death-near"]),
    ("winner == A", {"position": "/etc/passwd"}, ["domain.position", "position file (.json)"]),
    ("winner == A", {"position": {"to_move": "C"}}, ["position"]),
    ("winner == A", {"position": "start", "actions": 6}, ["domain: ", ",000,000,000 lines are too many", "at most 200,000"]),
])
def test_a_bad_question_gets_one_line_naming_its_bad_part(tmp_path, capsys, where, domain, words):
    code, _, err = _cli(capsys, ["ask", _question(tmp_path, where, **domain), "--quiet"])
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    for w in words:
        assert w in err, err


def test_a_large_domain_asked_for_a_chance_is_estimated_from_seeded_playouts(tmp_path, capsys):
    path = tmp_path / "q.json"
    path.write_text(json.dumps({"game": "outlaws", "ask": "chance", "where": "A.votes >= 1",
                                "domain": {"kind": "lines", "position": "start", "actions": 6}}))
    code, got, err = _cli(capsys, ["ask", str(path), "--json", "--quiet", "--time-limit", "3"])
    assert code == 0, err
    assert not got["exact"] and not got["proven"] and got["samples"] > 0 and got["size"] > 200_000
    lo, hi = got["interval"]
    assert 0 <= lo <= float(Fraction(got["value"])) <= hi <= 1


def test_the_sheriffs_save_wins_nothing_under_the_other_reading(capsys):
    """rule:O6: with sheriff_save=stop the save stops the Hitman but wins nothing, so the Ugly way's chance is 0; the
    readings impact names that reading."""
    code, got, err = _cli(capsys, ["ask", "--examples", "outlaws-sheriff-save-ugly-way", "--rule", "sheriff_save=stop",
                                   "--json", "--quiet"])
    assert code == 0 and got["value"] == "0" and got["readings"]["sheriff_save"] == "stop", err
    code, got, err = _cli(capsys, ["ask", "--examples", "outlaws-sheriff-save-ugly-way", "--readings-impact", "--json",
                                   "--quiet"])
    assert code == 0 and {"reading": "sheriff_save", "value": "stop", "answer": "0 (exactly)", "verdict": "chance"} in \
        got["changed_by"], err
