"""Final scoring: the player's town and the opponent's pile (rule:W7, rule:W6, rule:W8).

Player (rule:W-groups): 1 point per territory in the largest edge-connected group of each of the
6 terrains, plus the scenario's two goal cards (rule:W7). Opponent: 1 point per territory in its 3
most common terrains (rule:W-common) plus the scenario's readings of the goal cards (rule:W6); the
later edition scores per card instead (rule:W-later-scoring). Every number comes from
``scenarios/wagons/goals.toml`` / ``scenarios.toml`` so a user can correct it.

The scorer works on bitboards: one Python int per terrain and per icon over the town's bounding
box (with a guard column so shifts never wrap into a real cell); groups are found by bitwise flood
fill. ``solver/wagons/reference.py`` is an independent dict-and-flood-fill scorer used to check it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from solver.errors import BadInput
from solver.wagons.cards import card_codes, load_cards
from solver.wagons.data import ICONS, TERRAINS, GoalSpec, OpponentReading, ScenarioSpec, WagonsData, load_data
from solver.wagons.rules import Rules
from solver.wagons.town import Town

__all__ = ["largest_groups", "score_player", "score_opponent", "final_scores", "PlayerScore",
           "OpponentScore", "FinalScores", "TownFeatures", "town_features", "pile_counts", "PileCounts",
           "winner_of", "growth_frame", "frame_features", "features_plus", "margin_of", "opponent_fixed",
           "common_score", "later_card_score", "features_of",
           "player_goal", "comparing_goal", "opponent_goal", "Side"]

DESERT, FOREST, MOUNTAINS, PLAINS, SNOW, WATER = range(6)
BEER, COW, FORT, GUN, MINE, WAGON = range(6)
T_IDX = {t: i for i, t in enumerate(TERRAINS)}
I_IDX = {t: i for i, t in enumerate(ICONS)}


# ---------------------------------------------------------------- bitboards

class TownFeatures(NamedTuple):
    """A town's visible territories as bitboards (bit index = (y+1-miny)*width + (x+1-minx)).

    An immutable named tuple (cheaper to build than a frozen dataclass on the scoring hot path)."""
    width: int
    terrain: tuple[int, ...]  # 6 masks
    icon: tuple[int, ...]     # 6 masks
    occupied: int

    @property
    def territories(self) -> int:
        return self.occupied.bit_count()

    def nbr(self, m: int) -> int:
        w = self.width
        return (m << 1) | (m >> 1) | (m << w) | (m >> w)

    def count_icon(self, icon: int) -> int:
        return self.icon[icon].bit_count()


_PATTERNS: dict[tuple[int, int, int], tuple] = {}


def _patterns(card: int, rot: int, width: int) -> tuple:
    """(block mask, ((mask index, pattern), ...)) of a card at bit 0 for ``width``; mask index
    0-5 = terrain, 6-11 = icon."""
    key = (card, rot, width)
    hit = _PATTERNS.get(key)
    if hit is None:
        pats: dict[int, int] = {}
        for dx, dy, t, i in card_codes()[card][0 if rot == 0 else 1]:
            b = 1 << (dy * width + dx)
            pats[t] = pats.get(t, 0) | b
            pats[6 + i] = pats.get(6 + i, 0) | b
        hit = (3 | (3 << width), tuple(pats.items()))
        if len(_PATTERNS) > 50_000:
            _PATTERNS.clear()
        _PATTERNS[key] = hit
    return hit


def _features(placements, frame: tuple[int, int, int] | None = None) -> TownFeatures:
    """Bitboards of the visible grid; ``frame`` = (minx, miny, width) or None for the tight box."""
    if not placements:
        return TownFeatures(frame[2] if frame else 3, (0,) * 6, (0,) * 6, 0)
    if frame is None:
        xs = [p.x for p in placements]
        minx = min(xs)
        miny = min([p.y for p in placements])
        width = max(xs) - minx + 4  # 2 columns per card + guard columns
    else:
        minx, miny, width = frame
    masks = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    occ = 0
    get = _PATTERNS.get
    for p in reversed(placements):  # top card first: a cell keeps its top territory (rule:W-cover)
        shift = (p.y - miny + 1) * width + p.x - minx + 1
        block, pats = get((p.card, p.rot, width)) or _patterns(p.card, p.rot, width)
        free = ~occ >> shift  # cells not yet covered by a later card, seen from this card
        if free & block == block:
            for k, m in pats:
                masks[k] |= m << shift
        else:
            for k, m in pats:
                masks[k] |= (m & free) << shift
        occ |= block << shift
    return TownFeatures(width, tuple(masks[:6]), tuple(masks[6:]), occ)


def growth_frame(town: Town) -> tuple[int, int, int]:
    """A frame holding the town and every placement legal next to it (for :func:`features_plus`)."""
    if not town.placements:
        return (0, 0, 6)
    minx = min(p.x for p in town.placements) - 2
    miny = min(p.y for p in town.placements) - 2
    return (minx, miny, max(p.x for p in town.placements) + 2 - minx + 4)


def frame_features(town: Town, frame: tuple[int, int, int]) -> TownFeatures:
    return _features(town.placements, frame)


def features_plus(f: TownFeatures, frame: tuple[int, int, int], p) -> TownFeatures:
    """``f`` with placement ``p`` on top (same frame; p must lie inside it). rule:W-cover"""
    minx, miny, width = frame
    ter = list(f.terrain)
    ico = list(f.icon)
    occ = f.occupied
    base = (p.y - miny + 1) * width + (p.x - minx + 1)
    for dx, dy, t, i in card_codes()[p.card][0 if p.rot == 0 else 1]:
        b = 1 << (base + dy * width + dx)
        if occ & b:
            nb = ~b
            for k in range(6):
                ter[k] &= nb
                ico[k] &= nb
        occ |= b
        ter[t] |= b
        ico[i] |= b
    return TownFeatures(width, tuple(ter), tuple(ico), occ)


@lru_cache(maxsize=4096)
def town_features(town: Town) -> TownFeatures:
    """The town's bitboards (cached per town; a Town is immutable)."""
    return _features(town.placements)


