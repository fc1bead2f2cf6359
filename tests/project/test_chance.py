"""One way to draw an outcome with its chance (:func:`solver.contract.draw`): exact, and the only one in solver/."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from solver.contract import draw, sample
from tests.support.paths import ROOT


class _Fixed(random.Random):
    """A generator whose ``random()`` returns the given numbers in turn."""

    def __init__(self, *values: float):
        super().__init__(0)
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0)


def test_draw_compares_exactly_with_the_running_sums():
    thirds = [Fraction(1, 3), Fraction(2, 3)]
    assert draw(thirds, _Fixed(float(Fraction(1, 3)))) == 0  # the float just below 1/3 is still the first third
    assert draw(thirds, _Fixed(0.3333333333333334)) == 1  # the float just above it is not
    assert draw([1, 2, 1], _Fixed(0.25)) == 1  # counts: u = 1 is not below the first running sum 1
    assert draw([1, 2, 1], _Fixed(0.7499999999999999)) == 1 and draw([1, 2, 1], _Fixed(0.75)) == 2
    assert draw([Fraction(1)], _Fixed(0.999)) == 0


def test_draw_follows_the_chances():
    rng = random.Random(7)
    weights = [Fraction(1, 6), Fraction(1, 2), Fraction(1, 3)]
    counts = Counter(draw(weights, rng) for _ in range(6000))
    for i, w in enumerate(weights):
        assert abs(counts[i] / 6000 - float(w)) < 0.03


def test_sample_returns_the_value_and_refuses_nothing_to_draw():
    assert sample([(Fraction(1, 4), "a"), (Fraction(3, 4), "b")], _Fixed(0.5)) == "b"
    with pytest.raises(ValueError, match="no outcome"):
        draw([], random.Random(0))
    with pytest.raises(ValueError, match="add up to nothing"):
        draw([0, 0], random.Random(0))


def test_no_other_weighted_draw_in_the_solver():
    """Random playouts (Outlaws) and the Monte Carlo checks (Cactus Town) draw through ``draw``: no module of
    solver/ makes its own weighted choice (``random.choices`` or a running sum of float chances)."""
    found = []
    for path in sorted((ROOT / "solver").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if ".choices(" in text or "+= float(" in text:
            found.append(path.relative_to(ROOT).as_posix())
    assert found == []
