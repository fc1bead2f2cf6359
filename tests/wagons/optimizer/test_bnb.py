"""The compiled branch and bound (``method="bnb"``, rule:W-opt-layout) against the exhaustive oracles.

- its proven value equals the exhaustive walk's (``exhaustive_best``) on random 2- to 4-card instances
  in all six scenarios, both objectives, with and without a floor (hypothesis), and on seeded 4- and 5-card ones
  (5 cards with ``--deep``);
- with Boomtown's round-1 condition it equals a brute force over the engine's own
  ``legal_placements`` and scorer, filtered by the condition;
- its bound (``bnb_kernel.node_bound``) is admissible: at random nodes of random 3- to 5-card towns
  it is never below the best completion the exhaustive walk finds from that node;
- it honours the time limit (best so far, not proven) and every town it returns is legal and re-scores
  to its value.
"""

import itertools
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.wagons.data import SCENARIO_IDS, load_data
from solver.wagons.optimizer.bnb.kernel import node_bound
from solver.wagons.optimizer.bnb.search import BranchAndBound, Search
from solver.wagons.optimizer.layout import best_layout, layout_with
from solver.wagons.optimizer.oracle import exhaustive_best
from solver.wagons.optimizer.problem import objective_value
from solver.wagons.optimizer.walk.board import _board_arrays, _candidates, _put, walk
from solver.wagons.optimizer.walk.scorer import goal_tables
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import town_features
from solver.wagons.town import Town, legal_placements, load_town, town_to_json
from tests.support.depth import deep_after, examples
from tests.support.limits import HANG_GUARD

DATA = load_data()


def _instance(seed: int, n: int, max_pile: int = 6):
    rng = random.Random(seed)
    deck = rng.sample(range(18), 18)
    return deck[:n], deck[n:n + rng.randint(0, max_pile)], SCENARIO_IDS[seed % 6]


def _legal_and_rescored(res, cards, scenario, pile, objective):
    town = load_town(town_to_json(Town(res.placements)))  # replayed through the engine
    assert town.card_ids == tuple(cards)
    assert objective_value(town, scenario, tuple(pile), WagonsReadings(), objective, DATA) == res.value


instances = st.tuples(st.integers(0, 10_000), st.integers(2, 4), st.sampled_from(SCENARIO_IDS),
                      st.sampled_from(("score", "margin")))


@settings(max_examples=examples(12, 20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances)
def test_bnb_equals_the_exhaustive_walk(inst):
    seed, n, scenario, objective = inst
    cards, pile, _ = _instance(seed, n)
    oracle = exhaustive_best(cards, scenario, pile, objective=objective)
    res = best_layout(cards, scenario, pile, objective=objective, method="bnb")
    assert res.proven_optimal and res.value == oracle.value, (cards, scenario, pile, objective)
    _legal_and_rescored(res, cards, scenario, pile, objective)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances, st.integers(-2, 1))
def test_bnb_keeps_the_floor(inst, offset):
    """With a floor (best play): the optimum when it exceeds the floor, else nothing, proven."""
    seed, n, scenario, objective = inst
    cards, pile, _ = _instance(seed, n)
    best = exhaustive_best(cards, scenario, pile, objective=objective).value
    floor = best + offset
    res = best_layout(cards, scenario, pile, objective=objective, method="bnb", floor=floor, seed_greedy=offset < 0)
    assert res.proven_optimal
    if offset < 0:
        assert res.value == best
        _legal_and_rescored(res, cards, scenario, pile, objective)
    else:
        assert res.placements == () and res.value == floor


@pytest.mark.parametrize("seed,objective,n", deep_after([(1, "score", 4), (1, "score", 5), (4, "margin", 5)]))
def test_bnb_equals_the_exhaustive_walk_four_and_five_cards(seed, objective, n):
    """The seeded instances, on four cards in every run and on five with ``--deep`` (the five-card walk alone
    scores about 16 million towns)."""
    cards, pile, scenario = _instance(seed, n)
    res = best_layout(cards, scenario, pile, objective=objective, method="bnb")
    assert res.proven_optimal and res.value == exhaustive_best(cards, scenario, pile, objective=objective).value


def _brute_round1(cards, scenario, pile, objective, round1):
    """The best objective over every legal sequence (the engine's legal_placements, first card at the
    origin unturned) meeting the round-1 condition, or None."""
    m, opp, behind = round1
    best = None
    towns = [Town()]
    for cid in cards:
        towns = [Town(t.placements + (p,)) for t in towns for p in legal_placements(t, cid)
                 if t.placements or (p.x, p.y, p.rot) == (0, 0, 0)]
    for t in towns:
        have = town_features(Town(t.placements[:m])).territories
        if (have >= opp) if behind else (have < opp):
            v = objective_value(t, scenario, tuple(pile), WagonsReadings(), objective, DATA)
            best = v if best is None or v > best else best
    return best


@pytest.mark.parametrize("seed", deep_after(range(6), keep=2))  # seeds 0, 1: both objectives
def test_bnb_round1_equals_brute_force(seed):
    cards, pile, _ = _instance(100 + seed, 3)
    objective = ("score", "margin")[seed % 2]
    for round1 in ((1, 4, True), (1, 4, False), (2, 7, True), (2, 6, False), (3, 10, True), (3, 9, False),
                   (2, 9, True)):
        want = _brute_round1(cards, "boomtown", pile, objective, round1)
        res = best_layout(cards, "boomtown", pile, objective=objective, method="bnb", round1=round1)
        assert res.proven_optimal
        if want is None:
            assert res.placements == (), round1
            continue
        assert res.value == want, (cards, pile, objective, round1)
        have = town_features(Town(res.placements[:round1[0]])).territories
        assert (have >= round1[1]) if round1[2] else (have < round1[1])


