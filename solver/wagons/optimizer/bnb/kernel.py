"""The compiled branch and bound's kernels (numba): the admissible bound at a node of the walk and the
resumable depth-first search (rule:W-opt-layout; the method itself is :mod:`.bnb`).

The search walks the cards in the order received, as the compiled walk of :mod:`.board` does (its
board of cell codes, its moves :func:`~.board._candidates` / ``_put`` / ``_take``, rule:W-place,
rule:W-cover, and its scorer ``score_town``), but at every node it first computes :func:`node_bound`,
an upper bound on the value of every completion of the town, and skips the node when that bound does
not beat the value to beat. Children are visited best bound first.

Why :func:`node_bound` is admissible (never below the value of any legal completion). Let the town
of the cards placed so far show ``V`` territories and the remaining cards hold ``r_T`` territories
of terrain ``T`` and ``q_I`` icons ``I``:

- the occupied cells are exactly the visible ones and never become empty again (a later card only
  covers or fills cells, rule:W-cover), so the final town shows ``V_f`` territories with
  ``V <= V_f <= V + 4 * remaining cards``;
- a cell of the final town either shows a territory of a remaining card, or shows now and is never
  covered; so every visible count (of a terrain or an icon) ends at most at the count now plus what
  the remaining cards hold, and at least at 0 (every current symbol can be covered);
- the final largest group of terrain ``T`` (rule:W-groups) is a connected set ``G`` of cells; its
  cells that show now lie in current ``T`` components, and at most ``r_T`` of its cells show
  territories of remaining cards. Let ``S`` be the current components ``G`` meets: ``|G| <= sum of
  their sizes + r_T`` (a component can lose cells to covering, never gain them without new ``T``
  territories). Two distinct current components never share an edge, so when ``|S| >= 2`` the
  components are linked through new ``T`` cells only: along a path in ``G`` from one component to
  the next there are at least ``dist - 1`` new cells, ``dist`` the least Manhattan distance between
  their cells, so consecutive components are at most ``r_T + 1`` apart (``S`` lies inside one
  cluster of the "at most ``r_T + 1`` apart" relation); and with ``a <= r_T`` new cells a connected
  ``G`` meets at most ``3a + 1`` components (a spanning tree of the components and new cells has
  ``a + |S| - 1`` edges, each at a new cell, and a new cell has 4 edges of which those inside the
  new cells count twice). So ``|G|`` is at most ``r_T`` plus the ``3 r_T + 1`` largest sizes of one
  cluster (the largest component alone when ``r_T = 0``), and at most ``current T count + r_T``;
- the six largest groups are disjoint sets of visible cells: together at most ``V_f``; more: each
  bound above has the form ``r_T + X_T``, ``X_T`` bounding the current cells the final ``T`` group
  can hold, so at least ``W = V - sum X_T`` current cells lie in no final largest group unless
  covered. A covered current cell and a new cell each show a distinct territory of a remaining card,
  so with ``V_f = V + e`` at most ``4 * remaining - e`` current cells get covered, and the groups
  together are at most ``V_f - max(0, W - (4 * remaining - e))``;
- The Herd's largest group of Cows: the same argument on Cow icons;
- every other goal card is bounded by its best value over every count from 0 to (now + remaining)
  of the symbols it reads, with the adjacency it asks for assumed met, exactly as the card-set bound
  of :mod:`.bounds` does from cards alone (Cool Water and Gold Country need some Water or Mountains;
  Badlands no more Guns than the Deserts can flank, and where a Gun boxed in both ways counts twice
  (rule:W12) no more than twice those Guns nor more (Gun, way) pairs than the Deserts can flank, which is
  what :func:`~.bounds.between_cells` counts; Bootleggers each Beer at its better value;
  Happy Cows every Cow, whichever Snow counts as next to one, rule:W13);
  for the position cards (Cool Water, Badlands, Gold Country, Bootleggers) the icons that end where
  the card asks are at most those placed so now, plus those the remaining cards hold, plus the other
  icons now showing that a new territory can still put right: a current icon that is not placed so
  now is only put right by a new territory on or next to its cell (covering it removes it, and a
  covering icon is one of the remaining cards'), and one new Desert is next to at most 4 cells (a
  Wagon: 4 Beers), one new Mountains or Water cell on or next to at most 5;
- a comparing card (One Too Many, Claim Jumpers, Smalltown Charm) is bounded by the best
  (player points - opponent points; player points alone for the score objective) over every
  Beers/Mines/Guns count in those ranges at each ``V_f`` (:func:`comparing_table` keeps the running
  maxima), and the groups and these cards are maximised jointly over ``V_f``.

Every part is a maximum over a superset of the completions, so the sum bounds every completion
(``tests/wagons/optimizer/test_bnb.py`` checks it against the exhaustive walk from random nodes).
"""

