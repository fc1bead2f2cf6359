"""AppTest: the Lone Cowboy game table (dashboard/wagons/play_page.py) against the engine.

Every test drives the page with its own buttons only and checks what it shows against the engine
played alone on the same actions (solver.wagons.game, game_record)."""

from __future__ import annotations

import argparse
import base64
import json
import random
import zlib

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.shared.words import as_text
from dashboard.shared.work import urldoc
from dashboard.wagons import addresses as wagons_addresses
from dashboard.wagons import game as wg
from dashboard.wagons import town_grid
from solver.errors import BadInput
from solver.register import register
from solver.wagons import game as gm
from solver.wagons.cli.shared import add_readings_flags, readings_from_args
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import game_from_record, game_record
from solver.wagons.record.load import record_of
from tests.support.builders.wagons import OLD_SHAPES
from tests.support.dashboard.apptest import errors, open_page, texts
from tests.support.dashboard.wagons_table import GRID, click, open_with_address, page_state, settled, shown_rotation


def metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def banners(at) -> list[str]:
    return [t for t in texts(at).splitlines() if "wins**" in t or t.startswith("**Tie**")]


def play(at, state: gm.GameState, rng: random.Random, steps: int | None = None) -> gm.GameState:
    """Play random legal player actions by taps (the opponent plays itself); the page must follow the engine."""
    n = 0
    while not gm.is_over(state) and (steps is None or n < steps):
        action = rng.choice(gm.legal_actions(state))
        click(at, action)
        before = state
        state = settled(gm.apply(state, action))
        assert page_state(at) == state
        if len(state.log) > len(before.log) and any(e.what == "opponent-draft" for e in state.log[len(before.log):]):
            e = next(e for e in reversed(state.log) if e.what == "opponent-draft")  # its draft, rule id and title
            shown = "\n".join(i.value for i in at.info)
            assert f"took **card {e.card}**" in shown
            assert f"{e.rule} ({register().get(e.rule).title})" in shown
        if not gm.is_over(state):
            assert banners(at) == []  # no winner before the game is over
        n += 1
    return state


def test_a_seeded_deal_played_to_the_end_by_clicks():
    at = open_page("wagons_play")
    assert not at.exception and not errors(at)
    state = gm.new_game(wg.DEFAULT_SCENARIO, wg.DEFAULT_SEED, WagonsReadings())
    assert page_state(at) == state
    state = play(at, state, random.Random(7))
    assert gm.is_over(state)
    want = gm.scores(state)
    assert metric(at, "Your total") == str(want.player.total)
    assert metric(at, "Opponent total") == str(want.opponent.total)
    # Boomtown's Boom or Bust rests on a low-confidence number: both readings side by side until the card says
    assert any("Boom or Bust decides these scores" in m.value for m in at.markdown)
    at.button(key="lc_card_say_boom_or_bust_per-mine").click().run()
    assert not any("Boom or Bust decides these scores" in m.value for m in at.markdown)
    words = {"player": "The player wins", "opponent": "The opponent wins", "tie": "Tie"}[want.winner]
    assert any(words in b for b in banners(at))
    assert at.session_state[wg.KEY]["record"] == game_record(state)
    # the after-game review of the same cards (dashboard.wagons.review), here with a 1-second search
    assert "After the game: the best layout of your cards" in [h.value for h in at.subheader]
    at.slider(key="lc_review_limit").set_value(1)
    at.button(key="lc_review_run").click().run(timeout=120)
    assert not at.exception, at.exception
    assert int(metric(at, "Your town")) == want.player.total
    assert int(metric(at, "Best layout")) >= want.player.total


def test_the_live_scores_are_the_engines_and_name_no_winner():
    at = open_page("wagons_play")
    state = play(at, gm.new_game(wg.DEFAULT_SCENARIO, wg.DEFAULT_SEED, WagonsReadings()), random.Random(3), steps=5)
    want = gm.scores(state)
    assert metric(at, "Your total") == str(want.player.total)
    assert metric(at, "Opponent total") == str(want.opponent.total)
    assert "Scores so far" in [h.value for h in at.subheader]
    assert banners(at) == []


