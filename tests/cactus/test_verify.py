"""Z3 invariants of the deck rules (solver.cactus.verify.checks), cross-checked with the exact odds."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cactus import odds
from solver.cactus.readings import CactusReadings
from solver.cactus.verify import checks as v
from tests.support.depth import examples

KEYS = {"id", "title", "holds", "status", "proven", "counterexample", "rule", "open_question", "details", "elapsed",
        "seconds", "rule_ids", "reads"}


def test_marshal_always_among_last_three():
    c = v.check_marshal_last_three(2)
    assert c.holds is True and c.counterexample is None and set(c.to_json()) == KEYS
    assert "bottom 2 cards" in c.rule


def test_event_bound_two_players_matches_exact_odds():
    c = v.check_event_bound(2)
    assert c.holds is True and c.details["bound"] == [6, 11]
    exact = odds.marshal_odds(2)
    assert (c.details["earliest"], c.details["latest"]) == (exact["earliest"], exact["latest"])
    assert c.details["witness_latest"]["ends_in_round"] == 11


def test_last_three_rounds_promise_fails_with_counterexample():
    c = v.check_last_three_rounds(2)
    assert c.holds is False
    cex = c.counterexample
    assert cex["ends_in_round"] not in (7, 8, 9)
    events = [r["event"] for r in cex["rounds"]]
    assert "train" in events or "stagecoach" in events


def test_duel_discard_can_reach_marshal_c4():
    c = v.check_duel_reaches_marshal(2)
    assert c.holds is True and c.open_question == "C4"
    rounds = c.counterexample["rounds"]
    assert any(r.get("lone_ranger_wins_duel") for r in rounds)


def test_duel_bounds_under_both_c4_readings():
    """Hand count, 2 players (9 cards, the marshal 7th, 8th or 9th). C10 every_win, at most 4 duel
    wins a round: round 1 removes at most cards 1-6 (Train + 4 wins), so the game cannot end in
    round 1; round 2 draws card 7. One win a round: 3 cards in round 1, 2 in round 2, the 7th card
    is reached in round 3."""
    c = v.check_duel_bound(2, "revealed")
    assert c.holds is True and c.details["earliest"] == 2
    assert c.details["witness_earliest"]["ends_in_round"] == 2
    c = v.check_duel_bound(2, "revealed", "one_per_round")
    assert c.holds is True and c.details["earliest"] == 3
    assert c.details["earliest"] == odds.marshal_odds(2, CactusReadings(duel_win_chance=1))["earliest"]
    c = v.check_duel_bound(2, "discarded")
    assert c.holds is False and c.counterexample["ends_in_round"] is None


def test_five_duel_wins_a_round_could_end_round_one():
    """2 players: Train (card 1) discards card 2, wins 3-6 discard cards 3-6, a 5th win reaches the
    marshal as 7th card: the round-2 bound rests on at most 4 duel wins a round."""
    c = v.check_duel_bound(2, "revealed", "every_win", max_duels=5)
    assert c.details["earliest"] == 1
    assert c.details["witness_earliest"]["rounds"][0]["duel_wins"] == 5


def test_solo_deck_checks():
    enough = v.check_solo_deck_enough()
    assert enough.holds is True
    assert enough.details["deck_size_by_round"]["11"] == 4
    short = v.check_solo_deck_after_11()
    assert short.holds is False and short.open_question == "C2"
    assert short.counterexample["round"] == 12 and short.counterexample["deck_size"] == 3


@pytest.mark.parametrize("reading, holds, bound", [
    ("no_second_shot", True, [6, 12]), ("keep_second_shot", True, [6, 14]), ("stop_archiving", False, None)])
def test_solo_marshal_bound_per_c2_reading(reading, holds, bound):
    c = v.check_solo_marshal_bound(reading)
    assert c.holds is holds and c.details["bound"] == bound
    if holds:
        exact = odds.marshal_odds(None, CactusReadings(short_deck=reading))
        assert [exact["earliest"], exact["latest"]] == bound


def test_verify_solo_only_shape():
    r = v.verify(players=(), quick=True)
    assert {c["id"] for c in r["checks"]} == {
        "solo-deck-3-plus-1-through-round-11", "solo-deck-3-plus-1-after-round-11",
        "solo-marshal-bound/no_second_shot", "solo-marshal-bound/keep_second_shot"}
    assert r["summary"]["unknown"] == 0
    # the report is the JSON edge: each check's time is "elapsed", the old "seconds" kept for one version
    assert all(c["elapsed"] == c["seconds"] >= 0 for c in r["checks"]) and r["elapsed"] == r["total_seconds"]
    from solver.register import register
    for c in r["checks"]:
        assert c["rule_ids"] and all(register().get(i) for i in c["rule_ids"])


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
def test_event_bound_three_to_five_players(players):
    c = v.check_event_bound(players)
    assert c.holds is True and c.details["bound"] == [8, 13]
    assert (c.details["earliest"], c.details["latest"]) == (8, 13)


ENGINE_NAME = {"other": "tumbleweed", "train": "train", "stagecoach": "stagecoach", "marshal": "marshals-arrival"}


@pytest.mark.parametrize("deck, readings", [
    (["other"] * 6 + ["marshal", "other", "other"], CactusReadings()),
    (["train"] + ["other"] * 5 + ["marshal", "other", "other"], CactusReadings()),
    (["other", "stagecoach", "other", "train", "other", "other", "other", "other", "marshal"], CactusReadings()),
    (["other", "other", "train", "stagecoach", "other", "other", "other", "marshal", "other"], CactusReadings()),
    (["stagecoach", "other", "other", "marshal"], CactusReadings(stagecoach_short="none")),
    (["other", "train", "other", "stagecoach", "other", "marshal", "other"], CactusReadings(duel_win_chance=Fraction(1, 2))),
    (["other", "stagecoach", "other", "other", "marshal", "other"],
     CactusReadings(duel_win_chance=Fraction(1, 2), marshal_discard="discarded")),
])
def test_z3_model_agrees_with_python_engine(deck, readings):
    """The Z3 encoding and the event engine allow exactly the same end rounds for a given deck."""
    from solver.cactus import events as ev

    state = ev.EventsInPlay(tuple(ENGINE_NAME[c] for c in deck))
    engine = {r for r, p in odds._end_from(state, readings) if p > 0}
    model = v.possible_end_rounds(deck, duels=readings.duel_win_chance > 0, marshal_discard=readings.marshal_discard,
                                  stagecoach_short=readings.stagecoach_short)
    assert model == engine


@st.composite
def decks(draw):
    size = draw(st.integers(3, 8))
    cards = ["other"] * size
    for special in ("train", "stagecoach"):
        if draw(st.booleans()):
            cards[draw(st.integers(0, size - 1))] = special
    cards.insert(size - 2 + draw(st.integers(0, 2)), "marshal")
    return cards


@settings(max_examples=examples(6, 20), deadline=None)
@given(decks(), st.sampled_from([Fraction(0), Fraction(1, 2)]), st.sampled_from(["revealed", "discarded"]))
def test_z3_model_agrees_with_engine_on_random_decks(deck, chance, reading):
    test_z3_model_agrees_with_python_engine(deck, CactusReadings(duel_win_chance=chance, marshal_discard=reading))


def test_c5_reading_changes_the_end_round():
    c = v.check_c5_reading_matters(2)
    assert c.holds is False and c.open_question == "C5"
    cex = c.counterexample
    assert cex["as_many"]["deck_top_first"] == cex["none"]["deck_top_first"]
    assert cex["as_many"]["ends_in_round"] != cex["none"]["ends_in_round"]
    # the exact odds see the same difference
    assert odds.marshal_odds(2)["rounds"] != odds.marshal_odds(2, CactusReadings(stagecoach_short="none"))["rounds"]


@pytest.mark.parametrize("deck, readings", [
    (["other", "other", "other", "train", "other", "marshal", "other"],
     CactusReadings(duel_win_chance=Fraction(1, 2), duels_per_round=2)),
    (["stagecoach", "other", "other", "other", "marshal", "other"],
     CactusReadings(duel_win_chance=Fraction(1, 2), duels_per_round=3, marshal_discard="discarded")),
    (["other", "train", "other", "other", "other", "marshal", "other"],
     CactusReadings(duel_win_chance=Fraction(1, 2), duels_per_round=3, duel_discards="one_per_round")),
])
def test_z3_model_agrees_with_engine_with_several_duels_a_round(deck, readings):
    """C10: the engine with n duels a round at chance 1/2 allows 0..n wins a round (every_win) or
    0..1 discards (one_per_round); the Z3 model with that many wins at most allows the same ends."""
    from solver.cactus import events as ev

    state = ev.EventsInPlay(tuple(ENGINE_NAME[c] for c in deck))
    engine = {r for r, p in odds._end_from(state, readings) if p > 0}
    cap = 1 if readings.duel_discards == "one_per_round" else readings.duels_per_round
    model = v.possible_end_rounds(deck, duels=True, marshal_discard=readings.marshal_discard,
                                  stagecoach_short=readings.stagecoach_short, duels_per_round=cap)
    assert model == engine


def test_three_to_five_players_share_one_duel_bound_proof():
    """3-5 players deal 10 cards: the same proof (and the same earliest end, round 2) for each."""
    a, b = v.check_duel_bound(3, "revealed", "one_per_round"), v.check_duel_bound(4, "revealed", "one_per_round")
    assert a.holds is b.holds is True and a.details["earliest"] == b.details["earliest"] == 4
    assert a.id.endswith("/p3") and b.id.endswith("/p4")
