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
from functools import cache

from solver.outlaws.rules import Rules
from solver.outlaws.state import CHARACTERS, COLUMNS, EMPTY, Position, left_of, other

KINDS = ("move", "look", "take", "ability", "end_turn")
TAKE_CALLS = {  # rule:O4 - who may take (and so call) which token
    "governor": ("election",),
    "hitman": ("vote", "bullet"),
    "sheriff": ("vote", "handcuffs"),
}
MAYOR_EXTENDS = ("sheriff", "indian", "journalist", "merchant")  # rule:O8 (not Hitman, Dancer, Bandit)
MAYOR_OPTIONAL = {"governor": "mayor_governor", "reverend": "mayor_reverend"}  # rule:O14, rule:O14-reverend
JOURNALIST_CALLS = tuple(c for c in CHARACTERS if c != "governor")  # rule:O-journalist


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
        if self.actor == "merchant":
            if self.reserve:
                return f"{who}{actor} swaps token {self.token_columns[0]} with the reserve{mayor}"
            return f"{who}{actor} swaps tokens {self.token_columns[0]} and {self.token_columns[1]}{mayor}"
        if self.actor == "governor":
            col = self.column if self.target is None else self.target
            return f"{who}{actor} claims the Election token {col}{mayor}"
        if self.actor == "dancer":
            return f"{who}{actor} pulls the opposing column {self.target} in front of her"
        if self.actor == "reverend":
            return f"{who}{actor} frees the bandit at column {self.target}{mayor}"
        call = f" calling {self.call}" if self.call else ""
        return f"{who}{actor} reveals the opposing column {self.target}{call}{mayor}"

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


def _in(col: int) -> bool:
    return 0 <= col < COLUMNS


def _mayor_column(pos: Position, side: str, col: int) -> int | None:
    """The column of ``side``'s Mayor when he stands immediately to the left of ``col`` (so ``col`` is to his right)."""
    m = left_of(side, col)
    if _in(m) and pos.street[side][m] == "mayor" and (side, "mayor") not in pos.immobilized:
        return m
    return None


def _movable(pos: Position, side: str, col: int) -> bool:
    """rule:O-immobilized: 'non può essere spostato': an immobilized character is never moved."""
    name = pos.street[side][col]
    return (side, name) not in pos.immobilized if name is not None else True


def _free_target(pos: Position, side: str, col: int, rules: Rules) -> bool:
    """An opposing character an ability may aim at (reveal, call, mark): any (rule:O15 default
    "allowed": the text limits what he does and what moves him), or not an immobilized one ("forbidden")."""
    return rules.target_immobilized == "allowed" or _movable(pos, side, col)


def legal_actions(pos: Position, rules: Rules = Rules()) -> tuple[Action, ...]:
    """Every legal action of ``pos.to_move`` (empty once the game is won)."""
    if pos.winner is not None:
        return ()
    side = pos.to_move
    opp = other(side)
    row = pos.street[side]
    out: list[Action] = []
    free = [c for c in range(COLUMNS) if not (row[c] is not None and (side, row[c]) in pos.immobilized)]
    out.extend(_moves(pos.saloon[side], row, tuple(free)))
    for c in free:
        actor = row[c]
        if actor is None:
            continue
        token = pos.tokens[c]
        if token != EMPTY:
            out.append(Action("look", actor, c))  # rule:O-look
            for call in TAKE_CALLS.get(actor, ()) + (("vote",) if actor not in ("governor", "hitman", "sheriff") else ()):
                if call == "election" and not pos.votes(side) > pos.votes(opp):
                    continue  # rule:O5
                out.append(Action("take", actor, c, call=call))  # rule:O-take
        out.extend(_abilities(pos, rules, side, opp, c, actor))
    if pos.actions_left == 1 and rules.actions_per_turn == "one_or_two":
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


def _targets(pos: Position, rules: Rules, opp: str, c: int, mayor: int | None) -> list[int]:
    """Opposing columns aimed at: across, or (Mayor, rule:O8) the two beside it."""
    cols = [c] if mayor is None else [t for t in (c - 1, c + 1) if _in(t)]
    return [t for t in cols if _free_target(pos, opp, t, rules)]


def _mayors(pos: Position, rules: Rules, side: str, c: int, actor: str) -> list[int | None]:
    """None (the plain ability) and, when the Mayor stands immediately to the actor's left and extends
    this actor (rule:O8; Governor and Reverend per rule:O14), the Mayor's column."""
    option = MAYOR_OPTIONAL.get(actor)
    if actor not in MAYOR_EXTENDS and (option is None or getattr(rules, option) != "extended"):
        return [None]
    m = _mayor_column(pos, side, c)
    return [None] if m is None else [None, m]


