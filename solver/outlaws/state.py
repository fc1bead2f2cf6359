"""Outlaws positions: the frozen :class:`Position`, loading/saving the contracts.md format, the set-up.

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
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.io.read import as_int, read_json, require
from solver.outlaws.victory_names import VICTORY_VALUES, Way


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
    return Side.B if side == "A" else Side.A


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

    to_move: str
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
    winner: str | None = None
    victory: str | None = None
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


# ---------------------------------------------------------------- loading and validation


class _Problems(list):
    """The problems of a position document, every one of them (python-chess's ``status()``), in document order."""

    def get(self, check, *args, default=None):
        """``check(*args)``; when it raises :class:`BadInput`, its line is noted and ``default`` returned."""
        try:
            return check(*args)
        except BadInput as exc:
            self.append(str(exc))
            return default


_BAD = object()
"""An entry that failed its check (``None`` is a valid entry: unknown)."""


def _name(value: Any, what: str, allow_none: bool) -> str | None:
    if value is None and allow_none:
        return None
    if not isinstance(value, str) or value.lower() not in CHARACTERS:
        raise BadInput(f"{what}: unknown character {short_repr(value, 40)} (expected one of {', '.join(CHARACTERS)})")
    return value.lower()


def _token(value: Any, what: str, allow_empty: bool) -> str | None:
    if value is None:
        return None
    ok = TOKEN_TYPES + ((EMPTY,) if allow_empty else ())
    if not isinstance(value, str) or value.lower() not in ok:
        raise BadInput(f"{what}: unknown token {short_repr(value, 40)} (expected one of {', '.join(ok)} or null)")
    return value.lower()


def _side(value: Any, what: str) -> Side:
    if not isinstance(value, str) or value not in SIDES:
        raise BadInput(f"{what}: side must be \"A\" or \"B\", got {short_repr(value, 20)}")
    return Side(value)


def _entries(found: _Problems, items: list, check, what: str, *args) -> tuple | None:
    """Every item checked (``check(item, f"{what}[i]", *args)``); None when any fails (each failure noted)."""
    out = tuple(found.get(check, v, f"{what}[{i}]", *args, default=_BAD) for i, v in enumerate(items))
    return None if _BAD in out else out


def _mark(item: Any, what: str, street: PerSide, saloon: PerSide, on_street_only: bool) -> tuple:
    if not isinstance(item, list) or len(item) != 2:
        raise BadInput(f"{what}: expected a [side, column] pair")
    side = _side(item[0], what)
    where = item[1]
    if isinstance(where, str):
        name = _name(where, what, False)
        if name not in street[side] and (on_street_only or name not in saloon[side]):
            raise BadInput(f"{what}: {side}'s {name} is not {'on Main Street' if on_street_only else 'visible'}")
    else:
        col = as_int(where, what, 0, COLUMNS - 1)
        name = street[side][col]
        if name is None:
            raise BadInput(f"{what}: the character at {side} column {col} is face up, so it cannot be unknown")
    return side, name


def _marks(data: dict, key: str, street: PerSide, saloon: PerSide, on_street_only: bool,
           found: _Problems) -> frozenset | None:
    raw = data.get(key, [])
    if not isinstance(raw, list):
        found.append(f"position.{key}: expected a list of [side, column] pairs")
        return None
    out = _entries(found, raw, _mark, f"position.{key}", street, saloon, on_street_only)
    return None if out is None else frozenset(out)


def read_position(path: str | Path) -> Position:
    """A validated :class:`Position` from a position file on this machine (the CLI's argument).

    Only for paths the user of this machine typed; a document from elsewhere (a dashboard upload,
    an edited JSON text) goes to :func:`position_from_json`, never here (rule:X-bad-input).
    """
    if not isinstance(path, (str, Path)):
        raise BadInput(f"position file: expected a path, got {type(path).__name__}")
    return position_from_json(read_json(path))


def position_from_json(doc: Any) -> Position:
    """A validated :class:`Position` from a parsed JSON document (contracts.md); never reads a file.

    Anything but a JSON object (a string included: it is never taken for a path) is refused. A bad document
    is refused with one line naming every problem (:func:`position_problems`): the problem itself when there
    is one, else "3 problems: ...; ...; ..."."""
    pos, problems = _read(doc)
    if problems:
        raise BadInput(problems[0] if len(problems) == 1 else f"{len(problems)} problems: {'; '.join(problems)}")
    return pos


def position_problems(doc: Any) -> list[str]:
    """Every problem of a position document at once (python-chess's ``status()``), one line each, in the
    document's order; empty when it is a valid position. A check that needs a broken part (the marks need the
    street, the token totals need every token place) is left out rather than reported twice."""
    return _read(doc)[1]


def _read(doc: Any) -> tuple[Position | None, list[str]]:
    """The position and the problems of ``doc`` (the position only when there is none)."""
    if not isinstance(doc, dict):
        return None, [f"position: expected a JSON object, got {_json_kind(doc)}"]
    found = _Problems()
    to_move = found.get(lambda: _side(require(doc, "to_move", str, "position"), "position.to_move"))
    actions_left = found.get(lambda: as_int(require(doc, "actions_left", int, "position"), "position.actions_left",
                                            1, 2))
    street, saloon = _street_and_saloon(doc, found)
    tokens, reserve = _tokens(doc, found)
    supply = _supplies(doc, found)
    immobilized = front_page = None
    if street is not None and saloon is not None:
        immobilized = _marks(doc, "immobilized", street, saloon, True, found)
        front_page = _marks(doc, "front_page", street, saloon, False, found)
        _check_marks(immobilized or frozenset(), front_page or frozenset(), found)
    discard = _discard(doc, supply, front_page, found)
    if None not in (tokens, reserve, supply, discard):
        _check_token_totals(tokens, reserve, supply, discard, found)
    winner, victory = found.get(_result, doc, default=(None, None))
    sudden = found.get(_sudden_death, doc)
    knowledge = [found.get(_knowledge, doc.get("knowledge", {}), side) for side in SIDES]
    if found:
        return None, list(found)
    return Position(to_move=to_move, actions_left=actions_left, street=street, saloon=saloon, tokens=tokens,
                    reserve=reserve, supply=supply, discard=discard, immobilized=immobilized, front_page=front_page,
                    sudden_death=sudden, winner=winner, victory=victory, knowledge=PerSide(*knowledge)), []


def load_position(source: Path | dict) -> Position:
    """Compatibility: a ``pathlib.Path`` is read as a file, a dict is a document; a ``str`` is
    refused (it could be a path or a JSON string). New code calls :func:`read_position` or
    :func:`position_from_json`."""
    if isinstance(source, Path):
        return read_position(source)
    if isinstance(source, dict):
        return position_from_json(source)
    raise BadInput(f"position: expected a JSON object, got {_json_kind(source)}")


def _json_kind(value: Any) -> str:
    """The JSON type of ``value`` in words (never its content: it may come from anywhere)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _street_and_saloon(data: dict, found: _Problems) -> tuple[PerSide | None, PerSide | None]:
    """Main Street rows (8 columns, ``None`` = unknown) and the Saloons (2 each, never the Governor)."""
    street_raw = found.get(require, data, "street", dict, "position")
    saloon_raw = found.get(require, data, "saloon", dict, "position")
    rows, saloons = [], []
    for side in SIDES:
        rows.append(None if street_raw is None else _row(street_raw, side, found))
        saloons.append(None if saloon_raw is None else _saloon(saloon_raw, side, found))
    for side, row, sal in zip(SIDES, rows, saloons):
        if sal is not None and "governor" in sal:
            found.append(f"position.saloon.{side}: the Governor may never be in the Saloon")
        names = [n for n in (row or ()) + (sal or ()) if n is not None]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            found.append(f"position: {side} has {dup[0]} twice (each side owns each character once)")
    return (None if None in rows else PerSide(*rows)), (None if None in saloons else PerSide(*saloons))


def _row(street_raw: dict, side: str, found: _Problems) -> tuple | None:
    row = found.get(require, street_raw, side, list, "position.street")
    if row is not None and len(row) != COLUMNS:
        found.append(f"position.street.{side}: Main Street has {COLUMNS} columns, got {len(row)} characters")
        return None
    return None if row is None else _entries(found, row, _name, f"position.street.{side}", True)


def _saloon(saloon_raw: dict, side: str, found: _Problems) -> tuple | None:
    sal = found.get(require, saloon_raw, side, list, "position.saloon")
    if sal is not None and len(sal) != 2:
        found.append(f"position.saloon.{side}: the Saloon holds exactly 2 characters, got {len(sal)}")
        return None
    names = None if sal is None else _entries(found, sal, _name, f"position.saloon.{side}", False)
    return None if names is None else tuple(sorted(names))


def _tokens(data: dict, found: _Problems) -> tuple[tuple | None, tuple | None]:
    """The token row (8 entries, ``"empty"`` allowed) and the sorted reserve."""
    tokens = found.get(require, data, "tokens", list, "position")
    if tokens is not None and len(tokens) != COLUMNS:
        found.append(f"position.tokens: the token row has {COLUMNS} columns, got {len(tokens)}")
        tokens = None
    tokens = None if tokens is None else _entries(found, tokens, _token, "position.tokens", True)
    reserve = found.get(require, data, "reserve", list, "position")
    reserve = None if reserve is None else _entries(found, reserve, _token, "position.reserve", False)
    return tokens, (None if reserve is None else sorted_reserve(reserve))


def _supply(sup_raw: dict, side: str, found: _Problems) -> Supply | None:
    s = found.get(require, sup_raw, side, dict, "position.supply")
    if s is None:
        return None
    before = len(found)
    vals = {key: found.get(lambda key=key: as_int(require(s, key, int, f"position.supply.{side}"),
                                                  f"position.supply.{side}.{key}", 0, 99))
            for key in ("vote", "bullet", "handcuffs", "front_page")}
    vals["election"] = found.get(as_int, s.get("election", 0), f"position.supply.{side}.election", 0, 1)
    if vals["front_page"] is not None and vals["front_page"] > FRONT_PAGE_PER_SIDE:
        found.append(f"position.supply.{side}.front_page: a player has at most {FRONT_PAGE_PER_SIDE} "
                     "Front Page markers")
    return None if len(found) > before else Supply(**vals)


def _supplies(data: dict, found: _Problems) -> PerSide | None:
    """Both personal supplies (at most 3 Front Page markers each, at most 1 Election)."""
    sup_raw = found.get(require, data, "supply", dict, "position")
    supplies = [None if sup_raw is None else _supply(sup_raw, side, found) for side in SIDES]
    return None if None in supplies else PerSide(*supplies)


def _check_marks(immobilized: frozenset, front_page: frozenset, found: _Problems) -> None:
    """Only a Bandit is immobilized (rule:O-immobilized); the Governor is never marked (rule:O-journalist)."""
    for side, name in sorted(immobilized):
        if name != "bandit":
            found.append(f"position.immobilized: only a Bandit can be immobilized (by the Sheriff), got {side}'s {name}")
    if any(name == "governor" for _who, name in front_page):
        found.append("position.front_page: the Journalist can never call the Governor, so he cannot be marked")


def _discard(data: dict, supply: PerSide | None, front_page: frozenset | None, found: _Problems) -> Discard | None:
    """The discard; its Front Page count defaults to the markers not in a supply or on a character."""
    d_raw = found.get(require, data, "discard", dict, "position")
    if d_raw is None:
        return None
    before = len(found)
    dvals = {k: found.get(lambda k=k: as_int(require(d_raw, k, int, "position.discard"), f"position.discard.{k}", 0, 99))
             for k in ("bullet", "handcuffs")}
    for k in ("vote", "x", "election"):
        dvals[k] = found.get(as_int, d_raw.get(k, 0), f"position.discard.{k}", 0, 99)
    if "front_page" in d_raw:
        dvals["front_page"] = found.get(as_int, d_raw["front_page"], "position.discard.front_page", 0, FRONT_PAGE_TOTAL)
    if len(found) > before or supply is None or front_page is None:
        return None
    used = supply.A.front_page + supply.B.front_page + len(front_page)
    dvals.setdefault("front_page", FRONT_PAGE_TOTAL - used)
    if used + dvals["front_page"] != FRONT_PAGE_TOTAL:
        found.append(f"position: Front Page markers add up to {used + dvals['front_page']}, expected {FRONT_PAGE_TOTAL}")
        return None
    return Discard(**dvals)


def _sudden_death(data: dict) -> bool:
    sudden = data.get("sudden_death", False)
    if not isinstance(sudden, bool):
        raise BadInput("position.sudden_death: expected true or false")
    return sudden


def _result(data: dict) -> tuple[Side | None, Way | None]:
    """``winner`` and ``victory``: both given or both absent."""
    winner, victory = data.get("winner"), data.get("victory")
    if winner is not None:
        winner = _side(winner, "position.winner")
        if not isinstance(victory, str) or victory not in VICTORIES:
            raise BadInput(f"position.victory: expected one of {', '.join(VICTORIES)} when a winner is given")
        return winner, Way(victory)
    if victory is not None:
        raise BadInput("position.victory: given without a winner")
    return None, None


def _knowledge(raw: Any, side: str) -> Knowledge:
    if not isinstance(raw, dict):
        raise BadInput("position.knowledge: expected an object {A: {...}, B: {...}}")
    k = raw.get(side, {})
    if not isinstance(k, dict):
        raise BadInput(f"position.knowledge.{side}: expected an object")
    out = []
    for key in ("characters", "tokens"):
        vals = k.get(key, [])
        if not isinstance(vals, list):
            raise BadInput(f"position.knowledge.{side}.{key}: expected a list of columns")
        out.append(frozenset(as_int(v, f"position.knowledge.{side}.{key}", 0, COLUMNS - 1) for v in vals))
    return Knowledge(*out)


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


def _check_token_totals(tokens, reserve, supply, discard, found: _Problems) -> None:
    """rule:O-components: every token is somewhere; unknown slots must match the missing tokens."""
    counts, unknown = token_counts(tokens, reserve, supply, discard)
    over = [k for k in TOKEN_TYPES if counts[k] > TOKEN_TOTALS[k]]
    for k in over:
        found.append(f"position: wrong token totals: {counts[k]} {k} tokens found, the game has {TOKEN_TOTALS[k]}")
    missing = sum(TOKEN_TOTALS[k] - counts[k] for k in TOKEN_TYPES if k not in over)
    if not over and missing != unknown:
        short = ", ".join(f"{TOKEN_TOTALS[k] - counts[k]} {k}" for k in TOKEN_TYPES if counts[k] < TOKEN_TOTALS[k])
        found.append(f"position: wrong token totals: {unknown} unknown token slots but missing {short or 'nothing'}")


def unknown_token_pool(pos: Position) -> dict:
    """Token types (with counts) that the unknown (None) token slots can hold."""
    counts, _ = token_counts(pos.tokens, pos.reserve, pos.supply, pos.discard)
    return {k: TOKEN_TOTALS[k] - counts[k] for k in TOKEN_TYPES if TOKEN_TOTALS[k] > counts[k]}


def unknown_characters(pos: Position, side: str) -> tuple:
    """Characters of ``side`` that its unknown (None) street columns can be."""
    seen = set(pos.street[side]) | set(pos.saloon[side])
    return tuple(c for c in CHARACTERS if c not in seen)


def position_to_json(pos: Position) -> dict:
    """The contracts.md position format (plus the extra keys discard.*, winner, victory, knowledge)."""

    def marks(items):
        out = []
        for side, name in sorted(items):
            col = pos.column_of(side, name)
            out.append([side, col if col is not None else name])
        return out

    return {
        "to_move": pos.to_move,
        "actions_left": pos.actions_left,
        "street": {s: list(pos.street[s]) for s in SIDES},
        "saloon": {s: list(pos.saloon[s]) for s in SIDES},
        "tokens": list(pos.tokens),
        "reserve": list(pos.reserve),
        "supply": {s: pos.supply[s].to_json() for s in SIDES},
        "discard": pos.discard.to_json(),
        "immobilized": marks(pos.immobilized),
        "front_page": marks(pos.front_page),
        "sudden_death": pos.sudden_death,
        "winner": pos.winner,
        "victory": pos.victory,
        "knowledge": {s: {"characters": sorted(pos.knowledge[s].characters),
                          "tokens": sorted(pos.knowledge[s].tokens)} for s in SIDES},
    }


def initial_position(seed: int | None = None, rules=None) -> Position:
    """The set-up, fully known ("god view") (rule:O-setup, rule:O13).

    Each side lays 8 of its 10 characters face down on Main Street and puts 2 (never the Governor)
    in its Saloon; each supply gets 1 Bullet, 1 Handcuffs and 3 Front Page markers; the other 13
    tokens are shuffled, 8 go face down between the columns and 5 form the reserve.
    """
    from solver.outlaws.rules import Rules

    rules = rules or Rules()
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
    first = Side(rules.first_player) if rules.first_player in SIDES else rng.choice(SIDES)
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
