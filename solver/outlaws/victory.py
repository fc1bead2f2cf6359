"""Victories and sudden death (rule:O-victory-good, rule:O-victory-bad, rule:O-victory-ugly, rule:O11).

The victory itself is decided while an action resolves (:mod:`solver.outlaws.apply`) and recorded in
the position (``winner``, ``victory``); :func:`winner` reads it. The three victories' names (the value a
position and ``outlaws status --json`` carry, the Italian rulebook's name, the English edition's name, what
wins it) live in one place, :mod:`solver.outlaws.victory_names`, re-exported here; every text shown to a
player reads them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from solver.contract import Outcome
from solver.errors import BadInput
from solver.outlaws.position import (
    COLUMNS,
    EMPTY,
    Discard,
    Knowledge,
    PerSide,
    Position,
    Side,
    evolve,
    unknown_token_pool,
)
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.victory_names import (
    VICTORY_BY_VALUE,
    WAYS_TO_WIN,
    Victory,
    Way,
    sudden_death_victories,
    victory_name,
    victory_words,
)

__all__ = ["SUDDEN_DEATH_TOKENS", "Victory", "WAYS_TO_WIN", "VICTORY_BY_VALUE", "victory_name", "victory_words",
           "sudden_death_victories", "winner", "sudden_death_trigger", "sudden_death_began", "apply_sudden_death",
           "set_aside"]

SUDDEN_DEATH_TOKENS = ("bullet",) * 3 + ("handcuffs",) * 3 + ("x",) * 2
_LAID = {k: SUDDEN_DEATH_TOKENS.count(k) for k in ("bullet", "handcuffs", "x")}


def winner(pos: Position) -> Outcome | None:
    """How the game ended once it is won, else None: ``Outcome(Side, Way)``, a pair ``(side, "good"|"bad"|"ugly")``
    (the values of :data:`WAYS_TO_WIN`). After sudden death only Con le Brutte (Bad) and Con le Cattive (Ugly)
    victories exist (rule:O11)."""
    if pos.winner is None:
        return None
    return Outcome(Side(pos.winner), Way(pos.victory))


def sudden_death_trigger(pos: Position, readings=None) -> bool:
    """rule:O11: both sides hold 3 Votes and no Bullet or Handcuffs is left anywhere but the discard
    (all 3 + 3 discarded), while nobody has won. "Non appena l'ultimo di questi gettoni sia stato
    reclamato/utilizzato": by default (``readings.sudden_death_repeats == "repeats"``) it holds every time
    the condition holds again; with "once" never after a first sudden death. ``readings=None`` is the
    default :class:`~solver.outlaws.readings.OutlawsReadings`."""
    readings = readings if readings is not None else OutlawsReadings()
    if pos.winner is not None:
        return False
    if pos.sudden_death and readings.sudden_death_repeats == "once":
        return False
    if pos.supply.A.vote != 3 or pos.supply.B.vote != 3:
        return False
    return pos.discard.bullet == 3 and pos.discard.handcuffs == 3


def sudden_death_began(before: Position, after: Position) -> bool:
    """Whether the action that led from ``before`` to ``after`` triggered sudden death (rule:O11): it is in force
    after and was not before, or it began again (``sudden_death_repeats="repeats"``): the three Bullets laid on the
    street again leave the discard, which nothing else empties (a used Bullet "resta negli scarti")."""
    return after.sudden_death and (not before.sudden_death or after.discard.bullet < before.discard.bullet)


def apply_sudden_death(pos: Position, rng_or_order: random.Random | Sequence[str] | int | None = None) -> Position:
    """rule:O11: clear the street tokens and the reserve (set aside in the discard), then lay 3 Bullets,
    3 Handcuffs and 2 Bogus face down on the 8 columns, in ``rng_or_order`` (a sequence of 8 token
    names) or shuffled by it (a ``random.Random`` or a seed). Nobody has seen the new tokens."""
    if isinstance(rng_or_order, (list, tuple)):
        order = [str(t) for t in rng_or_order]
        if sorted(order) != sorted(SUDDEN_DEATH_TOKENS):
            raise BadInput(f"sudden death order must be 3 bullet, 3 handcuffs and 2 x, got {order}")
    else:
        rng = rng_or_order if isinstance(rng_or_order, random.Random) else random.Random(rng_or_order)
        order = list(SUDDEN_DEATH_TOKENS)
        rng.shuffle(order)
    return evolve(set_aside(pos), tokens=tuple(order[:COLUMNS]))


def set_aside(pos: Position) -> Position:
    """rule:O11: the street tokens and the reserve set aside in the discard (less the 3 Bullets, 3 Handcuffs
    and 2 Bogus that are laid again), nothing seen any more; the street's tokens are laid by
    :func:`apply_sudden_death`. The last result is kept: the 560 layouts of one position share it."""
    global _LAST_SET_ASIDE
    if _LAST_SET_ASIDE[0] is pos:
        return _LAST_SET_ASIDE[1]
    discard = pos.discard.to_json()  # every count, built into one Discard below
    for t in pos.tokens + pos.reserve:
        if t is not None and t != EMPTY:
            discard[t] += 1
    if None in pos.tokens or None in pos.reserve:
        for k, n in unknown_token_pool(pos).items():
            discard[k] += n  # unknown slots hold exactly the missing tokens
    for k, need in _LAID.items():
        if discard[k] < need:
            raise BadInput(f"sudden death needs {need} {k} tokens set aside, only {discard[k]} are")
        discard[k] -= need
    knowledge = PerSide(*(Knowledge(k.characters, frozenset()) for k in pos.knowledge))
    out = evolve(pos, reserve=(), discard=Discard(**discard), sudden_death=True, knowledge=knowledge)
    _LAST_SET_ASIDE = (pos, out)
    return out


_LAST_SET_ASIDE: tuple = (None, None)
