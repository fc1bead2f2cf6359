"""An Outlaws position as frozen records: the :class:`Position`, its parts (:class:`Supply`, :class:`Discard`,
:class:`Knowledge`, :class:`PerSide`), the :class:`Side` that names a player, and the component counts.
The set-up (:func:`initial_position`) and a player's :func:`view` are here too; reading, checking and writing
the contracts.md document are in :mod:`solver.outlaws.position_json`.

Geometry (rule:O1): columns 0-7 from player A's left to right; A's column i faces B's column i and
token i lies between them. Characters are identified by (side, name): each side owns each of the 10
characters exactly once, so Front Page marks and immobilization are kept by name and follow the
character when it moves. ``None`` anywhere means "unknown to the viewer" (contracts.md).

Component counts (rule:O-components): 10 characters per side, 8 on Main Street and 2 in the Saloon;
17 tokens (6 Votes, 3 Bullets, 3 Handcuffs, 4 Bogus "x", 1 Election); 6 Front Page markers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.outlaws.victory_names import VICTORY_VALUES, Way

if TYPE_CHECKING:
    from solver.outlaws.readings import OutlawsReadings


class Side(StrEnum):
    """A player (contracts.md: "A" or "B"); a ``Side`` is equal to its string."""

    A = "A"
    B = "B"


SIDES = (Side.A, Side.B)
CHARACTERS = ("governor", "hitman", "sheriff", "indian", "merchant", "dancer", "journalist",
              "bandit", "reverend", "mayor")
TOKEN_TYPES = ("vote", "bullet", "handcuffs", "x", "election")
TOKEN_TOTALS = {"vote": 6, "bullet": 3, "handcuffs": 3, "x": 4, "election": 1}
FRONT_PAGE_TOTAL = 6
FRONT_PAGE_PER_SIDE = 3
EMPTY = "empty"
COLUMNS = 8
VICTORIES = VICTORY_VALUES  # the values of the victories, named in solver.outlaws.victory_names


def evolve(record, **changes):
    """A copy of a frozen engine record (:class:`Position`, :class:`Supply`, :class:`Discard`,
    :class:`Knowledge`) with ``changes``: :func:`dataclasses.replace` without re-running ``__init__``
    (none of them has a ``__post_init__``), for the millions of positions a search builds."""
    if not changes.keys() <= _FIELDS[type(record)]:
        raise TypeError(f"{type(record).__name__} has no field {sorted(changes.keys() - _FIELDS[type(record)])[0]!r}")
    new = object.__new__(type(record))
    new.__dict__.update(record.__dict__)
    new.__dict__.update(changes)
    return new


def other(side: str) -> Side:
    """The other player."""
    return _B if side == "A" else _A


_A, _B = SIDES  # read as module names: an enum's member look-up (Side.A) costs more, and this runs per action


def left_of(side: str, col: int) -> int:
    """Column immediately to the left of ``side``'s character at ``col`` (rule:O1; may be off-street)."""
    return col - 1 if side == "A" else col + 1


def right_of(side: str, col: int) -> int:
    """Column immediately to the right of ``side``'s character at ``col`` (rule:O1)."""
    return col + 1 if side == "A" else col - 1


class PerSide(tuple):
    """A pair (A's value, B's value), indexable by ``"A"``/``"B"`` or 0/1; hashable and picklable."""

    def __new__(cls, a: Any, b: Any):
        return tuple.__new__(cls, (a, b))

    def __getnewargs__(self):
        return (tuple.__getitem__(self, 0), tuple.__getitem__(self, 1))

    def __getitem__(self, key):
        if key == "A":
            key = 0
        elif key == "B":
            key = 1
        return tuple.__getitem__(self, key)

    @property
    def A(self):
        return tuple.__getitem__(self, 0)

    @property
    def B(self):
        return tuple.__getitem__(self, 1)

    def set(self, side: str, value: Any) -> PerSide:
        return PerSide(value, self.B) if side == "A" else PerSide(self.A, value)

    def __repr__(self) -> str:
        return f"PerSide(A={self.A!r}, B={self.B!r})"


@dataclass(frozen=True)
class Supply:
    """A player's personal supply (their "riserva"): tokens taken or received, unused Front Page markers."""

    vote: int = 0
    bullet: int = 1
    handcuffs: int = 1
    front_page: int = 3
    election: int = 0

    def add(self, kind: str, n: int = 1) -> Supply:
        return evolve(self, **{kind: getattr(self, kind) + n})

    def to_json(self) -> dict:
        return {"vote": self.vote, "bullet": self.bullet, "handcuffs": self.handcuffs,
                "front_page": self.front_page, "election": self.election}


@dataclass(frozen=True)
class Discard:
    """Discarded components: used Bullets/Handcuffs, failed Front Page markers, tokens set aside at sudden death."""

    bullet: int = 0
    handcuffs: int = 0
    vote: int = 0
    x: int = 0
    election: int = 0
    front_page: int = 0

    def add(self, kind: str, n: int = 1) -> Discard:
        return evolve(self, **{kind: getattr(self, kind) + n})

    def to_json(self) -> dict:
        return {k: getattr(self, k) for k in ("bullet", "handcuffs", "vote", "x", "election", "front_page")}


@dataclass(frozen=True)
class Knowledge:
    """What one player knows beyond the always-visible: opposing street columns whose character it
    knows (revealed to it and not moved since) and token columns it has seen (rule:O-knowledge)."""

    characters: frozenset = frozenset()
    tokens: frozenset = frozenset()


