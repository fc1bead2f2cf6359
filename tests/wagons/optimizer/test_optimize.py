"""The Lone Cowboy optimizer (rule:W-opt-layout) against the exhaustive enumerator (the oracle).

Representative exhaustive set (all combinations of up to 4 cards would take hours):
- every single card in every scenario (18 x 6 = 108 instances),
- every 3rd ordered pair of cards (102 of the 306 pairs), scenarios and opponent piles rotating,
- 12 seeded random 3-card instances (2 per scenario) with random opponent piles, 12 more in the two
  scenarios with geometric goal cards, plus 3 with the "margin" objective,
- 2 seeded random 4-card instances (slow: the oracle scores ~340,000 towns each),
- 1 seeded random 4-card instance with the "margin" objective, and (with ``--deep``) 2 seeded random 5-card
  instances (one per objective): the compiled oracle scores ~16 million towns each in a few seconds
  (``solver.wagons.optimizer.oracle``, fast path).
Every layout returned is legal (replayed through the engine) and re-scores to the value claimed.
"""

import itertools
import pickle
import random

import pytest

from solver import cli
from solver.errors import BadInput
from solver.wagons.data import SCENARIO_IDS
from solver.wagons.optimizer.layout import METHODS, best_layout, greedy_layout
from solver.wagons.optimizer.oracle import exhaustive_best
from solver.wagons.scoring import final_scores, score_player, town_features
from solver.wagons.town import Town, load_town, town_to_json
from tests.support.depth import deep_after


def _instance(seed: int, n: int, max_pile: int = 6):
    rng = random.Random(seed)
    deck = rng.sample(range(18), 18)
    return deck[:n], deck[n:n + rng.randint(0, max_pile)], SCENARIO_IDS[seed % 6]


def _check(cards, scenario, pile, objective="score"):
    res = best_layout(cards, scenario, pile, time_limit=120, objective=objective)
    oracle = exhaustive_best(cards, scenario, pile, objective=objective)
    assert res.proven_optimal
    assert res.value == oracle.value, (cards, scenario, pile)
    town = load_town(town_to_json(Town(res.placements)))  # legal, in the given order
    assert town.card_ids == tuple(cards)
    ps = score_player(town, scenario, pile)
    assert ps.total == res.score
    if objective == "margin":
        assert final_scores(town, pile, scenario).margin == res.value
    else:
        assert ps.total == res.value
    return res


@pytest.mark.parametrize("scenario", SCENARIO_IDS)
def test_every_single_card(scenario):
    for card in range(18):
        pile = [c for c in range(18) if c != card][card % 5: card % 5 + 3]
        _check([card], scenario, pile)


