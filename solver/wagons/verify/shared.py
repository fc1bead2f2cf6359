"""Work the Lone Cowboy verdicts share inside one worker of the readings sweep (``ruleslinger readings impact``).

The sweep gives the runs that compute something alike to one worker, one after the other
(:meth:`solver.readings.verdicts.Verdict.share_key`); inside :func:`sharing` they keep it here and take it back:

- :data:`MODELS`: the Z3 game of one scenario, readings and mutations (:mod:`solver.wagons.verify.model`), built
  once for the card-conservation, termination and automaton checks; each check asks its questions in its own
  push/pop scope under its own deadline, so its answer is the one a fresh build gives (a fresh build costs about
  a second of the check's CPU time).
- :data:`GAMES`: an engine game by (scenario, policy, seed, readings, goal numbers), played once for the
  greedy-wins verdict, the winnability check's witness and the score-bounds check's witnesses.
- :data:`BOUNDS`: the score-bounds check's Z3 bound of one side, by the readings the bound model reads
  (:data:`solver.wagons.verify.scores.BOUND_READINGS`), solved once for the runs of the draft readings (a
  bound the time limit left open is kept open only after
  :data:`~solver.wagons.verify.scores.OPEN_BOUND_TRIES` tries).
- :data:`LAYOUTS`: the optimizer's best layout of the score-bounds check's best witness town, by its cards, pile and
  scoring readings (:func:`solver.wagons.verify.scores.best_town_score`), searched once for the runs of the draft
  readings whose best game ended in the same town.

Outside :func:`sharing` (``wagons verify``, the tests) nothing is kept: every check builds its own model in a fresh
``z3.Context`` and plays its own games. Each entry is keyed by everything its value depends on, so a kept value is
the value a fresh computation gives.
"""

from __future__ import annotations

import contextvars
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any

SHARING = contextvars.ContextVar("wagons_verify_sharing", default=False)
"""True inside :func:`sharing`: the shelves keep and give back."""


class Shelf:
    """A small least-recently-used memo that keeps values only while :data:`SHARING` is on."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable) -> Any:
        """The kept value of ``key``, else None (always None outside :func:`sharing`)."""
        if not SHARING.get() or key not in self._items:
            return None
        self._items.move_to_end(key)
        return self._items[key]

    def put(self, key: Hashable, value: Any) -> None:
        """Keep ``value`` (inside :func:`sharing` only), forgetting the oldest beyond ``size``."""
        if not SHARING.get():
            return
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


MODELS = Shelf(1)
"""The last Z3 game built (the runs of one task share one scenario and readings)."""
GAMES = Shelf(400)
"""Engine games (a task plays at most 100 deals of one scenario under each reading, one reading after the other)."""
LAYOUTS = Shelf(32)
"""The optimizer's best layouts of witness towns (:func:`solver.wagons.verify.scores.best_town_score`)."""
BOUNDS = Shelf(16)
"""The score-bounds check's bounds (:func:`solver.wagons.verify.scores._bound`), with the tries left open."""


@contextmanager
def sharing() -> Iterator[None]:
    """Within the block, the checks and verdicts keep and reuse the models and games above."""
    token = SHARING.set(True)
    try:
        yield
    finally:
        SHARING.reset(token)


def played(scenario: str, policy: str, seed: int, readings: Any, data: Any = None) -> Any:
    """``solver.wagons.simulate.play_game(scenario, policy, seed, readings, data)``, played once per key inside
    :func:`sharing` (``data`` by identity, kept alive beside the game so its identity stays its own)."""
    from solver.wagons.simulate import play_game

    key = (scenario, policy, seed, readings, id(data))
    kept = GAMES.get(key)
    if kept is not None and kept[0] is data:
        return kept[1]
    result = play_game(scenario, policy, seed, readings, data)
    GAMES.put(key, (data, result))
    return result


def clear() -> None:
    """Forget every kept model, game, layout and bound."""
    MODELS.clear()
    GAMES.clear()
    LAYOUTS.clear()
    BOUNDS.clear()