@dataclass(frozen=True)
class Position:
    """One Outlaws position (contracts.md), immutable; see the module docstring for the geometry."""

    to_move: Side
    actions_left: int
    street: PerSide  # PerSide of 8-tuples: character name or None (unknown)
    saloon: PerSide  # PerSide of 2-tuples of character names, sorted (the Saloon has no order)
    tokens: tuple  # 8 entries: token type, "empty" or None (unknown)
    reserve: tuple  # token types or None, kept sorted (the reserve is a face-down random pile)
    supply: PerSide  # PerSide of Supply
    discard: Discard = field(default_factory=Discard)
    immobilized: frozenset = frozenset()  # {(side, name)}
    front_page: frozenset = frozenset()  # {(side, name)} characters marked by the Journalist
    sudden_death: bool = False
    winner: Side | None = None
    victory: Way | None = None
    knowledge: PerSide = field(default_factory=lambda: PerSide(Knowledge(), Knowledge()))

    def column_of(self, side: str, name: str) -> int | None:
        row = self.street[side]
        return row.index(name) if name in row else None

    def face_up(self, side: str, name: str | None) -> bool:
        """Marked (Front Page) and immobilized characters stay face up (rule:O-immobilized, rule:O-journalist)."""
        return name is not None and ((side, name) in self.front_page or (side, name) in self.immobilized)

    def votes(self, side: str) -> int:
        return self.supply[side].vote


_FIELDS = {cls: frozenset(f.name for f in fields(cls)) for cls in (Position, Supply, Discard, Knowledge)}


def sorted_reserve(items: Iterable) -> tuple:
    return tuple(sorted(items, key=lambda t: (t is None, t or "")))


def token_counts(pos_tokens: Iterable, reserve: Iterable, supply: PerSide, discard: Discard) -> tuple[dict, int]:
    """Known count of each token type everywhere, and the number of unknown (None) token slots."""
    counts = dict.fromkeys(TOKEN_TYPES, 0)
    unknown = 0
    for t in list(pos_tokens) + list(reserve):
        if t is None:
            unknown += 1
        elif t != EMPTY:
            counts[t] += 1
    for s in supply:
        for k in ("vote", "bullet", "handcuffs", "election"):
            counts[k] += getattr(s, k)
    for k in TOKEN_TYPES:
        counts[k] += getattr(discard, k)
    return counts, unknown


def unknown_token_pool(pos: Position) -> dict:
    """Token types (with counts) that the unknown (None) token slots can hold."""
    counts, _ = token_counts(pos.tokens, pos.reserve, pos.supply, pos.discard)
    return {k: TOKEN_TOTALS[k] - counts[k] for k in TOKEN_TYPES if TOKEN_TOTALS[k] > counts[k]}


def unknown_characters(pos: Position, side: str) -> tuple:
    """Characters of ``side`` that its unknown (None) street columns can be."""
    seen = set(pos.street[side]) | set(pos.saloon[side])
    return tuple(c for c in CHARACTERS if c not in seen)


def initial_position(seed: int | None = None, readings: OutlawsReadings | None = None) -> Position:
    """The set-up, fully known ("god view") (rule:O-setup, rule:O13).

    Each side lays 8 of its 10 characters face down on Main Street and puts 2 (never the Governor)
    in its Saloon; each supply gets 1 Bullet, 1 Handcuffs and 3 Front Page markers; the other 13
    tokens are shuffled, 8 go face down between the columns and 5 form the reserve.
    """
    from solver.outlaws.readings import OutlawsReadings

    readings = readings or OutlawsReadings()
    rng = random.Random(seed)
    rows, saloons = [], []
    for _ in SIDES:
        chars = list(CHARACTERS)
        rng.shuffle(chars)
        saloon = [c for c in chars if c != "governor"][:2]
        rest = [c for c in chars if c not in saloon]
        rows.append(tuple(rest))
        saloons.append(tuple(sorted(saloon)))
    pool = ["vote"] * 6 + ["bullet"] + ["handcuffs"] + ["x"] * 4 + ["election"]
    rng.shuffle(pool)
    first = Side(readings.first_player) if readings.first_player in SIDES else rng.choice(SIDES)
    return Position(to_move=first, actions_left=2, street=PerSide(*rows), saloon=PerSide(*saloons),
                    tokens=tuple(pool[:8]), reserve=sorted_reserve(pool[8:]),
                    supply=PerSide(Supply(), Supply()))


def view(pos: Position, side: str) -> Position:
    """The position as ``side`` sees it (rule:O-knowledge): opposing street characters it does not
    know, tokens it has not seen and the whole face-down reserve become ``None``. Both Saloons, the
    supplies, the discard and face-up (marked or immobilized) characters stay visible."""
    if side not in SIDES:
        raise BadInput(f"view: side must be \"A\" or \"B\", got {short_repr(side, 20)}")
    opp = other(side)
    k = pos.knowledge[side]
    row = tuple(name if (col in k.characters or pos.face_up(opp, name)) else None
                for col, name in enumerate(pos.street[opp]))
    tokens = tuple(t if (t == EMPTY or col in k.tokens) else None for col, t in enumerate(pos.tokens))
    return replace(pos, street=pos.street.set(opp, row), tokens=tokens, reserve=(None,) * len(pos.reserve))
