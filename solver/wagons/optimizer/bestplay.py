"""Best play for a known deal: the player's drafts and placements that maximise the final margin
over the rules-following opponent (rule:W-opt-bestplay), and the scenario difficulty table.

Why this decomposes: the opponent's drafts (rule:W1, rule:W4, rule:W5) read the circle, the
preference deck and its own pile, never the player's town, except Boomtown's round-2 rule, which
reads the territory counts after round 1. So a *draft line* (the player's draft choice at each of
their turns) fixes the order in which the player receives cards and the opponent's final pile;
for Boomtown each line is split in two by whether the opponent ends round 1 behind or not, and
that becomes a constraint on the town after the first ``m`` cards. The best margin of a line is
then a best-layout problem (:func:`solver.wagons.optimizer.layout.best_layout`, ``objective="margin"``).

Search: enumerate the lines (merging lines that give the same cards in the same order and the
same pile), give every line a greedy-layout lower bound, then visit lines best-first and ask the
optimizer only for a town *beating the best margin so far* (``floor``): an unsat answer discards
the line with a proof. The result is proven optimal when every line was settled by a proof.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from solver.errors import BadInput
from solver.wagons.cards import check_card_ids
from solver.wagons.data import WagonsData, load_data
from solver.wagons.game import Draft, GameState, Place, apply, is_over, legal_actions, new_game, scores
from solver.wagons.optimizer.layout import best_layout
from solver.wagons.optimizer.problem import greedy_layout
from solver.wagons.policies import GreedyPolicy
from solver.wagons.rules import Rules
from solver.wagons.scoring import town_features
from solver.wagons.simulate import MAX_STEPS, policy_rng
from solver.wagons.town import Town

__all__ = ["Line", "BestPlay", "deal_state", "draft_lines", "best_play", "best_play_row", "difficulty_table",
           "difficulty_summary", "greedy_margin"]

Progress = Callable[[int, "int | None", float], None]


@dataclass(frozen=True)
class Line:
    """One sequence of player draft choices and what it implies (rule:W-opt-bestplay)."""

    drafts: tuple[int, ...]            # Draft index at each player turn
    cards: tuple[int, ...]             # the player's cards in placement order
    pile: tuple[int, ...]              # the opponent's final pile, oldest first
    round1: tuple[int, int, bool] | None = None  # Boomtown: (cards placed, opponent territories, behind)


@dataclass(frozen=True)
class BestPlay:
    margin: int | None
    proven_optimal: bool
    drafts: tuple[int, ...]
    actions: tuple[dict, ...]           # the player's line of play: {"draft": k} / {"place": {...}}
    final: dict                         # final_scores(...).to_dict() of the line played out
    lines: int                          # distinct draft lines
    lines_settled: int                  # lines whose best margin is proven (or proven below the best)
    elapsed: float
    greedy_margin: int | None = None    # the greedy policy's margin on the same deal
    log: tuple[dict, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict:
        return {"margin": self.margin, "proven_optimal": self.proven_optimal, "drafts": list(self.drafts),
                "actions": list(self.actions), "final": self.final, "lines": self.lines,
                "lines_settled": self.lines_settled, "elapsed": round(self.elapsed, 3),
                "greedy_margin": self.greedy_margin, "log": list(self.log), "rule": "W-opt-bestplay"}


def deal_state(scenario_id: str, seed: int | None = None, circle: Sequence[int] | None = None,
               deck: Sequence[int] | None = None, rules: Rules = Rules(), data: WagonsData | None = None
               ) -> GameState:
    """The starting state of a known deal: a seed (rule:W-setup) or an explicit circle and deck."""
    data = data or load_data()
    if circle is None and deck is None:
        if seed is None:
            raise BadInput("give a seed, or an explicit circle and preference deck")
        return new_game(scenario_id, seed, rules, data)
    if circle is None:
        raise BadInput("an explicit deal needs the circle (and the preference deck, top first)")
    base = new_game(scenario_id, 0, rules, data)
    circle = check_card_ids(circle, "circle", unique=False)
    deck = check_card_ids(deck or (), "deck", unique=False)
    every = circle + deck
    if not circle:
        raise BadInput("circle: give at least one card")
    if len(set(every)) != len(every):
        raise BadInput("deal: a card appears twice in the circle and deck")
    aside = set(every) & set(base.removed)
    if aside:
        raise BadInput(f"deal: card {min(aside)} is set aside with the scenario's goal cards (rule:W9)")
    return replace(base, circle=circle, deck=deck, seed=seed, log=())


def _boomtown(state: GameState, data: WagonsData) -> bool:
    return data.scenario(state.scenario).draft.kind == "skip-if-behind"


class Lines(list):
    """The draft lines found; ``complete`` is False when a deadline cut the enumeration short."""

    complete = True


def draft_lines(state: GameState, data: WagonsData | None = None, max_lines: int = 20000,
                deadline: float | None = None) -> list[Line]:
    """Every distinct draft line from ``state`` (a fresh deal); placements are deferred. With a
    ``deadline`` (time.monotonic), the lines found by then (at least one; ``complete`` False)."""
    data = data or load_data()
    boom = _boomtown(state, data)
    out: dict[tuple, Line] = {}

    def walk(s: GameState, drafts: tuple[int, ...], round1):
        for _ in range(MAX_STEPS):
            if out and deadline is not None and time.monotonic() > deadline:
                raise _OutOfTime
            if is_over(s):
                key = (s.town.card_ids, tuple(sorted(s.pile)), round1)
                if key not in out:
                    if len(out) >= max_lines:
                        raise BadInput(f"deal: more than {max_lines} draft lines; give a smaller deal")
                    out[key] = Line(drafts, s.town.card_ids, s.pile, round1)
                return
            before = s.round
            if s.to_move == "opponent":
                s = apply(s, legal_actions(s)[0])
            elif s.hand:  # any legal spot: where cards lie does not change the drafts (except Boomtown)
                s = apply(s, legal_actions(s)[0])
            else:
                for a in legal_actions(s):
                    walk(apply(s, a), drafts + (a.index,), round1)
                return
            if boom and before == 1 and s.round == 2 and round1 is None and state.rules.boomtown_count == "visible":
                # rule:W5-boomtown: split on the opponent being behind after round 1 or not (counting
                # 4 per card, the counts are known from the cards alone: no split)
                m, opp = len(s.town.placements), 4 * len(s.pile)
                for behind in (True, False):
                    forced = replace(s, after_round_1=(opp if behind else opp - 1, opp))
                    walk(forced, drafts, (m, opp, behind))
                return
        raise BadInput("deal: a game did not finish")

    found = Lines()
    try:
        walk(state, (), None)
    except _OutOfTime:
        found.complete = False
    found.extend(out.values())
    return found


class _OutOfTime(Exception):
    """The enumeration's deadline passed (it is not a proof over every line any more)."""


