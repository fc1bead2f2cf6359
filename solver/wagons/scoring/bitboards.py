"""Bitboards of a town and packed counts of a pile: the scorer's speed-ups (no rule lives here).

One Python int per terrain and per icon over the town's bounding box (with a guard column so shifts
never wrap into a real cell); groups are found by bitwise flood fill (rule:W-groups). A pile's
terrain and icon counts are sums of per-card packed ints. :mod:`solver.wagons.scoring.reference` is an
independent dict-and-flood-fill scorer that checks these.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from solver.errors import BadInput
from solver.wagons.cards import card_codes, check_card_ids, load_cards
from solver.wagons.codes import ICON_CODE, TERRAIN_CODE, TERRAINS
from solver.wagons.town import Town

__all__ = ["TownFeatures", "placements_features", "growth_frame", "frame_features", "features_plus", "town_features",
           "largest_group_size", "largest_group_size_uncached", "group_of", "largest_groups", "features_of",
           "PileCounts", "pile_pack", "pile_counts", "clear_caches"]

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


def placements_features(placements, frame: tuple[int, int, int] | None = None) -> TownFeatures:
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
    return placements_features(town.placements, frame)


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
    return placements_features(town.placements)


_GROUP_SIZES: dict[tuple[int, int], int] = {}


def largest_group_size(m: int, w: int) -> int:
    """Size of the largest edge-connected group in mask ``m`` (memoised: the greedy policy asks
    the same unchanged masks many times)."""
    key = (m, w)
    hit = _GROUP_SIZES.get(key)
    if hit is not None:
        return hit
    if len(_GROUP_SIZES) > 200_000:
        _GROUP_SIZES.clear()
    best = largest_group_size_uncached(m, w)
    _GROUP_SIZES[key] = best
    return best


def group_of(seed: int, m: int, w: int) -> int:
    """The edge-connected group of mask ``m`` (row width ``w``, guard column) holding ``seed``'s cells."""
    comp, prev = seed, 0
    while comp != prev:
        prev = comp
        comp = (comp | (comp << 1) | (comp >> 1) | (comp << w) | (comp >> w)) & m
    return comp


def largest_group_size_uncached(m: int, w: int) -> int:
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
    return {t: largest_group_size(f.terrain[i], f.width) for i, t in enumerate(TERRAINS)}


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
            ter[TERRAIN_CODE[t.terrain]] |= b
            ico[ICON_CODE[t.icon]] |= b
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
            pack += (1 << (8 * TERRAIN_CODE[t.terrain])) + (1 << (8 * (6 + ICON_CODE[t.icon])))
        out.append(pack)
    return tuple(out)


def pile_pack(pile) -> int:
    """The packed counts (see :func:`_card_packs`) of a pile of valid card ids."""
    packs = _card_packs()
    total = 0
    for cid in pile:
        total += packs[cid]
    return total


@lru_cache(maxsize=4096)
def pile_counts(pile: tuple[int, ...]) -> PileCounts:
    """Terrain and icon counts over every territory of the pile's cards (repeats allowed: they count)."""
    items = check_card_ids(pile, "opponent pile", unique=False)
    counts = [0] * 12
    for i in range(0, len(items), 60):  # 60 cards (even repeated) never overflow an 8-bit count
        pack = pile_pack(items[i:i + 60])
        for k in range(12):
            counts[k] += (pack >> (8 * k)) & 255
    return PileCounts(len(pile), tuple(counts[:6]), tuple(counts[6:]))



def clear_caches(tables: bool = False) -> None:
    """Forget every per-town and per-pile result; with ``tables`` also the per-card and per-frame-shape
    tables (built once per process in normal use). For benchmarks that time a cold start."""
    town_features.cache_clear()
    pile_counts.cache_clear()
    _GROUP_SIZES.clear()
    if tables:
        _LANES.clear()
        _PLUS.clear()
