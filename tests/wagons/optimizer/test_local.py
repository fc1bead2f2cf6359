"""The local search that gives the CP-SAT prover its first good town (solver/wagons/optimizer/walk/local.py).

- with every card but the first free, a window is the whole exhaustive walk: its value equals the
  engine-based oracle (3 cards, both objectives) and the compiled one (4 cards);
- a window keeps the other cards where they are, and drops a kept card whose turn finds it no longer
  touching the town (rule:W-place): every town it returns replays through the engine;
- ``improve`` never ends below its start, every value it claims is the engine's, and it is
  deterministic; it stops at a local optimum (no window improves its answer);
- a kick moves at most ``KICK_CARDS`` cards, never the first, and gives a legal town; the iterated
  search (``patience``) ends no lower than its descent, at a town no window of one or two cards
  improves, is deterministic under its seed, and reaches the exhaustive optimum of 4-card towns.
"""

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.wagons.data import SCENARIO_IDS, load_data
from solver.wagons.optimizer.oracle import exhaustive_best
from solver.wagons.optimizer.problem import card_quads, greedy_layout, normal_xyr, objective_value, town_of
from solver.wagons.optimizer.walk import local as optimize_local
from solver.wagons.optimizer.walk.local import KICK_CARDS, improve, windows
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import opponent_fixed
from tests.support.builders.wagons import random_town
from tests.support.builders.walk import window_best
from tests.support.depth import deep_after


def _engine(ids, xyr, scenario, pile, objective):
    return objective_value(town_of(ids, xyr), scenario, pile, WagonsReadings(), objective, load_data())


def _compiled_to_engine(v, scenario, pile, objective):
    return v - (opponent_fixed(pile, scenario) if objective == "margin" else 0)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("objective", ["score", "margin"])
def test_a_window_of_every_card_is_the_oracle(seed, objective):
    rng = random.Random(f"local-oracle-{seed}")
    n = 3 if seed < 4 else 4
    town, pile = random_town(rng, n)
    ids = list(town.card_ids)
    scenario = SCENARIO_IDS[seed % 6]
    got = window_best(ids, scenario, pile, normal_xyr(town, card_quads(ids)), range(1, n), objective, load_data())
    oracle = exhaustive_best(ids, scenario, pile, objective=objective, fast=n > 3)
    value = _compiled_to_engine(got[0], scenario, pile, objective)
    assert value == oracle.value
    assert _engine(ids, got[1], scenario, pile, objective) == value


@pytest.mark.parametrize("seed", range(12))
def test_windows_keep_the_other_cards_and_return_legal_towns(seed):
    rng = random.Random(f"local-window-{seed}")
    town, pile = random_town(rng, 6)
    ids = list(town.card_ids)
    scenario = SCENARIO_IDS[seed % 6]
    start = normal_xyr(town, card_quads(ids))
    free = sorted(rng.sample(range(1, 6), 1 + seed % 2))
    v, xyr = window_best(ids, scenario, pile, start, free, "score", load_data())
    assert v == _engine(ids, xyr, scenario, pile, "score")  # legal (the engine replays it) and scored alike
    assert v >= _engine(ids, start, scenario, pile, "score")  # the start town is one of the candidates
    for d in range(6):
        if d not in free:
            assert xyr[d] == start[d]


def test_a_kept_card_that_no_longer_touches_the_town_is_dropped():
    """Cards 0, 1, 2 in a row: card 2 touches card 1 only. Freeing card 1 can move it away, but never
    to a place that leaves card 2 touching nothing (checked on every town of the window)."""
    ids = [0, 1, 2]
    start = [(0, 0, 0), (2, 0, 0), (4, 0, 0)]
    for sc in SCENARIO_IDS:
        v, xyr = window_best(ids, sc, (), start, [1], "score", load_data())
        assert v == _engine(ids, xyr, sc, (), "score")
        x1, y1, _ = xyr[1]
        assert abs(x1 - 4) <= 2 and abs(y1) <= 2 and not (abs(x1 - 4) == 2 and abs(y1) == 2)


def test_the_windows_never_move_the_first_card():
    for n in range(1, 9):
        ws = windows(n)
        assert all(0 not in w for w in ws)
        assert len(set(ws)) == len(ws)
        assert {(d,) for d in range(1, n)} <= set(ws)


def _greedy_start(tag: str, seed: int, n: int, with_pile: bool = True):
    """(ids, pile, scenario, greedy value, greedy town as xyr) of a seeded n-card instance."""
    rng = random.Random(f"{tag}-{seed}")
    ids = rng.sample(range(18), n)
    pile = tuple(c for c in range(18) if c not in ids)[: seed % 5] if with_pile else ()
    scenario = SCENARIO_IDS[seed % 6]
    greedy, g = greedy_layout(ids, scenario, pile, data=load_data())
    return ids, pile, scenario, g, normal_xyr(greedy, card_quads(ids))


