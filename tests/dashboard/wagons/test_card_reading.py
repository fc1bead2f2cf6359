"""AppTest: the player's Boom or Bust card settles the score (issue 32). While the readings of the low-confidence
number give the towns different scores, the sheet and the table show the scores under each reading side by side,
each with the reading's wording, and name no winner they disagree on; "My card says this" sets the session's
reading, is remembered for the browser (a new session starts with it) and can be changed; an address that names
the reading keeps its own."""

from __future__ import annotations

from dashboard.shared.work import urldoc
from dashboard.wagons import game as wg
from dashboard.wagons.cards import reading as card_reading
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import game_from_record, game_record
from solver.wagons.scoring import final_scores, scores_by_reading
from solver.wagons.simulate import play_game
from solver.wagons.town import town_from_dict
from tests.support.dashboard.apptest import open_page, texts
from tests.support.dashboard.kept import browser_of, same_browser
from tests.support.dashboard.wagons_table import boomtown_sheet, metric

SAY = "wg_card_say_boom_or_bust_{}"






def test_the_sheet_shows_both_readings_side_by_side_and_names_no_winner_until_the_card_says():
    state = boomtown_sheet()
    at = open_page("wagons_sheet", state=state)
    town, pile = town_from_dict({"placements": state["wg_rows"]}), tuple(state["wg_pile"])
    by = scores_by_reading(town, pile, "boomtown")
    shown = texts(at)
    assert "Boom or Bust decides these scores, and your card settles it." in shown
    for column in by["scores"]:
        assert f"You **{column['player']}**, the opponent **{column['opponent']}**" in shown
    for value in by["readings"][0]["values"]:
        assert value["wording"] in shown
    assert "it depends on what your Boom or Bust card says" in shown
    assert not any(w in shown for w in ("The player wins", "The opponent wins"))
    at.button(key=SAY.format("flat")).click().run()
    flat = final_scores(town, pile, "boomtown", WagonsReadings(boom_or_bust="flat"))
    assert at.session_state["readings"]["wagons"]["boom_or_bust"] == "flat"  # the session's reading
    assert metric(at, "Player total") == str(flat.player.total)
    assert metric(at, "Opponent total") == str(flat.opponent.total)
    assert "decides these scores" not in texts(at) and "your card says each band's points once" in texts(at)
    assert {"player": "The player wins", "opponent": "The opponent wins", "tie": "Tie"}[flat.winner] in texts(at)


def test_the_answer_is_remembered_for_the_browser_and_can_be_changed():
    state = boomtown_sheet()
    at = open_page("wagons_sheet", state=state)
    at.button(key=SAY.format("flat")).click().run()
    again = same_browser(browser_of(at), "wagons_sheet")  # a new session: the reading comes back with the browser
    assert again.session_state["readings"]["wagons"]["boom_or_bust"] == "flat"
    assert again.session_state[card_reading.WORK] == {"boom_or_bust": "flat"}
    assert open_page("wagons_sheet").session_state.get("readings", {}).get("wagons", {}) == {}  # not another's
    at.button(key="wg_card_unsay_boom_or_bust").click().run()  # Change: both readings side by side again
    assert "decides these scores" in texts(at)
    at.button(key=SAY.format("per-mine")).click().run()
    assert same_browser(browser_of(at), "home").session_state["readings"]["wagons"]["boom_or_bust"] == "per-mine"


def test_an_address_naming_the_reading_keeps_its_own():
    at = open_page("wagons_sheet", state=boomtown_sheet())
    at.button(key=SAY.format("flat")).click().run()
    query = {"readings": urldoc.encode({"wagons": {"boom_or_bust": "per-mine", "tie_break": "guns"}})}
    shared = same_browser(browser_of(at), "home", query=query)
    assert shared.session_state["readings"]["wagons"]["boom_or_bust"] == "per-mine"


def test_equal_scores_under_every_reading_need_no_answer():
    at = open_page("wagons_sheet", state={"wg_scenario": "boomtown", "wg_rows": [], "wg_pile": []})
    assert "decides these scores" not in texts(at)
    at = open_page("wagons_sheet", state={"wg_scenario": "cattle-drive"})  # no low-confidence number in play
    assert "decides these scores" not in texts(at)


def test_the_table_shows_both_readings_and_the_game_under_way_takes_the_answer():
    for seed in range(40):
        played = play_game("boomtown", "greedy", seed).state
        by = scores_by_reading(played.town, played.pile, "boomtown")
        if len({c["winner"] for c in by["scores"]}) > 1:
            break
    at = open_page("wagons_play")
    at.session_state[wg.KEY] = {"record": game_record(played), "at": len(game_record(played)["actions"])}
    at.run()
    assert "Boom or Bust decides these scores" in texts(at) and "it depends on what your Boom or Bust" in texts(at)
    at.button(key="lc_card_say_boom_or_bust_flat").click().run()
    record = at.session_state[wg.KEY]["record"]
    assert WagonsReadings.from_json(record["rules"]).boom_or_bust == "flat"
    end = game_from_record(record)
    want = final_scores(end.town, end.pile, "boomtown", WagonsReadings(boom_or_bust="flat"))
    assert metric(at, "Your total") == str(want.player.total) and metric(at, "Opponent total") == str(want.opponent.total)
    assert not [i for i in at.info if "keeps the readings it started with" in i.value]
