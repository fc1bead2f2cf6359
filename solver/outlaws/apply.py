"""Resolving an action: :func:`outcomes` lists every way hidden information, chance and the
reactions can make it end; :func:`apply` picks one; :func:`step` samples one (random playouts).

The resolution is one pure function (:func:`resolve`) that asks a *decider* at each decision point:
a hidden character or token being revealed (``None`` in the position), a token drawn from the face-down
reserve (rule:O2), the sudden-death shuffle (rule:O11), the reactions of rule:O6 and rule:O7, and the
optional effects of rule:O16 (keeping a token, immobilizing the Bandit), which are a player's choice
and appear as separate outcomes (chooser named in the condition: "B saves ..."/"B does not save ...",
"A keeps the token"/"A puts the token back"). :func:`outcomes` walks every decision path.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from solver.contract import draw
from solver.errors import BadInput
from solver.outlaws.actions import Action, legal_actions
from solver.outlaws.characters import TABLE
from solver.outlaws.characters.common import forget_chars, learn_char, learn_token, react, reveal_token, take
from solver.outlaws.position import COLUMNS, Position, evolve, other
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.victory import apply_sudden_death, set_aside, sudden_death_trigger


@dataclass(frozen=True)
class Outcome:
    """One way an action can end: ``condition`` names the hidden facts, draws and reactions that lead
    here; ``probability`` is the chance of the draws/hidden facts given the reactions chosen."""

    condition: str
    position: Position
    probability: Fraction = Fraction(1)


class Decider:
    """Chooses at decision points: ``choose(label, options, chance)`` with options [(text, weight, value)]."""

    def choose(self, label: str, options: list, chance: bool):  # pragma: no cover - interface
        raise NotImplementedError


class Scripted(Decider):
    """Answers by option index from ``prefix`` (0 past its end), recording each question's option count, the
    answers' words and the chance of the path (kept as an integer ratio: the searches walk millions of paths)."""

    def __init__(self, prefix: list[int]):
        self.prefix, self.k = prefix, 0
        self.sizes: list[int] = []
        self.labels: list[str] = []
        self._num, self._den = 1, 1

    @property
    def prob(self) -> Fraction:
        return Fraction(self._num, self._den)

    def choose(self, label, options, chance):
        idx = self.prefix[self.k] if self.k < len(self.prefix) else 0
        self.k += 1
        self.sizes.append(len(options))
        text, weight, value = options[idx]
        if not label:
            self.labels.append(text)
        else:
            self.labels.append(f"{label} {text}" if label.endswith(" is") else f"{label}: {text}")
        if chance:
            self._num *= weight
            self._den *= sum(w for _, w, _ in options)
        return value


class _Random(Decider):
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, label, options, chance):
        if len(options) == 1:
            return options[0][2]
        if chance:
            return options[draw([w for _, w, _ in options], self.rng)][2]
        return self.rng.choice(options)[2]


def outcomes(pos: Position, action: Action, readings: OutlawsReadings = OutlawsReadings(), check: bool = True) -> tuple[Outcome, ...]:
    """Every outcome of ``action`` in ``pos`` (one when nothing hidden, random or reactive is involved).
    ``check=False`` skips re-checking legality (for callers iterating :func:`legal_actions`)."""
    if check:
        _check_legal(pos, action, readings)
    found = [Outcome("; ".join(d.labels) or "certain", result, d.prob)
             for d, result in resolutions(pos, action, readings, Scripted)]
    found.sort(key=lambda o: o.condition)
    return tuple(found)


