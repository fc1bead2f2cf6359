"""AppTest: the three Lone Cowboy pages against the engine's own answers."""

from __future__ import annotations

import sys
from pathlib import Path as _Path

sys.path.insert(0, str(_Path(__file__).resolve().parent.parent))  # the dashboard package (repo root)

import json

import pytest

from dashboard.apptest import charts, errors, open_page, texts
from solver.wagons.opponent import add_to_pile, opponent_draft
from solver.wagons.rules import Rules
from solver.wagons.scoring import final_scores
from solver.wagons.town import town_from_dict

EXAMPLE = [{"card": 13, "x": 1, "y": 1, "rot": 0}, {"card": 4, "x": 0, "y": 1, "rot": 0},
           {"card": 14, "x": 3, "y": 1, "rot": 0}, {"card": 0, "x": 4, "y": 0, "rot": 0},
           {"card": 2, "x": 0, "y": 3, "rot": 0}, {"card": 1, "x": 2, "y": 3, "rot": 0}]


def metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def expected(rows, pile, scenario, rules=Rules()):
    return final_scores(town_from_dict({"placements": rows}), tuple(pile), scenario, rules)


def test_score_sheet_shows_the_engines_scores_and_winner():
    at = open_page("wagons_sheet")
    assert not at.exception and not errors(at)
    want = expected(EXAMPLE, [3, 7, 11], "boomtown")
    assert metric(at, "Player total") == str(want.player.total)
    assert metric(at, "Opponent total") == str(want.opponent.total)
    assert {"player": "The player wins", "opponent": "The opponent wins", "tie": "Tie"}[want.winner] in texts(at)
    # the breakdown table lists every terrain group (the rulebook example's groups add up to 20)
    assert sum(want.player.groups.values()) == 20
    at.selectbox(key="wg_scenario").set_value("cattle-drive").run()
    want = expected(EXAMPLE, [3, 7, 11], "cattle-drive")
    assert metric(at, "Player total") == str(want.player.total)
    assert metric(at, "Opponent total") == str(want.opponent.total)


def test_illegal_rows_are_flagged_inline_and_left_out():
    rows = EXAMPLE + [{"card": 5, "x": 20, "y": 20, "rot": 0}, {"card": 6, "x": 8, "y": 0, "rot": 0}]
    at = open_page("wagons_sheet", state={"wg_rows": rows})
    assert not at.exception
    assert any("Row 7 is left out" in e and "does not touch" in e for e in errors(at))
    assert any("Row 8 is left out" in e and "does not touch" in e for e in errors(at))
    town_drawing = next(h.proto.body for h in at.get("html") if "Your town:" in h.proto.body)
    # row 8's 4 squares are outlined beside the town; row 7, far away, is only reported in words
    assert town_drawing.count("outline:3px solid #d32f2f") == 4
    assert metric(at, "Player total") == str(expected(EXAMPLE, [3, 7, 11], "boomtown").player.total)


def test_card_picker_places_legal_cards_and_refuses_illegal_ones():
    at = open_page("wagons_sheet")
    at.selectbox(key="wg_pick_card").set_value(5)
    at.number_input(key="wg_pick_x").set_value(6)
    at.number_input(key="wg_pick_y").set_value(1)
    at.button(key="wg_place").click().run()
    assert not at.exception and not errors(at)
    assert at.session_state["wg_rows"][-1] == {"card": 5, "x": 6, "y": 1, "rot": 0}
    want = expected(EXAMPLE + [{"card": 5, "x": 6, "y": 1, "rot": 0}], [3, 7, 11], "boomtown")
    assert metric(at, "Player total") == str(want.player.total)
    at.selectbox(key="wg_pick_card").set_value(6)
    at.number_input(key="wg_pick_x").set_value(30)
    at.button(key="wg_place").click().run()
    assert any(e.startswith("Not placed") for e in errors(at))
    assert len(at.session_state["wg_rows"]) == 7


