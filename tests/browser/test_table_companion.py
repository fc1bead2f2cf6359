"""Browser tests of the table companion on the Cactus Town, Outlaws, Outlaws table and Verification pages, and of
every page's fit, each at laptop width (1366x768) and phone width (390x844), in Debian's Chromium against `streamlit run`:

- a Cactus Town solo game followed round by round until the marshal arrives, each round's odds the engine's,
  then reloaded and resumed where it ended;
- an Outlaws line from sudden-death-near.json through sudden death (one chance step, the tokens laid as seen) to
  a victory;
- on each page, on a phone: work done, another page opened and reloaded there, then back: the work is there; the
  browser closed, the server restarted and the browser opened again on a laptop: the work is back (this browser's
  store, a temporary file), and My games lists a Lone Cowboy game and town saved before and resumes each; the
  browser's id a long-lived cookie, never in the address; a tab that connected without the cookie takes the
  browser's id and another browser sees none of the work;
- at 390 px no page of the navigation wider than the viewport, no drawing cut off, no tab out of reach;

and a screenshot of every page (every tab its ``PageInfo`` lists) at both widths in tests/screenshots/.
"""

from __future__ import annotations

import re
import time

import pytest

from dashboard.nav import all_pages
from dashboard.shared.work import browser as work_browser
from solver.cactus import companion as cp
from solver.cactus.readings import CactusReadings
from solver.outlaws import game as gm
from solver.outlaws import line as ln
from solver.outlaws.position_json import read_position
from tests.support.dashboard import wagons_browser as wb
from tests.support.dashboard.browser import (
    BROWSER,
    PHONE_FIRST,
    SHOTS,
    expect,
    open_expander,
    open_page,
    pick_option,
    relaid,
    streamlit_server,
    wait_idle,
)
from tests.support.dashboard.fit import cut_text
from tests.support.depth import DEEP
from tests.support.paths import ROOT

pytestmark = BROWSER

SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
SD_NEAR = ROOT / "scenarios" / "outlaws" / "sudden-death-near.json"
LAY = ["Handcuffs", "Bullet", "Handcuffs", "Bogus X", "Bullet", "Handcuffs", "Bullet", "Bogus X"]
SOLO = [((1, 2, 3), 4), ((5, 1, 4), 2), ((6, 2, 3), None), ((1, 7, 5), 3), ((8, 4, 6), 1), ((2, 6, 8), "M"),
        ((3, "M"), None)]  # round 6: the marshal drawn as second shot, the game goes on; round 7: he arrives
KIND_TAB = {"move": "Moves", "look": "Looks", "take": "Takes", "ability": "Abilities"}


@pytest.fixture(scope="module")
def kept_server(tmp_path_factory):
    """The dashboard with a store of this module's own (never the user's data folder)."""
    folder = tmp_path_factory.mktemp("store")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULESLINGER_STORE", str(folder / "store.sqlite3"))
        with streamlit_server(ROOT / "dashboard" / "app.py") as url:
            yield url


@pytest.fixture(params=list(SIZES))
def size(request) -> str:
    return request.param


def _new_browser(screens, size: str, cookies: list | None = None):
    """A tab of a browser of its own at ``size`` (its cookies, if given: the same browser opened again)."""
    w, h = SIZES[size]
    return screens.tab({"width": w, "height": h}, cookies=cookies)


@pytest.fixture
def tab(screens, size):
    """A fresh tab of the given size (its own cookies: a browser of its own)."""
    with _new_browser(screens, size) as page:
        yield page


