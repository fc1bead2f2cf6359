"""The goal cards by kind (rule:W7, rule:W6): the player's cards, the comparing cards, the opponent's readings.

Each player goal card compiles, with its ``goals.toml`` parameters bound once, to ``score(f)`` over the
town's bitboards (:class:`~solver.wagons.scoring.bitboards.TownFeatures`); each comparing card to
``score(player, opponent, opponent_can_lose) -> (player points, opponent points)`` over the two
:class:`Side` counts; :func:`opponent_goal` scores a non-comparing card for the opponent's pile by
the scenario's reading. Every number comes from the data files (a user can correct it).
"""

from __future__ import annotations

from typing import NamedTuple

from solver.errors import BadInput
from solver.wagons import goal_kinds
from solver.wagons.cards import card_codes, load_cards
from solver.wagons.codes import (
    BEER,
    COW,
    DESERT,
    GUN,
    ICON_CODE,
    MINE,
    MOUNTAINS,
    SNOW,
    TERRAIN_CODE,
    WAGON,
    WATER,
)
from solver.wagons.data import GoalSpec, OpponentReading, WagonsData
from solver.wagons.goal_kinds import boom_points
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring.bitboards import PileCounts, TownFeatures, group_of, largest_group_size

__all__ = ["COMPARING", "Side", "PLAYER_GOALS", "COMPARING_GOALS", "player_goal", "player_goal_scorer",
           "comparing_goal", "comparing_goal_scorer", "opponent_goal", "opponent_mines", "run_points", "run_partition_best", "boom_points", "clear_caches"]

# ---------------------------------------------------------------- player goals (one rule id per card)

def _runs(m: int, step: int) -> list[int]:
    """Lengths of maximal straight runs in mask ``m`` along ``step`` (1 = row, width = column)."""
    out = []
    starts = m & ~(m << step)
    while starts:
        b = starts & -starts
        starts ^= b
        n = 0
        while m & b:
            n += 1
            b <<= step
        out.append(n)
    return out


def run_points(table: tuple[int, ...], n: int) -> int:
    return table[min(n, len(table) - 1)]


def run_partition_best(table, most: int) -> list[int]:
    """``best[w]`` for ``w <= most``: the most the runs of one direction (rows, or columns) can score with
    ``w`` visible Wagons (rule:W-goal-wagon-train): every visible Wagon lies in exactly one maximal run
    of each direction, so those runs' lengths partition ``w``, and a run of length L scores
    ``table[min(L, K)]``; the maximum over the partitions of ``w`` is an upper bound whatever the
    geometry (exact dynamic programme over the last part). The CP-SAT model and the Z3 verifier read it."""
    table = tuple(table)
    best = [0] * (most + 1)
    for w in range(1, most + 1):
        best[w] = max(best[w - p] + run_points(table, p) for p in range(1, w + 1))
    return best


def _params(goal: GoalSpec, *keys: str):
    """The goal's values for ``keys``, or None when one is missing (the card then raises the
    same BadInput as ``goal.param`` each time it is scored)."""
    have = dict(goal.params)
    return [have[k] for k in keys] if all(k in have for k in keys) else None


def _missing(goal: GoalSpec, *keys: str):
    def score(*_):
        for k in keys:
            goal.param(k)  # raises the BadInput naming the missing parameter
    return score


def _cool_water(goal: GoalSpec):
    """rule:W-goal-cool-water; ties for the largest Water group: the best one (the player's choice)"""
    ps = _params(goal, "per_wagon")
    if ps is None:
        return _missing(goal, "per_wagon")
    per = ps[0]

    def score(f):
        m, w, wagons = f.terrain[WATER], f.width, f.icon[WAGON]
        size = best = 0
        while m:
            comp = group_of(m & -m, m, w)
            n = comp.bit_count()
            if n >= size:
                near = (wagons & (comp | (comp << 1) | (comp >> 1) | (comp << w) | (comp >> w))).bit_count()
                if n > size:
                    size, best = n, near
                elif near > best:
                    best = near
            m ^= comp
        return per * best
    return score


def _badlands(goal: GoalSpec):
    """rule:W-goal-badlands: a Gun between two Deserts (left+right or above+below); a Gun boxed in both ways
    counts once, or once per way with ``twice_when_boxed`` (rule:W12)"""
    ps = _params(goal, "per_gun")
    if ps is None:
        return _missing(goal, "per_gun")
    per = ps[0]
    twice = bool(dict(goal.params).get("twice_when_boxed", False))

    def score(f):
        d, w, guns = f.terrain[DESERT], f.width, f.icon[GUN]
        across, down = guns & (d << 1) & (d >> 1), guns & (d << w) & (d >> w)
        return per * (across.bit_count() + down.bit_count() if twice else (across | down).bit_count())
    return score