def _meets_round1(town: Town, round1) -> bool:
    if round1 is None:
        return True
    m, opp, behind = round1
    have = town_features(Town(town.placements[:m])).territories
    return have >= opp if behind else have < opp


def greedy_margin(state: GameState) -> int:
    """The margin the greedy policy reaches on this deal (the rules-following baseline)."""
    pol = GreedyPolicy()
    rng = policy_rng(state.seed if state.seed is not None else 0)
    s = state
    for _ in range(MAX_STEPS):
        if is_over(s):
            return scores(s).margin
        actions = legal_actions(s)
        s = apply(s, actions[0] if s.to_move == "opponent" else pol.choose(s, actions, rng))
    raise BadInput("greedy game did not finish")


def _play_out(state: GameState, line: Line, town: Town) -> GameState:
    """Replay ``line`` with ``town``'s placements through the engine (checks every step)."""
    drafts = list(line.drafts)
    places = list(town.placements)
    s = state
    for _ in range(MAX_STEPS):
        if is_over(s):
            return s
        if s.to_move == "opponent":
            s = apply(s, legal_actions(s)[0])
        elif s.hand:
            s = apply(s, Place(places.pop(0)))
        else:
            s = apply(s, Draft(drafts.pop(0)))
    raise BadInput("replay did not finish")


def best_play(scenario_id: str, seed: int | None = None, circle: Sequence[int] | None = None,
              deck: Sequence[int] | None = None, rules: Rules = Rules(), time_limit: float = 60.0,
              progress: Progress | None = None, data: WagonsData | None = None,
              max_lines: int = 20000) -> BestPlay:
    """Best line of play for a known deal (rule:W-opt-bestplay); proven when every line is settled."""
    start = time.monotonic()
    data = data or load_data()
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
        raise BadInput(f"time limit: expected a positive number of seconds, got {time_limit!r}")
    state = deal_state(scenario_id, seed, circle, deck, rules, data)
    lines = draft_lines(state, data, max_lines, deadline=start + time_limit / 2)
    elapsed = lambda: time.monotonic() - start

    lows = []
    for line in lines:  # greedy lower bounds, within half the time (the rest stay unbounded)
        if lows and any(v is not None for v, _ in lows) and elapsed() > time_limit / 2:
            lows.append((None, None))
            continue
        town, v = greedy_layout(line.cards, scenario_id, line.pile, rules, "margin", data)
        lows.append((v, town) if _meets_round1(town, line.round1) else (None, None))
    order = sorted(range(len(lines)), key=lambda i: (lows[i][0] is None, -(lows[i][0] or 0)))
    best, best_line, best_town = None, None, None
    for i in order:
        if lows[i][0] is not None and (best is None or lows[i][0] > best):
            best, best_line, best_town = lows[i][0], lines[i], lows[i][1]
    if progress:
        progress(best, None, elapsed())
    settled = 0
    for pos, i in enumerate(order):
        remaining = time_limit - elapsed()
        if remaining <= 0.05:
            break
        line = lines[i]
        share = max(remaining / (len(order) - pos), min(remaining, 5.0))  # the most promising lines first
        r = best_layout(line.cards, scenario_id, line.pile, rules, time_limit=share, objective="margin",
                        data=data, seed_greedy=False, floor=best, round1=line.round1)
        if r.placements:
            best, best_line, best_town = r.value, line, Town(r.placements)
            if progress:
                progress(best, None, elapsed())
        if r.proven_optimal:
            settled += 1
    proven = settled == len(lines) and getattr(lines, "complete", True)
    if best_line is None:
        raise BadInput("no line of play found within the time limit; allow more time")
    final_state = _play_out(state, best_line, best_town)
    final = scores(final_state)
    if final.margin != best:
        raise AssertionError(f"best play: replay gives margin {final.margin}, the search recorded {best}")
    actions = tuple(_entry_action(e) for e in final_state.log if e.who == "player")
    if progress:
        progress(best, best if proven else None, elapsed())
    return BestPlay(best, proven, best_line.drafts, actions, final.to_dict(), len(lines), settled, elapsed(),
                    greedy_margin(state), tuple(e.to_dict() for e in final_state.log))


