"""What the player knows at a decision (rule:W-reveal, rule:W-advice): the state with the unseen cards left unknown.

In a followed game the engine never holds a card before it is revealed. A seeded game (rule:W-setup) holds its
whole deal, but the player has seen only the circle, the preference deck's top card in round 1 (it shows,
rule:W-reveal) and the cards already drafted, placed or taken; the cards under the deck's top are face down
until a round-1 match takes the top (the next one shows) or round 2 deals them. :func:`information_state`
turns any state at the player's decision into the followed game's state with the same cards seen: the cards
below the deck's top become ``hidden_deck`` (unseen, revealed by chance nodes as the engine deals them), the seed
and the log (whose set-up note lists the deal) are dropped. Everything the advice computes starts from it, so it
cannot read a card the player has not seen.
"""

from __future__ import annotations

from dataclasses import replace

from solver.errors import BadInput
from solver.wagons.game import CHANCE, GameState, unseen_cards

__all__ = ["information_state", "unseen_count"]


def _check_decision(state: GameState) -> None:
    """BadInput unless the player is to move (the advice is about the player's choices)."""
    if state.to_move is None:
        raise BadInput("the game is over: there is no decision left to advise on")
    if state.to_move == CHANCE:
        what = "a circle card" if state.hidden_circle else "the preference deck's top card"
        raise BadInput(f"a card must be revealed first ({what}): the advice is for the player's decisions")
    if state.to_move != "player":
        raise BadInput("it is the opponent's turn: its draft follows its rules, nothing to decide "
                       "(apply {\"opponent\": true} and ask again)")


def information_state(state: GameState) -> GameState:
    """``state`` as the player knows it (module docstring): the cards under the preference deck's top card
    unseen (``hidden_deck``), no seed, no log. BadInput unless the player is to move."""
    _check_decision(state)
    hidden = state.deck[1:] if state.round == 1 else state.deck
    known = state.deck[:1] if state.round == 1 else ()
    return replace(state, deck=known, hidden_deck=state.hidden_deck + len(hidden), seed=None, log=())


def unseen_count(info: GameState) -> int:
    """Cards the player has not seen yet (their order is what chance decides)."""
    return len(unseen_cards(info))
