"""The compiled walk's scorer (numba): a second implementation of the scoring rules (rule:W-groups, the goal
cards) over a board of cell codes, and the scenario's goal cards as the arrays it reads.

The goal cards reach it as arrays (:func:`goal_tables`), one kind number per card (:data:`KINDS`): the position
and comparing kinds of the catalogue (:mod:`solver.wagons.goal_kinds`) it encodes itself, and one number for
every counting kind (a table of its points by the total it counts). It is checked against
:func:`solver.wagons.scoring.score_player` on thousands of random towns (``tests/wagons/optimizer/test_oracle.py``,
``tests/wagons/engine/test_goal_backends.py``). The moves and the walk are :mod:`.board`.
"""

from __future__ import annotations

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
from solver.wagons.data import WagonsData
from solver.wagons.optimizer.walk.compiled import njit  # numba's, with a cache that never fails
from solver.wagons.scoring import pile_counts

__all__ = ["KINDS", "goal_tables", "score_town"]

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
    as bit masks in ``scal_row`` (terrains in slot 0, icons in slot 1), under the readings of the card's numbers
    the data was read with (rule:W11: Boom or Bust per Mine or flat); None when a number is missing or not whole
    (the slow path then says which)."""
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
def score_town(ter, ico, occ, nocc, B, stamp, mark, ctr, queue, kind, scal, tab, tab_len, opp, can_lose):
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
