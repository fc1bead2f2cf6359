"""Exact search over canonical visible grids (solver/wagons/optimize_search.py, rule:W-opt-layout).

The breadth-first enumerator and the branch-and-bound prover are checked against the independent
oracle ``optimize_exhaustive.exhaustive_best`` (built on the engine's own legal_placements and
scorer) on 1-4 card instances; the prover's bound is checked admissible on random states against
the exact best completion; ``best_layout(method="search")`` against the Z3 method.
The 5-card oracle comparison stays out of the default suite: both the old oracle (~495 s) and the
new enumerator (> 280 s, measured) are too slow for it.
"""

import random

import pytest

from solver.errors import BadInput
from solver.wagons.data import SCENARIO_IDS
from solver.wagons.optimize import best_layout
from solver.wagons.optimize_exhaustive import exhaustive_best
from solver.wagons.optimize_search import enumerate_best, search_best, state_bound
from solver.wagons.scoring import final_scores, score_player, town_features
from solver.wagons.town import Placement, Town, legal_placements, load_town, town_to_json


def _instance(seed: int, n: int, max_pile: int = 6):
    rng = random.Random(seed)
    deck = rng.sample(range(18), 18)
    return deck[:n], deck[n:n + rng.randint(0, max_pile)], SCENARIO_IDS[seed % 6]


def _legal_and_scored(cards, scenario, pile, placements, value, objective):
    town = load_town(town_to_json(Town(placements)))  # replayed through the engine: legal, in order
    assert town.card_ids == tuple(cards)
    if objective == "score":
        assert score_player(town, scenario, pile).total == value
    else:
        assert final_scores(town, pile, scenario).margin == value


@pytest.mark.parametrize("seed", range(18))
@pytest.mark.parametrize("objective", ["score", "margin"])
def test_small_instances_match_the_oracle(seed, objective):
    n = 1 + seed % 3
    cards, pile, scenario = _instance(seed, n)
    oracle = exhaustive_best(cards, scenario, pile, objective=objective).value
    e = enumerate_best(cards, scenario, pile, objective=objective)
    s = search_best(cards, scenario, pile, objective=objective)
    assert e.proven and s.proven
    assert e.value == s.value == oracle, (cards, scenario, pile)
    _legal_and_scored(cards, scenario, pile, e.placements, e.value, objective)
    _legal_and_scored(cards, scenario, pile, s.placements, s.value, objective)


@pytest.mark.parametrize("seed", [0, 3])
def test_four_cards_match_the_oracle(seed):
    cards, pile, scenario = _instance(seed, 4)
    oracle = exhaustive_best(cards, scenario, pile).value
    e = enumerate_best(cards, scenario, pile)
    s = search_best(cards, scenario, pile)
    assert e.value == s.value == oracle
    _legal_and_scored(cards, scenario, pile, s.placements, s.value, "score")


@pytest.mark.parametrize("seed", range(40, 70))
def test_bound_is_admissible_on_random_states(seed):
    """The bound of a random partial town is never below the exact best completion."""
    rng = random.Random(seed)
    n = 3 + seed % 2
    cards, pile, scenario = _instance(seed, n)
    objective = "margin" if seed % 3 == 0 else "score"
    for _ in range(3):
        m = rng.randint(1 if n == 3 else 2, n - 1)
        town = Town()
        for cid in cards[:m]:
            town = Town(town.placements + (rng.choice(legal_placements(town, cid)),))
        exact = enumerate_best(cards, scenario, pile, objective=objective, prefix=town.placements).value
        assert state_bound(cards, town.placements, scenario, pile, objective=objective) >= exact
    # with every card placed the bound is exact for the groups: never below the true score
    full = Town(town.placements + (legal_placements(town, cards[-1])[0],)) if m == n - 1 else None
    if full is not None:
        assert state_bound(cards, full.placements, scenario, pile) >= score_player(full, scenario, pile).total


