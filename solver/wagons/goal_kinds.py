"""The goal kinds of Lone Cowboy (rule:W7): the one catalogue every scoring backend reads.

A goal card of ``scenarios/wagons/goals.toml`` names its ``kind``; the kind fixes the numbers the card must
give (:attr:`GoalKind.params`) and how it scores. The kinds come in three families:

- **counting**: the points are a function of one total, how many of some symbols the town shows (a
  territory counts once for its terrain and once for its icon when both are read): Prairie Life, Boom or
  Bust. Every backend scores such a kind from :attr:`GoalKind.counts` and :meth:`GoalKind.points` alone,
  so a new counting kind is one entry here (docs/how-to.md, "Add a goal card").
- **position**: the points read where symbols lie (next to, between, in a group, in a run). Each backend
  that places symbols holds its own encoding, keyed by the kind's name.
- **comparing**: the card compares the two towns' counts (:attr:`GoalKind.reads`, of territories,
  Beers, Mines, Guns) and gives points to either side; the opponent's pile has no positions, so these
  read counts only.

The nine backends (:data:`BACKENDS`) each call :func:`check_backend` when imported with the kinds they
encode themselves: a kind listed here that one of them lacks (or a kind it encodes that is not listed)
stops the import with a message naming both, and ``tests/wagons/engine/test_goal_backends.py`` checks
every backend's values against the scorer's for every kind listed here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from solver.wagons.codes import ICONS, TERRAINS

__all__ = ["GoalKind", "KINDS", "NAMES", "UNKNOWN", "BACKENDS", "FAMILIES", "COUNTING", "POSITION", "COMPARING",
           "SIDE_COUNTS", "kind", "names", "check_backend", "MissingEncoding", "boom_points", "symbol_lanes"]

FAMILIES = ("counting", "position", "comparing")
SIDE_COUNTS = ("territories", "beers", "mines", "guns")
"""What a comparing card can read of each side (:class:`solver.wagons.scoring.Side`)."""


@dataclass(frozen=True)
class GoalKind:
    """One kind of goal card: its name in goals.toml, its rule, the numbers its cards give, its family
    and, for a counting kind, what it totals and what the total scores."""

    name: str
    rule: str  # the register id its encodings cite (W-goal-<kind>)
    family: str
    params: tuple[str, ...] = ()  # the numbers every card of the kind gives in goals.toml
    lists: tuple[str, ...] = ()  # those that are lists (the others are one whole number each)
    counts: tuple[str, ...] = ()  # counting: the terrains and icons totalled
    score: Callable[[Any, int], int] | None = None  # counting: points(goal, total)
    reads: tuple[str, ...] = ()  # comparing: the counts of each side the card reads (SIDE_COUNTS)

    def __post_init__(self):
        if self.family not in FAMILIES:
            raise ValueError(f"goal kind '{self.name}': family '{self.family}' is not one of {FAMILIES}")
        if (self.family == "counting") != (bool(self.counts) and self.score is not None):
            raise ValueError(f"goal kind '{self.name}': a counting kind, and only one, gives counts and score")
        if (self.family == "comparing") != bool(self.reads):
            raise ValueError(f"goal kind '{self.name}': a comparing kind, and only one, says what it reads")
        if any(s not in TERRAINS + ICONS for s in self.counts) or any(r not in SIDE_COUNTS for r in self.reads):
            raise ValueError(f"goal kind '{self.name}': counts {self.counts} or reads {self.reads} name no symbol")

    def points(self, goal, total: int) -> int:
        """A counting kind's points for a town (or pile) showing ``total`` of :attr:`counts`."""
        if self.score is None:
            raise TypeError(f"goal kind '{self.name}' is a {self.family} kind: it does not score a total")
        return self.score(goal, total)


def _prairie_life(goal, total: int) -> int:
    """rule:W-goal-prairie-life: (Cows + Plains) x per_symbol, divided by divisor, rounded down."""
    return total * goal.param("per_symbol") // goal.param("divisor")


def boom_points(goal, mines: int) -> int:
    """rule:W-goal-boom-or-bust: the points of the first band holding ``mines`` (per Mine, or once with
    ``per_mine`` false: the reading rule:W11 sets)."""
    for lo, hi, pts in goal.param("bands"):
        if mines >= lo and (hi < 0 or mines <= hi):
            return pts * mines if goal.param("per_mine") else pts
    return 0


