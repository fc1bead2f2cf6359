"""What the Lone Cowboy browser tests share (tests/browser/test_wagons_*.py): taps counted on the table, the page
fitting a phone (no sideways scroll of the page, no drawing or text cut off), moving between pages by the navigation, and
screenshots per width."""

from __future__ import annotations

import random
import re

from dashboard.shared.work import urldoc
from dashboard.wagons import addresses as wagons_addresses
from dashboard.wagons import town_grid
from solver.wagons import game as gm
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import game_record
from tests.support.dashboard.browser import SHOTS, expect, open_page, pick_option, wait_idle
from tests.support.dashboard.fit import cut_text

GRID = "lc_town"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}

CUT_OFF = """() => {
  // every drawing (images, canvases, svg, tables, cards drawn in HTML) and every control lies inside the viewport,
  // or inside a box that scrolls sideways by itself and fits the viewport; nothing is clipped by a hidden overflow
  const bad = [];
  const W = window.innerWidth;
  const main = document.querySelector('[data-testid=stMain]');
  const things = main.querySelectorAll('img, canvas, svg, table, button, [data-testid=stHtml] > div, [data-testid=stMetric]');
  for (const e of things) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const style = getComputedStyle(e);
    if (style.visibility === 'hidden') continue;
    let scroller = null, clipped = false;
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      const ar = a.getBoundingClientRect();
      if ((ox === 'auto' || ox === 'scroll') && a.scrollWidth > a.clientWidth + 1) { scroller = a; break; }
      if ((ox === 'hidden' || ox === 'clip') && (r.right > ar.right + 1 || r.left < ar.left - 1) && a !== main) {
        clipped = true; break; }
    }
    const box = scroller ? scroller.getBoundingClientRect() : r;
    if (clipped || box.left < -1 || box.right > W + 1) {
      bad.push((e.tagName + ' ' + (e.className && typeof e.className === 'string' ? e.className.slice(0, 40) : '')
                + ' ' + (e.textContent || e.getAttribute('alt') || '').slice(0, 30)).trim()
               + ` [${Math.round(r.left)}, ${Math.round(r.right)}]` + (clipped ? ' clipped' : ''));
    }
  }
  return bad;
}"""


def fits(pg, settle_s: float = 5.0) -> None:
    """The page is no wider than the viewport, no drawing or control is cut off (see :data:`CUT_OFF`) and no text is
    (the shared check, :func:`tests.support.dashboard.fit.cut_text`), once the layout has settled: a box measured
    while Streamlit is still drawing the page may stick out for a moment, so the check is repeated for up to
    ``settle_s`` seconds and fails naming what stays cut off."""
    wide = bad = None
    for _ in range(max(1, int(settle_s / 0.25))):
        wide = pg.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        bad = pg.evaluate(CUT_OFF) + cut_text(pg)
        if wide <= 0 and not bad:
            return
        pg.wait_for_timeout(250)
    assert wide <= 0, f"the page is {wide} px wider than the viewport"
    assert bad == [], f"cut off: {bad}"


def settled(pg, changed: bool = False) -> None:
    """Wait until the script run is over: no status widget and no stale (fading) element left. ``changed``: the
    caller has already seen the run's new output (a new count, a new line), so the run has begun and the pause that
    lets a tap's rerun request reach the server (:func:`~tests.support.dashboard.browser.wait_idle`) is not needed."""
    wait_idle(pg, first_pause=not changed)
    expect(pg.locator('[data-stale="true"]')).to_have_count(0)
    expect(pg.locator('[data-testid="stStatusWidget"]')).to_have_count(0)


def press(pg, key: str) -> None:
    """One tap on the button keyed ``key`` (the visible copy: a button with help has a hidden second one)."""
    pg.locator(f".st-key-{key}:not([data-stale='true']) button >> visible=true").first.click()


def address_game(pg) -> dict:
    """The game the address holds (``?lc=``): its record with the applied actions only."""
    text = re.search(r"[?&]lc=([^&]+)", pg.url).group(1)
    g = urldoc.decode(text, wagons_addresses.LC)
    return {**g["record"], "actions": g["record"]["actions"][:g["at"]]}


def actions_shown(pg, n: int) -> None:
    expect(pg.get_by_text(f"Action {n} of {n}", exact=True)).to_be_visible()
    settled(pg, changed=True)


def settle(state: gm.GameState) -> gm.GameState:
    """The engine's state after the opponent's own turns (the table plays them by themselves)."""
    while state.to_move == "opponent":
        state = gm.apply(state, gm.OpponentTurn())
    return state