def _components(m: int, w: int):
    while m:
        comp = m & -m
        while True:
            grow = (comp | (comp << 1) | (comp >> 1) | (comp << w) | (comp >> w)) & m
            if grow == comp:
                break
            comp = grow
        yield comp
        m ^= comp


_LARGEST_CACHE: dict[tuple[int, int], int] = {}


def _largest(m: int, w: int) -> int:
    """Size of the largest edge-connected group in mask ``m`` (memoised: the greedy policy asks
    the same unchanged masks many times)."""
    key = (m, w)
    hit = _LARGEST_CACHE.get(key)
    if hit is not None:
        return hit
    if len(_LARGEST_CACHE) > 200_000:
        _LARGEST_CACHE.clear()
    best = _largest_uncached(m, w)
    _LARGEST_CACHE[key] = best
    return best


def _largest_uncached(m: int, w: int) -> int:
    """Bitwise flood fill; ``(comp + m) ^ m`` fills a row run towards higher bits in one step
    (the guard column keeps runs from crossing rows), shifts do the other three directions."""
    total = m.bit_count()
    if total <= 1:
        return total
    best = 0
    while m:
        comp = m & -m
        while True:
            grow = comp | (((comp + m) ^ m) & m)
            grow = (grow | (grow >> 1) | (grow << w) | (grow >> w)) & m
            if grow == comp:
                break
            comp = grow
        n = comp.bit_count()
        if n > best:
            best = n
        total -= n
        if total <= best:
            break
        m ^= comp
    return best


def _largest_components(m: int, w: int) -> list[int]:
    comps = list(_components(m, w))
    if not comps:
        return []
    best = max(c.bit_count() for c in comps)
    return [c for c in comps if c.bit_count() == best]


