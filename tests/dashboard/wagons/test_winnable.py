"""AppTest: "Could this deal have been won?" at the end of a Lone Cowboy game
(dashboard.wagons.review.show_was_winnable and the play page), against the solver's own answer
(solver.wagons.review.deal.was_winnable) and the engine's replay of the winning line."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from dashboard.nav import page_file
from dashboard.shared.work import urldoc
from dashboard.wagons import game as wg
from dashboard.wagons import view as wv
from solver.wagons.game import is_over, scores
from solver.wagons.record.game_record import game_from_record, game_record
from solver.wagons.review.deal import was_winnable
from solver.wagons.simulate import play_game
from tests.support.dashboard.apptest import APP, errors, reloaded

WON = ("gold-rush", "greedy", 3)
"""A greedy game lost by the greedy policy on a deal perfect play wins (found in well under a second)."""
LOST = ("water-the-herd", "greedy", 6)
"""A deal no line of play wins (proven from the cards' bounds in well under a second)."""


def winnable_app(scenario: str, policy: str, seed: int, finished: bool = True) -> None:
    from dashboard.wagons.review import show_was_winnable
    from solver.wagons.game import new_game
    from solver.wagons.simulate import play_game

    show_was_winnable(play_game(scenario, policy, seed).state if finished else new_game(scenario, seed))


def opened(*game, finished: bool = True) -> AppTest:
    at = AppTest.from_function(winnable_app, args=(*game, finished), default_timeout=120)
    at.session_state["ww_limit"] = 20
    at.run()
    assert not at.exception
    return at


def test_a_winnable_deal_shows_the_solvers_line():
    at = opened(*WON)
    assert not at.success and not at.dataframe  # nothing is searched before the player asks
    at.button(key="ww_run").click().run()
    assert not at.exception and not errors(at)
    answer, record = was_winnable(play_game(*WON).state, time_limit=20)
    assert answer.winnable
    (banner,) = [s.value for s in at.success]
    assert banner.startswith(f"Yes: this deal could be won, by {answer.margin} points")
    (line,) = [d.value for d in at.dataframe]
    assert len(line) == len(answer.actions) and list(line["card"]) == [
        a["card"] if "card" in a else a["place"]["card"] for a in answer.actions]
    end = game_from_record(record)
    caption = f"The winning line's town: {scores(end).player.total} points against {scores(end).opponent.total}"
    (town,) = [h.proto.body for h in at.get("html")]
    assert town == wv.town_html(end.town, caption=caption)  # the engine's town of the replayed line, drawn
    assert [b.label for b in at.get("download_button")] == ["Download the winning line (game file)"]


def test_a_lost_deal_says_it_is_proven():
    at = opened(*LOST)
    at.button(key="ww_run").click().run()
    assert not at.exception and not errors(at)
    (banner,) = [s.value for s in at.info]
    assert banner.startswith("No: no line of play beats the opponent on this deal (proven")
    assert not at.dataframe and not at.get("download_button")


def test_nothing_is_asked_before_the_game_is_over():
    at = opened(*WON, finished=False)
    assert not at.button and not at.get("slider")


def test_step_through_the_winning_line_on_the_table_and_back():
    played = play_game(*WON).state
    own = {"record": game_record(played), "at": len(game_record(played)["actions"])}
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["lc"] = urldoc.encode(own)
    at.run()
    at.switch_page(page_file("wagons_play"))
    at.run()
    assert not at.exception and not errors(at)
    at.session_state["lc_winnable_limit"] = 20
    at.button(key="lc_winnable_run").click().run()
    at.button(key="lc_winnable_step").click().run()
    assert not at.exception and not errors(at)
    _, record = was_winnable(played, time_limit=20)
    assert at.session_state[wg.KEY] == {"record": record, "at": 0}
    assert at.session_state[wg.OWN_GAME] == own
    assert any("The table shows the winning line" in i.value for i in at.info)
    # a reload while stepping through keeps both the line and the way back to the player's own game
    at.button(key="lc_redo").click().run()
    again = reloaded(at, "wagons_play", timeout=120)
    assert not again.exception and not errors(again)
    assert again.session_state[wg.KEY] == {"record": record, "at": 1} and again.session_state[wg.OWN_GAME] == own
    again.button(key="lc_back_own").click().run()
    assert again.session_state[wg.KEY] == own and "lc_own" not in again.query_params
    while not at.button(key="lc_redo").disabled:  # redo passes over the opponent's own turns (they play themselves)
        at.button(key="lc_redo").click().run()
    end = game_from_record(at.session_state[wg.KEY]["record"])
    assert is_over(end) and scores(end).winner == "player"
    at.button(key="lc_back_own").click().run()
    assert not at.exception and at.session_state[wg.KEY] == own and wg.OWN_GAME not in at.session_state