def test_incumbent_above_optimum_finds_nothing_and_proves_it():
    cards, pile, scenario = _instance(5, 3)
    best = search_best(cards, scenario, pile).value
    r = search_best(cards, scenario, pile, incumbent=best)
    assert r.value is None and r.proven and r.placements == ()
    r = search_best(cards, scenario, pile, incumbent=best - 1)
    assert r.value == best


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("objective", ["score", "margin"])
def test_best_layout_search_agrees_with_z3(seed, objective):
    cards, pile, scenario = _instance(60 + seed, 3)
    seen = []
    a = best_layout(cards, scenario, pile, objective=objective, method="incremental")
    b = best_layout(cards, scenario, pile, objective=objective, method="search",
                    progress=lambda *x: seen.append(x))
    assert a.proven_optimal and b.proven_optimal and a.value == b.value and b.method == "search"
    assert b.bound == b.value and seen[-1][0] == b.value and seen[-1][1] == b.value
    _legal_and_scored(cards, scenario, pile, b.placements, b.value, objective)
    assert score_player(Town(b.placements), scenario, pile).total == b.score


def test_best_layout_search_floor_and_round1():
    cards, pile, scenario = _instance(2, 3)
    best = best_layout(cards, scenario, pile, method="search")
    above = best_layout(cards, scenario, pile, floor=best.value, seed_greedy=False, method="search")
    assert above.placements == () and above.proven_optimal
    below = best_layout(cards, scenario, pile, floor=best.value - 1, seed_greedy=False, method="search")
    assert below.value == best.value
    r = best_layout(cards, scenario, pile, round1=(2, 8, True), method="search")
    assert town_features(Town(r.placements[:2])).territories >= 8
    r = best_layout(cards, scenario, pile, round1=(2, 8, False), method="search")
    assert town_features(Town(r.placements[:2])).territories < 8
    r = best_layout(cards, scenario, pile, round1=(2, 9, True), method="search")
    assert r.placements == () and r.proven_optimal


def test_best_layout_search_time_limit():
    cards = [0, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14]
    res = best_layout(cards, "water-the-herd", (), time_limit=0.5, method="search")
    assert not res.proven_optimal and res.bound is None
    town = load_town(town_to_json(Town(res.placements)))
    assert town.card_ids == tuple(cards)
    assert score_player(town, "water-the-herd", ()).total == res.score


def test_bad_prefix():
    with pytest.raises(BadInput):  # the search's first card sits at (0, 0)
        state_bound([3, 7], [Placement(3, 5, 5, 0)], "gold-rush")
    with pytest.raises(BadInput):  # not touching the town
        state_bound([3, 7], [Placement(3, 0, 0, 0), Placement(7, 9, 0, 0)], "gold-rush")


@pytest.mark.parametrize("method", ["search", "cpsat-core"])
def test_cli_best_layout_other_methods(capsys, method):
    """``--method search`` and ``--method cpsat-core`` (core-based proof) run, say so, and prove the oracle's optimum."""
    import json

    from solver import cli
    rc = cli.main(["wagons", "best-layout", "--cards", "3,7,11", "--scenario", "gold-rush", "--method", method,
                   "--json", "--quiet"])
    out, _ = capsys.readouterr()
    doc = json.loads(out)
    assert rc == 0 and doc["method"] == method and doc["proven_optimal"] is True
    assert doc["score"] == exhaustive_best([3, 7, 11], "gold-rush").value
    rc = cli.main(["wagons", "best-layout", "--cards", "3", "--scenario", "gold-rush", "--method", "magic", "--json"])
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""


def test_wagon_train_bound_covers_every_small_shape():
    """_wagon_bound(u) >= the Wagon Train points of every set of <= u Wagons on a 4x4 board."""
    from solver.wagons.optimize_search import _wagon_bound
    table = (0, 0, 1, 2, 4, 7, 10)

    def points(cells):
        total = 0
        for line in [[(x, y) for x in range(4)] for y in range(4)] + [[(x, y) for y in range(4)] for x in range(4)]:
            n = 0
            for xy in line + [None]:
                if xy in cells:
                    n += 1
                else:
                    total += table[min(n, 6)]
                    n = 0
        return total
    best: dict[int, int] = {}
    for m in range(1 << 16):
        cells = {(i % 4, i // 4) for i in range(16) if m >> i & 1}
        best[len(cells)] = max(best.get(len(cells), 0), points(cells))
    for u in range(17):
        assert _wagon_bound(table, u) >= max(v for c, v in best.items() if c <= u)
    assert _wagon_bound(table, 5) == 7 and _wagon_bound(table, 8) < 20  # tighter than rows + columns apart
