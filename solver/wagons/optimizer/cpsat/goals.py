"""CP-SAT terms of a town's score (rule:W7, rule:W-opt-layout): the six largest groups and the scenario's two
goal cards, read from the same parameters as the ordinary scorer.

- **Goal cards**: the tables of counts -> points come from the ordinary scorer's own functions
  (:func:`solver.wagons.scoring.comparing_goal`, a counting kind's points in :mod:`solver.wagons.goal_kinds`) or
  the card's parameters; position goals are reified exactly (so a negative parameter cannot be under-counted).
- **Redundant bounds** (``speedups``, default on): the largest groups together are at most the visible
  territories, and with Smalltown Charm, groups and Charm together at most their best sum over the visible
  count (:func:`_groups_with_territory_cards`); Wagon Train's row runs and its column runs each score at most
  :func:`run_partition_best` of the visible Wagons. All of them hold for every legal town, so no optimum is
  lost; they only let propagation refute more.
"""

from __future__ import annotations

import itertools
from typing import Any

from solver.errors import BadInput
from solver.wagons import goal_kinds
from solver.wagons.codes import BEER, GUN, MINE
from solver.wagons.data import GoalSpec, ScenarioSpec, WagonsData
from solver.wagons.optimizer.cpsat.town import ZERO, CpTown, table_expr
from solver.wagons.optimizer.quads import Slot
from solver.wagons.scoring import COMPARING, PileCounts, Side, comparing_goal, run_partition_best

__all__ = ["player_score", "goal_terms", "comparing", "counting", "PLAYER_GOALS"]

def _slots_with(town: CpTown, what: str, name: str) -> list[Slot]:
    get = town.terrain_of if what == "terrain" else town.icon_of
    return [s for s in town.slots if get(s) == name]


def _count(town: CpTown, slots: list[Slot]):
    return town.count([town.vis[s] for s in slots])


def _near_terrain(town: CpTown, s: Slot, terrain: str):
    """``s`` (visible) shows ``terrain`` itself or has a visible edge-neighbour showing it."""
    if town.terrain_of(s) == terrain:
        return True
    return town.or_([town.linked(s, t) for t in _slots_with(town, "terrain", terrain)])


def cool_water(town: CpTown, goal: GoalSpec, water=None):
    """rule:W-goal-cool-water: per Wagon on or next to the largest Water group (best of tied ones)."""
    cands = _slots_with(town, "terrain", "Water")
    if not cands:
        return 0
    _, z = water if water is not None else town.largest_group(cands, sizes_at_least=True)
    hits = []
    for w in _slots_with(town, "icon", "Wagon"):
        near = [z[w]] if w in z else []
        near += [town.and_([town.adjacent(w, t), z[t]]) for t in cands if t != w]
        hits.append(town.and_([town.vis[w], town.or_(near)]))
    return goal.param("per_wagon") * town.count(hits)


def badlands(town: CpTown, goal: GoalSpec):
    """rule:W-goal-badlands: per Gun with Desert left and right, or above and below; a Gun boxed in both ways
    once, or once per way with ``twice_when_boxed`` (rule:W12)."""
    deserts = _slots_with(town, "terrain", "Desert")
    hits = []
    for g in _slots_with(town, "icon", "Gun"):
        side = lambda ex, ey, g=g: town.or_([town.and_([town.cell_is(g, t, ex, ey), town.vis[t]]) for t in deserts if t != g])
        across = town.and_([side(-1, 0), side(1, 0)])
        down = town.and_([side(0, -1), side(0, 1)])
        if dict(goal.params).get("twice_when_boxed"):
            hits += [town.and_([town.vis[g], across]), town.and_([town.vis[g], down])]
        else:
            hits.append(town.and_([town.vis[g], town.or_([across, down])]))
    return goal.param("per_gun") * town.count(hits)


_CORNERS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _snow_near(town: CpTown, c: Slot, corners: bool):
    """Cow slot ``c`` (visible) is on Snow or has a visible Snow next to it; with ``corners`` (rule:W13) also one
    touching its cell at a corner."""
    near = _near_terrain(town, c, "Snow")
    if not corners:
        return near
    at_corner = [town.and_([town.or_([town.cell_is(c, t, ex, ey) for ex, ey in _CORNERS]), town.vis[t]])
                 for t in _slots_with(town, "terrain", "Snow") if t != c]
    return town.or_([near] + at_corner)


def happy_cows(town: CpTown, goal: GoalSpec):
    """rule:W-goal-happy-cows: per Cow neither on nor next to Snow (a Snow at a corner counting as next to it
    with ``snow_corners``, rule:W13)."""
    corners = bool(dict(goal.params).get("snow_corners"))
    hits = [town.and_([town.vis[c], town.not_(_snow_near(town, c, corners))]) for c in _slots_with(town, "icon", "Cow")]
    return goal.param("per_cow") * town.count(hits)