@pytest.mark.parametrize("seed", deep_after(range(6)))
def test_improve_climbs_from_the_greedy_town_to_a_local_optimum(seed):
    ids, pile, scenario, g, start = _greedy_start("local-improve", seed, 6)
    data = load_data()
    heard = []
    v, xyr = improve(ids, scenario, pile, start, "score", data, time.monotonic() + 120,
                     on_better=lambda value, town: heard.append(value))
    assert v >= g
    assert v == _engine(ids, xyr, scenario, pile, "score")
    assert heard == sorted(heard) and (not heard or heard[-1] == v)
    for free in windows(6):  # a local optimum: no window improves it
        assert window_best(ids, scenario, pile, xyr, free, "score", data)[0] == v
    again = improve(ids, scenario, pile, start, "score", data, time.monotonic() + 120)
    assert again == (v, xyr)  # deterministic


def test_improve_honours_its_deadline_with_the_start_town():
    ids = [3, 7, 11, 1, 16, 5, 9, 2]
    data = load_data()
    greedy, g = greedy_layout(ids, "boomtown", (), data=data)
    v, xyr = improve(ids, "boomtown", (), normal_xyr(greedy, card_quads(ids)), "score", data, time.monotonic() - 1)
    assert v == g and xyr == normal_xyr(greedy, card_quads(ids))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 8))
def test_a_kick_moves_a_few_cards_to_a_legal_town(seed, n):
    rng = random.Random(seed)
    town, pile = random_town(rng, n)
    ids = list(town.card_ids)
    scenario = SCENARIO_IDS[seed % 6]
    data = load_data()
    w = optimize_local._walker(ids, scenario, pile, "score", data)
    start = optimize_local._to_codes(normal_xyr(town, card_quads(ids)), w.B, w.O)
    kicked = optimize_local._kick(w, start, random.Random(seed))
    if kicked is None:  # every try left a kept card touching nothing: allowed, but rare
        return
    v, codes = kicked
    xyr = optimize_local._to_xyr(codes, w.B, w.O)
    moved = [d for d in range(n) if codes[d] != start[d]]
    assert 0 not in moved and len(moved) <= min(KICK_CARDS, n - 1)
    assert v == _engine(ids, xyr, scenario, pile, "score")  # the engine replays it: legal, same value


def _small_descent(ids, scenario, pile, start) -> int:
    """The value the windows of one and two cards alone (no kicks) reach from ``start``."""
    w = optimize_local._walker(ids, scenario, pile, "score", load_data())
    codes = optimize_local._to_codes(start, w.B, w.O)
    return optimize_local._descend(w, w.value_of(codes), codes, windows(len(ids), runs_of_three=False),
                                   time.monotonic() + 120)[0]


def _iterated(ids, scenario, pile, start, patience, seed=0, heard=None):
    return improve(ids, scenario, pile, start, "score", load_data(), time.monotonic() + 120,
                   on_better=None if heard is None else lambda value, town: heard.append(value),
                   patience=patience, seed=seed)


@pytest.mark.parametrize("seed", range(4))
def test_the_iterated_search_ends_at_a_better_or_equal_local_optimum(seed):
    ids, pile, scenario, _, start = _greedy_start("local-kicks", seed, 7)
    data = load_data()
    heard = []
    v, xyr = _iterated(ids, scenario, pile, start, 10, seed, heard)
    descent = _small_descent(ids, scenario, pile, start)
    assert v == _engine(ids, xyr, scenario, pile, "score")
    assert heard == sorted(set(heard)) and (not heard or heard[-1] == v)
    for free in windows(7, runs_of_three=False):
        assert window_best(ids, scenario, pile, xyr, free, "score", data)[0] == v
    assert _iterated(ids, scenario, pile, start, 10, seed) == (v, xyr)  # deterministic under its seed
    assert v >= descent  # a kicked town is kept only when it is at least as good


@pytest.mark.parametrize("seed", range(8))
def test_the_iterated_search_reaches_the_optimum_of_small_towns(seed):
    """4-card towns: with the default patience the kicks reach the exhaustive optimum (these seeds;
    the windows of one and two cards alone stop below it on some of them, checked below)."""
    ids, _, scenario, _, start = _greedy_start("local-small", seed, 4, with_pile=False)
    v, _ = _iterated(ids, scenario, (), start, optimize_local.PATIENCE, seed)
    assert v == exhaustive_best(ids, scenario, (), fast=True).value


def test_the_kicks_find_more_than_the_windows_alone():
    """On the seeds of the test above, the windows of one and two cards alone (no kicks) stop below the
    optimum at least once: the kicks are what reaches it."""
    below = 0
    for seed in range(8):
        ids, _, scenario, _, start = _greedy_start("local-small", seed, 4, with_pile=False)
        below += _small_descent(ids, scenario, (), start) < exhaustive_best(ids, scenario, (), fast=True).value
    assert below >= 1