def shot(page, name: str) -> None:
    """The whole page at the tab's own width (Streamlit scrolls inside its main container: the viewport is
    stretched to the content's height for the picture, then restored)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stMain\"] [data-testid=\"stSkeleton\"]')",
                           timeout=30_000)  # the widgets' code has loaded: no placeholder left in the picture
    size = page.viewport_size
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(int(height), 9000))})
    relaid(page)
    page.screenshot(path=str(SHOTS / f"{name}_{size['width']}.png"), full_page=True)
    page.set_viewport_size(size)


def no_exception(page) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0


# ----------------------------------------------------------------------------- a Cactus Town solo game


def _choose(page, label: str, option: str) -> None:
    box = page.locator(f'input[aria-label="{label}"][value="(not seen)"]')  # this round's, not a fading one
    box.click()
    box.press_sequentially(option)  # typing opens the list filtered to this option
    page.get_by_role("option", name=option, exact=True).wait_for()
    page.keyboard.press("Enter")
    page.wait_for_timeout(150)


def _metric(page, label: str):
    return page.get_by_test_id("stMetric").filter(has_text=label).get_by_test_id("stMetricValue")


@PHONE_FIRST
def test_a_cactus_solo_game_followed_round_by_round_until_the_marshal_arrives(tab, kept_server, size):
    open_page(tab, kept_server, "cactus", "Cactus Town")
    tab.get_by_role("tab", name="Follow a game").click()
    history = []
    for rnd, (prog, second) in enumerate(SOLO, start=1):
        expect(tab.get_by_text(f"Round {rnd}: the cards seen")).to_be_visible()
        for i, c in enumerate(prog):
            _choose(tab, f"Programmed card {i + 1}", "the marshal's arrival" if c == "M" else f"#{c}")
        if second is not None:
            _choose(tab, "Second shot card", "the marshal's arrival" if second == "M" else f"#{second}")
        tab.get_by_role("button", name=f"Record round {rnd}").click()
        wait_idle(tab)
        history.append(cp.Record(programmed=prog, second_shot=second))
        step = cp.report(None, CactusReadings(), history)["steps"][-1]
        if rnd < len(SOLO):
            expect(_metric(tab, f"Marshal arrives in round {rnd + 1}")).to_have_text(step["next_round"])
        if rnd == 6:  # the figure for this history pinned since the first companion test, beside the engine's own
            expect(_metric(tab, "Marshal arrives in round 7")).to_have_text("3/8")
            expect(tab.get_by_role("tabpanel").locator('[data-testid="stVegaLiteChart"]').first).to_be_visible()
    arrived = "The marshal has arrived in round 7: the lone ranger wins."
    expect(tab.get_by_text(arrived)).to_be_visible()
    expect(tab.get_by_text("The solo deck for round 8")).to_have_count(0)
    expect(tab.get_by_role("button", name=re.compile("^Record round"))).to_have_count(0)
    shot(tab, "cactus_followed_to_the_marshal")
    tab.reload()  # the followed game is kept: a reload resumes it where it ended
    tab.get_by_role("heading", name="Cactus Town").first.wait_for()
    wait_idle(tab)
    tab.get_by_role("tab", name="Follow a game").click()
    expect(tab.get_by_text(arrived)).to_be_visible()
    expect(tab.get_by_role("button", name=re.compile("^Record round"))).to_have_count(0)
    no_exception(tab)


# ----------------------------------------------------------------------------- an Outlaws line to a victory


def _plays() -> list[tuple[gm.Game, gm.Play]]:
    """The games and plays of the line: A's Indian keeps the Vote (sudden death, laid as LAY), the Hitman takes
    the Bullet laid in front of him, B fakes two swaps, A swaps the Hitman in front of B's Governor and shoots."""
    game = gm.Game(read_position(SD_NEAR))
    wants = [lambda p: p.action.kind == "take" and p.action.column == 0 and p.reactions == (True,),
             lambda p: p.action.kind == "take" and p.action.actor == "hitman" and p.action.call == "bullet"
             and p.reactions == (True,),
             lambda p: p.action.kind == "move" and not p.action.swap,
             lambda p: p.action.kind == "move" and not p.action.swap,
             lambda p: p.action.kind == "move" and p.action.swap and set(p.action.columns) == {1, 3}
             and not p.action.from_saloon,
             lambda p: p.action.kind == "ability" and p.action.actor == "hitman"]
    out = []
    lay = [t.lower().replace("bogus x", "x") for t in LAY]
    for want in wants:
        play = next(p for p in gm.legal_actions(game) if want(p))
        out.append((game, play))
        outs = gm.outcomes(game, play)
        game = next(g for _p, g in outs if len(outs) == 1 or list(g.position.tokens) == lay)
    return out


