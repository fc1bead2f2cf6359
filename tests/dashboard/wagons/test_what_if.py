"""AppTest: the play page's What if? switch and the choice review after the game (dashboard/wagons/what_if.py),
checked against :func:`solver.wagons.advice.advise` and :func:`~solver.wagons.advice.review_choices` called
directly on the same decisions (the page must show the solver's figures, on the cards and squares they belong to).

The advice is asked with few deal orders (``what_if.DEFAULT_SAMPLES`` patched) to keep the tests short; the page
reads the setting at each call, as it reads the default."""

from __future__ import annotations

import dataclasses
import random

import pytest

from dashboard.shared.work import urldoc
from dashboard.wagons import game as wg
from dashboard.wagons import town_grid, what_if
from dashboard.wagons.cards import reading as card_reading
from solver.wagons import game as gm
from solver.wagons.advice import DEFAULT_POLICY, advise, information_state, review_choices
from solver.wagons.data import load_data
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import game_record
from solver.wagons.scoring.card_numbers import with_cards
from tests.support.dashboard.apptest import errors, open_page, texts
from tests.support.dashboard.wagons_table import GRID, click, open_with_address, page_state, settled

SAMPLES = 4


@pytest.fixture(autouse=True)
def few_orders(monkeypatch):
    monkeypatch.setattr(what_if, "DEFAULT_SAMPLES", SAMPLES)
    what_if._advice.clear()


def switched_on(at):
    at.toggle(key="lc_what_if").set_value(True).run(timeout=120)
    assert not at.exception, at.exception
    assert not errors(at), errors(at)
    return at


def badge_texts(at) -> list[str]:
    """The HTML of the bands drawn under the circle cards (What if?)."""
    return [h.proto.body for h in at.get("html") if "pts<br>" in h.proto.body]


def test_the_switch_is_off_by_default_and_nothing_is_computed():
    at = open_page("wagons_play")
    assert not at.exception and not errors(at)
    assert at.toggle(key="lc_what_if").value is False
    assert what_if.RESULT not in at.session_state and not badge_texts(at)


def test_on_a_draft_each_circle_card_shows_the_solvers_figures_and_the_best_is_marked():
    at = switched_on(open_page("wagons_play"))
    state = page_state(at)
    want = advise(state, SAMPLES, DEFAULT_POLICY)
    best = want.best
    assert f"Best: **{best.words}**" in texts(at)
    bands = badge_texts(at)
    assert len(bands) == len(state.circle)
    for a in want.actions:
        if not a.samples:
            continue
        band = bands[a.action.index]
        assert f"<b>{float(a.mean):+.1f}</b> pts" in band and f"{float(a.win):.0%} win" in band
        assert ("&#9733; best" in band) == (a.action == best.action)
    # the switch is remembered for the browser (the table's settings), and a rerun reuses the answer
    assert at.session_state[wg.SETTINGS]["what_if"] is True
    kept = at.session_state[what_if.RESULT]
    at.run()
    assert at.session_state[what_if.RESULT] is kept


def test_on_a_placement_each_green_square_shows_its_figures_for_the_way_up_in_the_hand():
    at = switched_on(open_page("wagons_play"))
    click(at, gm.Draft(0))
    state = page_state(at)
    assert state.hand
    want = advise(state, SAMPLES, DEFAULT_POLICY)
    shown = town_grid.rotation(GRID, state.hand[0], town_grid.rotations(
        [a.placement for a in gm.legal_actions(state)]))
    checked = 0
    for a in want.actions:
        p = a.action.placement
        if p.rot != shown or not a.samples:
            continue
        label = at.button(key=town_grid.cell_key(GRID, p.x, p.y)).label
        assert label == f"{float(a.mean):+.1f}\n{float(a.win):.0%}", (p, label)
        checked += 1
    assert checked
    # one tap on the best square places the card there (the figures do not change what a tap does)
    best = want.best.action.placement
    if best.rot == shown:
        at.session_state[f"{GRID}_last_tap"] = None
        at.button(key=town_grid.cell_key(GRID, best.x, best.y)).click().run(timeout=120)
        assert page_state(at).town.placements[-1] == best


