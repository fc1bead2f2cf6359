"""After a game: the deal read back from a played game and whether it could have been won
(solver.wagons.review.deal, rule:W-opt-canwin, rule:W-reveal).

Oracles: the seeded shuffle itself (``new_game``) for a seeded game's deal; a followed game fed a seeded
deal's cards in deal order (the k-th reveal is the deal's k-th card, rule:W-reveal) must read back the
same deal and end as the seeded game; every winning line is a game file the engine replays
(``game_from_record``) to a player win with the answer's margin.
"""

from __future__ import annotations

import json

import pytest

from solver import cli
from solver.errors import BadInput
from solver.wagons.game import actions_from_log, is_chance_node, is_over, new_followed_game, new_game, scores
from solver.wagons.optimizer.canwin import CanWin
from solver.wagons.record.game_record import game_from_record, game_record
from solver.wagons.review.deal import DEAL_SIZE, Deal, deal_of, followed_record, line_record, was_winnable
from solver.wagons.simulate import play_game


def _followed_twin(seeded):
    """The same game followed at the table: its reveals are the seeded deal, its actions the same."""
    deal = deal_of(seeded)
    return game_from_record(followed_record(seeded, actions_from_log(seeded), deal))


@pytest.mark.parametrize("scenario,seed", [("gold-rush", 3), ("boomtown", 0), ("water-the-herd", 6)])
def test_a_seeded_games_deal_is_its_shuffle(scenario, seed):
    played = play_game(scenario, "greedy", seed).state
    start = new_game(scenario, seed)
    assert deal_of(played) == Deal(seed, start.circle, start.deck)
    assert len(deal_of(played).cards) == DEAL_SIZE and not set(deal_of(played).cards) & set(start.removed)


@pytest.mark.parametrize("scenario,seed", [("gold-rush", 3), ("cattle-drive", 1)])
def test_a_followed_game_reads_back_the_deal_it_revealed(scenario, seed):
    played = play_game(scenario, "greedy", seed).state
    twin = _followed_twin(played)
    assert twin.seed is None and is_over(twin)
    assert deal_of(twin).cards == deal_of(played).cards and deal_of(twin).seed is None
    assert (twin.town, twin.pile, scores(twin)) == (played.town, played.pile, scores(played))


def test_the_deal_of_an_unfinished_followed_game_is_not_known():
    with pytest.raises(BadInput, match=r"^the deal is not known yet: 0 of its 16 cards have been revealed$"):
        deal_of(new_followed_game("gold-rush"))


def test_a_winnable_deal_gives_its_winning_line_as_a_game_file():
    played = play_game("gold-rush", "greedy", 3).state
    answer, record = was_winnable(played, time_limit=20)
    assert answer.winnable is True and answer.proven and answer.margin > 0
    end = game_from_record(record)
    assert record["seed"] == 3 and is_over(end)
    assert scores(end).winner == "player" and scores(end).margin == answer.margin


def test_a_followed_games_winning_line_is_a_followed_game_of_the_same_deal():
    twin = _followed_twin(play_game("gold-rush", "greedy", 3).state)
    answer, record = was_winnable(twin, time_limit=20)
    end = game_from_record(record)
    assert record["seed"] is None and not is_chance_node(end) and is_over(end)
    assert deal_of(end).cards == deal_of(twin).cards
    assert scores(end).winner == "player" and scores(end).margin == answer.margin


def test_a_lost_deal_has_no_line():
    played = play_game("water-the-herd", "greedy", 6).state
    answer, record = was_winnable(played, time_limit=20)
    assert answer.winnable is False and answer.proven and record is None
    assert answer.bound is not None and answer.bound <= 0


def test_no_line_is_made_from_an_answer_that_is_not_a_win():
    played = play_game("gold-rush", "greedy", 3).state
    unknown = CanWin(None, False, (), None, None, 1.0, 3, 3, 0, {}, ())
    with pytest.raises(BadInput, match=r"^no winning line: the answer is not a win$"):
        line_record(played.scenario, deal_of(played), played.readings, unknown)


def test_a_line_that_does_not_replay_to_the_answer_is_refused():
    played = play_game("gold-rush", "greedy", 3).state
    answer, _ = was_winnable(played, time_limit=20)
    wrong = CanWin(True, True, answer.actions, answer.margin + 1, answer.bound, 1.0, 1, 0, 1, {}, ())
    with pytest.raises(AssertionError, match="does not replay"):
        line_record(played.scenario, deal_of(played), played.readings, wrong)


def _cli(capsys, *argv):
    rc = cli.main(["wagons", "was-winnable", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def _game_file(tmp_path, state, name="game.json"):
    path = tmp_path / name
    path.write_text(json.dumps(game_record(state)))
    return path


def test_was_winnable_cli_writes_the_winning_line(tmp_path, capsys):
    path = _game_file(tmp_path, play_game("gold-rush", "greedy", 3).state)
    line = tmp_path / "line.json"
    rc, out, _ = _cli(capsys, str(path), "--json", "--quiet", "--line-out", str(line))
    r = json.loads(out)
    assert rc == 0 and r["winnable"] is True and r["deal"]["seed"] == 3 and r["line_file"] == str(line)
    end = game_from_record(json.loads(line.read_text()))
    assert scores(end).winner == "player" and scores(end).margin == r["margin"]
    rc, out, _ = _cli(capsys, str(path), "--quiet")
    assert rc == 0 and out.startswith("The game's deal: seed 3\nCan gold-rush be won? yes")


def test_was_winnable_cli_on_a_lost_deal_writes_nothing(tmp_path, capsys):
    path = _game_file(tmp_path, play_game("water-the-herd", "greedy", 6).state)
    line = tmp_path / "line.json"
    rc, out, _ = _cli(capsys, str(path), "--json", "--quiet", "--line-out", str(line))
    r = json.loads(out)
    assert rc == 0 and r["winnable"] is False and r["proven"] and r["line_file"] is None and not line.exists()


@pytest.mark.parametrize("argv,message", [
    (["missing.json"], "missing.json: no such file"),
    (["GAME", "--time-limit", "0"], "--time-limit: time limit: expected seconds"),
    (["UNFINISHED"], "the deal is not known yet: 0 of its 16 cards have been revealed"),
])
def test_was_winnable_cli_bad_input_is_one_line(tmp_path, capsys, argv, message):
    game = _game_file(tmp_path, play_game("gold-rush", "greedy", 3).state)
    unfinished = _game_file(tmp_path, new_followed_game("gold-rush"), "unfinished.json")
    argv = [str(game) if a == "GAME" else str(unfinished) if a == "UNFINISHED" else
            str(tmp_path / a) if a.endswith(".json") else a for a in argv]
    rc, out, err = _cli(capsys, *argv, "--quiet")
    assert rc == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_was_winnable_cli_refuses_a_bad_line_out_before_the_search(tmp_path, capsys):
    path = _game_file(tmp_path, play_game("gold-rush", "greedy", 3).state)
    rc, out, err = _cli(capsys, str(path), "--line-out", str(tmp_path / ("9" * 300)))
    assert rc == 2 and out == "" and err.startswith("ruleslinger: error: --line-out") and len(err.splitlines()) == 1