def test_follow_a_game_by_revealing_cards_once():
    at = open_page("wagons_play")
    at.radio(key="lc_new_mode").set_value("follow").run()
    at.button(key="lc_start").click().run()
    state = gm.new_followed_game(wg.DEFAULT_SCENARIO, WagonsReadings())
    assert page_state(at) == state and gm.is_chance_node(state)
    offered = [b.key for b in at.button if b.key.startswith("lc_reveal_")]
    assert offered == [f"lc_reveal_{c}" for c in sorted(gm.unseen_cards(state))]  # in number order
    # the reveal offers exactly the engine's unseen cards, each once
    offered = sorted(int(b.key.removeprefix("lc_reveal_")) for b in at.button if b.key.startswith("lc_reveal_"))
    assert offered == list(gm.unseen_cards(state))
    order = [c for c in gm.unseen_cards(state)][::-1]
    for c in order[:9]:  # the circle of 8, then the preference deck's top card
        click(at, gm.Reveal(c))
        state = settled(gm.apply(state, gm.Reveal(c)))
        assert not any(b.key == f"lc_reveal_{c}" for b in at.button)  # a revealed card is never offered again
    assert state.circle == tuple(order[:8]) and state.deck[:1] == (order[8],)
    assert page_state(at) == state and state.to_move == "player"
    state = play(at, state, random.Random(11), steps=12)
    assert at.session_state[wg.KEY]["record"]["seed"] is None


def test_a_turn_is_two_taps_and_the_opponent_plays_itself():
    at = open_page("wagons_play")
    state = page_state(at)
    assert click(at, gm.Draft(0)) == 1
    state = gm.apply(state, gm.Draft(0))
    legal = [a.placement for a in gm.legal_actions(state)]
    assert {p.rot for p in legal} == {0, 180}  # both ways up are offered; the hand shows it upright
    hand = next(h.proto.body for h in at.get("html") if "upright" in h.proto.body and f"Card {state.hand[0]}" in h.proto.body)
    assert hand
    p = next(p for p in legal if p.rot == 0)
    assert click(at, gm.Place(p)) == 1
    state = settled(gm.apply(state, gm.Place(p)))
    assert page_state(at) == state and state.to_move == "player"  # the opponent's turn played itself
    assert not any(b.key == "lc_opponent" for b in at.button)


def test_turning_the_card_is_one_tap_on_the_hand_and_a_new_card_starts_upright():
    at = open_page("wagons_play")
    at.button(key="lc_draft_0").click().run()
    state = page_state(at)
    at.button(key=town_grid.turn_key(GRID)).click().run()
    assert page_state(at) == state  # turning changes nothing in the game
    assert any("turned 180 degrees" in h.proto.body for h in at.get("html"))
    at.button(key=town_grid.cell_key(GRID, 0, 0)).click().run()
    assert page_state(at) == settled(gm.apply(state, gm.Place(gm.Placement(state.hand[0], 0, 0, 180))))
    now = page_state(at)
    if not now.hand:  # the opponent skipped no card for you: take the next one
        at.button(key="lc_draft_0").click().run()
        now = page_state(at)
    assert now.hand and now.hand[0] != state.hand[0] and shown_rotation(at, now.hand[0]) == 0
    assert any("upright" in h.proto.body and f"Card {now.hand[0]}" in h.proto.body for h in at.get("html"))


def test_a_late_second_tap_does_nothing():
    """A tap drawn for an earlier step (the second tap of a quick double tap, reaching the server after the first
    one's run) is ignored: the game moves one step, not two."""
    at = open_page("wagons_play")
    at.button(key="lc_draft_0").click().run()
    state = page_state(at)
    p = next(a.placement for a in gm.legal_actions(state) if a.placement.rot == 0)
    key = town_grid.cell_key(GRID, p.x, p.y)
    stale = next(b for b in at.button if b.key == key)
    stale.click().run()
    after = page_state(at)
    assert after == settled(gm.apply(state, gm.Place(p)))
    late = AppTest.from_function(_late_tap, args=(gm.Place(p), at.session_state[wg.KEY]["at"] - 1))
    late.session_state[wg.KEY] = at.session_state[wg.KEY]
    late.run()
    assert not late.exception and late.session_state[wg.KEY] == at.session_state[wg.KEY]


def test_a_second_tap_on_the_same_square_right_after_a_placement_is_part_of_a_double_tap():
    """The second tap of a double tap may reach the server after the page was drawn for the next card (a card the
    opponent handed over): on the square just placed on, within DOUBLE_TAP seconds, it places nothing."""
    at = open_page("wagons_play")
    click(at, gm.Draft(0))
    state = page_state(at)
    p = next(a.placement for a in gm.legal_actions(state) if a.placement.rot == 0)
    click(at, gm.Place(p))
    state = page_state(at)
    assert state.hand  # the default deal: the opponent skipped a card, handed over to be placed now
    again = gm.Placement(state.hand[0], p.x, p.y, 0)
    assert gm.Place(again) in gm.legal_actions(state)
    at.button(key=town_grid.cell_key(GRID, p.x, p.y)).click().run()  # at once: taken as the double tap's second
    assert page_state(at) == state
    import time

    time.sleep(town_grid.DOUBLE_TAP)
    at.button(key=town_grid.cell_key(GRID, p.x, p.y)).click().run()  # later: a tap of its own
    assert page_state(at) == settled(gm.apply(state, gm.Place(again)))


