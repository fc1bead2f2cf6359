"""The BG Stats export (solver.wagons.record.bgstats), the finished-game reader (solver.wagons.record.finished) and
`ruleslinger wagons bgstats`: keys and types as BG Stats documents them (docs/outside-facts.md), the
link decoding back to the same JSON, winner and rank from the engine, every bad input one line."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlparse

import pytest

from solver import cli
from solver.errors import BadInput
from solver.wagons.game import new_game
from solver.wagons.readings import WagonsReadings
from solver.wagons.record import bgstats
from solver.wagons.record.finished import completeness_problem, finished_game_from_json
from solver.wagons.record.game_json import state_to_json
from solver.wagons.scoring import final_scores
from solver.wagons.simulate import play_game
from solver.wagons.town import Town
from tests.support.builders.wagons import older_play_output

NOW = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)
PLAY_KEYS = {"sourceName", "sourcePlayId", "board", "comments", "game", "playDate", "players", "durationMin",
             "location"}
GAME_TYPES = {"highestWins": bool, "name": str, "noPoints": bool, "sourceGameId": str}
PLAYER_TYPES = {"startPlayer": bool, "name": str, "rank": int, "role": str, "score": int, "sourcePlayerId": str,
                "winner": bool}


def finished(scenario="cattle-drive", policy="greedy", seed=2, readings=WagonsReadings()):
    return play_game(scenario, policy, seed, readings).state


def test_the_play_has_the_documented_keys_and_types():
    state = finished()
    play = bgstats.play_json(state, "Ann", "2026-11-30 20:15", 25, "Kitchen table", "first try", now=NOW)
    assert set(play) == PLAY_KEYS
    assert isinstance(play["board"], str) and play["board"] == "Cattle Drive"
    assert play["durationMin"] == 25 and type(play["durationMin"]) is int
    assert play["location"] == "Kitchen table"
    assert play["comments"].endswith("\nfirst try") and "Cattle Drive" in play["comments"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"]) and play["playDate"] == "2026-11-30 20:15:00"
    assert {k: type(v) for k, v in play["game"].items()} == GAME_TYPES  # no bggId: the project knows none
    assert play["game"]["highestWins"] is True and play["game"]["noPoints"] is False
    assert len(play["players"]) == 2
    for p in play["players"]:
        assert {k: type(v) for k, v in p.items()} == PLAYER_TYPES
    you, them = play["players"]
    assert you["name"] == "Ann" and you["startPlayer"] is True and them["startPlayer"] is False
    assert them["name"] == bgstats.OPPONENT_NAME and them["role"] == "automated opponent"
    # optional fields are left out, not sent empty
    bare = bgstats.play_json(state, "Ann", now=NOW)
    assert set(bare) == PLAY_KEYS - {"durationMin", "location"} and bare["playDate"] == "2026-12-01 12:00:00"


def test_a_known_bgg_id_is_sent_only_when_given():
    state = finished()
    assert "bggId" not in bgstats.play_json(state, "Ann", now=NOW)["game"]
    assert bgstats.play_json(state, "Ann", now=NOW, bgg_id=12345)["game"]["bggId"] == 12345
    with pytest.raises(BadInput, match="BoardGameGeek id"):
        bgstats.play_json(state, "Ann", now=NOW, bgg_id=0)


@pytest.mark.parametrize("seed,policy,winner", [(2, "greedy", "player"), (2, "random", "opponent"),
                                                (9, "greedy", "tie")])
def test_scores_winner_and_rank_come_from_the_engine(seed, policy, winner):
    state = finished("cattle-drive", policy, seed)
    want = final_scores(state.town, state.pile, state.scenario, state.readings)
    assert want.winner == winner  # the three cases this test is about
    you, them = bgstats.play_json(state, "Ann", now=NOW)["players"]
    assert (you["score"], them["score"]) == (want.player.total, want.opponent.total)
    expected = {"player": ((1, True), (2, False)), "opponent": ((2, False), (1, True)),
                "tie": ((1, True), (1, True))}[winner]
    assert ((you["rank"], you["winner"]), (them["rank"], them["winner"])) == expected


def test_a_tie_broken_by_guns_ranks_the_engines_winner_first():
    state = finished("cattle-drive", "greedy", 9, WagonsReadings(tie_break="guns"))
    want = final_scores(state.town, state.pile, state.scenario, state.readings)
    assert want.decided_by == "guns"
    you, them = bgstats.play_json(state, "Ann", now=NOW)["players"]
    assert (you["winner"], them["winner"]) == (want.winner == "player", want.winner == "opponent")
    assert sorted((you["rank"], them["rank"])) == [1, 2]


def test_the_import_link_decodes_back_to_the_same_json():
    play = bgstats.play_json(finished(), "Zoë \"Z\" O'Neil & co", "2026-11-30", 90, "Café #2", "a+b=c?", now=NOW)
    link = bgstats.import_link(play)
    url = urlparse(link)
    assert (url.scheme, url.netloc, url.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    query = parse_qs(url.query, strict_parsing=True)
    assert list(query) == ["data"] and len(query["data"]) == 1
    assert json.loads(query["data"][0]) == play
    assert " " not in link and "&" not in url.query and "#" not in link


def test_the_play_id_is_stable_for_the_same_game_date_and_player():
    state = finished()
    a = bgstats.play_json(state, "Ann", "2026-11-30 20:15", now=NOW)["sourcePlayId"]
    assert a == bgstats.play_json(state, "Ann", "2026-11-30 20:15:00", now=NOW)["sourcePlayId"]
    assert a != bgstats.play_json(state, "Ann", "2026-11-30 20:16", now=NOW)["sourcePlayId"]
    assert a != bgstats.play_json(state, "Bob", "2026-11-30 20:15", now=NOW)["sourcePlayId"]


@pytest.mark.parametrize("text,want", [("2026-11-30 20:15:07", "2026-11-30 20:15:07"),
                                       ("2026-11-30T20:15", "2026-11-30 20:15:00"),
                                       (" 2026-11-30 ", "2026-11-30 00:00:00"),
                                       (datetime(2026, 1, 2, 3, 4, 5), "2026-01-02 03:04:05")])
def test_dates_are_normalised_to_the_documented_format(text, want):
    assert bgstats.play_date(text, NOW) == want


@pytest.mark.parametrize("kwargs,message", [
    ({"player": ""}, "player name"), ({"player": "   "}, "player name"), ({"player": None}, "player name"),
    ({"player": 7}, "player name"), ({"player": "x" * 61}, "at most 60"), ({"player": "Ann\x00"}, "control"),
    ({"player": "ann\u202e"}, "control"), ({"player": bgstats.OPPONENT_NAME.upper()}, "automated opponent"),
    ({"date": "2026-02-30"}, "date"), ({"date": "yesterday"}, "date"), ({"date": "1800-01-01"}, "year 1800"),
    ({"date": "2999-01-01 10:00"}, "year 2999"), ({"date": 20261130}, "date"), ({"date": "9" * 5000}, "date"),
    ({"duration_min": 0}, "duration"), ({"duration_min": -5}, "duration"), ({"duration_min": 1441}, "duration"),
    ({"duration_min": "abc"}, "duration"), ({"duration_min": True}, "duration"), ({"duration_min": 2.5}, "duration"),
    ({"duration_min": "\u0663"}, "duration"), ({"location": "x" * 101}, "location"),
    ({"comments": "y" * 1001}, "comments"), ({"location": 5}, "location"),
])
def test_bad_inputs_are_one_line(kwargs, message):
    args = {"player": "Ann"} | kwargs
    with pytest.raises(BadInput, match=message) as exc:
        bgstats.play_json(finished(), now=NOW, **args)
    assert "\n" not in str(exc.value)


def test_an_unfinished_game_is_refused():
    with pytest.raises(BadInput, match="not over yet"):
        bgstats.play_json(new_game("boomtown", 0), "Ann", now=NOW)


# ---------------------------------------------------------------- the finished-game reader

def test_a_play_output_is_replayed_to_the_same_game():
    res = play_game("boomtown", "greedy", 3)
    state = finished_game_from_json(res.to_dict())
    assert state.town == res.state.town and state.pile == res.state.pile and state.log == res.state.log
    assert finished_game_from_json(state_to_json(res.state)).town == res.state.town


def test_a_game_file_is_read_and_a_half_played_one_refused():
    from solver.wagons.record.game_record import game_record

    res = play_game("water-the-herd", "greedy", 5)
    record = game_record(res.state)
    state = finished_game_from_json(record)
    assert state.town == res.state.town and state.pile == res.state.pile
    half = dict(record, actions=record["actions"][:7])
    with pytest.raises(BadInput, match="not over yet"):
        finished_game_from_json(half)
    play = bgstats.play_json(state, "Ann", now=NOW)
    assert play["players"][0]["score"] == res.scores.player.total


def test_a_followed_game_played_to_the_end_exports_and_reviews():
    from solver.wagons.game import apply, is_over, legal_actions, new_followed_game
    from solver.wagons.record.game_record import game_record
    from solver.wagons.review.town import review

    state = new_followed_game("gold-rush")
    while not is_over(state):
        state = apply(state, legal_actions(state)[0])  # the lowest unseen card revealed, the first legal move
    again = finished_game_from_json(game_record(state))
    assert again == state and again.seed is None
    play = bgstats.play_json(again, "Ann", now=NOW)
    assert "a game followed at the table" in play["comments"]
    final = final_scores(state.town, state.pile, "gold-rush", state.readings)
    assert [p["score"] for p in play["players"]] == [final.player.total, final.opponent.total]
    r = review(again, time_limit=5)
    assert r.best.player.total >= r.mine.player.total and sum(p.gap for p in r.parts) == r.gap


@pytest.mark.parametrize("tamper,message", [
    (lambda d: d["player"].update(total=d["player"]["total"] + 1), "player.total"),
    (lambda d: d.update(opponent_pile=d["opponent_pile"][::-1]), "opponent_pile"),
    (lambda d: d.update(opponent_pile=5), "opponent_pile"),
    (lambda d: d.update(log=[e for e in d["log"] if e["what"] != "place"][:3]), "log"),
    (lambda d: d.update(seed=d["seed"] + 1), "log"),
    (lambda d: d.update(seed=-1), "seed"),
    (lambda d: d.update(scenario="nosuch"), "nosuch"),
    (lambda d: d.update(rules={"tie_break": "coin"}), "tie_break"),
    (lambda d: d.pop("log"), "expected a game file"),
    (lambda d: next(e for e in d["log"] if e["what"] == "place")["placement"].pop("x"),
     r"log\[\d+\]: entry.place: missing field 'x'"),
    (lambda d: next(e for e in d["log"] if e["what"] == "draft").update(card=99),
     r"log\[\d+\]: does not fit the replayed game: it drafts card 99"),
])
def test_a_tampered_older_play_output_is_refused_in_one_line(tamper, message):
    doc = older_play_output(play_game("boomtown", "greedy", 3).to_dict())
    tamper(doc)
    with pytest.raises(BadInput, match=message) as exc:
        finished_game_from_json(doc)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("tamper,message", [
    (lambda d: d["player"].update(total=d["player"]["total"] + 1), "player.total"),
    (lambda d: d.update(opponent_pile=d["opponent_pile"][::-1]), "opponent_pile"),
    (lambda d: d.update(log=[e for e in d["log"] if e["what"] != "place"][:3]), r"log: differs from the log its actions"),
    (lambda d: d.update(town={"placements": d["town"]["placements"][:-1]}), "town: differs"),
    (lambda d: d.update(seed=d["seed"] + 1), r"actions\[1\] .*: card 15: the card to place now is 11"),
    (lambda d: next(a for a in d["actions"] if "place" in a)["place"].pop("x"), r"actions\[1\].place: missing field 'x'"),
    (lambda d: d.update(extra=1), "game file: unknown key 'extra'"),
    (lambda d: d.update(actions=d["actions"][:-1]), "(town|opponent_pile): differs"),
])
def test_a_tampered_play_output_is_refused_in_one_line(tamper, message):
    """The play output is the game record plus fields derived from it: the record replays, the rest must agree."""
    doc = play_game("boomtown", "greedy", 3).to_dict()
    tamper(doc)
    with pytest.raises(BadInput, match=message) as exc:
        finished_game_from_json(doc)
    assert "\n" not in str(exc.value)


def test_an_unfinished_state_and_an_explicit_deal():
    with pytest.raises(BadInput, match="not over yet"):
        finished_game_from_json(state_to_json(new_game("boomtown", 0)))
    doc = older_play_output(play_game("cattle-drive", "greedy", 2).to_dict())
    doc["seed"] = None  # an explicit deal: taken from its town and pile
    state = finished_game_from_json(doc)
    assert state.seed is None and state.to_move is None
    assert final_scores(state.town, state.pile, "cattle-drive").player.total == doc["player"]["total"]
    last = doc["opponent_pile"][-1]
    doc["opponent_pile"] = doc["opponent_pile"][:-1]
    with pytest.raises(BadInput, match=f"the game is not over: 1 of the 16 cards in play are in neither town yet "
                                       f"\\(card {last}\\)"):
        finished_game_from_json(doc)


def test_completeness_names_why_a_position_is_not_a_finished_game():
    state = play_game("boomtown", "greedy", 3).state
    assert completeness_problem(state.town, state.pile, "boomtown") is None
    half = Town(state.town.placements[:2])
    why = completeness_problem(half, state.pile[:3], "boomtown")
    assert why.startswith(f"the game is not over: {16 - 5} of the 16 cards in play")
    assert completeness_problem(state.town, state.pile + (state.town.card_ids[0],), "boomtown") == \
        f"card {state.town.card_ids[0]} is in both towns"
    aside = new_game("boomtown", 0).removed[0]
    assert "set aside in Boomtown with the goal cards Smalltown Charm and Boom or Bust" in \
        completeness_problem(state.town, state.pile + (aside,), "boomtown")


# ---------------------------------------------------------------- the command

def run(argv, capsys):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_writes_the_play_and_prints_the_link(tmp_path, capsys):
    game = tmp_path / "game.json"
    game.write_text(json.dumps(play_game("cattle-drive", "greedy", 2).to_dict()))
    out_file = tmp_path / "play.json"
    code, out, err = run(["wagons", "bgstats", str(game), "--player", "Ann", "--date", "2026-11-30 20:15",
                          "--duration-min", "25", "--out", str(out_file), "--link", "--json"], capsys)
    assert code == 0, err
    r = json.loads(out)
    assert json.loads(out_file.read_text()) == r["play"]
    assert r["play"]["players"][0]["name"] == "Ann" and r["play"]["durationMin"] == 25
    assert json.loads(parse_qs(urlparse(r["link"]).query)["data"][0]) == r["play"]
    code, out, err = run(["wagons", "bgstats", str(game), "--player", "Ann", "--link"], capsys)
    assert code == 0 and "Import link: https://app.bgstatsapp.com/createPlay.html?data=" in out


@pytest.mark.parametrize("extra,message", [
    (["--player", ""], "player name"), (["--player", "Ann", "--date", "2026-13-01"], "date"),
    (["--player", "Ann", "--duration-min", "0"], "duration"), (["--player", "Ann", "--duration-min", "1e9"], "duration"),
    (["--player", "Ann", "--bgg-id", "-3"], "BoardGameGeek"), (["--player", "Ann", "--out", "."], "directory"),
    (["--player", "Ann", "--out", "no/such/x.json"], "does not exist"), ([], "--player"),
])
def test_the_command_refuses_bad_input_with_one_line_and_exit_2(extra, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = tmp_path / "game.json"
    game.write_text(json.dumps(play_game("cattle-drive", "greedy", 2).to_dict()))
    code, out, err = run(["wagons", "bgstats", str(game), *extra], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # nothing written


def test_the_command_refuses_an_unfinished_game_and_a_missing_file(tmp_path, capsys):
    game = tmp_path / "half.json"
    game.write_text(json.dumps(state_to_json(replace(new_game("boomtown", 0)))))
    for path, message in ((game, "not over yet"), (tmp_path / "missing.json", "missing.json")):
        code, out, err = run(["wagons", "bgstats", str(path), "--player", "Ann"], capsys)
        assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
