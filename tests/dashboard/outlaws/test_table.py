"""AppTest: the Outlaws table page plays a line through the game contract (click, pick or draw the
outcome, undo, step back and forward, the line in the address survives a reload, files refused whole); a
sudden-death lay is one chance step (laid at random, or "I saw them" per column); the line is kept for the
browser across page visits, reloads elsewhere and restarts, and saved to My games."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.nav import page_file
from dashboard.outlaws import play as op
from dashboard.shared.words import as_text
from dashboard.shared.work import browser
from solver.errors import BadInput
from solver.outlaws import actions as ac
from solver.outlaws import game as gm
from solver.outlaws import line as ln
from solver.outlaws.position_json import load_position, position_to_json, read_position
from tests.support.dashboard.apptest import APP, errors, open_page, reloaded, texts
from tests.support.dashboard.kept import (  # noqa: F401 - private_store is a fixture
    browser_of,
    forget_process_cache,
    private_store,
    resume_from_my_games,
    same_browser,
)
from tests.support.paths import ROOT

START = gm.initial_state(0)


def line_of(at) -> tuple[gm.Game, list[ln.Step], list[gm.Game]]:
    return ln.line_from_json(at.session_state[op.KEY]["line"])


def cursor(at) -> int:
    return at.session_state[op.KEY]["at"]


def pending(at):
    return at.session_state[op.PENDING]


def action_buttons(at):
    return [b for b in at.button if b.key and b.key.startswith("olp_act_")]


def open_kind(at, kind: str) -> None:
    """Open the action tab of ``kind`` (only the open tab's buttons are drawn; the page opens the kind last
    used, kept in the session)."""
    at.session_state["olp_kind"] = kind
    at.run()


def click_play(at, game: gm.Game, want) -> None:
    """Click the button of the first legal play for which ``want(play)`` holds (its tab opened first)."""
    plays = gm.legal_actions(game)
    i = next(k for k, p in enumerate(plays) if want(p))
    if not any(b.key == f"olp_act_{i}" for b in at.button):
        open_kind(at, plays[i].action.kind)
    at.button(key=f"olp_act_{i}").click().run()


def click_index(at, game: gm.Game, i: int) -> None:
    target = gm.legal_actions(game)[i]
    click_play(at, game, lambda p: p == target)


def test_the_buttons_are_the_contracts_legal_actions_once_each():
    at = open_page("outlaws_table")
    assert not at.exception and not errors(at)
    plays = gm.legal_actions(START)
    shown = {}
    for kind in op.KIND_ORDER:  # one tab open at a time: only its buttons are drawn
        open_kind(at, kind)
        now = {b.key: b.label for b in action_buttons(at)}
        assert all(plays[int(k.removeprefix("olp_act_"))].action.kind == kind for k in now)
        shown |= now
    labels = list(shown.values())
    assert len(labels) == len(plays) == len(set(labels))  # one line per action, no duplicates
    assert shown == {f"olp_act_{i}": ln.play_text(START, p) for i, p in enumerate(plays)}
    actions = ac.legal_actions(START.position, START.readings)  # what the Outlaws page counts for the same position
    kinds = Counter(a.kind for a in actions)  # per kind too, in the head and on the tabs (the buttons are more)
    assert len(plays) > len(actions)  # some actions raise a reaction question: one button per answer
    asking = len({p.action for p in plays if p.reactions})
    head = (f"**{len(actions)} legal actions for A** ({len(plays)} buttons: {asking} actions raise a reaction "
            f"question, with a button per answer): ")
    order = sorted(dict.fromkeys(p.action.kind for p in plays), key=op.KIND_ORDER.index)
    assert head + ", ".join(f"{kinds[k]} {op.KIND_TITLES[k].lower()}" for k in order) in texts(at)
    assert {t.label for t in at.tabs} >= {f"{op.KIND_TITLES[k]} ({n})" for k, n in kinds.items()}
    assert Counter(p.action.kind for p in plays) != kinds  # the case the counts are about
    assert any("(Hitman at 0" in t for t in labels)  # moves say which characters they are about


def test_a_chance_outcome_is_picked_with_its_exact_chance_then_undone():
    at = open_page("outlaws_table")
    take = lambda p: p.action.kind == "take" and len(gm.outcomes(START, p)) > 1  # noqa: E731
    click_play(at, START, take)
    play = gm.action_from_json(pending(at)["play"])
    outs = ln.outcome_texts(START, play)
    shown = texts(at)
    for p, _g, text in outs:
        assert text in shown and f"**{p}**" in shown
    assert sum(p for p, _g, _t in outs) == 1
    at.button(key="olp_out_1").click().run()
    start, steps, games = line_of(at)
    assert steps == [ln.Step(play, 1)] and games[1] == outs[1][1]
    assert cursor(at) == 1 and pending(at) is None
    at.button(key="olp_undo").click().run()
    assert line_of(at)[1] == [] and not errors(at)


def test_six_actions_played_stepped_back_and_forward_and_reloaded():
    at = open_page("outlaws_table")
    rng = random.Random(4)
    for _ in range(6):
        game = line_of(at)[2][-1]
        plays = gm.legal_actions(game)
        click_index(at, game, rng.randrange(len(plays)))
        if pending(at):
            at.button(key="olp_draw").click().run()
    start, steps, games = line_of(at)
    assert len(steps) == 6 and not at.exception and not errors(at)
    assert "**Step 6 of 6**" in texts(at)
    at.button(key="olp_nav_Back").click().run()
    at.button(key="olp_nav_Back").click().run()
    assert cursor(at) == 4 and "**Step 4 of 6**" in texts(at)
    pos = games[4].position
    left = f"{pos.actions_left} action" + ("" if pos.actions_left == 1 else "s")
    assert f"**{pos.to_move} to move**, {left} left" in texts(at)
    at.button(key="olp_nav_Next").click().run()
    assert cursor(at) == 5
    # the address holds the line: a new session (a reload) resumes it at the same step
    again = reloaded(at, "outlaws_table", timeout=60)
    assert line_of(again)[1] == steps and cursor(again) == 5
    # undo drops the last action of the line
    at.button(key="olp_undo").click().run()
    assert line_of(at)[1] == steps[:5] and cursor(at) == 5


def test_the_line_so_far_lists_every_step_in_full():
    """The line's table: per step the player, the action's whole sentence (a data grid once cut it at 1366 px,
    now a static table whose cells wrap), what happened, its chance and the step shown."""
    at = open_page("outlaws_table")
    click_play(at, START, lambda p: p.action.kind == "take" and len(gm.outcomes(START, p)) > 1)
    at.button(key="olp_out_1").click().run()  # a draw from the reserve: its second outcome, with its chance
    for _ in range(2):
        click_index(at, line_of(at)[2][-1], 0)
        if pending(at):
            at.button(key="olp_out_0").click().run()
    _start, steps, games = line_of(at)
    assert steps[0].outcome == 1 and len(steps) == 3
    at.button(key="olp_nav_Back").click().run()
    table = at.table[0].value
    assert list(table["step"]) == [1, 2, 3] and list(table["player"]) == [g.position.to_move for g in games[:3]]
    assert list(table["action"]) == [as_text(ln.play_text(g, s.play)) for g, s in zip(games, steps)]
    outs = [ln.outcome_texts(g, s.play)[s.outcome] for g, s in zip(games, steps)]
    assert list(table["what happened"]) == [as_text(o[2]) for o in outs] and list(table["chance"]) == [str(o[0]) for o in outs]
    assert list(table["shown"]) == ["", as_text("<- here"), ""] and table["chance"][0] not in ("1", "")


def test_undo_while_viewing_an_earlier_step_keeps_that_step_shown():
    at = open_page("outlaws_table")
    for _ in range(3):
        click_index(at, line_of(at)[2][-1], 0)
        if pending(at):
            at.button(key="olp_out_0").click().run()
    assert len(line_of(at)[1]) == 3
    at.button(key="olp_nav_First").click().run()
    at.button(key="olp_nav_Next").click().run()
    at.button(key="olp_undo").click().run()
    assert len(line_of(at)[1]) == 2 and cursor(at) == 1
    assert "**Step 1 of 2**" in texts(at) and not errors(at)


def test_a_damaged_address_is_refused_in_one_line_and_the_game_starts_fresh():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["line"] = "not-a-line"
    at.run()
    at.switch_page(page_file("outlaws_table"))
    at.run()
    assert [e for e in errors(at) if "address was not loaded" in e]
    assert line_of(at)[1] == [] and not at.exception


def test_saved_lines_replay_and_bad_files_change_nothing():
    steps = [ln.Step(gm.legal_actions(START)[0], 0)]
    doc = ln.line_to_json(START, steps)
    assert op.load_any(json.loads(json.dumps(doc))) == doc
    assert op.decode(op.encode(doc)) == doc
    assert op.load_any(position_to_json(START.position))["steps"] == []
    bad = {**doc, "steps": [{"action": doc["steps"][0]["action"], "outcome": 5}]}
    with pytest.raises(BadInput, match="step 1: outcome 5"):
        op.load_any(bad)
    with pytest.raises(BadInput):
        op.load_any({"format": ln.FORMAT, "start": {"position": {}}, "steps": []})


def test_random_draws_follow_the_exact_chances():
    rng = random.Random(1)
    probs = [Fraction(1, 6), Fraction(1, 2), Fraction(1, 3)]
    counts = Counter(op.draw_outcome(probs, rng) for _ in range(6000))
    for i, p in enumerate(probs):
        assert abs(counts[i] / 6000 - float(p)) < 0.03


def test_hidden_outcomes_are_described_per_outlaw_and_reactions_named():
    """From A's view of the set-up, a Bandit's call has one line per face-down character it can be."""
    from solver.outlaws.position import view

    game = gm.Game(view(gm.initial_state(1).position, "A"))
    bandit = next(p for p in gm.legal_actions(game) if p.action.actor == "bandit" and p.action.kind == "ability")
    outs = ln.outcome_texts(game, bandit)
    lines = [t for _p, _g, t in outs]
    assert len(lines) == len(set(lines)) == 8 and sum(p for p, _g, _t in outs) == 1
    assert all("column" in t for t in lines)
    # the Hitman facing the Governor with the Sheriff beside him: the reaction answer is in the line
    doc = position_to_json(START.position)
    doc["street"]["A"] = ["hitman", "governor", "sheriff", "indian", "merchant", "dancer", "journalist", "bandit"]
    doc["street"]["B"] = ["governor", "sheriff", "hitman", "indian", "merchant", "dancer", "journalist", "bandit"]
    doc["saloon"] = {"A": ["mayor", "reverend"], "B": ["mayor", "reverend"]}
    game = gm.Game(load_position(doc))
    shots = [p for p in gm.legal_actions(game) if p.action.actor == "hitman" and p.action.kind == "ability"]
    texts_ = [ln.play_text(game, p) for p in shots]
    assert len(shots) == 2 and len(set(texts_)) == 2
    assert {t.split("(reaction: ")[1] for t in texts_} == {"B saves the Governor with the Sheriff)",
                                                          "B does not save the Governor)"}


# ----------------------------------------------------------------------------- sudden death, victory, kept work

SD_NEAR = gm.Game(read_position(ROOT / "scenarios" / "outlaws" / "sudden-death-near.json"))
LAY = ["handcuffs", "bullet", "handcuffs", "x", "bullet", "handcuffs", "bullet", "x"]


def from_position(game: gm.Game):
    """The table opened on a new line from ``game`` (as "Play it forward" or a loaded file would)."""
    return open_page("outlaws_table", state={op.KEY: {"line": ln.line_to_json(game, []), "at": 0}})


def keep_the_vote(p: gm.Play) -> bool:
    """A's Indian takes the Vote at column 0 and keeps it: both sides hold 3 Votes, sudden death begins (O11)."""
    return p.action.kind == "take" and p.action.column == 0 and p.reactions == (True,)


