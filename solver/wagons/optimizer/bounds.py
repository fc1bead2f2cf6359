"""An admissible upper bound on the final margin a set of cards can reach (rule:W-opt-bestplay).

Used by best play and ``can-win`` to discard draft lines without a layout solve: if even this bound
does not beat the best margin so far (or 0, for a win), no town of these cards does. It reads the
cards held, never their positions, so it is the same for every order the cards arrive in (a cache
by card set) and costs microseconds.

Why it is admissible (never below the best margin of any legal town of ``cards``):

- a town shows ``V`` territories, 4 <= V <= 4n (the last card is never covered, rule:W-cover); the
  largest groups of the six terrains are disjoint sets of visible territories, so together at
  most ``V`` (rule:W-groups);
- a visible symbol is a symbol of one of the cards, so a town shows at most as many Cows, Beers,
  Mines, Guns, Wagons, Plains, ... as the cards hold; every goal card is bounded by its best value
  over *any* count from 0 to what the cards hold (covering can hide symbols), with the adjacency it
  asks for assumed met: Cool Water every Wagon next to the largest Water group (0 with no Water),
  Badlands every Gun between two Deserts, but no more Guns than the cards' layouts let score at once
  (:func:`flankable_guns`: a scoring Gun's partner on its own card must show a Desert, its outer
  neighbour is another card's) and no more than the cells the Deserts can flank
  (:func:`between_cells_of`: two Deserts side by side on one card cost their row or column a flanked
  cell; where a Gun boxed in both ways counts twice, rule:W12, twice those Guns, but no more (Gun, way) pairs
  than :func:`between_cells_of` allows, which counts such pairs), Gold Country every Mine next to Mountains (0
  with no Mountains), Bootleggers every Beer at its better value (next to a Wagon only when there
  are Wagons), The Herd and Happy Cows every Cow, Wagon Train the best row runs and column runs the
  Wagons can form (:func:`best_runs`);
- a comparing card (rule:W6, rule:W7) is bounded by the best (player points - opponent points) over
  every player side within those ranges, the opponent's side being the pile's fixed counts;
  Smalltown Charm reads ``V`` and is maximised jointly with the groups;
- the opponent's other points do not depend on the town (:func:`~solver.wagons.scoring.opponent_fixed`).

Every part is a maximum over a superset of the towns the rules allow, so the sum bounds the margin
(``tests/wagons/optimizer/test_canwin.py`` checks it against the exhaustive oracle with hypothesis).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from solver.errors import BadInput
from solver.wagons import goal_kinds
from solver.wagons.cards import load_cards
from solver.wagons.codes import BEER, COW, DESERT, GUN, ICON_CODE, MINE, MOUNTAINS, TERRAIN_CODE, WAGON, WATER
from solver.wagons.data import GoalSpec, WagonsData, load_data
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import Side, opponent_fixed, pile_counts, run_points
from solver.wagons.scoring.goals import comparing_goal_scorer

__all__ = ["Counts", "card_counts", "margin_bound", "score_bound", "goal_bound", "best_runs", "between_cells",
           "flankable_guns", "between_cells_of"]


class Counts(tuple):
    """(terrain counts, icon counts, cards, flankable Guns, cells between Deserts) of a set of cards: every
    symbol they hold, how many of their Guns can be between two Deserts at once (:func:`flankable_guns`)
    and how many cells their Deserts can flank (:func:`between_cells_of`)."""

    @property
    def terrain(self) -> tuple[int, ...]:
        return self[0]

    @property
    def icon(self) -> tuple[int, ...]:
        return self[1]

    @property
    def n(self) -> int:
        return self[2]

    @property
    def flankable(self) -> int:
        return self[3] if len(self) > 3 else self.icon[GUN]

    @property
    def between(self) -> int:
        return self[4] if len(self) > 4 else between_cells(self.terrain[DESERT])


def card_counts(cards: Sequence[int], layouts: bool = True) -> Counts:
    """Every terrain and icon the cards hold (positions ignored) and, with ``layouts``, what their cards'
    layouts allow Badlands (:func:`flankable_guns`, :func:`between_cells_of`; without, the Badlands part
    reads the counts alone, as before the bound work: the bench's comparison)."""
    every = load_cards()
    terrain, icon = [0] * 6, [0] * 6
    for cid in cards:
        for t in every[cid].territories:
            terrain[TERRAIN_CODE[t.terrain]] += 1
            icon[ICON_CODE[t.icon]] += 1
    if not layouts:
        return Counts((tuple(terrain), tuple(icon), len(cards)))
    return Counts((tuple(terrain), tuple(icon), len(cards), flankable_guns(cards), between_cells_of(cards)))


_ROW_PARTNER = (1, 0, 3, 2)
"""The slot beside each slot on its own card (tl-tr, bl-br); a half turn (rule:W-rotation) swaps tl with br
and tr with bl, so the pairs, and those of :data:`_COLUMN_PARTNER` (tl-bl, tr-br), are the same either way."""
_COLUMN_PARTNER = (2, 3, 0, 1)


def flankable_guns(cards: Sequence[int]) -> int:
    """Most Guns of ``cards`` that can sit between two Deserts in one town (rule:W-goal-badlands): the sum
    over the cards of :func:`_card_flankable`, given how many *other* cards hold a Desert.

    Why: a Gun that scores shows on its own card A, at a cell of A's 2x2 footprint; of the two cells
    beside it in the scoring direction (left and right, or above and below) one lies in A's footprint
    (its *partner*: the slot beside it on A, :data:`_ROW_PARTNER`, :data:`_COLUMN_PARTNER`) and one
    outside (the *outer* cell). Both show a Desert. The outer cell shows a card other than A. The partner
    shows A's own territory there (then it is a Desert), or a later card B that covers it but not the Gun;
    B's footprint then misses the outer cell too (a 2x2 block holding the partner and the outer cell would
    hold the Gun's cell between them), so the outer Desert is on a third card C != A, B. So a Gun needs a
    Desert on another card, and a covered partner needs Deserts on two other cards."""
    every = load_cards()
    marks = {cid: tuple((t.terrain == "Desert", t.icon == "Gun") for t in every[cid].territories) for cid in cards}
    with_desert = [cid for cid, m in marks.items() if any(d for d, _ in m)]
    return sum(_card_flankable(m, min(2, sum(1 for d in with_desert if d != cid))) for cid, m in marks.items())


@cache
def _card_flankable(slots: tuple, other_desert_cards: int) -> int:
    """Most Guns of one card (``slots``: (Desert?, Gun?) per slot) scoring at once (:func:`flankable_guns`):
    over every set of its slots covered by later cards (a covered slot shows a Desert of another card when
    two other cards hold one, else nothing that helps), the visible Guns whose row or column partner shows a
    Desert. None without a Desert on another card (the outer cell)."""
    if other_desert_cards == 0:
        return 0
    best = 0
    for cover in (range(16) if other_desert_cards >= 2 else (0,)):
        def desert(q: int, cover=cover) -> bool:
            return bool(cover >> q & 1) or slots[q][0]

        best = max(best, sum(1 for g in range(4) if slots[g][1] and not cover >> g & 1
                             and (desert(_ROW_PARTNER[g]) or desert(_COLUMN_PARTNER[g]))))
    return best


def _linear(per, count: int) -> int:
    """Best of ``per * k`` for k = 0..count (covering can hide any number of symbols)."""
    return max(0, per * count)


def _partitions(n: int, most: int | None = None):
    """Every partition of ``n`` into parts of at most ``most``, largest part first."""
    most = n if most is None else most
    if n == 0:
        yield ()
        return
    for first in range(min(n, most), 0, -1):
        for rest in _partitions(n - first, first):
            yield (first,) + rest


@lru_cache(maxsize=256)
def best_runs(table: tuple, wagons: int) -> int:
    """Most the run table pays for at most ``wagons`` visible Wagons (rule:W-goal-wagon-train).

    The Wagons split into row runs (a partition of them) and into column runs (another). A row run of
    ``r`` Wagons lies in ``r`` different columns, each holding at least one column run, so there are at
    least as many column runs as the longest row run, and the other way round; the best pair of
    partitions with that property bounds the card (a row of six crossed by a column of four is one)."""
    best = 0
    for k in range(1, wagons + 1):
        parts = [(p, sum(run_points(table, x) for x in p)) for p in _partitions(k)]
        for rows, pay_rows in parts:
            for cols, pay_cols in parts:
                if len(cols) >= rows[0] and len(rows) >= cols[0] and pay_rows + pay_cols > best:
                    best = pay_rows + pay_cols
    return best


def between_cells(deserts: int) -> int:
    """Most cells with a Desert on both sides (left and right, or above and below) ``deserts`` Deserts
    make (rule:W-goal-badlands). Such a cell is the middle of two Deserts two apart in a row or a
    column; a row holding ``k`` Deserts has at most ``k - 1`` such pairs (each pair's left Desert, never
    the last one), so ``r`` rows and ``c`` columns give at most ``(D - r) + (D - c)``, and ``D`` Deserts
    need ``r * c >= D``. The sum counts a cell with Deserts on both sides in both ways twice, so it also
    bounds the (cell, way) pairs a Gun boxed in both ways scores under rule:W12's "twice"."""
    if deserts < 2:
        return 0
    return max(2 * deserts - r - c for r in range(1, deserts + 1) for c in range(1, deserts + 1) if r * c >= deserts)


def between_cells_of(cards: Sequence[int]) -> int:
    """Most cells with a Desert on both sides that the Deserts of ``cards`` make in one town
    (rule:W-goal-badlands): :func:`between_cells` sharpened by the Deserts that share a card.

    Why: in one row, the cells with a Desert left and right are the ``x`` with ``x - 1`` and ``x + 1``
    Deserts; ``x - 1`` is then never the rightmost Desert of its parity in that row, so a row with ``k``
    Deserts of ``p`` parities (1 or 2) has at most ``k - p`` such cells, and likewise a column. Summed
    over the ``r`` rows and ``c`` columns holding the ``D`` visible Deserts (``r * c >= D``): at most
    ``2D - r - c - e``, where ``e`` counts the rows and columns holding two Deserts side by side. Two
    Deserts on one card side by side in a row (tl-tr, bl-br in either turn, rule:W-rotation) give their
    row both parities, a pair in a column their column: if some card shows a row pair ``e >= 1``, if
    some card shows a column pair too, ``e >= 2`` (a row and a column). Each case is maximised with
    every card showing as many of its Deserts as that case allows (covering hides any of them)."""
    every = load_cards()
    deserts = [frozenset(k for k, t in enumerate(every[cid].territories) if t.terrain == "Desert") for cid in cards]
    best = 0
    for row_pair in (False, True):
        for column_pair in (False, True):
            shown = sum(_most_shown(d, row_pair, column_pair) for d in deserts)
            best = max(best, between_cells(shown) - row_pair - column_pair)
    return best


@cache
def _most_shown(deserts: frozenset, row_pair: bool, column_pair: bool) -> int:
    """Most of one card's Desert slots that can show without a pair side by side in a row (unless
    ``row_pair``) or in a column (unless ``column_pair``)."""
    best = 0
    for mask in range(16):
        shown = {k for k in range(4) if mask >> k & 1}
        if not shown <= deserts:
            continue
        if not row_pair and any(_ROW_PARTNER[k] in shown for k in shown):
            continue
        if not column_pair and any(_COLUMN_PARTNER[k] in shown for k in shown):
            continue
        best = max(best, len(shown))
    return best


def _cool_water(goal: GoalSpec, c: Counts) -> int:
    return _linear(goal.param("per_wagon"), c.icon[WAGON]) if c.terrain[WATER] else 0


def _badlands(goal: GoalSpec, c: Counts) -> int:
    """rule:W12: boxed both ways counting twice, at most twice the Guns, pairs <= between."""
    ways = 2 if dict(goal.params).get("twice_when_boxed") else 1
    return _linear(goal.param("per_gun"), min(ways * c.icon[GUN], ways * c.flankable, c.between))


def _bootleggers(goal: GoalSpec, c: Counts) -> int:
    per = max(goal.param("per_beer_alone"), goal.param("per_beer_adjacent") if c.icon[WAGON] else 0)
    return _linear(per, c.icon[BEER])


def _gold_country(goal: GoalSpec, c: Counts) -> int:
    return _linear(goal.param("per_mine"), c.icon[MINE]) if c.terrain[MOUNTAINS] else 0


POSITION = {"cool-water": _cool_water, "badlands": _badlands,
            "happy-cows": lambda goal, c: _linear(goal.param("per_cow"), c.icon[COW]),
            "bootleggers": _bootleggers, "gold-country": _gold_country,
            "the-herd": lambda goal, c: _linear(goal.param("per_cow"), c.icon[COW]),
            "wagon-train": lambda goal, c: best_runs(tuple(goal.param("run_points")), c.icon[WAGON])}
"""Position kind -> ``bound(goal, counts)`` (module docstring); the counting kinds are bounded from the catalogue
alone, the comparing ones by :func:`_comparing_bound`."""
goal_kinds.check_backend("bounds", POSITION, ("position",))


def goal_bound(goal: GoalSpec, c: Counts) -> int:
    """The most a player goal card can score for cards holding the symbols ``c`` (module docstring): a
    counting kind its best points over every total up to what the cards hold."""
    entry = goal_kinds.kind(goal.kind)
    if entry is not None and entry.family == "counting":
        held = sum((c.terrain if lane == 0 else c.icon)[code] for lane, code in goal_kinds.symbol_lanes(entry.counts))
        return max(entry.points(goal, k) for k in range(held + 1))
    if goal.kind in POSITION:
        return POSITION[goal.kind](goal, c)
    raise BadInput(f"goal card '{goal.name}' ({goal.kind}): no bound for this kind of card; cannot prove a line lost")


def _comparing_bound(goal: GoalSpec, reading, c: Counts, theirs: Side, territories: int) -> int:
    """Best (player points - opponent points) of a comparing card over every player side the cards
    allow, with ``territories`` visible (rule:W7, rule:W6)."""
    cmp = comparing_goal_scorer(goal)
    i = c.icon

    def near(limit: int, other: int) -> set[int]:  # the values where a comparison can change
        return {v for v in (0, other - 1, other, other + 1, limit) if 0 <= v <= limit}

    best = None
    for beers in near(i[BEER], theirs.beers):
        for mines in near(i[MINE], theirs.mines):
            for guns in near(i[GUN], theirs.guns):
                a, b = cmp(Side(territories, beers, mines, guns), theirs, reading.can_lose)
                best = a - b if best is None or a - b > best else best
    return best


def score_bound(cards: Sequence[int], scenario_id: str, pile=(), readings: WagonsReadings = WagonsReadings(),
                data: WagonsData | None = None, layouts: bool = True) -> int:
    """An admissible bound on (player total - the opponent's comparing-card points) (module docstring)."""
    data = (data or load_data()).for_readings(readings)  # rule:W11
    return _bound(tuple(sorted(cards)), scenario_id, tuple(sorted(pile)), data, layouts)


def margin_bound(cards: Sequence[int], scenario_id: str, pile=(), readings: WagonsReadings = WagonsReadings(),
                 data: WagonsData | None = None, layouts: bool = True) -> int:
    """An admissible upper bound on the final margin of any town of ``cards`` against ``pile``
    (``layouts``: see :func:`card_counts`)."""
    data = (data or load_data()).for_readings(readings)  # rule:W11
    return score_bound(cards, scenario_id, pile, readings, data, layouts) - opponent_fixed(tuple(pile), scenario_id, readings, data)


_BOUNDS: dict[tuple, tuple[WagonsData, int]] = {}


def _bound(cards: tuple[int, ...], scenario_id: str, pile: tuple[int, ...], data: WagonsData,
           layouts: bool = True) -> int:
    key = (id(data), scenario_id, cards, pile, layouts)
    hit = _BOUNDS.get(key)
    if hit is not None and hit[0] is data:
        return hit[1]
    if not cards:
        raise BadInput("cards: give at least one card id")
    c = card_counts(cards, layouts)
    scenario = data.scenario(scenario_id)
    pc = pile_counts(pile)
    fixed, by_territories = 0, []
    for name in scenario.goals:
        goal = data.goal(name)
        if goal.kind in goal_kinds.COMPARING:
            reading = scenario.reading(name)
            theirs = Side(pc.territories, pc.icon[BEER], pc.icon[MINE], pc.icon[GUN] + reading.extra_guns)
            by_territories.append((goal, reading, theirs))
        else:
            fixed += goal_bound(goal, c)
    # the groups (at most V) and the comparing cards, jointly over the visible territories V: each card
    # is piecewise linear in V with its breaks next to the opponent's count, so those V and the ends do
    vs = {4, 4 * c.n} | {v for _, _, theirs in by_territories for v in range(theirs.territories - 1, theirs.territories + 2)
                          if 4 <= v <= 4 * c.n}
    best = max(v + sum(_comparing_bound(g, r, c, theirs, v) for g, r, theirs in by_territories) for v in vs)
    if len(_BOUNDS) > 200_000:
        _BOUNDS.clear()
    _BOUNDS[key] = (data, fixed + best)
    return fixed + best
