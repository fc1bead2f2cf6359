"""AppTest: the Scenarios page opens from stored rows at once, simulates other settings only when asked, keeps its
inputs and last best-play table for the browser, and never shows a table for other inputs than those in its boxes
(issue 32: "Fast pages", "No stale answers", "Nothing lost")."""

from __future__ import annotations

import polars as pl
import pytest

from dashboard.wagons.scenarios import rows as rows
from solver.wagons.data import load_data
from solver.wagons.simulate import simulate
from tests.support.dashboard.apptest import errors, open_page, texts
from tests.support.dashboard.kept import browser_of, same_browser

SCENARIO_IDS = [s.id for s in load_data().scenarios]
COMPARED = ["seed", "scenario", "policy", "player_total", "opponent_total", "margin", "winner", "player_cards",
            "opponent_cards"]


@pytest.mark.parametrize("reading", rows.READINGS, ids=["default", "flat"])
def test_stored_rows_are_the_engines_own_games(reading):
    stored = rows.stored()
    assert stored.height == len(SCENARIO_IDS) * len(rows.POLICIES) * len(rows.READINGS) * rows.STORED_GAMES
    for scenario in SCENARIO_IDS:
        for policy in rows.POLICIES:
            got = rows.stored_batch(scenario, policy, 2, 0, reading)
            want = simulate(2, scenario, policy, 0, reading)
            assert got.select(COMPARED).to_dicts() == want.select(COMPARED).to_dicts(), (scenario, policy)
    late = rows.stored_batch("cattle-drive", "random", 3, 97, reading)  # the last stored games too
    assert late.select(COMPARED).to_dicts() == simulate(3, "cattle-drive", "random", 97, reading).select(COMPARED).to_dicts()


def test_stored_rows_answer_only_what_they_hold():
    assert rows.stored_batch("boomtown", "greedy", 100, 0, {}) is not None
    assert rows.stored_batch("boomtown", "greedy", 101, 0, {}) is None  # seed 100 is not stored
    assert rows.stored_batch("boomtown", "greedy", 10, 95, {}) is None
    assert rows.stored_batch("boomtown", "greedy", 10, 0, {"tie_break": "guns"}) is None  # other readings


def test_the_page_opens_from_the_stored_rows_without_simulating(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the page simulated before being asked")

    monkeypatch.setattr(rows.sim, "simulate", refuse)
    at = open_page("wagons_scenarios")
    assert not at.exception and not errors(at)
    assert at.session_state["sc_games"] == len(SCENARIO_IDS) * 2 * 100
    assert not any(b.key == "sc_simulate" for b in at.button)
    assert "stored rows" in texts(at)


def test_other_settings_are_simulated_only_when_asked():
    at = open_page("wagons_scenarios", state={"sc_scenarios": ["cattle-drive"], "sc_policies": ["random"],
                                              "sc_n": "4", "sc_seed": "500"})
    assert not at.exception and "sc_games" not in at.session_state
    assert not any("player win rate" in d.value.columns for d in at.dataframe)  # no table until simulated
    assert any(b.key == "sc_simulate" for b in at.button)
    assert "not simulated yet" in texts(at)
    at.button(key="sc_simulate").click().run()
    assert not at.exception and not errors(at)
    assert at.session_state["sc_games"] == 4
    table = at.dataframe[0].value
    want = simulate(4, "cattle-drive", "random", 500, {})
    assert table["games"].iloc[0] == 4
    assert table["mean margin"].iloc[0] == pytest.approx(round(want["margin"].mean(), 1))
    again = open_page("wagons_scenarios", state={"sc_scenarios": ["cattle-drive"], "sc_policies": ["random"],
                                                 "sc_n": "4", "sc_seed": "500"})
    assert again.session_state["sc_games"] == 4  # this server's earlier run answers at once


@pytest.mark.parametrize("text,why", [("99999999", "out of range"), ("1e9", "expected a whole number"),
                                      ("", "expected a whole number")])
def test_a_bad_number_hides_the_tables_and_names_its_box(text, why):
    at = open_page("wagons_scenarios")
    assert at.session_state["sc_games"] == 1200
    at.text_input(key="sc_n").input(text).run()
    assert not at.exception
    (line,) = [e for e in errors(at) if "Games each" in e]
    assert line.startswith("Fix the box 'Games each'") and why in line and "\n" not in line
    assert "The simulated tables are hidden until the box above is fixed." in texts(at)
    assert not any("player win rate" in d.value.columns for d in at.dataframe)


def test_the_inputs_and_the_best_play_table_outlive_a_reload_on_another_page():
    at = open_page("wagons_scenarios", state={"sc_scenarios": ["cattle-drive"], "sc_policies": ["greedy"]})
    at.text_input(key="sc_n").input("3").run()
    at.text_input(key="sc_bp_limit").input("1").run()
    at.button(key="sc_bp_run").click().run(timeout=180)
    assert not at.exception
    kept = at.session_state["sc_bp_result"]
    again = same_browser(browser_of(at), "wagons_scenarios")  # a new session: a reload elsewhere, then back here
    assert again.text_input(key="sc_n").value == "3" and again.multiselect(key="sc_scenarios").value == ["cattle-drive"]
    assert again.session_state["sc_bp_result"][:2] == kept[:2] and again.session_state["sc_bp_result"][2] == kept[2]
    assert any("win_share_best" in d.value.columns for d in again.dataframe)
    again.text_input(key="sc_bp_limit").input("2").run()  # other inputs: the old table is not shown as theirs
    assert not any("win_share_best" in d.value.columns for d in again.dataframe)
    assert "answered other scenarios, deals or seconds" in texts(again)


def test_stored_frame_has_the_simulators_columns():
    got = rows.stored_batch("boomtown", "random", 1, 0, {})
    want = simulate(1, "boomtown", "random", 0, {})
    assert set(want.columns) <= set(got.columns) and isinstance(got, pl.DataFrame)