def bootleggers(town: CpTown, goal: GoalSpec):
    """rule:W-goal-bootleggers: per Beer next to a Wagon, and per Beer not next to one."""
    wagons = _slots_with(town, "icon", "Wagon")
    beers = _slots_with(town, "icon", "Beer")
    near = [town.and_([town.vis[b], town.or_([town.linked(b, w) for w in wagons])]) for b in beers]
    n_near, n_all = town.count(near), _count(town, beers)
    return goal.param("per_beer_adjacent") * n_near + goal.param("per_beer_alone") * (n_all - n_near)


def gold_country(town: CpTown, goal: GoalSpec):
    """rule:W-goal-gold-country: per Mine on or next to Mountains."""
    hits = [town.and_([town.vis[s], _near_terrain(town, s, "Mountains")]) for s in _slots_with(town, "icon", "Mine")]
    return goal.param("per_mine") * town.count(hits)


def the_herd(town: CpTown, goal: GoalSpec):
    """rule:W-goal-the-herd: per Cow in the largest edge-connected group of Cow icons (a card that
    subtracts, per_cow < 0, needs the exact largest group: maximising would pick a smaller one)."""
    size, _ = town.largest_group(_slots_with(town, "icon", "Cow"), sizes_at_least=goal.param("per_cow") < 0)
    return goal.param("per_cow") * size


def wagon_train(town: CpTown, goal: GoalSpec):
    """rule:W-goal-wagon-train: each maximal row run and column run of Wagons scores by the table.

    ``ge[s, k]``: visible Wagon ``s`` has at least ``k - 1`` Wagons straight before it (left, or
    above), so exactly ``ge[s, k] - ge[s, k + 1]`` says it is the ``k``-th of its run. A run of length
    L has exactly one k-th Wagon for each k <= L, so with ``inc(k) = table[k] - table[k - 1]`` it
    scores ``table[0] + sum(inc(k), k <= min(L, K))`` = ``table[min(L, K)]`` (K = the table's last
    index: longer runs score its last entry), and ``table[0]`` once per run start (``k = 1``).
    """
    table = tuple(goal.param("run_points"))
    K = len(table) - 1
    slots = _slots_with(town, "icon", "Wagon")
    terms = []
    for ex, ey in ((1, 0), (0, 1)):
        ge = {(s, 1): town.vis[s] for s in slots}
        for k in range(2, K + 2):
            for s in slots:
                ge[(s, k)] = town.or_([town.and_([town.cell_is(t, s, ex, ey), town.vis[s], ge[(t, k - 1)]])
                                       for t in slots if t != s])
        exactly = lambda k, ge=ge: town.count([town.and_([ge[(s, k)], town.not_(ge[(s, k + 1)])]) for s in slots])
        line = []
        if table[0]:
            line.append(table[0] * exactly(1))
        for k in range(1, K + 1):
            if table[k] - table[k - 1]:
                line.append((table[k] - table[k - 1]) * exactly(k))
        terms.append(sum(line, ZERO))
    if town.speedups and slots:
        # redundant (admissible): the row runs partition the visible Wagons, and so do the column runs
        best = run_partition_best(table, len(slots))
        cap = table_expr(town, _count(town, slots), 0, len(slots), lambda w: best[w])
        for line_total in terms:
            town.m.add(line_total <= cap)
    return sum(terms, ZERO)


def counting(town: CpTown, goal: GoalSpec):
    """A counting kind (:mod:`solver.wagons.goal_kinds`: Prairie Life, Boom or Bust, ...): the catalogue's points
    of the total of the visible symbols it counts, as a table over that total."""
    entry = goal_kinds.kind(goal.kind)
    groups = [_slots_with(town, "terrain" if lane == 0 else "icon", name)
              for (lane, _code), name in zip(goal_kinds.symbol_lanes(entry.counts), entry.counts)]
    total = _count(town, groups[0])
    for slots in groups[1:]:
        total = total + _count(town, slots)
    return table_expr(town, total, 0, sum(len(slots) for slots in groups), lambda v: entry.points(goal, v))


PLAYER_GOALS = {"cool-water": cool_water, "badlands": badlands, "happy-cows": happy_cows,
                "bootleggers": bootleggers, "gold-country": gold_country, "the-herd": the_herd,
                "wagon-train": wagon_train}
"""Position kind -> ``encode(town, goal)``; the counting kinds are :func:`counting`, the comparing ones
:func:`comparing` (a table of the scorer's own comparing card over the counts the catalogue says it reads)."""
goal_kinds.check_backend("cpsat", PLAYER_GOALS, ("position",))
_ICON_COUNTED = {"beers": "Beer", "mines": "Mine", "guns": "Gun"}


def _counted_slots(town: CpTown, name: str) -> list[Slot]:
    """The slots a :class:`Side` count reads: every slot (territories) or those of one icon."""
    return town.slots if name == "territories" else _slots_with(town, "icon", _ICON_COUNTED[name])


