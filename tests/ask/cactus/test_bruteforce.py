"""The event-deck domain against a brute force: short event decks (3 cards, as the ``cards`` parameter deals them)
enumerated naively, every ordered draw of 3 of the 17 physical cards and every place of the marshal, each played by
the raw event engine with the real cards (no lumping of kinds, no game contract), the measures read off the drawn
cards by this file's own code. Every quantifier, on conditions hypothesis writes, must agree."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import permutations
from math import perm

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.ask import condition as cm
from solver.ask.engine import ask
from solver.ask.question import Question
from solver.cactus import events as ev
from solver.cactus.readings import CactusReadings

CARDS = 3
KINDS = ("sandstorm", "train", "stagecoach", "tumbleweed")
"""The event kinds the generated conditions name (the domain tells them apart; every other card is lumped)."""
READINGS = {"default": (), "duels": (("duel_win_chance", "1/2"), ("marshal_discard", "discarded"))}


def _walk(state: ev.EventsInPlay, readings: CactusReadings, drawn: tuple = ()):
    if state.ended:
        yield Fraction(1), drawn, state.end_round, str(state.end_cause)
        return
    if not state.deck:
        yield Fraction(1), drawn, None, "never"
        return
    for p, s in ev.play_round(state, readings):
        for q, d, end, cause in _walk(s, readings, drawn + (s.current,)):
            yield p * q, d, end, cause


def naive_values(drawn: tuple, end: int | None, cause: str) -> dict:
    first = {k: next((i for i, d in enumerate(drawn, 1) if d == k), 99) for k in KINDS}
    out = {"marshal.round": 99 if end is None else end, "marshal.never": end is None, "marshal.how": cause}
    for k in KINDS:
        out[f"event.{k}.round"] = first[k]
        out[f"event.{k}.times"] = drawn.count(k)
        for b in KINDS:
            if b != k:
                out[f"before.{k}.{b}"] = first[k] < first[b]
    return out


@cache
def naive(reading: str, seen_first: str | None = None) -> tuple[tuple[Fraction, dict], ...]:
    """Every play of every physical short deck with its exact chance (conditioned on the first event drawn)."""
    readings = CactusReadings.from_values(dict(READINGS[reading])) if READINGS[reading] else CactusReadings()
    cards = ev.table().cards()
    decks: Counter = Counter(tuple(cards[i] for i in idx) for idx in permutations(range(len(cards)), CARDS))
    out = []
    for prefix, n in decks.items():
        for slot in range(3):
            for p, drawn, end, cause in _walk(ev.EventsInPlay(ev.build_deck(prefix, CARDS, slot)), readings):
                if seen_first is None or drawn[:1] == (seen_first,):
                    out.append((Fraction(n, perm(len(cards), CARDS)) / 3 * p, naive_values(drawn, end, cause)))
    total = sum(w for w, _ in out)
    return tuple((w / total, v) for w, v in out)


NUMBERS = ["marshal.round", *(f"event.{k}.{m}" for k in KINDS for m in ("round", "times"))]
FLAGS = ["marshal.never", *(f"before.{a}.{b}" for a in KINDS for b in KINDS if a != b)]
compare = st.one_of(
    st.builds(cm.Compare, st.sampled_from(NUMBERS), st.sampled_from(cm.OPS), st.sampled_from([0, 1, 2, 3, 4, 5, 99])),
    st.builds(cm.Compare, st.sampled_from(FLAGS), st.sampled_from(["==", "!="]), st.booleans()),
    st.builds(cm.Compare, st.just("marshal.how"), st.sampled_from(["==", "!="]),
              st.sampled_from(["event", "train", "duel", "never"])))
conditions = st.recursive(compare, lambda inner: st.one_of(
    st.builds(lambda p: cm.All(tuple(p)), st.lists(inner, min_size=2, max_size=3)),
    st.builds(lambda p: cm.Any_(tuple(p)), st.lists(inner, min_size=2, max_size=3)),
    st.builds(cm.Not, inner)), max_leaves=4)


def question(quantifier: str, cond, reading: str, measure: str | None = None, seen: tuple = ()) -> Question:
    params = (("players", 2), ("cards", CARDS), ("seen", seen))
    return Question("cactus", "event-deck", params, quantifier, cond, measure, READINGS[reading])


def check_all(cond, reading: str, measure: str, seen_first: str | None = None) -> None:
    elements = naive(reading, seen_first)
    seen = ({"event": seen_first},) if seen_first else ()
    holds = [(w, v) for w, v in elements if cm.holds(cond, v)]
    exists = ask(question("exists", cond, reading, seen=seen))
    forall = ask(question("forall", cond, reading, seen=seen))
    not_exists = ask(question("exists", cm.Not(cond), reading, seen=seen))
    assert exists.proven and forall.proven
    assert exists.verdict == ("yes" if holds else "no")
    assert forall.verdict == ("yes" if len(holds) == len(elements) else "no")
    assert (forall.verdict == "yes") == (not_exists.verdict == "no")  # for every = not (is there the negation)
    if exists.verdict == "yes":
        assert cm.holds(cond, exists.witness_values)
    chance = ask(question("chance", cond, reading, seen=seen))
    assert chance.exact and chance.value == sum((w for w, _ in holds), Fraction(0))
    for quantifier, pick in (("max", max), ("min", min)):
        best = ask(question(quantifier, cond, reading, measure, seen))
        assert best.proven
        if holds:
            assert best.verdict == "value" and best.value == pick(v[measure] for _, v in holds)
        else:
            assert best.verdict == "no"


@pytest.mark.parametrize("reading", ["default", "duels"])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cond=conditions, measure=st.sampled_from(NUMBERS))
def test_every_quantifier_agrees_with_the_brute_force(reading, cond, measure):
    check_all(cond, reading, measure)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cond=conditions, measure=st.sampled_from(NUMBERS))
def test_the_rounds_seen_condition_as_the_brute_force_does(cond, measure):
    check_all(cond, "default", measure, seen_first="sandstorm")


def test_fixed_questions_against_the_brute_force():
    """A few conditions whatever hypothesis draws: the marshal's round, an order, a never."""
    for text in ("marshal.round == 2", "marshal.round <= 3 and event.train.round == 1", "before.stagecoach.train",
                 "event.sandstorm.times >= 1 or marshal.how == train"):
        check_all(cm.parse(text), "default", "marshal.round")
    check_all(cm.parse("marshal.never"), "duels", "event.sandstorm.times")