def _click_play(page, game: gm.Game, play: gm.Play) -> None:
    kind = play.action.kind
    n = len({p.action for p in gm.legal_actions(game) if p.action.kind == kind})  # the tab counts actions
    page.get_by_role("tab", name=f"{KIND_TAB[kind]} ({n})").click()
    wait_idle(page)
    page.get_by_role("button", name=ln.play_text(game, play), exact=True).click()
    wait_idle(page)


def _lay_as_seen(page) -> None:
    """Say the token of each column: type its name in the column's box and take it with Enter, once the expander
    has finished opening (:func:`~tests.support.dashboard.browser.open_expander`: a list opened during its opening is closed
    again and the first column was left empty). Each choice's run ends before the next box is opened, and the box
    must hold the token as chosen (a value to clear), not merely typed."""
    wait_idle(page)
    open_expander(page, "I saw them: the token on each column")
    for c, token in enumerate(LAY):
        box = page.get_by_label(f"Column {c}", exact=True)
        box.click()
        box.press_sequentially(token)
        page.get_by_role("option", name=token, exact=True).wait_for()
        page.keyboard.press("Enter")
        wait_idle(page)
        expect(box).to_have_value(token)
        expect(page.locator(f".st-key-olp_lay_{c}").get_by_role("button", name="Clear value")).to_be_visible()
    page.get_by_role("button", name="These are the tokens").click()
    wait_idle(page)


@PHONE_FIRST
def test_an_outlaws_line_played_through_sudden_death_to_a_victory(tab, kept_server, size):
    open_page(tab, kept_server, "outlaws_table", "Outlaws table")
    tab.get_by_text("Start position, save and load").click()
    tab.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(SD_NEAR))
    expect(tab.get_by_text(f"Loaded {SD_NEAR.name}.")).to_be_visible()
    wait_idle(tab)
    plays = _plays()
    for n, (game, play) in enumerate(plays, start=1):
        _click_play(tab, game, play)
        if n == 1:  # one chance step, not 560 buttons
            expect(tab.get_by_role("button", name="Laid at random")).to_be_visible()
            expect(tab.get_by_role("button", name="This happened")).to_have_count(0)
            assert tab.get_by_role("button").count() < 40
            _lay_as_seen(tab)
            expect(tab.get_by_text("Sudden death is in force").first).to_be_visible()
        expect(tab.get_by_text(f"Step {n} of {n}", exact=True)).to_be_visible()
    expect(tab.get_by_text("A has won Con le Brutte (the Bad way): the Hitman assassinates the opposing "
                           "Governor during sudden death.")).to_be_visible()
    expect(tab.get_by_text("The game is over: A has won.", exact=False).first).to_be_visible()
    expect(tab.get_by_text("to move", exact=False)).to_have_count(0)
    shot(tab, "outlaws_table_sudden_death_victory")
    no_exception(tab)


# ----------------------------------------------------------------------------- nothing lost


def _work_on_each_page(page, url: str) -> dict[str, str]:
    """Work on each page; what each page must show again afterwards (a text on the page)."""
    open_page(page, url, "outlaws", "Outlaws")
    page.get_by_label("Set-up seed").fill("5")
    page.get_by_label("Set-up seed").press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="New set-up").click()
    wait_idle(page)
    open_page(page, url, "outlaws_table", "Outlaws table")
    game = gm.initial_state(0)
    play = next(p for p in gm.legal_actions(game) if p.action.kind == "look")
    _click_play(page, game, play)
    expect(page.get_by_text("Step 1 of 1", exact=True)).to_be_visible()
    open_page(page, url, "cactus", "Cactus Town")
    page.get_by_role("tab", name="Follow a game").click()
    wait_idle(page)
    for i, c in enumerate(SOLO[0][0]):
        _choose(page, f"Programmed card {i + 1}", f"#{c}")
    page.get_by_role("button", name="Record round 1").click()
    wait_idle(page)
    expect(page.get_by_text("1 round recorded")).to_be_visible()
    open_page(page, url, "verification", "Verification")
    page.get_by_role("button", name="Run the Cactus Town: The Lone Ranger checks").click()
    expect(page.get_by_text("checks hold").first).to_be_visible(timeout=90_000)
    return {"outlaws": "seed 5", "outlaws_table": "Step 1 of 1", "cactus": "1 round recorded",
            "verification": "checks hold"}


