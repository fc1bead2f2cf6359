"""The automated opponent's drafts on constructed circles, one test per W-rule (W1-W5, later edition)."""

import pytest

from solver.errors import BadInput
from solver.wagons.opponent import Decision, add_to_pile, opponent_draft, round1_decision, round2_decision, town_icons
from solver.wagons.readings import WagonsReadings

# Card facts used below (scenarios/wagons/cards.json):
#  0 Pla/Cow Pla/Fort Pla/Mine For/Beer     1 Mou/Fort Mou/Mine Des/Beer Mou/Wagon
#  2 Wat/Mine Wat/Beer Sno/Wagon Wat/Gun    3 Sno/Gun Sno/Cow Sno/Fort Wat/Mine
#  4 Des/Wagon Des/Gun Des/Cow Mou/Fort     5 For/Beer For/Wagon Pla/Gun For/Cow
#  6 Wat/Gun Sno/Mine For/Mine Wat/Fort     7 For/Cow Pla/Beer Des/Beer For/Mine
#  9 Mou/Fort Pla/Fort Sno/Fort Des/Wagon  10 Pla/Cow Sno/Cow Des/Beer For/Cow
# 11 Sno/Gun Des/Mine For/Gun Wat/Gun      12 Sno/Mine Wat/Gun Pla/Gun Sno/Wagon
# 15 Wat/Mine Mou/Gun Pla/Mine Sno/Mine    16 Des/Wagon For/Wagon Wat/Fort Mou/Wagon
# 17 For/Cow Wat/Beer Mou/Beer Pla/Beer


def test_w1_match_skips_up_to_two():
    d = round1_decision((3, 2, 7, 4), deck_top=5)  # 7 has Forest/Cow like deck top 5
    assert d == Decision(7, (3, 2), 5, "W1", 1)


def test_w1_match_needs_terrain_and_icon():
    # card 1 shares the Beer and Wagon icons with 5 but on other terrains: no match
    assert round1_decision((1, 4), deck_top=5) == Decision(1, (), None, "W1-next", 1)


def test_w1_window_is_three_cards():
    assert round1_decision((3, 2, 4, 7), deck_top=5).rule == "W1-next"
    assert round1_decision((3, 2, 4, 7), deck_top=5, readings=WagonsReadings(round1_window=4)).take == 7


def test_w1_first_card_match_takes_it_without_skipping():
    assert round1_decision((7, 5), deck_top=10) == Decision(7, (), 10, "W1", 1)  # For/Cow in both


def test_w1_empty_deck_takes_next():
    assert round1_decision((3, 7), deck_top=None).rule == "W1-next"


def test_w3_pile_order():
    d = Decision(7, (3,), 5, "W1", 1)
    assert add_to_pile((1,), d) == (1, 7, 5)
    assert add_to_pile((1,), d, WagonsReadings(match_order="deck-first")) == (1, 5, 7)


def test_w2_icons_top_card_or_whole_town():
    assert town_icons((3, 9)) == {"Fort", "Wagon"}
    assert town_icons((3, 9), WagonsReadings(icon_source="town")) == {"Gun", "Cow", "Fort", "Mine", "Wagon"}
    # Water the Herd rule unmet by 11 and 0; top card 9 shows Fort: 0 has one -> skip 11
    assert round2_decision((11, 0), (3, 9), "water-the-herd") == Decision(0, (11,), None, "W4", 2)
    # with the whole town, 11's Gun matches card 3's Gun
    assert round2_decision((11, 0), (3, 9), "water-the-herd", WagonsReadings(icon_source="town")) == Decision(
        11, (), None, "W4", 2)


def test_w4_nothing_matches_takes_next():
    assert round2_decision((11, 15), (9,), "water-the-herd") == Decision(11, (), None, "W4-next", 2)


def test_w4_later_edition_has_no_icon_fallback():
    assert round2_decision((11, 0), (3, 9), "water-the-herd", WagonsReadings(edition="later")) == Decision(
        11, (), None, "W4-later", 2)


def test_w4_fallback_looks_only_at_remaining_cards():
    assert round2_decision((11,), (3, 9), "water-the-herd").rule == "W4-next"


def test_w5_boomtown_skips_when_tied_or_behind():
    assert round2_decision((3, 7, 11), (1, 2), "boomtown", after_round_1=(20, 20)) == Decision(7, (3,), None,
                                                                                              "W5-boomtown", 2)
    assert round2_decision((3, 7, 11), (1, 2), "boomtown", after_round_1=(20, 8)).rule == "W5-boomtown"
    assert round2_decision((3, 7, 11), (1, 2), "boomtown", after_round_1=(8, 20)).rule != "W5-boomtown"
    assert round2_decision((3,), (1, 2), "boomtown", after_round_1=(20, 20)).rule != "W5-boomtown"
    with pytest.raises(BadInput, match="after round 1"):
        round2_decision((3, 7), (1,), "boomtown")


def test_w5_gold_rush_gun_but_not_past_mountains_or_mine():
    assert round2_decision((10, 4, 3), (), "gold-rush") == Decision(4, (10,), None, "W5-gold-rush", 2)
    assert round2_decision((9, 4), (), "gold-rush").rule != "W5-gold-rush"      # 9 shows Mountains: stop
    assert round2_decision((15, 4), (), "gold-rush") == Decision(15, (), None, "W5-gold-rush", 2)  # Gun on it


def test_w5_through_the_desert_counts_symbols():
    assert round2_decision((3, 1), (), "through-the-desert") == Decision(1, (3,), None,
                                                                        "W5-through-the-desert", 2)  # Desert + Wagon
    assert round2_decision((3, 7), (), "through-the-desert").rule != "W5-through-the-desert"
    assert round2_decision((4, 1), (), "through-the-desert").take == 4


def test_w5_out_drink_skips_beer_heavy_card_or_takes_wagon():
    assert round2_decision((17, 3), (), "out-drink-the-competition") == Decision(
        3, (17,), None, "W5-out-drink-the-competition", 2)
    assert round2_decision((7, 3), (), "out-drink-the-competition").take == 3       # 2 Beers: skipped
    assert round2_decision((1, 16), (), "out-drink-the-competition").take == 1      # 1 Beer, a Wagon
    assert round2_decision((0, 16), (), "out-drink-the-competition").take == 16     # skip 1 to a Wagon
    assert round2_decision((0, 3), (), "out-drink-the-competition").rule != "W5-out-drink-the-competition"


def test_w5_water_the_herd():
    assert round2_decision((11, 12), (), "water-the-herd") == Decision(12, (11,), None, "W5-water-the-herd", 2)


def test_w5_cattle_drive():
    assert round2_decision((11, 0), (), "cattle-drive") == Decision(0, (11,), None, "W5-cattle-drive", 2)
    assert round2_decision((11, 6), (), "cattle-drive").rule != "W5-cattle-drive"


def test_opponent_draft_entry_point_and_bad_input():
    assert opponent_draft("gold-rush", 1, [3, 2, 7], deck_top=5).take == 7
    with pytest.raises(BadInput, match="round"):
        opponent_draft("gold-rush", 3, [3])
    with pytest.raises(BadInput, match="twice"):
        opponent_draft("gold-rush", 2, [3, 3])
    with pytest.raises(BadInput, match="card 3"):
        opponent_draft("gold-rush", 2, [3, 7], pile=[3])
    with pytest.raises(BadInput, match="0..17"):
        opponent_draft("gold-rush", 2, [30])
    with pytest.raises(BadInput, match="no cards"):
        opponent_draft("gold-rush", 2, [])
