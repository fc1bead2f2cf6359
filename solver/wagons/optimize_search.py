"""Exact search over canonical visible grids: enumerator and branch-and-bound prover (rule:W-opt-layout).

Why states can be merged: whether a later placement is legal (rule:W-place: it must cover or share
an edge with an occupied cell) depends only on the occupied cells, and the final score (rule:W7:
largest terrain groups, the goal cards, the comparing cards against the fixed opponent pile) is a
function of the visible territories only (:func:`solver.wagons.scoring.score_player` reads the
bitboards of the visible grid, never card identities), and every part of it is invariant under
translation. So two partial towns with the same visible grid up to translation have the same set
of reachable final scores: keep one. A state is the 12 terrain/icon bitboards in one fixed frame
(:class:`_Frame`); its canonical key is those bitboards shifted down by the lowest occupied bit
(the occupied cells are edge-connected and the frame has guard columns, so two keys are equal
exactly when the grids are translates).

- :func:`enumerate_best`: breadth first over the card order, one set of canonical states per level
  (the last level deduplicated too), every final state scored; the test oracle's fast twin.
- :func:`search_best`: depth first with a memo of canonical states and the admissible bound
  :func:`upper_bound`; exact (every pruned subtree provably holds nothing better than the best so far).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from solver.errors import BadInput
from solver.wagons.cards import card_codes
from solver.wagons.data import WagonsData, load_data
from solver.wagons.rules import Rules
from solver.wagons.scoring import (
    BEER,
    COW,
    DESERT,
    GUN,
    MINE,
    MOUNTAINS,
    PLAINS,
    WAGON,
    Side,
    TownFeatures,
    _boom,
    _plan,
    group_of,
    margin_scorer,
)
from solver.wagons.town import Placement

__all__ = ["SearchResult", "enumerate_best", "search_best", "state_bound", "Bounder"]



@dataclass(frozen=True)
class SearchResult:
    value: int | None          # best objective value found (None: nothing above the floor)
    placements: tuple[Placement, ...]
    proven: bool               # the search finished: value is the optimum (or nothing beats the floor)
    states: int                # canonical states expanded
    elapsed: float


# ---------------------------------------------------------------- the admissible bound

@lru_cache(maxsize=64)
def _runs_best(table: tuple, u: int) -> int:
    """Most Wagon Train points one direction's runs can give with at most ``u`` Wagons: the best
    split of n <= u cells into runs (a run of length n scores ``table[min(n, last)]``)."""
    best = [0] * (u + 1)  # best[n]: n cells split into runs
    for n in range(1, u + 1):
        best[n] = max(best[n - j] + table[min(j, len(table) - 1)] for j in range(1, n + 1))
    return max(best)


@lru_cache(maxsize=256)
def _wagon_bound(table: tuple, u: int) -> int:
    """Most Wagon Train points (rule:W-goal-wagon-train) with at most ``u`` visible Wagons, for a
    table with ``table[0] == table[1] == 0`` that never decreases.

    Relaxation: keep the row runs and column runs of length >= 2 (shorter ones score 0), each cut to
    the table's last length L (same points, fewer cells). A row run and a column run share at most
    one cell, a cell is in at most one row run and one column run, so with A, B cells in R row runs
    and C column runs the Wagons number at least A + B - min(R * C, A, B); cutting runs only lowers
    that (it never decreases in A or B). The bound is the best pair of sides that fits in ``u``."""
    last = len(table) - 1
    # side[a][r]: most points from r runs (lengths 2..last) holding a cells in all
    neg = -1
    side = [[neg] * (u // 2 + 2) for _ in range(u + 1)]
    side[0][0] = 0
    for a in range(u + 1):
        for r in range(u // 2 + 1):
            if side[a][r] < 0:
                continue
            for ln in range(2, last + 1):
                if a + ln <= u and side[a][r] + table[ln] > side[a + ln][r + 1]:
                    side[a + ln][r + 1] = side[a][r] + table[ln]
    cells = [(a, r, side[a][r]) for a in range(u + 1) for r in range(u // 2 + 2) if side[a][r] >= 0]
    best = 0
    for a, r, pa in cells:
        for b, c, pb in cells:
            if pa + pb > best and max(a + b - r * c, a, b) <= u:
                best = pa + pb
    return best


class Bounder:
    """``bound(counts, occupied, rem)``: an upper bound on the objective of every final town reachable
    from a state (rule:W-opt-layout).

    ``counts`` = the state's visible terrain (0-5) and icon (6-11) counts, ``occupied`` its cell
    count, ``rem`` = the same 12 counts summed over the cards still to place, ``k`` their number.

    Admissibility (never below the true best): placing a card never un-covers anything, so in any
    final town the visible count of terrain/icon j is at most ``u_j = counts[j] + rem[j]`` (every
    territory still to come showing, nothing covered), and the occupied cell count lies in
    ``[occupied, occupied + 4k]`` (cells never become empty). (1) A terrain's largest group has at
    most ``u_t`` cells. (2) Each goal card's points are a function of counts inside these ranges
    (Happy Cows, The Herd, Cool Water: at most ``per x`` a count of Cows, Wagons; Badlands: Guns,
    and at most 2 per Desert, since a scoring Gun has 2 Desert neighbours and a Desert has 4
    neighbours; Gold Country: Mines, at most 5 per Mountains cell (itself and 4 neighbours);
    Bootleggers: n Beers of which j <= 4 x Wagons are next to a Wagon, linear so a corner is best; Prairie Life: Cows + Plains;
    Boom or Bust: Mines; Wagon Train: each row run and column run holds distinct Wagons, so each
    direction scores at most the best split of <= u Wagons into runs); the bound takes the maximum
    over the whole range, so it cannot be lower than the actual points. (3) Comparing cards (and for
    ``objective="margin"`` the opponent's points on them, subtracted) are maximised over the range
    of the Side fields they read. A goal kind not listed gets no bound (inf: no pruning, still exact).
    """

    def __init__(self, scenario_id: str, pile: tuple[int, ...], rules: Rules, objective: str, data: WagonsData):
        scenario, plan = _plan(scenario_id, data)
        self.margin = objective == "margin"
        from solver.wagons.scoring import opponent_fixed, pile_counts
        pc = pile_counts(pile)
        self.fixed = opponent_fixed(pile, scenario_id, rules, data) if self.margin else 0
        self.parts = []
        for name, goal, fn, cmp in plan:
            if fn is None:
                reading = scenario.reading(name)
                theirs = Side(pc.territories, pc.icon[BEER], pc.icon[MINE], pc.icon[GUN] + reading.extra_guns)
                self.parts.append(self._comparing(goal, cmp, theirs, reading.can_lose))
            else:
                self.parts.append(self._player(goal))

    def _player(self, goal):
        k = goal.kind
        p = dict(goal.params)
        lin = {"cool-water": ("per_wagon", WAGON), "badlands": ("per_gun", GUN), "happy-cows": ("per_cow", COW),
               "gold-country": ("per_mine", MINE), "the-herd": ("per_cow", COW)}
        try:
            if k == "badlands":  # a scoring Gun has 2 Desert neighbours; a Desert neighbours <= 4 cells
                per = p["per_gun"]
                return lambda u, occ, k4: max(0, per * min(u[6 + GUN], 2 * u[DESERT]))
            if k == "gold-country":  # a scoring Mine is on or next to Mountains: <= 5 cells per Mountains
                per = p["per_mine"]
                return lambda u, occ, k4: max(0, per * min(u[6 + MINE], 5 * u[MOUNTAINS]))
            if k in lin:
                per, icon = p[lin[k][0]], lin[k][1]
                return lambda u, occ, k4: max(0, per * u[6 + icon])
            if k == "bootleggers":
                a, b = p["per_beer_adjacent"], p["per_beer_alone"]
                # n Beers, j of them next to a Wagon (j <= 4 x Wagons): linear, so a corner is best
                def boot(u, occ, k4):
                    n = u[6 + BEER]
                    j = min(n, 4 * u[6 + WAGON])
                    return max(0, b * n, a * j + b * (n - j), a * j)
                return boot
            if k == "prairie-life":
                per, div = p["per_symbol"], p["divisor"]
                return lambda u, occ, k4: max(0, (u[6 + COW] + u[PLAINS]) * per // div) if per >= 0 and div > 0 \
                    else float("inf")
            if k == "boom-or-bust":
                return lambda u, occ, k4: max(_boom(goal, m) for m in range(u[6 + MINE] + 1))
            if k == "wagon-train":
                table = p["run_points"]
                if isinstance(table, tuple) and len(table) >= 2 and all(type(v) is int for v in table):
                    if table[0] == 0 and table[1] == 0 and all(a <= b for a, b in zip(table, table[1:])):
                        return lambda u, occ, k4: _wagon_bound(table, u[6 + WAGON])
                    return lambda u, occ, k4: 2 * _runs_best(table, u[6 + WAGON])
        except KeyError:
            pass
        return lambda u, occ, k4: float("inf")

    def _comparing(self, goal, cmp, theirs: Side, can_lose: bool):
        margin = self.margin
        memo: dict = {}

        def value(me: Side) -> int:
            a, b = cmp(me, theirs, can_lose)
            return a - b if margin else a

        def bound(u, occ, k4):
            key = (occ, k4, u[6 + BEER], u[6 + MINE], u[6 + GUN])
            hit = memo.get(key)
            if hit is None:
                if goal.kind == "smalltown-charm":
                    hit = max(value(Side(t, 0, 0, 0)) for t in range(occ, occ + k4 + 1))
                elif goal.kind == "one-too-many":
                    hit = max(value(Side(occ, b, 0, 0)) for b in range(u[6 + BEER] + 1))
                elif goal.kind == "claim-jumpers":
                    hit = max(value(Side(occ, 0, m, g)) for m in range(u[6 + MINE] + 1) for g in range(u[6 + GUN] + 1))
                else:
                    hit = float("inf")
                memo[key] = hit
            return hit
        return bound

    def bound(self, counts, occupied: int, rem, k: int):
        u = [a + b for a, b in zip(counts, rem)]
        total = u[0] + u[1] + u[2] + u[3] + u[4] + u[5] - self.fixed
        for part in self.parts:
            total += part(u, occupied, 4 * k)
        return total


def _rem_counts(cards: Sequence[int]) -> list[int]:
    out = [0] * 12
    for cid in cards:
        for _, _, t, i in card_codes()[cid][0]:
            out[t] += 1
            out[6 + i] += 1
    return out


# ---------------------------------------------------------------- the fast core: bitboards in a fixed frame

def _rots(card: int):
    """((rot, ((dx, dy, code), ...)), ...): the card's rotations, a half turn listed only when it
    looks different (as ``town.legal_placements``); ``code = 6 * terrain + icon``."""
    codes = card_codes()[card]
    cells0 = tuple((dx, dy, 6 * t + i) for dx, dy, t, i in codes[0])
    cells1 = tuple((dx, dy, 6 * t + i) for dx, dy, t, i in codes[1])
    if sorted(cells0) == sorted(cells1):
        return ((0, cells0),)
    return ((0, cells0), (180, cells1))


class _Frame:
    """One frame for a whole search of ``n`` cards: the first card at (0, 0), each later one within 2
    cells of the town, so every cell lies in [-2(n-1), 2n-1]; one guard column (and row) each side.
    Bit of (x, y) = (y - lo) * W + (x - lo) with lo = -2n + 1. The scorer's functions only shift by
    1 and W, so they read these bitboards exactly as their own (translation-invariant)."""

    def __init__(self, cards: Sequence[int]):
        n = len(cards)
        self.lo = -2 * n + 1
        self.w = 4 * n + 2
        w = self.w
        self.block = 3 | (3 << w)
        self.pats = {}
        for cid in cards:
            per = []
            for rot, cells in _rots(cid):
                lanes = [0] * 12
                for dx, dy, c in cells:
                    b = 1 << (dy * w + dx)
                    lanes[c // 6] |= b
                    lanes[6 + c % 6] |= b
                per.append((rot, tuple((k, m) for k, m in enumerate(lanes) if m)))
            self.pats[cid] = tuple(per)

    def origin(self, x: int, y: int) -> int:
        return (y - self.lo) * self.w + (x - self.lo)

    def xy(self, o: int) -> tuple[int, int]:
        return o % self.w + self.lo, o // self.w + self.lo

    def kids(self, masks: tuple, occ: int, cid: int):
        """(origin bit, rot, child masks, child occupied) for every legal placement (rule:W-place)."""
        w = self.w
        if not occ:
            origins = 1 << self.origin(0, 0)
        else:
            touch = occ | (occ << 1) | (occ >> 1) | (occ << w) | (occ >> w)
            origins = touch | (touch >> 1) | (touch >> w) | (touch >> (w + 1))
        block0 = self.block
        pats = self.pats[cid]
        out = []
        while origins:
            low = origins & -origins
            origins ^= low
            o = low.bit_length() - 1
            block = block0 << o
            if occ & block:
                keep = ~block
                base = [m & keep for m in masks]
            else:
                base = masks
            for rot, lanes in pats:
                nm = list(base)
                for k, m in lanes:
                    nm[k] |= m << o
                out.append((o, rot, tuple(nm), occ | block))
        return out


def _key(masks: tuple, occ: int):
    s = (occ & -occ).bit_length() - 1
    return tuple(m >> s for m in masks)


def _feat(w: int, masks: tuple, occ: int) -> TownFeatures:
    return TownFeatures(w, masks[:6], masks[6:], occ)


def _fast_evaluator(scenario_id: str, pile: tuple[int, ...], rules: Rules, objective: str, data: WagonsData):
    """``value(f)`` = the objective, as :func:`score_player` (``.total``) or ``margin_scorer`` give it."""
    if objective == "margin":
        return margin_scorer(pile, scenario_id, rules, data)
    from solver.wagons.scoring import _largest_uncached as largest
    from solver.wagons.scoring import pile_counts
    scenario, plan = _plan(scenario_id, data)
    pc = pile_counts(pile)
    fns = []
    for name, _goal, fn, cmp in plan:
        if fn is None:
            reading = scenario.reading(name)
            theirs = Side(pc.territories, pc.icon[BEER], pc.icon[MINE], pc.icon[GUN] + reading.extra_guns)
            fns.append(lambda f, cmp=cmp, theirs=theirs, cl=reading.can_lose: cmp(
                Side(f.occupied.bit_count(), f.icon[BEER].bit_count(), f.icon[MINE].bit_count(),
                     f.icon[GUN].bit_count()), theirs, cl)[0])
        else:
            fns.append(fn)

    def value(f):
        w = f.width
        d, fo, mo, pl, sn, wa = f.terrain
        v = largest(d, w) + largest(fo, w) + largest(mo, w) + largest(pl, w) + largest(sn, w) + largest(wa, w)
        for fn in fns:
            v += fn(f)
        return v
    return value


def _components(m: int, w: int) -> list[int]:
    """Sizes of the edge-connected groups of mask ``m``, largest first."""
    out = []
    while m:
        comp = group_of(m & -m, m, w)
        out.append(comp.bit_count())
        m ^= comp
    out.sort(reverse=True)
    return out


def _group_bound(m: int, w: int, r: int) -> int:
    """Largest group a mask can reach when ``r`` more cells of its kind may still show.

    Old groups never touch each other (they are maximal), so a final group is one old group alone, or
    new cells plus the old groups they touch; a new cell has only 2 neighbours outside its own card,
    so r new cells touch at most 2r old groups: at most r + the 2r largest old groups."""
    comps = _components(m, w)
    if r == 0:
        return comps[0] if comps else 0
    return r + sum(comps[:2 * r])


def _make_bound(ids: tuple, fr: _Frame, bounder: Bounder):
    """``bound(masks, occ, depth)``: the admissible bound of a state after ``depth`` of ``ids`` are
    placed: :class:`Bounder` with each terrain's count replaced by :func:`_group_bound` (both are
    upper bounds on the final largest group, so the smaller one is too; with no card left the
    group bound is the exact largest group)."""
    n = len(ids)
    w = fr.w
    parts, fixed = bounder.parts, bounder.fixed
    rem = [_rem_counts(ids[d:]) for d in range(n + 1)]

    def bound(masks, occ, depth):
        r = rem[depth]
        k4 = 4 * (n - depth)
        u = [masks[j].bit_count() + r[j] for j in range(12)]
        total = -fixed
        for t in range(6):
            total += min(u[t], _group_bound(masks[t], w, r[t]))
        for part in parts:
            total += part(u, occ.bit_count(), k4)
        return total
    return bound


def _prefix_state(fr: _Frame, prefix: Sequence[Placement]):
    """(masks, occupied, path) after the placements ``prefix`` (legal, the first at (0, 0))."""
    masks, occ, path = (0,) * 12, 0, None
    for p in prefix:
        for o, rot, nm, nocc in fr.kids(masks, occ, p.card):
            if fr.xy(o) == (p.x, p.y) and rot == p.rot:
                masks, occ, path = nm, nocc, (path, (p.card, o, rot))
                break
        else:
            raise BadInput(f"prefix: placement {p} is not legal here")
    return masks, occ, path


def state_bound(cards: Sequence[int], prefix: Sequence[Placement], scenario_id: str, pile=(),
                rules: Rules = Rules(), objective: str = "score", data: WagonsData | None = None):
    """The branch-and-bound prover's bound for the state after ``prefix`` (the first placements of
    ``cards``): never below the best objective of any completion (tested against the exact value)."""
    data = (data or load_data()).for_rules(rules)  # rule:W11
    ids = tuple(cards)
    fr = _Frame(ids)
    masks, occ, _ = _prefix_state(fr, prefix)
    bound = _make_bound(ids, fr, Bounder(scenario_id, tuple(pile), rules, objective, data))
    return bound(masks, occ, len(prefix))


# ---------------------------------------------------------------- breadth-first enumerator

def enumerate_best(cards: Sequence[int], scenario_id: str, pile=(), rules: Rules = Rules(),
                   objective: str = "score", data: WagonsData | None = None,
                   time_limit: float | None = None, prefix: Sequence[Placement] = ()) -> SearchResult:
    """The exact best objective over all legal placement sequences (starting with ``prefix``), no bound: breadth first, one
    set of canonical states per level (the last one too), every distinct final town scored. Card and
    pile ids are assumed checked (``optimize.check_cards`` / ``check_pile``)."""
    start = time.monotonic()
    data = (data or load_data()).for_rules(rules)  # rule:W11
    pile = tuple(pile)
    ids = tuple(cards)
    fr = _Frame(ids)
    evaluate = _fast_evaluator(scenario_id, pile, rules, objective, data)
    layer = [_prefix_state(fr, prefix)]
    expanded = 0
    for cid in ids[len(prefix):]:
        nxt, seen = [], set()
        for masks, occ, path in layer:
            expanded += 1
            for o, rot, nm, nocc in fr.kids(masks, occ, cid):
                key = _key(nm, nocc)
                if key in seen:
                    continue
                seen.add(key)
                nxt.append((nm, nocc, (path, (cid, o, rot))))
            if time_limit is not None and expanded % 256 == 0 and time.monotonic() - start > time_limit:
                return SearchResult(None, (), False, expanded, time.monotonic() - start)
        layer = nxt
    best, best_path = None, None
    for masks, occ, path in layer:
        v = evaluate(_feat(fr.w, masks, occ))
        if best is None or v > best:
            best, best_path = v, path
    return SearchResult(best, _placements(fr, best_path), True, expanded, time.monotonic() - start)


def _placements(fr: _Frame, path) -> tuple[Placement, ...]:
    out = []
    while path:
        path, (cid, o, rot) = path
        x, y = fr.xy(o)
        out.append(Placement(cid, x, y, rot))
    return tuple(reversed(out))


# ---------------------------------------------------------------- branch and bound

def search_best(cards: Sequence[int], scenario_id: str, pile=(), rules: Rules = Rules(),
                objective: str = "score", data: WagonsData | None = None, incumbent: int | None = None,
                deadline: float | None = None, progress: Callable[[int], None] | None = None,
                round1: tuple[int, int, bool] | None = None) -> SearchResult:
    """Depth-first branch and bound: the best town whose objective exceeds ``incumbent`` (None: any).

    Children are tried best bound first; a canonical state is expanded at most once per depth (a
    revisit cannot beat what the first visit proved: the incumbent only grows); a state whose
    bound (:class:`Bounder`, with :func:`_group_bound` for the groups) is <= the incumbent is pruned;
    final towns are scored exactly.
    ``round1 = (m, opponent_territories, behind)``: after the first ``m`` cards the territory count
    must be >= the opponent's (``behind``) or below it (rule:W5, Boomtown). ``progress(value)`` on
    every improvement. ``proven=True`` when the whole tree was searched before ``deadline``
    (``value is None`` then means no town beats ``incumbent``)."""
    start = time.monotonic()
    data = (data or load_data()).for_rules(rules)  # rule:W11
    pile = tuple(pile)
    ids = tuple(cards)
    n = len(ids)
    if n == 0:
        raise BadInput("cards: give at least one card id")
    fr = _Frame(ids)
    w = fr.w
    evaluate = _fast_evaluator(scenario_id, pile, rules, objective, data)
    seen: list[set] = [set() for _ in range(n + 1)]
    st = {"best": incumbent, "path": None, "found": False, "nodes": 0, "stop": False}

    bound = _make_bound(ids, fr, Bounder(scenario_id, pile, rules, objective, data))

    def dfs(masks, occ, depth, path):
        st["nodes"] += 1
        if deadline is not None and time.monotonic() > deadline:
            st["stop"] = True
        if st["stop"]:
            return
        cid = ids[depth]
        d1 = depth + 1
        last = d1 == n
        memo = seen[d1]
        kids = []
        for o, rot, nm, nocc in fr.kids(masks, occ, cid):
            key = _key(nm, nocc)
            if key in memo:
                continue
            memo.add(key)
            if round1 is not None and d1 == round1[0]:
                have = nocc.bit_count()
                if (have < round1[1]) if round1[2] else (have >= round1[1]):
                    continue
            best = st["best"]
            if last:  # a final town: its exact value costs about what its bound would
                v = evaluate(_feat(w, nm, nocc))
                if best is None or v > best:
                    st["best"], st["path"], st["found"] = v, (path, (cid, o, rot)), True
                    if progress is not None:
                        progress(v)
                continue
            b = bound(nm, nocc, d1)
            if best is not None and b <= best:
                continue
            kids.append((b, len(kids), nm, nocc, (cid, o, rot)))
        kids.sort(key=lambda k: (-k[0], k[1]))
        for b, _, nm, nocc, step in kids:
            best = st["best"]
            if best is not None and b <= best:
                break
            dfs(nm, nocc, d1, (path, step))
            if st["stop"]:
                return

    dfs((0,) * 12, 0, 0, None)
    proven = not st["stop"]
    found = st["found"]
    return SearchResult(st["best"] if found else None, _placements(fr, st["path"]) if found else (), proven,
                        st["nodes"], time.monotonic() - start)
