"""Z3 terms for the goal cards (rule:W7, rule:W-opt-layout), read from the same parameters as the ordinary scorer.

Each encoder returns the player's points as a Z3 integer over a :class:`.z3_model.Town`; the
comparing cards (One Too Many, Claim Jumpers, Smalltown Charm) also return the points they give
the opponent, which the best-play search needs for the final margin. The numbers are the
``params`` of ``scenarios/wagons/goals.toml`` and the scenario's opponent readings of
``scenarios.toml`` (rule:W6): nothing here is a literal the data does not give.
"""

from __future__ import annotations

from typing import Any

import z3

from solver.errors import BadInput
from solver.wagons import goal_kinds
from solver.wagons.codes import BEER, GUN, MINE
from solver.wagons.data import GoalSpec, ScenarioSpec, WagonsData
from solver.wagons.optimizer.z3solver.model import Town
from solver.wagons.scoring import COMPARING, PileCounts

_ICON = 1
_TERRAIN = 0


def _icon_slots(town: Town, name: str):
    return town.slots_showing(_ICON, name)


def _terrain_slots(town: Town, name: str):
    return town.slots_showing(_TERRAIN, name)


def _icon_count(town: Town, name: str):
    return town.count([town.icon(s, name) for s in _icon_slots(town, name)])


def _near_terrain(town: Town, s, terrain: str):
    """Slot ``s``'s cell shows ``terrain`` or an edge-neighbour does."""
    cands = _terrain_slots(town, terrain)
    return town.near(s, lambda t: town.terrain(t, terrain), cands)


def _table(town: Town, k, table: tuple[int, ...]):
    """``table[min(k, len-1)]`` for a Z3 integer ``k >= 0``."""
    out = town.val(table[-1])
    for n in range(len(table) - 2, -1, -1):
        out = z3.If(k == n, town.val(table[n]), out)
    return out


def cool_water(town: Town, goal: GoalSpec):
    """rule:W-goal-cool-water: per Wagon on or next to the largest Water group (best of tied ones)."""
    ctx, cs = town.ctx, town.constraints
    cands = _terrain_slots(town, "Water")
    if not cands:
        return town.val(0)
    member = lambda s: town.terrain(s, "Water")
    lab, is_root, size, idx = town.components("cw", cands, member)
    star = {r: z3.Bool(f"cwstar_{r[0]}_{r[1]}", ctx) for r in cands}
    big = z3.Int("cw_largest", ctx)
    pick = z3.Int("cw_pick", ctx)
    cs.append(z3.PbLe([(b, 1) for b in star.values()], 1))
    cs.append(z3.Or(*star.values()) == z3.Or(*[member(s) for s in cands]))
    for r in cands:
        cs.append(z3.Implies(star[r], z3.And(is_root[r], big == size[r], pick == idx[r])))
        cs.append(z3.Implies(is_root[r], size[r] <= big))
    in_group = {s: z3.And(member(s), lab[s] == pick) for s in cands}
    wagons = []
    for w in _icon_slots(town, "Wagon"):
        near = [in_group[w]] if w in in_group else []
        near += [z3.And(town.adjacent(w, t), in_group[t]) for t in cands if t != w]
        wagons.append(z3.And(town.icon(w, "Wagon"), z3.Or(*near)) if near else town.false())
    return goal.param("per_wagon") * town.count(wagons)


def badlands(town: Town, goal: GoalSpec):
    """rule:W-goal-badlands: per Gun with Desert left and right, or above and below; a Gun boxed in both ways
    once, or once per way with ``twice_when_boxed`` (rule:W12)."""
    deserts = _terrain_slots(town, "Desert")
    d = lambda t: town.terrain(t, "Desert")
    twice = bool(dict(goal.params).get("twice_when_boxed"))
    hits = []
    for g in _icon_slots(town, "Gun"):
        left = z3.Or(town.false(), *[z3.And(town.right_of(t, g), d(t)) for t in deserts if t != g])
        right = z3.Or(town.false(), *[z3.And(town.right_of(g, t), d(t)) for t in deserts if t != g])
        up = z3.Or(town.false(), *[z3.And(town.below(t, g), d(t)) for t in deserts if t != g])
        down = z3.Or(town.false(), *[z3.And(town.below(g, t), d(t)) for t in deserts if t != g])
        gun = town.icon(g, "Gun")
        if twice:
            hits += [z3.And(gun, left, right), z3.And(gun, up, down)]
        else:
            hits.append(z3.And(gun, z3.Or(z3.And(left, right), z3.And(up, down))))
    return goal.param("per_gun") * town.count(hits)


_CORNERS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def happy_cows(town: Town, goal: GoalSpec):
    """rule:W-goal-happy-cows: per Cow neither on nor next to Snow (a Snow at a corner counting as next to it
    with ``snow_corners``, rule:W13)."""
    corners = bool(dict(goal.params).get("snow_corners"))
    snow = _terrain_slots(town, "Snow")
    hits = []
    for c in _icon_slots(town, "Cow"):
        unhappy = [_near_terrain(town, c, "Snow")]
        if corners:
            unhappy += [z3.And(town.offset_is(c, t, ex, ey), town.terrain(t, "Snow"))
                        for t in snow if t != c for ex, ey in _CORNERS]
        hits.append(z3.And(town.icon(c, "Cow"), z3.Not(z3.Or(*unhappy))))
    return goal.param("per_cow") * town.count(hits)