def _late_tap(action, stamp):
    from dashboard.wagons.table import do

    do(action, stamp)


def test_with_the_opponent_played_by_hand_its_turn_waits_for_its_button_and_the_choice_is_remembered():
    from tests.support.dashboard.kept import browser_of, same_browser

    at = open_page("wagons_play")
    at.toggle(key="lc_autoplay").set_value(False).run()
    state = page_state(at)
    click(at, gm.Draft(0))
    state = gm.apply(state, gm.Draft(0))
    p = gm.legal_actions(state)[0]
    click(at, p)
    state = gm.apply(state, p)
    assert page_state(at) == state and state.to_move == "opponent"
    click(at, gm.OpponentTurn())
    assert page_state(at) == gm.apply(state, gm.OpponentTurn())
    again = same_browser(browser_of(at), "wagons_play")  # a reload: the setting is this browser's
    assert again.toggle(key="lc_autoplay").value is False
    again.toggle(key="lc_autoplay").set_value(True).run()
    assert same_browser(browser_of(at), "wagons_play").toggle(key="lc_autoplay").value is True


def test_undo_and_redo_every_action():
    at = open_page("wagons_play")
    state0 = page_state(at)
    states = [state0]
    state = state0
    for action in (gm.Draft(1), None):
        action = action or gm.legal_actions(state)[-1]
        click(at, action)
        state = settled(gm.apply(state, action))
        states.append(state)
    # undo goes back past the opponent's own turn to before the placement, then before the draft
    at.button(key="lc_undo").click().run()
    assert page_state(at) == states[1]
    at.button(key="lc_undo").click().run()
    assert page_state(at) == states[0]
    assert at.button(key="lc_undo").disabled
    at.button(key="lc_redo").click().run()
    assert page_state(at) == states[1]
    at.button(key="lc_redo").click().run()
    assert page_state(at) == states[2]  # through the opponent's turn already in the record
    assert at.button(key="lc_redo").disabled
    at.button(key="lc_undo").click().run()  # back before the placement: a new one drops the redo steps
    other = next(a for a in gm.legal_actions(states[1]) if a != gm.legal_actions(states[1])[-1])
    click(at, other)
    assert page_state(at) == settled(gm.apply(states[1], other))
    assert at.button(key="lc_redo").disabled


def test_a_reload_resumes_from_the_address_redo_steps_included():
    at = open_page("wagons_play")
    state = play(at, page_state(at), random.Random(5), steps=6)
    at.button(key="lc_undo").click().run()
    address = at.query_params["lc"]
    again = open_with_address(address)  # a new session: only the address is carried over
    assert not again.exception and not errors(again)
    assert again.session_state[wg.KEY] == at.session_state[wg.KEY]
    again.button(key="lc_redo").click().run()
    assert page_state(again) == state


def test_a_damaged_address_is_one_line_and_a_fresh_game():
    for text in ("not-a-game", urldoc.encode({"record": {"game": "lone-cowboy"}, "at": 0})):
        page = open_with_address(text)
        assert not page.exception
        assert [e for e in errors(page) if "address was not loaded" in e], errors(page)
        assert all("\n" not in e for e in errors(page))
        assert page_state(page) == gm.new_game(wg.DEFAULT_SCENARIO, wg.DEFAULT_SEED, WagonsReadings())
    for text, why in (("not-a-game", "not the compressed text a saved game gives"),
                      (urldoc.encode({"x": 1})[:-3] + "AAA", "not the compressed text"),
                      (base64.urlsafe_b64encode(zlib.compress(b"{oops")).decode(), "invalid JSON")):
        with pytest.raises(BadInput, match=why):  # in words, never an exception's class name (was "(error)")
            urldoc.decode(text, wagons_addresses.LC)


def test_upload_a_game_file_and_refuse_a_bad_one():
    at = open_page("wagons_play")
    play(at, page_state(at), random.Random(2), steps=5)
    before = dict(at.session_state[wg.KEY])
    up = at.get("file_uploader")[0]
    bad = json.dumps({**before["record"], "actions": before["record"]["actions"] + [{"draft": 7}, {"draft": 0}]})
    up.upload("bad.json", bad.encode(), "application/json").run()
    err = [e for e in errors(at) if "was not loaded" in e]
    assert len(err) == 1 and "\n" not in err[0] and "actions[" in err[0]
    assert at.session_state[wg.KEY] == before
    at.get("file_uploader")[0].upload("junk.json", b"{not json", "application/json").run()
    assert any("invalid JSON" in e for e in errors(at))
    assert at.session_state[wg.KEY] == before
    other = gm.new_game("cattle-drive", 12, WagonsReadings())
    other = gm.apply(gm.apply(other, gm.Draft(2)), gm.legal_actions(gm.apply(other, gm.Draft(2)))[0])
    at.get("file_uploader")[0].upload("good.json", json.dumps(game_record(other)).encode(), "application/json").run()
    assert not at.exception
    assert page_state(at) == other
    assert "Cattle Drive" in texts(at)