def comparing(town: CpTown, goal: GoalSpec, scenario: ScenarioSpec, pc: PileCounts):
    """(player points, opponent points) of a card comparing both towns (rule:W6, rule:W7): a table of
    the ordinary scorer's :func:`comparing_goal` over the counts the card reads."""
    entry = goal_kinds.kind(goal.kind)
    if entry is None or entry.family != "comparing":
        raise BadInput(f"goal card '{goal.name}' is not a comparing card")
    reads = entry.reads
    reading = scenario.reading(goal.name)
    opp = Side(pc.territories, pc.icon[BEER], pc.icon[MINE], pc.icon[GUN] + reading.extra_guns)
    m = town.m
    ks, most = [], []
    for name in reads:
        slots = _counted_slots(town, name)
        k = m.new_int_var(0, len(slots), "")
        m.add(k == _count(town, slots))
        ks.append(k)
        most.append(len(slots))
    rows = []
    for combo in itertools.product(*[range(top + 1) for top in most]):
        side = {"territories": 0, "beers": 0, "mines": 0, "guns": 0}
        side.update(zip(reads, combo))
        mine, theirs = comparing_goal(goal, Side(**side), opp, reading.can_lose)
        rows.append((*combo, mine, theirs))
    lo = min(min(r[-2], r[-1]) for r in rows)
    hi = max(max(r[-2], r[-1]) for r in rows)
    mine_v, theirs_v = m.new_int_var(lo, hi, ""), m.new_int_var(lo, hi, "")
    m.add_allowed_assignments(ks + [mine_v, theirs_v], rows)
    return mine_v, theirs_v


def goal_terms(town: CpTown, scenario: ScenarioSpec, data: WagonsData, pc: PileCounts,
               water=None) -> tuple[dict[str, Any], dict[str, Any]]:
    """({goal card: player points}, {comparing card: opponent points}) for the scenario's two cards."""
    mine, theirs = {}, {}
    for name in scenario.goals:
        goal = data.scorable_goal(name, "optimise")
        if goal.kind in COMPARING:
            mine[name], theirs[name] = comparing(town, goal, scenario, pc)
        elif goal.kind == "cool-water":
            mine[name] = cool_water(town, goal, water)
        elif goal.kind in goal_kinds.COUNTING:
            mine[name] = counting(town, goal)
        else:
            mine[name] = PLAYER_GOALS[goal.kind](town, goal)
    return mine, theirs


def player_score(town: CpTown, scenario: ScenarioSpec, data: WagonsData, pc: PileCounts):
    """(player total, {part: expression}, {comparing card: opponent points}): the six largest groups
    (rule:W7) plus the two goal cards."""
    parts: dict[str, Any] = {}
    water = None
    uses_cool_water = any(data.goal(g).kind == "cool-water" for g in scenario.goals)
    for terrain in ("Desert", "Forest", "Mountains", "Plains", "Snow", "Water"):
        cands = _slots_with(town, "terrain", terrain)
        if terrain == "Water" and uses_cool_water and cands:
            water = town.largest_group(cands, sizes_at_least=True)
            parts[terrain] = water[0]
        else:
            parts[terrain] = town.largest_group(cands)[0]
    if town.speedups:
        # redundant (admissible): the largest groups are disjoint sets of visible territories
        town.m.add(sum(parts.values(), ZERO) <= _count(town, town.slots))
    mine, theirs = goal_terms(town, scenario, data, pc, water)
    if town.speedups and town.tightened:
        _groups_with_territory_cards(town, scenario, data, pc, parts, mine)
    parts.update(mine)
    return sum(parts.values(), ZERO), parts, theirs


def _groups_with_territory_cards(town: CpTown, scenario: ScenarioSpec, data: WagonsData, pc: PileCounts,
                                 groups: dict, mine: dict) -> None:
    """Redundant (admissible): the largest groups and the comparing cards that read only the visible
    territories ``V`` (Smalltown Charm, rule:W-goal-smalltown-charm) together score at most
    ``max over V of (V + those cards' player points at V)``.

    Why it holds for every legal town: the groups are disjoint sets of visible territories, so at most
    ``V`` (rule:W-groups), and such a card's points are a function of ``V`` alone (the opponent's count
    is the pile's, fixed), so the sum is at most ``V + points(V)`` for the town's own ``V``. The model
    knows both facts apart (``groups <= V``; the card's table over ``V``), but propagation without LP
    does not add them up: with the cap, Boomtown's proofs (fewer territories score the difference, so
    covering trades groups for Charm) fall from 6-30 s or more to under a second on most greedy towns
    (``bench/wagons/bench_wagons_proofs.py``, docs/history/wagons-optimizer-2026.md)."""
    names = [g for g in scenario.goals if data.goal(g).kind in goal_kinds.COMPARING
             and goal_kinds.kind(data.goal(g).kind).reads == ("territories",)]
    if not names:
        return
    n = town.n
    best = None
    for v in range(4 if n else 0, 4 * n + 1):
        total = v
        for name in names:
            goal, reading = data.goal(name), scenario.reading(name)
            opp = Side(pc.territories, pc.icon[BEER], pc.icon[MINE], pc.icon[GUN] + reading.extra_guns)
            total += comparing_goal(goal, Side(v, 0, 0, 0), opp, reading.can_lose)[0]
        best = total if best is None else max(best, total)
    town.m.add(sum(groups.values(), ZERO) + sum((mine[g] for g in names), ZERO) <= best)
