"""Outlaws positions as documents: reading the contracts.md format with every problem of a document named at once
(:func:`position_problems`, python-chess's ``status()``) and writing it. The records (:class:`Position`,
:class:`Side`, :class:`PerSide`, ...), the component counts, the set-up and a player's view are in
:mod:`solver.outlaws.position`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solver.errors import MAX_MESSAGE, BadInput
from solver.io.numbers import short_repr
from solver.io.read import as_int, read_json, require
from solver.outlaws.position import (
    CHARACTERS,
    COLUMNS,
    EMPTY,
    FRONT_PAGE_PER_SIDE,
    FRONT_PAGE_TOTAL,
    SIDES,
    TOKEN_TOTALS,
    TOKEN_TYPES,
    VICTORIES,
    Discard,
    Knowledge,
    PerSide,
    Position,
    Side,
    Supply,
    sorted_reserve,
    token_counts,
)
from solver.outlaws.victory_names import Way

__all__ = ["read_position", "position_from_json", "position_problems", "load_position", "position_to_json",
           "refusal"]

# ---------------------------------------------------------------- reading a document, every problem at once


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
    is refused with one line naming every problem (:func:`position_problems`, :func:`refusal`)."""
    pos, problems = _read(doc)
    if problems:
        raise BadInput(refusal(problems))
    return pos


def position_problems(doc: Any) -> list[str]:
    """Every problem of a position document at once (python-chess's ``status()``), one line each, in the order
    the fields are read (side, actions, street, saloon, tokens, supplies, marks, discard, result, knowledge); empty when it is a valid position. A check that needs a broken part (a mark needs the
    street it names, the token totals every token place) is left out rather than reported twice."""
    return _read(doc)[1]


def refusal(problems: list[str]) -> str:
    """The one line that refuses a document (rule:X-bad-input): its problem, or "3 problems: a; b; c", naming as
    many as fit in a message (:data:`solver.errors.MAX_MESSAGE`) and counting the rest ("; and 4 more")."""
    if len(problems) == 1:
        return problems[0]
    line = f"{len(problems)} problems: {problems[0]}"
    for n, problem in enumerate(problems[1:], 1):
        rest = len(problems) - n - 1
        if len(line) + len(problem) + 2 + (len(f"; and {rest} more") if rest else 0) > MAX_MESSAGE:
            return f"{line}; and {len(problems) - n} more"
        line += f"; {problem}"
    return line


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
    places = None if street is None or saloon is None else (street, saloon)
    immobilized = _marks(doc, "immobilized", places, True, found)
    front_page = _marks(doc, "front_page", places, False, found)
    _check_marks(immobilized, front_page, found)
    counts = _discard_counts(doc, found)
    if None not in (tokens, reserve, supply, counts):
        _check_token_totals(tokens, reserve, supply, Discard(**{k: counts[k] for k in TOKEN_TYPES}), found)
    discard = None if None in (counts, supply, front_page) else _discard(counts, supply, front_page, found)
    winner, victory = _result(doc, found)
    sudden = found.get(_sudden_death, doc)
    knowledge = _knowledge(doc, found)
    if found:
        return None, list(found)
    return Position(to_move=to_move, actions_left=actions_left, street=street, saloon=saloon, tokens=tokens,
                    reserve=reserve, supply=supply, discard=discard, immobilized=immobilized, front_page=front_page,
                    sudden_death=sudden, winner=winner, victory=victory, knowledge=knowledge), []


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



class _Problems(list):
    """The problems of a position document found so far, in document order."""

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



def _street_and_saloon(data: dict, found: _Problems) -> tuple[PerSide | None, PerSide | None]:
    """Main Street rows (8 columns, ``None`` = unknown) and the Saloons (2 each, never the Governor)."""
    street_raw = found.get(require, data, "street", dict, "position")
    saloon_raw = found.get(require, data, "saloon", dict, "position")
    rows = [None if street_raw is None else _row(street_raw, side, found) for side in SIDES]
    saloons = [None if saloon_raw is None else _saloon(saloon_raw, side, found) for side in SIDES]
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


def _mark(item: Any, what: str, places: tuple | None, on_street_only: bool) -> tuple:
    """One ``[side, column or name]`` mark, checked against Main Street and the Saloon when ``places`` (street,
    saloon) are readable (None: they have problems of their own, so only the mark's form is checked)."""
    if not isinstance(item, list) or len(item) != 2:
        raise BadInput(f"{what}: expected a [side, column] pair")
    side = _side(item[0], what)
    where = item[1]
    if isinstance(where, str):
        name = _name(where, what, False)
        if places is not None and name not in places[0][side] and (on_street_only or name not in places[1][side]):
            raise BadInput(f"{what}: {side}'s {name} is not {'on Main Street' if on_street_only else 'visible'}")
        return side, name
    col = as_int(where, what, 0, COLUMNS - 1)
    name = None if places is None else places[0][side][col]
    if places is not None and name is None:
        raise BadInput(f"{what}: the character at {side} column {col} is face up, so it cannot be unknown")
    return side, name