def largest_groups(grid) -> dict[str, int]:
    """Largest edge-connected group size per terrain (rule:W-groups).

    ``grid`` is a :class:`Town`, :class:`TownFeatures`, or a ``{(x, y): Territory}`` mapping.
    """
    f = _as_features(grid)
    return {t: _largest(f.terrain[i], f.width) for i, t in enumerate(TERRAINS)}


def features_of(grid) -> TownFeatures:
    """Bitboards of a :class:`Town`, a ``{(x, y): Territory}`` grid, or features (unchanged)."""
    return _as_features(grid)


def _as_features(grid) -> TownFeatures:
    if isinstance(grid, TownFeatures):
        return grid
    if isinstance(grid, Town):
        return town_features(grid)
    if isinstance(grid, dict):
        if not grid:
            return TownFeatures(3, (0,) * 6, (0,) * 6, 0)
        minx = min(x for x, _ in grid)
        miny = min(y for _, y in grid)
        width = max(x for x, _ in grid) - minx + 3
        ter = [0] * 6
        ico = [0] * 6
        occ = 0
        for (x, y), t in grid.items():
            b = 1 << ((y - miny + 1) * width + (x - minx + 1))
            occ |= b
            ter[T_IDX[t.terrain]] |= b
            ico[I_IDX[t.icon]] |= b
        return TownFeatures(width, tuple(ter), tuple(ico), occ)
    raise BadInput(f"largest_groups: expected a town or a grid, got {type(grid).__name__}")


# ---------------------------------------------------------------- pile counts

@dataclass(frozen=True)
class PileCounts:
    """The opponent's pile: every territory of every card counts (rule:W6)."""
    cards: int
    terrain: tuple[int, ...]
    icon: tuple[int, ...]

    @property
    def territories(self) -> int:
        return 4 * self.cards


@lru_cache(maxsize=1)
def _card_counts() -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    out = []
    for c in load_cards():
        ter = [0] * 6
        ico = [0] * 6
        for t in c.territories:
            ter[T_IDX[t.terrain]] += 1
            ico[I_IDX[t.icon]] += 1
        out.append((tuple(ter), tuple(ico)))
    return tuple(out)


@lru_cache(maxsize=4096)
def pile_counts(pile: tuple[int, ...]) -> PileCounts:
    """Terrain and icon counts over every territory of the pile's cards."""
    counts = _card_counts()
    ter = [0] * 6
    ico = [0] * 6
    for cid in pile:
        if isinstance(cid, bool) or not isinstance(cid, int) or not 0 <= cid < len(counts):
            raise BadInput(f"opponent pile: card {cid!r} is not a card id 0..{len(counts) - 1}")
        ct, ci = counts[cid]
        for k in range(6):
            ter[k] += ct[k]
            ico[k] += ci[k]
    return PileCounts(len(pile), tuple(ter), tuple(ico))


def _check_pile(pile, town: Town | None = None) -> tuple[int, ...]:
    pile = tuple(pile)
    ids = set(pile)
    if len(ids) != len(pile):
        raise BadInput("opponent pile: a card id appears twice")
    if town is not None and not ids.isdisjoint([p.card for p in town.placements]):
        both = ids & set(town.card_ids)
        if both:
            raise BadInput(f"opponent pile: card {min(both)} is also in the player's town")
    return pile


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


def _run_points(table: tuple[int, ...], n: int) -> int:
    return table[min(n, len(table) - 1)]


def _boom(goal: GoalSpec, mines: int) -> int:
    for lo, hi, pts in goal.param("bands"):
        if mines >= lo and (hi < 0 or mines <= hi):
            return pts * mines if goal.param("per_mine") else pts
    return 0


