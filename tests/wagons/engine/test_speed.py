"""The fast paths of the wagons engine give the same answers as the plain ways: the bitwise flood
fill against a set flood fill, the packed visible grid against ``visible_grid``, ``features_plus``
against rebuilding, ``margin_scorer`` / ``margin_of`` against ``final_scores``, the compiled goal
cards against the reference scorer, ``legal_placements`` against ``placement_problem`` on every
position, and the greedy policy's choices against a brute force over ``final_scores``."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import BadInput
from solver.wagons.cards import load_cards
from solver.wagons.data import ICONS, SCENARIO_IDS, TERRAINS, GoalSpec
from solver.wagons.game import Draft, Place, apply, is_over, legal_actions, new_game
from solver.wagons.policies import GreedyPolicy
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import (
    features_of,
    features_plus,
    final_scores,
    frame_features,
    growth_frame,
    largest_group_size_uncached,
    margin_of,
    margin_scorer,
    pile_counts,
    placements_features,
    player_goal,
    score_player,
)
from solver.wagons.scoring.reference import reference_score_player
from solver.wagons.town import ROTATIONS, Placement, Town, legal_placements, placement_problem, visible_grid
from tests.support.builders.wagons import random_town


def plain_largest(cells: set) -> int:
    best, seen = 0, set()
    for start in cells:
        if start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            x, y = stack.pop()
            size += 1
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in cells and n not in seen:
                    seen.add(n)
                    stack.append(n)
        best = max(best, size)
    return best


@settings(max_examples=300, deadline=None)
@given(st.integers(3, 16), st.integers(1, 12), st.floats(0.05, 0.95), st.integers(0, 10**9))
def test_bitwise_flood_fill_matches_a_set_flood_fill(width, rows, density, seed):
    rng = random.Random(seed)
    # real cells in columns 1..width-2 and rows 1..rows: column 0, column width-1 and row 0 are guards
    cells = {(x, y) for y in range(1, rows + 1) for x in range(1, width - 1) if rng.random() < density}
    mask = sum(1 << (y * width + x) for x, y in cells)
    assert largest_group_size_uncached(mask, width) == plain_largest(cells)


def _cells(mask: int, width: int, minx: int, miny: int):
    """The board cells (x, y) of the set bits of a bitboard (guard column and row removed)."""
    while mask:
        y, x = divmod((mask & -mask).bit_length() - 1, width)
        mask &= mask - 1
        yield (x - 1 + minx, y - 1 + miny)


def decode(f, minx: int, miny: int) -> dict:
    out = {}
    for k, terrain in enumerate(TERRAINS):
        for xy in _cells(f.terrain[k], f.width, minx, miny):
            out[xy] = [terrain, None]
    for k, icon in enumerate(ICONS):
        for xy in _cells(f.icon[k], f.width, minx, miny):
            out[xy][1] = icon
    return {xy: tuple(v) for xy, v in out.items()}


@pytest.mark.parametrize("seed", range(40))
def test_packed_visible_grid_is_the_top_territory_of_every_cell(seed):
    rng = random.Random(seed)
    town, _ = random_town(rng, rng.randint(1, 16))
    grid = {xy: (t.terrain, t.icon) for xy, t in visible_grid(town).items()}
    tight = placements_features(town.placements)
    minx, miny = min(p.x for p in town.placements), min(p.y for p in town.placements)
    assert tight.width == max(p.x for p in town.placements) - minx + 4
    assert decode(tight, minx, miny) == grid
    assert tight.occupied.bit_count() == len(grid)
    frame = growth_frame(town)
    assert decode(frame_features(town, frame), frame[0], frame[1]) == grid


@pytest.mark.parametrize("seed", range(30))
def test_features_plus_and_margins_agree_with_final_scores(seed):
    rng = random.Random(100 + seed)
    town, pile = random_town(rng, rng.randint(0, 12))
    scenario = SCENARIO_IDS[seed % 6]
    readings = WagonsReadings(edition="later") if seed % 4 == 3 else WagonsReadings()
    free = [c for c in range(18) if c not in town.card_ids and c not in pile]
    if not free:  # every card is in the town or the pile: place the pile's first one
        free, pile = [pile[0]], pile[1:]
    frame = growth_frame(town)
    base = frame_features(town, frame)
    margin = margin_scorer(pile, scenario, readings)
    near = margin_scorer(pile, scenario, readings, near=base)  # reuses base's groups for unchanged masks
    elsewhere = margin_scorer(pile, scenario, readings, near=placements_features(town.placements))  # other width
    for p in legal_placements(town, free[0])[:24]:
        f = features_plus(base, frame, p)
        bigger = Town(town.placements + (p,))
        assert f == placements_features(bigger.placements, frame)
        expected = final_scores(bigger, pile, scenario, readings).margin
        assert margin(f) == near(f) == elsewhere(f) == margin_of(f, pile, scenario, readings) == expected


def test_scorer_matches_reference_on_many_towns():
    rng = random.Random(7)
    for i in range(240):
        town, pile = random_town(rng, rng.randint(0, 16))
        scenario = SCENARIO_IDS[i % 6]
        assert score_player(town, scenario, pile).to_dict() == reference_score_player(town, scenario, pile)


@pytest.mark.parametrize("seed", range(25))
def test_legal_placements_are_every_legal_position_row_by_row(seed):
    rng = random.Random(200 + seed)
    town, _ = random_town(rng, rng.randint(0, 14))
    cards = load_cards()
    for c in range(18):
        if c in town.card_ids:
            assert legal_placements(town, c) == ()
            continue
        if not town.placements:
            expected = [Placement(c, 0, 0, r) for r in ROTATIONS]
        else:
            xs = [p.x for p in town.placements]
            ys = [p.y for p in town.placements]
            expected = [Placement(c, x, y, r) for y in range(min(ys) - 3, max(ys) + 4)
                        for x in range(min(xs) - 3, max(xs) + 4) for r in ROTATIONS
                        if placement_problem(town, Placement(c, x, y, r)) is None]
        card = cards[c]
        if (card.tl, card.tr) == (card.br, card.bl):
            expected = [p for p in expected if p.rot == 0]
        assert list(legal_placements(town, c)) == expected


def brute_margin(town: Town, card: int, pile, scenario: str, readings: WagonsReadings):
    """(best final-scores margin, first placement reaching it) of ``card`` on ``town``."""
    best, best_p = None, None
    for p in legal_placements(town, card):
        v = final_scores(Town(town.placements + (p,)), pile, scenario, readings).margin
        if best is None or v > best:
            best, best_p = v, p
    return best, best_p


@pytest.mark.parametrize("scenario,seed", [("gold-rush", 3), ("water-the-herd", 4), ("boomtown", 5)])
def test_greedy_choices_are_the_best_final_scores_margin(scenario, seed):
    state = new_game(scenario, seed)
    policy, rng, checked = GreedyPolicy(), random.Random(0), 0
    while not is_over(state) and checked < 8:
        actions = legal_actions(state)
        if state.to_move == "opponent":
            state = apply(state, actions[0])
            continue
        choice = policy.choose(state, actions, rng)
        if isinstance(choice, Place):
            assert choice.placement == brute_margin(state.town, state.hand[0], state.pile, scenario, state.readings)[1]
        else:
            values = [brute_margin(state.town, state.circle[a.index], state.pile + state.circle[:a.index],
                                   scenario, state.readings)[0] for a in actions]
            assert choice == Draft(values.index(max(values)))
        checked += 1
        state = apply(state, choice)
    assert checked == 8


def test_pile_counts_with_repeats_and_bad_ids():
    cards = load_cards()
    pile = (0, 5) * 70
    pc = pile_counts(pile)
    assert pc.cards == 140
    assert pc.terrain == tuple(sum(t.terrain == name for c in pile for t in cards[c].territories) for name in TERRAINS)
    assert pc.icon == tuple(sum(t.icon == name for c in pile for t in cards[c].territories) for name in ICONS)
    for bad in (18, -1, True, "3", 2.0):
        with pytest.raises(BadInput, match="not a card id"):
            pile_counts.__wrapped__((1, bad))  # past the cache: (1, True) == (1, 1) as a cache key


def test_goal_card_missing_a_parameter_is_named_when_scored():
    f = features_of(Town((Placement(1, 0, 0), Placement(0, 2, 0))))  # 2 Mines
    spec = lambda kind, params: GoalSpec("Custom", kind, False, "", "low", "", params)
    with pytest.raises(BadInput, match="per_gun"):
        player_goal(spec("badlands", ()), f)
    with pytest.raises(BadInput, match="per_beer_alone"):
        player_goal(spec("bootleggers", (("per_beer_adjacent", 2),)), f)
    # Boom or Bust reads per_mine only when a band matches (as before)
    assert player_goal(spec("boom-or-bust", (("bands", ((5, 9, 1),)),)), f) == 0
    with pytest.raises(BadInput, match="per_mine"):
        player_goal(spec("boom-or-bust", (("bands", ((1, 2, 5),)),)), f)
    assert player_goal(spec("boom-or-bust", (("bands", ((1, 2, 5),)), ("per_mine", False))), f) == 5


def test_comparing_card_missing_a_parameter_is_named_when_scored():
    from solver.wagons.scoring import Side, comparing_goal
    spec = GoalSpec("Custom", "claim-jumpers", False, "", "low", "", (("points", 9),))
    with pytest.raises(BadInput, match="taken_by_more_guns"):
        comparing_goal(spec, Side(1, 0, 2, 0), Side(1, 0, 1, 0))
    with pytest.raises(BadInput, match="not a comparing card"):
        comparing_goal(GoalSpec("Custom", "badlands", True, "", "low", "", (("per_gun", 4),)),
                       Side(1, 0, 2, 0), Side(1, 0, 1, 0))
