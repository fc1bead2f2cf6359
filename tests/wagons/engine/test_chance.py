"""Chance in the Lone Cowboy engine (rule:W-reveal): a followed game, whose deal is unknown, reveals
its cards as chance actions, OpenSpiel-style.

Oracles (not the engine's own output): the setup text deals the circle from the cut deck, the next
card first, and leaves the rest as the preference deck, top first, which is used only from the top
(round-1 matches take its top card, round 2 is dealt from what remains). So whatever the timing, the
k-th card a followed game reveals is card k of the seeded deal's circle-then-deck: a followed game fed
those reveals, with the same player actions, must end exactly as the seeded game (town, pile, scores,
winner), with the same legal player actions at every step. Chances are exact and uniform over the
cards not yet seen, which are counted here from the set-aside fronts and the visible places.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.errors import BadInput
from solver.register import register
from solver.wagons.data import SCENARIO_IDS
from solver.wagons.game import (
    CHANCE,
    Draft,
    OpponentTurn,
    Place,
    Reveal,
    action_from_dict,
    action_to_dict,
    apply,
    chance_outcomes,
    is_chance_node,
    is_over,
    legal_actions,
    new_followed_game,
    new_game,
    replay,
    scores,
    unseen_cards,
    winner,
)
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_json import state_from_json, state_to_json

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
READINGS = st.builds(WagonsReadings, icon_source=st.sampled_from(["top", "town"]),
                  match_order=st.sampled_from(["drafted-first", "deck-first"]),
                  edition=st.sampled_from(["original", "later"]), round1_pick=st.sampled_from(["first", "last"]))


def _seen(state) -> set[int]:
    return (set(state.removed) | set(state.circle) | set(state.deck) | set(state.town.card_ids) | set(state.pile)
            | set(state.hand))


def _follow(scenario, seed, readings, choose):
    """The seeded game and a followed one played side by side: the followed game's k-th reveal is
    card k of the seeded deal (circle, then deck top first); ``choose(actions)`` picks the player's
    action, the same in both. Returns (seeded end, followed end, reveals)."""
    seeded = new_game(scenario, seed, readings)
    deal = seeded.circle + seeded.deck
    followed, reveals, chance = new_followed_game(scenario, readings), [], Fraction(1)
    while not is_over(seeded):
        while is_chance_node(followed):
            chance *= dict((a.card, p) for p, a in chance_outcomes(followed))[deal[len(reveals)]]
            followed = apply(followed, Reveal(deal[len(reveals)]))
            reveals.append(deal[len(reveals)])
        legal = legal_actions(seeded)
        assert legal_actions(followed) == legal and followed.to_move == seeded.to_move
        a = choose(legal)
        seeded, followed = apply(seeded, a), apply(followed, a)
    assert not is_chance_node(followed)
    assert chance == Fraction(1, math.factorial(16))  # the tree gives every ordered deal the same chance
    return seeded, followed, reveals


@SETTINGS
@given(seed=st.integers(0, 10**9), scenario=st.sampled_from(SCENARIO_IDS), readings=READINGS, data=st.data())
def test_a_followed_game_fed_a_seeded_deal_ends_as_the_seeded_game(seed, scenario, readings, data):
    pick = lambda legal: legal[data.draw(st.integers(0, len(legal) - 1))]
    seeded, followed, reveals = _follow(scenario, seed, readings, pick)
    assert is_over(followed)
    assert followed.town == seeded.town and followed.pile == seeded.pile and followed.hand == seeded.hand
    assert scores(followed) == scores(seeded) and winner(followed) == winner(seeded)
    assert len(reveals) == 16  # every dealt card is seen by the end (round 2 deals all that remain)


@pytest.mark.parametrize("scenario", SCENARIO_IDS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_scenario_followed_with_the_first_actions(scenario, seed):
    seeded, followed, reveals = _follow(scenario, seed, WagonsReadings(), lambda legal: legal[0])
    assert (followed.town, followed.pile, scores(followed), winner(followed)) == \
        (seeded.town, seeded.pile, scores(seeded), winner(seeded))


def test_uniform_reveals_match_the_seeded_shuffle():
    """Monte Carlo: over 4000 seeded deals each dealt card is the first circle card about 1/16 of
    the time, the chance a followed game gives it (then 1/15 for the next card)."""
    first = Counter(new_game("water-the-herd", seed).circle[0] for seed in range(4000))
    f = new_followed_game("water-the-herd")
    p = chance_outcomes(f)[0][0]
    assert p == Fraction(1, 16) and set(first) == set(unseen_cards(f))
    sigma = math.sqrt(4000 * p * (1 - p))
    assert all(abs(n - 4000 * p) < 5 * sigma for n in first.values()), first
    f = apply(f, Reveal(unseen_cards(f)[0]))
    assert chance_outcomes(f)[0][0] == Fraction(1, 15)


def test_play_out_refuses_an_unknown_deal():
    from solver.wagons.simulate import play_out

    with pytest.raises(BadInput, match="reveal it first"):
        play_out(new_followed_game("boomtown"), "random")
    f = new_followed_game("boomtown")
    rng = random.Random(0)
    while is_chance_node(f):
        f = apply(f, rng.choice(legal_actions(f)))
    with pytest.raises(BadInput, match="reveal it first"):
        play_out(f, "greedy")  # the deck's next top card is unknown until a match takes the top


def test_reveal_timing_follows_the_text():
    """Setup: the 8 circle cards in circle order, then the deck's top card, before the player's
    first draft; the opponent's round-1 draft always sees the deck top; a round-1 match turns up
    the next top at once; round 2 reveals the circle dealt from the rest of the deck."""
    s = new_followed_game("boomtown")
    assert s.to_move == CHANCE and s.seed is None and len(unseen_cards(s)) == 16
    order = []
    for _ in range(9):
        card = unseen_cards(s)[-1]
        s = apply(s, Reveal(card))
        order.append(card)
    assert s.circle == tuple(order[:8]) and s.deck == (order[8],) and s.to_move == "player"
    assert s.log[-1].rule == "W-reveal" and s.log[-1].note == "the preference deck's top card"
    # walk a whole game: the opponent never drafts in round 1 without a known deck top
    for seed in range(12):
        seeded, followed = new_game("gold-rush", seed), new_followed_game("gold-rush")
        deal, k = seeded.circle + seeded.deck, 0
        while not is_over(followed):
            if is_chance_node(followed):
                followed, k = apply(followed, Reveal(deal[k])), k + 1
                continue
            if followed.to_move == "opponent" and followed.round == 1:
                assert followed.deck and followed.deck[0] == seeded.deck[0]
            if followed.round == 2:
                assert followed.hidden_circle == 0 and k == 16
            a = legal_actions(followed)[0]
            followed, seeded = apply(followed, a), apply(seeded, a)


def test_no_reveal_before_a_card_is_needed():
    s = new_followed_game("cattle-drive")
    while is_chance_node(s):
        s = apply(s, Reveal(unseen_cards(s)[0]))
    assert s.hidden_circle == 0 and s.hidden_deck == 7 and len(s.deck) == 1  # only the deck's top is seen
    assert s.to_move == "player" and s.resume is None and len(unseen_cards(s)) == 7


@SETTINGS
@given(scenario=st.sampled_from(SCENARIO_IDS), readings=READINGS, data=st.data())
def test_chance_is_exact_uniform_and_never_reveals_a_seen_card(scenario, readings, data):
    s = new_followed_game(scenario, readings)
    steps = 0
    while not is_over(s):
        legal = legal_actions(s)
        assert legal, "a state that is not over has legal actions"
        if is_chance_node(s):
            outs = chance_outcomes(s)
            unseen = sorted(set(range(18)) - _seen(s))
            assert [a.card for _, a in outs] == unseen == [a.card for a in legal] == list(unseen_cards(s))
            assert all(p == Fraction(1, len(unseen)) for p, _ in outs) and sum(p for p, _ in outs) == 1
            assert len(unseen) == s.hidden_circle + s.hidden_deck
            seen = sorted(_seen(s))
            with pytest.raises(BadInput, match="reveal: card"):
                apply(s, Reveal(data.draw(st.sampled_from(seen))))
        else:
            with pytest.raises(BadInput):
                chance_outcomes(s)
            assert not any(isinstance(a, Reveal) for a in legal)
        s = apply(s, legal[data.draw(st.integers(0, len(legal) - 1))])
        steps += 1
        back = state_from_json(json.loads(json.dumps(state_to_json(s))))
        assert back == s and state_to_json(back) == state_to_json(s)
    assert steps <= 16 + 48 and legal_actions(s) == ()


def test_seeded_games_have_no_chance_nodes():
    for scenario in SCENARIO_IDS:
        s = new_game(scenario, 4)
        while not is_over(s):
            assert not is_chance_node(s) and unseen_cards(s) == ()
            with pytest.raises(BadInput, match="nothing to reveal"):
                apply(s, Reveal(0))
            s = apply(s, legal_actions(s)[-1])
        assert "hidden_circle" not in state_to_json(s) and "resume" not in state_to_json(s)


def test_reveal_errors_are_one_line():
    s = new_followed_game("boomtown")
    aside = s.removed[0]
    with pytest.raises(BadInput, match="set aside with the goal cards"):
        apply(s, Reveal(aside))
    with pytest.raises(BadInput, match="no card 18"):
        apply(s, Reveal(18))
    with pytest.raises(BadInput, match="expected a card id"):
        apply(s, Reveal(True))
    with pytest.raises(BadInput, match="must be revealed first"):
        apply(s, Draft(0))
    with pytest.raises(BadInput, match="must be revealed first"):
        apply(s, OpponentTurn())
    s1 = apply(s, Reveal(0))
    with pytest.raises(BadInput, match="in the circle"):
        apply(s1, Reveal(0))


def test_actions_as_json():
    for a in (Reveal(7), Draft(2), OpponentTurn()):
        assert action_from_dict(json.loads(json.dumps(action_to_dict(a)))) == a
    assert action_to_dict(Reveal(7)) == {"reveal": 7}
    for bad in ({"reveal": "7"}, {"reveal": 7, "x": 1}, {"reveal": 1.0}, {"opponent": 1}, {"opponent": False}):
        with pytest.raises(BadInput):
            action_from_dict(bad)


def test_replay_names_the_failing_action():
    s = new_game("boomtown", 2)
    after = apply(s, Draft(1))
    assert replay(s, [Draft(1)]) == after and replay(s, []) == s
    with pytest.raises(BadInput, match=r"^actions\[1\] \(\{'draft': 0\}\): place card \d+ first"):
        replay(s, [Draft(1), Draft(0)])
    with pytest.raises(BadInput, match=r"^actions\[0\] .*nothing to reveal"):
        replay(s, [Reveal(0)])


def test_replay_of_a_prefix_is_undo():
    f = new_followed_game("water-the-herd")
    states, actions = [f], []
    while not is_over(f):
        a = legal_actions(f)[len(actions) % len(legal_actions(f))]
        f = apply(f, a)
        actions.append(a)
        states.append(f)
    start = new_followed_game("water-the-herd")
    for n in (0, 5, 9, 20, len(actions)):
        assert replay(start, actions[:n]) == states[n]


def test_reveal_log_entries_are_register_rules():
    s = new_followed_game("through-the-desert")
    while is_chance_node(s):
        s = apply(s, legal_actions(s)[0])
    ids = register().ids()
    assert {e.rule for e in s.log} <= ids and "W-reveal" in ids
    assert [e.what for e in s.log] == ["setup"] + ["reveal"] * 9


def test_place_actions_unchanged_in_a_followed_game():
    s = new_followed_game("out-drink-the-competition")
    while is_chance_node(s):
        s = apply(s, legal_actions(s)[0])
    s = apply(s, Draft(0))
    assert all(isinstance(a, Place) for a in legal_actions(s))