def test_sudden_death_is_one_chance_step_laid_at_random():
    at = from_position(SD_NEAR)
    click_play(at, SD_NEAR, keep_the_vote)
    assert not at.exception and not errors(at)
    assert [b.key for b in at.button if b.key and b.key.startswith("olp_out_")] == []  # not 560 buttons
    assert at.button(key="olp_lay_random").label == "Laid at random"
    assert "**Sudden death begins** (rule O11)" in texts(at) and "560 orders, each equally likely" in texts(at)
    assert len(at.button) < 25
    at.button(key="olp_lay_random").click().run()
    _start, steps, games = line_of(at)
    assert len(steps) == 1 and 0 <= steps[0].outcome < 560 and games[1].position.sudden_death
    assert sorted(games[1].position.tokens) == sorted(LAY)
    table = at.table[0].value
    assert "sudden death lays, columns 0-7: " in table["what happened"][0] and table["chance"][0] == "1/560"
    assert "**Sudden death is in force**" in texts(at)


def test_i_saw_them_lays_the_tokens_of_each_column_and_a_wrong_set_is_refused():
    at = from_position(SD_NEAR)
    click_play(at, SD_NEAR, keep_the_vote)
    for c, token in enumerate(["bullet"] * 4 + ["handcuffs"] * 2 + ["x"] * 2):  # 4 Bullets: no lay has them
        at.selectbox(key=f"olp_lay_{c}").set_value(token)
    at.button(key="olp_lay_seen").click().run()
    assert errors(at) == ["Not laid: the tokens chosen are not a sudden-death lay: 4 Bullets (the lay has 3), "
                          "2 Handcuffs (the lay has 3)"]
    assert line_of(at)[1] == [] and pending(at) is not None  # nothing played
    for c, token in enumerate(LAY):
        at.selectbox(key=f"olp_lay_{c}").set_value(token)
    at.button(key="olp_lay_seen").click().run()
    games = line_of(at)[2]
    assert list(games[1].position.tokens) == LAY and not errors(at)


