"""AppTest: the Lone Cowboy pages lose nothing (issue 32): the play-along's game, the score sheet, the last best
layout and the after-game review are this browser's kept work, back in a new session of the same browser (a reload
on another page, a closed tab, a restarted server) and never in another browser's; an address still opens its own
game first; My games saves, resumes, renames and deletes games and towns; a new game clears an upload's message."""

from __future__ import annotations

import json
import random

from dashboard.shared.work import urldoc
from dashboard.wagons import game as wg
from dashboard.wagons import town_grid
from dashboard.wagons.sheet import work as sh
from solver.wagons import game as gm
from solver.wagons.record.game_record import game_from_record, game_record
from solver.wagons.simulate import play_game
from tests.support.dashboard.apptest import errors, open_page, texts
from tests.support.dashboard.kept import browser_of, handle, same_browser

GRID = "lc_town"


def page_state(at) -> gm.GameState:
    g = at.session_state[wg.KEY]
    return game_from_record({**g["record"], "actions": g["record"]["actions"][:g["at"]]})


def take_turns(at, n: int, seed: int = 1) -> gm.GameState:
    """``n`` random player actions by taps (upright placements; the opponent plays by itself)."""
    rng = random.Random(seed)
    for _ in range(n):
        state = page_state(at)
        acts = gm.legal_actions(state)
        action = rng.choice([a for a in acts if not isinstance(a, gm.Place) or a.placement.rot == 0] or acts)
        if isinstance(action, gm.Draft):
            at.button(key=f"lc_draft_{action.index}").click().run()
        elif isinstance(action, gm.Reveal):
            at.button(key=f"lc_reveal_{action.card}").click().run()
        else:
            at.session_state[f"{GRID}_last_tap"] = None
            at.button(key=town_grid.cell_key(GRID, action.placement.x, action.placement.y)).click().run()
        assert not at.exception
    return page_state(at)


def test_the_game_is_back_in_a_new_session_of_the_same_browser_only():
    at = open_page("wagons_play")
    take_turns(at, 5)
    game = at.session_state[wg.KEY]
    again = same_browser(browser_of(at), "wagons_play")  # a reload on another page, then the navigation back
    assert not again.exception and not errors(again)
    assert again.session_state[wg.KEY] == game
    assert handle(at).load_work(wg.KEY) == game
    other = open_page("wagons_play")  # another browser: the default deal, nothing of the first one's
    assert other.session_state[wg.KEY]["record"]["actions"] == []


def test_an_address_opens_its_own_game_first_and_that_game_is_then_kept():
    at = open_page("wagons_play")
    take_turns(at, 4)
    shared = {"record": game_record(gm.apply(gm.new_game("cattle-drive", 3), gm.Draft(1))), "at": 1}
    again = same_browser(browser_of(at), "home", query={"lc": urldoc.encode(shared)})
    again.switch_page("wagons/play_page.py").run()  # (AppTest keeps the address across the switch)
    assert again.session_state[wg.KEY] == shared
    assert handle(at).load_work(wg.KEY) == shared


def test_the_table_setting_and_the_review_are_kept():
    at = open_page("wagons_play")
    at.toggle(key="lc_autoplay").set_value(False).run()
    played = play_game("cattle-drive", "random", 2).state
    at.session_state[wg.KEY] = {"record": game_record(played), "at": len(game_record(played)["actions"])}
    at.run()
    at.slider(key="lc_review_limit").set_value(2).run()
    at.button(key="lc_review_run").click().run(timeout=120)
    best = next(m.value for m in at.metric if m.label == "Best layout")
    again = same_browser(browser_of(at), "wagons_play")
    assert again.toggle(key="lc_autoplay").value is False
    assert next(m.value for m in again.metric if m.label == "Best layout") == best  # shown without asking again


def test_save_a_game_to_my_games_then_resume_rename_and_delete_it():
    at = open_page("wagons_play")
    take_turns(at, 4)
    saved = dict(at.session_state[wg.KEY])
    at.text_input(key="lc_my_games_name").input("Kitchen table").run()
    at.button(key="lc_my_games_save").click().run()
    assert "Saved 'Kitchen table' to My games." in texts(at)
    take_turns(at, 2, seed=9)
    assert at.session_state[wg.KEY] != saved
    (item,) = handle(at).list_items()
    assert (item.kind, item.name) == ("wagons-game", "Kitchen table")
    at.switch_page("shared/my_games.py").run()
    assert "**Kitchen table**" in texts(at) and "Lone Cowboy game" in texts(at)
    at.button(key=f"mg_resume_{item.id}").click().run()
    assert not at.exception and at.session_state[wg.KEY] == saved
    assert "Lone Cowboy play-along" in [t.value for t in at.title]
    at.switch_page("shared/my_games.py").run()
    at.text_input(key=f"mg_name_{item.id}").input("Kitchen table, Sunday").run()
    at.button(key=f"mg_rename_{item.id}").click().run()
    assert handle(at).list_items()[0].name == "Kitchen table, Sunday"
    at.button(key=f"mg_delete_{item.id}").click().run()
    assert handle(at).list_items() == []