KINDS = (
    GoalKind("cool-water", "W-goal-cool-water", "position", ("per_wagon",)),
    GoalKind("badlands", "W-goal-badlands", "position", ("per_gun",)),
    GoalKind("happy-cows", "W-goal-happy-cows", "position", ("per_cow",)),
    GoalKind("bootleggers", "W-goal-bootleggers", "position", ("per_beer_adjacent", "per_beer_alone")),
    GoalKind("one-too-many", "W-goal-one-too-many", "comparing", ("loss_per_other_beer",), reads=("beers",)),
    GoalKind("gold-country", "W-goal-gold-country", "position", ("per_mine",)),
    GoalKind("prairie-life", "W-goal-prairie-life", "counting", ("per_symbol", "divisor"), counts=("Cow", "Plains"),
             score=_prairie_life),
    GoalKind("the-herd", "W-goal-the-herd", "position", ("per_cow",)),
    GoalKind("wagon-train", "W-goal-wagon-train", "position", ("run_points",), lists=("run_points",)),
    GoalKind("boom-or-bust", "W-goal-boom-or-bust", "counting", ("bands",), lists=("bands",), counts=("Mine",),
             score=boom_points),
    GoalKind("claim-jumpers", "W-goal-claim-jumpers", "comparing", ("points", "taken_by_more_guns"),
             reads=("mines", "guns")),
    GoalKind("smalltown-charm", "W-goal-smalltown-charm", "comparing", ("per_territory",), reads=("territories",)),
)
"""Every goal kind a card can score by (rule:W-goal-unknown: ``unknown``, a card no source gives, is none)."""

UNKNOWN = "unknown"
NAMES = tuple(k.name for k in KINDS) + (UNKNOWN,)
"""Every ``kind`` goals.toml accepts."""


def names(*families: str) -> tuple[str, ...]:
    """The kinds of the given families, in catalogue order."""
    return tuple(k.name for k in KINDS if k.family in families)


COUNTING, POSITION, COMPARING = names("counting"), names("position"), names("comparing")


def kind(name: str) -> GoalKind | None:
    """The catalogue entry of kind ``name`` (None for ``unknown`` or a name not listed)."""
    return next((k for k in KINDS if k.name == name), None)


def symbol_lanes(counts: Iterable[str]) -> tuple[tuple[int, int], ...]:
    """``(lane, code)`` of each counted symbol: lane 0 a terrain, 1 an icon, code its index in TERRAINS or ICONS."""
    return tuple((0, TERRAINS.index(s)) if s in TERRAINS else (1, ICONS.index(s)) for s in counts)


BACKENDS = {
    "scorer": ("the bitboard scorer", "solver/wagons/scoring/goals.py"),
    "reference": ("the reference scorer", "solver/wagons/scoring/reference.py"),
    "walk": ("the compiled walk", "solver/wagons/optimizer/walk/scorer.py"),
    "bnb": ("the branch and bound's node bound", "solver/wagons/optimizer/bnb/kernel.py"),
    "bounds": ("the card-set bound", "solver/wagons/optimizer/bounds.py"),
    "cpsat": ("the CP-SAT model", "solver/wagons/optimizer/cpsat/goals.py"),
    "z3": ("the Z3 model", "solver/wagons/optimizer/z3solver/goals.py"),
    "verify": ("the verifier's bound model", "solver/wagons/verify/scores.py"),
    "opponent": ("the opponent's scores", "solver/wagons/scoring/goals.py"),
}
"""The nine backends that score goal cards: name -> (what it is, where its encodings live)."""


class MissingEncoding(RuntimeError):
    """A backend's encodings and this catalogue disagree (a programming error, found at import)."""


def check_backend(backend: str, encoded: Iterable[str], families: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    """Refuse a backend whose own encodings (``encoded``, kind names) miss a catalogue kind of ``families`` or name a
    kind outside ``families`` and ``optional`` (a family it scores from the catalogue alone, which it may still
    encode itself: a counting kind whose earlier encoding the golden outputs were proven with)."""
    what, where = BACKENDS[backend]
    have = set(encoded)
    missing = [k for k in names(*families) if k not in have]
    extra = sorted(have - set(names(*families, *optional)))
    if missing:
        raise MissingEncoding(f"{what} ({where}) has no encoding of goal kind {', '.join(missing)} "
                              "(solver/wagons/goal_kinds.py lists it; docs/how-to.md, 'Add a goal card')")
    if extra:
        raise MissingEncoding(f"{what} ({where}) encodes goal kind {', '.join(extra)}, which "
                              f"solver/wagons/goal_kinds.py does not list as {' or '.join(families + optional)}")
