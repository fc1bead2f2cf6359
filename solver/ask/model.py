"""What a game gives the question engine: its domains, each with named measures (the game's own words).

A game's ``questions`` module (``solver/<game>/questions.py``) lists :class:`DomainKind` values: what a question can
range over (legal towns of given cards, event-deck orders, lines of play), the parameters that fix one domain, and a
``build`` that makes a :class:`Domain` under the selected readings. A domain enumerates its elements (each with a
weight: an exact probability in a chance domain, 1 elsewhere), evaluates the :class:`Measure` values a condition
names, and turns an element into a witness document the pages and the command line draw. Nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

Value = int | Fraction | bool | str
"""A measure's value: a count or score (int), an exact chance (Fraction), yes/no (bool) or a named choice (str)."""

KINDS = ("number", "yes/no", "choice")


@dataclass(frozen=True)
class Measure:
    """One named quantity of a domain's elements: ``name`` as files spell it (``goal.gold-country``), ``label`` in a
    player's words ("Gold Country's points"), ``kind`` (number, yes/no or choice), ``source`` (the rule passage or
    register id it comes from), and for numbers the range a stepper offers (``low``..``high``), for choices the
    named values (``choices``)."""

    name: str
    label: str
    kind: str = "number"
    source: str = ""
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    help: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"measure {self.name}: kind must be one of {KINDS}")


@dataclass(frozen=True)
class Param:
    """One parameter that fixes a domain: ``name`` (as files spell it), ``label`` for people, ``kind``: ``int``
    (``low``..``high``), ``cards`` (a list of card numbers), ``choice`` (one of ``choices``), ``text`` (a file's
    path, a position) or ``cards-seen``; ``default`` (None: required)."""

    name: str
    label: str
    kind: str = "int"
    default: Any = None
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    help: str = ""


@runtime_checkable
class Domain(Protocol):
    """One domain, built from its parameters under the readings."""

    @property
    def description(self) -> str:
        """The domain in words, for the question's sentence ("towns of cards 3, 7, 11, 14 in Gold Rush")."""

    @property
    def chance(self) -> bool:
        """Whether the weights are exact probabilities summing to 1 (a chance tree); else every weight is 1."""

    @property
    def noun(self) -> str:
        """What one element is called ("town", "deck order", "line of play")."""

    def size(self) -> int | None:
        """How many elements :meth:`elements` yields (None: unknown until enumerated)."""

    def measures(self) -> Mapping[str, Measure]:
        """The measures a condition may name, by name."""

    def elements(self) -> Iterator[tuple[Fraction, Any]]:
        """Every element once, with its weight (exact probability, or 1)."""

    def values(self, element: Any, names: frozenset[str]) -> Mapping[str, Value]:
        """The values of the measures ``names`` on ``element``."""

    def witness(self, element: Any) -> dict[str, Any]:
        """The element as a JSON document the pages draw (a town, a deck order, a line of play)."""


OPTIONAL = ("sample", "search", "focus")
"""Methods a domain may add: ``focus(names)`` -> a :class:`Domain`, the same domain telling apart only what the
measures ``names`` read (a chance domain merges elements the question cannot tell apart; called once the
question's measures are known, before anything else); ``sample(rng)`` -> ``(weight, element)``, one element drawn with its chance (uniformly in
a domain without chance), for a seeded estimate where the domain is too large to enumerate; ``search(goal)`` -> a
:class:`Found` or None, a game engine's own decision of a :class:`Goal` (CP-SAT, Z3, a deal search) where it can
express every measure the question names, None where it cannot (the engine then enumerates). A domain whose draws are
costly may carry ``samples``, the number of draws of its seeded estimate (fixed, so the estimate is reproducible)."""


@dataclass(frozen=True)
class Goal:
    """What a domain's own ``search`` is asked: ``quantifier`` (``exists``, ``forall``, ``max``, ``min``), the
    ``condition`` (:mod:`solver.ask.condition`, None: every element), the ``objective`` measure (max/min) and the
    ``deadline`` (``time.monotonic()``; the stop signal of :mod:`solver.stopping` also ends it)."""

    quantifier: str
    condition: Any
    objective: str | None
    deadline: float


@dataclass(frozen=True)
class Found:
    """A domain search's answer: ``holds`` (exists/forall: True, False, None undecided), ``value`` (most/least: the
    best found), ``bound`` (most/least: the proven bound on every element; equal to ``value`` when proven),
    ``element`` (the witness or counterexample), ``proven``, ``method`` in words ("CP-SAT, optimal") and
    ``checked`` (elements examined, when counted), ``deterministic`` (CP-SAT's deterministic time, when it ran)."""

    holds: bool | None = None
    value: Value | None = None
    bound: Value | None = None
    element: Any = None
    proven: bool = False
    method: str = ""
    checked: int | None = None
    deterministic: float | None = None


@dataclass(frozen=True)
class DomainKind:
    """A kind of domain a game offers: ``name`` as files spell it, ``label`` for people, ``params`` that fix one,
    ``build(params, readings)`` -> a :class:`Domain` (BadInput on bad parameters), ``source`` the rules it rests on,
    and ``most`` the largest domain enumerated to decide a question (larger ones are refused with their size, or
    estimated when asked for a chance and the domain can ``sample``)."""

    name: str
    label: str
    params: tuple[Param, ...]
    build: Callable[[Mapping[str, Any], Any], Domain]
    source: str = ""
    help: str = ""
    most: int = 2_000_000

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)
