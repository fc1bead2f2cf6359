"""Which choice the advice names and how the others stand against it (rule:W-advice, solver/wagons/advice/choice.py):
hand-made play-outs (the margins of each action on the first orders of one shared list), then a property over
random ones: the advised choice is never below a figure shown beside it unless that figure is within its interval
(or worse on the orders both were played on); and on real decisions, a complete run shows the advised choice as
the highest figure, a cut-short one answers for every figure above it."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.wagons.advice.choice import (
    Standing,
    advised_index,
    beats,
    overlap_note,
    separated,
    standing,
)
from solver.wagons.advice.engine import advise
from solver.wagons.advice.result import ActionAdvice, action_advice
from solver.wagons.advice.rollout import Outcome
from solver.wagons.advice.stats import MIN_ORDERS, orders_to_separate
from solver.wagons.game import Draft, new_game
from tests.support.builders.advice import greedy_state

INFO = new_game("gold-rush", 1)  # 8 circle cards: drafts 0..7 name cards


def row(k: int, margins: list[int], exact: bool = False) -> ActionAdvice:
    """Draft ``k``'s figures from play-outs ending at ``margins`` (the first orders of the shared list)."""
    return action_advice(INFO, Draft(k), [Outcome(m, "player" if m > 0 else "opponent") for m in margins], exact)


def wavy(base: int, n: int, seed: int = 0) -> list[int]:
    """``n`` margins around ``base`` that vary from order to order (as the unseen cards' orders make them)."""
    return [base + ((i * 7 + seed * 3) % 11) - 5 for i in range(n)]


def test_too_few_orders_have_no_interval_and_tell_nothing_apart():
    few = row(1, [-1, -1])  # two orders ending alike: [-1, -1] would be no interval at all
    assert few.too_few and few.interval is None and few.win_interval is None
    assert few.how == "2 orders, too few for an interval"
    lead = row(0, wavy(-10, 32))
    assert lead.how == "32 orders" and lead.interval is not None and not lead.too_few
    assert not separated(few, lead) and not beats(few, lead)
    s = standing(few, lead)
    assert s.above and s.within and not s.worse_on_shared and s.answered


def test_a_higher_figure_from_fewer_orders_is_not_advised_and_is_named():
    lead, other = row(0, wavy(12, 32)), row(1, wavy(13, 4, 1))
    low = row(2, wavy(-20, 32, 2))
    rows = [lead, other, low]
    k = advised_index(rows)
    assert k == 0
    s = [None if i == k else standing(r, rows[k]) for i, r in enumerate(rows)]
    assert s[1].above and s[1].within and not s[2].above and not s[2].within  # -20 against +12: told apart
    note = overlap_note(lead, rows, s)
    assert note is not None and other.words in note and "4 orders, too few for an interval" in note
    assert "within its 95% interval" in note
    assert overlap_note(lead, [lead, low], [None, s[2]]) is None  # nothing shown above: nothing to say


def test_a_choice_surely_better_on_the_orders_they_share_is_advised():
    lead = row(0, wavy(5, 32))
    better = row(1, [m + 6 for m in wavy(5, 16)])  # 6 points better on each of the 16 orders both were played on
    assert beats(better, lead) and advised_index([lead, better]) == 1


def test_shown_higher_but_worse_on_the_shared_orders():
    """The leader did badly on its later orders; the challenger, played on the first 8 only, was worse on each."""
    lead = row(0, [20] * 8 + [-20] * 24)
    other = row(1, [15] * 8)  # mean +15 against the leader's -10: shown higher, yet worse on orders 1-8
    assert float(other.mean) > float(lead.mean) and beats(lead, other)
    assert advised_index([lead, other]) == 0
    s = standing(other, lead)
    assert s.above and not s.within and s.worse_on_shared and s.answered
    assert "worse than the advised one on the 8 orders both were played on" in overlap_note(lead, [lead, other],
                                                                                             [None, s])


def test_exact_figures_are_told_apart_when_they_differ():
    a, b, c = row(0, [3, 5], exact=True), row(1, [4, 4], exact=True), row(2, [1, 2], exact=True)
    assert a.how == "exact" and not separated(a, b) and separated(a, c) and beats(a, c)
    assert standing(b, a) == Standing(False, True, None)  # equal expectations: nothing above, nothing to sample


def test_how_many_more_orders_would_separate_them():
    a = [10, 12, 8, 11, 9, 10, 13, 7]
    b = [x - 1 + (2 if i % 2 else -2) for i, x in enumerate(a)]  # 1 point worse on average, spread 2
    more = orders_to_separate(a, b, MIN_ORDERS)
    sd = math.sqrt(sum((d - 1) ** 2 for d in [x - y for x, y in zip(a, b)]) / 7)
    assert more == math.ceil((1.959963984540054 * sd / 1) ** 2) + 1 - 8
    assert orders_to_separate([1, 2], [1, 2]) is None  # no difference seen: no number of orders would do


MARGINS = st.lists(st.integers(-30, 30), min_size=40, max_size=40)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(MARGINS, st.integers(0, 40)), min_size=2, max_size=8), st.integers(1, 40))
def test_the_advised_choice_is_never_below_a_figure_without_its_answer(actions, most):
    """Any actions, each played on its own number of the shared orders (at least one on ``most``): the advised
    one is played; no figure shown above it is surely better; each one shown above is within its interval or
    worse on the orders both were played on, and the note names it."""
    rows = [row(k, m[:n]) for k, (m, n) in enumerate(actions)]
    rows[0] = row(0, actions[0][0][:most])
    k = advised_index(rows)
    assert k is not None and rows[k].samples
    advised = rows[k]
    stand = [None if i == k else standing(r, advised) for i, r in enumerate(rows)]
    note = overlap_note(advised, rows, stand, most=len(rows))
    for r, s in zip(rows, stand):
        if s is None or not r.samples:
            continue
        assert s.above == (float(r.mean) > float(advised.mean))
        if s.above:  # a figure shown above the advised one is never surely better (one shown below may be, on the
            assert not beats(r, advised)  # fewer orders both were played on: the module docstring's promise is
            assert s.within or s.worse_on_shared  # about the figures shown above it)
            assert note is not None and r.words in note
    assert (note is None) == (not any(s is not None and s.above for s in stand))


def test_a_complete_run_shows_the_advised_choice_highest():
    """Real decisions (two drafts, two placements), the default settings: the close calls were played out, so no
    figure is above the advised one; every figure from fewer than 8 orders says so."""
    for scenario, seed, steps in (("boomtown", 0, 0), ("gold-rush", 3, 4), ("cattle-drive", 9, 6),
                                  ("boomtown", 2, 1)):
        advice = advise(greedy_state(scenario, seed, steps), bound=False)
        assert advice.complete and advice.advised_is_highest and advice.note is None, (scenario, seed, steps)
        top = float(advice.best.mean)
        assert all(float(a.mean) <= top for a in advice.actions if a.samples)
        assert all(a.too_few == (a.samples < MIN_ORDERS and not a.exact) for a in advice.actions)
        doc = advice.to_dict()
        assert not any(a["above_advised"] for a in doc["actions"])
