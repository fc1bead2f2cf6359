"""The event deck and each of the 11 event effects (solver.cactus.events)."""

from fractions import Fraction

import pytest

from solver.cactus import events as ev
from solver.cactus.readings import CactusReadings
from solver.errors import BadInput

FILL = "tumbleweed"


def one(outcomes):
    assert len(outcomes) == 1 and outcomes[0][0] == 1
    return outcomes[0][1]


def draw(deck, discard=(), readings=CactusReadings()):
    return ev.start_round(ev.EventsInPlay(tuple(deck), tuple(sorted(discard))), readings)


def test_table_matches_rulebook_counts():
    t = ev.table()
    assert len(t.events) == 11 and len(t.cards()) == 17
    counts = {e.key: e.count for e in t.events}
    assert counts == {"sandstorm": 2, "disorder": 2, "distraction": 1, "train": 1, "stagecoach": 1,
                      "dried-up-water-well": 2, "snake-in-my-boots": 2, "shootout": 2, "fast-draw": 1,
                      "tumbleweed": 3, "marshals-arrival": 1}
    assert {p: ev.deck_size(p) for p in (2, 3, 4, 5)} == {2: 8, 3: 10, 4: 10, 5: 10}
    with pytest.raises(BadInput, match="2-5 players"):
        ev.deck_size(1)


@pytest.mark.parametrize("slot", [0, 1, 2])
def test_marshal_shuffled_into_bottom_three(slot):
    order = ev.table().cards()
    deck = ev.build_deck(order, 8, slot)
    assert len(deck) == 9 and deck.count(ev.MARSHAL) == 1
    assert deck.index(ev.MARSHAL) == 6 + slot
    assert [c for c in deck if c != ev.MARSHAL] == list(order[:8])


def test_build_deck_refuses_bad_input():
    with pytest.raises(BadInput):
        ev.build_deck(("sandstorm",), 8, 0)
    with pytest.raises(BadInput):
        ev.build_deck(ev.table().cards(), 8, 3)


@pytest.mark.parametrize("key, field, value", [
    ("sandstorm", "second_shot", False),
    ("disorder", "may_swap_second_shot", True),
    ("distraction", "initiator_modifier", -1),
    ("shootout", "early_duel_modifier", 2),
    ("fast-draw", "dice_per_roll", 2),
    ("dried-up-water-well", "single_standee", ("RUN ALL",)),
    ("snake-in-my-boots", "single_standee", ("SNEAK ALL",)),
])
def test_round_effects_of_modifier_events(key, field, value):
    s = one(draw([key, FILL, ev.MARSHAL]))
    assert s.current == key and s.discard == (key,) and s.round == 1 and not s.ended
    assert getattr(s.effects(), field) == value
    plain = ev.round_effects("tumbleweed")
    assert getattr(plain, field) != value


def test_tumbleweed_has_no_effect():
    s = one(draw([FILL, ev.MARSHAL]))
    eff = s.effects()
    assert (eff.second_shot, eff.may_swap_second_shot, eff.initiator_modifier, eff.early_duel_modifier,
            eff.dice_per_roll, eff.single_standee) == (True, False, 0, None, 1, ())
    assert s.deck == (ev.MARSHAL,)


def test_single_standee_restrictions_spare_one_standee_parties():
    well = ev.round_effects("dried-up-water-well")
    assert ev.standees_allowed("RUN ALL", 3, well) == 1
    assert ev.standees_allowed("SNEAK ALL", 3, well) == 3
    assert ev.standees_allowed("RUN ALL", 1, well) == 1  # the lone ranger: one standee, unaffected
    snake = ev.round_effects("snake-in-my-boots")
    assert ev.standees_allowed("SNEAK ALL", 2, snake) == 1


def test_marshal_ends_game_when_drawn():
    s = ev.EventsInPlay((FILL, FILL, ev.MARSHAL))
    for rnd in (1, 2):
        s = one(ev.start_round(s))
        assert not s.ended and s.round == rnd
    s = one(ev.start_round(s))
    assert s.ended and s.end_round == 3 and s.end_cause == "event"


def test_train_discards_next_event_unread():
    s = one(draw(["train", "sandstorm", FILL, ev.MARSHAL]))
    assert s.deck == (FILL, ev.MARSHAL) and sorted(s.discard) == ["sandstorm", "train"]
    assert s.effects().second_shot  # the discarded Sandstorm had no effect


