"""Browser test of the Outlaws table's flow (Chromium by Playwright, 1366x768, the server and browser fixtures of
tests/browser/conftest.py): a line of 6 actions played by clicks, undone, stepped back and resumed after a reload.
The Cactus Town solo game followed round by round (its odds checked against the exact engine, then reloaded and
resumed) is tests/browser/test_table_companion.py's, at both widths."""

from __future__ import annotations

from solver.outlaws import game as gm
from solver.outlaws import line as ln
from tests.support.dashboard.browser import BROWSER, expect, open_page, shot, wait_idle

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

