"""A straightforward dict-and-flood-fill scorer, independent of the bitboard scorer.

Used by the tests to cross-check ``solver.wagons.scoring`` and by ``bench/wagons/bench_wagons.py`` as
the baseline for the scoring-throughput ratio. Same rules, same parameters (rule:W-groups,
rule:W-goal-cool-water, rule:W-goal-badlands, rule:W-goal-happy-cows, rule:W-goal-bootleggers,
rule:W-goal-one-too-many, rule:W-goal-gold-country, rule:W-goal-prairie-life, rule:W-goal-the-herd,
rule:W-goal-wagon-train, rule:W-goal-boom-or-bust, rule:W-goal-claim-jumpers,
rule:W-goal-smalltown-charm).
"""

from __future__ import annotations

from solver.wagons import goal_kinds
from solver.wagons.cards import load_cards
from solver.wagons.data import TERRAINS, WagonsData, load_data
from solver.wagons.readings import WagonsReadings
from solver.wagons.town import Town, visible_grid

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
CORNERS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _groups(cells: set) -> list[set]:
    seen, out = set(), []
    for start in cells:
        if start in seen:
            continue
        comp, stack = {start}, [start]
        seen.add(start)
        while stack:
            x, y = stack.pop()
            for dx, dy in STEPS:
                n = (x + dx, y + dy)
                if n in cells and n not in seen:
                    seen.add(n)
                    comp.add(n)
                    stack.append(n)
        out.append(comp)
    return out


def _adjacent_or_on(xy, cells) -> bool:
    x, y = xy
    return xy in cells or any((x + dx, y + dy) in cells for dx, dy in STEPS)


def reference_groups(grid: dict) -> dict[str, int]:
    out = {}
    for t in TERRAINS:
        comps = _groups({xy for xy, v in grid.items() if v.terrain == t})
        out[t] = max((len(c) for c in comps), default=0)
    return out


def _param(goal, key):
    return dict(goal.params)[key]


def _icons(grid: dict, name: str) -> set:
    return {xy for xy, v in grid.items() if v.icon == name}


def _terrains(grid: dict, name: str) -> set:
    return {xy for xy, v in grid.items() if v.terrain == name}


def _cool_water(goal, grid: dict, readings: WagonsReadings) -> int:
    comps = _groups(_terrains(grid, "Water"))
    best_size = max((len(c) for c in comps), default=0)
    best = max((sum(1 for w in _icons(grid, "Wagon") if _adjacent_or_on(w, c)) for c in comps if len(c) == best_size),
               default=0)
    return _param(goal, "per_wagon") * best


def _badlands(goal, grid: dict, readings: WagonsReadings) -> int:
    """rule:W12: a Gun boxed in both ways once, or once per way."""
    d = _terrains(grid, "Desert")
    ways = [((x - 1, y) in d and (x + 1, y) in d) + ((x, y - 1) in d and (x, y + 1) in d)
            for (x, y) in _icons(grid, "Gun")]
    n = sum(ways) if readings.badlands_both_ways == "twice" else sum(1 for w in ways if w)
    return _param(goal, "per_gun") * n


def _happy_cows(goal, grid: dict, readings: WagonsReadings) -> int:
    """rule:W13: with "corner", a Snow touching at a corner is next to the Cow too."""
    snow, steps = _terrains(grid, "Snow"), STEPS + (CORNERS if readings.happy_cows_snow == "corner" else ())
    return _param(goal, "per_cow") * sum(1 for (x, y) in _icons(grid, "Cow")
                                         if (x, y) not in snow and all((x + dx, y + dy) not in snow for dx, dy in steps))


def _bootleggers(goal, grid: dict, readings: WagonsReadings) -> int:
    wagons, beers = _icons(grid, "Wagon"), _icons(grid, "Beer")
    adj = sum(1 for (x, y) in beers if any((x + dx, y + dy) in wagons for dx, dy in STEPS))
    return _param(goal, "per_beer_adjacent") * adj + _param(goal, "per_beer_alone") * (len(beers) - adj)


def _gold_country(goal, grid: dict, readings: WagonsReadings) -> int:
    return _param(goal, "per_mine") * sum(1 for m in _icons(grid, "Mine") if _adjacent_or_on(m, _terrains(grid, "Mountains")))


