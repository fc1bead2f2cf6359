"""The Outlaws lines domain against a naive enumeration through the game contract (tests/support/ask/outlaws.py):
the same lines in the same order with the same chances (summing to 1), its size, every measure's value against the
oracle's, witnesses that replay to the line's end, and random playouts drawn with the same uniform choices."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from solver.ask.engine import wilson
from solver.outlaws.line import line_from_json
from tests.support.ask import outlaws as bo


@pytest.mark.parametrize("name", list(bo.DOMAINS))
def test_the_domain_yields_the_naive_lines_with_their_chances(name):
    domain, lines = bo.brute(bo.DOMAINS[name])
    got = list(domain.elements())
    assert domain.size() == len(lines) == len(got)
    assert [w for w, _ in got] == [w for w, *_ in lines] and sum(w for w, _ in got) == 1
    assert [[(s.play, s.outcome) for s in line.steps] for _, line in got] == [list(steps) for _, _, steps, _ in lines]
    assert [line.games for _, line in got] == [games for _, games, _, _ in lines]
    assert all(line.weight == w for w, line in got)


@pytest.mark.parametrize("name", list(bo.DOMAINS))
def test_every_measure_reads_what_the_oracle_reads(name):
    domain, lines = bo.brute(bo.DOMAINS[name])
    names = frozenset(domain.measures())
    for (_, line), (_, _, _, expected) in zip(domain.elements(), lines):
        assert dict(domain.values(line, names)) == expected


@pytest.mark.parametrize("name", list(bo.DOMAINS))
def test_a_witness_replays_to_the_end_of_its_line(name):
    domain, lines = bo.brute(bo.DOMAINS[name])
    for _, line in list(domain.elements())[::97]:
        start, steps, games = line_from_json(domain.witness(line))
        assert start == domain.start and games[-1] == line.end and len(steps) == len(line.steps)


def test_the_domain_says_what_the_measures_cover():
    domain, lines = bo.brute(bo.DOMAINS["sudden-death-near/1"])
    assert "at most 1 action from the position sudden-death-near" in domain.description
    assert "uniformly" in domain.description and domain.chance and domain.noun == "line"
    seen = Counter((v["sudden-death"], v["votes.before-sudden-death"], v["sudden-death.at"]) for *_, v in lines)
    assert seen == {(True, 1, 1): 560, (False, 0, 0): 284}  # only the Vote that makes 3-3 triggers it (rule:O11)
    won = bo.brute(bo.DOMAINS["hitman-view/2"])[1]
    assert {(v["winner"], v["victory"], v["actions"]) for *_, v in won if v["winner"] != "none"} == \
        {("B", "bad", 1), ("B", "bad", 2), ("B", "good", 2)}  # the line ends with the game; the Hitman's Vote, then
    # the Governor's Election token (rule:O5: more Votes) where chance put them


@pytest.mark.parametrize("name,where", [("view-of-A/2", ("cmp", "B.governor.column", "==", 3)),
                                        ("hitman-view/2", ("cmp", "votes.first", ">=", 1)),
                                        ("sheriff-save/1", ("cmp", "A.hitman.column", "==", 1))])
def test_random_playouts_agree_with_the_exact_chance(name, where):
    """Monte Carlo with the same uniform choices (the test's own playouts and the domain's ``sample``): the exact
    chance lies in each 95% Wilson interval (fixed seeds)."""
    domain, lines = bo.brute(bo.DOMAINS[name])
    exact = sum((w for w, _, _, v in lines if bo.holds(where, v)), Fraction(0))
    assert 0 < exact < 1
    n = 600
    rng = random.Random(7)
    by_games = {games: v for _, games, _, v in lines}
    hits = sum(bo.holds(where, by_games[bo.playout(domain.start, domain.actions, rng)]) for _ in range(n))
    lo, hi = wilson(hits, n)
    assert lo <= exact <= hi, (hits, n, float(exact))
    rng = random.Random(8)
    drawn = [domain.sample(rng) for _ in range(n)]
    chance = {steps: w for w, _, steps, _ in lines}
    assert all(chance[tuple((s.play, s.outcome) for s in line.steps)] == w for w, line in drawn)
    lo, hi = wilson(sum(bo.holds(where, bo.oracle(line.games, tuple((s.play, s.outcome) for s in line.steps)))
                        for _, line in drawn), n)
    assert lo <= exact <= hi