def test_train_on_marshal_ends_game_immediately():
    s = one(draw(["train", ev.MARSHAL, FILL]))
    assert s.ended and s.end_round == 1 and s.end_cause == "train"


def test_train_on_empty_deck_is_harmless():
    s = one(draw(["train"]))
    assert not s.ended and s.discard == ("train",) and s.deck == ()


def test_stagecoach_puts_two_discards_on_top_with_exact_chances():
    outs = draw(["stagecoach", FILL, ev.MARSHAL], discard=["sandstorm", "train", "shootout"])
    assert sum(p for p, _ in outs) == 1
    assert len(outs) == 6 and all(p == Fraction(1, 6) for p, _ in outs)
    for _, s in outs:
        assert s.deck[2:] == (FILL, ev.MARSHAL) and len(s.stagecoach_drew) == 2
        assert "stagecoach" in s.discard and len(s.discard) == 2  # 3 - 2 + the stagecoach itself


def test_stagecoach_never_draws_itself_c5_as_many():
    outs = draw(["stagecoach", ev.MARSHAL], discard=["sandstorm"])
    s = one(outs)
    assert s.deck == ("sandstorm", ev.MARSHAL) and s.discard == ("stagecoach",)
    s = one(draw(["stagecoach", ev.MARSHAL]))
    assert s.deck == (ev.MARSHAL,) and s.discard == ("stagecoach",)


def test_stagecoach_c5_alternative_needs_two():
    s = one(draw(["stagecoach", ev.MARSHAL], discard=["sandstorm"], readings=CactusReadings(stagecoach_short="none")))
    assert s.deck == (ev.MARSHAL,) and sorted(s.discard) == ["sandstorm", "stagecoach"]


def test_stagecoach_can_bring_back_train():
    outs = draw(["stagecoach", FILL, ev.MARSHAL], discard=["train", "sandstorm"])
    tops = {s.deck[:2] for _, s in outs}
    assert tops == {("train", "sandstorm"), ("sandstorm", "train")}


def test_duel_discard_c4_default_ends_game():
    s = ev.EventsInPlay((ev.MARSHAL,), round=4)
    out = one(ev.duel_discard(s))
    assert out.ended and out.end_round == 4 and out.end_cause == "duel"


def test_duel_discard_c4_alternative_discards_marshal():
    s = ev.EventsInPlay((ev.MARSHAL,), round=4)
    out = one(ev.duel_discard(s, CactusReadings(marshal_discard="discarded")))
    assert not out.ended and out.discard == (ev.MARSHAL,) and out.deck == ()


def test_duel_discard_of_ordinary_card():
    out = one(ev.duel_discard(ev.EventsInPlay(("shootout", ev.MARSHAL))))
    assert out.deck == (ev.MARSHAL,) and out.discard == ("shootout",) and not out.ended


def test_play_round_splits_on_duel_chance():
    readings = CactusReadings(duel_win_chance=Fraction(1, 4))
    outs = ev.play_round(ev.EventsInPlay((FILL, ev.MARSHAL, FILL)), readings)
    probs = {s.ended: p for p, s in outs}
    assert probs == {True: Fraction(1, 4), False: Fraction(3, 4)}


def test_rules_refuse_unknown_readings():
    with pytest.raises(BadInput, match="marshal_discard"):
        CactusReadings(marshal_discard="maybe")
    with pytest.raises(BadInput, match="duel_win_chance"):
        CactusReadings(duel_win_chance=Fraction(3, 2))


def test_disorder_swap_gives_up_second_shot():
    eff = ev.round_effects("disorder")
    assert ev.disorder_swap((1, 2, 3), "M", 1, eff) == ((1, "M", 3), None)
    with pytest.raises(BadInput, match="Disorder round"):
        ev.disorder_swap((1, 2, 3), 4, 0, ev.round_effects("tumbleweed"))
    with pytest.raises(BadInput, match="no second shot"):
        ev.disorder_swap((1, 2, 3), None, 0, eff)
    with pytest.raises(BadInput, match="not one of"):
        ev.disorder_swap((1, 2, 3), 4, 3, eff)
