"""A straightforward dict-and-flood-fill scorer, independent of the bitboard scorer.

Used by the tests to cross-check ``solver.wagons.scoring`` and by ``bench/bench_wagons.py`` as
the baseline for the scoring-throughput ratio. Same rules, same parameters (rule:W-groups,
rule:W-goal-cool-water, rule:W-goal-badlands, rule:W-goal-happy-cows, rule:W-goal-bootleggers,
rule:W-goal-one-too-many, rule:W-goal-gold-country, rule:W-goal-prairie-life, rule:W-goal-the-herd,
rule:W-goal-wagon-train, rule:W-goal-boom-or-bust, rule:W-goal-claim-jumpers,
rule:W-goal-smalltown-charm).
"""

from __future__ import annotations

from solver.wagons.cards import load_cards
from solver.wagons.data import TERRAINS, WagonsData, load_data
from solver.wagons.rules import Rules
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


def reference_goal(name: str, grid: dict, pile: tuple[int, ...], extra_guns: int = 0,
                   data: WagonsData | None = None, rules: Rules = Rules()) -> int:
    """The player's points for one goal card (comparing cards against the pile); Boom or Bust
    per Mine or flat as ``rules.boom_or_bust`` says (rule:W11), Badlands and Happy Cows as
    ``rules.badlands_both_ways`` and ``rules.happy_cows_snow`` say (rule:W12, rule:W13)."""
    goal = (data or load_data()).goal(name)
    k = goal.kind
    icon = lambda i: {xy for xy, v in grid.items() if v.icon == i}
    ter = lambda t: {xy for xy, v in grid.items() if v.terrain == t}
    if k == "cool-water":
        comps = _groups(ter("Water"))
        best_size = max((len(c) for c in comps), default=0)
        best = max((sum(1 for w in icon("Wagon") if _adjacent_or_on(w, c)) for c in comps if len(c) == best_size),
                   default=0)
        return _param(goal, "per_wagon") * best
    if k == "badlands":  # rule:W12: a Gun boxed in both ways once, or once per way
        d = ter("Desert")
        ways = [((x - 1, y) in d and (x + 1, y) in d) + ((x, y - 1) in d and (x, y + 1) in d) for (x, y) in icon("Gun")]
        n = sum(ways) if rules.badlands_both_ways == "twice" else sum(1 for w in ways if w)
        return _param(goal, "per_gun") * n
    if k == "happy-cows":  # rule:W13: with "corner", a Snow touching at a corner is next to the Cow too
        snow, steps = ter("Snow"), STEPS + (CORNERS if rules.happy_cows_snow == "corner" else ())
        return _param(goal, "per_cow") * sum(1 for (x, y) in icon("Cow")
                                             if (x, y) not in snow and all((x + dx, y + dy) not in snow for dx, dy in steps))
    if k == "bootleggers":
        wagons = icon("Wagon")
        adj = sum(1 for (x, y) in icon("Beer") if any((x + dx, y + dy) in wagons for dx, dy in STEPS))
        return _param(goal, "per_beer_adjacent") * adj + _param(goal, "per_beer_alone") * (len(icon("Beer")) - adj)
    if k == "gold-country":
        return _param(goal, "per_mine") * sum(1 for m in icon("Mine") if _adjacent_or_on(m, ter("Mountains")))
    if k == "prairie-life":
        return (len(icon("Cow")) + len(ter("Plains"))) * _param(goal, "per_symbol") // _param(goal, "divisor")
    if k == "the-herd":
        return _param(goal, "per_cow") * max((len(c) for c in _groups(icon("Cow"))), default=0)
    if k == "wagon-train":
        table = _param(goal, "run_points")
        wagons, total = icon("Wagon"), 0
        for (x, y) in wagons:
            for dx, dy in ((1, 0), (0, 1)):
                if (x - dx, y - dy) in wagons:
                    continue
                n = 0
                while (x + n * dx, y + n * dy) in wagons:
                    n += 1
                total += table[min(n, len(table) - 1)]
        return total
    if k == "boom-or-bust":
        m = len(icon("Mine"))
        for lo, hi, pts in _param(goal, "bands"):
            if m >= lo and (hi < 0 or m <= hi):
                return pts * m if rules.boom_or_bust == "per-mine" else pts
        return 0
    cards = load_cards()
    pile_icons = [t.icon for c in pile for t in cards[c].territories]
    if k == "one-too-many":
        mine, theirs = len(icon("Beer")), pile_icons.count("Beer")
        return -_param(goal, "loss_per_other_beer") * theirs if mine > theirs else 0
    if k == "claim-jumpers":
        pm, om = len(icon("Mine")), pile_icons.count("Mine")
        pg, og = len(icon("Gun")), pile_icons.count("Gun") + extra_guns
        pts, taken = _param(goal, "points"), _param(goal, "taken_by_more_guns")
        if pm > om:
            return pts - taken if og > pg else pts
        if om > pm:
            return taken if pg > og else 0
        return 0
    if k == "smalltown-charm":
        diff = 4 * len(pile) - len(grid)
        return _param(goal, "per_territory") * diff if diff > 0 else 0
    raise ValueError(name)


def reference_score_player(town: Town, scenario_id: str, pile, data: WagonsData | None = None,
                           rules: Rules = Rules()) -> dict:
    """{'groups', 'goals', 'total'} computed the plain way (``data``: None = the shipped files)."""
    data = data or load_data()
    scenario = data.scenario(scenario_id)
    grid = visible_grid(town)
    groups = reference_groups(grid)
    goals = {}
    for name in scenario.goals:
        extra = scenario.reading(name).extra_guns
        goals[name] = reference_goal(name, grid, tuple(pile), extra, data, rules)
    return {"groups": groups, "goals": goals, "total": sum(groups.values()) + sum(goals.values())}
