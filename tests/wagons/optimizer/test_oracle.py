"""The fast exhaustive oracle (``exhaustive_best(fast=True)``, a compiled walk with its own scorer)
against the original one (``fast=False``: the engine's legal_placements + score_player), its scorer
against ``score_player`` / ``final_scores`` on thousands of random towns, its move generator against
``legal_placements`` (rule:W-place), and the half-turn symmetry it relies on (every goal card, both
scores and the legality of a town are unchanged when the whole town is turned 180 degrees)."""

import dataclasses
import random

import pytest

from solver.errors import BadInput
from solver.wagons.data import SCENARIO_IDS, load_data
from solver.wagons.optimizer.oracle import exhaustive_best
from solver.wagons.optimizer.walk.scorer import goal_tables
from solver.wagons.scoring import final_scores, score_player
from solver.wagons.town import Placement, Town, legal_placements, load_town, town_to_json
from tests.support.builders.walk import compiled_score
from tests.support.depth import deep_after


def _instance(seed: int, n: int, max_pile: int = 6):
    rng = random.Random(seed)
    deck = rng.sample(range(18), 18)
    return deck[:n], deck[n:n + rng.randint(0, max_pile)], SCENARIO_IDS[seed % 6]


def _random_town(rng: random.Random, n: int, x0: int = 0, y0: int = 0) -> Town:
    """A random legal town of ``n`` cards (every legal placement equally likely at each step), the
    first card at (x0, y0) in a random rotation."""
    cards = rng.sample(range(18), n)
    town = Town((Placement(cards[0], x0, y0, rng.choice((0, 180))),))
    for cid in cards[1:]:
        town = Town(town.placements + (rng.choice(legal_placements(town, cid)),))
    return town


def _half_turn(town: Town) -> Town:
    """The whole town turned 180 degrees about the origin: cell (x, y) -> (-x, -y)."""
    return Town(tuple(Placement(p.card, -p.x - 1, -p.y - 1, 180 - p.rot) for p in town.placements))


# ---------------------------------------------------------------- old == new

@pytest.mark.parametrize("seed", range(24))
def test_fast_equals_slow_three_cards(seed):
    cards, pile, scenario = _instance(seed, 3)
    if seed % 4 == 1:
        pile = []
    objective = "margin" if seed % 3 == 2 else "score"
    fast = exhaustive_best(cards, scenario, pile, objective=objective)
    slow = exhaustive_best(cards, scenario, pile, objective=objective, fast=False)
    assert fast.value == slow.value, (cards, scenario, pile, objective)
    assert Town(fast.placements).card_ids == tuple(cards)
    town = load_town(town_to_json(Town(fast.placements)))  # legal, replayed through the engine
    if objective == "score":
        assert score_player(town, scenario, pile).total == fast.value
    else:
        assert final_scores(town, pile, scenario).margin == fast.value


@pytest.mark.parametrize("seed,objective", deep_after([(0, "score"), (5, "margin"), (3, "score"), (8, "margin")]))
# (both objectives on three cards above in every run; the 4-card slow walk scores ~340,000 towns in Python)
def test_fast_equals_slow_four_cards(seed, objective):
    cards, pile, scenario = _instance(seed, 4)
    fast = exhaustive_best(cards, scenario, pile, objective=objective)
    slow = exhaustive_best(cards, scenario, pile, objective=objective, fast=False)
    assert fast.value == slow.value, (cards, scenario, pile, objective)


def test_single_card_every_scenario_both_objectives():
    for scenario in SCENARIO_IDS:
        for card in range(0, 18, 5):
            pile = [c for c in range(18) if c != card][:card % 4]
            for objective in ("score", "margin"):
                assert exhaustive_best([card], scenario, pile, objective=objective).value == \
                    exhaustive_best([card], scenario, pile, objective=objective, fast=False).value


def test_moves_are_exactly_legal_placements():
    """The compiled walk scores exactly the sequences legal_placements gives (first card unturned)."""
    for seed in range(6):
        cards, pile, scenario = _instance(40 + seed, 3)
        layer = [Town((Placement(cards[0], 0, 0, 0),))]
        for cid in cards[1:]:
            layer = [Town(t.placements + (p,)) for t in layer for p in legal_placements(t, cid)]
        assert exhaustive_best(cards, scenario, pile).towns == len(layer)
        best = max(score_player(t, scenario, pile).total for t in layer)
        assert exhaustive_best(cards, scenario, pile).value == best


# ---------------------------------------------------------------- the compiled scorer