def _the_herd(goal, grid: dict, readings: WagonsReadings) -> int:
    return _param(goal, "per_cow") * max((len(c) for c in _groups(_icons(grid, "Cow"))), default=0)


def _wagon_train(goal, grid: dict, readings: WagonsReadings) -> int:
    table = _param(goal, "run_points")
    wagons, total = _icons(grid, "Wagon"), 0
    for (x, y) in wagons:
        for dx, dy in ((1, 0), (0, 1)):
            if (x - dx, y - dy) in wagons:
                continue
            n = 0
            while (x + n * dx, y + n * dy) in wagons:
                n += 1
            total += table[min(n, len(table) - 1)]
    return total


POSITION = {"cool-water": _cool_water, "badlands": _badlands, "happy-cows": _happy_cows, "bootleggers": _bootleggers,
            "gold-country": _gold_country, "the-herd": _the_herd, "wagon-train": _wagon_train}
"""Position kind -> ``points(goal, grid, readings)``."""


def _pile_icons(pile: tuple[int, ...]) -> list[str]:
    cards = load_cards()
    return [t.icon for c in pile for t in cards[c].territories]


def _one_too_many(goal, grid: dict, pile: tuple[int, ...], extra_guns: int) -> int:
    pile_icons = _pile_icons(pile)
    mine, theirs = len(_icons(grid, "Beer")), pile_icons.count("Beer")
    return -_param(goal, "loss_per_other_beer") * theirs if mine > theirs else 0


def _claim_jumpers(goal, grid: dict, pile: tuple[int, ...], extra_guns: int) -> int:
    pile_icons = _pile_icons(pile)
    pm, om = len(_icons(grid, "Mine")), pile_icons.count("Mine")
    pg, og = len(_icons(grid, "Gun")), pile_icons.count("Gun") + extra_guns
    pts, taken = _param(goal, "points"), _param(goal, "taken_by_more_guns")
    if pm > om:
        return pts - taken if og > pg else pts
    if om > pm:
        return taken if pg > og else 0
    return 0


def _smalltown_charm(goal, grid: dict, pile: tuple[int, ...], extra_guns: int) -> int:
    diff = 4 * len(pile) - len(grid)
    return _param(goal, "per_territory") * diff if diff > 0 else 0


COMPARING = {"one-too-many": _one_too_many, "claim-jumpers": _claim_jumpers, "smalltown-charm": _smalltown_charm}
"""Comparing kind -> ``points(goal, grid, the opponent's pile, the reading's extra Guns)`` (the player's points)."""

goal_kinds.check_backend("reference", POSITION.keys() | COMPARING.keys(), ("position", "comparing"))


def reference_goal(name: str, grid: dict, pile: tuple[int, ...], extra_guns: int = 0,
                   data: WagonsData | None = None, readings: WagonsReadings = WagonsReadings()) -> int:
    """The player's points for one goal card (comparing cards against the pile); Boom or Bust
    per Mine or flat as ``readings.boom_or_bust`` says (rule:W11), Badlands and Happy Cows as
    ``readings.badlands_both_ways`` and ``readings.happy_cows_snow`` say (rule:W12, rule:W13)."""
    goal = (data or load_data()).for_readings(readings).goal(name)
    entry = goal_kinds.kind(goal.kind)
    if entry is None:
        raise ValueError(name)
    if entry.family == "counting":  # a territory counts once for its terrain and once for its icon
        return entry.points(goal, sum(1 for v in grid.values() for s in entry.counts if s in (v.terrain, v.icon)))
    if entry.family == "position":
        return POSITION[goal.kind](goal, grid, readings)
    return COMPARING[goal.kind](goal, grid, pile, extra_guns)


def reference_score_player(town: Town, scenario_id: str, pile, data: WagonsData | None = None,
                           readings: WagonsReadings = WagonsReadings()) -> dict:
    """{'groups', 'goals', 'total'} computed the plain way (``data``: None = the shipped files)."""
    data = data or load_data()
    scenario = data.scenario(scenario_id)
    grid = visible_grid(town)
    groups = reference_groups(grid)
    goals = {}
    for name in scenario.goals:
        extra = scenario.reading(name).extra_guns
        goals[name] = reference_goal(name, grid, tuple(pile), extra, data, readings)
    return {"groups": groups, "goals": goals, "total": sum(groups.values()) + sum(goals.values())}