def bootleggers(town: Town, goal: GoalSpec):
    """rule:W-goal-bootleggers: per Beer next to a Wagon, and per Beer not next to one."""
    wag = _icon_slots(town, "Wagon")
    beers = _icon_slots(town, "Beer")
    adj = [z3.And(town.icon(b, "Beer"),
                  z3.Or(town.false(), *[z3.And(town.adjacent(b, w), town.icon(w, "Wagon")) for w in wag if w != b]))
           for b in beers]
    n_adj = town.count(adj)
    n_all = town.count([town.icon(b, "Beer") for b in beers])
    return goal.param("per_beer_adjacent") * n_adj + goal.param("per_beer_alone") * (n_all - n_adj)


def gold_country(town: Town, goal: GoalSpec):
    """rule:W-goal-gold-country: per Mine on or next to Mountains."""
    hits = [z3.And(town.icon(m, "Mine"), _near_terrain(town, m, "Mountains")) for m in _icon_slots(town, "Mine")]
    return goal.param("per_mine") * town.count(hits)


def the_herd(town: Town, goal: GoalSpec):
    """rule:W-goal-the-herd: per Cow in the largest edge-connected group of Cow icons. Maximised, a
    connected selection is the largest group; a card that subtracts (per_cow < 0) takes the exact
    largest component instead (:meth:`components`, as Cool Water)."""
    per, cands, member = goal.param("per_cow"), _icon_slots(town, "Cow"), lambda s: town.icon(s, "Cow")
    if per >= 0 or not cands:
        return per * town.largest_group("herd", cands, member)
    _, is_root, size, _ = town.components("herd", cands, member)
    big = z3.Int("herd_largest", town.ctx)
    town.constraints.append(z3.If(z3.Or(*[member(s) for s in cands]),
                                  z3.Or(*[z3.And(is_root[r], size[r] == big) for r in cands]), big == 0))
    town.constraints.extend(z3.Implies(is_root[r], size[r] <= big) for r in cands)
    return per * big


def wagon_train(town: Town, goal: GoalSpec):
    """rule:W-goal-wagon-train: each maximal row run and column run of Wagons scores by the table.

    ``at[s, k]``: slot ``s`` is exactly the k-th Wagon of its run (k < K = len(table) - 1);
    ``far[s]``: it is the K-th or a later one (such a run scores the table's last entry). A run
    ending at ``s`` (no Wagon right after / below it) scores ``table[k]``. Runs are acyclic, so
    the recursive definition of ``far`` has exactly one solution per town.
    """
    ctx, cs = town.ctx, town.constraints
    table = tuple(goal.param("run_points"))
    K = len(table) - 1
    slots = _icon_slots(town, "Wagon")
    w = lambda s: town.icon(s, "Wagon")
    total = []
    for axis, rel in (("h", town.right_of), ("v", town.below)):
        others = {s: [t for t in slots if t != s] for s in slots}
        prev = {s: [(t, z3.And(rel(t, s), w(t))) for t in others[s]] for s in slots}
        at: dict = {}
        for k in range(1, K):
            for s in slots:
                if k == 1:
                    expr = z3.And(w(s), z3.Not(z3.Or(town.false(), *[p for _, p in prev[s]])))
                else:
                    expr = z3.And(w(s), z3.Or(town.false(), *[z3.And(p, at[(t, k - 1)]) for t, p in prev[s]]))
                at[(s, k)] = town.define(("wt", axis, s, k), f"wt{axis}{k}_{s[0]}_{s[1]}", expr)
        far = {s: z3.Bool(f"wtfar{axis}_{s[0]}_{s[1]}", ctx) for s in slots}
        for s in slots:
            last = [z3.And(p, z3.Or(at[(t, K - 1)], far[t]) if K > 1 else p) for t, p in prev[s]]
            cs.append(far[s] == z3.And(w(s), z3.Or(town.false(), *last)))
        for s in slots:
            after = z3.Or(town.false(), *[z3.And(rel(s, t), w(t)) for t in others[s]])
            end = town.define(("wtend", axis, s), f"wtend{axis}_{s[0]}_{s[1]}", z3.And(w(s), z3.Not(after)))
            for k in range(1, K):
                if table[k]:
                    total.append(z3.If(z3.And(end, at[(s, k)]), town.val(table[k]), town.val(0)))
            if table[K]:
                total.append(z3.If(z3.And(end, far[s]), town.val(table[K]), town.val(0)))
    return z3.Sum(total) if total else town.val(0)


def prairie_life(town: Town, goal: GoalSpec):
    """rule:W-goal-prairie-life: (Cows + Plains) x per_symbol, divided by divisor, rounded down."""
    plains = town.count([town.terrain(s, "Plains") for s in _terrain_slots(town, "Plains")])
    total = (_icon_count(town, "Cow") + plains) * goal.param("per_symbol")
    return total / goal.param("divisor")  # Z3 integer division: floor for a positive divisor