def _happy_cows(goal: GoalSpec):
    """rule:W-goal-happy-cows: a Cow neither on nor next to Snow; with ``snow_corners`` (rule:W13) a Snow
    touching the Cow's territory at a corner also counts as next to it"""
    ps = _params(goal, "per_cow")
    if ps is None:
        return _missing(goal, "per_cow")
    per = ps[0]
    corners = bool(dict(goal.params).get("snow_corners", False))

    def score(f):
        s, w = f.terrain[SNOW], f.width
        near = s | (s << 1) | (s >> 1) | (s << w) | (s >> w)
        if corners:  # the guard columns keep a diagonal shift off the next row's real cells
            near |= (s << (w + 1)) | (s << (w - 1)) | (s >> (w + 1)) | (s >> (w - 1))
        return per * (f.icon[COW] & ~near).bit_count()
    return score


def _bootleggers(goal: GoalSpec):
    """rule:W-goal-bootleggers: each Beer next to a Wagon scores, each other Beer loses"""
    ps = _params(goal, "per_beer_adjacent", "per_beer_alone")
    if ps is None:
        return _missing(goal, "per_beer_adjacent", "per_beer_alone")
    per_adj, per_alone = ps

    def score(f):
        v, w, beer = f.icon[WAGON], f.width, f.icon[BEER]
        adj = (beer & ((v << 1) | (v >> 1) | (v << w) | (v >> w))).bit_count()
        return per_adj * adj + per_alone * (beer.bit_count() - adj)
    return score


def _gold_country(goal: GoalSpec):
    """rule:W-goal-gold-country: a Mine on or next to Mountains"""
    ps = _params(goal, "per_mine")
    if ps is None:
        return _missing(goal, "per_mine")
    per = ps[0]

    def score(f):
        mt, w = f.terrain[MOUNTAINS], f.width
        return per * (f.icon[MINE] & (mt | (mt << 1) | (mt >> 1) | (mt << w) | (mt >> w))).bit_count()
    return score


def _the_herd(goal: GoalSpec):
    """rule:W-goal-the-herd: the largest edge-connected group of Cows"""
    ps = _params(goal, "per_cow")
    if ps is None:
        return _missing(goal, "per_cow")
    per = ps[0]
    return lambda f: per * largest_group_size(f.icon[COW], f.width)


def _wagon_train(goal: GoalSpec):
    """rule:W-goal-wagon-train: every maximal row run and column run of Wagons scores"""
    # run_points[min(length, last)]; with c_n = the runs of length n or more, that total is
    # sum(c_n * (run_points[n] - run_points[n - 1])) for n = 1..last (c_1 * run_points[1] for n = 1).
    ps = _params(goal, "run_points")
    if ps is None:
        return _missing(goal, "run_points")
    table = ps[0]
    if not isinstance(table, tuple) or len(table) < 2 or not all(type(v) is int for v in table):
        return lambda f: sum(run_points(table, n) for n in _runs(f.icon[WAGON], 1) + _runs(f.icon[WAGON], f.width))
    steps = (table[1],) + tuple(table[n] - table[n - 1] for n in range(2, len(table)))

    def score(f):
        m, total = f.icon[WAGON], 0
        for step in (1, f.width):
            cells = m & ~(m << step)  # the first cell of every run
            for d in steps:
                if not cells:
                    break
                total += d * cells.bit_count()
                cells = (cells << step) & m  # the next cell of the runs that go on
        return total
    return score


def _counting(goal: GoalSpec):
    """A counting kind (:mod:`solver.wagons.goal_kinds`: Prairie Life, Boom or Bust, ...): the catalogue's points
    of the total of the symbols it counts, tabled once for every total a town can show."""
    entry = goal_kinds.kind(goal.kind)
    if _params(goal, *entry.params) is None:
        return _missing(goal, *entry.params)
    lanes = goal_kinds.symbol_lanes(entry.counts)
    try:
        table = tuple(entry.points(goal, t) for t in range(4 * len(card_codes()) * len(lanes) + 1))
    except BadInput:  # a number the reading sets is missing: raise it when a town needs it, as the card does
        return lambda f: entry.points(goal, sum(f[1 + lane][code].bit_count() for lane, code in lanes))
    if len(lanes) == 1:
        (l0, c0), = lanes
        return lambda f: table[f[1 + l0][c0].bit_count()]
    if len(lanes) == 2:
        (l0, c0), (l1, c1) = lanes
        return lambda f: table[f[1 + l0][c0].bit_count() + f[1 + l1][c1].bit_count()]
    return lambda f: table[sum(f[1 + lane][code].bit_count() for lane, code in lanes)]


