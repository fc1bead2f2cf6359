"""Final scores (rule:W7, rule:W6, rule:W8): the player's town, the opponent's pile, the winner.

Player (rule:W-groups): 1 point per territory in the largest edge-connected group of each of the
6 terrains, plus the scenario's two goal cards (rule:W7). Opponent: 1 point per territory in its 3
most common terrains (rule:W-common) plus the scenario's readings of the goal cards (rule:W6); the
later edition scores per card instead (rule:W-later-scoring). Equal totals: rule:W8. The goal
cards are :mod:`solver.wagons.scoring.goals`; the bitboards :mod:`solver.wagons.scoring.bitboards`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from solver.contract import Outcome
from solver.errors import BadInput
from solver.wagons.cards import check_pile, load_cards
from solver.wagons.codes import BEER, GUN, MINE, TERRAINS
from solver.wagons.data import GoalSpec, ScenarioSpec, WagonsData, load_data
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring.bitboards import (
    PileCounts,
    TownFeatures,
    largest_group_size,
    largest_group_size_uncached,
    pile_counts,
    pile_pack,
    placements_features,
)
from solver.wagons.scoring.goals import (
    COMPARING,
    Side,
    comparing_goal,
    comparing_goal_scorer,
    opponent_goal,
    player_goal_scorer,
)
from solver.wagons.town import Town

__all__ = ["Winner", "DecidedBy", "PlayerScore", "OpponentScore", "FinalScores", "score_player", "score_opponent", "final_scores",
           "winner_of", "margin_of", "margin_scorer", "opponent_fixed", "common_score", "later_card_score",
           "low_confidence", "is_low_confidence",
           "clear_caches"]

# ---------------------------------------------------------------- results


class Winner(StrEnum):
    """Who won a Lone Cowboy game (rule:W8): the player, the opponent, or nobody (a tie); equal to the strings the
    files and ``--json`` carry."""

    PLAYER = "player"
    OPPONENT = "opponent"
    TIE = "tie"


class DecidedBy(StrEnum):
    """What decided it (rule:W8): the higher total, most Guns on equal totals (``tie_break="guns"``), or nothing:
    a tie."""

    TOTAL = "total"
    GUNS = "guns"
    TIE = "tie"


@dataclass(frozen=True)
class PlayerScore:
    groups: dict = field(default_factory=dict)
    goals: dict = field(default_factory=dict)
    total: int = 0

    def to_dict(self) -> dict:
        return {"groups": dict(self.groups), "goals": dict(self.goals), "total": self.total}


@dataclass(frozen=True)
class OpponentScore:
    common: int = 0
    goals: dict = field(default_factory=dict)
    total: int = 0
    common_rule: str = "W-common"

    def to_dict(self) -> dict:
        return {"common": self.common, "goals": dict(self.goals), "total": self.total,
                "common_rule": self.common_rule}


@dataclass(frozen=True)
class FinalScores:
    player: PlayerScore
    opponent: OpponentScore
    winner: Winner
    decided_by: DecidedBy
    low_confidence: tuple[str, ...] = ()  # goal cards scored with a low-confidence number (rule:W11)

    @property
    def margin(self) -> int:
        return self.player.total - self.opponent.total

    @property
    def outcome(self) -> Outcome:
        """Who won and what decided it (rule:W8), as the game contract's :class:`~solver.contract.Outcome`."""
        return Outcome(self.winner, self.decided_by)

    def to_dict(self) -> dict:
        return {"player": self.player.to_dict(), "opponent": self.opponent.to_dict(),
                "winner": self.winner, "margin": self.margin, "decided_by": self.decided_by,
                "low_confidence": list(self.low_confidence)}


def is_low_confidence(goal: GoalSpec) -> bool:
    """A goal card known from one unofficial source, or with such a number or reading (rule:W11)."""
    return goal.confidence.startswith("low") or any(str(c).startswith("low") for _, c in goal.param_confidence)


