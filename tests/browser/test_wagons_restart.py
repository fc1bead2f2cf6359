"""A restarted server loses nothing (issue 32): in two browsers (their cookies kept), one at 1366x768 and one at
390x844, a Lone Cowboy game and a score sheet's town are saved to My games and left as kept work; the dashboard's
server is stopped and started again on the same store; in each browser My games lists both and resumes each on its
page; the pages' kept work is there too without My games."""

from __future__ import annotations

import random

from dashboard.wagons import town_grid
from solver.wagons import game as gm
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import game_record
from tests.support.dashboard.browser import BROWSER, expect, open_page, streamlit_server
from tests.support.dashboard.wagons_browser import (
    LAPTOP,
    PHONE,
    address_game,
    fits,
    go_by_navigation,
    press,
    settled,
    shot_at,
    tap_action,
)
from tests.support.paths import ROOT

pytestmark = BROWSER
APP = ROOT / "dashboard" / "app.py"
SIZES = {"laptop": LAPTOP, "phone": PHONE}


def _save(pg, key: str, name: str) -> None:
    box = pg.locator(f".st-key-{key}_name input")
    box.scroll_into_view_if_needed()
    box.fill(name)
    box.press("Enter")
    settled(pg)
    press(pg, f"{key}_save")
    expect(pg.get_by_text(f"Saved '{name}' to My games.")).to_be_visible()
    settled(pg, changed=True)


def _work(chromium, url: str, size: dict) -> tuple[list, dict, dict]:
    """In a new browser: a game saved to My games and played one step on, a town saved; its cookies, the saved game
    and the game kept."""
    ctx = chromium.new_context(viewport=size)
    pg = ctx.new_page()
    pg.set_default_timeout(45_000)
    open_page(pg, url, "wagons_play", "Lone Cowboy play-along")
    state, rng = gm.new_game("boomtown", 0, WagonsReadings()), random.Random(2)
    for _ in range(3):
        acts = gm.legal_actions(state)
        state, _ = tap_action(pg, state, rng.choice([a for a in acts if not isinstance(a, gm.Place)
                                                     or a.placement.rot == 0] or acts))
    _save(pg, "lc_my_games", "Tuesday game")
    saved = game_record(state)
    state, _ = tap_action(pg, state, gm.legal_actions(state)[0])  # one more step after saving
    go_by_navigation(pg, "Lone Cowboy score sheet")
    pg.get_by_label("Card", exact=True).click()
    pg.get_by_role("option", name="5:").first.click()
    settled(pg)
    press(pg, town_grid.cell_key("wg_grid", 6, 1))
    expect(pg.get_by_text("Your town: 7 cards")).to_be_visible()
    settled(pg, changed=True)
    _save(pg, "wg_my_games", "Saloon town")
    cookies = ctx.cookies()
    ctx.close()
    return cookies, saved, game_record(state)


def _resume(chromium, url: str, size: dict, cookies: list, saved: dict, kept: dict) -> None:
    """The same browser after the restart: the kept game without My games; My games resuming the saved game, then
    the saved town."""
    ctx = chromium.new_context(viewport=size)
    ctx.add_cookies(cookies)
    pg = ctx.new_page()
    pg.set_default_timeout(45_000)
    open_page(pg, url, "wagons_play", "Lone Cowboy play-along")  # the kept game, no address
    assert address_game(pg) == kept
    go_by_navigation(pg, "My games")
    expect(pg.get_by_text("Tuesday game")).to_be_visible()  # this browser's: one of each
    expect(pg.get_by_text("Saloon town")).to_be_visible()
    fits(pg)
    shot_at(pg, "my_games_after_restart")
    item = pg.locator("[class*='st-key-mg_item_']").filter(has_text="Tuesday game")
    item.get_by_role("button", name="Resume").click()
    pg.get_by_role("heading", name="Lone Cowboy play-along").first.wait_for()
    n = len(saved["actions"])
    expect(pg.get_by_text(f"Action {n} of {n}", exact=True)).to_be_visible()
    settled(pg, changed=True)
    assert address_game(pg) == saved
    go_by_navigation(pg, "My games")
    item = pg.locator("[class*='st-key-mg_item_']").filter(has_text="Saloon town")
    item.get_by_role("button", name="Resume").click()
    pg.get_by_role("heading", name="Lone Cowboy score sheet").first.wait_for()
    expect(pg.get_by_text("Your town: 7 cards")).to_be_visible()
    settled(pg, changed=True)
    assert pg.locator('[data-testid="stException"]').count() == 0
    ctx.close()


def test_my_games_resumes_a_game_and_a_town_after_a_server_restart(browser):
    """Its own two servers, one after the other, on the session's store (tests/conftest.py); a browser at each
    width, each finding its own work only."""
    with streamlit_server(APP) as url:
        work = {name: _work(browser, url, size) for name, size in SIZES.items()}
    with streamlit_server(APP) as url:  # the same store, a new server (cookies belong to the host)
        for name, size in SIZES.items():
            _resume(browser, url, size, *work[name])
