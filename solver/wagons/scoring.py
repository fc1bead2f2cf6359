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
from solver.io import short_repr
from solver.wagons.cards import card_codes, load_cards
from solver.wagons.data import ICONS, TERRAINS, GoalSpec, OpponentReading, ScenarioSpec, WagonsData, load_data
from solver.wagons.rules import Rules
from solver.wagons.town import Town

__all__ = ["largest_groups", "score_player", "score_opponent", "final_scores", "PlayerScore",
           "OpponentScore", "FinalScores", "TownFeatures", "town_features", "pile_counts", "PileCounts",
           "winner_of", "growth_frame", "frame_features", "features_plus", "margin_of", "margin_scorer",
           "opponent_fixed",
           "common_score", "later_card_score", "features_of",
           "player_goal", "comparing_goal", "opponent_goal", "opponent_mines", "Side", "low_confidence",
           "is_low_confidence"]

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


_LANES: dict[tuple[int, int], tuple] = {}


def _lane_table(width: int, lane: int) -> tuple:
    """Per-card precomputed masks for one frame shape: ``(patterns, cover, lane mask)``.

    The 12 bitboards of a town are built as one packed int: lane k (``lane`` bits each) holds
    terrain k (0-5) or icon k-6 (6-11). ``patterns[2 * card + (rot != 0)]`` sets a card's 4 cells in
    their terrain and icon lanes at bit 0 (filled in on first use, 0 until then); ``cover`` is the
    card's 2x2 block in every lane."""
    key = (width, lane)
    hit = _LANES.get(key)
    if hit is None:
        cover = 0
        for k in range(12):
            cover |= (3 | (3 << width)) << (k * lane)
        hit = ([0] * (2 * len(card_codes())), cover, (1 << lane) - 1)
        if len(_LANES) > 4096:
            _LANES.clear()
        _LANES[key] = hit
    return hit