def sudden_death_line() -> list[tuple[object, object]]:
    """(what to click, the play) along a line from sudden-death-near to A's victory: the Vote kept (sudden death,
    laid as LAY), the Hitman takes the Bullet laid in front of him, B fakes two swaps, A swaps the Hitman in front
    of B's Governor and shoots: Con le Brutte (the Bad way)."""
    return [(keep_the_vote, "lay"),
            (lambda p: p.action.kind == "take" and p.action.actor == "hitman" and p.action.call == "bullet"
             and p.reactions == (True,), None),
            (lambda p: p.action.kind == "move" and not p.action.swap, None),
            (lambda p: p.action.kind == "move" and not p.action.swap, None),
            (lambda p: p.action.kind == "move" and p.action.swap and set(p.action.columns) == {1, 3}
             and not p.action.from_saloon, None),
            (lambda p: p.action.kind == "ability" and p.action.actor == "hitman", None)]


def test_a_line_through_sudden_death_to_a_victory_says_the_game_is_over():
    at = from_position(SD_NEAR)
    for want, lay in sudden_death_line():
        click_play(at, line_of(at)[2][-1], want)
        if lay:
            for c, token in enumerate(LAY):
                at.selectbox(key=f"olp_lay_{c}").set_value(token)
            at.button(key="olp_lay_seen").click().run()
    games = line_of(at)[2]
    end = games[-1].position
    assert len(games) == 7 and end.winner == "A" and end.victory == "bad" and end.sudden_death
    shown = texts(at)
    assert "**A has won** Con le Brutte (the Bad way): the Hitman assassinates the opposing Governor during sudden " \
           "death." in shown
    assert "Sudden death is in force" not in shown  # the game is over: no banner warns of it any more
    assert "**The game is over: A has won**." in shown and "to move**" not in shown
    assert "The game is over: no action is left." in shown and not action_buttons(at)
    assert "to move" not in at.get("html")[0].value  # the street marks no side to move


