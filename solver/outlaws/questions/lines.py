"""The lines-of-play domain: every line of up to N actions from a position (the set-up of a seed, an example position
of ``scenarios/outlaws/``, a position file or a position document), with both sides' choices and every chance
outcome, walked through the game contract (:mod:`solver.outlaws.game`: ``legal_actions``, ``outcomes`` with exact
chances); it models no rule of its own.

A line ends after N actions or when the game is won. Its weight (``choices = "uniform"``, the one offered) is its
chance when each side picks uniformly among its legal actions (a play with its reaction answers, rule:O6, rule:O7,
rule:O16) and chance follows its exact odds (hidden characters and tokens, reserve draws rule:O2, the sudden-death
shuffle rule:O11): the weights sum to 1, so a chance is an exact fraction. Is there / for every / most / least do
not read the weights.

``size()`` starts from Knuth's seeded estimate of the tree's size (random probes, each multiplying the branching it
meets). Above :data:`MOST` it is that estimate, rounded to two digits: a question is refused with it, or a chance is
estimated from seeded random playouts (:meth:`LinesDomain.sample`, the same uniform choices). Up to an eighth of
:data:`MOST` the lines are counted exactly (counting costs as much as the contract's expansion); in between, or when
the count passes twice the estimate's bound, ``None``: unknown until enumerated, under the time limit, and refused
(BadInput) once the enumeration passes :data:`MOST` (the estimate can be low: the 560 sudden-death layouts hide behind
few plays).

The witness is the line as the Outlaws table replays it (:func:`solver.outlaws.line.line_to_json`)::

    {"format": "outlaws-line", "start": {"game": "outlaws", "position": {...}, "rules": {...}},
     "steps": [{"action": {"kind": "take", ..., "reactions": [true]}, "outcome": 0}, ...]}
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from solver.ask.model import DomainKind, Measure, Param, Value
from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.outlaws import game as gm
from solver.outlaws.line import Step, line_to_json
from solver.outlaws.position_json import position_from_json, read_position
from solver.outlaws.questions import measures as ms
from solver.outlaws.readings import OutlawsReadings
from solver.paths import SCENARIOS
from solver.stopping import stopped

MOST = 200_000
"""The most lines enumerated to decide a question (about 30 microseconds each through the contract)."""
MAX_ACTIONS = 6
PROBES = 64
"""Random probes of the size estimate."""
KEPT = 64
"""The most of the start's plays whose outcomes the probes and playouts keep."""
EXAMPLES = SCENARIOS / "outlaws"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,60}")


class _TooMany(Exception):
    """The exact count passed its cap."""


def _start(value: Any, seed: int, readings: OutlawsReadings) -> tuple[gm.Game, str]:
    """The start game and its words: ``start`` (the set-up of ``seed``), an example position's name, a ``.json``
    position file, or a position document (a table)."""
    if isinstance(value, Mapping):
        return gm.Game(position_from_json(dict(value)), readings), "the given position"
    if not isinstance(value, str) or not value.strip():
        raise BadInput("domain.position: expected 'start', an example position's name or a position file")
    value = value.strip()
    if value == "start":
        return gm.initial_state(seed, readings), f"the set-up of seed {seed}"
    if _NAME.fullmatch(value) and (EXAMPLES / f"{value}.json").is_file():
        return gm.Game(read_position(EXAMPLES / f"{value}.json"), readings), f"the position {value}"
    path = Path(value)
    if path.suffix != ".json" or not path.is_file():
        names = ", ".join(sorted(p.stem for p in EXAMPLES.glob("*.json")))
        raise BadInput(f"domain.position: {short_repr(value)} is not 'start', an example position ({names}) or a "
                       "position file (.json)")
    return gm.Game(read_position(path), readings), f"the position in {path.name}"