def low_confidence(scenario_id: str, data: WagonsData | None = None, readings: WagonsReadings = WagonsReadings()) -> tuple[str, ...]:
    """The scenario's goal cards whose scores rest on a low-confidence number or reading (rule:W11):
    what a score that uses them must say it is (a reading, not a fact)."""
    data = (data or load_data()).for_readings(readings)
    return tuple(name for name in data.scenario(scenario_id).goals if is_low_confidence(data.goal(name)))


def _sides(f: TownFeatures, pc: PileCounts, scenario: ScenarioSpec, goal: GoalSpec) -> tuple[Side, Side, bool]:
    reading = scenario.reading(goal.name)
    player = Side(f.territories, f.icon[BEER].bit_count(), f.icon[MINE].bit_count(), f.icon[GUN].bit_count())
    opp = Side(pc.territories, pc.icon[BEER], pc.icon[MINE], pc.icon[GUN] + reading.extra_guns)
    return player, opp, reading.can_lose


def _scenario(scenario_id: str, data: WagonsData) -> ScenarioSpec:
    if not isinstance(scenario_id, str):
        raise BadInput(f"scenario: expected a scenario id, got {scenario_id!r}")
    return data.scenario(scenario_id)


_PLANS: dict[tuple[int, str], tuple] = {}


def _plan(scenario_id: str, data: WagonsData) -> tuple[ScenarioSpec, tuple]:
    """(scenario, ((goal name, goal, compiled scorer or None, compiled comparing card or None), ...)),
    cached per data set and scenario id (BadInput for an unknown scenario)."""
    hit = _PLANS.get((id(data), scenario_id))
    if hit is not None and hit[0] is data:
        return hit[1], hit[2]
    scenario = data.scenario(scenario_id)
    goals = tuple((name, data.goal(name)) for name in scenario.goals)
    plan = tuple((name, goal, None if goal.kind in COMPARING else player_goal_scorer(goal),
                  comparing_goal_scorer(goal) if goal.kind in COMPARING else None) for name, goal in goals)
    if len(_PLANS) > 256:
        _PLANS.clear()
    _PLANS[(id(data), scenario_id)] = (data, scenario, plan)
    return scenario, plan


D_, F_, M_, P_, S_, W_ = TERRAINS
_BEER_AT, _MINE_AT, _GUN_AT = 8 * (6 + BEER), 8 * (6 + MINE), 8 * (6 + GUN)


def score_player(town: Town, scenario_id: str, opponent_pile, readings: WagonsReadings = WagonsReadings(),
                 data: WagonsData | None = None, features: TownFeatures | None = None) -> PlayerScore:
    """The player's final score: largest groups + the scenario's two goal cards (rule:W7)."""
    data = (data or load_data()).for_readings(readings)  # rule:W11
    if not isinstance(scenario_id, str):
        raise BadInput(f"scenario: expected a scenario id, got {scenario_id!r}")
    scenario, plan = _plan(scenario_id, data)
    pile = check_pile(opponent_pile, town.card_ids)
    f = features or placements_features(town.placements)
    w = f.width
    largest = largest_group_size_uncached
    d, fo, mo, pl, sn, wa = f.terrain
    groups = {D_: largest(d, w), F_: largest(fo, w), M_: largest(mo, w), P_: largest(pl, w),
              S_: largest(sn, w), W_: largest(wa, w)}
    total = sum(groups.values())
    goals = {}
    for name, _goal, fn, cmp in plan:
        if fn is None:  # a comparing card: the player's side against the pile
            reading = scenario.reading(name)
            pack = pile_pack(pile)
            ico = f.icon
            mine = Side(f.occupied.bit_count(), ico[BEER].bit_count(), ico[MINE].bit_count(), ico[GUN].bit_count())
            theirs = Side(4 * len(pile), (pack >> _BEER_AT) & 255, (pack >> _MINE_AT) & 255,
                          ((pack >> _GUN_AT) & 255) + reading.extra_guns)
            v = cmp(mine, theirs, reading.can_lose)[0]
        else:
            v = fn(f)
        goals[name] = v
        total += v
    return PlayerScore(groups, goals, total)


