"""What the characters' abilities share (rule:O-actions): the :class:`Character` record, aiming (the columns an
ability may reach, with the Mayor's extension, rule:O8, and immobilized targets, rule:O15) and resolving (a hidden
character or token revealed as a decision, what each player learns, rule:O-knowledge, taking a token and refilling
the row, rule:O2, the Reverend's cancellation, rule:O7, a player's reaction).

A decider ``d`` answers every decision while an action resolves: ``d.choose(label, options, chance)`` with
options ``[(text, weight, value)]`` (:class:`solver.outlaws.apply.Decider`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from solver.outlaws.position import (
    CHARACTERS,
    COLUMNS,
    EMPTY,
    Knowledge,
    PerSide,
    Position,
    evolve,
    left_of,
    right_of,
    unknown_characters,
    unknown_token_pool,
)
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.victory_names import Way


@dataclass(frozen=True)
class Character:
    """One character of the table (:data:`solver.outlaws.characters.TABLE`): its ability's legal actions and
    resolution side by side, with its words and its Z3 transition.

    - ``name``: the contracts.md name; ``rule``: the register id of its ability (docs/register/outlaws.toml).
    - ``takes``: the tokens it may call when it takes one (rule:O4).
    - ``mayor``: whether the Mayor standing immediately to its left extends its ability (rule:O8): True, False,
      or the name of the reading that decides (rule:O14: ``"mayor_governor"``, ``"mayor_reverend"``).
    - ``targets(aim)``: its ability actions from where it stands (:class:`Aim`), every distinct choice once.
    - ``resolve(pos, action, readings, d)``: the position after its ability, asking ``d`` at each decision.
    - ``words(action)``: what its ability action does, after "the X (column c) " (``Action.describe``).
    - ``z3_step(model, pre, side)``: its ability as a Z3 transition (:mod:`solver.outlaws.verify`), written
      from the rulebook apart from ``resolve`` and cross-checked against the engine; None: no ability of its own.
    - ``model_words(params, side)``: what its ``z3_step``'s action does, from the model's parameters (the column
      ``c``, ``ext``, ``call``, ...), after "the X (column c) ": the Verification page's counterexample sentence
      (:mod:`dashboard.outlaws.counterexample`); given exactly when ``z3_step`` is.
    - ``reacts``: resolving its ability may ask a player to choose (the Sheriff's save, the Reverend's
      cancellation, immobilizing the Bandit: rule:O6, rule:O7, rule:O16), so its plays carry reaction answers.
    """

    name: str
    rule: str
    takes: tuple[str, ...]
    mayor: bool | str
    targets: Callable[[Aim], list]
    resolve: Callable[..., Position]
    words: Callable[[Any], str]
    z3_step: Callable | None = None
    reacts: bool = False
    model_words: Callable[[Mapping[str, Any], str], str] | None = None

    def extended_by_mayor(self, readings: OutlawsReadings) -> bool:
        """rule:O8, rule:O14: the Mayor may extend this ability under ``readings``."""
        return self.mayor if isinstance(self.mayor, bool) else getattr(readings, self.mayor) == "extended"


@dataclass(frozen=True)
class Aim:
    """A character about to use its ability: the position, the readings, its side and the opponent, its
    column, the Mayor's columns it may use (None: the plain ability; a column: the Mayor standing there extends
    it) and ``make(**fields)``, which builds the ability action (kind, actor and column filled in)."""

    pos: Position
    readings: OutlawsReadings
    side: str
    opp: str
    column: int
    mayors: tuple
    make: Callable[..., Any]


# ---------------------------------------------------------------- aiming


def on_street(col: int) -> bool:
    return 0 <= col < COLUMNS


def mayor_column(pos: Position, side: str, col: int) -> int | None:
    """The column of ``side``'s Mayor when he stands immediately to the left of ``col`` (so ``col`` is to his right)."""
    m = left_of(side, col)
    if on_street(m) and pos.street[side][m] == "mayor" and (side, "mayor") not in pos.immobilized:
        return m
    return None


def mayors(pos: Position, readings: OutlawsReadings, side: str, col: int, who: Character) -> tuple:
    """None (the plain ability) and, when the Mayor stands immediately to the left of ``who`` at ``col`` and
    extends it (rule:O8; the Governor and the Reverend per rule:O14), the Mayor's column."""
    if not who.extended_by_mayor(readings):
        return (None,)
    m = mayor_column(pos, side, col)
    return (None,) if m is None else (None, m)


def movable(pos: Position, side: str, col: int) -> bool:
    """rule:O-immobilized: 'non può essere spostato': an immobilized character is never moved."""
    name = pos.street[side][col]
    return (side, name) not in pos.immobilized if name is not None else True