def boom_or_bust(town: Town, goal: GoalSpec):
    """rule:W-goal-boom-or-bust: points by the number of visible Mines, from the bands."""
    m = _icon_count(town, "Mine")
    out = town.val(0)
    for lo, hi, pts in reversed(goal.param("bands")):
        inside = z3.And(m >= lo, m <= hi) if hi >= 0 else m >= lo
        out = z3.If(inside, pts * m if goal.param("per_mine") else town.val(pts), out)
    return out


def counting(town: Town, goal: GoalSpec):
    """A counting kind (:mod:`solver.wagons.goal_kinds`) without an encoding of its own here: the catalogue's
    points of the total of the visible symbols it counts, as a table over that total."""
    entry = goal_kinds.kind(goal.kind)
    shown, most = [], 0
    for (lane, _code), name in zip(goal_kinds.symbol_lanes(entry.counts), entry.counts):
        slots = _terrain_slots(town, name) if lane == 0 else _icon_slots(town, name)
        shown += [town.terrain(s, name) if lane == 0 else town.icon(s, name) for s in slots]
        most += len(slots)
    return _table(town, town.count(shown), tuple(entry.points(goal, v) for v in range(most + 1)))


PLAYER_GOALS = {"cool-water": cool_water, "badlands": badlands, "happy-cows": happy_cows,
                "bootleggers": bootleggers, "gold-country": gold_country, "the-herd": the_herd,
                "wagon-train": wagon_train, "prairie-life": prairie_life, "boom-or-bust": boom_or_bust}
"""Kind -> ``encode(town, goal)``: every position kind, and the counting kinds the model encoded before the
catalogue (its proven best towns, among tied ones, depend on the encoding: tests/golden); any other counting
kind is :func:`counting`."""


def one_too_many(town: Town, goal: GoalSpec, reading, pc: PileCounts):
    """rule:W-goal-one-too-many"""
    loss = goal.param("loss_per_other_beer")
    pb, ob = _icon_count(town, "Beer"), pc.icon[BEER]
    mine = z3.If(pb > ob, town.val(-loss * ob), town.val(0))
    theirs = z3.If(pb < ob, -loss * pb, town.val(0)) if reading.can_lose else town.val(0)
    return mine, theirs


def claim_jumpers(town: Town, goal: GoalSpec, reading, pc: PileCounts):
    """rule:W-goal-claim-jumpers"""
    pts, taken = goal.param("points"), goal.param("taken_by_more_guns")
    pm, pg = _icon_count(town, "Mine"), _icon_count(town, "Gun")
    om, og = pc.icon[MINE], pc.icon[GUN] + reading.extra_guns
    v = town.val
    mine = z3.If(pm > om, z3.If(og > pg, v(pts - taken), v(pts)), z3.If(pm < om, z3.If(pg > og, v(taken), v(0)), v(0)))
    theirs = z3.If(om > pm, z3.If(pg > og, v(pts - taken), v(pts)), z3.If(om < pm, z3.If(og > pg, v(taken), v(0)), v(0)))
    return mine, theirs


def smalltown_charm(town: Town, goal: GoalSpec, reading, pc: PileCounts):
    """rule:W-goal-smalltown-charm"""
    per = goal.param("per_territory")
    diff = town.count([town.visible(s) for s in town.slots]) - pc.territories
    return z3.If(diff < 0, -per * diff, town.val(0)), z3.If(diff > 0, per * diff, town.val(0))


COMPARING_GOALS = {"one-too-many": one_too_many, "claim-jumpers": claim_jumpers, "smalltown-charm": smalltown_charm}
goal_kinds.check_backend("z3", PLAYER_GOALS.keys() | COMPARING_GOALS.keys(), ("position", "comparing"), ("counting",))


def comparing(town: Town, goal: GoalSpec, scenario: ScenarioSpec, pc: PileCounts):
    """(player points, opponent points) of a goal card comparing both towns (rule:W6, rule:W7)."""
    encoder = COMPARING_GOALS.get(goal.kind)
    if encoder is None:
        raise BadInput(f"goal card '{goal.name}' is not a comparing card")
    return encoder(town, goal, scenario.reading(goal.name), pc)


def goal_terms(scenario: ScenarioSpec, data: WagonsData, pc: PileCounts):
    """A ``goal_terms(town)`` callback for :func:`.z3_model.encode` plus the opponent's share.

    Returns ``(callback, opponent_terms)``; after ``encode`` ran, ``opponent_terms`` maps each
    comparing goal card to the opponent's points (Z3 Int) in that encoding.
    """
    opponent_terms: dict[str, Any] = {}

    def callback(town: Town) -> dict[str, Any]:
        out = {}
        for name in scenario.goals:
            goal = data.scorable_goal(name, "optimise")
            if goal.kind in COMPARING:
                out[name], opponent_terms[name] = comparing(town, goal, scenario, pc)
            else:
                out[name] = PLAYER_GOALS.get(goal.kind, counting)(town, goal)
        return out

    return callback, opponent_terms