def test_uploads_bad_files_change_nothing_good_ones_replace_the_town():
    at = open_page("wagons_sheet")
    before = list(at.session_state["wg_rows"])
    bad = json.dumps({"placements": [{"card": 1, "x": 0, "y": 0}, {"card": 2, "x": 9, "y": 9}]}).encode()
    at.get("file_uploader")[0].upload("town.json", bad, "application/json").run()
    assert any("was not loaded" in e and "illegal placement" in e for e in errors(at))
    assert at.session_state["wg_rows"] == before
    at.get("file_uploader")[0].upload("junk.json", b"{not json", "application/json").run()
    assert any("invalid JSON" in e for e in errors(at))
    assert at.session_state["wg_rows"] == before
    good = json.dumps({"placements": EXAMPLE[:2]}).encode()
    at.get("file_uploader")[0].upload("small.json", good, "application/json").run()
    assert not at.exception
    assert at.session_state["wg_rows"] == EXAMPLE[:2]
    assert metric(at, "Player total") == str(expected(EXAMPLE[:2], [3, 7, 11], "boomtown").player.total)


def test_best_possible_layout_of_the_same_cards():
    rows = EXAMPLE[:3]
    at = open_page("wagons_sheet", state={"wg_rows": rows})
    at.slider(key="wg_opt_limit").set_value(3)
    at.button(key="wg_best").click().run(timeout=120)
    assert not at.exception, at.exception
    result = at.session_state["wg_best_result"][1]
    mine = expected(rows, [3, 7, 11], "boomtown").player.total
    assert result["score"] >= mine
    assert f"the best found scores **{result['score']}**" in texts(at)


def test_play_along_says_what_the_opponent_drafts_and_why():
    at = open_page("wagons_play")
    assert not at.exception
    at.selectbox(key="pa_card_0").set_value(5)
    at.button(key="pa_place").click().run()
    assert at.session_state["pa"]["town"] == [{"card": 5, "x": 0, "y": 0, "rot": 0}]
    at.multiselect(key="pa_circle_1").set_value([3, 7, 11, 0]).run()
    at.selectbox(key="pa_deck_1").set_value(2).run()
    at.button(key="pa_ask").click().run()
    want = opponent_draft("boomtown", 1, (3, 7, 11, 0), 2, (), None, Rules())
    assert f"takes **card {want.take}**" in texts(at)
    assert f"Rule: **{want.rule}**" in texts(at)
    at.button(key="pa_record").click().run()
    assert at.session_state["pa"]["pile"] == list(add_to_pile((), want, Rules()))
    assert at.session_state["pa"]["hand"] == list(want.skipped)
    want_score = final_scores(town_from_dict({"placements": [{"card": 5, "x": 0, "y": 0, "rot": 0}]}),
                              tuple(at.session_state["pa"]["pile"]), "boomtown", Rules())
    assert metric(at, "You total") == str(want_score.player.total)


def test_scenarios_page_tables_and_charts_match_the_simulator():
    from solver.wagons.simulate import simulate

    at = open_page("wagons_scenarios", state={"sc_scenarios": ["boomtown", "cattle-drive"], "sc_policies": ["greedy"],
                                              "sc_n": 3})
    assert not at.exception and not errors(at)
    assert at.session_state["sc_games"] == 6
    table = at.dataframe[0].value
    assert len(table) == 2
    for scenario, name in (("boomtown", "Boomtown"), ("cattle-drive", "Cattle Drive")):
        games = simulate(3, scenario, "greedy", 0, Rules().to_dict())
        row = table[table["scenario name"] == name]
        assert row["player win rate"].iloc[0] == pytest.approx((games["winner"] == "player").mean(), abs=1e-3)
        assert row["mean margin"].iloc[0] == pytest.approx(round(games["margin"].mean(), 1))
    titles = [c.get("title") for c in charts(at)]
    assert "Player win rate" in titles and "Margin histograms" in titles
    hist = next(c for c in charts(at) if c.get("title") == "Margin histograms")
    assert hist["spec"]["encoding"]["x"]["field"] == "margin" and hist["spec"]["encoding"]["x"]["bin"]


