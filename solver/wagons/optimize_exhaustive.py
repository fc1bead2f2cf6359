"""Exhaustive search over every legal placement sequence: the optimizer's test oracle.

Two independent paths, both with no bound and no pruning of any kind (so it is not a branch and
bound like the optimizers it checks):

``fast=False`` (the original oracle): built only on the engine's own rules
(:func:`solver.wagons.town.legal_placements`, rule:W-place) and scorer
(:func:`solver.wagons.scoring.score_player` / ``margin_of``), breadth first. Towns are merged when
they look the same up to a translation (same visible territories at the same relative cells, see
:func:`town_key`): what can still be placed legally depends only on the occupied cells and the final
score only on the visible grid (rule:W-cover), so merging loses no score (``merge=False`` turns it
off). About 60-80k towns/s: 28.8 million towns, 352-495 s, for a 5-card instance.

``fast=True`` (default): a depth-first walk over every legal placement sequence compiled with numba,
on a board of cell codes, with its own scorer (:func:`_score`, a second implementation of
rule:W-groups and the goal cards; ``tests/test_wagons_oracle.py`` checks it against
``score_player`` on thousands of random towns in all six scenarios, both objectives, with and
without an opponent pile). Exactness:

- the legal moves are those of rule:W-place: the first card anywhere (translation changes nothing,
  so it is put at (0, 0)), every later card at each position where one of its 4 cells is occupied
  or shares an edge with an occupied cell (covering, rule:W-cover, or edge contact; corner-only
  contact is never listed), turned 0 or 180 degrees (rule:W-rotation), a card whose turned face
  looks the same once (exactly as ``legal_placements``);
- the only merging is a half turn of the whole town: turning every placement (card at (x, y), rot)
  to (card at (-x-1, -y-1), rot + 180) maps a legal sequence to a legal sequence (contact and
  covering are kept by any isometry) whose visible grid is the half-turned grid, and every scoring
  rule (largest groups, adjacency, "between two Deserts" left/right or above/below, row and column
  runs, counts) is unchanged by a half turn (``tests/test_wagons_oracle.py`` checks this against
  ``score_player`` and ``final_scores``). So the first card is placed unturned only: every sequence
  whose first card is turned has a twin with the same value;
- every other sequence is scored: 16.1 million final towns for 5 cards, ~3 million per second
  (5.3 s against 352-495 s for ``fast=False``; ``bench/bench_wagons_oracle.py``).

The best town found is replayed through the engine (:func:`solver.wagons.town.place`) and re-scored
with ``score_player`` / ``final_scores``; a disagreement raises ``AssertionError``.
Goal cards whose parameters the compiled scorer does not handle (a hand-edited goals file with
unusual values) fall back to the slow path.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from solver.errors import BadInput
from solver.wagons.cards import card_codes
from solver.wagons.data import ICONS, TERRAINS, WagonsData, load_data
from solver.wagons.optimize import check_cards, check_pile
from solver.wagons.rules import Rules
from solver.wagons.scoring import (
    features_plus,
    final_scores,
    frame_features,
    growth_frame,
    margin_of,
    opponent_fixed,
    pile_counts,
    score_player,
)
from solver.wagons.town import Placement, Town, legal_placements, place, visible_grid

try:  # numba compiles the fast path; without it exhaustive_best falls back to the slow path
    from numba import njit
    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - numba is a declared dependency
    HAVE_NUMBA = False

    def njit(*args, **kwargs):
        return (lambda f: f) if not args or not callable(args[0]) else args[0]

__all__ = ["ExhaustiveResult", "exhaustive_best", "town_key", "compiled_score", "goal_tables", "HAVE_NUMBA"]

OBJECTIVES = ("score", "margin")


@dataclass(frozen=True)
class ExhaustiveResult:
    value: int | None  # None when the time limit ran out
    placements: tuple[Placement, ...]
    towns: int  # complete towns scored
    elapsed: float
    timed_out: bool = False


def town_key(town: Town) -> frozenset:
    """The visible grid, translated so its top-left occupied cell bounds are (0, 0)."""
    grid = visible_grid(town)
    mx = min(x for x, _ in grid)
    my = min(y for _, y in grid)
    return frozenset(((x - mx, y - my), t) for (x, y), t in grid.items())


def exhaustive_best(cards: Sequence[int], scenario_id: str, opponent_pile=(), rules: Rules = Rules(),
                    objective: str = "score", merge: bool = True, data: WagonsData | None = None,
                    time_limit: float | None = None, fast: bool = True) -> ExhaustiveResult:
    """The best objective over all legal placement sequences of ``cards`` in order.

    ``fast=True``: the compiled depth-first walk (module docstring); ``fast=False``: the engine's
    own ``legal_placements`` and ``score_player``, breadth first (``merge`` applies to it only)."""
    start = time.monotonic()
    data = (data or load_data()).for_rules(rules)  # rule:W11
    ids = check_cards(cards)
    pile = check_pile(opponent_pile, ids)
    data.scenario(scenario_id)
    if objective not in OBJECTIVES:
        raise BadInput(f"objective: expected one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if fast:
        tables = goal_tables(scenario_id, pile, data)
        if tables is not None and HAVE_NUMBA:
            return _fast_best(ids, scenario_id, pile, rules, objective, data, tables, time_limit, start)
        if not HAVE_NUMBA:
            warnings.warn("numba is not installed: the exhaustive oracle runs its slow path", stacklevel=2)
    return _slow_best(ids, scenario_id, pile, rules, objective, merge, data, time_limit, start)


def _slow_best(ids, scenario_id, pile, rules, objective, merge, data, time_limit, start) -> ExhaustiveResult:
    """The original oracle: breadth first over ``legal_placements``, scored by ``score_player``."""
    layer = [Town()]
    for cid in ids[:-1]:
        nxt, seen = [], set()
        for town in layer:
            for p in legal_placements(town, cid):
                t = Town(town.placements + (p,))
                if merge:
                    k = town_key(t)
                    if k in seen:
                        continue
                    seen.add(k)
                nxt.append(t)
            if time_limit is not None and time.monotonic() - start > time_limit:
                return ExhaustiveResult(None, (), 0, time.monotonic() - start, True)
        layer = nxt
    # the last card: score every legal placement on each town, updating bitboards in place
    best, best_town, towns = None, None, 0
    for n, town in enumerate(layer):
        frame = growth_frame(town)
        base = frame_features(town, frame)
        for p in legal_placements(town, ids[-1]):
            f = features_plus(base, frame, p)
            t = Town(town.placements + (p,))
            if objective == "score":
                v = score_player(t, scenario_id, pile, rules, data, f).total
            else:
                v = margin_of(f, pile, scenario_id, rules, data)
            towns += 1
            if best is None or v > best:
                best, best_town = v, t
        if time_limit is not None and n % 64 == 0 and time.monotonic() - start > time_limit:
            return ExhaustiveResult(None, (), towns, time.monotonic() - start, True)
    return ExhaustiveResult(best, best_town.placements, towns, time.monotonic() - start)


# ---------------------------------------------------------------- the compiled path

T_ = {t: k for k, t in enumerate(TERRAINS)}
I_ = {t: k for k, t in enumerate(ICONS)}
# goal kinds of the compiled scorer (index into the kind column of the goal tables)
KINDS = ("cool-water", "badlands", "happy-cows", "bootleggers", "gold-country", "prairie-life", "the-herd",
         "wagon-train", "boom-or-bust", "one-too-many", "claim-jumpers", "smalltown-charm")
(K_COOL, K_BAD, K_HAPPY, K_BOOT, K_GOLD, K_PRAIRIE, K_HERD, K_TRAIN, K_BOOM, K_ONE, K_CLAIM,
 K_SMALL) = range(1, 13)
_SCALARS = {"cool-water": ("per_wagon",), "badlands": ("per_gun",), "happy-cows": ("per_cow",),
            "bootleggers": ("per_beer_adjacent", "per_beer_alone"), "gold-country": ("per_mine",),
            "prairie-life": ("per_symbol", "divisor"), "the-herd": ("per_cow",), "wagon-train": (),
            "boom-or-bust": (), "one-too-many": ("loss_per_other_beer",),
            "claim-jumpers": ("points", "taken_by_more_guns"), "smalltown-charm": ("per_territory",)}


def _is_int(v) -> bool:
    return type(v) is int


def goal_tables(scenario_id: str, pile: tuple[int, ...], data: WagonsData) -> tuple | None:
    """The scenario's two goal cards as arrays for the compiled scorer, or None when a card's kind or
    parameters are outside what it handles (then the slow path runs).

    ``(kind[g], scalars[g, 4], table[g, :], table_len[g], opponent side[g] = (territories, Beers, Mines,
    Guns incl. the reading's extra Guns), can_lose[g])``."""
    scenario = data.scenario(scenario_id)
    goals = [data.goal(name) for name in scenario.goals]
    g = len(goals)
    kind = np.zeros(g, np.int64)
    scal = np.zeros((g, 4), np.int64)
    tab_rows: list[list[int]] = []
    opp = np.zeros((g, 4), np.int64)
    can_lose = np.ones(g, np.int64)
    pc = pile_counts(tuple(pile))
    for k, goal in enumerate(goals):
        if goal.kind not in KINDS:
            return None
        kind[k] = KINDS.index(goal.kind) + 1
        params = dict(goal.params)
        names = _SCALARS[goal.kind]
        if not all(n in params and _is_int(params[n]) for n in names):
            return None
        for j, n in enumerate(names):
            scal[k, j] = params[n]
        row: list[int] = []
        if goal.kind == "prairie-life" and params["divisor"] == 0:
            return None
        if goal.kind == "wagon-train":
            table = params.get("run_points")
            if not isinstance(table, tuple) or not table or not all(_is_int(v) for v in table):
                return None
            row = list(table)
        if goal.kind == "boom-or-bust":
            bands, per_mine = params.get("bands"), params.get("per_mine")
            if not isinstance(bands, tuple) or type(per_mine) is not bool:
                return None
            for band in bands:
                if not isinstance(band, tuple) or len(band) != 3 or not all(_is_int(v) for v in band):
                    return None
                row.extend(band)
            scal[k, 0] = int(per_mine)
        tab_rows.append(row)
        if goal.kind in ("one-too-many", "claim-jumpers", "smalltown-charm"):
            reading = scenario.reading(goal.name)
            if not _is_int(reading.extra_guns) or type(reading.can_lose) is not bool:
                return None
            opp[k] = (4 * len(pile), pc.icon[I_["Beer"]], pc.icon[I_["Mine"]],
                      pc.icon[I_["Gun"]] + reading.extra_guns)
            can_lose[k] = int(reading.can_lose)
    width = max([len(r) for r in tab_rows] + [1])
    tab = np.zeros((g, width), np.int64)
    tab_len = np.zeros(g, np.int64)
    for k, row in enumerate(tab_rows):
        tab[k, :len(row)] = row
        tab_len[k] = len(row)
    return kind, scal, tab, tab_len, opp, can_lose


def _codes(ids: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """``cc[k, r, cell] = (dx, dy, terrain, icon)`` of the k-th card turned 0 (r=0) or 180 degrees,
    and ``nrot[k]`` = 1 when the turned face looks the same (listed once, as ``legal_placements``)."""
    codes = card_codes()
    cc = np.zeros((len(ids), 2, 4, 4), np.int64)
    nrot = np.zeros(len(ids), np.int64)
    for k, cid in enumerate(ids):
        for r in range(2):
            cc[k, r] = codes[cid][r]
        same = sorted(codes[cid][0]) == sorted(codes[cid][1])
        nrot[k] = 1 if same else 2
    return cc, nrot


def _board(n: int) -> tuple[int, int]:
    """(B, O): a B x B board with the first card's top-left cell at (O, O). After k cards every
    occupied cell lies within 2(k - 1) cells of the first card, and candidate positions one card
    further, so a 2-cell margin keeps every neighbour look-up on the board and off the wrap-around."""
    return 4 * n + 6, 2 * n + 2


# Terrain and icon codes (as in TERRAINS / ICONS; checked at import below).
DESERT, FOREST, MOUNTAINS, PLAINS, SNOW, WATER = range(6)
BEER, COW, FORT, GUN, MINE, WAGON = range(6)
assert TERRAINS.index("Water") == WATER and TERRAINS.index("Desert") == DESERT and ICONS.index("Wagon") == WAGON \
    and TERRAINS.index("Mountains") == MOUNTAINS and TERRAINS.index("Snow") == SNOW \
    and TERRAINS.index("Plains") == PLAINS and ICONS.index("Cow") == COW and ICONS.index("Gun") == GUN \
    and ICONS.index("Mine") == MINE and ICONS.index("Beer") == BEER


@njit(cache=True)
def _flood(codes, c, B, stamp, s, queue) -> int:
    """Size of the edge-connected group of cell ``c`` with its code in ``codes`` (terrain or icon);
    the group's cells are left in ``queue[:size]``, each marked ``stamp[cell] = s``."""
    want = codes[c]
    stamp[c] = s
    queue[0] = c
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        head += 1
        for v in (u - 1, u + 1, u - B, u + B):
            if stamp[v] != s and codes[v] == want:
                stamp[v] = s
                queue[tail] = v
                tail += 1
    return tail


@njit(cache=True)
def _score(ter, ico, occ, nocc, B, stamp, mark, ctr, queue, kind, scal, tab, tab_len, opp, can_lose):
    """(player total, opponent's points from comparing cards) of the board's visible town.

    rule:W-groups (largest edge-connected group per terrain) plus the goal cards; cells are the
    ``nocc`` board indices in ``occ``; ``stamp``/``mark`` are visit marks compared with fresh
    values of the counter ``ctr[0]`` (never reset)."""
    largest = np.zeros(6, np.int64)
    has_cool = False
    has_herd = False
    for g in range(kind.shape[0]):
        if kind[g] == 1:
            has_cool = True
        elif kind[g] == 7:
            has_herd = True
    cw_size = 0
    cw_best = 0
    ctr[0] += 1
    s = ctr[0]
    for j in range(nocc):
        c = occ[j]
        if stamp[c] == s:
            continue
        t = ter[c]
        tail = _flood(ter, c, B, stamp, s, queue)
        if tail > largest[t]:
            largest[t] = tail
        if t == 5 and has_cool:  # Water: Wagons on or next to this group
            ctr[0] += 1
            s2 = ctr[0]
            near = 0
            for q in range(tail):
                u = queue[q]
                for v in (u, u - 1, u + 1, u - B, u + B):
                    if mark[v] != s2 and ico[v] == 5:
                        mark[v] = s2
                        near += 1
            if tail > cw_size:
                cw_size = tail
                cw_best = near
            elif tail == cw_size and near > cw_best:
                cw_best = near
    herd = 0
    if has_herd:  # largest edge-connected group of Cow icons
        ctr[0] += 1
        s3 = ctr[0]
        for j in range(nocc):
            c = occ[j]
            if ico[c] != 1 or stamp[c] == s3:
                continue
            tail = _flood(ico, c, B, stamp, s3, queue)
            if tail > herd:
                herd = tail
    total = 0
    for t in range(6):
        total += largest[t]
    beers = 0
    cows = 0
    guns = 0
    mines = 0
    plains = 0
    for j in range(nocc):
        c = occ[j]
        i = ico[c]
        if i == 0:
            beers += 1
        elif i == 1:
            cows += 1
        elif i == 3:
            guns += 1
        elif i == 4:
            mines += 1
        if ter[c] == 3:
            plains += 1
    theirs = 0
    for g in range(kind.shape[0]):
        k = kind[g]
        v = 0
        if k == 1:  # Cool Water
            v = scal[g, 0] * cw_best
        elif k == 2:  # Badlands: a Gun between two Deserts
            n = 0
            for j in range(nocc):
                c = occ[j]
                if ico[c] == 3 and ((ter[c - 1] == 0 and ter[c + 1] == 0) or (ter[c - B] == 0 and ter[c + B] == 0)):
                    n += 1
            v = scal[g, 0] * n
        elif k == 3:  # Happy Cows: a Cow neither on nor next to Snow
            n = 0
            for j in range(nocc):
                c = occ[j]
                if ico[c] == 1 and ter[c] != 4 and ter[c - 1] != 4 and ter[c + 1] != 4 \
                        and ter[c - B] != 4 and ter[c + B] != 4:
                    n += 1
            v = scal[g, 0] * n
        elif k == 4:  # Bootleggers: Beer next to a Wagon, or not
            adj = 0
            for j in range(nocc):
                c = occ[j]
                if ico[c] == 0 and (ico[c - 1] == 5 or ico[c + 1] == 5 or ico[c - B] == 5 or ico[c + B] == 5):
                    adj += 1
            v = scal[g, 0] * adj + scal[g, 1] * (beers - adj)
        elif k == 5:  # Gold Country: a Mine on or next to Mountains
            n = 0
            for j in range(nocc):
                c = occ[j]
                if ico[c] == 4 and (ter[c] == 2 or ter[c - 1] == 2 or ter[c + 1] == 2 or ter[c - B] == 2
                                    or ter[c + B] == 2):
                    n += 1
            v = scal[g, 0] * n
        elif k == 6:  # Prairie Life
            v = (cows + plains) * scal[g, 0] // scal[g, 1]
        elif k == 7:  # The Herd
            v = scal[g, 0] * herd
        elif k == 8:  # Wagon Train: every maximal row run and column run
            last = tab_len[g] - 1
            for j in range(nocc):
                c = occ[j]
                if ico[c] != 5:
                    continue
                for step in (1, B):
                    if ico[c - step] != 5:
                        n = 0
                        u = c
                        while ico[u] == 5:
                            n += 1
                            u += step
                        v += tab[g, min(n, last)]
        elif k == 9:  # Boom or Bust: the first band holding the number of Mines
            for b in range(0, tab_len[g], 3):
                lo = tab[g, b]
                hi = tab[g, b + 1]
                if mines >= lo and (hi < 0 or mines <= hi):
                    v = tab[g, b + 2] * mines if scal[g, 0] else tab[g, b + 2]
                    break
        elif k == 10:  # One Too Many: more Beers loses per Beer of the other side
            ob = opp[g, 1]
            if beers > ob:
                v = -scal[g, 0] * ob
            elif ob > beers and can_lose[g]:
                theirs += -scal[g, 0] * beers
        elif k == 11:  # Claim Jumpers
            om = opp[g, 2]
            og = opp[g, 3]
            if mines > om:
                if og > guns:
                    v = scal[g, 0] - scal[g, 1]
                    theirs += scal[g, 1]
                else:
                    v = scal[g, 0]
            elif om > mines:
                if guns > og:
                    v = scal[g, 1]
                    theirs += scal[g, 0] - scal[g, 1]
                else:
                    theirs += scal[g, 0]
        elif k == 12:  # Smalltown Charm: the smaller town scores the difference
            diff = nocc - opp[g, 0]
            if diff > 0:
                theirs += scal[g, 0] * diff
            else:
                v = -scal[g, 0] * diff
        total += v
    return total, theirs


@njit(cache=True)
def _put(d, code, ids_cc, ter, ico, occ, nocc, B, saved_t, saved_i, added):
    """Place the d-th card at ``code`` = (y * B + x) * 2 + turned; returns the new cell count."""
    pos = code >> 1
    r = code & 1
    x = pos % B
    y = pos // B
    added[d] = 0
    for k in range(4):
        c = (y + ids_cc[d, r, k, 1]) * B + x + ids_cc[d, r, k, 0]
        saved_t[d, k] = ter[c]
        saved_i[d, k] = ico[c]
        if ter[c] < 0:
            occ[nocc] = c
            nocc += 1
            added[d] += 1
        ter[c] = ids_cc[d, r, k, 2]
        ico[c] = ids_cc[d, r, k, 3]
    return nocc


@njit(cache=True)
def _take(d, code, ids_cc, ter, ico, nocc, B, saved_t, saved_i, added):
    """Undo :func:`_put`; returns the cell count before it."""
    pos = code >> 1
    r = code & 1
    x = pos % B
    y = pos // B
    for k in range(3, -1, -1):
        c = (y + ids_cc[d, r, k, 1]) * B + x + ids_cc[d, r, k, 0]
        ter[c] = saved_t[d, k]
        ico[c] = saved_i[d, k]
    return nocc - added[d]


@njit(cache=True)
def _legal_at(ter, B, code) -> bool:
    """A card at board ``code`` covers or shares an edge with an occupied cell (rule:W-place)."""
    pos = code >> 1
    x = pos % B
    y = pos // B
    for dy in range(2):
        for dx in range(2):
            c = (y + dy) * B + x + dx
            if ter[c] >= 0 or ter[c - 1] >= 0 or ter[c + 1] >= 0 or ter[c - B] >= 0 or ter[c + B] >= 0:
                return True
    return False


@njit(cache=True)
def _walk(cc, nrot, B, O, codes, free, pick, margin, kind, scal, tab, tab_len, opp, can_lose):
    """Every legal placement sequence of the cards (first one at (O, O) unturned), depth first.

    A card ``d`` with ``free[d]`` takes each of its legal placements; any other card keeps board code
    ``codes[d]`` if that is legal in its turn, else the branch ends (the oracle frees every card; the
    local search of ``optimize_local`` keeps some). ``pick`` >= 0: only the pick-th placement of the
    second card (the caller loops over them, to check its time limit between parts). Returns (best
    value, towns scored, best codes, number of the second card's placements)."""
    n = cc.shape[0]
    NB = B * B
    ter = np.full(NB, -1, np.int8)
    ico = np.full(NB, -1, np.int8)
    occ = np.zeros(4 * n, np.int64)
    stamp = np.zeros(NB, np.int64)
    mark = np.zeros(NB, np.int64)
    ctr = np.zeros(1, np.int64)
    queue = np.zeros(4 * n + 4, np.int64)
    cand = np.zeros((n, 2 * NB), np.int64)
    ncand = np.zeros(n, np.int64)
    ptr = np.zeros(n, np.int64)
    placed = np.zeros(n, np.bool_)
    saved_t = np.zeros((n, 4), np.int8)
    saved_i = np.zeros((n, 4), np.int8)
    added = np.zeros(n, np.int64)
    box = np.zeros((n + 1, 4), np.int64)  # min x, max x, min y, max y of occupied cells after d cards
    chosen = np.zeros(n, np.int64)
    best_codes = codes.copy()
    best = np.int64(-(1 << 62))
    towns = 0
    first = (O * B + O) * 2
    nocc = _put(0, first, cc, ter, ico, occ, 0, B, saved_t, saved_i, added)
    chosen[0] = first
    box[1, 0] = O
    box[1, 1] = O + 1
    box[1, 2] = O
    box[1, 3] = O + 1
    if n == 1:
        p, o = _score(ter, ico, occ, nocc, B, stamp, mark, ctr, queue, kind, scal, tab, tab_len, opp, can_lose)
        best_codes[0] = first
        return (p - o if margin else p), 1, best_codes, 0
    n_second = 0
    d = 1
    fresh = True
    while True:
        if fresh:  # list the d-th card's legal positions on the town of cards 0..d-1 (rule:W-place)
            fresh = False
            m = 0
            if free[d]:
                for y in range(box[d, 2] - 2, box[d, 3] + 2):
                    for x in range(box[d, 0] - 2, box[d, 1] + 2):
                        if _legal_at(ter, B, (y * B + x) * 2):
                            for r in range(nrot[d]):
                                cand[d, m] = (y * B + x) * 2 + r
                                m += 1
            elif _legal_at(ter, B, codes[d]):
                cand[d, 0] = codes[d]
                m = 1
            if d == 1:
                n_second = m
                if pick >= 0:
                    if pick < m:
                        cand[1, 0] = cand[1, pick]
                        m = 1
                    else:
                        m = 0
            ncand[d] = m
            ptr[d] = 0
            placed[d] = False
        if placed[d]:
            nocc = _take(d, chosen[d], cc, ter, ico, nocc, B, saved_t, saved_i, added)
            placed[d] = False
        if ptr[d] == ncand[d]:
            if d == 1:
                break
            d -= 1
            continue
        code = cand[d, ptr[d]]
        ptr[d] += 1
        nocc = _put(d, code, cc, ter, ico, occ, nocc, B, saved_t, saved_i, added)
        placed[d] = True
        chosen[d] = code
        if d == n - 1:
            towns += 1
            p, o = _score(ter, ico, occ, nocc, B, stamp, mark, ctr, queue, kind, scal, tab, tab_len, opp, can_lose)
            v = p - o if margin else p
            if v > best:
                best = v
                for k in range(n):
                    best_codes[k] = chosen[k]
            continue
        x = (code >> 1) % B
        y = (code >> 1) // B
        box[d + 1, 0] = min(box[d, 0], x)
        box[d + 1, 1] = max(box[d, 1], x + 1)
        box[d + 1, 2] = min(box[d, 2], y)
        box[d + 1, 3] = max(box[d, 3], y + 1)
        d += 1
        fresh = True
    return best, towns, best_codes, n_second


@njit(cache=True)
def _score_placements(cc, xs, ys, rs, B, kind, scal, tab, tab_len, opp, can_lose):
    """(player total, opponent's comparing points) of a town given as board positions (for tests)."""
    n = cc.shape[0]
    NB = B * B
    ter = np.full(NB, -1, np.int8)
    ico = np.full(NB, -1, np.int8)
    occ = np.zeros(4 * n, np.int64)
    saved_t = np.zeros((n, 4), np.int8)
    saved_i = np.zeros((n, 4), np.int8)
    added = np.zeros(n, np.int64)
    nocc = 0
    for d in range(n):
        nocc = _put(d, (ys[d] * B + xs[d]) * 2 + rs[d], cc, ter, ico, occ, nocc, B, saved_t, saved_i, added)
    return _score(ter, ico, occ, nocc, B, np.zeros(NB, np.int64), np.zeros(NB, np.int64), np.zeros(1, np.int64),
                  np.zeros(4 * n + 4, np.int64), kind, scal, tab, tab_len, opp, can_lose)


def compiled_score(town: Town, scenario_id: str, opponent_pile=(), rules: Rules = Rules(),
                   objective: str = "score", data: WagonsData | None = None) -> int:
    """The compiled scorer's value of a legal ``town`` (player score, or margin against the pile):
    the fast oracle's scorer, exposed to be checked against ``score_player`` / ``final_scores``."""
    data = (data or load_data()).for_rules(rules)  # rule:W11
    tables = goal_tables(scenario_id, tuple(opponent_pile), data)
    if tables is None:
        raise BadInput(f"scenario '{scenario_id}': its goal cards are outside what the compiled scorer handles")
    ps = town.placements
    n = len(ps)
    B, O = _board(n)
    cc = np.zeros((n, 2, 4, 4), np.int64)
    codes = card_codes()
    for k, p in enumerate(ps):
        for r in range(2):
            cc[k, r] = codes[p.card][r]
    x0, y0 = ps[0].x, ps[0].y
    xs = np.array([p.x - x0 + O for p in ps], np.int64)
    ys = np.array([p.y - y0 + O for p in ps], np.int64)
    rs = np.array([int(p.rot != 0) for p in ps], np.int64)
    mine, theirs = _score_placements(cc, xs, ys, rs, B, *tables)
    if objective == "score":
        return int(mine)
    return int(mine - theirs - opponent_fixed(tuple(opponent_pile), scenario_id, rules, data))


def _fast_best(ids, scenario_id, pile, rules, objective, data, tables, time_limit, start) -> ExhaustiveResult:
    """The compiled walk, one part per placement of the second card (the time limit is checked
    between parts); the winner is replayed through the engine and re-scored by it."""
    score_player(Town((Placement(ids[0], 0, 0, 0),)), scenario_id, pile, rules, data)  # same BadInput as the slow path
    cc, nrot = _codes(ids)
    n = len(ids)
    B, O = _board(n)
    margin = objective == "margin"
    best, best_codes, towns = None, None, 0
    every, every_free = np.zeros(n, np.int64), np.ones(n, np.bool_)  # no card kept anywhere
    pick, parts = 0, 1
    while pick < parts:
        v, t, codes, n_second = _walk(cc, nrot, B, O, every, every_free, pick if n > 1 else -1, margin, *tables)
        parts = n_second if n > 1 else 1
        towns += int(t)
        if t and (best is None or v > best):
            best, best_codes = int(v), codes.copy()
        pick += 1
        if time_limit is not None and time.monotonic() - start > time_limit and pick < parts:
            return ExhaustiveResult(None, (), towns, time.monotonic() - start, True)
    town = Town()
    for k, code in enumerate(best_codes):
        pos, r = int(code) >> 1, int(code) & 1
        town = place(town, Placement(ids[k], pos % B - O, pos // B - O, 180 if r else 0))
    if margin:
        best -= opponent_fixed(pile, scenario_id, rules, data)
        check = final_scores(town, pile, scenario_id, rules, data).margin
    else:
        check = score_player(town, scenario_id, pile, rules, data).total
    if check != best:
        raise AssertionError(f"fast oracle: compiled scorer {best} != engine {check} on {town}")
    return ExhaustiveResult(best, town.placements, towns, time.monotonic() - start)