def test_the_advice_reads_only_what_the_player_has_seen():
    """Two deals that differ only under the preference deck's top card are the same decision to the page: the
    advice is computed from the decision's key alone, so it cannot differ."""
    state = settled(gm.new_game("boomtown", 3, WagonsReadings()))
    assert state.to_move == "player" and len(state.deck) > 2
    other = dataclasses.replace(state, deck=(state.deck[0], *reversed(state.deck[1:])), seed=99)
    assert other.deck != state.deck
    assert what_if.decision_key(state) == what_if.decision_key(other)
    changed_top = dataclasses.replace(state, deck=(state.deck[1], state.deck[0], *state.deck[2:]))
    assert what_if.decision_key(changed_top) != what_if.decision_key(state)  # the top card shows (rule:W-reveal)


def test_a_stopped_answer_is_marked_and_compute_again_asks_anew():
    at = open_page("wagons_play")
    state = page_state(at)
    cut = advise(state, SAMPLES, DEFAULT_POLICY, time_limit=1e-6)
    assert not cut.complete
    at.session_state[wg.SETTINGS] = {**at.session_state[wg.SETTINGS], "what_if": True}
    at.session_state[what_if.RESULT] = ((what_if.decision_key(state), "{}"), cut)
    at.run(timeout=120)
    assert "Stopped after" in texts(at)
    at.button(key="lc_what_if_again_button").click().run(timeout=120)
    assert not at.exception, at.exception
    again = at.session_state[what_if.RESULT][1]
    assert again.complete and again.best is not None
    assert "Stopped after" not in texts(at)


def test_after_the_game_the_choice_review_says_what_the_cli_says():
    state = gm.new_game("gold-rush", 2, WagonsReadings())
    rng = random.Random(5)
    while not gm.is_over(state):
        state = gm.apply(state, rng.choice(gm.legal_actions(state)))
    record = game_record(state)
    at = open_with_address(urldoc.encode({"record": record, "at": len(record["actions"])}))
    assert not at.exception, at.exception
    assert "After the game: your choices against the advice" in [h.value for h in at.subheader]
    at.button(key="lc_choices_run").click().run(timeout=300)
    assert not at.exception, at.exception
    want = review_choices(state, SAMPLES, DEFAULT_POLICY, time_limit=300)
    assert want.complete and want.lines()
    shown = "\n".join(m.value for m in at.markdown)
    for line in want.lines():
        assert f"- {line}" in shown
    assert f"{len(want.turns)} of {want.decisions} decisions reviewed" in texts(at)
    # kept with the game it reviewed: a rerun shows it again without asking
    at.run()
    assert all(f"- {line}" in "\n".join(m.value for m in at.markdown) for line in want.lines())


def test_in_a_followed_game_the_advice_waits_for_the_reveals_then_answers_the_draft():
    state = gm.new_followed_game("water-the-herd", WagonsReadings())
    rng = random.Random(2)
    at = switched_on(open_with_address(urldoc.encode({"record": game_record(state), "at": 0})))
    assert what_if.RESULT not in at.session_state and "Best:" not in texts(at)  # a card to reveal: no choice yet
    while state.to_move != "player":
        state = gm.apply(state, rng.choice(gm.legal_actions(state)))
    record = game_record(state)
    at = switched_on(open_with_address(urldoc.encode({"record": record, "at": len(record["actions"])})))
    want = advise(state, SAMPLES, DEFAULT_POLICY)
    assert f"Best: **{want.best.words}**" in texts(at)
    assert len(badge_texts(at)) == len(state.circle)


def test_the_highlighted_take_button_is_the_advised_card():
    at = switched_on(open_page("wagons_play"))
    state = page_state(at)
    best = at.session_state[what_if.RESULT][1].best.action
    assert isinstance(best, gm.Draft)
    for k in range(len(state.circle)):
        if f"lc_draft_{k}" in [b.key for b in at.button]:
            assert (at.button(key=f"lc_draft_{k}").proto.type == "primary") == (k == best.index), k


def _above_the_gold(state, advice):
    """``advice`` (at ``state``) as a run cut short could leave it: its second choice shown above the gold one,
    from 4 orders."""
    from solver.wagons.advice.choice import overlap_note, standing
    from solver.wagons.advice.result import action_advice
    from solver.wagons.advice.rollout import Outcome

    gold, second = advice.actions[0], advice.actions[1]
    lifted = [m + 3 for m in second.margins[:4]]
    info = information_state(state)
    rows = [gold, action_advice(info, second.action, [Outcome(m, "player") for m in lifted], False),
            *advice.actions[2:]]
    stand = tuple(None if k == 0 else standing(r, gold) for k, r in enumerate(rows))
    return dataclasses.replace(advice, actions=tuple(rows), standings=stand, complete=False,
                               note=overlap_note(gold, rows, stand))


