"""Legal actions of the side to move: every distinct choice once (rule:O-actions).

Kinds: ``move`` (every swap, the fake swap, every way of leaving the Saloon), ``look``, ``take``
(each legal call), ``ability`` (every target and call, with or without the Mayor) and, only with
``actions_per_turn="one_or_two"`` and one action left, ``end_turn`` (rule:O17). Reactions (the
Sheriff saving his Governor, the Reverend cancelling) and optional effects (keeping a token,
immobilizing the Bandit: rule:O16) are decided by a player while the action resolves, so they are
outcomes of :func:`solver.outlaws.apply.outcomes`, not actions.

Choices left out because they are the same choice as another listed one, or impossible: a Look or
Take at an empty column; the Mayor extension aimed at the column straight across (the plain ability);
a Merchant pair or reserve swap involving an empty column; a Reverend reveal with no immobilized Bandit
to cancel; re-marking a marked character; with ``target_immobilized="forbidden"`` (rule:O15) abilities
aimed at an immobilized character. An immobilized character never acts or moves (rule:O-immobilized).
Characters unknown to the viewer (``None``) of the side to move can be swapped but not act.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache, partial

from solver.outlaws.characters import TABLE
from solver.outlaws.characters.common import Aim, mayors
from solver.outlaws.position import EMPTY, Position, other
from solver.outlaws.readings import OutlawsReadings

KINDS = ("move", "look", "take", "ability", "end_turn")


@dataclass(frozen=True)
class Action:
    """One choice of the side to move. ``column``: the actor's Main Street column; ``target``: the
    opposing column aimed at (Dancer: the column of the character pulled in front of her);
    ``mayor``: the Mayor's column when he extends the ability; ``columns`` (move): the two street
    columns; ``swap`` (move): a real or fake swap; ``from_saloon``/``saloon``/``placement``
    (leaving the Saloon): who leaves, who enters, who ends at ``columns[0]``/``columns[1]``;
    ``token_columns``/``reserve`` (Merchant): the token columns swapped, or one column swapped with
    the reserve."""

    kind: str
    actor: str | None = None
    column: int | None = None
    call: str | None = None
    columns: tuple = ()
    saloon: str | None = None
    from_saloon: str | None = None
    placement: tuple = ()
    swap: bool | None = None
    target: int | None = None
    mayor: int | None = None
    token_columns: tuple = ()
    reserve: bool = False

    def to_json(self) -> dict:
        out: dict = {"kind": self.kind}
        if self.kind == "end_turn":
            return out
        if self.kind == "move":
            out["columns"] = list(self.columns)
            out["saloon"] = self.saloon
            out["swap"] = self.swap
            if self.from_saloon:
                out["from_saloon"] = self.from_saloon
                out["placement"] = list(self.placement)
            return out
        out["actor"] = self.actor
        out["column"] = self.column
        for f in ("call", "target", "mayor"):
            if getattr(self, f) is not None:
                out[f] = getattr(self, f)
        if self.token_columns:
            out["token_columns"] = list(self.token_columns)
            out["reserve"] = self.reserve
        return out

    def describe(self, side: str = "") -> str:
        """A short English sentence for people (dashboard, CLI text output)."""
        who = f"{side}: " if side else ""
        if self.kind == "end_turn":
            return f"{who}end the turn after one action"
        if self.kind == "move":
            i, j = self.columns
            if self.from_saloon:
                return (f"{who}the {self.from_saloon} leaves the Saloon with columns {i} and {j}; the {self.saloon} "
                        f"enters; column {i} = {self.placement[0]}, column {j} = {self.placement[1]}")
            return f"{who}{'swap' if self.swap else 'fake swap of'} columns {i} and {j}"
        actor = f"the {self.actor} (column {self.column})"
        if self.kind == "look":
            return f"{who}{actor} looks at token {self.column}"
        if self.kind == "take":
            return f"{who}{actor} takes token {self.column}, calling {self.call}"
        mayor = f", extended by the mayor (column {self.mayor})" if self.mayor is not None else ""
        who_acts = TABLE.get(self.actor)
        if who_acts is None:  # not a character (a hand-written action): say what it asks for
            call = f" calling {self.call}" if self.call else ""
            return f"{who}{actor} reveals the opposing column {self.target}{call}{mayor}"
        return f"{who}{actor} {who_acts.words(self)}{mayor}"

    @classmethod
    def from_json(cls, data: dict) -> Action:
        from solver.errors import BadInput

        if not isinstance(data, dict) or data.get("kind") not in KINDS:
            raise BadInput(f"action: expected an object with kind in {', '.join(KINDS)}")
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise BadInput(f"action: unknown field {sorted(unknown)[0]!r}")
        vals = dict(data)
        for key in ("columns", "placement", "token_columns"):
            if key in vals:
                if not isinstance(vals[key], list):
                    raise BadInput(f"action.{key}: expected a list")
                vals[key] = tuple(vals[key])
        _check_kinds(vals)
        if vals.get("kind") != "move":
            vals.pop("swap", None)
        return cls(**vals)


_WHOLE = ("column", "target", "mayor")
_WHOLE_LISTS = ("columns", "token_columns")
_NAMES = ("actor", "call", "saloon", "from_saloon")
_FLAGS = ("swap", "reserve")


def _check_kinds(vals: dict) -> None:
    """Each field of an action read from JSON of its own kind: a column is a whole number, never ``0.0`` nor
    ``true`` (both equal a legal action's ``0``/``1``, so they would pass the legality check and then fail as an
    index); a name is text, a flag true/false (rule:X-bad-input)."""
    from solver.errors import BadInput
    from solver.io.numbers import short_repr
    from solver.io.read import is_whole

    def refuse(key: str, kind: str, value) -> BadInput:
        return BadInput(f"action.{key}: expected {kind}, got {short_repr(value)}")

    for key in _WHOLE:
        if vals.get(key) is not None and not is_whole(vals[key]):
            raise refuse(key, "a whole number", vals[key])
    for key in _WHOLE_LISTS:
        if not all(is_whole(v) for v in vals.get(key, ())):
            raise refuse(key, "a list of whole numbers", list(vals[key]))
    for key in _NAMES:
        if vals.get(key) is not None and not isinstance(vals[key], str):
            raise refuse(key, "a name", vals[key])
    if not all(v is None or isinstance(v, str) for v in vals.get("placement", ())):
        raise refuse("placement", "a list of names", list(vals["placement"]))
    for key in _FLAGS:
        if vals.get(key) is not None and not isinstance(vals[key], bool):
            raise refuse(key, "true or false", vals[key])


def legal_actions(pos: Position, readings: OutlawsReadings = OutlawsReadings()) -> tuple[Action, ...]:
    """Every legal action of ``pos.to_move`` (empty once the game is won): the moves, then for each character
    that may act a Look and the Takes its table entry allows (rule:O-look, rule:O-take, rule:O4, rule:O5) and
    its ability's actions (``Character.targets``, :mod:`solver.outlaws.characters`)."""
    if pos.winner is not None:
        return ()
    side = pos.to_move
    opp = other(side)
    row = pos.street[side]
    out: list[Action] = []
    free = [c for c in range(len(row)) if not (row[c] is not None and (side, row[c]) in pos.immobilized)]
    out.extend(_moves(pos.saloon[side], row, tuple(free)))
    for c in free:
        actor = row[c]
        if actor is None:
            continue
        who = TABLE[actor]
        if pos.tokens[c] != EMPTY:
            out.append(Action("look", actor, c))  # rule:O-look
            for call in who.takes:
                if call == "election" and not pos.votes(side) > pos.votes(opp):
                    continue  # rule:O5
                out.append(Action("take", actor, c, call=call))  # rule:O-take
        aim = Aim(pos, readings, side, opp, c, mayors(pos, readings, side, c, who), partial(Action, "ability", actor, c))
        out.extend(who.targets(aim))
    if pos.actions_left == 1 and readings.actions_per_turn == "one_or_two":
        out.append(Action("end_turn"))  # rule:O17
    return tuple(out)