@pytest.mark.usefixtures("private_store")
def test_the_line_is_kept_across_a_reload_elsewhere_a_closed_tab_and_a_restart():
    at = open_page("outlaws_table")
    for _ in range(2):
        click_index(at, line_of(at)[2][-1], 0)
        if pending(at):
            at.button(key="olp_out_0").click().run()
    at.button(key="olp_nav_Back").click().run()
    steps = line_of(at)[1]
    ident = browser_of(at)
    forget_process_cache()  # a restarted server: only the file is left
    again = same_browser(ident, "outlaws_table", via="cactus")  # reloaded on another page, then back
    assert line_of(again)[1] == steps and cursor(again) == 1 and not errors(again)
    assert "**Step 1 of 2**" in texts(again)
    stranger = same_browser(browser.new_id(), "outlaws_table")  # another browser sees none of it
    assert line_of(stranger)[1] == []


@pytest.mark.usefixtures("private_store")
def test_a_line_saved_to_my_games_is_resumed_there():
    at = from_position(SD_NEAR)
    click_play(at, SD_NEAR, keep_the_vote)
    at.button(key="olp_lay_random").click().run()
    saved = line_of(at)[1]
    at.text_input(key="olp_save_name").input("Sudden death at dinner").run()
    at.button(key="olp_save_save").click().run()
    assert "Saved 'Sudden death at dinner' to My games." in [s.value for s in at.success]
    click_index(at, line_of(at)[2][-1], 0)  # played on after saving
    ident = browser_of(at)
    resume_from_my_games(ident, "outlaws-line")
    other = same_browser(ident, "outlaws_table")
    assert not other.exception and line_of(other)[1] == saved