@pytest.mark.parametrize("scenario", SCENARIO_IDS)
def test_compiled_scorer_matches_score_player(scenario):
    """500 random towns of 1-9 cards per scenario, with and without an opponent pile, both objectives."""
    rng = random.Random(f"oracle-scorer-{scenario}")
    for k in range(500):
        town = _random_town(rng, rng.randint(1, 9), rng.randint(-5, 5), rng.randint(-5, 5))
        rest = [c for c in range(18) if c not in town.card_ids]
        pile = rng.sample(rest, rng.randint(0, len(rest))) if k % 2 else []
        assert compiled_score(town, scenario, pile) == score_player(town, scenario, pile).total, (town, pile)
        assert compiled_score(town, scenario, pile, objective="margin") == \
            final_scores(town, pile, scenario).margin, (town, pile)


def test_compiled_scorer_reads_goal_parameters():
    """Changed numbers in the goals file reach the compiled scorer (nothing is hard-coded)."""
    data = load_data()
    changed = {"Wagon Train": {"run_points": (0, 1, 3, 5)}, "Boom or Bust": {"bands": ((1, 3, 2), (4, -1, 6))},
               "Cool Water": {"per_wagon": 5}, "Bootleggers": {"per_beer_alone": -3},
               "One Too Many": {"loss_per_other_beer": 2}, "Claim Jumpers": {"points": 11, "taken_by_more_guns": 3},
               "Prairie Life": {"per_symbol": 3, "divisor": 4}, "The Herd": {"per_cow": 3},
               "Smalltown Charm": {"per_territory": 2}, "Badlands": {"per_gun": 7},
               "Happy Cows": {"per_cow": 5}, "Gold Country": {"per_mine": 4}}
    goals = tuple(dataclasses.replace(g, params=tuple((k, changed.get(g.name, {}).get(k, v)) for k, v in g.params))
                  for g in data.goals)
    data2 = dataclasses.replace(data, goals=goals)
    rng = random.Random("oracle-params")
    for scenario in SCENARIO_IDS:
        for _ in range(60):
            town = _random_town(rng, rng.randint(2, 8))
            rest = [c for c in range(18) if c not in town.card_ids]
            pile = rng.sample(rest, rng.randint(0, 8))
            assert compiled_score(town, scenario, pile, data=data2) == \
                score_player(town, scenario, pile, data=data2).total
            assert compiled_score(town, scenario, pile, objective="margin", data=data2) == \
                final_scores(town, pile, scenario, data=data2).margin
    cards, pile, _ = _instance(2, 3)
    assert exhaustive_best(cards, "through-the-desert", pile, data=data2).value == \
        exhaustive_best(cards, "through-the-desert", pile, data=data2, fast=False).value


def test_unhandled_goal_parameters_fall_back_to_the_slow_path():
    data = load_data()
    goals = tuple(dataclasses.replace(g, params=(("per_cow", 1.5),)) if g.name == "Happy Cows" else g
                  for g in data.goals)
    data2 = dataclasses.replace(data, goals=goals)
    assert goal_tables("cattle-drive", (), data2) is None
    fast = exhaustive_best([1, 2], "cattle-drive", (), data=data2)
    assert fast.value == exhaustive_best([1, 2], "cattle-drive", (), data=data2, fast=False).value


# ---------------------------------------------------------------- the half-turn symmetry

@pytest.mark.parametrize("scenario", SCENARIO_IDS)
def test_half_turn_keeps_legality_and_every_score(scenario):
    rng = random.Random(f"half-turn-{scenario}")
    for k in range(150):
        town = _random_town(rng, rng.randint(1, 9), rng.randint(-3, 3), rng.randint(-3, 3))
        turned = load_town(town_to_json(_half_turn(town)))  # still legal, card by card (rule:W-place)
        rest = [c for c in range(18) if c not in town.card_ids]
        pile = rng.sample(rest, rng.randint(0, 8)) if k % 3 else []
        a, b = final_scores(town, pile, scenario), final_scores(turned, pile, scenario)
        assert a.to_dict() == b.to_dict(), (town, pile)  # every group, goal card and the winner
        assert compiled_score(town, scenario, pile) == compiled_score(turned, scenario, pile)


def test_half_turn_of_visible_grid():
    """The turned town shows each territory at the mirrored cell (so the check above is not vacuous)."""
    from solver.wagons.town import visible_grid
    rng = random.Random(7)
    town = _random_town(rng, 6)
    grid, turned = visible_grid(town), visible_grid(_half_turn(town))
    assert turned == {(-x, -y): t for (x, y), t in grid.items()}


# ---------------------------------------------------------------- limits and bad input

def test_time_limit_and_bad_input():
    cards, pile, scenario = _instance(0, 5)
    res = exhaustive_best(cards, scenario, pile, time_limit=0.0)
    assert res.timed_out and res.value is None
    with pytest.raises(BadInput, match="objective"):
        exhaustive_best([1, 2], "boomtown", (), objective="points")
    with pytest.raises(BadInput, match="scenario"):
        exhaustive_best([1, 2], "no-such-scenario", ())
    with pytest.raises(BadInput):
        exhaustive_best([1, 1], "boomtown", ())
