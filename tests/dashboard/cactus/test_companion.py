"""AppTest: the Cactus Town "Follow a game" tab records rounds and shows the exact live odds of
solver.cactus.companion; impossible rounds are refused inline; the game survives a reload."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.cactus.companion import KEY
from dashboard.nav import page_file
from solver.cactus import companion as cp
from solver.cactus.readings import CactusReadings
from tests.support.dashboard.apptest import APP, charts, errors, open_page, reloaded
from tests.support.dashboard.kept import (  # noqa: F401 - private_store is a fixture
    browser_of,
    forget_process_cache,
    private_store,
    resume_from_my_games,
    same_browser,
)

SOLO_ROUNDS = [((1, 2, 3), 4), ((5, 1, 4), 2), ((6, 2, 3), None), ((1, 7, 5), 3), ((8, 4, 6), 1),
               ((2, 6, 8), "M")]  # round 6: the marshal's arrival drawn as second shot: the game goes on


FOLLOW = "Follow a game"
"""The page's tab this file opens (only the open tab is drawn)."""


def on_tab(at, label: str = FOLLOW):
    """``at`` with the page's tab ``label`` open (AppTest cannot click a tab: its state is dropped, the page's
    kept tab set)."""
    if "ct_tab" in at.session_state:
        del at.session_state["ct_tab"]
    at.session_state["ct_tab__kept"] = label
    return at.run()


def metric(at, label_start: str) -> str:
    return next(m.value for m in at.metric if m.label.startswith(label_start))


def record(at, rnd: int, event=None, programmed=(), shot=None, duels=()):
    k = f"ctc_r{rnd}"
    if event is not None:
        at.selectbox(key=f"{k}_event").set_value(event)
    if duels:
        at.multiselect(key=f"{k}_duels").set_value(list(duels))
    for i, c in enumerate(programmed):
        at.selectbox(key=f"{k}_p{i}").set_value(c)
    if shot is not None:
        at.selectbox(key=f"{k}_shot").set_value(shot)
    next(b for b in at.button if b.label == f"Record round {rnd}").click().run()


def start(at, mode):
    at.radio(key="ctc_mode").set_value(mode)
    at.button(key="ctc_start").click().run()


def test_a_solo_game_followed_for_six_rounds_matches_the_engine():
    at = open_page("cactus", state={"ct_tab": FOLLOW})
    assert not at.exception and not errors(at)
    history = []
    for rnd, (prog, shot) in enumerate(SOLO_ROUNDS, start=1):
        record(at, rnd, programmed=prog, shot=shot)
        assert not errors(at), errors(at)
        history.append(cp.Record(programmed=prog, second_shot=shot))
        rep = cp.report(None, CactusReadings(), history)
        assert metric(at, f"Marshal arrives in round {rnd + 1}") == rep["steps"][-1]["next_round"]
    assert metric(at, "Marshal arrives in round 7") == "3/8"  # 3 programmed of the 8 cards of round 7
    assert len(at.session_state[KEY]["history"]) == 6
    ours = {"Live odds", "When will he arrive?"}
    title = lambda s: s.get("title", {}).get("text") if isinstance(s.get("title"), dict) else s.get("title")  # noqa: E731
    specs = [s for s in charts(at) if title(s) in ours]
    assert len(specs) == 2
    assert {s["title"]["subtitle"] for s in specs} == {"the marshal arrives next round", "now and before the game"}
    for s in specs:
        enc = s["encoding"]
        assert enc["x"]["title"] == "Round" and enc["y"]["title"] == "Chance he arrives"
        assert enc["color"]["title"] == "Odds"
    from dashboard.cactus.companion import forecast_frame, live_frame

    series = set(live_frame(rep)["series"]) | set(forecast_frame(rep)["series"])
    assert series == {"Given the cards seen", "Before the game", "Now (after round 6)"}  # the legend, in plain English
    # the marshal programmed in round 7 ends the game: the lone ranger wins
    record(at, 7, programmed=(3, "M"))
    assert any("the lone ranger wins" in s.value for s in at.success)
    assert not [b for b in at.button if b.label.startswith("Record round")]
    shown = " ".join(m.value for m in at.markdown)
    assert "The solo deck for round 8" not in shown  # no next round after the marshal's arrival