def tap_action(pg, state: gm.GameState, action: gm.Action) -> tuple[gm.GameState, int]:
    """Do ``action`` on the table by taps; the engine's state after it (and the opponent's own turns) and the taps
    it took (a placement: one on its square, one more on the hand when the card is turned)."""
    taps = 1
    if isinstance(action, gm.Reveal):
        press(pg, f"lc_reveal_{action.card}")
    elif isinstance(action, gm.Draft):
        press(pg, f"lc_draft_{action.index}")
    else:
        p = action.placement
        if p.rot:
            press(pg, town_grid.turn_key(GRID))
            expect(pg.get_by_text("turned 180 degrees").first).to_be_visible()
            settled(pg, changed=True)
            taps += 1
        press(pg, town_grid.cell_key(GRID, p.x, p.y))
    after = settle(gm.apply(state, action))
    actions_shown(pg, len(gm.actions_from_log(after)))
    return after, taps


def go_by_navigation(pg, title: str) -> None:
    """Open a page by its link in the navigation (the sidebar; on a phone, opened first by its button and folded
    away again once the page is there)."""
    link = pg.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=title, exact=True)
    box = link.bounding_box()
    folded = box is None or box["x"] + box["width"] <= 0
    if folded:  # the sidebar is folded away (a phone): open it first (the click waits until the link stops moving)
        pg.get_by_test_id("stExpandSidebarButton").click()
    link.click()
    pg.get_by_role("heading", name=title).first.wait_for()
    settled(pg, changed=True)  # the page's heading: its run has begun
    if folded and pg.locator('[data-testid="stSidebar"][data-collapsed="false"]').count():
        pg.get_by_test_id("stSidebarCollapseButton").locator("button").first.click()  # and fold it again
        pg.wait_for_function(SIDEBAR_AWAY, polling=50)


SIDEBAR_AWAY = """() => { const s = document.querySelector('[data-testid=stSidebar]');
  return !s || s.getBoundingClientRect().right <= 1; }"""
"""The sidebar has slid out of the viewport (folded away on a phone)."""


def elsewhere_and_back(pg, server: str, title: str, path: str = "cactus", heading: str = "Cactus Town",
                       there=None) -> None:
    """Open another page by its address (``path``, the Cactus Town page unless said: a new session, the page's
    address left behind), call ``there(pg)`` on it if given, then come back to ``title`` by the navigation: what
    the page shows then is its kept work."""
    pg.goto(f"{server}/{path}")
    pg.get_by_role("heading", name=heading).first.wait_for()
    settled(pg, changed=True)
    if there:
        there(pg)
    go_by_navigation(pg, title)


def shot_at(pg, name: str) -> None:
    """The whole page at its current width, as tests/screenshots/<name>_<width>.png."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = pg.viewport_size
    height = pg.evaluate("() => { const m = document.querySelector('[data-testid=stMain]');"
                         " return m ? m.scrollHeight : document.body.scrollHeight; }") or size["height"]
    pg.set_viewport_size({"width": size["width"], "height": max(size["height"], min(int(height), 9000))})
    pg.wait_for_timeout(400)
    pg.screenshot(path=str(SHOTS / f"{name}_{size['width']}.png"), full_page=True)
    pg.set_viewport_size(size)


def slide_to(pg, key: str, steps_from_start: int) -> None:
    """Move the slider keyed ``key`` to its lowest value plus ``steps_from_start`` steps, by the keyboard (the
    slider is scrolled into view first: Streamlit draws elements below the fold only once they are near it)."""
    pg.locator(f".st-key-{key}").scroll_into_view_if_needed()
    thumb = pg.locator(f".st-key-{key}").get_by_role("slider")
    thumb.focus()
    thumb.press("Home")
    for _ in range(steps_from_start):
        thumb.press("ArrowRight")
    settled(pg)


# ----------------------------------------------------------------------------- work kept across a server's restart


def _save(pg, key: str, name: str) -> None:
    box = pg.locator(f".st-key-{key}_name input")
    box.scroll_into_view_if_needed()
    box.fill(name)
    box.press("Enter")
    settled(pg)
    press(pg, f"{key}_save")
    expect(pg.get_by_text(f"Saved '{name}' to My games.")).to_be_visible()
    settled(pg, changed=True)


def lone_cowboy_work(pg, url: str) -> tuple[dict, dict]:
    """A Boomtown game played three steps, saved to My games as "Tuesday game" and played one step on; a town of 7
    cards saved from the score sheet as "Saloon town". The saved game's record and the kept game's."""
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
    pick_option(pg, pg.get_by_label("Card", exact=True), "5:")
    settled(pg)
    press(pg, town_grid.cell_key("wg_grid", 6, 1))
    expect(pg.get_by_text("Your town: 7 cards")).to_be_visible()
    settled(pg, changed=True)
    _save(pg, "wg_my_games", "Saloon town")
    return saved, game_record(state)


def lone_cowboy_resumed(pg, url: str, saved: dict, kept: dict) -> None:
    """After the restart, in the browser of :func:`lone_cowboy_work`: the kept game on its page without My games;
    My games listing both, fitting the screen, resuming the saved game, then the saved town."""
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
