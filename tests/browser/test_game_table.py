"""Browser tests of the game-table flows (Chromium by Playwright, 1366x768, the server and browser
fixtures of test_browser_pages): an Outlaws line of 6 actions played by clicks, undone, stepped back
and resumed after a reload; a Cactus Town solo game followed for 6 rounds with the odds on the page
checked against the exact engine, then reloaded and resumed."""

from __future__ import annotations

from solver.cactus import companion as cp
from solver.cactus.rules import CactusRules
from solver.outlaws import game as gm
from solver.outlaws import line as ln
from tests.support.browser import BROWSER, expect, open_page, shot, wait_idle

pytestmark = BROWSER

KIND_TAB = {"move": "Moves", "look": "Looks", "take": "Takes", "ability": "Abilities"}


def _pick(game: gm.Game, n: int) -> gm.Play:
    """Step n's play: a take with a hidden outcome at steps 1 and 4 (to pick an outcome), else a swap."""
    plays = gm.legal_actions(game)
    if n in (1, 4):
        chancy = [p for p in plays if p.action.kind == "take" and len(gm.outcomes(game, p)) > 1]
        if chancy:
            return chancy[0]
    return next(p for p in plays if p.action.kind == "move" and p.action.swap and not p.action.from_saloon)


def _click_play(pg, game: gm.Game, play: gm.Play) -> None:
    plays = gm.legal_actions(game)
    kind = play.action.kind
    n = len({p.action for p in plays if p.action.kind == kind})  # the tab counts actions, not buttons
    pg.get_by_role("tab", name=f"{KIND_TAB[kind]} ({n})").click()
    pg.get_by_role("button", name=ln.play_text(game, play), exact=True).click()
    wait_idle(pg)


def test_outlaws_line_played_by_clicks_undone_and_resumed(page, server):  # noqa: F811
    open_page(page, server, "outlaws_table", "Outlaws table")
    game = gm.initial_state(0)
    expect(page.get_by_text(f"{len({p.action for p in gm.legal_actions(game)})} legal actions for A")).to_be_visible()
    games = [game]
    for n in range(6):
        play = _pick(game, n)
        outs = ln.outcome_texts(game, play)
        _click_play(page, game, play)
        if len(outs) > 1:  # pick the first outcome, described with its exact chance
            expect(page.get_by_text(outs[0][2], exact=True)).to_be_visible()
            expect(page.get_by_text(str(outs[0][0]), exact=False).first).to_be_visible()
            page.get_by_role("button", name="This happened").first.click()
            wait_idle(page)
        game = outs[0][1]
        games.append(game)
        expect(page.get_by_text(f"Step {n + 1} of {n + 1}", exact=True)).to_be_visible()
        pos = game.position
        expect(page.get_by_text(f"{pos.to_move} to move", exact=True).first).to_be_visible()
    shot(page, "outlaws_table_six_actions")
    page.get_by_role("button", name="Undo").click()
    wait_idle(page)
    expect(page.get_by_text("Step 5 of 5", exact=True)).to_be_visible()
    page.get_by_role("button", name="Back", exact=True).click()
    wait_idle(page)
    expect(page.get_by_text("Step 4 of 5", exact=True)).to_be_visible()
    for _ in range(50):  # the address follows the page's state (history.replaceState after the run)
        if "line=" in page.url and page.url.endswith("at=4"):
            break
        page.wait_for_timeout(200)
    assert "line=" in page.url and page.url.endswith("at=4")
    page.reload()
    page.get_by_role("heading", name="Outlaws table").first.wait_for()
    wait_idle(page)
    expect(page.get_by_text("Step 4 of 5", exact=True)).to_be_visible()
    want = games[4].position
    expect(page.get_by_text(f"{want.to_move} to move", exact=True).first).to_be_visible()
    page.get_by_role("tab", name="What B knows").click()
    expect(page.get_by_text("What B knows: the opposing characters")).to_be_visible()
    assert page.locator('[data-testid="stException"]').count() == 0


SOLO = [((1, 2, 3), 4), ((5, 1, 4), 2), ((6, 2, 3), None), ((1, 7, 5), 3), ((8, 4, 6), 1), ((2, 6, 8), "M")]


def _choose(pg, label: str, option: str) -> None:
    box = pg.locator(f'input[aria-label="{label}"][value="(not seen)"]')  # this round's, not a fading one
    box.click()
    box.press_sequentially(option)  # typing opens the list filtered to this option
    pg.get_by_role("option", name=option, exact=True).wait_for()
    pg.keyboard.press("Enter")  # chooses it (keyboard only)
    pg.wait_for_timeout(150)


def _metric(pg, label: str):
    return pg.get_by_test_id("stMetric").filter(has_text=label).get_by_test_id("stMetricValue")


def test_cactus_solo_game_followed_for_six_rounds(page, server):  # noqa: F811
    open_page(page, server, "cactus", "Cactus Town")
    page.get_by_role("tab", name="Follow a game").click()
    expect(page.get_by_text("Round 1: the cards seen")).to_be_visible()
    history = []
    for rnd, (prog, second) in enumerate(SOLO, start=1):
        expect(page.get_by_text(f"Round {rnd}: the cards seen")).to_be_visible()
        for i, c in enumerate(prog):
            _choose(page, f"Programmed card {i + 1}", f"#{c}")
        if second is not None:
            _choose(page, "Second shot card", "the marshal's arrival" if second == "M" else f"#{second}")
        page.get_by_role("button", name=f"Record round {rnd}").click()
        wait_idle(page)
        history.append(cp.Record(programmed=prog, second_shot=second))
        want = cp.report(None, CactusRules(), history)["steps"][-1]["next_round"]
        expect(_metric(page, f"Marshal arrives in round {rnd + 1}")).to_have_text(want)
    expect(_metric(page, "Marshal arrives in round 7")).to_have_text("3/8")
    expect(page.get_by_role("tabpanel").locator('[data-testid="stVegaLiteChart"]').first).to_be_visible()
    shot(page, "cactus_companion_six_rounds")
    page.reload()
    page.get_by_role("heading", name="Cactus Town").first.wait_for()
    wait_idle(page)
    page.get_by_role("tab", name="Follow a game").click()
    expect(page.get_by_text("6 rounds recorded")).to_be_visible()
    expect(_metric(page, "Marshal arrives in round 7")).to_have_text("3/8")
    assert page.locator('[data-testid="stException"]').count() == 0
