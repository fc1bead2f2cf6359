"""`ruleslinger wagons advise FILE` (rule:W-advice): the JSON's shape, best first, each action in the game file's
own form (appended to the file, it replays), --upto, the time limit, the text, and bad input (one line, exit 2,
nothing on standard output); and a game in which the advice is taken at every step replays to the same scores."""

from __future__ import annotations

import json

import pytest

from solver import cli
from solver.wagons.advice.engine import DEFAULT_POLICY, advise
from solver.wagons.game import (
    action_from_dict,
    apply,
    is_chance_node,
    legal_actions,
    new_followed_game,
    new_game,
    scores,
)
from solver.wagons.policies import LookaheadPolicy
from solver.wagons.record.game_record import game_from_record, game_record
from solver.wagons.simulate import play_game, play_out
from tests.support.builders.advice import endgame, greedy_state

KEYS = {"actions", "best", "samples", "policy", "elapsed", "exact", "complete", "decision", "unseen", "orders",
        "bound", "rollouts", "decisions", "scenario", "seed", "round", "turn"}
ACTION_KEYS = {"action", "expected_margin", "win_chance", "interval", "exact", "samples", "words", "win_interval",
               "bound", "how", "too_few_orders", "above_advised", "within_interval_of_advised", "orders_to_separate",
               "worse_on_shared_orders", "parts"}


def _file(tmp_path, state, name="game.json"):
    path = tmp_path / name
    path.write_text(json.dumps(game_record(state)))
    return path