def test_every_third_ordered_pair():
    for k, (a, b) in enumerate(itertools.permutations(range(18), 2)):
        if k % 3:
            continue
        rest = [c for c in range(18) if c not in (a, b)]
        _check([a, b], SCENARIO_IDS[(k // 3) % 6], rest[k % 7: k % 7 + (k % 5)])


@pytest.mark.parametrize("seed", range(12))
def test_random_three_cards(seed):
    cards, pile, scenario = _instance(seed, 3)
    _check(cards, scenario, pile)


@pytest.mark.parametrize("seed", range(30, 36))
@pytest.mark.parametrize("scenario", ["water-the-herd", "through-the-desert"])
def test_position_goals_three_cards(seed, scenario):
    """Cool Water (largest Water group, ties), Wagon Train runs and Badlands: the geometric goals."""
    cards, pile, _ = _instance(seed, 3)
    _check(cards, scenario, pile)


@pytest.mark.parametrize("seed", [100, 101, 104])
def test_margin_objective_three_cards(seed):
    cards, pile, scenario = _instance(seed, 3)
    _check(cards, scenario, pile, objective="margin")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 3])
def test_random_four_cards(seed):
    cards, pile, scenario = _instance(seed, 4)
    _check(cards, scenario, pile)


@pytest.mark.slow
@pytest.mark.parametrize("seed,objective,n", deep_after([(1, "margin", 4), (0, "score", 5), (1, "margin", 5)]))
def test_random_four_and_five_cards(seed, objective, n):
    """Random instances, both objectives, against the compiled exhaustive oracle: the margin on four cards in
    every run; two 5-card instances (boomtown, gold-rush; ~16 million towns each, ~6 s) with ``--deep``."""
    cards, pile, scenario = _instance(seed, n)
    _check(cards, scenario, pile, objective)


def test_every_method_agrees_on_small_towns():
    """The four strategies (same ``prove(problem, incumbent)`` face) prove the same optimum."""
    for seed, objective in ((20, "score"), (21, "margin"), (22, "score")):
        cards, pile, scenario = _instance(seed, 3)
        results = [best_layout(cards, scenario, pile, method=m, objective=objective) for m in METHODS]
        assert all(r.proven_optimal for r in results)
        assert len({r.value for r in results}) == 1, [(r.method, r.value) for r in results]
        assert [r.method for r in results] == list(METHODS)


def test_the_cli_offers_every_method():
    from solver.wagons.cli import optimizer as opt_cli

    assert opt_cli.METHODS == METHODS


def test_oracle_method_keeps_the_floor():
    cards, pile, scenario = _instance(23, 3)
    best = best_layout(cards, scenario, pile, method="oracle")
    assert best.proven_optimal and best.iterations > 0
    none = best_layout(cards, scenario, pile, method="oracle", seed_greedy=False, floor=best.value)
    assert none.proven_optimal and none.placements == () and none.value == best.value
    for round1 in ((2, 8, True), (2, 8, False), (2, 9, True)):  # the engine's walk under Boomtown's condition
        ours = best_layout(cards, "boomtown", pile, method="oracle", round1=round1)
        theirs = best_layout(cards, "boomtown", pile, method="cpsat", round1=round1)
        assert ours.proven_optimal and theirs.proven_optimal and (ours.placements == ()) == (theirs.placements == ())
        assert ours.value == theirs.value
    with pytest.raises(BadInput, match="at most 5 cards"):
        best_layout(list(range(6)), "boomtown", method="oracle")


def test_result_is_at_least_greedy_and_progress_reports():
    cards, pile, scenario = _instance(7, 4)
    seen = []
    res = best_layout(cards, scenario, pile, progress=seen.append)
    _, greedy = greedy_layout(cards, scenario, pile)
    assert res.value >= greedy == res.greedy_value
    assert seen and seen[-1].best == res.value and seen[-1].bound == res.value and seen[-1].proven  # bound == best
    assert all(p.best is not None and p.unit == "score" and p.elapsed is not None for p in seen)
    assert seen[-1].text() == f"best score {res.value}, proven optimal"


def test_a_floor_keeps_out_the_greedy_town_when_time_runs_out_first():
    """Fuzz finding (2026-12-02): with a floor and no time for a method, the greedy seed at or below the floor
    was returned as the town; now, as when a method finds nothing above it, no town, valued at the floor."""
    cards, pile = [4, 14, 8, 7, 2], [16, 15]
    _, greedy = greedy_layout(cards, "boomtown", pile, objective="margin")
    res = best_layout(cards, "boomtown", pile, objective="margin", floor=greedy, time_limit=1e-9)
    assert res.placements == () and res.value == greedy and not res.proven_optimal


def test_time_limit_gives_best_found_not_proven():
    cards = [0, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14]
    seen = []
    res = best_layout(cards, "water-the-herd", (), time_limit=0.2, progress=seen.append)
    assert not res.proven_optimal and res.bound is None
    town = load_town(town_to_json(Town(res.placements)))
    assert town.card_ids == tuple(cards)
    assert score_player(town, "water-the-herd", ()).total == res.score
    assert seen[-1].bound is None and not seen[-1].proven


def test_floor_and_round1_constraints():
    cards, pile, scenario = _instance(2, 3)
    best = best_layout(cards, scenario, pile)
    above = best_layout(cards, scenario, pile, floor=best.value, seed_greedy=False)
    assert above.placements == () and above.proven_optimal  # nothing beats the optimum
    below = best_layout(cards, scenario, pile, floor=best.value - 1, seed_greedy=False)
    assert below.value == best.value
    # Boomtown-style condition: after 2 cards the town shows at least 8 territories (no overlap)
    r = best_layout(cards, scenario, pile, round1=(2, 8, True))
    assert town_features(Town(r.placements[:2])).territories >= 8
    r = best_layout(cards, scenario, pile, round1=(2, 8, False))
    assert town_features(Town(r.placements[:2])).territories < 8
    r = best_layout(cards, scenario, pile, round1=(2, 9, True))
    assert r.placements == () and r.proven_optimal  # 2 cards never show 9 territories


@pytest.mark.parametrize("call", [
    lambda: best_layout([3, 3], "gold-rush"),
    lambda: best_layout([3, 18], "gold-rush"),
    lambda: best_layout([], "gold-rush"),
    lambda: best_layout([True], "gold-rush"),
    lambda: best_layout("abc", "gold-rush"),
    lambda: best_layout([3], "no-such-scenario"),
    lambda: best_layout([3], "gold-rush", [3]),
    lambda: best_layout([3], "gold-rush", [5, 5]),
    lambda: best_layout([3], "gold-rush", [42]),
    lambda: best_layout([3], "gold-rush", time_limit=0),
    lambda: best_layout([3], "gold-rush", time_limit="x"),
    lambda: best_layout([3], "gold-rush", objective="fun"),
    lambda: best_layout([3], "gold-rush", method="magic"),
    lambda: best_layout(list(range(17)), "gold-rush"),
])
def test_bad_input(call):
    with pytest.raises(BadInput):
        call()


def test_cli_best_layout_json(tmp_path, capsys):
    opp = tmp_path / "opp.json"
    opp.write_text('{"pile": [5, 6]}')
    rc = cli.main(["wagons", "best-layout", "--cards", "3,7,11", "--scenario", "gold-rush",
                   "--opponent", str(opp), "--json"])
    out, err = capsys.readouterr()
    assert rc == 0
    import json
    doc = json.loads(out)
    assert doc["proven_optimal"] is True
    town = load_town({"placements": doc["placements"]})
    assert score_player(town, "gold-rush", (5, 6)).total == doc["score"]
    assert doc["score"] == exhaustive_best([3, 7, 11], "gold-rush", (5, 6)).value
    assert "[best-layout]" in err  # progress on standard error


@pytest.mark.parametrize("argv", [
    ["--cards", "3,3", "--scenario", "gold-rush"],
    ["--cards", "3,x", "--scenario", "gold-rush"],
    ["--cards", "3", "--scenario", "nope"],
    ["--cards", "3", "--scenario", "gold-rush", "--opponent", "/no/such/file.json"],
    ["--cards", "3", "--scenario", "gold-rush", "--time-limit", "-2"],
    ["--cards", "3", "--scenario", "gold-rush", "--time-limit", "soon"],
])
def test_cli_best_layout_bad_input(argv, capsys):
    rc = cli.main(["wagons", "best-layout", *argv, "--json"])
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_cli_bad_opponent_file(tmp_path, capsys):
    for text in ('{"pile": [3]}', '{"pile": "x"}', "not json"):
        opp = tmp_path / "opp.json"
        opp.write_text(text)
        rc = cli.main(["wagons", "best-layout", "--cards", "3,7", "--scenario", "boomtown", "--opponent", str(opp)])
        _, err = capsys.readouterr()
        assert rc == 2 and len(err.strip().splitlines()) == 1


def test_result_pickles():
    res = best_layout([3, 7], "cattle-drive")
    assert pickle.loads(pickle.dumps(res)) == res
