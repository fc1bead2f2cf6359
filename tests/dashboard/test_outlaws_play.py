"""AppTest: the Outlaws table page plays a line through the game contract (click, pick or draw the
outcome, undo, step back and forward, the line in the address survives a reload, files refused whole)."""

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
from solver.errors import BadInput
from solver.outlaws import actions as ac
from solver.outlaws import game as gm
from solver.outlaws import line as ln
from solver.outlaws.state import load_position, position_to_json
from tests.support.apptest import APP, errors, open_page, reloaded, texts

START = gm.initial_state(0)


def line_of(at) -> tuple[gm.Game, list[ln.Step], list[gm.Game]]:
    return ln.line_from_json(at.session_state["olp_line"])


def action_buttons(at):
    return [b for b in at.button if b.key and b.key.startswith("olp_act_")]


def click_play(at, game: gm.Game, want) -> None:
    """Click the button of the first legal play for which ``want(play)`` holds."""
    plays = gm.legal_actions(game)
    i = next(k for k, p in enumerate(plays) if want(p))
    at.button(key=f"olp_act_{i}").click().run()


def test_the_buttons_are_the_contracts_legal_actions_once_each():
    at = open_page("outlaws_table")
    assert not at.exception and not errors(at)
    plays = gm.legal_actions(START)
    labels = [b.label for b in action_buttons(at)]
    assert len(labels) == len(plays) == len(set(labels))  # one line per action, no duplicates
    assert {b.key: b.label for b in action_buttons(at)} == {f"olp_act_{i}": ln.play_text(START, p)
                                                           for i, p in enumerate(plays)}
    actions = ac.legal_actions(START.position, START.rules)  # what the Outlaws page counts for the same position
    kinds = Counter(a.kind for a in actions)  # per kind too, in the head and on the tabs (the buttons are more)
    assert len(plays) > len(actions)  # some actions raise a reaction question: one button per answer
    asking = len({p.action for p in plays if p.reactions})
    head = (f"**{len(actions)} legal actions for A** ({len(plays)} buttons: {asking} actions raise a reaction "
            f"question, with a button per answer): ")
    assert head + ", ".join(f"{kinds[k]} {op.KIND_TITLES[k].lower()}" for k in dict.fromkeys(p.action.kind for p in plays)) \
        in texts(at)
    assert {t.label for t in at.tabs} >= {f"{op.KIND_TITLES[k]} ({n})" for k, n in kinds.items()}
    assert Counter(p.action.kind for p in plays) != kinds  # the case the counts are about
    assert any("(Hitman at 0" in t for t in labels)  # moves say which characters they are about


def test_a_chance_outcome_is_picked_with_its_exact_chance_then_undone():
    at = open_page("outlaws_table")
    take = lambda p: p.action.kind == "take" and len(gm.outcomes(START, p)) > 1  # noqa: E731
    click_play(at, START, take)
    play = gm.action_from_json(at.session_state["olp_pending"])
    outs = ln.outcome_texts(START, play)
    shown = texts(at)
    for p, _g, text in outs:
        assert text in shown and f"**{p}**" in shown
    assert sum(p for p, _g, _t in outs) == 1
    at.button(key="olp_out_1").click().run()
    start, steps, games = line_of(at)
    assert steps == [ln.Step(play, 1)] and games[1] == outs[1][1]
    assert at.session_state["olp_cursor"] == 1 and at.session_state["olp_pending"] is None
    at.button(key="olp_undo").click().run()
    assert line_of(at)[1] == [] and not errors(at)


def test_six_actions_played_stepped_back_and_forward_and_reloaded():
    at = open_page("outlaws_table")
    rng = random.Random(4)
    for _ in range(6):
        game = line_of(at)[2][-1]
        plays = gm.legal_actions(game)
        i = rng.randrange(len(plays))
        at.button(key=f"olp_act_{i}").click().run()
        if at.session_state["olp_pending"]:
            at.button(key="olp_draw").click().run()
    start, steps, games = line_of(at)
    assert len(steps) == 6 and not at.exception and not errors(at)
    assert "**Step 6 of 6**" in texts(at)
    at.button(key="olp_nav_Step back").click().run()
    at.button(key="olp_nav_Step back").click().run()
    assert at.session_state["olp_cursor"] == 4 and "**Step 4 of 6**" in texts(at)
    pos = games[4].position
    left = f"{pos.actions_left} action" + ("" if pos.actions_left == 1 else "s")
    assert f"**{pos.to_move} to move**, {left} left" in texts(at)
    at.button(key="olp_nav_Step forward").click().run()
    assert at.session_state["olp_cursor"] == 5
    # the address holds the line: a new session (a reload) resumes it at the same step
    again = reloaded(at, "outlaws_table", timeout=60)
    assert line_of(again)[1] == steps and again.session_state["olp_cursor"] == 5
    # undo drops the last action of the line
    at.button(key="olp_undo").click().run()
    assert line_of(at)[1] == steps[:5] and at.session_state["olp_cursor"] == 5


def test_the_line_so_far_lists_every_step_in_full():
    """The line's table: per step the player, the action's whole sentence (a data grid once cut it at 1366 px,
    now a static table whose cells wrap), what happened, its chance and the step shown."""
    at = open_page("outlaws_table")
    click_play(at, START, lambda p: p.action.kind == "take" and len(gm.outcomes(START, p)) > 1)
    at.button(key="olp_out_1").click().run()  # a draw from the reserve: its second outcome, with its chance
    for _ in range(2):
        at.button(key="olp_act_0").click().run()
        if at.session_state["olp_pending"]:
            at.button(key="olp_out_0").click().run()
    _start, steps, games = line_of(at)
    assert steps[0].outcome == 1 and len(steps) == 3
    at.button(key="olp_nav_Step back").click().run()
    table = at.table[0].value
    assert list(table["step"]) == [1, 2, 3] and list(table["player"]) == [g.position.to_move for g in games[:3]]
    assert list(table["action"]) == [as_text(ln.play_text(g, s.play)) for g, s in zip(games, steps)]
    outs = [ln.outcome_texts(g, s.play)[s.outcome] for g, s in zip(games, steps)]
    assert list(table["what happened"]) == [as_text(o[2]) for o in outs] and list(table["chance"]) == [str(o[0]) for o in outs]
    assert list(table["shown"]) == ["", as_text("<- here"), ""] and table["chance"][0] not in ("1", "")


def test_undo_while_viewing_an_earlier_step_keeps_that_step_shown():
    at = open_page("outlaws_table")
    for _ in range(3):
        at.button(key="olp_act_0").click().run()
        if at.session_state["olp_pending"]:
            at.button(key="olp_out_0").click().run()
    assert len(line_of(at)[1]) == 3
    at.button(key="olp_nav_First").click().run()
    at.button(key="olp_nav_Step forward").click().run()
    at.button(key="olp_undo").click().run()
    assert len(line_of(at)[1]) == 2 and at.session_state["olp_cursor"] == 1
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
    from solver.outlaws.state import view

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