def _unknown(goal: GoalSpec):
    """rule:W-goal-unknown: a card whose text no source gives is never invented; scoring it is refused."""
    def score(f):
        raise BadInput(f"goal card '{goal.name}': its scoring text is in no source the project has; cannot score it")
    return score


def _compares_both(goal: GoalSpec):
    def score(f):
        raise BadInput(f"goal card '{goal.name}' compares both towns; score it with the opponent's pile")
    return score


PLAYER_GOALS = {"cool-water": _cool_water, "badlands": _badlands, "happy-cows": _happy_cows,
                "bootleggers": _bootleggers, "gold-country": _gold_country, "the-herd": _the_herd,
                "wagon-train": _wagon_train}
"""Position kind -> ``compile(goal) -> score(f)`` (the counting kinds compile from the catalogue alone)."""


def _compile_goal(goal: GoalSpec):
    """``score(f) -> points`` for a goal card that reads only the player's town, with the card's
    parameters bound once (the scorer's hot path calls it for every town)."""
    if goal.kind in goal_kinds.COUNTING:
        return _counting(goal)
    if goal.kind == goal_kinds.UNKNOWN:
        return _unknown(goal)
    return PLAYER_GOALS.get(goal.kind, _compares_both)(goal)


_GOAL_FNS: dict[int, tuple[GoalSpec, object]] = {}


def _compiled(cache: dict, compile_goal, goal: GoalSpec):
    """``compile_goal(goal)``, cached per goal object in ``cache`` (bounded)."""
    hit = cache.get(id(goal))
    if hit is not None and hit[0] is goal:
        return hit[1]
    fn = compile_goal(goal)
    if len(cache) > 1024:
        cache.clear()
    cache[id(goal)] = (goal, fn)
    return fn


def player_goal_scorer(goal: GoalSpec):
    """The compiled scorer of ``goal`` (cached per goal object)."""
    return _compiled(_GOAL_FNS, _compile_goal, goal)


def player_goal(goal: GoalSpec, f: TownFeatures) -> int:
    """A goal card that reads only the player's own town (not the comparing ones)."""
    return player_goal_scorer(goal)(f)


COMPARING = goal_kinds.COMPARING


class Side(NamedTuple):
    """What a comparing goal card reads from one side."""
    territories: int
    beers: int
    mines: int
    guns: int


def _one_too_many(goal: GoalSpec):
    """rule:W-goal-one-too-many: the side with more Beers loses per Beer of the other side"""
    ps = _params(goal, "loss_per_other_beer")
    if ps is None:
        return _missing(goal, "loss_per_other_beer")
    loss = ps[0]

    def score(player, opponent, opponent_can_lose=True):
        if player.beers > opponent.beers:
            return -loss * opponent.beers, 0
        if opponent.beers > player.beers:
            return 0, (-loss * player.beers if opponent_can_lose else 0)
        return 0, 0
    return score


def _claim_jumpers(goal: GoalSpec):
    """rule:W-goal-claim-jumpers: most Mines scores, less what the side with more Guns takes"""
    ps = _params(goal, "points", "taken_by_more_guns")
    if ps is None:
        return _missing(goal, "points", "taken_by_more_guns")
    pts, taken = ps

    def score(player, opponent, opponent_can_lose=True):
        if player.mines == opponent.mines:
            return 0, 0
        lead, other = (player, opponent) if player.mines > opponent.mines else (opponent, player)
        lead_pts, other_pts = (pts - taken, taken) if other.guns > lead.guns else (pts, 0)
        return (lead_pts, other_pts) if lead is player else (other_pts, lead_pts)
    return score


def _smalltown_charm(goal: GoalSpec):
    """rule:W-goal-smalltown-charm: the smaller town scores per territory of difference"""
    ps = _params(goal, "per_territory")
    if ps is None:
        return _missing(goal, "per_territory")
    per = ps[0]

    def score(player, opponent, opponent_can_lose=True):
        diff = player.territories - opponent.territories
        return (0, per * diff) if diff > 0 else (per * -diff, 0)
    return score


def _not_comparing(goal: GoalSpec):
    def score(player, opponent, opponent_can_lose=True):
        raise BadInput(f"goal card '{goal.name}' is not a comparing card")
    return score


COMPARING_GOALS = {"one-too-many": _one_too_many, "claim-jumpers": _claim_jumpers,
                   "smalltown-charm": _smalltown_charm}