def player_goal(goal: GoalSpec, f: TownFeatures) -> int:
    """A goal card that reads only the player's own town (not the comparing ones)."""
    k, w = goal.kind, f.width
    T, I = f.terrain, f.icon
    if k == "cool-water":
        # rule:W-goal-cool-water; ties for the largest Water group: the best one (the player's choice)
        best = 0
        for comp in _largest_components(T[WATER], w):
            best = max(best, (I[WAGON] & (comp | f.nbr(comp))).bit_count())
        return goal.param("per_wagon") * best
    if k == "badlands":
        # rule:W-goal-badlands: a Gun between two Deserts (left+right or above+below), counted once
        d = T[DESERT]
        between = I[GUN] & (((d << 1) & (d >> 1)) | ((d << w) & (d >> w)))
        return goal.param("per_gun") * between.bit_count()
    if k == "happy-cows":
        # rule:W-goal-happy-cows
        s = T[SNOW]
        return goal.param("per_cow") * (I[COW] & ~(s | f.nbr(s))).bit_count()
    if k == "bootleggers":
        # rule:W-goal-bootleggers
        adj = I[BEER] & f.nbr(I[WAGON])
        alone = I[BEER] & ~adj
        return goal.param("per_beer_adjacent") * adj.bit_count() + goal.param("per_beer_alone") * alone.bit_count()
    if k == "gold-country":
        # rule:W-goal-gold-country
        mt = T[MOUNTAINS]
        return goal.param("per_mine") * (I[MINE] & (mt | f.nbr(mt))).bit_count()
    if k == "prairie-life":
        # rule:W-goal-prairie-life
        return (I[COW].bit_count() + T[PLAINS].bit_count()) * goal.param("per_symbol") // goal.param("divisor")
    if k == "the-herd":
        # rule:W-goal-the-herd
        return goal.param("per_cow") * _largest(I[COW], w)
    if k == "wagon-train":
        # rule:W-goal-wagon-train: every maximal row run and column run of 2+ Wagons
        table = goal.param("run_points")
        return sum(_run_points(table, n) for n in _runs(I[WAGON], 1) + _runs(I[WAGON], w))
    if k == "boom-or-bust":
        # rule:W-goal-boom-or-bust
        return _boom(goal, I[MINE].bit_count())
    if k == "unknown":  # rule:W-goal-unknown: never invented
        raise BadInput(f"goal card '{goal.name}': its scoring text is in no source the project has; cannot score it")
    raise BadInput(f"goal card '{goal.name}' compares both towns; score it with the opponent's pile")


COMPARING = ("one-too-many", "claim-jumpers", "smalltown-charm")


class Side(NamedTuple):
    """What a comparing goal card reads from one side."""
    territories: int
    beers: int
    mines: int
    guns: int


def comparing_goal(goal: GoalSpec, player: Side, opponent: Side, opponent_can_lose: bool = True) -> tuple[int, int]:
    """(player points, opponent points) of a goal card that compares both towns."""
    k = goal.kind
    if k == "one-too-many":
        # rule:W-goal-one-too-many
        loss = goal.param("loss_per_other_beer")
        if player.beers > opponent.beers:
            return -loss * opponent.beers, 0
        if opponent.beers > player.beers:
            return 0, (-loss * player.beers if opponent_can_lose else 0)
        return 0, 0
    if k == "claim-jumpers":
        # rule:W-goal-claim-jumpers
        pts, taken = goal.param("points"), goal.param("taken_by_more_guns")
        if player.mines == opponent.mines:
            return 0, 0
        lead, other = (player, opponent) if player.mines > opponent.mines else (opponent, player)
        lead_pts, other_pts = (pts - taken, taken) if other.guns > lead.guns else (pts, 0)
        return (lead_pts, other_pts) if lead is player else (other_pts, lead_pts)
    if k == "smalltown-charm":
        # rule:W-goal-smalltown-charm
        per = goal.param("per_territory")
        diff = player.territories - opponent.territories
        return (0, per * diff) if diff > 0 else (per * -diff, 0)
    raise BadInput(f"goal card '{goal.name}' is not a comparing card")


# ---------------------------------------------------------------- opponent goals (rule:W6)