def _entry_action(e) -> dict:
    if e.what == "draft":
        return {"draft": len(e.skipped), "card": e.card, "skipped": list(e.skipped)}
    return {"place": e.placement.to_dict()}


def best_play_row(scenario_id: str, seed: int, time_limit: float = 30.0, rules: dict | None = None,
                  data: WagonsData | None = None) -> dict:
    """One deal as a flat, picklable row (module-level: safe for process pools and Dask)."""
    r = Rules.from_dict(rules or {})
    res = best_play(scenario_id, seed=seed, rules=r, time_limit=time_limit, data=data)
    return {"scenario": scenario_id, "seed": seed, "best_margin": res.margin, "proven": res.proven_optimal,
            "greedy_margin": res.greedy_margin, "best_wins": res.margin > 0,
            "greedy_wins": res.greedy_margin is not None and res.greedy_margin > 0,
            "gap": res.margin - res.greedy_margin if res.greedy_margin is not None else None,
            "lines": res.lines, "lines_settled": res.lines_settled, "elapsed": round(res.elapsed, 3)}


def difficulty_table(scenarios: Sequence[str], n_deals: int, seed: int = 0, time_limit: float = 30.0,
                     rules: dict | None = None, executor=None, data: WagonsData | None = None):
    """Best achievable margin vs the greedy policy, per deal: a ``polars.DataFrame`` (one row per deal).

    Deal ``i`` of each scenario uses seed ``seed + i``. ``executor`` (optional) is anything with
    ``map(fn, *iterables)`` (a process pool, :mod:`solver.executor`); default: in this process.
    ``data``: the cards, goals and scenarios to play and score with (None = the shipped files).
    Summarise with :func:`difficulty_summary`.
    """
    import polars as pl

    if isinstance(n_deals, bool) or not isinstance(n_deals, int) or n_deals < 0:
        raise BadInput(f"n_deals: expected a whole number >= 0, got {n_deals!r}")
    for s in scenarios:
        (data or load_data()).scenario(s)
    jobs = [(s, seed + i) for s in scenarios for i in range(n_deals)]
    args = ([j[0] for j in jobs], [j[1] for j in jobs], [time_limit] * len(jobs), [rules] * len(jobs),
            [data] * len(jobs))
    mapper = executor.map if executor is not None else map
    rows = list(mapper(best_play_row, *args))
    schema = {"scenario": pl.Utf8, "seed": pl.Int64, "best_margin": pl.Int64, "proven": pl.Boolean,
              "greedy_margin": pl.Int64, "best_wins": pl.Boolean, "greedy_wins": pl.Boolean, "gap": pl.Int64,
              "lines": pl.Int64, "lines_settled": pl.Int64, "elapsed": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


def difficulty_summary(table):
    """Per scenario: deals, share winnable with best play vs greedy, margin quantiles, share proven."""
    import polars as pl

    return (table.group_by("scenario", maintain_order=True)
            .agg(pl.len().alias("deals"),
                 pl.col("best_wins").mean().alias("win_share_best"),
                 pl.col("greedy_wins").mean().alias("win_share_greedy"),
                 pl.col("best_margin").median().alias("best_margin_median"),
                 pl.col("best_margin").min().alias("best_margin_min"),
                 pl.col("best_margin").max().alias("best_margin_max"),
                 pl.col("gap").mean().alias("gap_mean"),
                 pl.col("proven").mean().alias("proven_share")))