def test_an_impossible_round_is_refused_naming_the_card_and_changes_nothing():
    at = open_page("cactus", state={"ct_tab": FOLLOW})
    record(at, 1, programmed=(1, 7), shot=2)  # #7 is not among the marked cards 1-4
    assert errors(at) == ["Round 1 not recorded: #7 (programmed) cannot have been seen in round 1; the engine says: "
                          "round 1: these cards cannot all have been seen in this round after the rounds before it"]
    assert at.session_state[KEY]["history"] == []


def test_the_event_deck_game_and_a_reload_resume():
    at = open_page("cactus", state={"ct_tab": FOLLOW})
    start(at, 3)
    events = ["tumbleweed", "stagecoach", "sandstorm"]
    for rnd, key in enumerate(events, start=1):
        record(at, rnd, event=key)
        assert not errors(at)
    rep = cp.report(3, CactusReadings(), [cp.Record(event=k) for k in events])
    assert metric(at, "Marshal arrives in round 4") == rep["steps"][-1]["next_round"]
    # a reload: a new session with the same address resumes the game
    again = reloaded(at, "cactus", timeout=60)
    assert again.session_state[KEY] == at.session_state[KEY]
    assert metric(again, "Marshal arrives in round 4") == rep["steps"][-1]["next_round"]
    # undo the last round
    at.button(key="ctc_undo").click().run()
    assert len(at.session_state[KEY]["history"]) == 2


def test_a_damaged_address_is_refused_in_one_line():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["cactus"] = "garbage"
    at.query_params["tab"] = FOLLOW  # the tab of a followed game, as the page keeps it in the address
    at.run()
    at.switch_page(page_file("cactus"))
    at.run()
    assert any("address was not loaded" in e for e in errors(at)) and not at.exception
    assert at.session_state[KEY]["history"] == []


@pytest.mark.usefixtures("private_store")
def test_the_followed_game_is_kept_across_a_reload_elsewhere_and_a_restart_and_saved_to_my_games():
    at = open_page("cactus", state={"ct_tab": FOLLOW})
    for rnd, (prog, shot) in enumerate(SOLO_ROUNDS[:3], start=1):
        record(at, rnd, programmed=prog, shot=shot)
    at.text_input(key="ctc_save_name").input("Solo, three rounds").run()
    at.button(key="ctc_save_save").click().run()
    record(at, 4, programmed=SOLO_ROUNDS[3][0], shot=SOLO_ROUNDS[3][1])
    game = at.session_state[KEY]
    ident = browser_of(at)
    forget_process_cache()
    again = on_tab(same_browser(ident, "cactus", via="wagons_sheet"))
    assert again.session_state[KEY] == game and not errors(again)
    rep = cp.report(None, CactusReadings(), [cp.Record(programmed=p, second_shot=s) for p, s in SOLO_ROUNDS[:4]])
    assert metric(again, "Marshal arrives in round 5") == rep["steps"][-1]["next_round"]
    resume_from_my_games(ident, "cactus-game")
    assert len(on_tab(same_browser(ident, "cactus")).session_state[KEY]["history"]) == 3


def test_the_lone_rangers_turn_on_the_followed_game_is_in_words():
    from dashboard.cactus.words import chance_words, outcome_words
    from solver.cactus.ranger import decide
    from solver.io.read import read_json
    from solver.paths import SCENARIOS

    at = open_page("cactus", state={"ct_tab": FOLLOW})
    at.text_input(key="ctc_card").input("DUEL/RUN SNEAK | SPRINT").run()
    town = {k: v for k, v in read_json(SCENARIOS / "cactus" / "example-ranger-chase.json").items() if k != "rules"}
    want = decide({**town, "card": "DUEL/RUN SNEAK | SPRINT", "event": None}, CactusReadings())
    shown = [m.value for m in at.markdown]
    for o in want["outcomes"]:
        assert f"- **{chance_words(o['p'])}**: {outcome_words(o)}" in shown
