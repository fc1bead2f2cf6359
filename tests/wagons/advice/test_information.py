"""The advice uses only what the player has seen (rule:W-advice, rule:W-reveal): a seeded game's hidden cards
(the preference deck under its top card) can be changed without changing the advice, a seeded game and the
followed game with the same cards seen get the same advice, and only the player's decisions are advised."""

from __future__ import annotations

from dataclasses import replace

import pytest

from solver.errors import BadInput
from solver.wagons.advice.engine import advise
from solver.wagons.advice.information import information_state
from solver.wagons.game import OpponentTurn, apply, new_followed_game, unseen_cards
from solver.wagons.simulate import play_out
from tests.support.builders.advice import followed_twin, greedy_state

ROUND1 = [("gold-rush", 3, 0), ("gold-rush", 3, 4), ("cattle-drive", 9, 1), ("water-the-herd", 5, 6)]
"""Round-1 decisions of greedy games (scenario, seed, actions taken): drafts and placements, 5-7 cards unseen."""


def _figures(advice) -> list[tuple]:
    return [(r.action, r.samples, r.mean, r.win, r.interval) for r in advice.actions]


def _other_deal(state):
    """The state with the cards under the preference deck's top turned round (the hidden part of the deal), and
    the seed and log changed: everything the player has not seen."""
    hidden = state.deck[1:]
    return replace(state, deck=state.deck[:1] + hidden[::-1], seed=state.seed + 1000,
                   log=state.log[:1] + tuple(replace(e, note="changed") for e in state.log[1:2]))


@pytest.mark.parametrize("scenario,seed,steps", ROUND1)
def test_changing_the_hidden_cards_changes_no_advice(scenario, seed, steps):
    state = greedy_state(scenario, seed, steps)
    assert state.round == 1 and state.to_move == "player" and len(state.deck) > 2
    other = _other_deal(state)
    # the hidden part matters to the game: played on, the two deals end differently
    assert play_out(state, "greedy").state.pile != play_out(other, "greedy").state.pile
    assert _figures(advise(state, samples=8)) == _figures(advise(other, samples=8))


@pytest.mark.parametrize("scenario,seed,steps", ROUND1)
def test_a_seeded_game_and_its_followed_twin_get_the_same_advice(scenario, seed, steps):
    """Followed at the table with the same cards revealed, the game asks the same question and gets the same answer."""
    state = greedy_state(scenario, seed, steps)
    twin = followed_twin(state)
    assert twin.seed is None and twin.to_move == "player"
    assert unseen_cards(information_state(state)) == unseen_cards(twin)
    assert _figures(advise(state, samples=8)) == _figures(advise(twin, samples=8))


def test_the_information_state_keeps_what_was_seen():
    state = greedy_state("gold-rush", 3, 4)
    info = information_state(state)
    assert info.deck == state.deck[:1] and info.hidden_deck == len(state.deck) - 1
    assert (info.circle, info.town, info.pile, info.hand) == (state.circle, state.town, state.pile, state.hand)
    assert info.seed is None and info.log == ()
    assert set(unseen_cards(info)) == set(state.deck[1:])


def test_only_the_players_decisions_are_advised():
    with pytest.raises(BadInput, match="revealed first"):
        advise(new_followed_game("gold-rush"))
    state = greedy_state("gold-rush", 3, 2)
    assert state.to_move == "opponent"
    with pytest.raises(BadInput, match="opponent's turn"):
        advise(state)
    over = play_out(greedy_state("gold-rush", 3, 0), "greedy").state
    with pytest.raises(BadInput, match="game is over"):
        advise(over)
    assert apply(state, OpponentTurn()).to_move == "player"
