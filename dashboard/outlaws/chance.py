"""The chance a play leaves open, as the table meets it.

The engine lists every outcome of a play (:func:`solver.outlaws.line.outcome_texts`). When a play begins sudden
death (rule O11), the 3 Bullets, 3 Handcuffs and 2 Bogus X are laid face down in one of 8!/(3!3!2!) = 560
equally likely orders, so the outcomes come in groups that differ only in that lay. At the table the tokens are
simply laid at random: the page offers that as ONE chance step ("laid at random"), with "I saw them" to say the
token of each column; the other chance in the play (a hidden token revealed, a reserve draw) stays a choice among
a few outcomes. This module only groups the engine's outcomes and finds the one a lay names; it decides no rule.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from solver.errors import BadInput
from solver.outlaws import game as gm
from solver.outlaws.victory import SUDDEN_DEATH_TOKENS

LAY_PART = re.compile(r"sudden death lays (?:a |an |the )?([\w ]+?) on column (\d)")
"""One column of a lay in the engine's outcome words (solver.outlaws.line)."""
LAID = Counter(SUDDEN_DEATH_TOKENS)
"""The tokens a sudden-death lay puts on the 8 columns (rule O11)."""


@dataclass(frozen=True)
class Group:
    """Outcomes of one play that differ only in a sudden-death lay (``lay``), or a single outcome (not ``lay``):
    ``members`` are indices into the play's outcomes, ``chance`` their summed chance, ``text`` the words for what
    the group has in common."""

    members: tuple[int, ...]
    chance: Fraction
    text: str
    lay: bool


def _is_lay(before: gm.Game, after: gm.Game) -> bool:
    """The outcome lays sudden death's tokens: in force after it, and the 8 columns hold exactly its tokens."""
    pos = after.position
    return pos.sudden_death and Counter(pos.tokens) == LAID and (
        not before.position.sudden_death or pos.tokens != before.position.tokens)


def without_lay(text: str) -> str:
    """The outcome's words without its eight "sudden death lays ... on column n" parts."""
    parts = [p for p in text.split("; ") if not LAY_PART.fullmatch(p)]
    out = "; ".join(parts)
    return out[:1].upper() + out[1:]


def compact(text: str) -> str:
    """The outcome's words with a lay said once: "sudden death lays, columns 0-7: Bullet, Bullet, ..."."""
    laid = [LAY_PART.fullmatch(p) for p in text.split("; ")]
    found = [m for m in laid if m]
    if not found:
        return text
    rest = without_lay(text)
    lay = "sudden death lays, columns 0-7: " + ", ".join(m[1] for m in sorted(found, key=lambda m: int(m[2])))
    return f"{rest}; {lay}" if rest else lay[:1].upper() + lay[1:]


def groups(game: gm.Game, outs: list[tuple[Fraction, gm.Game, str]]) -> list[Group]:
    """The play's outcomes grouped: those that differ only in a sudden-death lay form one group."""
    keyed: dict[object, list[int]] = {}
    for i, (_p, after, _t) in enumerate(outs):
        lay = _is_lay(game, after)
        key = (dataclasses.replace(after.position, tokens=()), True) if lay else (i, False)
        keyed.setdefault(key, []).append(i)
    out = []
    for (_key, lay), members in keyed.items():
        chance = sum((outs[i][0] for i in members), Fraction(0))
        text = without_lay(outs[members[0]][2]) if lay else outs[members[0]][2]
        out.append(Group(tuple(members), chance, text, lay and len(members) > 1))
    return out


def laid_at(outs: list[tuple[Fraction, gm.Game, str]], group: Group, tokens: list[str]) -> int:
    """The outcome of ``group`` whose lay puts ``tokens`` (one per column, 0-7) on the street; BadInput naming the
    mismatch when no lay puts them there (3 Bullets, 3 Handcuffs and 2 Bogus X)."""
    want = Counter(tokens)
    if want != LAID:
        names = {"bullet": "Bullets", "handcuffs": "Handcuffs", "x": "Bogus X"}
        wrong = [f"{want.get(k, 0)} {names.get(k, k)} (the lay has {n})" for k, n in LAID.items() if want.get(k, 0) != n]
        raise BadInput("the tokens chosen are not a sudden-death lay: " + ", ".join(wrong))
    for i in group.members:
        if list(outs[i][1].position.tokens) == list(tokens):
            return i
    raise BadInput("no outcome of this play lays these tokens")