def resolutions(pos: Position, action: Action, readings: OutlawsReadings, decider: Callable[[list[int]], Decider],
                keep: Callable[[Position], bool] | None = None):
    """Every path of ``action``'s resolution as ``(decider, position)``: ``decider(prefix)`` answers the
    questions of one path by option index from ``prefix`` (0 past its end) and records each question's
    option count in ``sizes``; the walk then visits every other answer, depth first (the one outcome walk
    of :func:`outcomes`, the search's expansion and the game's reaction plans). ``keep`` (the searches) sees
    each position the action's own effects lead to (:func:`act`); the paths after one it refuses are left out."""
    stack: list[list[int]] = [[]]
    acted: tuple | None = None  # the last action part run: (its answers, its questions, the position after it)
    while stack:
        prefix = stack.pop()
        d = decider(prefix)
        if acted is not None and _answers(prefix, len(acted[0])) == acted[0]:
            for question in acted[1]:  # the same answers: the same action part, asked again only for the record
                d.choose(*question)
            mid = acted[2]
        else:
            rec = _Recording(d)
            mid = act(pos, action, readings, rec)
            acted = (_answers(prefix, len(rec.asked)), tuple(rec.asked), mid)
            if keep is not None and not keep(mid):
                _push_other_answers(stack, prefix, d.sizes)
                continue
        result = finish(mid, readings, d)
        yield d, result
        _push_other_answers(stack, prefix, d.sizes)


def _push_other_answers(stack: list, prefix: list[int], sizes: list[int]) -> None:
    """Queue every path that answers one question after ``prefix`` otherwise (depth first, first answers first)."""
    path = prefix + [0] * (len(sizes) - len(prefix))
    for k in range(len(sizes) - 1, len(prefix) - 1, -1):
        for idx in range(sizes[k] - 1, 0, -1):
            stack.append(path[:k] + [idx])


def _answers(prefix: list[int], n: int) -> tuple:
    """The option indices a walk's decider gives the first ``n`` questions (0 past the prefix's end)."""
    return tuple(prefix[:n]) + (0,) * (n - len(prefix))


class _Recording(Decider):
    """Passes every question on to ``inner`` and keeps it, so the walk can ask it again (:func:`resolutions`:
    the paths that differ only after the action part, as the 560 sudden-death layouts do, run it once)."""

    def __init__(self, inner: Decider):
        self.inner, self.asked = inner, []

    def choose(self, label, options, chance):
        self.asked.append((label, options, chance))
        return self.inner.choose(label, options, chance)


def apply(pos: Position, action: Action, readings: OutlawsReadings = OutlawsReadings(), outcome: int = 0) -> Position:
    """The position after ``action`` with outcome number ``outcome`` of :func:`outcomes`."""
    outs = outcomes(pos, action, readings)
    if not 0 <= outcome < len(outs):
        raise BadInput(f"outcome {outcome} out of range: this action has {len(outs)} outcome(s)")
    return outs[outcome].position


def step(pos: Position, action: Action, readings: OutlawsReadings, rng: random.Random) -> Position:
    """One sampled outcome: draws by their chance, reactions chosen uniformly (random playouts).
    Trusts that ``action`` came from :func:`legal_actions`."""
    return resolve(pos, action, readings, _Random(rng))


def _check_legal(pos: Position, action: Action, readings: OutlawsReadings) -> None:
    if action not in legal_actions(pos, readings):
        raise BadInput(f"illegal action for {pos.to_move} in this position: {action.to_json()}")


# ---------------------------------------------------------------- the resolution


def resolve(pos: Position, a: Action, readings: OutlawsReadings, d: Decider) -> Position:
    """The position after ``a``, asking ``d`` at every hidden reveal, draw, reaction and optional
    effect (module docstring): the one resolution :func:`outcomes`, :func:`apply`, :func:`step` and the
    game and line modules share: the action's own effects (:func:`act`), then :func:`finish`."""
    return finish(act(pos, a, readings, d), readings, d)


def finish(pos: Position, readings: OutlawsReadings, d: Decider) -> Position:
    """After an action's own effects: sudden death when its trigger holds (rule:O11), then the turn."""
    if pos.winner is None and sudden_death_trigger(pos, readings):  # rule:O11
        pos = _sudden_death(pos, d)
    return _next_turn(pos)


def unlaid_sudden_death(pos: Position) -> Position:
    """What :func:`finish` makes of ``pos`` when its sudden-death trigger holds, the 8 new tokens not yet laid
    (face down, unknown to everyone: ``None``) (rule:O11): one position standing for the 560 layouts (a search's
    estimate of it is at most each layout's)."""
    return _next_turn(evolve(set_aside(pos), tokens=(None,) * COLUMNS))


