"""The game contract every game package exports (docs/conventions.md), as a typed :class:`Protocol`.

A game package (``solver.wagons``, ``solver.cactus``, ``solver.outlaws``) is a module that provides these
names; :data:`solver.registry.GAMES` holds each one typed as :class:`GameContract`, and the one conformance test
(``tests/project/test_game_contract.py``) plays random games through it, as OpenSpiel's ``random_sim_test`` and
pgx's ``api_test`` do. Chance is OpenSpiel's: ``outcomes`` lists exact probabilities (``Fraction``) summing to 1,
and :func:`draw` / :func:`sample` are the one way an outcome is drawn at random from such a list (random playouts,
the Monte Carlo checks, the dashboard's "draw it at random"). How a game ended is one :class:`Outcome` value
(python-chess's ``Board.outcome()``): who won and what ended it, each a game's own ``StrEnum``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple, Protocol, TypeVar, runtime_checkable

T = TypeVar("T")


class Outcome(NamedTuple):
    """How a game ended (python-chess's ``Outcome``): ``winner``, the game's winner value (Outlaws' ``Side``, Lone
    Cowboy's ``Winner`` with its tie, Cactus Town's lone ranger; None when nobody won), and ``termination``, what
    ended it (Outlaws' ``Way`` of victory, Lone Cowboy's ``DecidedBy``, Cactus Town's ``EndCause``). Both are
    ``StrEnum`` members, equal to the strings the JSON files carry; as a tuple, ``(winner, termination)``."""

    winner: Any
    termination: Any


@runtime_checkable
class GameContract(Protocol):
    """What a game package exports: its readings (``Rules``), its state type and the pure step functions."""

    Rules: type
    State: type

    def initial_state(self, seed: int = 0, rules: Any = ..., **setup: Any) -> Any:
        """The state after the set-up (``seed`` decides what chance decides at the set-up)."""

    def legal_actions(self, state: Any) -> Sequence[Any]:
        """Every distinct choice of the side to move; empty exactly when the game is over."""

    def outcomes(self, state: Any, action: Any) -> list[tuple[Fraction, Any]]:
        """What ``action`` can lead to, with exact positive probabilities summing to 1 (equal states merged)."""

    def is_terminal(self, state: Any) -> bool:
        """Whether the game is over."""

    def winner(self, state: Any) -> Any:
        """Who won (None until the end)."""

    def outcome(self, state: Any) -> Outcome | None:
        """How the game ended (None until the end); its ``winner`` is :meth:`winner`'s."""

    def to_json(self, state: Any) -> dict:
        """The state as a JSON document (``from_json`` gives an equal state back)."""

    def from_json(self, doc: Any) -> Any:
        """A state from :meth:`to_json`'s document; BadInput on a bad one."""

    def action_to_json(self, action: Any) -> Any:
        """An action as JSON."""

    def action_from_json(self, doc: Any) -> Any:
        """An action from :meth:`action_to_json`'s JSON; BadInput on a bad one."""


def draw(weights: Sequence[Fraction | int], rng: random.Random) -> int:
    """The index of one outcome, drawn with chance ``weights[i] / sum(weights)`` (weights: exact probabilities
    or counts, all positive): one ``rng.random()`` (53 random bits), scaled exactly by the total, against the
    exact running sums."""
    if not weights:
        raise ValueError("draw: no outcome to draw from")
    total = sum(weights, Fraction(0))
    if total <= 0:
        raise ValueError("draw: the weights add up to nothing")
    u = Fraction(rng.random()) * total
    running = Fraction(0)
    for i, w in enumerate(weights):
        running += w
        if u < running:
            return i
    return len(weights) - 1


def sample(outcomes: Sequence[tuple[Fraction | int, T]], rng: random.Random) -> T:
    """One of ``outcomes`` (``(probability or weight, value)`` pairs, as ``outcomes(state, action)`` lists them),
    drawn with its chance (:func:`draw`)."""
    return outcomes[draw([p for p, _ in outcomes], rng)][1]