from __future__ import annotations

import numpy as np

from solver.wagons import goal_kinds
from solver.wagons.codes import BEER, COW, DESERT, GUN, MINE, MOUNTAINS, WAGON, WATER
from solver.wagons.optimizer.walk.board import _candidates, _put, _take
from solver.wagons.optimizer.walk.compiled import njit  # numba's, with a cache that never fails
from solver.wagons.optimizer.walk.scorer import (
    K_BAD,
    K_BOOT,
    K_COOL,
    K_COUNT,
    K_GOLD,
    K_HAPPY,
    K_HERD,
    K_ONE,
    K_TRAIN,
    _flood,
    _icons_where,
    score_town,
)

__all__ = ["node_bound", "search", "NEG", "scratch_arrays", "BOUNDED"]

BOUNDED = ("cool-water", "badlands", "happy-cows", "bootleggers", "gold-country", "the-herd", "wagon-train")
"""The position kinds :func:`_goals_fixed` bounds term by term (a kind missing there would add nothing to the
bound: not admissible); the counting kinds share one term (``K_COUNT``), the comparing kinds :func:`node_bound`'s
table over the visible territories."""
goal_kinds.check_backend("bnb", BOUNDED, ("position",))

NEG = -(1 << 62)
"""Minus infinity for compiled values (no town to beat)."""


@njit(cache=True)
def _components(codes, want_ok, occ, nocc, B, stamp, ctr, queue, comp_of, cells, starts, lens, kinds):
    """Edge-connected components of equal codes among the occupied cells ``occ[:nocc]`` whose code
    ``c`` has ``want_ok[c]``; their cells are left in ``cells`` (component ``k``: ``cells[starts[k]:
    starts[k] + lens[k]]``, code ``kinds[k]``, and ``comp_of[cell] = k``). Returns the count."""
    ctr[0] += 1
    s = ctr[0]
    m = 0
    top = 0
    for j in range(nocc):
        c = occ[j]
        if stamp[c] == s or codes[c] < 0 or not want_ok[codes[c]]:
            continue
        want = codes[c]
        tail = _flood(codes, c, B, stamp, s, queue)
        starts[m] = top
        lens[m] = tail
        kinds[m] = want
        for q in range(tail):
            cells[top + q] = queue[q]
            comp_of[queue[q]] = m
        top += tail
        m += 1
    return m


@njit(cache=True)
def _find(parent, a):
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