def margin_of(f: TownFeatures, pile: tuple[int, ...], scenario_id: str, readings: WagonsReadings = WagonsReadings(),
              data: WagonsData | None = None, opponent_base: int | None = None) -> int:
    """Player total - opponent total from bitboards (the greedy policy's fast path; same rules as
    :func:`final_scores`). ``opponent_base`` = the opponent's total without comparing cards, if known."""
    data = (data or load_data()).for_readings(readings)  # rule:W11
    if not isinstance(scenario_id, str):
        data.scenario(scenario_id)  # raises the BadInput naming it
    scenario, plan = _plan(scenario_id, data)
    pc = pile_counts(pile)
    w = f.width
    d, fo, mo, pl, sn, wa = f.terrain
    player = largest_group_size(d, w) + largest_group_size(fo, w) + largest_group_size(mo, w) + largest_group_size(pl, w) + largest_group_size(sn, w) + largest_group_size(wa, w)
    opp = 0
    for _name, goal, fn, cmp in plan:
        if fn is None:
            ps, os, can_lose = _sides(f, pc, scenario, goal)
            a, b = cmp(ps, os, can_lose)
            player += a
            opp += b
        else:
            player += fn(f)
    if opponent_base is None:
        opponent_base = opponent_fixed(pile, scenario_id, readings, data)
    return player - opp - opponent_base


def margin_scorer(pile: tuple[int, ...], scenario_id: str, readings: WagonsReadings = WagonsReadings(), data: WagonsData | None = None,
                  opponent_base: int | None = None, near: TownFeatures | None = None):
    """``margin(f)``, equal to ``margin_of(f, pile, scenario_id, readings, data, opponent_base)``, with
    everything that does not depend on the town (scenario, pile counts, the opponent's fixed
    points) worked out once: for scoring many candidate towns against the same pile.

    ``near``: features most scored towns differ from in a few masks (e.g. the town before one more
    card, same frame); its group sizes are reused for every terrain mask left unchanged."""
    data = (data or load_data()).for_readings(readings)  # rule:W11
    if not isinstance(scenario_id, str):
        data.scenario(scenario_id)  # raises the BadInput naming it
    scenario, plan = _plan(scenario_id, data)
    pc = pile_counts(pile)
    fns, comparing = [], []
    for name, _goal, fn, cmp in plan:
        if fn is None:
            reading = scenario.reading(name)
            theirs = Side(pc.territories, pc.icon[BEER], pc.icon[MINE], pc.icon[GUN] + reading.extra_guns)
            comparing.append((cmp, theirs, reading.can_lose))
        else:
            fns.append(fn)
    base = opponent_fixed(pile, scenario_id, readings, data) if opponent_base is None else opponent_base
    fns = tuple(fns)
    comparing = tuple(comparing)
    if near is None:
        near = TownFeatures(0, (-1,) * 6, (-1,) * 6, -1)  # no real mask equals -1
    nw = near.width
    n0, n1, n2, n3, n4, n5 = near.terrain
    g0, g1, g2, g3, g4, g5 = (largest_group_size(m, nw) if m >= 0 else 0 for m in near.terrain)

    def margin(f: TownFeatures) -> int:
        w = f.width
        d, fo, mo, pl, sn, wa = f.terrain
        if w == nw:
            v = (g0 if d == n0 else largest_group_size(d, w)) + (g1 if fo == n1 else largest_group_size(fo, w)) \
                + (g2 if mo == n2 else largest_group_size(mo, w)) + (g3 if pl == n3 else largest_group_size(pl, w)) \
                + (g4 if sn == n4 else largest_group_size(sn, w)) + (g5 if wa == n5 else largest_group_size(wa, w)) - base
        else:
            v = largest_group_size(d, w) + largest_group_size(fo, w) + largest_group_size(mo, w) + largest_group_size(pl, w) + largest_group_size(sn, w) \
                + largest_group_size(wa, w) - base
        for fn in fns:
            v += fn(f)
        for cmp, theirs, can_lose in comparing:
            ico = f.icon
            mine = Side(f.occupied.bit_count(), ico[BEER].bit_count(), ico[MINE].bit_count(), ico[GUN].bit_count())
            a, b = cmp(mine, theirs, can_lose)
            v += a - b
        return v
    return margin