def test_a_figure_shown_above_the_gold_one_is_edged_and_named_in_the_note():
    at = open_page("wagons_play")
    state = page_state(at)
    advice = _above_the_gold(state, advise(state, 8, DEFAULT_POLICY))
    second = advice.actions[1]
    assert float(second.mean) > float(advice.best.mean) and advice.standings[1].within and advice.note
    at.session_state[wg.SETTINGS] = {**at.session_state[wg.SETTINGS], "what_if": True}
    at.session_state[what_if.RESULT] = ((what_if.decision_key(state), "{}"), advice)
    at.run(timeout=120)
    assert not at.exception, at.exception
    assert advice.note in [w.value for w in at.warning] and second.words in advice.note
    band = badge_texts(at)[second.action.index]
    assert what_if.ABOVE_BORDER in band and "see note" in band and "4 orders: few" in band
    gold = badge_texts(at)[advice.best.action.index]
    assert what_if.BEST_BORDER in gold and "best" in gold


def test_a_large_swing_after_a_card_turns_up_is_one_line_naming_the_card_and_the_part():
    from solver.wagons.advice.result import Advice, action_advice
    from solver.wagons.advice.rollout import Outcome

    info = gm.new_game("boomtown", 0, WagonsReadings())

    def advice_of(margins_parts, unseen):
        rows = tuple(action_advice(info, gm.Draft(k), [Outcome(m, "player", parts)], True)
                     for k, (m, parts) in enumerate(margins_parts))
        return Advice("draft", rows, 1, 1, unseen, True, "lookahead", 0, 0, True, 1, 1, None,
                      (None,) * len(rows), 1)

    then = advice_of([(16, (("territories", 5), ("Boom or Bust", 11))), (3, (("territories", 3),
                                                                              ("Boom or Bust", 0)))], (4, 9, 12))
    now = advice_of([(-56, (("territories", 4), ("Boom or Bust", -60)))], (4, 12))
    line = what_if.swing_line(((), then), (gm.Draft(0),), now)
    assert line == ("Card 9 turned up: the expected margin went from +16.0 (your last choice) to -56.0, most of it "
                    "in Boom or Bust (+11.0 to -60.0).")
    assert what_if.swing_line(((), then), (gm.Draft(1),), now) is not None  # against the choice taken (+3)
    assert what_if.swing_line(((), then), (gm.Draft(0),), advice_of([(10, ())], (4, 12))) is None  # 6 points
    assert what_if.swing_line(((), then), (gm.Draft(0),), advice_of([(-56, ())], (4, 9, 12))) is None  # no card
    assert what_if.swing_line(((gm.Draft(1),), then), (gm.Draft(0), gm.Draft(0)), now) is None  # another line


def _figures(advice) -> list[str]:
    """Each sampled choice's expected margin and win chance as the bands print them, in the circle's order."""
    return [f"<b>{float(a.mean):+.1f}</b> pts|{float(a.win):.0%} win"
            for a in sorted(advice.actions, key=lambda a: a.action.index) if a.samples]


def test_the_advice_plays_out_with_the_numbers_the_player_settled_on_their_card():
    low, high = {"Smalltown Charm": {"per_territory": 1}}, {"Smalltown Charm": {"per_territory": 4}}
    at = switched_on(open_page("wagons_play", state={card_reading.NUMBERS: low}))
    state = dataclasses.replace(page_state(at), data=None)
    assert "Smalltown Charm" in load_data().scenario(state.scenario).goals
    by_numbers = {}
    for numbers in (low, high):
        at.session_state[card_reading.NUMBERS] = numbers
        at.run(timeout=120)
        assert not at.exception and not errors(at), (at.exception, errors(at))
        want = advise(dataclasses.replace(state, data=with_cards(load_data(), numbers)), SAMPLES, DEFAULT_POLICY)
        assert f"Best: **{want.best.words}**" in texts(at)
        bands = badge_texts(at)
        for a in want.actions:
            if a.samples:
                band = bands[a.action.index]
                assert f"<b>{float(a.mean):+.1f}</b> pts" in band and f"{float(a.win):.0%} win" in band
        by_numbers[numbers["Smalltown Charm"]["per_territory"]] = _figures(want)
    assert by_numbers[1] != by_numbers[4]  # the settled number moved the figures the page shows