@njit(cache=True)
def _joined_best(code, r, m, cells, starts, lens, kinds, B, parent, buf) -> int:
    """The most cells the final largest group of ``code`` can hold: ``r`` new cells plus the
    ``3r + 1`` largest components of one cluster of components at most ``r + 1`` apart (module
    docstring); 0 when there is no such component and ``r`` = 0."""
    best = 0
    for k in range(m):
        parent[k] = k
    if r == 0:
        for k in range(m):
            if kinds[k] == code and lens[k] > best:
                best = lens[k]
        return best
    for a in range(m):  # clusters: components at most r + 1 apart
        if kinds[a] != code:
            continue
        for b in range(a + 1, m):
            if kinds[b] != code or _find(parent, a) == _find(parent, b):
                continue
            near = False
            for i in range(starts[a], starts[a] + lens[a]):
                ca = cells[i]
                xa = ca % B
                ya = ca // B
                for j in range(starts[b], starts[b] + lens[b]):
                    cb = cells[j]
                    if abs(xa - cb % B) + abs(ya - cb // B) <= r + 1:
                        near = True
                        break
                if near:
                    break
            if near:
                parent[_find(parent, a)] = _find(parent, b)
    most = 3 * r + 1
    for a in range(m):
        if kinds[a] != code or _find(parent, a) != a:
            continue
        nb = 0  # sizes of this cluster, largest first (insertion into buf)
        for b in range(m):
            if kinds[b] != code or _find(parent, b) != a:
                continue
            v = lens[b]
            p = nb
            while p > 0 and buf[p - 1] < v:
                buf[p] = buf[p - 1]
                p -= 1
            buf[p] = v
            nb += 1
        tot = 0
        for p in range(min(nb, most)):
            tot += buf[p]
        if tot > best:
            best = tot
    return best + r


@njit(cache=True)
def _merged_best(codes, code, r, occ, nocc, B, comp_of, lens, stamp, ctr, seen, buf) -> int:
    """``r`` plus the ``r`` largest *merge values* over distinct cells ``x``: the sizes of the distinct
    current ``code`` components that contain ``x`` or share an edge with it. Every component the final
    group meets touches one of its (at most ``r``) new cells (module docstring), so this bounds it too."""
    if r == 0:
        return 0
    ctr[0] += 1
    s = ctr[0]
    nb = 0
    for j in range(nocc):
        u = occ[j]
        if codes[u] != code:
            continue
        for x in (u, u - 1, u + 1, u - B, u + B):
            if stamp[x] == s:
                continue
            stamp[x] = s
            v = 0
            nseen = 0
            for y in (x, x - 1, x + 1, x - B, x + B):
                if codes[y] != code:
                    continue
                c = comp_of[y]
                dup = False
                for q in range(nseen):
                    if seen[q] == c:
                        dup = True
                        break
                if dup:
                    continue
                seen[nseen] = c
                nseen += 1
                v += lens[c]
            p = min(nb, r)  # keep the r largest, descending
            if p == r and buf[r - 1] >= v:
                continue
            if p == r:
                p = r - 1
            while p > 0 and buf[p - 1] < v:
                buf[p] = buf[p - 1]
                p -= 1
            buf[p] = v
            if nb < r:
                nb += 1
    tot = r
    for p in range(nb):
        tot += buf[p]
    return tot


@njit(cache=True)
def _linear(per, count) -> int:
    """Best of ``per * k`` for k = 0..count."""
    return max(0, per * count)


@njit(cache=True)
def _placed_most(ter, ico, occ, nocc, B, k, rem_t, rem_i, d) -> int:
    """The most icons that can end where position goal ``k`` asks (module docstring): those placed so now,
    plus the icons of that kind the remaining cards hold, plus the others now showing that a new
    territory can still put right (a new Desert flanks at most 4 Guns; a new Mountains cell is on or
    next to at most 5 Mines; a new Wagon is next to at most 4 Beers; a new Water cell is on or next to
    at most 5 Wagons)."""
    if k == K_COOL:
        icon, helper_ter, helper_ico, per_new = WAGON, WATER, -1, 5
    elif k == K_BAD:
        icon, helper_ter, helper_ico, per_new = GUN, DESERT, -1, 4
    elif k == K_GOLD:
        icon, helper_ter, helper_ico, per_new = MINE, MOUNTAINS, -1, 5
    else:  # K_BOOT
        icon, helper_ter, helper_ico, per_new = BEER, -1, WAGON, 4
    now = 0
    good = 0
    for j in range(nocc):
        c = occ[j]
        if ico[c] != icon:
            continue
        now += 1
        if k == K_COOL:
            if ter[c] == WATER or ter[c - 1] == WATER or ter[c + 1] == WATER or ter[c - B] == WATER \
                    or ter[c + B] == WATER:
                good += 1
    if k != K_COOL:
        good = _icons_where(ter, ico, occ, nocc, B, k, 0)  # icons placed so (a Gun boxed both ways: once)
    helpers = rem_t[d + 1, helper_ter] if helper_ter >= 0 else rem_i[d + 1, helper_ico]
    return good + rem_i[d + 1, icon] + min(now - good, per_new * helpers)


@njit(cache=True)
def _counted(tot_t, tot_i, terrains, icons) -> int:
    """The most a counting kind's total can reach: the counts of the terrains in bit mask ``terrains`` and the
    icons in ``icons``."""
    n = 0
    for t in range(6):
        n += tot_t[t] * ((terrains >> t) & 1) + tot_i[t] * ((icons >> t) & 1)
    return n


@njit(cache=True)
def _goals_fixed(kind, scal, tot_t, tot_i, herd_best, placed, ftab) -> int:
    """The bound on the goal cards that do not compare towns, from the symbol ranges (module docstring).
    ``ftab[g, k]``: the best of a nonlinear card (Badlands' flanked cells, Wagon Train, a counting kind) over
    every count up to ``k`` (:func:`fixed_tables`);
    ``placed[g]``: :func:`_placed_most` for a position goal."""
    v = 0
    for g in range(kind.shape[0]):
        k = kind[g]
        if k == K_COOL:
            v += _linear(scal[g, 0], min(tot_i[WAGON], placed[g])) if tot_t[WATER] > 0 else 0
        elif k == K_BAD:  # rule:W12: a Gun boxed both ways may count twice; ftab bounds the (Gun, way) pairs
            m = 1 + scal[g, 1]
            v += _linear(scal[g, 0], min(m * tot_i[GUN], m * placed[g], ftab[g, min(tot_t[DESERT], ftab.shape[1] - 1)]))
        elif k == K_HAPPY:
            v += _linear(scal[g, 0], tot_i[COW])
        elif k == K_BOOT:
            alone = max(0, scal[g, 1])  # Beers next to a Wagon: at most placed[g], and none without Wagons
            a = min(tot_i[BEER], placed[g]) if tot_i[WAGON] > 0 else 0
            v += max(alone * tot_i[BEER], scal[g, 0] * a + alone * (tot_i[BEER] - a))
        elif k == K_GOLD:
            v += _linear(scal[g, 0], min(tot_i[MINE], placed[g])) if tot_t[MOUNTAINS] > 0 else 0
        elif k == K_HERD:
            v += _linear(scal[g, 0], herd_best)
        elif k == K_TRAIN:
            v += ftab[g, min(tot_i[WAGON], ftab.shape[1] - 1)]
        elif k == K_COUNT:  # the counted symbols' total ends at most at what shows now plus what the cards hold
            v += ftab[g, min(_counted(tot_t, tot_i, scal[g, 0], scal[g, 1]), ftab.shape[1] - 1)]
    return v


@njit(cache=True)
def node_bound(ter, ico, occ, nocc, B, stamp, ctr, queue, scratch, d, n, rem_t, rem_i, kind, scal, ftab, ctab,
               ter_ok, cow_ok):
    """An upper bound on the compiled value (player total, or player total - the opponent's comparing
    points for the margin objective) of every completion of the town of cards ``0..d`` (module
    docstring). ``rem_t[d + 1]`` / ``rem_i[d + 1]``: terrains and icons of the cards still to place;
    ``ctab[g, V, beers, mines, guns]``: a comparing card's best value at ``V`` over counts up to those
    (:func:`comparing_table`); ``scratch``: its arrays (:func:`scratch_arrays`)."""
    comp_of, cells, starts, lens, kinds, parent, buf, seen = scratch
    rest = n - 1 - d
    tot_t = np.zeros(6, np.int64)
    tot_i = np.zeros(6, np.int64)
    for j in range(nocc):
        c = occ[j]
        tot_t[ter[c]] += 1
        if ico[c] >= 0:
            tot_i[ico[c]] += 1
    for t in range(6):
        tot_t[t] += rem_t[d + 1, t]
        tot_i[t] += rem_i[d + 1, t]
    m = _components(ter, ter_ok, occ, nocc, B, stamp, ctr, queue, comp_of, cells, starts, lens, kinds)
    groups = 0
    waste = nocc  # current cells outside every component a final largest group can meet
    for t in range(6):
        r = rem_t[d + 1, t]
        g = _joined_best(t, r, m, cells, starts, lens, kinds, B, parent, buf)
        if r > 0:
            g = min(g, _merged_best(ter, t, r, occ, nocc, B, comp_of, lens, stamp, ctr, seen, buf))
        g = min(g, tot_t[t])
        groups += g
        waste -= g - r
    herd = 0
    for g in range(kind.shape[0]):
        if kind[g] == K_HERD:
            mc = _components(ico, cow_ok, occ, nocc, B, stamp, ctr, queue, comp_of, cells, starts, lens, kinds)
            r = rem_i[d + 1, COW]
            herd = min(tot_i[COW], _joined_best(COW, r, mc, cells, starts, lens, kinds, B, parent, buf))
            if r > 0:
                herd = min(herd, _merged_best(ico, COW, r, occ, nocc, B, comp_of, lens, stamp, ctr, seen, buf))
    placed = np.zeros(kind.shape[0], np.int64)
    for g in range(kind.shape[0]):
        if kind[g] == K_COOL or kind[g] == K_BAD or kind[g] == K_GOLD or kind[g] == K_BOOT:
            placed[g] = _placed_most(ter, ico, occ, nocc, B, kind[g], rem_t, rem_i, d)
    fixed = _goals_fixed(kind, scal, tot_t, tot_i, herd, placed, ftab)
    nb = min(tot_i[BEER], ctab.shape[2] - 1)
    nm = min(tot_i[MINE], ctab.shape[3] - 1)
    ng = min(tot_i[GUN], ctab.shape[4] - 1)
    best = NEG
    for v in range(nocc, nocc + 4 * rest + 1):
        # the remaining territories cover at most 4 rest - (v - nocc) old cells: the rest of the waste shows
        x = min(groups, v - max(0, waste - (4 * rest - (v - nocc))))
        for g in range(kind.shape[0]):
            if kind[g] >= K_ONE:
                x += ctab[g, min(v, ctab.shape[1] - 1), nb, nm, ng]
        if x > best:
            best = x
    return best + fixed


def scratch_arrays(n: int, B: int):
    """Scratch arrays of :func:`node_bound`: component of a cell, cells by component, starts, sizes,
    codes, union-find parents, a sort buffer, the components met at one cell."""
    NB = B * B
    return (np.zeros(NB, np.int64), np.zeros(4 * n + 4, np.int64), np.zeros(4 * n + 4, np.int64),
            np.zeros(4 * n + 4, np.int64), np.zeros(4 * n + 4, np.int64), np.zeros(4 * n + 4, np.int64),
            np.zeros(4 * n + 4, np.int64), np.zeros(8, np.int64))


@njit(cache=True)
def _round1_ok(r1, d, nocc, n) -> bool:
    """Boomtown's round-1 condition can still hold after card ``d``: ``r1 = (m, opponent territories,
    behind)``, m = 0 for none; the player's count after ``m`` cards lies in [nocc, nocc + 4 (m-1-d)]."""
    m = min(r1[0], n)
    if m <= 0 or d >= m:
        return True
    hi = nocc + 4 * (m - 1 - d)
    if r1[2]:  # behind: the opponent tied or below the player's count
        return hi >= r1[1]
    return nocc < r1[1]


@njit(cache=True)
def _best_first(cand, cbound, d, k):
    """Sort the ``k`` kept children of depth ``d`` by bound, descending (insertion sort: they are few)."""
    for a in range(1, k):
        ca = cand[d, a]
        va = cbound[d, a]
        b = a
        while b > 0 and cbound[d, b - 1] < va:
            cand[d, b] = cand[d, b - 1]
            cbound[d, b] = cbound[d, b - 1]
            b -= 1
        cand[d, b] = ca
        cbound[d, b] = va


@njit(cache=True)
def _grow_box(box, d, code, B):
    """The bounding box after depth ``d``'s card at board code ``code`` (the next depth's candidates)."""
    x = (code >> 1) % B
    y = (code >> 1) // B
    box[d + 1, 0] = min(box[d, 0], x)
    box[d + 1, 1] = max(box[d, 1], x + 1)
    box[d + 1, 2] = min(box[d, 2], y)
    box[d + 1, 3] = max(box[d, 3], y + 1)


@njit(cache=True)
def search(cc, nrot, B, O, margin, kind, scal, tab, tab_len, opp, can_lose, rem_t, rem_i, ftab, ctab, r1,
           ter_ok, cow_ok, board, scratch, st, budget):
    """The depth-first branch and bound, resumable: runs until done or ``budget`` bound evaluations.

    ``st`` holds the search state between calls (:func:`.bnb.Search`): ``st.iv[0]`` depth, ``[1]``
    fresh flag, ``[2]`` cell count, ``[3]`` done, ``[4]`` found flag, ``[5]`` nodes; ``st.beat[0]``
    the compiled value to beat (raised by every town found), ``st.best_codes`` the best town found.
    Returns True when the search is complete."""
    ter, ico, occ, stamp, mark, ctr, queue, saved_t, saved_i, added = board
    iv, beat, cand, cbound, ncand, ptr, placed, box, chosen, best_codes, free, keep = st
    n = cc.shape[0]
    d = iv[0]
    fresh = iv[1] == 1
    nocc = iv[2]
    spent = 0
    while True:
        if spent >= budget:
            iv[0] = d
            iv[1] = 1 if fresh else 0
            iv[2] = nocc
            return False
        if fresh:
            fresh = False
            m = _candidates(d, free, keep, nrot, ter, B, box, cand)
            last = d == n - 1
            k = 0
            for j in range(m):  # value (last card) or bound of each child; keep those beating the best
                code = cand[d, j]
                nocc = _put(d, code, cc, ter, ico, occ, nocc, B, saved_t, saved_i, added)
                spent += 1
                if not _round1_ok(r1, d, nocc, n):
                    v = NEG
                elif last:
                    p, o = score_town(ter, ico, occ, nocc, B, stamp, mark, ctr, queue, kind, scal, tab, tab_len, opp,
                                  can_lose)
                    v = p - o if margin else p
                else:
                    v = node_bound(ter, ico, occ, nocc, B, stamp, ctr, queue, scratch, d, n, rem_t, rem_i, kind, scal,
                                   ftab, ctab, ter_ok, cow_ok)
                nocc = _take(d, code, cc, ter, ico, nocc, B, saved_t, saved_i, added)
                if v > beat[0]:
                    if last:
                        beat[0] = v
                        chosen[d] = code
                        for q in range(n):
                            best_codes[q] = chosen[q]
                        iv[4] = 1
                    else:
                        cand[d, k] = code
                        cbound[d, k] = v
                        k += 1
            iv[5] += m
            if last:
                k = 0
            _best_first(cand, cbound, d, k)
            ncand[d] = k
            ptr[d] = 0
            placed[d] = False
        if placed[d]:
            nocc = _take(d, chosen[d], cc, ter, ico, nocc, B, saved_t, saved_i, added)
            placed[d] = False
        if ptr[d] == ncand[d] or cbound[d, ptr[d]] <= beat[0]:  # sorted: the rest cannot beat the best either
            if d == 1:
                iv[3] = 1
                return True
            d -= 1
            continue
        code = cand[d, ptr[d]]
        ptr[d] += 1
        nocc = _put(d, code, cc, ter, ico, occ, nocc, B, saved_t, saved_i, added)
        placed[d] = True
        chosen[d] = code
        _grow_box(box, d, code, B)
        d += 1
        fresh = True