def act(pos: Position, a: Action, readings: OutlawsReadings, d: Decider) -> Position:
    """The action's own effects (rule:O-actions), before sudden death and the turn (:func:`finish`)."""
    side = pos.to_move
    opp = other(side)
    if a.kind == "end_turn":  # rule:O17: nothing changes; with one action left, the turn passes
        pass
    elif a.kind == "move":
        pos = _move(pos, side, opp, a)
    else:
        pos = learn_char(pos, opp, a.column)  # the actor is revealed to the opponent
        if a.mayor is not None:
            pos = learn_char(pos, opp, a.mayor)  # rule:O8: the Mayor is revealed too
        if a.kind == "look":  # rule:O-look
            pos, _ = reveal_token(pos, a.column, d)
            pos = learn_token(pos, side, a.column)
        elif a.kind == "take":  # rule:O-take, rule:O3
            pos, tok = reveal_token(pos, a.column, d)
            if tok == a.call and _keeps(d, side, readings):
                pos = take(pos, side, a.column, readings, d)
            else:
                pos = learn_token(learn_token(pos, side, a.column), opp, a.column)
        else:
            pos = TABLE[a.actor].resolve(pos, a, readings, d)  # its ability (solver.outlaws.characters)
    return pos


def _keeps(d: Decider, side: str, readings: OutlawsReadings) -> bool:
    """rule:O16: 'puoi tenere il gettone': keeping a correctly called token is the taker's choice
    (declined: it goes back face down in place, seen by both), or always ("always")."""
    return readings.optional_effects == "always" or react(d, side, "keeps the token", "puts the token back")


def _next_turn(pos: Position) -> Position:
    """rule:O-turn, rule:O17: two actions per turn, then the other player (a turn ended after one
    action is the ``end_turn`` action)."""
    if pos.winner is not None:
        return pos
    if pos.actions_left > 1:
        return evolve(pos, actions_left=pos.actions_left - 1)
    return evolve(pos, to_move=other(pos.to_move), actions_left=2)


def _sudden_death(pos: Position, d: Decider) -> Position:
    """rule:O11: the 3 Bullets, 3 Handcuffs and 2 Bogus are shuffled face down onto the 8 columns."""
    left = (3, 3, 2)  # Bullets, Handcuffs, Bogus still to lay
    order = []
    for col in range(COLUMNS):
        options, after = _lay_options(left)
        tok = d.choose(_LAY_LABELS[col], options, True)
        left = after[tok]
        order.append(tok)
    return apply_sudden_death(pos, order)


_LAID = ("bullet", "handcuffs", "x")
_LAY_LABELS = tuple(f"sudden death column {col}" for col in range(COLUMNS))


@cache
def _lay_options(left: tuple) -> tuple[list, dict]:
    """The tokens still to lay at sudden death, each weighted by how many are left, and what is left after
    laying each (shared, never changed)."""
    options = [(k, n, k) for k, n in zip(_LAID, left) if n > 0]
    return options, {k: tuple(n - (j == k) for j, n in zip(_LAID, left)) for k, _, _ in options}


def _move(pos: Position, side: str, opp: str, a: Action) -> Position:
    """rule:O-move, rule:O-saloon: swap (or not) two own street characters, or leave the Saloon."""
    i, j = a.columns
    row = list(pos.street[side])
    if a.from_saloon is not None:
        row[i], row[j] = a.placement
        saloon = tuple(sorted([n for n in pos.saloon[side] if n != a.from_saloon] + [a.saloon]))
        pos = evolve(pos, saloon=pos.saloon.set(side, saloon))
    elif a.swap:
        row[i], row[j] = row[j], row[i]
    pos = evolve(pos, street=pos.street.set(side, tuple(row)))
    pos = forget_chars(pos, opp, (i, j))
    for col in (i, j):  # rule:O-knowledge: a face-up (marked) character stays known where it goes
        if pos.face_up(side, row[col]):
            pos = learn_char(pos, opp, col)
    return pos