def free_target(pos: Position, side: str, col: int, readings: OutlawsReadings) -> bool:
    """An opposing character an ability may aim at (reveal, call, mark): any (rule:O15 default
    "allowed": the text limits what he does and what moves him), or not an immobilized one ("forbidden")."""
    return readings.target_immobilized == "allowed" or movable(pos, side, col)


def across(aim: Aim, mayor: int | None) -> list[int]:
    """Opposing columns aimed at: across, or (Mayor, rule:O8) the two beside it."""
    c = aim.column
    cols = [c] if mayor is None else [t for t in (c - 1, c + 1) if on_street(t)]
    return [t for t in cols if free_target(aim.pos, aim.opp, t, aim.readings)]


def nothing(*_args) -> list:
    """No ability action (the Mayor has no ability of his own: rule:O8)."""
    return []


# ---------------------------------------------------------------- resolving


def spend(pos: Position, side: str, token: str) -> Position:
    """``side`` discards one of its ``token``s (a Bullet or Handcuffs used)."""
    return evolve(pos, supply=pos.supply.set(side, pos.supply[side].add(token, -1)), discard=pos.discard.add(token))


def learn_char(pos: Position, learner: str, col: int) -> Position:
    """``learner`` now knows the opposing character at ``col`` (rule:O-knowledge)."""
    k = pos.knowledge[learner]
    if col in k.characters:
        return pos
    return evolve(pos, knowledge=pos.knowledge.set(learner, evolve(k, characters=k.characters | {col})))


def forget_chars(pos: Position, learner: str, cols) -> Position:
    k = pos.knowledge[learner]
    return evolve(pos, knowledge=pos.knowledge.set(learner, evolve(k, characters=k.characters - set(cols))))


def learn_token(pos: Position, learner: str, col: int) -> Position:
    k = pos.knowledge[learner]
    return evolve(pos, knowledge=pos.knowledge.set(learner, evolve(k, tokens=k.tokens | {col})))


def map_tokens_knowledge(pos: Position, mapping: Callable[[int], int | None]) -> Position:
    """Move both players' token knowledge along with the tokens (``mapping``: old column -> new or None)."""
    ks = []
    for k in pos.knowledge:
        new = frozenset(m for m in (mapping(c) for c in k.tokens) if m is not None)
        ks.append(Knowledge(k.characters, new))
    return evolve(pos, knowledge=PerSide(*ks))


def reveal_char(pos: Position, side: str, col: int, d) -> tuple[Position, str]:
    """The identity of ``side``'s character at ``col``; a hidden one becomes a decision."""
    name = pos.street[side][col]
    if name is not None:
        return pos, name
    opts = [(c, 1, c) for c in unknown_characters(pos, side)]
    name = d.choose(f"{side} column {col} is", opts, True)
    row = list(pos.street[side])
    row[col] = name
    return evolve(pos, street=pos.street.set(side, tuple(row))), name


def reveal_token(pos: Position, col: int, d) -> tuple[Position, str]:
    tok = pos.tokens[col]
    if tok is not None:
        return pos, tok
    pool = unknown_token_pool(pos)
    tok = d.choose(f"token {col} is", [(k, n, k) for k, n in pool.items()], True)
    toks = list(pos.tokens)
    toks[col] = tok
    return evolve(pos, tokens=tuple(toks)), tok


def draw_reserve(pos: Position, d) -> tuple[Position, str]:
    """rule:O2: a random token from the face-down reserve (hidden entries resolved from the unknown pool)."""
    counts: dict = {}
    for t in pos.reserve:
        counts[t] = counts.get(t, 0) + 1
    opts = [(str(t) if t is not None else "an unknown token", n, t) for t, n in counts.items()]
    tok = d.choose("reserve draw", opts, True)
    rest = list(pos.reserve)
    rest.remove(tok)
    pos = evolve(pos, reserve=tuple(rest))
    if tok is None:
        pool = unknown_token_pool(pos)
        # the drawn token is no longer an unknown slot: the pool counts one slot fewer once placed
        tok = d.choose("which is", [(k, n, k) for k, n in pool.items()], True)
    return pos, tok


def refill(pos: Position, k: int, readings: OutlawsReadings, d) -> Position:
    """rule:O2: after the token at column k is taken, tokens 0..k-1 slide one column toward k and a
    reserve token fills column 0; empty reserve: column 0 stays empty (default) or the tokens beyond
    k slide toward it and column 7 stays empty (``refill_empty_reserve``)."""
    toks = list(pos.tokens)
    if not pos.reserve and readings.refill_empty_reserve == "slide_other_end":
        for j in range(k, COLUMNS - 1):
            toks[j] = toks[j + 1]
        toks[COLUMNS - 1] = EMPTY
        pos = evolve(pos, tokens=tuple(toks))
        return map_tokens_knowledge(pos, lambda c: None if c == k else (c - 1 if c > k else c))
    for j in range(k, 0, -1):
        toks[j] = toks[j - 1]
    toks[0] = EMPTY
    pos = evolve(pos, tokens=tuple(toks))
    pos = map_tokens_knowledge(pos, lambda c: None if c == k else (c + 1 if c < k else c))
    if pos.reserve:
        pos, new = draw_reserve(pos, d)
        toks = list(pos.tokens)
        toks[0] = new
        pos = evolve(pos, tokens=tuple(toks))
    return pos


