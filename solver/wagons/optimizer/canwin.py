"""Can this deal be won? (rule:W-opt-canwin) A yes with a winning line, a no with a proof, or unknown.

Against the rules-following opponent a deal is won when some line of play ends with the player ahead
(rule:W8: a higher total; with ``tie_break="guns"`` equal totals with more Guns win too). The deal's
draft lines (:mod:`.lines`) fix the cards the player gets and the opponent's pile, so:

- **yes**: a line and a town whose margin wins, replayed through the engine (every draft and
  placement checked by ``apply``) and re-scored; ``actions`` is that line in the form
  ``wagons play --policy scripted --script FILE`` reads (``{"actions": [...]}``, drafts with their
  ``card`` and ``skipped`` notes);
- **no**: every draft line has a proven upper bound on the player's margin that does not win: the
  admissible bound from the cards held (:mod:`.bounds`) or a layout proof (:func:`~.layout.best_layout`
  finding no town above the floor); for Boomtown each line's two round-1 cases are bounded apart;
- **unknown** (``winnable`` null) when the time limit ends the search first.

The search (:class:`~.dealsearch.DealSearch`): bounds, greedy towns, local search on the most
promising lines, then proofs, stopping at the first win.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from solver.execution.progress import OnProgress
from solver.io.numbers import seconds
from solver.wagons.data import WagonsData, load_data
from solver.wagons.game import scores
from solver.wagons.optimizer.dealsearch import DEFAULT_METHOD, DEFAULT_SCHEDULE, DealSearch, LineFindings
from solver.wagons.optimizer.lines import deal_state, entry_action
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import low_confidence

__all__ = ["CanWin", "can_win", "can_win_row", "LOCAL_SHARE"]

LOCAL_SHARE = 0.1
"""Share of the time limit the local search may use looking for a win before the proofs start."""


@dataclass(frozen=True)
class CanWin:
    winnable: bool | None
    proven: bool
    actions: tuple[dict, ...]   # the winning line (empty unless winnable)
    margin: int | None          # the winning line's margin, or the best margin found
    bound: int | None           # proven upper bound on the best margin of every line (None: not all bounded)
    elapsed: float
    lines: int
    lines_open: int             # lines neither won nor proven lost (0 when decided)
    solves: int                 # layout solves run
    readings: dict
    low_confidence: tuple[str, ...]
    final: dict | None = None   # final_scores of the winning line
    note: str = ""

    def to_dict(self) -> dict:
        return {"winnable": self.winnable, "proven": self.proven, "actions": list(self.actions),
                "margin": self.margin, "bound": self.bound, "elapsed": round(self.elapsed, 3),
                "lines": self.lines, "lines_open": self.lines_open, "solves": self.solves,
                "rules": dict(self.readings), "low_confidence": list(self.low_confidence), "final": self.final,
                "note": self.note, "rule": "W-opt-canwin"}


def _wins(search: DealSearch, it: LineFindings) -> bool:
    """The line's best town wins the game (rule:W8): ahead, or level on total and ahead on Guns."""
    if it.value is None or it.value < 0:
        return False
    return it.value > 0 or scores(search.replay(it)).winner == "player"


def can_win(scenario_id: str, seed: int | None = None, circle: Sequence[int] | None = None,
            deck: Sequence[int] | None = None, readings: WagonsReadings = WagonsReadings(), time_limit: float = 30.0,
            progress: OnProgress | None = None, data: WagonsData | None = None,
            method: str = DEFAULT_METHOD, schedule: str = DEFAULT_SCHEDULE, prover=None, line_bound=None) -> CanWin:
    """Whether some line of play beats the opponent on this deal (module docstring); ``method``: the layout
    strategy of the proofs (:data:`~.layout.METHODS`); ``schedule``: proofs paused and resumed between passes
    or restarted (:data:`~.dealsearch.SCHEDULES`); ``prover``, ``line_bound``: a benchmark's earlier strategy
    and line bound in place of the project's (:class:`~.dealsearch.DealSearch`)."""
    start = time.monotonic()
    data = data or load_data()
    time_limit = seconds(time_limit)
    state = deal_state(scenario_id, seed, circle, deck, readings, data)
    search = DealSearch(state, data, start, time_limit, progress, method=method, schedule=schedule, prover=prover,
                        line_bound=line_bound)
    # a line is lost when its bound is below a win: margin <= 0 (a tie is no win), or < 0 with the Guns tie-break
    target = (lambda: 0) if readings.tie_break == "tie" else (lambda: -1)
    won: list[LineFindings] = []

    def stop() -> bool:
        if not won:
            won.extend(it for it in search.items if it.value is not None and it.value > 0)
        return bool(won)

    search.greedy(target, stop)
    search.local(target, stop, LOCAL_SHARE * time_limit)
    search.settle(target, stop)
    if not won and readings.tie_break == "guns":
        won.extend(it for it in search.items if it.value == 0 and _wins(search, it))
    search.report(force=True)
    return _result(search, won, target(), readings, data)


def _result(search: DealSearch, won: list[LineFindings], target: int, readings: WagonsReadings, data: WagonsData) -> CanWin:
    common = dict(elapsed=search.elapsed(), lines=len(search.items), solves=search.solves, readings=readings.to_json(),
                  low_confidence=low_confidence(search.scenario, data, readings), bound=search.upper())
    if won:
        it = max(won, key=lambda it: it.value)
        final_state = search.replay(it)
        final = scores(final_state)
        if final.winner != "player":
            raise AssertionError(f"can-win: the winning line replays to a {final.winner}")
        actions = tuple(entry_action(e) for e in final_state.log if e.who == "player")
        return CanWin(True, True, actions, it.value, lines_open=0, final=final.to_dict(), **common)
    open_lines = [it for it in search.items if it.bound > target]  # no win found: lost only when bounded below one
    best = search.best_value()
    if not open_lines and search.complete:
        return CanWin(False, True, (), best, lines_open=0, **common)
    note = "the time limit ended the search; the lines still open could hold a win"
    if not open_lines and not search.complete:
        note = "the time limit ended the enumeration of the draft lines"
    elif readings.tie_break == "guns" and all(it.value == 0 for it in open_lines):
        note = "the open lines reach a tie at best; whether the Guns tie-break wins it was not searched"
    return CanWin(None, False, (), best, lines_open=len(open_lines), note=note, **common)


def can_win_row(scenario_id: str, seed: int, time_limit: float = 30.0, readings: dict | None = None,
                data: WagonsData | None = None, method: str = DEFAULT_METHOD) -> dict:
    """One deal's answer as a flat, picklable row (module level: safe for process pools and Dask)."""
    r = can_win(scenario_id, seed=seed, readings=WagonsReadings.from_json(readings or {}), time_limit=time_limit, data=data,
                method=method)
    return {"scenario": scenario_id, "seed": seed, "winnable": r.winnable, "proven": r.proven, "margin": r.margin,
            "bound": r.bound, "lines": r.lines, "lines_open": r.lines_open, "elapsed": round(r.elapsed, 3)}