def _whole(params: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadInput(f"domain.{name}: expected a whole number from {low} to {high}, got {short_repr(value)}")
    return value


def _round2(x: float) -> int:
    """``x`` rounded to two significant digits (an estimate said as one)."""
    if x < 100:
        return round(x)
    digits = len(str(int(x))) - 2
    return round(x / 10 ** digits) * 10 ** digits


class LinesDomain:
    """Every line of play of up to ``actions`` actions from ``start`` (module docstring)."""

    noun = "line"
    chance = True

    def __init__(self, start: gm.Game, actions: int, where: str):
        self.start, self.actions = start, actions
        s = "" if actions == 1 else "s"
        self.description = (f"a line of play of at most {actions} action{s} from {where} (each side picking "
                            "uniformly among its legal actions, chance at its exact odds)")
        self._size: int | None = None
        self._sized = False
        self._root: dict[int, list[tuple[Fraction, gm.Game]]] = {}
        self._root_plays: tuple[gm.Play, ...] | None = None

    # ------------------------------------------------------------ the tree, through the contract

    def _plays(self, game: gm.Game, depth: int) -> tuple[gm.Play, ...]:
        """The legal plays (the start's kept: every probe, playout and walk comes back to them)."""
        if depth:
            return gm.legal_actions(game)
        if self._root_plays is None:
            self._root_plays = gm.legal_actions(game)
        return self._root_plays

    def _outcomes(self, game: gm.Game, depth: int, k: int, play: gm.Play,
                  keep: bool = False) -> list[tuple[Fraction, gm.Game]]:
        """The contract's outcomes of a play from ``legal_actions``; with ``keep`` (the probes and the playouts, which
        come back to the start's plays), a few of the start's are kept."""
        if depth or not keep:
            return gm.outcomes(game, play, check=False)
        if k in self._root:
            return self._root[k]
        outs = gm.outcomes(game, play, check=False)
        if len(self._root) < KEPT:
            self._root[k] = outs
        return outs

    def _leaf(self, game: gm.Game, depth: int) -> bool:
        return depth >= self.actions or gm.is_terminal(game)

    def elements(self) -> Iterator[tuple[Fraction, ms.Line]]:
        """Every line, depth first in the contract's order, with its chance under uniform choices. When the size was
        not known beforehand, a line past :data:`MOST` refuses the domain (BadInput, as a known size would)."""
        for n, item in enumerate(self._lines(self.start, (), (self.start,), Fraction(1))):
            if n == MOST and self._size is None:
                raise BadInput(f"domain: more than {MOST:,} {self.noun}s, too many to decide here (at most {MOST:,}; "
                               "the estimate before enumerating was lower); narrow the domain: fewer actions")
            yield item

    def _lines(self, game: gm.Game, steps: tuple, games: tuple, weight: Fraction) -> Iterator[tuple[Fraction, Any]]:
        depth = len(steps)
        plays = () if self._leaf(game, depth) else self._plays(game, depth)
        if not plays:
            yield weight, ms.Line(steps, games, weight)
            return
        share = weight / len(plays)
        for k, play in enumerate(plays):
            for i, (p, after) in enumerate(self._outcomes(game, depth, k, play, keep=False)):
                yield from self._lines(after, steps + (Step(play, i),), games + (after,), share * p)

    # ------------------------------------------------------------ size

    def size(self) -> int | None:
        """The number of lines: exact when small, else an estimate (module docstring); None when stopped."""
        if not self._sized:
            self._size, self._sized = self._measure_size(), True
        return self._size

    def _measure_size(self) -> int | None:
        estimate = self._estimate()
        if estimate > MOST:
            return _round2(estimate)
        if estimate > MOST / 8:
            return None  # unknown until enumerated (under the time limit): counting would cost as much
        try:
            return self._count(self.start, 0, MOST // 4)
        except _TooMany:  # the estimate was low, or Stop: unknown until enumerated
            return None

    def _count(self, game: gm.Game, depth: int, cap: int) -> int:
        """The lines from ``game`` at ``depth``; _TooMany past ``cap`` (or on Stop)."""
        plays = () if self._leaf(game, depth) else self._plays(game, depth)
        if not plays:
            return 1
        if stopped():
            raise _TooMany
        total = 0
        for play in plays:
            for _, after in gm.outcomes(game, play, check=False):
                total += self._count(after, depth + 1, cap - total)
                if total > cap:
                    raise _TooMany
        return total

    def _estimate(self) -> float:
        """Knuth's estimate of the number of lines: the mean over seeded probes of the product of the branching
        (plays times outcomes) met on a random path."""
        rng = random.Random(0)
        total = 0.0
        for _ in range(PROBES):
            game, branching = self.start, 1.0
            for depth in range(self.actions):
                plays = () if self._leaf(game, depth) else self._plays(game, depth)
                if not plays:
                    break
                k = rng.randrange(len(plays))
                outs = self._outcomes(game, depth, k, plays[k], keep=True)
                branching *= len(plays) * len(outs)
                game = outs[rng.randrange(len(outs))][1]
            total += branching
        return total / PROBES

    # ------------------------------------------------------------ the rest of the Domain protocol

    def sample(self, rng: random.Random) -> tuple[Fraction, ms.Line]:
        """One random playout: each side picks uniformly, chance by its odds; with its chance."""
        game, weight = self.start, Fraction(1)
        steps: tuple[Step, ...] = ()
        games: tuple[gm.Game, ...] = (self.start,)
        for depth in range(self.actions):
            plays = () if self._leaf(game, depth) else self._plays(game, depth)
            if not plays:
                break
            k = rng.randrange(len(plays))
            outs = self._outcomes(game, depth, k, plays[k], keep=True)
            i = _draw([p for p, _ in outs], rng)
            weight *= outs[i][0] / len(plays)
            game = outs[i][1]
            steps, games = steps + (Step(plays[k], i),), games + (game,)
        return weight, ms.Line(steps, games, weight)

    def measures(self) -> Mapping[str, Measure]:
        return ms.MEASURES

    def values(self, element: ms.Line, names: frozenset[str]) -> Mapping[str, Value]:
        return ms.values(element, names)

    def witness(self, element: ms.Line) -> dict:
        return line_to_json(self.start, element.steps)


def _draw(chances: list[Fraction], rng: random.Random) -> int:
    """An index drawn with the exact chances (which sum to 1)."""
    x, acc = Fraction(rng.random()), Fraction(0)
    for i, p in enumerate(chances):
        acc += p
        if x < acc:
            return i
    return len(chances) - 1


def build(params: Mapping[str, Any], readings: OutlawsReadings) -> LinesDomain:
    """The domain the parameters fix (BadInput naming a bad one)."""
    actions = _whole(params, "actions", 1, MAX_ACTIONS)
    seed = _whole(params, "seed", 0, 2**31 - 1)
    if params["choices"] != "uniform":
        raise BadInput(f"domain.choices: {short_repr(params['choices'])} is not one of: uniform")
    start, where = _start(params["position"], seed, readings)
    return LinesDomain(start, actions, where)


LINES = DomainKind(
    "lines", "Lines of play from a position",
    (Param("position", "Position", "text", "start", choices=("start", *sorted(p.stem for p in EXAMPLES.glob("*.json"))),
           help="start (the set-up of the seed), an example position by name (the choices), a position file (.json) "
                "or a position table"),
     Param("seed", "Set-up seed", "int", 0, 0, 2**31 - 1, help="the shuffle of the set-up, when the position is start"),
     Param("actions", "Actions", "int", 2, 1, MAX_ACTIONS, help="the most actions in a line (it ends sooner when "
           "the game is won)"),
     Param("choices", "Choices", "choice", "uniform", choices=("uniform",),
           help="for a chance: each side picks uniformly among its legal actions, chance at its exact odds")),
    build, source="rule:O-actions, rule:O-turn",
    help="every line of play from the position: both sides' choices and every chance outcome, as the engine plays "
         "them",
    most=MOST)
