"""Wagons scoring: the rulebook example, hand-worked towns for every scenario and goal card,
ties and zero cases, opponent readings (W6), the later edition, W8, and the bitboard scorer
checked against the plain dict-and-flood-fill reference on random towns."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import BadInput
from solver.wagons.cards import Territory
from solver.wagons.data import GOALS_FILE, SCENARIO_IDS, load_data
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import (
    Side,
    comparing_goal,
    features_of,
    final_scores,
    largest_groups,
    player_goal,
    score_opponent,
    score_player,
    winner_of,
)
from solver.wagons.scoring.reference import reference_groups, reference_score_player
from solver.wagons.town import Placement, legal_placements, load_town, visible_grid
from tests.support.builders.wagons import random_town

EXAMPLE = [(13, 1, 1), (4, 0, 1), (14, 3, 1), (0, 4, 0), (2, 0, 3), (1, 2, 3)]
PILE = (3, 5, 7)


def town_of(items):
    return load_town({"placements": [{"card": c, "x": x, "y": y, "rot": r} for c, x, y, *rest in items
                                      for r in [rest[0] if rest else 0]]})


@pytest.fixture(scope="module")
def example():
    return town_of(EXAMPLE)


def test_rulebook_example_scores_20_in_groups(example):
    groups = largest_groups(example)
    assert groups == {"Desert": 4, "Forest": 1, "Mountains": 6, "Plains": 5, "Snow": 1, "Water": 3}
    assert sum(groups.values()) == 20
    assert reference_groups(visible_grid(example)) == groups


def test_rulebook_example_visible_grid(example):
    g = visible_grid(example)
    rows = {
        0: {4: ("Plains", "Cow"), 5: ("Plains", "Fort")},
        1: {0: ("Desert", "Wagon"), 1: ("Desert", "Gun"), 2: ("Desert", "Fort"), 3: ("Plains", "Beer"),
            4: ("Plains", "Mine"), 5: ("Forest", "Beer")},
        2: {0: ("Desert", "Cow"), 1: ("Mountains", "Fort"), 2: ("Mountains", "Cow"), 3: ("Mountains", "Cow"),
            4: ("Plains", "Gun")},
        3: {0: ("Water", "Mine"), 1: ("Water", "Beer"), 2: ("Mountains", "Fort"), 3: ("Mountains", "Mine")},
        4: {0: ("Snow", "Wagon"), 1: ("Water", "Gun"), 2: ("Desert", "Beer"), 3: ("Mountains", "Wagon")},
    }
    expected = {(x, y): Territory(*t) for y, row in rows.items() for x, t in row.items()}
    assert g == expected


# Hand-worked on the example town's grid (see the test above) against the pile 3, 5, 7:
# pile terrains Forest 5, Snow 3, Plains 2, Water 1, Desert 1 -> 3 most common = 10;
# pile icons Beer 3, Cow 3, Gun 2, Mine 2, Fort 1, Wagon 1; pile territories 12; player's 21.
HAND = {
    # Smalltown Charm: player 21 > 12 -> opponent scores 9. Boom or Bust: player Mines (4,1) (0,3)
    # (3,3) = 3 -> band 3-6 -> 0; opponent Mines 2 + Mountains 0 = 2 -> 5 x 2 = 10.
    "boomtown": ({"Smalltown Charm": 0, "Boom or Bust": 0}, 20, {"Smalltown Charm": 9, "Boom or Bust": 10}, 29),
    # Claim Jumpers: player 3 Mines > 2, but opponent Guns 2 + 2 = 4 > player's 3 -> 4 / 5.
    # Gold Country: only (3,3) is on/next to Mountains -> 2; opponent 2 x min(0 Mountains, 2 Mines) = 0.
    "gold-rush": ({"Claim Jumpers": 4, "Gold Country": 2}, 26, {"Claim Jumpers": 5, "Gold Country": 0}, 15),
    # Wagon Train: Wagons (0,1) (0,4) (3,4) never adjacent -> 0; opponent 1 Wagon -> 0.
    # Badlands: Gun (1,1) between Deserts (0,1), (2,1) -> 4; opponent 4 x min(2 Guns, 1 Desert) = 4.
    "through-the-desert": ({"Wagon Train": 0, "Badlands": 4}, 24, {"Wagon Train": 0, "Badlands": 4}, 14),
    # Bootleggers: Beer (2,4) next to Wagon (3,4): +2; 3 other Beers: -3 -> -1; opponent 2 x min(3, 1) = 2.
    # One Too Many: player 4 Beers > 3 -> loses 3; opponent never loses (and has fewer anyway).
    "out-drink-the-competition": ({"Bootleggers": -1, "One Too Many": -3}, 16,
                                  {"Bootleggers": 2, "One Too Many": 0}, 12),
    # The Herd: Cows (2,2)-(3,2) connected -> 2 x 2 = 4; Cool Water: Water group (0,3) (1,3) (1,4) has
    # Wagon (0,4) next to it -> 3. Opponent: 2 x 3 Cows = 6; 3 x 1 Wagon = 3.
    "water-the-herd": ({"The Herd": 4, "Cool Water": 3}, 27, {"The Herd": 6, "Cool Water": 3}, 19),
    # Happy Cows: no Cow touches Snow -> 4 x 2 = 8; Prairie Life (4 Cows + 5 Plains) // 2 = 4.
    # Opponent: 2 x 3 Cows = 6; 3 Cows + 2 Plains = 5 (no halving).
    "cattle-drive": ({"Happy Cows": 8, "Prairie Life": 4}, 32, {"Happy Cows": 6, "Prairie Life": 5}, 21),
}


@pytest.mark.parametrize("scenario", SCENARIO_IDS)
def test_hand_worked_example_town_per_scenario(example, scenario):
    goals, total, opp_goals, opp_total = HAND[scenario]
    f = final_scores(example, PILE, scenario)
    assert f.player.goals == goals
    assert f.player.total == total
    assert f.opponent.common == 10
    assert f.opponent.goals == opp_goals
    assert f.opponent.total == opp_total
    assert f.winner == ("player" if total > opp_total else "opponent")


@pytest.fixture(scope="module")
def small():
    # card 1 at (0,0): Mou/Fort Mou/Mine / Des/Beer Mou/Wagon; card 0 at (2,0): Pla/Cow Pla/Fort / Pla/Mine For/Beer
    return town_of([(1, 0, 0), (0, 2, 0)])


def test_hand_worked_small_town(small):
    g = features_of(small)
    goal = load_data().goal
    assert sum(largest_groups(small).values()) == 3 + 1 + 3 + 1  # Mountains 3, Desert 1, Plains 3, Forest 1
    assert player_goal(goal("Boom or Bust"), g) == 10       # 2 Mines -> 5 each
    assert player_goal(goal("Gold Country"), g) == 4        # Mine on Mountains + Mine next to Mountains
    assert player_goal(goal("Bootleggers"), g) == 1         # Beer next to Wagon +2, lone Beer -1
    assert player_goal(goal("Happy Cows"), g) == 2
    assert player_goal(goal("Cool Water"), g) == 0          # no Water at all
    assert player_goal(goal("The Herd"), g) == 2
    assert player_goal(goal("Prairie Life"), g) == 2        # (1 Cow + 3 Plains) // 2
    assert player_goal(goal("Wagon Train"), g) == 0
    assert player_goal(goal("Badlands"), g) == 0


def test_cool_water_tie_goes_the_players_way():
    # three single-Water groups; only the one at (2,0) has Wagons next to it (2 of them)
    town = town_of([(6, 0, 0), (16, 2, -1)])
    g = features_of(town)
    assert largest_groups(town)["Water"] == 1
    assert player_goal(load_data().goal("Cool Water"), g) == 6


def test_wagon_train_runs_in_rows_and_columns():
    # card 16 at (0,0): Wagons (0,0) (1,0) (1,1); card 8 turned at (0,2): Wagons (1,2) (0,3)
    town = town_of([(16, 0, 0), (8, 0, 2, 180)])
    assert player_goal(load_data().goal("Wagon Train"), features_of(town)) == 1 + 2  # row of 2, column of 3
    assert player_goal(load_data().goal("Wagon Train"), features_of(town_of([(16, 0, 0)]))) == 2


def test_boom_or_bust_bands():
    goal = load_data().goal("Boom or Bust")
    for mines, points in [(0, 0), (1, 5), (2, 10), (3, 0), (6, 0), (7, 21), (8, 64), (9, 72)]:
        grid = {(x, 0): Territory("Plains", "Mine") for x in range(mines)}
        assert player_goal(goal, features_of(grid)) == points, mines


def test_badlands_vertical_and_counted_once():
    d, gun = Territory("Desert", "Fort"), Territory("Forest", "Gun")
    grid = {(1, 1): gun, (0, 1): d, (2, 1): d, (1, 0): d, (1, 2): d}
    assert player_goal(load_data().goal("Badlands"), features_of(grid)) == 4
    grid = {(1, 1): gun, (1, 0): d, (1, 2): d}
    assert player_goal(load_data().goal("Badlands"), features_of(grid)) == 4
    grid = {(1, 1): gun, (1, 0): d, (2, 1): d}  # corner pair does not count
    assert player_goal(load_data().goal("Badlands"), features_of(grid)) == 0


def test_happy_cows_snow_on_or_next_to():
    cow_snow, cow, snow = Territory("Snow", "Cow"), Territory("Plains", "Cow"), Territory("Snow", "Fort")
    goal = load_data().goal("Happy Cows")
    assert player_goal(goal, features_of({(0, 0): cow_snow})) == 0
    assert player_goal(goal, features_of({(0, 0): cow, (1, 0): snow})) == 0
    assert player_goal(goal, features_of({(0, 0): cow, (1, 1): snow})) == 2  # diagonal is not adjacent


def test_comparing_cards_ties_and_leaders():
    goal = load_data().goal
    s = lambda t=0, b=0, m=0, g=0: Side(t, b, m, g)
    assert comparing_goal(goal("One Too Many"), s(b=3), s(b=3)) == (0, 0)
    assert comparing_goal(goal("One Too Many"), s(b=1), s(b=4)) == (0, -1)
    assert comparing_goal(goal("One Too Many"), s(b=1), s(b=4), opponent_can_lose=False) == (0, 0)
    assert comparing_goal(goal("Claim Jumpers"), s(m=2, g=5), s(m=2, g=0)) == (0, 0)
    assert comparing_goal(goal("Claim Jumpers"), s(m=3, g=1), s(m=2, g=1)) == (9, 0)  # equal Guns: leader keeps 9
    assert comparing_goal(goal("Claim Jumpers"), s(m=1, g=3), s(m=2, g=1)) == (5, 4)
    assert comparing_goal(goal("Smalltown Charm"), s(t=12), s(t=12)) == (0, 0)
    assert comparing_goal(goal("Smalltown Charm"), s(t=10), s(t=16)) == (6, 0)


def test_unknown_backs_are_never_invented(small):
    with pytest.raises(BadInput, match="The Clearing"):
        player_goal(load_data().goal("The Clearing"), features_of(small))


def test_later_edition_scores_per_card(example):
    # pile 3 (Snow, Water: 2 terrains), 5 (Forest, Plains: 2), 7 (Forest, Plains, Desert: 3)
    assert score_opponent(PILE, "cattle-drive", example, WagonsReadings(edition="later")).common == 3 + 3 + 2
    assert score_opponent(PILE, "cattle-drive", example, WagonsReadings(edition="later", difficulty="newcomer")).common == 6
    assert score_opponent(PILE, "cattle-drive", example, WagonsReadings(edition="later", difficulty="legend")).common == 8


def test_winner_and_w8_tie_break():
    assert winner_of(30, 30, 4, 2) == ("tie", "tie")
    assert winner_of(30, 30, 4, 2, WagonsReadings(tie_break="guns")) == ("player", "guns")
    assert winner_of(30, 30, 2, 2, WagonsReadings(tie_break="guns")) == ("tie", "tie")
    assert winner_of(29, 30, 9, 2, WagonsReadings(tie_break="guns")) == ("opponent", "total")
    # values (issue 31), equal to the strings the files carry
    from solver.wagons.scoring import DecidedBy, Winner

    assert winner_of(31, 30, 0, 0) == (Winner.PLAYER, DecidedBy.TOTAL)
    assert all(type(w) is Winner and type(d) is DecidedBy for w, d in (winner_of(30, 30, 0, 0), winner_of(1, 2, 0, 0)))


def test_goal_numbers_come_from_data(example, tmp_path):
    text = GOALS_FILE.read_text()
    (tmp_path / "goals.toml").write_text(text.replace("params = { per_wagon = 3 }", "params = { per_wagon = 5 }"))
    data = load_data(goals_path=str(tmp_path / "goals.toml"))
    assert score_player(example, "water-the-herd", PILE, data=data).goals["Cool Water"] == 5


def test_bad_pile_is_refused(example):
    with pytest.raises(BadInput, match="card 13"):
        score_player(example, "boomtown", (13,))
    with pytest.raises(BadInput, match="twice"):
        score_player(example, "boomtown", (3, 3))
    with pytest.raises(BadInput, match="scenario"):
        score_player(example, "no-such", ())


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 12), st.sampled_from(SCENARIO_IDS))
def test_bitboard_scorer_matches_reference(seed, n, scenario):
    town, pile = random_town(random.Random(seed), n)
    assert score_player(town, scenario, pile).to_dict() == reference_score_player(town, scenario, pile)


def test_placement_order_matters_for_covering():
    a = town_of([(0, 0, 0), (1, 1, 0)])
    b = town_of([(1, 1, 0), (0, 0, 0)])
    assert visible_grid(a)[(1, 0)] == Territory("Mountains", "Fort")   # card 1 on top
    assert visible_grid(b)[(1, 0)] == Territory("Plains", "Fort")      # card 0 on top
    assert Placement(0, 0, 0) in legal_placements(town_of([(1, 1, 0)]), 0)