def test_the_sheet_and_its_best_layout_are_kept_and_a_town_resumes_from_my_games():
    at = open_page("wagons_sheet")
    at.button(key="wg_clear").click().run()
    at.selectbox(key="wg_pick_card").set_value(5).run()
    at.button(key=town_grid.cell_key("wg_grid", 0, 0)).click().run()
    at.slider(key="wg_opt_limit").set_value(2).run()
    at.button(key="wg_best").click().run(timeout=120)
    assert "Best layout found:" in " ".join(h.proto.body for h in at.get("html"))
    sheet = at.session_state[sh.WORK]
    assert sheet["rows"] == [{"card": 5, "x": 0, "y": 0, "rot": 0}]
    at.text_input(key="wg_my_games_name").input("One card").run()
    at.button(key="wg_my_games_save").click().run()
    again = same_browser(browser_of(at), "wagons_sheet")
    assert again.session_state["wg_rows"] == sheet["rows"] and again.session_state[sh.WORK] == sheet
    assert "Best layout found:" in " ".join(h.proto.body for h in again.get("html"))  # the last answer, kept
    again.button(key="wg_example").click().run()  # other work since: My games brings the saved town back
    (item,) = handle(again).list_items()
    again.switch_page("shared/my_games.py").run()
    again.button(key=f"mg_resume_{item.id}").click().run()
    assert not again.exception and again.session_state["wg_rows"] == sheet["rows"]


def test_a_sheet_in_the_address_wins_over_the_kept_one():
    at = open_page("wagons_sheet")
    at.button(key="wg_clear").click().run()
    shared = {"scenario": "cattle-drive", "rows": [{"card": 2, "x": 0, "y": 0, "rot": 0}], "pile": [1]}
    again = same_browser(browser_of(at), "home", query={"sheet": urldoc.encode(shared)})
    again.switch_page("wagons/sheet/page.py").run()
    assert again.session_state["wg_rows"] == shared["rows"] and again.session_state["wg_pile"] == [1]
    assert again.selectbox(key="wg_scenario").value == "cattle-drive"
    assert handle(at).load_work(sh.WORK) == shared


def test_a_new_game_clears_the_last_uploads_message():
    at = open_page("wagons_play")
    at.get("file_uploader")[0].upload("junk.json", b"{not json", "application/json").run()
    assert any("was not loaded" in e for e in errors(at))
    at.run()
    assert any("was not loaded" in e for e in errors(at))  # it stays while that file is in the box
    at.button(key="lc_start").click().run()
    assert not any("was not loaded" in e for e in errors(at))


def test_a_bad_seed_names_its_box_and_starts_nothing():
    at = open_page("wagons_play")
    before = at.session_state[wg.KEY]
    for text in ("1e9", "99999999999", "seven"):
        at.text_input(key="lc_new_seed").input(text).run()
        (line,) = [e for e in errors(at) if "Deal (seed)" in e]
        assert line.startswith("Fix the box 'Deal (seed)'") and "\n" not in line
        assert at.button(key="lc_start").disabled
    at.text_input(key="lc_new_seed").input("12").run()
    at.button(key="lc_start").click().run()
    assert at.session_state[wg.KEY]["record"]["seed"] == 12 != before["record"]["seed"]


def test_kept_work_the_engine_refuses_is_one_line_and_a_fresh_game():
    at = open_page("wagons_play")
    handle(at).save_work(wg.KEY, {"record": {"game": "lone-cowboy", "actions": "many"}, "at": 0})
    again = same_browser(browser_of(at), "wagons_play")
    assert not again.exception
    (line,) = [e for e in errors(again) if e.startswith("Your kept work could not be restored")]
    assert "\n" not in line and again.session_state[wg.KEY]["record"]["actions"] == []
    assert json.dumps(again.session_state[wg.KEY])  # a game the page can keep again