def opponent_goal(goal: GoalSpec, reading: OpponentReading, pc: PileCounts, data: WagonsData) -> int:
    """The opponent's score for a non-comparing goal card, by the scenario's reading (rule:W6)."""
    r = reading.reading
    count = lambda: sum(pc.icon[I_IDX[i]] for i in reading.icons) + sum(pc.terrain[T_IDX[t]] for t in reading.terrains)
    if r == "sets":
        parts = [pc.icon[I_IDX[i]] for i in reading.icons] + [pc.terrain[T_IDX[t]] for t in reading.terrains]
        return reading.per_set * (min(parts) if parts else 0)
    if r == "per-symbol":
        return reading.points * count() // reading.divisor
    if r == "wagon-count":
        table = data.goal("Wagon Train").param("run_points")
        wagons = pc.icon[WAGON]
        return _run_points(table, min(wagons, reading.cap)) + reading.per_extra * max(0, wagons - reading.cap)
    if r == "as-player":
        if goal.kind == "boom-or-bust":
            mines = pc.icon[MINE] + sum(pc.terrain[T_IDX[t]] for t in reading.mine_terrains)
            return _boom(goal, mines)
        if goal.kind == "prairie-life":
            return (pc.icon[COW] + pc.terrain[PLAINS]) * goal.param("per_symbol") // goal.param("divisor")
        raise BadInput(f"scenario reading for '{goal.name}': the opponent's pile has no positions, so "
                       f"'as-player' cannot apply to it")
    raise BadInput(f"unknown opponent reading '{r}'")


# ---------------------------------------------------------------- results

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
    winner: str
    decided_by: str

    @property
    def margin(self) -> int:
        return self.player.total - self.opponent.total

    def to_dict(self) -> dict:
        return {"player": self.player.to_dict(), "opponent": self.opponent.to_dict(),
                "winner": self.winner, "margin": self.margin, "decided_by": self.decided_by}


def _sides(f: TownFeatures, pc: PileCounts, scenario: ScenarioSpec, goal: GoalSpec) -> tuple[Side, Side, bool]:
    reading = scenario.reading(goal.name)
    player = Side(f.territories, f.icon[BEER].bit_count(), f.icon[MINE].bit_count(), f.icon[GUN].bit_count())
    opp = Side(pc.territories, pc.icon[BEER], pc.icon[MINE], pc.icon[GUN] + reading.extra_guns)
    return player, opp, reading.can_lose


def _scenario(scenario_id: str, data: WagonsData) -> ScenarioSpec:
    if not isinstance(scenario_id, str):
        raise BadInput(f"scenario: expected a scenario id, got {scenario_id!r}")
    return data.scenario(scenario_id)


def score_player(town: Town, scenario_id: str, opponent_pile, rules: Rules = Rules(),
                 data: WagonsData | None = None, features: TownFeatures | None = None) -> PlayerScore:
    """The player's final score: largest groups + the scenario's two goal cards (rule:W7)."""
    data = data or load_data()
    scenario = _scenario(scenario_id, data)
    pile = _check_pile(opponent_pile, town)
    f = features or _features(town.placements)
    w = f.width
    groups = dict(zip(TERRAINS, [_largest_uncached(m, w) for m in f.terrain]))
    goals = {}
    for name in scenario.goals:
        goal = data.goal(name)
        if goal.kind in COMPARING:
            p, o, can_lose = _sides(f, pile_counts(pile), scenario, goal)
            goals[name] = comparing_goal(goal, p, o, can_lose)[0]
        else:
            goals[name] = player_goal(goal, f)
    return PlayerScore(groups, goals, sum(groups.values()) + sum(goals.values()))


def margin_of(f: TownFeatures, pile: tuple[int, ...], scenario_id: str, rules: Rules = Rules(),
              data: WagonsData | None = None, opponent_base: int | None = None) -> int:
    """Player total - opponent total from bitboards (the greedy policy's fast path; same rules as
    :func:`final_scores`). ``opponent_base`` = the opponent's total without comparing cards, if known."""
    data = data or load_data()
    scenario = data.scenario(scenario_id)
    pc = pile_counts(pile)
    w = f.width
    player = sum(_largest(m, w) for m in f.terrain)
    opp = 0
    for name in scenario.goals:
        goal = data.goal(name)
        if goal.kind in COMPARING:
            ps, os, can_lose = _sides(f, pc, scenario, goal)
            a, b = comparing_goal(goal, ps, os, can_lose)
            player += a
            opp += b
        else:
            player += player_goal(goal, f)
    if opponent_base is None:
        opponent_base = opponent_fixed(pile, scenario_id, rules, data)
    return player - opp - opponent_base