def _marks(data: dict, key: str, places: tuple | None, on_street_only: bool, found: _Problems) -> frozenset | None:
    """The marked characters (Front Page markers or immobilized), None when any mark or the street is unreadable."""
    raw = data.get(key, [])
    if not isinstance(raw, list):
        found.append(f"position.{key}: expected a list of [side, column] pairs")
        return None
    out = _entries(found, raw, _mark, f"position.{key}", places, on_street_only)
    return None if out is None or places is None else frozenset(out)


def _check_marks(immobilized: frozenset | None, front_page: frozenset | None, found: _Problems) -> None:
    """Only a Bandit is immobilized (rule:O-immobilized); the Governor is never marked (rule:O-journalist)."""
    for side, name in sorted(immobilized or ()):
        if name != "bandit":
            found.append(f"position.immobilized: only a Bandit can be immobilized (by the Sheriff), got {side}'s {name}")
    if any(name == "governor" for _who, name in front_page or ()):
        found.append("position.front_page: the Journalist can never call the Governor, so he cannot be marked")


def _discard_counts(data: dict, found: _Problems) -> dict | None:
    """The discard as written: Bullets and Handcuffs always, the other tokens 0 unless given, its Front Page
    markers only when given (else :func:`_discard` counts them)."""
    d_raw = found.get(require, data, "discard", dict, "position")
    if d_raw is None:
        return None
    before = len(found)
    vals = {k: found.get(lambda k=k: as_int(require(d_raw, k, int, "position.discard"), f"position.discard.{k}", 0, 99))
            for k in ("bullet", "handcuffs")}
    for k in ("vote", "x", "election"):
        vals[k] = found.get(as_int, d_raw.get(k, 0), f"position.discard.{k}", 0, 99)
    if "front_page" in d_raw:
        vals["front_page"] = found.get(as_int, d_raw["front_page"], "position.discard.front_page", 0, FRONT_PAGE_TOTAL)
    return None if len(found) > before else vals


def _discard(counts: dict, supply: PerSide, front_page: frozenset, found: _Problems) -> Discard | None:
    """The discard with its Front Page markers: as written, else those neither in a supply nor on a character;
    the six add up (rule:O-components)."""
    used = supply.A.front_page + supply.B.front_page + len(front_page)
    discarded = counts.get("front_page", max(0, FRONT_PAGE_TOTAL - used))
    if used + discarded != FRONT_PAGE_TOTAL:
        found.append(f"position: Front Page markers add up to {used + discarded}, expected {FRONT_PAGE_TOTAL}")
        return None
    return Discard(**{**counts, "front_page": discarded})


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


def _sudden_death(data: dict) -> bool:
    sudden = data.get("sudden_death", False)
    if not isinstance(sudden, bool):
        raise BadInput("position.sudden_death: expected true or false")
    return sudden



def _result(data: dict, found: _Problems) -> tuple[Side | None, Way | None]:
    """``winner`` and ``victory``: both given or both absent."""
    winner, victory = data.get("winner"), data.get("victory")
    if winner is None:
        if victory is not None:
            found.append("position.victory: given without a winner")
        return None, None
    side = found.get(_side, winner, "position.winner")
    if not isinstance(victory, str) or victory not in VICTORIES:
        found.append(f"position.victory: expected one of {', '.join(VICTORIES)} when a winner is given")
        return side, None
    return side, Way(victory)


def _knowledge(data: dict, found: _Problems) -> PerSide | None:
    """What each side knows beyond the visible (rule:O-knowledge): opposing columns and token columns."""
    raw = data.get("knowledge", {})
    if not isinstance(raw, dict):
        found.append("position.knowledge: expected an object {A: {...}, B: {...}}")
        return None
    known = [_known(raw, side, found) for side in SIDES]
    return None if None in known else PerSide(*known)


def _known(raw: dict, side: str, found: _Problems) -> Knowledge | None:
    k = raw.get(side, {})
    if not isinstance(k, dict):
        found.append(f"position.knowledge.{side}: expected an object")
        return None
    out = []
    for key in ("characters", "tokens"):
        what = f"position.knowledge.{side}.{key}"
        vals = k.get(key, [])
        if not isinstance(vals, list):
            found.append(f"{what}: expected a list of columns")
            out.append(None)
            continue
        cols = tuple(found.get(as_int, v, what, 0, COLUMNS - 1, default=_BAD) for v in vals)
        out.append(None if _BAD in cols else frozenset(cols))
    return None if None in out else Knowledge(*out)


# ---------------------------------------------------------------- writing, the set-up, a player's view


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
