"""What the Lone Cowboy play page's AppTests share (``tests/dashboard/wagons/``): the page opened from an address,
its game as the engine's state, and the page's own buttons pressed for an engine action (taps counted)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from dashboard.nav import page_file
from dashboard.wagons import game as wg
from dashboard.wagons import town_grid
from solver.wagons import game as gm
from solver.wagons.record.game_record import game_from_record
from tests.support.dashboard.apptest import APP

GRID = "lc_town"


def page_state(at) -> gm.GameState:
    g = at.session_state[wg.KEY]
    return game_from_record({**g["record"], "actions": g["record"]["actions"][:g["at"]]})


def open_with_address(text: str) -> AppTest:
    """The page opened in a new session whose address carries ``?lc=text`` (a reload, a bookmark)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lc"] = text
    at.run()
    at.switch_page(page_file("wagons_play"))
    at.run()
    return at


def settled(state: gm.GameState) -> gm.GameState:
    """The engine's state once the opponent's turns have played themselves (the page's default)."""
    while state.to_move == "opponent":
        state = gm.apply(state, gm.OpponentTurn())
    return state


def click(at, action: gm.Action) -> int:
    """Press the page's button(s) for ``action``; returns the taps it took (a placement: one on its square, and
    one on the hand first when the card must be turned)."""
    taps = 1
    if isinstance(action, gm.Reveal):
        at.button(key=f"lc_reveal_{action.card}").click().run()
    elif isinstance(action, gm.Draft):
        at.button(key=f"lc_draft_{action.index}").click().run()
    elif isinstance(action, gm.OpponentTurn):
        at.button(key="lc_opponent").click().run()
    else:
        p = action.placement
        if p.rot != shown_rotation(at, p.card):
            at.button(key=town_grid.turn_key(GRID)).click().run()
            taps += 1
        at.session_state[f"{GRID}_last_tap"] = None  # a player's next tap comes after seeing the new card
        at.button(key=town_grid.cell_key(GRID, p.x, p.y)).click().run()
    assert not at.exception, at.exception
    return taps


def shown_rotation(at, card: int) -> int:
    got = at.session_state[town_grid.rotation_key(GRID)] if town_grid.rotation_key(GRID) in at.session_state else None
    return got[1] if got and got[0] == card else 0


def boomtown_sheet() -> dict:
    """The score sheet's work of a finished Boomtown game whose winner depends on how Boom or Bust is read (the
    opponent's Mines): the first such greedy game among seeds 0-39."""
    from solver.wagons.scoring import scores_by_reading
    from solver.wagons.simulate import play_game

    for seed in range(40):
        state = play_game("boomtown", "greedy", seed).state
        by = scores_by_reading(state.town, state.pile, "boomtown")
        if len({c["winner"] for c in by["scores"]}) > 1:
            return {"wg_rows": [p.to_dict() for p in state.town.placements], "wg_pile": list(state.pile),
                    "wg_scenario": "boomtown"}
    raise AssertionError("no Boomtown game among 40 whose winner depends on the reading")


def metric(at: AppTest, label: str) -> str:
    """The value of the page's metric ``label``."""
    return next(m.value for m in at.metric if m.label == label)
