"""Once every card to come is known: the deal search's proven bound beside the estimates (rule:W-advice,
rule:W-opt-bestplay).

With no card unseen, the rest of the game is a known deal: the opponent's drafts follow from the player's draft
choices (rule:W-opt-bestplay), so the draft lines from here each fix the player's cards and the opponent's pile.
:class:`~solver.wagons.optimizer.dealsearch.DealSearch` bounds each line (the admissible bound of the cards held,
then greedy towns and layout proofs within the time given) and :func:`deal_bound` reads its proven upper bound:
no play from here ends with a higher margin. The layouts it considers may move the cards already placed (the
search lays out every card of a line, in order, from an empty town), so the bound holds for every play from here
and may be loose, never wrong. A draft's bound is the highest over the lines that begin with it; a placement
does not change the lines, so every placement shares the decision's bound.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from solver.wagons.data import load_data
from solver.wagons.game import Action, Draft, GameState
from solver.wagons.optimizer.dealsearch import DEFAULT_METHOD, DealSearch

__all__ = ["DealBound", "deal_bound", "BOUND_SECONDS"]

BOUND_SECONDS = 3.0
"""Most wall seconds the bound's search gets (within the advice's time limit)."""


@dataclass(frozen=True)
class DealBound:
    """The proven upper bound on the final margin from the decision (``upper``) and after each draft."""

    upper: int | None
    drafts: dict[int, int]
    lines: int
    lines_open: int
    elapsed: float

    def for_action(self, action: Action) -> int | None:
        if isinstance(action, Draft):
            return self.drafts.get(action.index)
        return self.upper

    def to_dict(self) -> dict:
        return {"upper": self.upper, "lines": self.lines, "lines_open": self.lines_open,
                "elapsed": round(self.elapsed, 3), "note": "proven: no play from here ends above this margin "
                "(the search may move the cards already placed, so the bound can be loose, never wrong)"}


def deal_bound(info: GameState, deadline: float, budget: float = BOUND_SECONDS) -> DealBound:
    """The deal search's bound from ``info`` (every card to come known), within ``budget`` s and ``deadline``."""
    start = time.monotonic()
    limit = max(0.05, min(budget, deadline - start))
    ds = DealSearch(info, info.data or load_data(), start, limit, method=DEFAULT_METHOD, schedule="restart")
    floor = -(10 ** 6)
    target = lambda: ds.best_value() if ds.best_value() is not None else floor
    never = lambda: False
    ds.greedy(target, never)
    ds.settle(target, never)
    drafts: dict[int, int] = {}
    if ds.complete and not info.hand:
        for it in ds.items:
            k = it.line.drafts[0]
            drafts[k] = max(drafts.get(k, it.bound), it.bound)
    best = ds.best_value()
    open_lines = len(ds.open_lines(best)) if best is not None else len(ds.items)
    return DealBound(ds.upper(), drafts, len(ds.items), open_lines, time.monotonic() - start)