def opponent_fixed(pile: tuple[int, ...], scenario_id: str, readings: WagonsReadings = WagonsReadings(),
                   data: WagonsData | None = None) -> int:
    """The part of the opponent's total that does not depend on the player's town."""
    data = (data or load_data()).for_readings(readings)  # rule:W11
    scenario = data.scenario(scenario_id)
    pc = pile_counts(pile)
    total = later_card_score(pile, data.difficulty_table(readings.difficulty)) if readings.edition == "later" \
        else common_score(pc)
    for name in scenario.goals:
        goal = data.goal(name)
        if goal.kind not in COMPARING:
            total += opponent_goal(goal, scenario.reading(name), pc, data, readings, pile)
    return total


def common_score(pc: PileCounts) -> int:
    """1 point per territory of the opponent's 3 most common terrains (rule:W-common)."""
    return sum(sorted(pc.terrain, reverse=True)[:3])


def later_card_score(pile, table: dict[int, int]) -> int:
    """Later edition: per card, points by its number of distinct terrains (rule:W-later-scoring), from the table
    of the difficulty level (rule:W-later-difficulty)."""
    cards = load_cards()
    total = 0
    for cid in pile:
        n = len({t.terrain for t in cards[cid].territories})
        if n not in table:
            raise BadInput(f"later edition: card {cid} has {n} distinct terrains; the difficulty table has no entry")
        total += table[n]
    return total


def score_opponent(pile, scenario_id: str, player_town: Town, readings: WagonsReadings = WagonsReadings(),
                   data: WagonsData | None = None, features: TownFeatures | None = None) -> OpponentScore:
    """The opponent's final score: 3 most common terrains + the scenario's readings (rule:W6)."""
    data = (data or load_data()).for_readings(readings)  # rule:W11
    scenario = _scenario(scenario_id, data)
    pile = check_pile(pile, player_town.card_ids)
    pc = pile_counts(pile)
    if readings.edition == "later":
        common, common_rule = later_card_score(pile, data.difficulty_table(readings.difficulty)), "W-later-scoring"
    else:
        common, common_rule = common_score(pc), "W-common"
    goals = {}
    for name in scenario.goals:
        goal = data.goal(name)
        if goal.kind in COMPARING:
            p, o, can_lose = _sides(features or placements_features(player_town.placements), pc, scenario, goal)
            goals[name] = comparing_goal(goal, p, o, can_lose)[1]
        else:
            goals[name] = opponent_goal(goal, scenario.reading(name), pc, data, readings, pile)
    return OpponentScore(common, goals, common + sum(goals.values()), common_rule)


def winner_of(player_total: int, opponent_total: int, player_guns: int, opponent_guns: int,
              readings: WagonsReadings = WagonsReadings()) -> tuple[Winner, DecidedBy]:
    """(winner, what decided it): higher total; a tie stays a tie or goes to most Guns (rule:W8)."""
    if player_total != opponent_total:
        return (Winner.PLAYER if player_total > opponent_total else Winner.OPPONENT), DecidedBy.TOTAL
    if readings.tie_break == "guns" and player_guns != opponent_guns:
        return (Winner.PLAYER if player_guns > opponent_guns else Winner.OPPONENT), DecidedBy.GUNS
    return Winner.TIE, DecidedBy.TIE


def final_scores(town: Town, pile, scenario_id: str, readings: WagonsReadings = WagonsReadings(),
                 data: WagonsData | None = None) -> FinalScores:
    """Both scores and the winner (rule:W8)."""
    f = placements_features(town.placements)
    player = score_player(town, scenario_id, pile, readings, data, f)
    opponent = score_opponent(pile, scenario_id, town, readings, data, f)
    guns_p = f.icon[GUN].bit_count()
    guns_o = pile_counts(tuple(pile)).icon[GUN]
    winner, decided = winner_of(player.total, opponent.total, guns_p, guns_o, readings)
    return FinalScores(player, opponent, winner, decided, low_confidence(scenario_id, data, readings))


def clear_caches() -> None:
    """Empty the per-scenario plans (for benchmarks that time a cold start)."""
    _PLANS.clear()