def _shows(page, url: str, name: str, text: str) -> None:
    heading = {"outlaws": "Outlaws", "outlaws_table": "Outlaws table", "cactus": "Cactus Town",
               "verification": "Verification"}[name]
    open_page(page, url, name, heading)  # the bare address: nothing of the work in it
    if name == "cactus":
        page.get_by_role("tab", name="Follow a game").click()
        wait_idle(page)
    if name == "outlaws":
        expect(page.get_by_label("Set-up seed")).to_have_value("5")
        expect(page.get_by_text("Save this position to My games")).to_be_visible()
        return
    expect(page.get_by_text(text, exact=name == "outlaws_table").first).to_be_visible()


_CONNECT_WITHOUT_COOKIE = """
(() => {
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const held = document.cookie.split('; ').find((c) => c.startsWith('ruleslinger_browser='));
    if (held) document.cookie = 'ruleslinger_browser=; Max-Age=0; Path=/';
    const ws = new Native(...args);
    if (held) ws.addEventListener('open', () => { document.cookie = held + '; Max-Age=3600; Path=/; SameSite=Strict'; });
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
})();
"""
"""A tab whose connection to the server does not carry the cookie although the browser holds it (as when another
tab wrote it after this one connected): the cookie is taken away while the connection opens, then put back."""


def _the_id_is_a_long_lived_cookie(page) -> list:
    """The browser's id: a cookie valid for over 399 days, SameSite=Strict, readable by the page's writer, never in
    the address. The context's cookies (for a browser opened again)."""
    cookies = page.context.cookies()
    (cookie,) = [c for c in cookies if c["name"] == work_browser.COOKIE]
    assert work_browser.valid(cookie["value"]) and cookie["sameSite"] == "Strict" and not cookie["httpOnly"]
    assert cookie["expires"] - time.time() > 399 * 24 * 3600
    assert cookie["value"] not in page.url
    return cookies


def _late_tab_and_stranger(page, url: str, size: str) -> None:
    """A tab of ``page``'s browser whose connection lacked the cookie takes the browser's id (one more run) and shows
    its work; another browser (no cookie) sees none of it."""
    late = page.context.new_page()
    late.add_init_script(_CONNECT_WITHOUT_COOKIE)
    late.goto(f"{url}/outlaws_table")
    expect(late.get_by_text("Step 1 of 1", exact=True)).to_be_visible()
    late.close()
    w, h = SIZES[size]
    stranger = page.context.browser.new_context(viewport={"width": w, "height": h})
    try:
        other = stranger.new_page()
        open_page(other, url, "my_games", "My games")  # first: a page opened keeps its own work, listed there
        expect(other.get_by_text("Nothing saved in this browser yet")).to_be_visible()
        open_page(other, url, "outlaws_table", "Outlaws table")
        expect(other.get_by_text("Step 1 of 1", exact=True)).to_have_count(0)
    finally:
        stranger.close()