def _lane_pattern(pats: list, k: int, width: int, lane: int) -> int:
    """Fill in ``pats[k]`` of :func:`_lane_table` (card ``k // 2``, turned if ``k`` is odd)."""
    pat = 0
    for dx, dy, t, i in card_codes()[k // 2][k % 2]:
        off = dy * width + dx
        pat |= (1 << (t * lane + off)) | (1 << ((6 + i) * lane + off))
    pats[k] = pat
    return pat


def _features(placements, frame: tuple[int, int, int] | None = None) -> TownFeatures:
    """Bitboards of the visible grid; ``frame`` = (minx, miny, width) or None for the tight box.

    Cards go down in placement order and each one first clears its 2x2 block in all 12 lanes of
    one packed int, so a cell keeps the territory of the last card on it (rule:W-cover); the
    lanes are split into the 12 masks at the end."""
    if not placements:
        return TownFeatures(frame[2] if frame else 3, (0,) * 6, (0,) * 6, 0)
    xs = [p.x for p in placements]
    ys = [p.y for p in placements]
    if frame is None:
        minx = min(xs)
        miny = min(ys)
        width = max(xs) - minx + 4  # 2 columns per card + guard columns
    else:
        minx, miny, width = frame
    lane = ((max(ys) - miny + 6) & ~3) * width  # rows (maxy - miny + 3) rounded up to 4: fewer table shapes
    pats, cover, lm = _LANES.get((width, lane)) or _lane_table(width, lane)
    base = (1 - miny) * width + 1 - minx
    big = 0
    for p in placements:
        s = p.y * width + p.x + base
        c = cover << s
        k = 2 * p.card + (p.rot != 0)
        big = (big ^ (big & c)) | ((pats[k] or _lane_pattern(pats, k, width, lane)) << s)
    t0 = big & lm
    big >>= lane
    t1 = big & lm
    big >>= lane
    t2 = big & lm
    big >>= lane
    t3 = big & lm
    big >>= lane
    t4 = big & lm
    big >>= lane
    t5 = big & lm
    big >>= lane
    i0 = big & lm
    big >>= lane
    i1 = big & lm
    big >>= lane
    i2 = big & lm
    big >>= lane
    i3 = big & lm
    big >>= lane
    i4 = big & lm
    return TownFeatures(width, (t0, t1, t2, t3, t4, t5), (i0, i1, i2, i3, i4, big >> lane),
                        t0 | t1 | t2 | t3 | t4 | t5)


def growth_frame(town: Town) -> tuple[int, int, int]:
    """A frame holding the town and every placement legal next to it (for :func:`features_plus`)."""
    if not town.placements:
        return (0, 0, 6)
    minx = min(p.x for p in town.placements) - 2
    miny = min(p.y for p in town.placements) - 2
    return (minx, miny, max(p.x for p in town.placements) + 2 - minx + 4)


def frame_features(town: Town, frame: tuple[int, int, int]) -> TownFeatures:
    return _features(town.placements, frame)


_PLUS: dict[int, tuple] = {}


def _plus_table(width: int) -> tuple:
    """Per card and rotation (index ``2 * card + (rot != 0)``): (((terrain, pattern), ...),
    ((icon, pattern), ...)) with the patterns at bit 0."""
    hit = _PLUS.get(width)
    if hit is None:
        out = []
        for per_rot in card_codes():
            for cells in per_rot:
                ter: dict[int, int] = {}
                ico: dict[int, int] = {}
                for dx, dy, t, i in cells:
                    b = 1 << (dy * width + dx)
                    ter[t] = ter.get(t, 0) | b
                    ico[i] = ico.get(i, 0) | b
                out.append((tuple(ter.items()), tuple(ico.items())))
        hit = tuple(out)
        if len(_PLUS) > 1024:
            _PLUS.clear()
        _PLUS[width] = hit
    return hit


def features_plus(f: TownFeatures, frame: tuple[int, int, int], p) -> TownFeatures:
    """``f`` with placement ``p`` on top (same frame; p must lie inside it). rule:W-cover"""
    minx, miny, width = frame
    s = (p.y - miny + 1) * width + (p.x - minx + 1)
    block = (3 | (3 << width)) << s
    occ = f.occupied
    if occ & block:  # the new card covers territories: they no longer show
        keep = ~block
        ter = [m & keep for m in f.terrain]
        ico = [m & keep for m in f.icon]
    else:
        ter = list(f.terrain)
        ico = list(f.icon)
    tp, ip = (_PLUS.get(width) or _plus_table(width))[2 * p.card + (p.rot != 0)]
    for k, m in tp:
        ter[k] |= m << s
    for k, m in ip:
        ico[k] |= m << s
    return TownFeatures(width, tuple(ter), tuple(ico), occ | block)


@lru_cache(maxsize=4096)
def town_features(town: Town) -> TownFeatures:
    """The town's bitboards (cached per town; a Town is immutable)."""
    return _features(town.placements)


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


def group_of(seed: int, m: int, w: int) -> int:
    """The edge-connected group of mask ``m`` (row width ``w``, guard column) holding ``seed``'s cells."""
    comp, prev = seed, 0
    while comp != prev:
        prev = comp
        comp = (comp | (comp << 1) | (comp >> 1) | (comp << w) | (comp >> w)) & m
    return comp


def _largest_uncached(m: int, w: int) -> int:
    """Bitwise flood fill from the lowest cell left, one step in all four directions at a time
    (the guard column and rows keep shifts from wrapping into a real cell). Single cells are
    dropped first; then 2 or 3 cells left (each next to another) are one group, and the fill
    stops once the cells left cannot beat the best group."""
    if m & (m - 1) == 0:
        return 1 if m else 0
    m &= (m << 1) | (m >> 1) | (m << w) | (m >> w)  # drop the single cells
    total = m.bit_count()
    if total <= 3:
        return total or 1
    best = 0
    while True:
        comp = group_of(m & -m, m, w)
        n = comp.bit_count()
        if n > best:
            best = n
        total -= n
        if total <= 3:  # what is left is one group (or nothing)
            return best if best >= total else total
        if total <= best:
            return best
        m ^= comp


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
def _card_packs() -> tuple[int, ...]:
    """Per card: its terrain and icon counts packed in one int, 8 bits per count (terrain k at
    bit 8k, icon k at bit 8(6+k)), so a pile's counts are the plain sum of its cards' packs."""
    out = []
    for c in load_cards():
        pack = 0
        for t in c.territories:
            pack += (1 << (8 * T_IDX[t.terrain])) + (1 << (8 * (6 + I_IDX[t.icon])))
        out.append(pack)
    return tuple(out)


def _pile_pack(pile) -> int:
    """The pile's packed counts (see :func:`_card_packs`); BadInput on an id that is no card."""
    packs = _card_packs()
    n = len(packs)
    total = 0
    for cid in pile:
        if cid.__class__ is not int and (isinstance(cid, bool) or not isinstance(cid, int)) or not 0 <= cid < n:
            raise BadInput(f"opponent pile: card {cid!r} is not a card id 0..{n - 1}")
        total += packs[cid]
    return total


@lru_cache(maxsize=4096)
def pile_counts(pile: tuple[int, ...]) -> PileCounts:
    """Terrain and icon counts over every territory of the pile's cards."""
    items = tuple(pile)
    counts = [0] * 12
    for i in range(0, len(items), 60):  # 60 cards (even repeated) never overflow an 8-bit count
        pack = _pile_pack(items[i:i + 60])
        for k in range(12):
            counts[k] += (pack >> (8 * k)) & 255
    return PileCounts(len(pile), tuple(counts[:6]), tuple(counts[6:]))


def _check_pile(pile, town: Town | None = None) -> tuple[int, ...]:
    pile = tuple(pile)
    for card in pile:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 18:
            raise BadInput(f"opponent pile: {short_repr(card)} is not a card id 0-17")
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


_MISSING = object()


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


def _compile_goal(goal: GoalSpec):
    """``score(f) -> points`` for a goal card that reads only the player's town, with the card's
    parameters bound once (the scorer's hot path calls it for every town)."""
    k = goal.kind
    if k == "cool-water":
        # rule:W-goal-cool-water; ties for the largest Water group: the best one (the player's choice)
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
    if k == "badlands":
        # rule:W-goal-badlands: a Gun between two Deserts (left+right or above+below), counted once
        ps = _params(goal, "per_gun")
        if ps is None:
            return _missing(goal, "per_gun")
        per = ps[0]

        def score(f):
            d, w = f.terrain[DESERT], f.width
            return per * (f.icon[GUN] & (((d << 1) & (d >> 1)) | ((d << w) & (d >> w)))).bit_count()
        return score
    if k == "happy-cows":
        # rule:W-goal-happy-cows: a Cow neither on nor next to Snow
        ps = _params(goal, "per_cow")
        if ps is None:
            return _missing(goal, "per_cow")
        per = ps[0]

        def score(f):
            s, w = f.terrain[SNOW], f.width
            return per * (f.icon[COW] & ~(s | (s << 1) | (s >> 1) | (s << w) | (s >> w))).bit_count()
        return score
    if k == "bootleggers":
        # rule:W-goal-bootleggers: each Beer next to a Wagon scores, each other Beer loses
        ps = _params(goal, "per_beer_adjacent", "per_beer_alone")
        if ps is None:
            return _missing(goal, "per_beer_adjacent", "per_beer_alone")
        per_adj, per_alone = ps

        def score(f):
            v, w, beer = f.icon[WAGON], f.width, f.icon[BEER]
            adj = (beer & ((v << 1) | (v >> 1) | (v << w) | (v >> w))).bit_count()
            return per_adj * adj + per_alone * (beer.bit_count() - adj)
        return score
    if k == "gold-country":
        # rule:W-goal-gold-country: a Mine on or next to Mountains
        ps = _params(goal, "per_mine")
        if ps is None:
            return _missing(goal, "per_mine")
        per = ps[0]

        def score(f):
            mt, w = f.terrain[MOUNTAINS], f.width
            return per * (f.icon[MINE] & (mt | (mt << 1) | (mt >> 1) | (mt << w) | (mt >> w))).bit_count()
        return score
    if k == "prairie-life":
        # rule:W-goal-prairie-life
        ps = _params(goal, "per_symbol", "divisor")
        if ps is None:
            return _missing(goal, "per_symbol", "divisor")
        per, div = ps
        return lambda f: (f.icon[COW].bit_count() + f.terrain[PLAINS].bit_count()) * per // div
    if k == "the-herd":
        # rule:W-goal-the-herd: the largest edge-connected group of Cows
        ps = _params(goal, "per_cow")
        if ps is None:
            return _missing(goal, "per_cow")
        per = ps[0]
        return lambda f: per * _largest(f.icon[COW], f.width)
    if k == "wagon-train":
        # rule:W-goal-wagon-train: every maximal row run and column run of Wagons scores
        # run_points[min(length, last)]; with c_n = the runs of length n or more, that total is
        # sum(c_n * (run_points[n] - run_points[n - 1])) for n = 1..last (c_1 * run_points[1] for n = 1).
        ps = _params(goal, "run_points")
        if ps is None:
            return _missing(goal, "run_points")
        table = ps[0]
        if not isinstance(table, tuple) or len(table) < 2 or not all(type(v) is int for v in table):
            return lambda f: sum(_run_points(table, n) for n in _runs(f.icon[WAGON], 1) + _runs(f.icon[WAGON], f.width))
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
    if k == "boom-or-bust":
        # rule:W-goal-boom-or-bust: points by the band the number of Mines falls in
        ps = _params(goal, "bands")
        if ps is None:
            return _missing(goal, "bands")
        bands = ps[0]
        per_mine = dict(goal.params).get("per_mine", _MISSING)

        def score(f):
            mines = f.icon[MINE].bit_count()
            for lo, hi, pts in bands:
                if mines >= lo and (hi < 0 or mines <= hi):
                    if per_mine is _MISSING:
                        goal.param("per_mine")  # raises the BadInput naming it
                    return pts * mines if per_mine else pts
            return 0
        return score
    if k == "unknown":  # rule:W-goal-unknown: never invented
        def score(f):
            raise BadInput(f"goal card '{goal.name}': its scoring text is in no source the project has; cannot score it")
        return score

    def score(f):
        raise BadInput(f"goal card '{goal.name}' compares both towns; score it with the opponent's pile")
    return score


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


def _goal_fn(goal: GoalSpec):
    """The compiled scorer of ``goal`` (cached per goal object)."""
    return _compiled(_GOAL_FNS, _compile_goal, goal)


def player_goal(goal: GoalSpec, f: TownFeatures) -> int:
    """A goal card that reads only the player's own town (not the comparing ones)."""
    return _goal_fn(goal)(f)


COMPARING = ("one-too-many", "claim-jumpers", "smalltown-charm")


class Side(NamedTuple):
    """What a comparing goal card reads from one side."""
    territories: int
    beers: int
    mines: int
    guns: int


def _compile_comparing(goal: GoalSpec):
    """``score(player, opponent, opponent_can_lose) -> (player points, opponent points)`` for a goal
    card that compares both towns, with the card's parameters bound once."""
    k = goal.kind
    if k == "one-too-many":
        # rule:W-goal-one-too-many: the side with more Beers loses per Beer of the other side
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
    if k == "claim-jumpers":
        # rule:W-goal-claim-jumpers: most Mines scores, less what the side with more Guns takes
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
    if k == "smalltown-charm":
        # rule:W-goal-smalltown-charm: the smaller town scores per territory of difference
        ps = _params(goal, "per_territory")
        if ps is None:
            return _missing(goal, "per_territory")
        per = ps[0]

        def score(player, opponent, opponent_can_lose=True):
            diff = player.territories - opponent.territories
            return (0, per * diff) if diff > 0 else (per * -diff, 0)
        return score

    def score(player, opponent, opponent_can_lose=True):
        raise BadInput(f"goal card '{goal.name}' is not a comparing card")
    return score


_COMPARING_FNS: dict[int, tuple[GoalSpec, object]] = {}


def _comparing_fn(goal: GoalSpec):
    """The compiled comparing card ``goal`` (cached per goal object)."""
    return _compiled(_COMPARING_FNS, _compile_comparing, goal)


def comparing_goal(goal: GoalSpec, player: Side, opponent: Side, opponent_can_lose: bool = True) -> tuple[int, int]:
    """(player points, opponent points) of a goal card that compares both towns."""
    return _comparing_fn(goal)(player, opponent, opponent_can_lose)


# ---------------------------------------------------------------- opponent goals (rule:W6)

def _mine_territories(pile, terrains: tuple[str, ...]) -> int:
    """Territories of the pile's cards that show a Mine icon on one of ``terrains``."""
    cards = load_cards()
    return sum(1 for cid in pile for t in cards[cid].territories if t.icon == "Mine" and t.terrain in terrains)


def opponent_mines(reading: OpponentReading, pc: PileCounts, rules: Rules = Rules(), pile=()) -> int:
    """The opponent's Mines for Boom or Bust; with ``mine_terrains`` (Boomtown: "Mountains count as
    Mines") as ``rules.boomtown_mines`` reads it (rule:W6): Mine icons + those territories ("both"),
    each territory showing either once ("either"), or those territories alone ("mountains")."""
    extra = sum(pc.terrain[T_IDX[t]] for t in reading.mine_terrains)
    if not reading.mine_terrains or rules.boomtown_mines == "both":
        return pc.icon[MINE] + extra
    if rules.boomtown_mines == "mountains":
        return extra
    return pc.icon[MINE] + extra - _mine_territories(pile, reading.mine_terrains)


def opponent_goal(goal: GoalSpec, reading: OpponentReading, pc: PileCounts, data: WagonsData,
                  rules: Rules = Rules(), pile=()) -> int:
    """The opponent's score for a non-comparing goal card, by the scenario's reading (rule:W6);
    ``pile`` (the cards counted in ``pc``) is read only by :func:`opponent_mines`."""
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
            return _boom(goal, opponent_mines(reading, pc, rules, pile))
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
    low_confidence: tuple[str, ...] = ()  # goal cards scored with a low-confidence number (rule:W11)

    @property
    def margin(self) -> int:
        return self.player.total - self.opponent.total

    def to_dict(self) -> dict:
        return {"player": self.player.to_dict(), "opponent": self.opponent.to_dict(),
                "winner": self.winner, "margin": self.margin, "decided_by": self.decided_by,
                "low_confidence": list(self.low_confidence)}


def is_low_confidence(goal: GoalSpec) -> bool:
    """A goal card known from one unofficial source, or with such a number or reading (rule:W11)."""
    return goal.confidence.startswith("low") or any(str(c).startswith("low") for _, c in goal.param_confidence)


def low_confidence(scenario_id: str, data: WagonsData | None = None, rules: Rules = Rules()) -> tuple[str, ...]:
    """The scenario's goal cards whose scores rest on a low-confidence number or reading (rule:W11):
    what a score that uses them must say it is (a reading, not a fact)."""
    data = (data or load_data()).for_rules(rules)
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
    plan = tuple((name, goal, None if goal.kind in COMPARING else _goal_fn(goal),
                  _comparing_fn(goal) if goal.kind in COMPARING else None) for name, goal in goals)
    if len(_PLANS) > 256:
        _PLANS.clear()
    _PLANS[(id(data), scenario_id)] = (data, scenario, plan)
    return scenario, plan


D_, F_, M_, P_, S_, W_ = TERRAINS
_BEER_AT, _MINE_AT, _GUN_AT = 8 * (6 + BEER), 8 * (6 + MINE), 8 * (6 + GUN)


def score_player(town: Town, scenario_id: str, opponent_pile, rules: Rules = Rules(),
                 data: WagonsData | None = None, features: TownFeatures | None = None) -> PlayerScore:
    """The player's final score: largest groups + the scenario's two goal cards (rule:W7)."""
    data = (data or load_data()).for_rules(rules)  # rule:W11
    if not isinstance(scenario_id, str):
        raise BadInput(f"scenario: expected a scenario id, got {scenario_id!r}")
    scenario, plan = _plan(scenario_id, data)
    pile = _check_pile(opponent_pile, town)
    f = features or _features(town.placements)
    w = f.width
    largest = _largest_uncached
    d, fo, mo, pl, sn, wa = f.terrain
    groups = {D_: largest(d, w), F_: largest(fo, w), M_: largest(mo, w), P_: largest(pl, w),
              S_: largest(sn, w), W_: largest(wa, w)}
    total = sum(groups.values())
    goals = {}
    for name, _goal, fn, cmp in plan:
        if fn is None:  # a comparing card: the player's side against the pile
            reading = scenario.reading(name)
            pack = _pile_pack(pile)
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


def margin_of(f: TownFeatures, pile: tuple[int, ...], scenario_id: str, rules: Rules = Rules(),
              data: WagonsData | None = None, opponent_base: int | None = None) -> int:
    """Player total - opponent total from bitboards (the greedy policy's fast path; same rules as
    :func:`final_scores`). ``opponent_base`` = the opponent's total without comparing cards, if known."""
    data = (data or load_data()).for_rules(rules)  # rule:W11
    if not isinstance(scenario_id, str):
        data.scenario(scenario_id)  # raises the BadInput naming it
    scenario, plan = _plan(scenario_id, data)
    pc = pile_counts(pile)
    w = f.width
    d, fo, mo, pl, sn, wa = f.terrain
    player = _largest(d, w) + _largest(fo, w) + _largest(mo, w) + _largest(pl, w) + _largest(sn, w) + _largest(wa, w)
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
        opponent_base = opponent_fixed(pile, scenario_id, rules, data)
    return player - opp - opponent_base


def margin_scorer(pile: tuple[int, ...], scenario_id: str, rules: Rules = Rules(), data: WagonsData | None = None,
                  opponent_base: int | None = None, near: TownFeatures | None = None):
    """``margin(f)``, equal to ``margin_of(f, pile, scenario_id, rules, data, opponent_base)``, with
    everything that does not depend on the town (scenario, pile counts, the opponent's fixed
    points) worked out once: for scoring many candidate towns against the same pile.

    ``near``: features most scored towns differ from in a few masks (e.g. the town before one more
    card, same frame); its group sizes are reused for every terrain mask left unchanged."""
    data = (data or load_data()).for_rules(rules)  # rule:W11
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
    base = opponent_fixed(pile, scenario_id, rules, data) if opponent_base is None else opponent_base
    fns = tuple(fns)
    comparing = tuple(comparing)
    if near is None:
        near = TownFeatures(0, (-1,) * 6, (-1,) * 6, -1)  # no real mask equals -1
    nw = near.width
    n0, n1, n2, n3, n4, n5 = near.terrain
    g0, g1, g2, g3, g4, g5 = (_largest(m, nw) if m >= 0 else 0 for m in near.terrain)

    def margin(f: TownFeatures) -> int:
        w = f.width
        d, fo, mo, pl, sn, wa = f.terrain
        if w == nw:
            v = (g0 if d == n0 else _largest(d, w)) + (g1 if fo == n1 else _largest(fo, w)) \
                + (g2 if mo == n2 else _largest(mo, w)) + (g3 if pl == n3 else _largest(pl, w)) \
                + (g4 if sn == n4 else _largest(sn, w)) + (g5 if wa == n5 else _largest(wa, w)) - base
        else:
            v = _largest(d, w) + _largest(fo, w) + _largest(mo, w) + _largest(pl, w) + _largest(sn, w) \
                + _largest(wa, w) - base
        for fn in fns:
            v += fn(f)
        for cmp, theirs, can_lose in comparing:
            ico = f.icon
            mine = Side(f.occupied.bit_count(), ico[BEER].bit_count(), ico[MINE].bit_count(), ico[GUN].bit_count())
            a, b = cmp(mine, theirs, can_lose)
            v += a - b
        return v
    return margin


def opponent_fixed(pile: tuple[int, ...], scenario_id: str, rules: Rules = Rules(),
                   data: WagonsData | None = None) -> int:
    """The part of the opponent's total that does not depend on the player's town."""
    data = (data or load_data()).for_rules(rules)  # rule:W11
    scenario = data.scenario(scenario_id)
    pc = pile_counts(pile)
    total = later_card_score(pile, data.difficulty_table(rules.difficulty)) if rules.edition == "later" \
        else common_score(pc)
    for name in scenario.goals:
        goal = data.goal(name)
        if goal.kind not in COMPARING:
            total += opponent_goal(goal, scenario.reading(name), pc, data, rules, pile)
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
    data = (data or load_data()).for_rules(rules)  # rule:W11
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
            goals[name] = opponent_goal(goal, scenario.reading(name), pc, data, rules, pile)
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
    return FinalScores(player, opponent, winner, decided, low_confidence(scenario_id, data, rules))
