"""What a batch is, for the games' own planners: a :class:`BatchRequest` (``ruleslinger batch KIND``'s arguments),
the :class:`Plan` a game's planner makes of it (a picklable per-item function, the items, and how its results are
reported), and the :class:`BatchKind` each game lists in its room (:mod:`solver.registry`). Nothing here names a
game; :mod:`solver.execution.batches` runs plans through the executor.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.errors import BadInput
from solver.io.numbers import MAX_SEED, seconds

MAX_N = 10_000_000
"""Largest batch accepted (items); far above any useful table."""
MAX_TIME_LIMIT = 3600.0
"""Longest time limit per item (seconds) for the solver-backed kinds."""


@dataclass(frozen=True)
class Setting:
    """A set-up flag a game's batches read (``--scenario``, ``--policy``, ``--players``): its ``name``, its help
    line and whether it is a whole number (``whole``); each game lists its own in its registration."""

    name: str
    help: str
    whole: bool = False


@dataclass(frozen=True)
class BatchRequest:
    """What to run: ``n`` items from ``seed``; ``setup`` the game's set-up flags as (NAME, VALUE) pairs (each game's
    :class:`Setting`); ``options`` the readings as (NAME, VALUE) pairs."""

    kind: str
    n: int
    seed: int = 0
    setup: tuple[tuple[str, Any], ...] = ()
    options: tuple[tuple[str, str], ...] = ()
    time_limit: float | None = None  # seconds per item (the solver-backed kinds)

    def __post_init__(self):
        for name, value, lo, hi in (("n", self.n, 1, MAX_N), ("seed", self.seed, 0, MAX_SEED)):
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise BadInput(f"{name}: expected a whole number {lo}..{hi}, got {value!r:.40}")
        if self.seed + self.n - 1 > MAX_SEED:
            raise BadInput(f"seed: {self.seed} + n {self.n} passes the largest seed {MAX_SEED}")
        if self.time_limit is not None:
            object.__setattr__(self, "time_limit", seconds(self.time_limit, "time limit", MAX_TIME_LIMIT))

    def seeds(self) -> range:
        """Item i's seed is ``seed + i``."""
        return range(self.seed, self.seed + self.n)

    def get(self, name: str) -> Any:
        """The set-up flag ``name``'s value (None when not given)."""
        return dict(self.setup).get(name)

    def only(self, *names: str) -> None:
        """Refuse every game parameter but ``names`` (one line naming the flag that does not apply)."""
        given = [n for n, v in self.setup if v is not None] + (["time_limit"] if self.time_limit is not None else [])
        for name in given:
            if name not in names:
                raise BadInput(f"batch {self.kind}: --{name.replace('_', '-')} does not apply to this kind")

    def readings(self, readings_class: type) -> Any:
        """The game's readings with the request's ``--rule`` options applied (solver.readings.base)."""
        return readings_class.from_pairs([f"{n}={v}" for n, v in self.options], "--rule")


@dataclass(frozen=True)
class Plan:
    """A batch ready for the executor: ``func(item)`` for each item; ``shape`` "rows" (one flat dict per item) or
    "counts" (dicts of counts added up); ``report(result)`` (optional) adds the kind's own summary to the JSON
    result (the rows' frame or the added counts)."""

    func: Callable[[Any], Any]
    items: Sequence[Any]
    shape: str
    settings: dict = field(default_factory=dict)
    total: int = 0  # games simulated (counts kinds: n, not the number of chunks)
    report: Callable[[Any], dict] | None = None


@dataclass(frozen=True)
class BatchKind:
    """A named batch of a game: its help line, its planner and, optionally, its own text table of a result
    (``render(result)`` -> (the keys it shows, the text), or None)."""

    name: str
    help: str
    planner: Callable[[BatchRequest], Plan]
    render: Callable[[dict], tuple[set, str] | None] | None = None
    example: tuple[tuple[str, Any], ...] = ()
    """The set-up of a small valid request of this kind (what the benches and fuzzers start from)."""


def batch_request(kind: str, n: int, seed: int = 0, *, options: tuple[tuple[str, str], ...] = (),
                  time_limit: float | None = None, **setup: Any) -> BatchRequest:
    """A :class:`BatchRequest` with its set-up flags given by name (``scenario="boomtown"``)."""
    return BatchRequest(kind, n, seed, tuple(setup.items()), options, time_limit)


def call_with(fn: Callable, args: tuple, kwargs: dict, item: Any) -> Any:
    """``fn(*args, item, **kwargs)``: the picklable per-item adapter used by every kind."""
    return fn(*args, item, **kwargs)


def call_star(fn: Callable, kwargs: dict, item: tuple) -> Any:
    """``fn(*item, **kwargs)`` (chunked Monte Carlo items are ``(n, seed)`` pairs)."""
    return fn(*item, **kwargs)
