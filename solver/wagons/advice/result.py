"""The advice's answer (rule:W-advice): one :class:`ActionAdvice` per legal action, the :class:`Advice` for the
decision (a long run reports its progress as :class:`solver.execution.progress.Progress`). ``to_dict`` is the JSON of
``ruleslinger wagons advise --json``; each action is in the game file's own form (``{"draft": k}`` or
``{"place": {...}}``), so it can be appended to the file's actions and replayed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from solver.wagons.advice.stats import MIN_ORDERS, mean_interval, wilson
from solver.wagons.game import Action, Draft, GameState, action_to_dict

__all__ = ["ActionAdvice", "Advice", "action_advice", "action_words", "card_and_skipped"]


def _r(x, digits: int = 3):
    return None if x is None else round(float(x), digits)


def _pair(p):
    return None if p is None else [_r(p[0]), _r(p[1])]


def action_words(action: Action, card: int, skipped: tuple[int, ...] = ()) -> str:
    """The action as a player says it: "draft card 11", "draft card 11 (skipping 3, 7)", "place card 11 at (2, 1)",
    "... turned 180"."""
    if isinstance(action, Draft):
        return f"draft card {card}" + (f" (skipping {', '.join(map(str, skipped))})" if skipped else "")
    p = action.placement
    return f"place card {p.card} at ({p.x}, {p.y})" + (" turned 180" if p.rot else "")


@dataclass(frozen=True)
class ActionAdvice:
    """One action's figures: over ``samples`` deal orders (all of them when ``exact``)."""

    action: Action
    card: int
    skipped: tuple[int, ...]
    samples: int
    exact: bool
    mean: Fraction | float | None          # expected final margin (a Fraction when exact)
    interval: tuple[float, float] | None   # its 95% interval (None: fewer than MIN_ORDERS sampled orders)
    win: Fraction | float | None           # chance the player wins (rule:W8)
    win_interval: tuple[float, float] | None
    tie: Fraction | float | None
    bound: int | None = None               # proven: no play after this action ends above this margin
    margins: tuple[int, ...] = field(default=(), compare=False, repr=False)  # per order played, in order
    parts: tuple[tuple[str, float], ...] = field(default=(), compare=False)  # expected margin by part of the score

    @property
    def words(self) -> str:
        return action_words(self.action, self.card, self.skipped)

    @property
    def expected(self) -> Fraction | float:
        """``mean`` of a played action (``samples`` > 0); asked of one not played, a ValueError."""
        if self.mean is None:
            raise ValueError(f"{self.words} was not played: it has no expected margin")
        return self.mean

    @property
    def win_chance(self) -> Fraction | float:
        """``win`` of a played action (``samples`` > 0); asked of one not played, a ValueError."""
        if self.win is None:
            raise ValueError(f"{self.words} was not played: it has no win chance")
        return self.win

    @property
    def too_few(self) -> bool:
        """Sampled from fewer than :data:`~.stats.MIN_ORDERS` orders: too few for an honest interval."""
        return 0 < self.samples < MIN_ORDERS and not self.exact

    @property
    def how(self) -> str:
        """How the figure was made: "exact", "32 orders", "2 orders, too few for an interval", "not played"."""
        if not self.samples:
            return "not played"
        if self.exact:
            return "exact"
        n = f"{self.samples} order" + ("s" if self.samples != 1 else "")
        return f"{n}, too few for an interval" if self.too_few else n

    def with_bound(self, bound: int | None) -> ActionAdvice:
        return replace(self, bound=bound)

    def to_dict(self) -> dict:
        d = {"action": action_to_dict(self.action), "words": self.words, "card": self.card,
             "expected_margin": _r(self.mean), "interval": _pair(self.interval), "win_chance": _r(self.win, 4),
             "win_interval": _pair(self.win_interval), "tie_chance": _r(self.tie, 4), "exact": self.exact,
             "samples": self.samples, "how": self.how, "too_few_orders": self.too_few, "bound": self.bound,
             "parts": {name: _r(v) for name, v in self.parts}}
        if isinstance(self.action, Draft):
            d["skipped"] = list(self.skipped)
        if self.exact:
            d["expected_margin_exact"] = str(self.mean)
            d["win_chance_exact"] = str(self.win)
        return d