def take(pos: Position, side: str, col: int, readings: OutlawsReadings, d) -> Position:
    """A successful take: the token goes to the side's supply, then the row refills (rule:O2)."""
    kind = pos.tokens[col]
    pos = evolve(pos, supply=pos.supply.set(side, pos.supply[side].add(kind)))
    if kind == "election" and not pos.sudden_death:
        pos = evolve(pos, winner=side, victory=Way.GOOD)  # rule:O-victory-good
    return refill(pos, col, readings, d)


def stands(pos: Position, side: str, col: int, name: str, d) -> tuple[Position, bool]:
    """Whether ``side``'s ``name`` (not immobilized) stands at ``col``; a hidden column that could be
    him becomes a decision."""
    if not 0 <= col < COLUMNS or (side, name) in pos.immobilized:
        return pos, False
    if pos.street[side][col] is None and name in unknown_characters(pos, side):
        pos, _ = reveal_char(pos, side, col, d)
    return pos, pos.street[side][col] == name


def reverend_can_cancel(pos: Position, owner: str, target_col: int, sheriff_col: int, readings: OutlawsReadings,
                         d) -> tuple[Position, int | None, int | None]:
    """rule:O7: ``owner``'s Reverend standing so that the arrested/immobilized character (default) or the
    arresting Sheriff (alternative) is immediately to his left; with ``mayor_reverend="extended"``
    (rule:O14-reverend) also two places to his left with his Mayor immediately to his left. Returns
    (position, the Reverend's column or None, the Mayor's column or None)."""
    anchor = target_col if readings.reverend_left_of == "target" else sheriff_col
    r = right_of(owner, anchor)
    pos, here = stands(pos, owner, r, "reverend", d)
    if here or readings.mayor_reverend != "extended":
        return pos, (r if here else None), None
    r2 = right_of(owner, r)
    pos, far = stands(pos, owner, r2, "reverend", d)
    if not far:
        return pos, None, None
    pos, mayor = stands(pos, owner, r, "mayor", d)
    return pos, (r2 if mayor else None), (r if mayor else None)


def cancel(pos: Position, learner: str, rev: int, mayor: int | None) -> Position:
    """The Reverend (and the Mayor extending him) are revealed to ``learner`` by the cancellation."""
    pos = learn_char(pos, learner, rev)
    return pos if mayor is None else learn_char(pos, learner, mayor)


def react(d, side: str, yes: str, no: str) -> bool:
    return d.choose("", [(f"{side} {yes}", 1, True), (f"{side} {no}", 1, False)], False)


# ---------------------------------------------------------------- the Z3 model's action in words

TOKEN_NAMES = {"vote": "Vote", "bullet": "Bullet", "handcuffs": "Handcuffs", "x": "Bogus X", "election": "Election"}
"""A token as a player names it."""


def model_char(code: Any) -> str:
    """A character code of the Z3 model (its place in the box's roster) as the character's name."""
    return CHARACTERS[code] if isinstance(code, int) and 0 <= code < len(CHARACTERS) else str(code)


def model_token(code: Any) -> str:
    """A token code of the Z3 model as a player names the token ("Bogus X")."""
    from solver.outlaws.verify.symbolic import TOKS

    name = TOKS[code] if isinstance(code, int) and 0 <= code < len(TOKS) else str(code)
    return TOKEN_NAMES.get(name, name)


def model_target(p: Mapping[str, Any]) -> Any:
    """The column a model's ability aims at: its own ``c``, moved by the Mayor's ``ext`` (rule:O8) when it has one."""
    c, ext = p.get("c"), p.get("ext")
    return c + ext if isinstance(c, int) and isinstance(ext, int) else c


def by_mayor(p: Mapping[str, Any]) -> str:
    """", extended by the mayor" when the model's Mayor extended the ability (rule:O8)."""
    return ", extended by the mayor" if p.get("ext") not in (None, 0) else ""


def cancelled(p: Mapping[str, Any]) -> str:
    """"; the Reverend cancels it" when the model's Reverend cancelled the ability's effect (rule:O7)."""
    return "; the Reverend cancels it" if p.get("cancel") else ""