def _moves(saloon: tuple, row: tuple, free: tuple) -> list[Action]:
    """rule:O-move: swap two own street characters (or pretend to); rule:O-saloon: leave the Saloon
    with two of them. The pieces are cached: they depend only on columns and names."""
    out = list(_swaps(free))
    for s in saloon:
        for i, j in _pairs(free):
            a, b = row[i], row[j]
            if a is not None and b is not None:
                out.extend(_leave_saloon(s, i, j, a, b))
    return out


@cache
def _pairs(free: tuple) -> tuple:
    return tuple((i, j) for n, i in enumerate(free) for j in free[n + 1:])


@cache
def _swaps(free: tuple) -> tuple[Action, ...]:
    out = []
    for i, j in _pairs(free):
        out.append(Action("move", columns=(i, j), swap=True))
        out.append(Action("move", columns=(i, j), swap=False))
    return tuple(out)


@cache
def _leave_saloon(s: str, i: int, j: int, a: str, b: str) -> tuple[Action, ...]:
    """The Saloon character ``s`` leaves with the characters ``a`` (column i) and ``b`` (column j):
    one of a, b (never the Governor) enters; the other two fill i, j in either order."""
    out = []
    for enter, stay in ((a, b), (b, a)):
        if enter == "governor":
            continue
        out.append(Action("move", columns=(i, j), saloon=enter, from_saloon=s, placement=(s, stay), swap=True))
        out.append(Action("move", columns=(i, j), saloon=enter, from_saloon=s, placement=(stay, s), swap=True))
    return tuple(out)