def _work_and_reload(screens, url: str) -> tuple[list, dict, tuple[dict, dict]]:
    """In a new browser on a phone: work on each page and a Lone Cowboy game and town saved to My games
    (:func:`~tests.support.dashboard.wagons_browser.lone_cowboy_work`); Home opened and reloaded there (a new
    session), then each page at its bare address shows its work. The browser's cookies, what each page shows, and the
    saved and kept Lone Cowboy games."""
    with _new_browser(screens, "phone") as page:
        want = _work_on_each_page(page, url)
        games = wb.lone_cowboy_work(page, url)
        cookies = _the_id_is_a_long_lived_cookie(page)
        page.goto(f"{url}/home")
        wait_idle(page)
        page.reload()  # a reload on another page: a new session
        wait_idle(page)
        for name, text in want.items():
            _shows(page, url, name, text)
        no_exception(page)
        return cookies, want, games


def test_work_on_each_page_survives_another_page_a_reload_there_and_a_server_restart(screens, tmp_path, monkeypatch):
    """Work done on a phone and found again on a laptop: a browser of its own at 390 px works on each page and reloads
    elsewhere (:func:`_work_and_reload`); the browser closed and the server restarted on the same store; the browser
    opened again at 1366 px (its cookies, on a bigger screen): each page shows its work, the kept Lone Cowboy game is
    on its page and My games resumes the saved game and town
    (:func:`~tests.support.dashboard.wagons_browser.lone_cowboy_resumed`); then a tab of it that connected without the
    cookie and a browser of its own (:func:`_late_tab_and_stranger`). The browser's id is a long-lived cookie
    (:func:`_the_id_is_a_long_lived_cookie`). One walk crosses both widths: the work is entered at one and shown at
    both."""
    monkeypatch.setenv("RULESLINGER_STORE", str(tmp_path / "store.sqlite3"))  # the servers below read it
    with streamlit_server(ROOT / "dashboard" / "app.py") as url:
        cookies, want, games = _work_and_reload(screens, url)
    with streamlit_server(ROOT / "dashboard" / "app.py") as url:  # restarted (another port, same host)
        with _new_browser(screens, "laptop", cookies) as page:  # the browser closed and opened again
            for name, text in want.items():
                _shows(page, url, name, text)
            wb.lone_cowboy_resumed(page, url, *games)
            no_exception(page)
            _late_tab_and_stranger(page, url, "laptop")


# ----------------------------------------------------------------------------- the phone and the pictures

PAGES = {info.name: ("Ruleslinger" if info.name == "home" else info.title, list(info.tabs)) for info in all_pages()}
"""Every page of the navigation (:func:`dashboard.nav.all_pages`, the rooms' ``PageInfo``): its heading and its
tabs, so a new page is fitted and pictured without a line here."""

_FITS = """() => {
  const over = [];
  const width = window.innerWidth;
  if (document.documentElement.scrollWidth > width) over.push('page ' + document.documentElement.scrollWidth);
  const drawn = '.olst, .olst .street, [data-testid="stHtml"] table, [role="tab"], [class*="st-key-olp_act_"] p';
  const inStrip = (el) => {  // a row that scrolls sideways by itself (the circle's cards on a phone) is not cut off
    for (let a = el.parentElement; a && a.getAttribute('data-testid') !== 'stMain'; a = a.parentElement) {
      const x = getComputedStyle(a).overflowX;
      if ((x === 'auto' || x === 'scroll') && a.getBoundingClientRect().right <= width + 1) return true;
    }
    return false;
  };
  for (const el of document.querySelectorAll(drawn)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || inStrip(el)) continue;
    if (r.right > width + 1) over.push((el.className || el.tagName) + ' ends at ' + Math.round(r.right));
    if (el.scrollWidth > el.clientWidth + 1 && el.tagName !== 'TABLE')
      over.push((el.className || el.tagName) + ' cut: ' + el.scrollWidth + ' > ' + el.clientWidth);
  }
  return over;
}"""


def fits(page, seconds: float = 10.0) -> list[str]:
    """What overflows the screen and each text cut off (the shared check, :func:`tests.support.dashboard.fit.cut_text`):
    nothing, once the page has settled (a run that is still being drawn can show its last layout for a moment, so
    the check is repeated for up to ``seconds``)."""
    over = page.evaluate(_FITS) + cut_text(page)
    for _ in range(int(seconds * 2)):
        if not over:
            break
        page.wait_for_timeout(500)
        over = page.evaluate(_FITS) + cut_text(page)
    return over