def _advise(capsys, *argv) -> dict:
    assert cli.main(["wagons", "advise", *map(str, argv), "--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def _order(doc) -> list:
    return [(-a["samples"], -a["expected_margin"]) for a in doc["actions"]]


def test_the_json_lists_every_action_best_first_in_the_files_form(tmp_path, capsys):
    state = greedy_state("gold-rush", 3, 4)
    doc = _advise(capsys, _file(tmp_path, state), "--samples", 8)
    assert KEYS <= set(doc) and all(ACTION_KEYS <= set(a) for a in doc["actions"])
    assert doc["policy"] == DEFAULT_POLICY and doc["samples"] == 8 and doc["complete"] and not doc["exact"]
    assert len(doc["actions"]) == len(legal_actions(state)) and _order(doc)[1:] == sorted(_order(doc)[1:])
    assert doc["best"] == doc["actions"][0]["action"] and doc["bound"] is None
    assert doc["advised_is_highest"] and doc["note"] is None  # a complete run: the close calls were played out
    top = doc["actions"][0]
    assert top["samples"] == doc["most_orders"] >= 8 and top["within_interval_of_advised"] is None
    record = game_record(state)
    for a in doc["actions"]:
        assert a["exact"] is False and a["samples"] in (2, 4, 8, 16, 32)  # the close calls: up to 4 times 8
        assert a["too_few_orders"] == (a["samples"] < 8) and a["how"].startswith(f"{a['samples']} orders")
        if a["too_few_orders"]:  # no interval from so few orders
            assert a["interval"] is None and a["win_interval"] is None and "too few" in a["how"]
        else:
            low, high = a["interval"]
            assert low <= a["expected_margin"] <= high
        assert 0 <= a["win_chance"] <= 1 and a["expected_margin"] <= top["expected_margin"]
        assert abs(sum(a["parts"].values()) - a["expected_margin"]) < 0.01  # the parts of the score add up
        after = game_from_record({**record, "actions": record["actions"] + [a["action"]]})
        assert after == apply(state, action_from_dict(a["action"]))


def test_round_two_is_exact_with_the_proven_bound_beside_it(tmp_path, capsys):
    state = endgame("boomtown", 11, 2)
    doc = _advise(capsys, _file(tmp_path, state))
    assert doc["exact"] and doc["unseen"] == [] and doc["orders"] == 1
    assert doc["bound"]["upper"] is not None
    for a in doc["actions"]:
        assert a["exact"] and a["samples"] == 1 and a["interval"] == [a["expected_margin"]] * 2
        assert a["win_chance"] in (0, 1) and a["bound"] >= a["expected_margin"]


def test_upto_advises_after_the_first_n_actions(tmp_path, capsys):
    state = greedy_state("cattle-drive", 9, 6)
    short = greedy_state("cattle-drive", 9, 4)
    whole = _advise(capsys, _file(tmp_path, state), "--upto", 4, "--samples", 4)
    part = _advise(capsys, _file(tmp_path, short, "short.json"), "--samples", 4)
    for d in (whole, part):
        d.pop("elapsed"), d.pop("cpu")
    assert whole == part


def test_the_time_limit_answers_with_what_it_has(tmp_path, capsys):
    state = greedy_state("gold-rush", 3, 4)  # a placement with dozens of spots
    doc = _advise(capsys, _file(tmp_path, state), "--time-limit", "0.05", "--samples", 64)
    assert doc["complete"] is False
    counts = [a["samples"] for a in doc["actions"]]
    assert sum(counts) < 64 * len(counts)  # stopped short (how far it got depends on the machine's speed)
    assert counts[1:] == sorted(counts[1:], reverse=True)  # the advised first, then the ones played furthest
    played = [a for a in doc["actions"] if a["samples"]]
    assert doc["best"] == (played[0]["action"] if played else None)
    for a in played[1:]:  # a figure shown above the advised one is answered for
        if a["above_advised"]:
            assert a["within_interval_of_advised"] or a["worse_on_shared_orders"]
            assert doc["note"] and a["words"] in doc["note"]


def test_the_text_names_the_best_choice_and_the_policy(tmp_path, capsys):
    state = greedy_state("gold-rush", 3, 0)
    assert cli.main(["wagons", "advise", str(_file(tmp_path, state)), "--samples", "4", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "best draft card" in text and f"by the {DEFAULT_POLICY} policy" in text
    # 4 orders are too few for an interval: the close calls were played on more, and the text says so
    assert "4 sampled orders, up to 8 for the close calls" in text and "(8 orders)" in text


def _bad(tmp_path, name: str):
    seeded = greedy_state("gold-rush", 3, 0)
    over = play_out(seeded, "greedy").state
    files = {"over": (game_record(over), []), "opponent": (game_record(greedy_state("gold-rush", 3, 2)), []),
             "chance": (game_record(new_followed_game("gold-rush")), []),
             "upto": (game_record(seeded), ["--upto", "3"]), "samples": (game_record(seeded), ["--samples", "0"]),
             "time": (game_record(seeded), ["--time-limit", "-2"]), "policy": (game_record(seeded), ["--policy", "x"]),
             "json": ("{not json", []), "action": ({**game_record(seeded), "actions": [{"draft": 9}]}, [])}
    doc, extra = files[name]
    path = tmp_path / f"{name}.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return [str(path), *extra]


@pytest.mark.parametrize("name,words", [("over", "game is over"), ("opponent", "opponent's turn"),
                                        ("chance", "revealed first"), ("upto", "--upto"), ("samples", "samples"),
                                        ("time", "time limit"), ("policy", "policy"), ("json", "JSON"),
                                        ("action", "actions[0]")])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, name, words):
    assert cli.main(["wagons", "advise", *_bad(tmp_path, name), "--json", "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("ruleslinger: error:") and err.count("\n") == 1 and words in err


@pytest.mark.parametrize("followed", [False, True], ids=["seeded", "followed"])
def test_a_game_taking_the_advice_at_every_step_replays_to_the_same_scores(tmp_path, capsys, followed):
    """The advised action, in the form the JSON gives it, taken at every decision of a game (the opponent by its
    rules; a followed game's cards revealed from a seeded deal): the game file of those actions replays through
    the engine (`wagons replay`) to the same final scores."""
    seeded = new_game("water-the-herd", 4)
    deal = iter(seeded.circle + seeded.deck)
    state = new_followed_game("water-the-herd") if followed else seeded
    record, advised = game_record(state), 0
    while state.to_move is not None:
        if is_chance_node(state):
            move = {"reveal": next(deal)}
        elif state.to_move == "opponent":
            move = {"opponent": True}
        else:
            move, advised = advise(state, samples=4, bound=False).to_dict()["best"], advised + 1
        state = apply(state, action_from_dict(move))
        record["actions"].append(move)
    path = tmp_path / "advised.json"
    path.write_text(json.dumps(record))
    assert cli.main(["wagons", "replay", str(path), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert advised >= 8 and replayed["over"] and replayed["scores"] == scores(state).to_dict()


def test_the_lookahead_policy_plays_whole_games_from_the_command_line(capsys):
    assert cli.main(["wagons", "play", "--scenario", "gold-rush", "--seed", "3", "--policy", "lookahead", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["policy"] == "lookahead" and doc["winner"] in ("player", "opponent", "tie")
    assert doc["margin"] == play_game("gold-rush", LookaheadPolicy(), 3).scores.margin


def test_progress_goes_to_standard_error_unless_quiet(tmp_path, capsys):
    path = _file(tmp_path, greedy_state("gold-rush", 3, 4))
    assert cli.main(["wagons", "advise", str(path), "--samples", "4", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["complete"] and err.startswith("[advise]") and "play-outs" in err
    reports = []
    advise(greedy_state("gold-rush", 3, 4), samples=4, bound=False, progress=reports.append)
    assert reports[0].done == 0 and reports[0].total and reports[0].unit == "play-outs"  # at once, nothing played
    assert len(reports) > 1 and all(0 <= r.fraction < 1 and r.done >= 1 for r in reports[1:])
    assert reports[1].what.startswith("leading: place card") and " play-outs, leading: " in reports[1].text()
