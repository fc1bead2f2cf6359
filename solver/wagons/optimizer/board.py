"""The compiled walk: every legal placement sequence of an ordered list of cards, depth first, with
its own scorer (rule:W-place, rule:W-cover, rule:W-groups, the goal cards), compiled with numba.

The exhaustive oracle (:mod:`.oracle`) frees every card; the local search (:mod:`.local`) keeps some
cards where they are and re-places the others. A town lies on a B x B board of cell codes
(:func:`board_size`): a card at board position (x, y), turned or not, is the code
``(y * B + x) * 2 + turned``. The scorer is a second implementation of the scoring rules, checked
against :func:`solver.wagons.scoring.score_player` on thousands of random towns
(``tests/wagons/optimizer/test_oracle.py``); the goal cards reach it as arrays (:func:`goal_tables`), one
kind number per card (:data:`KINDS`).

Exactness of the walk: the legal moves are those of rule:W-place: the first card at (O, O)
unturned (translating or half-turning a whole town changes no score), every later card at each
position where one of its 4 cells is occupied or shares an edge with an occupied cell, turned 0
or 180 degrees (rule:W-rotation), a card whose turned face looks the same once (exactly as
:func:`solver.wagons.town.legal_placements`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from solver.errors import BadInput
from solver.wagons import goal_kinds
from solver.wagons.cards import card_codes
from solver.wagons.codes import (
    BEER,
    COW,
    DESERT,
    GUN,
    ICON_CODE,
    MINE,
    MOUNTAINS,
    SNOW,
    WAGON,
    WATER,
)
from solver.wagons.data import WagonsData, load_data
from solver.wagons.optimizer.compiled import Warming, njit  # numba's, with a cache that never fails
from solver.wagons.rules import Rules
from solver.wagons.scoring import opponent_fixed, pile_counts
from solver.wagons.town import Town

__all__ = ["KINDS", "goal_tables", "card_arrays", "board_size", "walk", "compiled_score", "WALK"]

KINDS = ("cool-water", "badlands", "happy-cows", "bootleggers", "gold-country", "the-herd", "wagon-train",
         "counting", "one-too-many", "claim-jumpers", "smalltown-charm")
"""The compiled scorer's kind numbers (index + 1; 0: no card): the position and comparing kinds it encodes
itself, and one number for every counting kind of the catalogue (:mod:`solver.wagons.goal_kinds`: a table of
its points by the total of the symbols it counts). The comparing kinds come last (``kind >= K_ONE``)."""
(K_COOL, K_BAD, K_HAPPY, K_BOOT, K_GOLD, K_HERD, K_TRAIN, K_COUNT, K_ONE, K_CLAIM, K_SMALL) = range(1, len(KINDS) + 1)
_SCALARS = {"cool-water": ("per_wagon",), "badlands": ("per_gun",), "happy-cows": ("per_cow",),
            "bootleggers": ("per_beer_adjacent", "per_beer_alone"), "gold-country": ("per_mine",),
            "the-herd": ("per_cow",), "wagon-train": (), "one-too-many": ("loss_per_other_beer",),
            "claim-jumpers": ("points", "taken_by_more_guns"), "smalltown-charm": ("per_territory",)}
goal_kinds.check_backend("walk", _SCALARS, ("position", "comparing"))


def _is_int(v) -> bool:
    return type(v) is int


def _counting_row(goal, scal_row) -> list[int] | None:
    """A counting kind's points for every total a town can show (the catalogue's), with the symbols it counts
    as bit masks in ``scal_row`` (terrains in slot 0, icons in slot 1); None when a number is missing or not
    whole (the slow path then says which)."""
    entry = goal_kinds.kind(goal.kind)
    lanes = goal_kinds.symbol_lanes(entry.counts)
    for lane, code in lanes:
        scal_row[lane] |= 1 << code
    try:
        row = [entry.points(goal, t) for t in range(4 * len(card_codes()) * len(lanes) + 1)]
    except (BadInput, ArithmeticError, TypeError):
        return None
    return row if all(_is_int(v) for v in row) else None


def goal_tables(scenario_id: str, pile: tuple[int, ...], data: WagonsData) -> tuple | None:
    """The scenario's two goal cards as arrays for the compiled scorer, or None when a card's kind or
    parameters are outside what it handles (then the slow path runs).

    ``(kind[g], scalars[g, 4], table[g, :], table_len[g], opponent side[g] = (territories, Beers, Mines,
    Guns incl. the reading's extra Guns), can_lose[g])``; a counting kind's table holds its points by total."""
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
        if goal.kind in goal_kinds.COUNTING:
            row = _counting_row(goal, scal[k])
            if row is None:
                return None
            kind[k] = K_COUNT
            tab_rows.append(row)
            continue
        if goal.kind not in _SCALARS:
            return None
        kind[k] = KINDS.index(goal.kind) + 1
        params = dict(goal.params)
        names = _SCALARS[goal.kind]
        if not all(n in params and _is_int(params[n]) for n in names):
            return None
        for j, n in enumerate(names):
            scal[k, j] = params[n]
        row: list[int] = []
        if goal.kind == "wagon-train":
            table = params.get("run_points")
            if not isinstance(table, tuple) or not table or not all(_is_int(v) for v in table):
                return None
            row = list(table)
        if goal.kind in ("badlands", "happy-cows"):  # rule:W12, rule:W13: the reading's flag, in the second slot
            flag = params.get("twice_when_boxed" if goal.kind == "badlands" else "snow_corners", False)
            if type(flag) is not bool:
                return None
            scal[k, 1] = int(flag)
        tab_rows.append(row)
        if goal.kind in goal_kinds.COMPARING:
            reading = scenario.reading(goal.name)
            if not _is_int(reading.extra_guns) or type(reading.can_lose) is not bool:
                return None
            opp[k] = (4 * len(pile), pc.icon[ICON_CODE["Beer"]], pc.icon[ICON_CODE["Mine"]],
                      pc.icon[ICON_CODE["Gun"]] + reading.extra_guns)
            can_lose[k] = int(reading.can_lose)
    width = max([len(r) for r in tab_rows] + [1])
    tab = np.zeros((g, width), np.int64)
    tab_len = np.zeros(g, np.int64)
    for k, row in enumerate(tab_rows):
        tab[k, :len(row)] = row
        tab_len[k] = len(row)
    return kind, scal, tab, tab_len, opp, can_lose


def card_arrays(ids: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
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


def board_size(n: int) -> tuple[int, int]:
    """(B, O): a B x B board with the first card's top-left cell at (O, O). After k cards every
    occupied cell lies within 2(k - 1) cells of the first card, and candidate positions one card
    further, so a 2-cell margin keeps every neighbour look-up on the board and off the wrap-around."""
    return 4 * n + 6, 2 * n + 2


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
def _groups(ter, ico, occ, nocc, B, stamp, mark, ctr, queue, cool):
    """(sum over the 6 terrains of the largest group's size, Wagons on or next to the largest Water group,
    the best of tied ones) (rule:W-groups; Cool Water when ``cool``)."""
    largest = np.zeros(6, np.int64)
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
        if t == WATER and cool:  # Wagons on or next to this group
            ctr[0] += 1
            s2 = ctr[0]
            near = 0
            for q in range(tail):
                u = queue[q]
                for v in (u, u - 1, u + 1, u - B, u + B):
                    if mark[v] != s2 and ico[v] == WAGON:
                        mark[v] = s2
                        near += 1
            if tail > cw_size:
                cw_size = tail
                cw_best = near
            elif tail == cw_size and near > cw_best:
                cw_best = near
    total = 0
    for t in range(6):
        total += largest[t]
    return total, cw_best


@njit(cache=True)
def _herd(ico, occ, nocc, B, stamp, ctr, queue) -> int:
    """The largest edge-connected group of Cow icons (The Herd)."""
    ctr[0] += 1
    s3 = ctr[0]
    herd = 0
    for j in range(nocc):
        c = occ[j]
        if ico[c] != COW or stamp[c] == s3:
            continue
        tail = _flood(ico, c, B, stamp, s3, queue)
        if tail > herd:
            herd = tail
    return herd


@njit(cache=True)
def _counts(ico, occ, nocc):
    """(Beers, Guns, Mines) showing: what the comparing cards read."""
    beers = 0
    guns = 0
    mines = 0
    for j in range(nocc):
        i = ico[occ[j]]
        if i == BEER:
            beers += 1
        elif i == GUN:
            guns += 1
        elif i == MINE:
            mines += 1
    return beers, guns, mines


@njit(cache=True)
def _icons_where(ter, ico, occ, nocc, B, k, flag) -> int:
    """Icons placed as the position goal ``k`` asks: a Gun between two Deserts (left and right, or above
    and below: Badlands; with ``flag`` a Gun boxed in both ways counts twice, rule:W12), a Cow neither on nor
    next to Snow (Happy Cows; with ``flag`` a Snow at a corner counts as next to it, rule:W13), a Beer next
    to a Wagon (Bootleggers), a Mine on or next to Mountains (Gold Country)."""
    n = 0
    for j in range(nocc):
        c = occ[j]
        if k == K_BAD:
            hit = 0
            if ico[c] == GUN:
                across = ter[c - 1] == DESERT and ter[c + 1] == DESERT
                down = ter[c - B] == DESERT and ter[c + B] == DESERT
                hit = int(across) + int(down) if flag else int(across or down)
        elif k == K_HAPPY:
            hit = int(ico[c] == COW and ter[c] != SNOW and ter[c - 1] != SNOW and ter[c + 1] != SNOW
                      and ter[c - B] != SNOW and ter[c + B] != SNOW)
            if hit and flag:
                hit = int(ter[c - B - 1] != SNOW and ter[c - B + 1] != SNOW and ter[c + B - 1] != SNOW
                          and ter[c + B + 1] != SNOW)
        elif k == K_BOOT:
            hit = int(ico[c] == BEER and (ico[c - 1] == WAGON or ico[c + 1] == WAGON or ico[c - B] == WAGON
                                          or ico[c + B] == WAGON))
        else:
            hit = int(ico[c] == MINE and (ter[c] == MOUNTAINS or ter[c - 1] == MOUNTAINS or ter[c + 1] == MOUNTAINS
                                          or ter[c - B] == MOUNTAINS or ter[c + B] == MOUNTAINS))
        n += hit
    return n


@njit(cache=True)
def _wagon_runs(ico, occ, nocc, B, tab, tab_len, g) -> int:
    """Wagon Train: every maximal row run and column run of Wagons scores ``tab[g, min(length, last)]``."""
    last = tab_len[g] - 1
    v = 0
    for j in range(nocc):
        c = occ[j]
        if ico[c] != WAGON:
            continue
        for step in (1, B):
            if ico[c - step] != WAGON:
                n = 0
                u = c
                while ico[u] == WAGON:
                    n += 1
                    u += step
                v += tab[g, min(n, last)]
    return v


@njit(cache=True)
def _total(ter, ico, occ, nocc, terrains, icons) -> int:
    """The visible territories showing a terrain of bit mask ``terrains``, plus those showing an icon of bit mask
    ``icons`` (a territory can count twice): what a counting kind totals."""
    n = 0
    for j in range(nocc):
        c = occ[j]
        n += ((terrains >> ter[c]) & 1) + ((icons >> ico[c]) & 1)
    return n


@njit(cache=True)
def _comparing(k, g, scal, opp, can_lose, nocc, beers, mines, guns):
    """(player points, opponent points) of a comparing goal card (One Too Many, Claim Jumpers,
    Smalltown Charm) against the opponent side ``opp[g]`` = (territories, Beers, Mines, Guns)."""
    v = 0
    theirs = 0
    if k == K_ONE:  # more Beers loses per Beer of the other side
        ob = opp[g, 1]
        if beers > ob:
            v = -scal[g, 0] * ob
        elif ob > beers and can_lose[g]:
            theirs = -scal[g, 0] * beers
    elif k == K_CLAIM:
        om = opp[g, 2]
        og = opp[g, 3]
        if mines > om:
            if og > guns:
                v = scal[g, 0] - scal[g, 1]
                theirs = scal[g, 1]
            else:
                v = scal[g, 0]
        elif om > mines:
            if guns > og:
                v = scal[g, 1]
                theirs = scal[g, 0] - scal[g, 1]
            else:
                theirs = scal[g, 0]
    elif k == K_SMALL:  # the smaller town scores the difference
        diff = nocc - opp[g, 0]
        if diff > 0:
            theirs = scal[g, 0] * diff
        else:
            v = -scal[g, 0] * diff
    return v, theirs


@njit(cache=True)
def _score(ter, ico, occ, nocc, B, stamp, mark, ctr, queue, kind, scal, tab, tab_len, opp, can_lose):
    """(player total, opponent's points from comparing cards) of the board's visible town.

    rule:W-groups (largest edge-connected group per terrain) plus the goal cards; cells are the
    ``nocc`` board indices in ``occ``; ``stamp``/``mark`` are visit marks compared with fresh
    values of the counter ``ctr[0]`` (never reset)."""
    has_cool = False
    has_herd = False
    for g in range(kind.shape[0]):
        if kind[g] == K_COOL:
            has_cool = True
        elif kind[g] == K_HERD:
            has_herd = True
    total, cw_best = _groups(ter, ico, occ, nocc, B, stamp, mark, ctr, queue, has_cool)
    herd = _herd(ico, occ, nocc, B, stamp, ctr, queue) if has_herd else 0
    beers, guns, mines = _counts(ico, occ, nocc)
    theirs = 0
    for g in range(kind.shape[0]):
        k = kind[g]
        v = 0
        if k == K_COOL:
            v = scal[g, 0] * cw_best
        elif k == K_BAD or k == K_HAPPY:
            v = scal[g, 0] * _icons_where(ter, ico, occ, nocc, B, k, scal[g, 1])
        elif k == K_GOLD:
            v = scal[g, 0] * _icons_where(ter, ico, occ, nocc, B, k, 0)
        elif k == K_BOOT:  # Beer next to a Wagon, or not
            adj = _icons_where(ter, ico, occ, nocc, B, k, 0)
            v = scal[g, 0] * adj + scal[g, 1] * (beers - adj)
        elif k == K_HERD:
            v = scal[g, 0] * herd
        elif k == K_TRAIN:
            v = _wagon_runs(ico, occ, nocc, B, tab, tab_len, g)
        elif k == K_COUNT:
            v = tab[g, min(_total(ter, ico, occ, nocc, scal[g, 0], scal[g, 1]), tab_len[g] - 1)]
        elif k >= K_ONE:
            v, t = _comparing(k, g, scal, opp, can_lose, nocc, beers, mines, guns)
            theirs += t
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
def _board_arrays(n, NB):
    """The empty board (terrain and icon codes, -1 = no territory), the occupied-cell list, the flood
    fill's visit marks, counter and queue, and what each card covered (:func:`_put`)."""
    return (np.full(NB, -1, np.int8), np.full(NB, -1, np.int8), np.zeros(4 * n, np.int64), np.zeros(NB, np.int64),
            np.zeros(NB, np.int64), np.zeros(1, np.int64), np.zeros(4 * n + 4, np.int64),
            np.zeros((n, 4), np.int8), np.zeros((n, 4), np.int8), np.zeros(n, np.int64))


@njit(cache=True)
def _candidates(d, free, codes, nrot, ter, B, box, cand) -> int:
    """List in ``cand[d]`` the d-th card's legal board codes on the town of cards 0..d-1 (rule:W-place):
    every position and turn when ``free[d]``, else its kept code when that is legal; returns how many."""
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
    return m


@njit(cache=True)
def walk(cc, nrot, B, O, codes, free, pick, margin, kind, scal, tab, tab_len, opp, can_lose):
    """Every legal placement sequence of the cards (first one at (O, O) unturned), depth first.

    A card ``d`` with ``free[d]`` takes each of its legal placements; any other card keeps board code
    ``codes[d]`` if that is legal in its turn, else the branch ends (the oracle frees every card; the
    local search of :mod:`.local` keeps some). ``pick`` >= 0: only the pick-th placement of the
    second card (the caller loops over them, to check its time limit between parts). Returns (best
    value, towns scored, best codes, number of the second card's placements)."""
    n = cc.shape[0]
    NB = B * B
    ter, ico, occ, stamp, mark, ctr, queue, saved_t, saved_i, added = _board_arrays(n, NB)
    cand = np.zeros((n, 2 * NB), np.int64)
    ncand = np.zeros(n, np.int64)
    ptr = np.zeros(n, np.int64)
    placed = np.zeros(n, np.bool_)
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
            m = _candidates(d, free, codes, nrot, ter, B, box, cand)
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
    B, O = board_size(n)
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


def _warm_walk() -> None:
    """The walk compiled (or loaded from the cache) on a 3-card town, called as the local search and the oracle call it."""
    tables = goal_tables("boomtown", (3, 4), load_data())
    cc, nrot = card_arrays((0, 1, 2))
    B, O = board_size(3)
    walk(cc, nrot, B, O, np.zeros(3, np.int64), np.ones(3, np.bool_), 0, True, *tables)


WALK = Warming("walk", _warm_walk)
"""The walk's compilation: a search calls :func:`walk` only once ``WALK.ready_by(its deadline)`` (compiled.py)."""