CUT_SAMPLES = """<body style="font: 16px sans-serif">
<button style="width: 40px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap">Change</button>
<p style="width: 30px; overflow: hidden; white-space: nowrap">Settings group</p>
<svg width="200" height="40"><text x="0" y="20">Final margin (you min\u2026</text></svg>
<button style="width: 200px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap">Wagon</button>
<p style="width: 300px; overflow: hidden">Fits its box</p>
<div style="width: 60px; overflow-x: auto; white-space: nowrap">A table that scrolls sideways by itself</div>
</body>"""
"""Three texts cut off (an ellipsis, a hidden overflow, a chart title shortened) and three that are not."""


def test_the_fit_check_finds_each_text_cut_off_and_nothing_else(page):
    page.set_content(CUT_SAMPLES)
    found = cut_text(page)
    assert [f.rsplit(" (", 1)[0] for f in found] == ["Change", "Settings group", "Final margin (you min\u2026"], found


def _tab_shots(page, name: str, tabs: list, phone: bool) -> None:
    """Each tab of the page opened, fitted within the phone's width (``phone``) and pictured at the tab's width."""
    for label in tabs or [None]:
        if label:
            page.get_by_role("tab", name=label, exact=True).click()
            wait_idle(page)
        if phone and name == "verification" and label == "Invariant checks":
            page.get_by_role("button", name="Run the Cactus Town: The Lone Ranger checks").click()
            expect(page.get_by_text("Counterexample:").first).to_be_visible(timeout=90_000)
        if phone:
            over = fits(page)
            assert over == [], (name, label, over)
        shot(page, f"{name}{'_' + label.lower().replace(' ', '_').replace(chr(39), '') if label else ''}")


@pytest.mark.parametrize("size,name", [pytest.param("phone", name, id=f"phone-{name}") for name in PAGES])
def test_each_page_fits_the_screen_and_is_pictured(tab, kept_server, size, name):
    """Every page and tab within 390 px, pictured; then the same page widened to 1366 px and pictured again: Home in
    every run, the others with ``--deep`` (the pages' own browser tests open them on the laptop)."""
    heading, tabs = PAGES[name]
    open_page(tab, kept_server, "" if name == "home" else name, heading)
    _tab_shots(tab, name, tabs, phone=True)
    no_exception(tab)
    if name == "home" or DEEP:
        tab.set_viewport_size({"width": SIZES["laptop"][0], "height": SIZES["laptop"][1]})
        _tab_shots(tab, name, tabs, phone=False)
        no_exception(tab)


def test_an_outlaws_counterexample_fits_the_phone(screens, kept_server):
    """The Verification page's before/after streets of a broken rule, at 390 px: wrapped, never cut off."""
    with screens.tab({"width": 390, "height": 844}, timeout_ms=60_000) as page:
        open_page(page, kept_server, "verification", "Verification")
        thumb = page.get_by_test_id("stSlider").filter(has_text="Time limit per check (seconds)").last \
            .get_by_role("slider")
        thumb.focus()
        thumb.press("Home")
        thumb.press("ArrowRight")  # 2 s per check: enough to find this counterexample
        wait_idle(page)
        box = page.get_by_test_id("stMultiSelect").filter(has_text="Break a rule on purpose").last
        governor = "leaving the Saloon may put the Governor in it"
        pick_option(page, box.locator("input").first, governor, typed="Governor in it",
                    took=box.get_by_role("button", name=f"Remove {governor}", exact=True))
        page.get_by_role("button", name="Run the Outlaws: Last Man Standing checks").click()
        expect(page.get_by_text(re.compile(r"Governor is in the Saloon\.$")).first).to_be_visible(timeout=240_000)
        expect(page.locator(".olst")).to_have_count(2)
        assert fits(page) == []
        shot(page, "verification_outlaws_counterexample")
        no_exception(page)