def test_best_play_difficulty_table_comes_from_the_optimizer():
    at = open_page("wagons_scenarios", state={"sc_scenarios": ["cattle-drive"], "sc_policies": ["greedy"], "sc_n": 1})
    at.number_input(key="sc_bp_limit").set_value(1)
    at.button(key="sc_bp_run").click().run(timeout=180)
    assert not at.exception and not errors(at)
    jobs, limit, rows = at.session_state["sc_bp_result"]
    assert jobs == (("cattle-drive", 0),) and len(rows) == 1
    row = rows[0]
    assert row["best_margin"] >= row["greedy_margin"]  # best play is never worse than the greedy line it starts from
    summary = next(d.value for d in at.dataframe if "win_share_best" in d.value.columns)
    assert summary["deals"].iloc[0] == 1
    assert "Best play vs greedy, per deal" in [c.get("title") for c in charts(at)]


def test_opponent_pile_upload():
    at = open_page("wagons_sheet")
    at.get("file_uploader")[1].upload("opp.json", b'{"pile": [3, 99]}', "application/json").run()
    assert any("was not loaded" in e and "99" in e for e in errors(at))
    assert at.session_state["wg_pile"] == [3, 7, 11]
    at.get("file_uploader")[1].upload("opp.json", b'{"pile": [8, 9]}', "application/json").run()
    assert not at.exception
    assert at.session_state["wg_pile"] == [8, 9]
    assert metric(at, "Opponent total") == str(expected(EXAMPLE, [8, 9], "boomtown").opponent.total)


def test_play_along_round_two_uses_the_round_one_counts():
    from solver.wagons.scoring import pile_counts, town_features

    at = open_page("wagons_play")
    at.selectbox(key="pa_card_0").set_value(5)
    at.button(key="pa_place").click().run()
    at.button(key="pa_round2").click().run()
    g = at.session_state["pa"]
    town = town_from_dict({"placements": g["town"]})
    assert g["round"] == 2 and g["after1"] == [town_features(town).territories, pile_counts(tuple(g["pile"])).territories]
    at.multiselect(key=f"pa_circle_{len(g['log'])}").set_value([3, 7, 11]).run()
    at.button(key="pa_ask").click().run()
    want = opponent_draft("boomtown", 2, (3, 7, 11), None, tuple(g["pile"]), tuple(g["after1"]), Rules())
    assert f"takes **card {want.take}**" in texts(at) and f"Rule: **{want.rule}**" in texts(at)


def test_score_breakdown_marks_low_confidence_goal_cards():
    """Boomtown's Smalltown Charm and Boom or Bust rest on one unofficial source (rule:W11): their
    rows carry the marker and a caption says why; Out-Drink's two cards (medium) carry none."""
    at = open_page("wagons_sheet")
    assert not at.exception
    items = [str(i) for t in at.table for i in t.value.index]
    assert "goal: Boom or Bust (low confidence, W11)" in items and "goal: Smalltown Charm (low confidence, W11)" in items
    assert any("one unofficial source" in c.value for c in at.caption)
    at.selectbox(key="wg_scenario").set_value("out-drink-the-competition").run()
    items = [str(i) for t in at.table for i in t.value.index]
    assert "goal: Bootleggers" in items and not any("low confidence" in i for i in items)


def test_scenarios_page_charts_the_shipped_atlas():
    """The difficulty atlas from the shipped Parquet rows (scenarios/wagons/atlas.parquet): a table per scenario
    and reading, a chart of the deals won with perfect play against greedy and one of the best margins."""
    import polars as pl

    from solver.paths import SCENARIOS
    from solver.wagons.atlas import atlas_table

    at = open_page("wagons_scenarios", state={"sc_scenarios": ["cattle-drive"], "sc_policies": ["greedy"], "sc_n": 1})
    assert not at.exception and not errors(at)
    rows = pl.read_parquet(SCENARIOS / "wagons" / "atlas.parquet")
    assert at.session_state["sc_atlas_rows"] == rows.height
    table = next(d.value for d in at.dataframe if "winnable with perfect play" in d.value.columns)
    expected = atlas_table(rows)
    assert len(table) == expected.height
    boom = table[(table["scenario"] == "Boomtown") & (table["reading"] == "Boom or Bust flat per band")]
    want = expected.filter((pl.col("scenario") == "boomtown") & (pl.col("reading") == "boom_or_bust=flat"))
    assert boom["deals"].iloc[0] == want["deals"][0]
    titles = [c.get("title") for c in charts(at)]
    assert "Deals won: perfect play vs the greedy policy" in titles
    assert "Best margin per deal with perfect play" in titles