def _random_node(s: Search, rng: random.Random, depth: int):
    """A random legal town of cards 0..depth on the search's board: (board, nocc, codes)."""
    B, O, n = s.B, s.O, s.n
    board = _board_arrays(n, B * B)
    ter, ico, occ, _stamp, _mark, _ctr, _queue, saved_t, saved_i, added = board
    codes = np.zeros(n, np.int64)
    box = np.zeros((n + 1, 4), np.int64)
    cand = np.zeros((n, 2 * B * B), np.int64)
    codes[0] = (O * B + O) * 2
    nocc = _put(0, codes[0], s.cc, ter, ico, occ, 0, B, saved_t, saved_i, added)
    box[1] = (O, O + 1, O, O + 1)
    every = np.ones(n, np.bool_)
    for d in range(1, depth + 1):
        m = _candidates(d, every, codes, s.nrot, ter, B, box, cand)
        code = cand[d, rng.randrange(m)]
        nocc = _put(d, code, s.cc, ter, ico, occ, nocc, B, saved_t, saved_i, added)
        codes[d] = code
        x, y = (code >> 1) % B, (code >> 1) // B
        box[d + 1] = (min(box[d, 0], x), max(box[d, 1], x + 1), min(box[d, 2], y), max(box[d, 3], y + 1))
    return board, nocc, codes


@settings(max_examples=examples(20, 40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(3, 5), st.sampled_from(SCENARIO_IDS), st.sampled_from(("score", "margin")))
def test_the_bound_is_admissible(seed, n, scenario, objective):
    """bound at a node >= the best completion from that node (the walk with the node's cards kept)."""
    cards, pile, _ = _instance(seed, n)
    tables = goal_tables(scenario, tuple(pile), DATA)
    s = Search(cards, tables, objective)
    rng = random.Random(seed)
    for depth in range(0, n - 1):
        if n == 5 and depth == 0:
            continue  # the whole 5-card walk: too slow for a property test
        board, nocc, codes = _random_node(s, rng, depth)
        ter, ico, occ, stamp, _mark, ctr, queue = board[:7]
        bound = node_bound(ter, ico, occ, nocc, s.B, stamp, ctr, queue, s.scratch, depth, n, s.rem_t, s.rem_i,
                           tables[0], tables[1], s.ftab, s.ctab, s.ter_ok, s.cow_ok)
        free = np.zeros(n, np.bool_)
        free[depth + 1:] = True
        best, towns, _, _ = walk(s.cc, s.nrot, s.B, s.O, codes, free, -1, s.margin, *tables)
        assert towns > 0 and bound >= best, (cards, scenario, pile, objective, depth, int(bound), int(best))


def test_time_limit_gives_best_found_not_proven():
    cards = [0, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14]
    res = best_layout(cards, "water-the-herd", (), time_limit=1.0, method="bnb")
    assert not res.proven_optimal and res.elapsed < HANG_GUARD  # stopped by its limit (a hang guard, not a speed claim)
    _legal_and_rescored(res, cards, "water-the-herd", (), "score")


def test_bnb_without_local_search_and_one_card():
    for seed in range(3):
        cards, pile, scenario = _instance(seed, 3)
        bare = layout_with(BranchAndBound(local=False), "bnb", cards, scenario, pile, seed_greedy=False)
        assert bare.proven_optimal and bare.value == exhaustive_best(cards, scenario, pile).value
    for card, scenario in itertools.product((0, 9, 17), SCENARIO_IDS):
        res = best_layout([card], scenario, method="bnb", seed_greedy=False)
        assert res.proven_optimal and res.value == exhaustive_best([card], scenario).value


@pytest.mark.parametrize("seed,reference", deep_after([(0, "cpsat"), (0, "oracle"), (2, "oracle")]))
def test_an_unfinished_search_reports_an_upper_bound(seed, reference):
    """Stopped early, the bound it reports is never below the optimum: CP-SAT's proven one in every run, the
    exhaustive walk's with ``--deep`` (on five cards it scores about 16 million towns)."""
    cards, pile, scenario = _instance(seed, 5)
    res = layout_with(BranchAndBound(local=False), "bnb", cards, scenario, pile, time_limit=0.3, seed_greedy=False)
    if res.proven_optimal:
        pytest.skip("finished within the limit")
    if reference == "oracle":
        best = exhaustive_best(cards, scenario, pile).value
    else:
        proof = best_layout(cards, scenario, pile, method="cpsat")
        assert proof.proven_optimal
        best = proof.value
    assert res.bound is not None and res.bound >= best >= res.value


@pytest.mark.parametrize("seed,objective", [(6, "score"), (9, "margin")])
def test_bnb_and_cpsat_prove_the_same_value(seed, objective):
    cards, pile, scenario = _instance(seed, 4)
    a = best_layout(cards, scenario, pile, objective=objective, method="bnb")
    b = best_layout(cards, scenario, pile, objective=objective, method="cpsat")
    assert a.proven_optimal and b.proven_optimal and a.value == b.value