@pytest.mark.parametrize("name", ["play-seeded", "state-followed", "kept"])
def test_upload_takes_every_saved_shape_as_its_record(name):
    """A `wagons play --json` output, an older game state or a kept game uploads as the one game record."""
    doc = json.loads((OLD_SHAPES / f"old-{name}.json").read_text())
    at = open_page("wagons_play")
    at.get("file_uploader")[0].upload(f"{name}.json", json.dumps(doc).encode(), "application/json").run()
    assert not at.exception and not [e for e in errors(at) if "was not loaded" in e]
    assert at.session_state[wg.KEY]["record"] == record_of(doc)
    assert page_state(at) == game_from_record(record_of(doc))


def test_the_default_rules_are_the_clis():
    p = argparse.ArgumentParser()
    add_readings_flags(p)
    cli = readings_from_args(p.parse_args([]))
    at = open_page("wagons_play")
    assert WagonsReadings.from_json(at.session_state[wg.KEY]["record"]["rules"]) == cli
    at.button(key="lc_start").click().run()
    assert WagonsReadings.from_json(at.session_state[wg.KEY]["record"]["rules"]) == cli


def test_counts_are_in_the_right_number():
    """Labels read "1 entry" / "1 card", not "1 entries" (browser walk, 2026-12-02)."""
    from dashboard.shared.words import counted

    assert [counted(n, "entry", "entries") for n in (0, 1, 2)] == ["0 entries", "1 entry", "2 entries"]
    assert counted(1, "legal action") == "1 legal action" and counted(7, "card") == "7 cards"
    at = open_page("wagons_play")
    log = page_state(at).log
    assert [e.label for e in at.expander if e.label.startswith("Game log")] == [
        f"Game log ({len(log)} {'entry' if len(log) == 1 else 'entries'})"]


def test_a_game_in_progress_says_when_the_sessions_readings_differ_from_its_own():
    """A reading changed on the Verification page does not change a game under way: the page says so
    (it said nothing, and its caption still read "default readings"; browser walk, 2026-12-02)."""
    at = open_page("wagons_play")
    assert not [i for i in at.info if "keeps the readings it started with" in i.value]
    at.session_state["readings"] = {"wagons": {"boom_or_bust": "flat"}}
    at.run()
    (note,) = [i.value for i in at.info if "keeps the readings it started with" in i.value]
    flat = "Low-confidence goal-card numbers are readings: flat"
    assert flat in note and "default readings" in texts(at) and "boom_or_bust" not in texts(at)
    at.button(key="lc_start").click().run()  # a new game takes the session's readings: no note
    assert at.session_state["lc_new_panel"] is False  # and the New game panel closes
    assert not [i for i in at.info if "keeps the readings it started with" in i.value]
    assert f"readings: {flat}" in texts(at)


def test_the_game_log_shows_every_entry_in_full():
    """The log's table holds each entry's whole note (the opponent's reasons; a data grid cut them short, now a
    static table whose cells wrap), in the engine's order, after a few steps of play."""
    at = open_page("wagons_play")
    for _ in range(4):
        click(at, gm.legal_actions(page_state(at))[0])
    log = page_state(at).log
    (table,) = [t.value for t in at.table if "note" in t.value.columns]
    assert len(log) > 1 and list(table["what"]) == [e.what for e in log]
    assert list(table["note"]) == [as_text(e.note or "") for e in log] and max(len(e.note or "") for e in log) > 80


def test_a_wrapped_table_escapes_markdown_and_scrolls_when_long():
    """Static tables render Markdown: an engine's ``*`` or ``_`` is escaped, so the text reads as written;
    past TABLE_SCROLL_AFTER rows the table scrolls at a fixed height."""
    from streamlit.testing.v1 import AppTest

    from dashboard.shared.words import TABLE_HEIGHT, TABLE_SCROLL_AFTER, table_height

    assert as_text("a *b* _c_ [d](e) <f> 2$") == "a \\*b\\* \\_c\\_ \\[d\\](e) \\<f\\> 2\\$" and as_text(3) == 3

    def page(n):
        import polars as pl

        from dashboard.shared.words import wrapped_table

        wrapped_table(pl.DataFrame({"step": list(range(n)), "note": ["*x*"] * n}))

    for n, height in ((3, "content"), (TABLE_SCROLL_AFTER, "content"), (TABLE_SCROLL_AFTER + 1, TABLE_HEIGHT)):
        at = AppTest.from_function(page, args=(n,)).run()
        (table,) = at.table
        assert list(table.value["note"]) == ["\\*x\\*"] * n and list(table.value["step"]) == list(range(n))
        assert table_height(n) == height
