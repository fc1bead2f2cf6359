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
from collections.abc import Callable, Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Any, NamedTuple, Protocol, TypeVar, runtime_checkable

from solver.readings.base import Readings

T = TypeVar("T")


class Outcome(NamedTuple):
    """How a game ended (python-chess's ``Outcome``): ``winner``, the game's winner value (Outlaws' ``Side``, Lone
    Cowboy's ``Winner`` with its tie, Cactus Town's lone ranger; None when nobody won), and ``termination``, what
    ended it (Outlaws' ``Way`` of victory, Lone Cowboy's ``DecidedBy``, Cactus Town's ``EndCause``). Both are
    ``StrEnum`` members, equal to the strings the JSON files carry; as a tuple, ``(winner, termination)``."""

    winner: Any
    termination: Any


S = TypeVar("S")
A = TypeVar("A")


@runtime_checkable
class GameContract(Protocol[S, A]):
    """What a game package exports, for its state type ``S`` and action type ``A``: its readings (``Readings``), its
    state type and the pure step functions. ``initial_state(seed, readings, **set-up)`` takes the game's own set-up
    (Lone Cowboy's ``scenario``, Cactus Town's ``players``)."""

    @property
    def Readings(self) -> type[Readings]:  # noqa: N802 - the name every game package exports
        """The game's frozen readings class."""

    @property
    def State(self) -> type[S]:  # noqa: N802
        """The game's state type."""

    @property
    def initial_state(self) -> Callable[..., S]:
        """The state after the set-up (``seed`` decides what chance decides at the set-up)."""

    def legal_actions(self, state: S, /) -> Sequence[A]:
        """Every distinct choice of the side to move; empty exactly when the game is over."""

    def outcomes(self, state: S, action: A, /) -> list[tuple[Fraction, S]]:
        """What ``action`` can lead to, with exact positive probabilities summing to 1 (equal states merged)."""

    def is_terminal(self, state: S, /) -> bool:
        """Whether the game is over."""

    def winner(self, state: S, /) -> StrEnum | None:
        """Who won (None until the end)."""

    def outcome(self, state: S, /) -> Outcome | None:
        """How the game ended (None until the end); its ``winner`` is :meth:`winner`'s."""

    def to_json(self, state: S, /) -> dict[str, Any]:
        """The state as a JSON document (``from_json`` gives an equal state back)."""

    def from_json(self, doc: Any, /) -> S:
        """A state from :meth:`to_json`'s document; BadInput on a bad one."""

    def action_to_json(self, action: A, /) -> Any:
        """An action as JSON."""

    def action_from_json(self, doc: Any, /) -> A:
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