"""Goal kind -> ``compile(goal) -> score(player, opponent, opponent_can_lose)`` for the comparing cards."""

goal_kinds.check_backend("scorer", PLAYER_GOALS.keys() | COMPARING_GOALS.keys(), ("position", "comparing"))


def _compile_comparing(goal: GoalSpec):
    """``score(player, opponent, opponent_can_lose) -> (player points, opponent points)`` for a goal
    card that compares both towns, with the card's parameters bound once."""
    return COMPARING_GOALS.get(goal.kind, _not_comparing)(goal)


_COMPARING_FNS: dict[int, tuple[GoalSpec, object]] = {}


def comparing_goal_scorer(goal: GoalSpec):
    """The compiled comparing card ``goal`` (cached per goal object)."""
    return _compiled(_COMPARING_FNS, _compile_comparing, goal)


def comparing_goal(goal: GoalSpec, player: Side, opponent: Side, opponent_can_lose: bool = True) -> tuple[int, int]:
    """(player points, opponent points) of a goal card that compares both towns."""
    return comparing_goal_scorer(goal)(player, opponent, opponent_can_lose)


# ---------------------------------------------------------------- opponent goals (rule:W6)

def _mine_territories(pile, terrains: tuple[str, ...]) -> int:
    """Territories of the pile's cards that show a Mine icon on one of ``terrains``."""
    cards = load_cards()
    return sum(1 for cid in pile for t in cards[cid].territories if t.icon == "Mine" and t.terrain in terrains)


def opponent_mines(reading: OpponentReading, pc: PileCounts, readings: WagonsReadings = WagonsReadings(), pile=()) -> int:
    """The opponent's Mines for Boom or Bust; with ``mine_terrains`` (Boomtown: "Mountains count as
    Mines") as ``readings.boomtown_mines`` reads it (rule:W6): Mine icons + those territories ("both"),
    each territory showing either once ("either"), or those territories alone ("mountains")."""
    extra = sum(pc.terrain[TERRAIN_CODE[t]] for t in reading.mine_terrains)
    if not reading.mine_terrains or readings.boomtown_mines == "both":
        return pc.icon[MINE] + extra
    if readings.boomtown_mines == "mountains":
        return extra
    return pc.icon[MINE] + extra - _mine_territories(pile, reading.mine_terrains)


def _opponent_total(entry, reading: OpponentReading, pc: PileCounts, readings: WagonsReadings, pile) -> int:
    """The pile's total of what a counting kind counts; the Mines as :func:`opponent_mines` reads them."""
    total = 0
    for lane, code in goal_kinds.symbol_lanes(entry.counts):
        if lane == 1 and code == MINE:
            total += opponent_mines(reading, pc, readings, pile)
        else:
            total += (pc.terrain if lane == 0 else pc.icon)[code]
    return total


def opponent_goal(goal: GoalSpec, reading: OpponentReading, pc: PileCounts, data: WagonsData,
                  readings: WagonsReadings = WagonsReadings(), pile=()) -> int:
    """The opponent's score for a non-comparing goal card, by the scenario's reading (rule:W6);
    ``pile`` (the cards counted in ``pc``) is read only by :func:`opponent_mines`. "as-player" scores a
    counting kind's total of the pile; a position kind has no positions in a pile, so it is refused."""
    r = reading.reading
    count = lambda: sum(pc.icon[ICON_CODE[i]] for i in reading.icons) + sum(pc.terrain[TERRAIN_CODE[t]] for t in reading.terrains)
    if r == "sets":
        parts = [pc.icon[ICON_CODE[i]] for i in reading.icons] + [pc.terrain[TERRAIN_CODE[t]] for t in reading.terrains]
        return reading.per_set * (min(parts) if parts else 0)
    if r == "per-symbol":
        return reading.points * count() // reading.divisor
    if r == "wagon-count":
        table = data.goal("Wagon Train").param("run_points")
        wagons = pc.icon[WAGON]
        return run_points(table, min(wagons, reading.cap)) + reading.per_extra * max(0, wagons - reading.cap)
    if r == "as-player":
        entry = goal_kinds.kind(goal.kind)
        if entry is not None and entry.family == "counting":
            return entry.points(goal, _opponent_total(entry, reading, pc, readings, pile))
        raise BadInput(f"scenario reading for '{goal.name}': the opponent's pile has no positions, so "
                       f"'as-player' cannot apply to it")
    raise BadInput(f"unknown opponent reading '{r}'")


def clear_caches() -> None:
    """Empty the compiled goal cards (for benchmarks that time a cold start)."""
    _GOAL_FNS.clear()
    _COMPARING_FNS.clear()