def _abilities(pos: Position, rules: Rules, side: str, opp: str, c: int, actor: str) -> list[Action]:
    sup = pos.supply[side]
    mayors = _mayors(pos, rules, side, c, actor)
    if actor == "governor":  # rule:O-governor, rule:O5, rule:O14
        return _governor(pos, side, opp, c, mayors)
    if actor == "merchant":  # rule:O-merchant
        return _merchant(pos, c, mayors)
    if actor == "reverend":  # rule:O-reverend, rule:O14
        return _reverend(pos, side, c, mayors)
    out: list[Action] = []
    if actor == "hitman":  # rule:O-hitman
        if sup.bullet > 0 and _free_target(pos, opp, c, rules):
            out.append(Action("ability", actor, c, target=c))
    elif actor == "sheriff":  # rule:O-sheriff
        if sup.handcuffs > 0:
            for m in mayors:
                for t in _targets(pos, rules, opp, c, m):
                    for call in ("hitman", "bandit"):
                        out.append(Action("ability", actor, c, call=call, target=t, mayor=m))
    elif actor == "indian":  # rule:O-indian
        for m in mayors:
            for t in _targets(pos, rules, opp, c, m):
                out.append(Action("ability", actor, c, target=t, mayor=m))
    elif actor == "dancer":  # rule:O9
        for j in (c - 2, c - 1, c + 1, c + 2):
            if _in(j) and all(_movable(pos, opp, k) for k in range(min(c, j), max(c, j) + 1)):
                out.append(Action("ability", actor, c, target=j))
    elif actor == "journalist":  # rule:O-journalist
        if sup.front_page > 0:
            for m in mayors:
                for t in _targets(pos, rules, opp, c, m):
                    if (opp, pos.street[opp][t]) in pos.front_page:
                        continue
                    for call in JOURNALIST_CALLS:
                        out.append(Action("ability", actor, c, call=call, target=t, mayor=m))
    elif actor == "bandit":  # rule:O-bandit
        if _free_target(pos, opp, c, rules):
            for call, token in (("hitman", "bullet"), ("sheriff", "handcuffs")):
                if rules.bandit_empty_supply == "forbidden" and getattr(pos.supply[opp], token) == 0:
                    continue  # rule:O10
                out.append(Action("ability", actor, c, call=call, target=c))
    return out


def _governor(pos: Position, side: str, opp: str, c: int, mayors: list) -> list[Action]:
    """rule:O5: with strictly more Votes, claim the token in front of him; with the Mayor (rule:O14)
    the token at column c-1 or c+1 (``target``)."""
    if not pos.votes(side) > pos.votes(opp):
        return []
    out = [Action("ability", "governor", c)] if pos.tokens[c] != EMPTY else []
    for m in mayors:
        if m is not None:
            out += [Action("ability", "governor", c, target=t, mayor=m)
                    for t in (c - 1, c + 1) if _in(t) and pos.tokens[t] != EMPTY]
    return out


def _merchant(pos: Position, c: int, mayors: list) -> list[Action]:
    """rule:O-merchant: two of the tokens c-1..c+1 (Mayor: c-2..c+2, one of them at distance 2), or one
    of them with the reserve."""
    out: list[Action] = []
    for m in mayors:
        reach = 1 if m is None else 2
        cols = [t for t in range(c - reach, c + reach + 1) if _in(t) and pos.tokens[t] != EMPTY]
        extended = (lambda t: abs(t - c) == 2) if m is not None else (lambda t: True)
        for n, i in enumerate(cols):
            for j in cols[n + 1:]:
                if extended(i) or extended(j):
                    out.append(Action("ability", "merchant", c, mayor=m, token_columns=(i, j)))
        if pos.reserve:
            for t in cols:
                if extended(t):
                    out.append(Action("ability", "merchant", c, mayor=m, token_columns=(t,), reserve=True))
    return out


def _reverend(pos: Position, side: str, c: int, mayors: list) -> list[Action]:
    """rule:O-reverend: free the own immobilized Bandit immediately to his left; with the Mayor
    (immediately to his left, rule:O14-reverend) the Bandit two places to his left."""
    out = []
    for m in mayors:
        b = left_of(side, c if m is None else m)
        if _in(b) and pos.street[side][b] == "bandit" and (side, "bandit") in pos.immobilized:
            out.append(Action("ability", "reverend", c, target=b, mayor=m))
    return out