def opponent_fixed(pile: tuple[int, ...], scenario_id: str, rules: Rules = Rules(),
                   data: WagonsData | None = None) -> int:
    """The part of the opponent's total that does not depend on the player's town."""
    data = data or load_data()
    scenario = data.scenario(scenario_id)
    pc = pile_counts(pile)
    total = later_card_score(pile, data.difficulty_table(rules.difficulty)) if rules.edition == "later" \
        else common_score(pc)
    for name in scenario.goals:
        goal = data.goal(name)
        if goal.kind not in COMPARING:
            total += opponent_goal(goal, scenario.reading(name), pc, data)
    return total


def common_score(pc: PileCounts) -> int:
    """1 point per territory of the opponent's 3 most common terrains (rule:W-common)."""
    return sum(sorted(pc.terrain, reverse=True)[:3])


def later_card_score(pile, table: dict[int, int]) -> int:
    """Later edition: per card, points by its number of distinct terrains (rule:W-later-scoring)."""
    cards = load_cards()
    total = 0
    for cid in pile:
        n = len({t.terrain for t in cards[cid].territories})
        if n not in table:
            raise BadInput(f"later edition: card {cid} has {n} distinct terrains; the difficulty table has no entry")
        total += table[n]
    return total


def score_opponent(pile, scenario_id: str, player_town: Town, rules: Rules = Rules(),
                   data: WagonsData | None = None, features: TownFeatures | None = None) -> OpponentScore:
    """The opponent's final score: 3 most common terrains + the scenario's readings (rule:W6)."""
    data = data or load_data()
    scenario = _scenario(scenario_id, data)
    pile = _check_pile(pile, player_town)
    pc = pile_counts(pile)
    if rules.edition == "later":
        common, common_rule = later_card_score(pile, data.difficulty_table(rules.difficulty)), "W-later-scoring"
    else:
        common, common_rule = common_score(pc), "W-common"
    goals = {}
    for name in scenario.goals:
        goal = data.goal(name)
        if goal.kind in COMPARING:
            p, o, can_lose = _sides(features or _features(player_town.placements), pc, scenario, goal)
            goals[name] = comparing_goal(goal, p, o, can_lose)[1]
        else:
            goals[name] = opponent_goal(goal, scenario.reading(name), pc, data)
    return OpponentScore(common, goals, common + sum(goals.values()), common_rule)


def winner_of(player_total: int, opponent_total: int, player_guns: int, opponent_guns: int,
              rules: Rules = Rules()) -> tuple[str, str]:
    """(winner, what decided it): higher total; a tie stays a tie or goes to most Guns (rule:W8)."""
    if player_total != opponent_total:
        return ("player" if player_total > opponent_total else "opponent"), "total"
    if rules.tie_break == "guns" and player_guns != opponent_guns:
        return ("player" if player_guns > opponent_guns else "opponent"), "guns"
    return "tie", "tie"


def final_scores(town: Town, pile, scenario_id: str, rules: Rules = Rules(),
                 data: WagonsData | None = None) -> FinalScores:
    """Both scores and the winner (rule:W8)."""
    f = _features(town.placements)
    player = score_player(town, scenario_id, pile, rules, data, f)
    opponent = score_opponent(pile, scenario_id, town, rules, data, f)
    guns_p = f.icon[GUN].bit_count()
    guns_o = pile_counts(tuple(pile)).icon[GUN]
    winner, decided = winner_of(player.total, opponent.total, guns_p, guns_o, rules)
    return FinalScores(player, opponent, winner, decided)
