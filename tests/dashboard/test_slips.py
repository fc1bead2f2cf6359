"""AppTest: the slips a new player met at the table (browser walk): My games lists a game under way as soon as it
starts, a save-name box follows the work it names, counts in the right number."""

from __future__ import annotations

from tests.support.dashboard.apptest import open_page, texts
from tests.support.dashboard.kept import browser_of, same_browser


def test_my_games_lists_the_game_under_way_as_soon_as_it_starts_before_any_save():
    at = open_page("wagons_play")
    at.button(key="lc_start").click().run()  # a new game: kept as it is played, never saved by hand
    games = same_browser(browser_of(at), "my_games")
    assert not games.exception
    shown = " ".join(m.value for m in games.markdown)
    assert "**Lone Cowboy game, under way**" in shown
    assert not [i for i in games.info if i.value.startswith("Nothing saved")]
    assert [b.label for b in games.button if b.key == "mg_open_wagons_game"] == ["Open"]


def test_the_save_name_box_follows_the_scenario_until_the_player_types_a_name():
    at = open_page("wagons_sheet")
    assert at.text_input(key="wg_my_games_name").value == "Boomtown town"
    at.selectbox(key="wg_scenario").set_value("gold-rush").run()
    assert at.text_input(key="wg_my_games_name").value == "Gold Rush town"
    at.text_input(key="wg_my_games_name").set_value("Saloon corner").run()
    at.selectbox(key="wg_scenario").set_value("boomtown").run()
    assert at.text_input(key="wg_my_games_name").value == "Saloon corner"  # typed by the player: kept


def test_the_opponent_pile_picker_offers_only_cards_it_can_take_drawn_as_cards_without_select_all():
    from solver.wagons.data import load_data
    from solver.wagons.game import goal_fronts

    at = open_page("wagons_sheet")
    town = {r["card"] for r in at.session_state["wg_rows_live"]}
    data = load_data()
    aside = set(goal_fronts(data.scenario("boomtown").goals, data))
    box = at.multiselect(key="wg_pile_sel")
    offered = {int(str(o).split()[0]) for o in box.options}
    assert offered.isdisjoint(town | aside) and offered
    assert all(not str(o).startswith("Card ") for o in box.options)
    assert box.proto.select_all == 0 and box.proto.wrap  # no "Select all"; the chips wrap, none cut off
    taps = sorted(int(b.key.rsplit("_", 1)[1]) for b in at.button if b.key and b.key.startswith("wg_pile_add_"))
    assert set(taps) == offered - set(box.value)
    first = taps[0]
    at.button(key=f"wg_pile_add_{first}").click().run()
    assert at.session_state["wg_pile"][-1] == first  # one tap: on top of the pile
    assert f"wg_pile_add_{first}" not in [b.key for b in at.button]


def test_the_outlaws_table_starts_near_sudden_death_in_one_tap():
    import json

    from solver.outlaws import game as gm
    from solver.outlaws.position_json import read_position
    from solver.paths import SCENARIOS

    at = open_page("outlaws_table")
    at.button(key="olp_example_sudden-death-near").click().run()
    assert not at.exception and not [e.value for e in at.error]
    line = at.session_state["outlaws_line"]["line"]
    want = gm.Game(read_position(SCENARIOS / "outlaws" / "sudden-death-near.json"))
    assert line["steps"] == [] and json.dumps(line["start"], sort_keys=True) == json.dumps(
        __import__("solver.outlaws.line", fromlist=["line_to_json"]).line_to_json(want, [])["start"], sort_keys=True)


def test_a_one_card_town_on_the_sheet_is_one_card():
    at = open_page("wagons_sheet", state={"wg_rows": [{"card": 13, "x": 0, "y": 0, "rot": 0}], "wg_pile": []})
    captions = [h.proto.body for h in at.get("html")]
    assert any("Your town: 1 card<" in c for c in captions) and not any("1 cards" in c for c in captions)


