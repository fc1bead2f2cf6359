"""Whole solo games: setup, turn order, every dealt card used once, legal placements, determinism,
scripted replay, the decision log's rule ids, batches into Polars, and the CLI commands."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import cli
from solver.errors import BadInput
from solver.register import register
from solver.wagons.data import SCENARIO_IDS
from solver.wagons.game import Draft, OpponentTurn, apply, legal_actions, new_game
from solver.wagons.policies import GreedyPolicy, ScriptedPolicy
from solver.wagons.readings import WagonsReadings
from solver.wagons.simulate import play_game, play_row, simulate, simulate_rows
from solver.wagons.town import Town, placement_problem

READINGS = st.builds(WagonsReadings, icon_source=st.sampled_from(["top", "town"]),
                  match_order=st.sampled_from(["drafted-first", "deck-first"]),
                  edition=st.sampled_from(["original", "later"]))


def test_setup_sets_goal_fronts_aside_and_deals_8_and_8():
    s = new_game("water-the-herd", 7)
    assert len(s.circle) == 8 and len(s.deck) == 8
    assert set(s.removed) == {15, 7}  # the fronts paired (unverified) with The Herd and Cool Water
    assert not set(s.removed) & (set(s.circle) | set(s.deck))
    assert s.to_move == "player" and s.log[0].rule == "W-setup"
    assert new_game("water-the-herd", 7) == s and new_game("water-the-herd", 8) != s


def check_game(res):
    s = res.state
    dealt = set(range(18)) - set(s.removed)
    got = list(s.town.card_ids) + list(s.pile)
    assert sorted(got) == sorted(dealt), "every dealt card used exactly once"
    town = Town()
    for e in s.log:  # every placement the policy made was legal when made
        if e.what == "place":
            assert placement_problem(town, e.placement) is None
            town = Town(town.placements + (e.placement,))
    assert town == s.town
    reg = register().ids()
    assert all(e.rule in reg for e in s.log)
    assert {e.who for e in s.log} <= {"game", "player", "opponent"}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(SCENARIO_IDS), READINGS)
def test_random_games_use_every_card_once_and_are_deterministic(seed, scenario, readings):
    a = play_game(scenario, "random", seed, readings)
    check_game(a)
    assert play_game(scenario, "random", seed, readings) == a


@pytest.mark.parametrize("scenario", SCENARIO_IDS)
def test_greedy_games(scenario):
    res = play_game(scenario, "greedy", 11)
    check_game(res)
    assert play_game(scenario, GreedyPolicy(), 11).scores == res.scores


def test_turns_alternate_and_round_2_continues_the_order():
    s = play_game("cattle-drive", "random", 5).state
    movers = [e.who for e in s.log if e.what in ("draft", "opponent-draft")]
    assert movers[0] == "player"
    assert all(a != b for a, b in zip(movers, movers[1:]))
    deal = [i for i, e in enumerate(s.log) if e.what == "deal"]
    assert len(deal) == 1 and "W10" in s.log[deal[0]].note


def test_opponent_skips_reach_the_player_before_drafting():
    # find a game where the opponent skipped cards; the player places them before the next draft
    for seed in range(200):
        s = play_game("gold-rush", "random", seed).state
        for i, e in enumerate(s.log):
            if e.who == "opponent" and e.skipped:
                nxt = [x for x in s.log[i + 1:] if x.who == "player"][:len(e.skipped)]
                assert [x.what for x in nxt] == ["place"] * len(e.skipped)
                assert [x.card for x in nxt] == list(e.skipped)
                return
    pytest.fail("no opponent skip in 200 games")


def test_apply_refuses_illegal_actions():
    s = new_game("boomtown", 1)
    with pytest.raises(BadInput, match="player's turn"):
        apply(s, OpponentTurn())
    with pytest.raises(BadInput, match="index"):
        apply(s, Draft(8))
    s2 = apply(s, Draft(0))
    with pytest.raises(BadInput, match="place card"):
        apply(s2, Draft(0))
    assert all(a.placement.card == s.circle[0] for a in legal_actions(s2))


def test_scripted_policy_replays_a_recorded_game():
    rec = play_game("through-the-desert", "random", 3)
    actions = [{"draft": len(e.skipped)} if e.what == "draft" else {"place": e.placement.to_dict()}
               for e in rec.state.log if e.who == "player"]
    again = play_game("through-the-desert", ScriptedPolicy(tuple(actions)), 3)
    assert again.state.town == rec.state.town and again.scores == rec.scores
    with pytest.raises(BadInput, match="ran out"):
        play_game("through-the-desert", ScriptedPolicy(tuple(actions[:3])), 3)


def test_simulate_rows_and_dataframe():
    rows = list(simulate_rows(5, "water-the-herd", "random", seed=100))
    assert [r["seed"] for r in rows] == list(range(100, 105))
    assert rows[0] == play_row("water-the-herd", "random", 100)
    df = simulate(5, "water-the-herd", "random", seed=100)
    assert df.height == 5 and df["margin"].to_list() == [r["margin"] for r in rows]
    assert all(r["player_card_count"] + r["opponent_card_count"] == 16 for r in rows)
    assert set(df["winner"].unique()) <= {"player", "opponent", "tie"}


def test_play_row_is_picklable_and_module_level():
    import pickle

    assert pickle.loads(pickle.dumps(play_row)) is play_row
    assert pickle.loads(pickle.dumps(GreedyPolicy())) == GreedyPolicy()


# ---------------------------------------------------------------- CLI

def run(argv, capsys):
    code = cli.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def files(tmp_path):
    town = tmp_path / "town.json"
    town.write_text(json.dumps({"placements": [{"card": c, "x": x, "y": y, "rot": 0} for c, x, y in
                                               [(13, 1, 1), (4, 0, 1), (14, 3, 1), (0, 4, 0), (2, 0, 3), (1, 2, 3)]]}))
    opp = tmp_path / "opp.json"
    opp.write_text(json.dumps({"pile": [3, 5, 7]}))
    return town, opp, tmp_path


def test_cli_score(files, capsys):
    town, opp, _ = files
    code, out, _ = run(["wagons", "score", str(town), "--scenario", "cattle-drive", "--opponent", str(opp), "--json"],
                       capsys)
    doc = json.loads(out)
    assert code == 0
    assert sum(doc["player"]["groups"].values()) == 20
    assert doc["player"]["total"] == 32 and doc["opponent"]["total"] == 21 and doc["winner"] == "player"
    assert doc["opponent"]["common"] == 10
    code, out, _ = run(["wagons", "score", str(town), "--scenario", "cattle-drive", "--opponent", str(opp),
                        "--edition", "later"], capsys)
    assert code == 0 and "per-card terrains" in out


@pytest.mark.parametrize("bad,words", [
    ({"placements": [{"card": 1, "x": 0, "y": 0}, {"card": 2, "x": 2, "y": 2}]}, "card 2"),
    ({"placements": [{"card": 1, "x": 0, "y": 0}, {"card": 1, "x": 2, "y": 0}]}, "already placed"),
])
def test_cli_score_bad_town(files, capsys, bad, words):
    _, opp, tmp = files
    (tmp / "bad.json").write_text(json.dumps(bad))
    code, out, err = run(["wagons", "score", str(tmp / "bad.json"), "--scenario", "boomtown", "--opponent", str(opp)],
                         capsys)
    assert code == 2 and out == "" and words in err and len(err.strip().splitlines()) == 1


def test_cli_score_bad_opponent(files, capsys):
    town, _, tmp = files
    (tmp / "o.json").write_text('{"pile": [3, "x"]}')
    code, _, err = run(["wagons", "score", str(town), "--scenario", "boomtown", "--opponent", str(tmp / "o.json")],
                       capsys)
    assert code == 2 and "pile[1]" in err


def test_cli_play_and_scripted_replay(tmp_path, capsys):
    code, out, _ = run(["wagons", "play", "--scenario", "gold-rush", "--seed", "4", "--policy", "random", "--json"],
                       capsys)
    assert code == 0
    doc = json.loads(out)
    assert {"player", "opponent", "winner", "log"} <= doc.keys()
    (tmp_path / "g.json").write_text(out)
    code, out2, _ = run(["wagons", "play", "--scenario", "gold-rush", "--seed", "4", "--policy", "scripted",
                         "--script", str(tmp_path / "g.json"), "--json"], capsys)
    assert code == 0 and json.loads(out2)["log"] == doc["log"]
    code, _, err = run(["wagons", "play", "--scenario", "gold-rush", "--seed", "5", "--policy", "scripted",
                        "--script", str(tmp_path / "g.json")], capsys)
    assert code == 2 and "script" in err


def test_cli_opponent_draft(capsys):
    code, out, _ = run(["wagons", "opponent-draft", "--scenario", "gold-rush", "--round", "1", "--circle", "3,2,7,4",
                        "--deck-top", "5", "--json"], capsys)
    assert code == 0 and json.loads(out) | {"rule_title": ""} == {
        "take": 7, "skipped": [3, 2], "deck_card": 5, "rule": "W1", "round": 1, "rule_title": ""}
    code, out, _ = run(["wagons", "opponent-draft", "--scenario", "boomtown", "--round", "2", "--circle", "3,7,11",
                        "--pile", "1,2", "--after-round-1", "20,20", "--json"], capsys)
    assert code == 0 and json.loads(out)["take"] == 7 and json.loads(out)["rule"] == "W5-boomtown"
    for argv, words in [(["--round", "2", "--circle", "3,x"], "'x'"), (["--round", "1", "--circle", "3"], "deck-top"),
                        (["--round", "2", "--circle", "3,7", "--after-round-1", "1"], "P,O")]:
        code, _, err = run(["wagons", "opponent-draft", "--scenario", "boomtown", *argv], capsys)
        assert code == 2 and words in err


def test_cli_simulate_writes_rows(tmp_path, capsys):
    out_file = tmp_path / "rows.csv"
    code, out, _ = run(["wagons", "simulate", "--scenario", "cattle-drive", "--policy", "random", "--games", "4",
                        "--out", str(out_file), "--json"], capsys)
    assert code == 0 and json.loads(out)["games"] == 4
    assert len(out_file.read_text().strip().splitlines()) == 5