def card_and_skipped(info: GameState, action: Action) -> tuple[int, tuple[int, ...]]:
    """The card ``action`` drafts or places at ``info``, and the cards a draft skips (to the opponent)."""
    if isinstance(action, Draft):
        return info.circle[action.index], info.circle[:action.index]
    return action.placement.card, ()


def action_advice(info: GameState, action: Action, outcomes, exact: bool) -> ActionAdvice:
    """The figures of ``action`` from its play-outs (``exact``: they cover every order of the unseen cards)."""
    card, skipped = card_and_skipped(info, action)
    n = len(outcomes)
    if not n:
        return ActionAdvice(action, card, skipped, 0, False, None, None, None, None, None)
    mean, interval = mean_interval([o.margin for o in outcomes], exact)
    wins = sum(o.winner == "player" for o in outcomes)
    ties = sum(o.winner == "tie" for o in outcomes)
    win, win_interval = wilson(wins, n, exact)
    names = [name for name, _ in outcomes[0].parts]
    parts = tuple((name, sum(o.parts[k][1] for o in outcomes) / n) for k, name in enumerate(names))
    return ActionAdvice(action, card, skipped, n, exact, mean, interval, win, win_interval,
                        Fraction(ties, n) if exact else ties / n, margins=tuple(o.margin for o in outcomes),
                        parts=parts)


@dataclass(frozen=True)
class Advice:
    """The advice at one decision: every legal action, best first (:mod:`.engine`)."""

    decision: str                  # "draft" or "place"
    actions: tuple[ActionAdvice, ...]
    samples: int                   # deal orders the leading actions were played on (at most)
    orders: int                    # how many orders the unseen cards can come in
    unseen: tuple[int, ...]        # the cards the player has not seen
    every_order: bool              # the orders played are all of them (the leaders' figures are exact)
    policy: str                    # the continuation policy
    elapsed: float                 # wall seconds
    cpu: float                     # CPU seconds of the thread that computed it
    complete: bool                 # False: stopped by the time limit or the Stop signal
    rollouts: int                  # (action, order) play-outs
    decisions: int                 # continuation policy decisions computed (the effort)
    bound: object | None = None    # the deal search's bound (:class:`~.bound.DealBound`) once every card is known
    standings: tuple = ()          # per action, how it stands against the advised one (:class:`~.choice.Standing`)
    most: int = 0                  # most orders any action was played on (beyond ``samples`` where two were close)
    note: str | None = None        # the sentence naming the choices shown above the advised one (within its interval)

    @property
    def best(self) -> ActionAdvice | None:
        """The advised action (the first); None when the time ran out before any play-out ended."""
        return self.actions[0] if self.actions and self.actions[0].samples else None

    @property
    def advised_is_highest(self) -> bool:
        """No played action's expected margin is above the advised one's."""
        return not any(s is not None and s.above for s in self.standings)

    def _action_dicts(self) -> list[dict]:
        out = []
        for k, a in enumerate(self.actions):
            s = self.standings[k] if k < len(self.standings) else None
            extra = {"above_advised": False, "within_interval_of_advised": None, "orders_to_separate": None,
                     "worse_on_shared_orders": False} if s is None else s.to_dict()
            out.append({**a.to_dict(), **extra})
        return out

    def to_dict(self) -> dict:
        best = self.best
        return {"decision": self.decision, "actions": self._action_dicts(),
                "advised_is_highest": self.advised_is_highest, "note": self.note, "most_orders": self.most,
                "best": None if best is None else action_to_dict(best.action),
                "best_words": None if best is None else best.words,
                "samples": self.samples, "orders": self.orders, "unseen": list(self.unseen),
                "exact": self.every_order and all(a.exact for a in self.actions[:1]), "policy": self.policy,
                "elapsed": round(self.elapsed, 3), "cpu": round(self.cpu, 3), "complete": self.complete,
                "rollouts": self.rollouts, "decisions": self.decisions,
                "bound": None if self.bound is None else self.bound.to_dict(), "rule": "W-advice"}