def test_the_outlaws_street_is_edited_with_visible_boxes_one_per_column():
    from tests.support.dashboard.apptest import open_editor, outlaws_position

    at = open_page("outlaws")
    before = outlaws_position(at)["street"]["A"]
    open_editor(at)
    assert at.selectbox(key="ol0_st_A0").label == "A's street, column 0"
    at.selectbox(key="ol0_st_A0").set_value(before[1] or "(unknown)")
    at.selectbox(key="ol0_st_A1").set_value(before[0] or "(unknown)")
    at.button(key="FormSubmitter:ol_form_0-Apply edits").click().run()
    assert not at.exception and not [e.value for e in at.error]
    assert outlaws_position(at)["street"]["A"][:2] == [before[1], before[0]]


def test_the_sheet_says_which_quarter_of_a_card_is_listed_first():
    at = open_page("wagons_sheet", state={"wg_rows": [], "wg_pile": []})
    assert "in reading order: top left first, then top right, bottom left and bottom right" in texts(at)
    assert at.selectbox(key="wg_pick_card").options[0].count(", ") == 3  # "N: icon, icon, icon, icon" in that order


def test_every_margin_histogram_on_the_scenarios_page_has_its_x_scale():
    import json

    at = open_page("wagons_scenarios")
    specs = [json.loads(e.proto.spec) for e in at.main if getattr(e, "type", "") == "vega_lite_chart"]
    (margins,) = [s for s in specs if "Final margin" in json.dumps(s.get("title", ""))]
    assert margins["resolve"] == {"axis": {"x": "independent"}, "scale": {"x": "shared"}}


def test_the_verdicts_across_the_readings_are_computed_ahead_once_and_the_run_takes_their_results(monkeypatch):
    """Cactus Town's verdicts took 100 s on the page: the server computes them ahead (once a process, kept on disk
    between runs) and the Run button waits for that run instead of starting a second one."""
    import threading

    from dashboard.shared.runs import ProgressBox
    from dashboard.verification import impact as page_impact
    from solver.readings import impact

    gate, calls = threading.Event(), []

    def fake(game, only, settings, progress=None, executor="serial", stored=False):
        calls.append((game, only, stored, executor))
        if only is None:
            gate.wait(5)
        return {"game": game, "verdicts": [], "seconds": 0.0}

    monkeypatch.setattr(page_impact, "browser_session", lambda: True)
    monkeypatch.setattr(impact, "impact", fake)
    monkeypatch.setattr(page_impact, "_AHEAD", {})
    page_impact.compute_ahead("cactus", 30.0, 100)
    page_impact.compute_ahead("cactus", 30.0, 100)  # the same settings again: no second run
    assert calls == [("cactus", None, True, page_impact.AHEAD_EXECUTOR)]  # in a background process
    assert page_impact.AHEAD_EXECUTOR.kind == "local" and page_impact.AHEAD_EXECUTOR.background
    ahead = page_impact._AHEAD[("cactus", 30.0, 100, "{}")]  # no card numbers settled
    box = ProgressBox(stops=True)
    page_impact._run("cactus", ("solo-marshal-bound",), 30.0, 100, box)  # a chosen verdict: at once, not waiting
    assert ahead.is_alive() and calls[-1] == ("cactus", ("solo-marshal-bound",), True, "serial") and box.latest is None
    threading.Timer(0.2, gate.set).start()
    page_impact._run("cactus", (), 30.0, 100, box)  # every verdict: waits for the run ahead, then reads
    assert not ahead.is_alive() and calls[-1] == ("cactus", None, True, "serial")
    assert box.latest is not None and box.latest.what == "computing ahead since the tab was first opened"
    for off in ("off", "OFF", "0", "false", "no"):  # a browser, but the work ahead switched off
        monkeypatch.setenv(page_impact.AHEAD_ENV, off)
        page_impact.compute_ahead("outlaws", 30.0, 100)
        assert not any(key[0] == "outlaws" for key in page_impact._AHEAD)
    monkeypatch.undo()
    page_impact.compute_ahead("wagons", 30.0, 100)  # no browser (a test's AppTest): nothing in the background
    assert ("wagons", 30.0, 100) not in page_impact._AHEAD
