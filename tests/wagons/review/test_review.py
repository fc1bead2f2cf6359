"""The after-game review (solver.wagons.review.town): the best layout of the same cards, its breakdown, and
the gap per scoring part, against a town argued on paper and the exhaustive oracle."""

from __future__ import annotations

import pytest

from solver.errors import BadInput
from solver.wagons.game import new_game
from solver.wagons.optimizer.oracle import exhaustive_best
from solver.wagons.review.town import aligned, review, review_town
from solver.wagons.scoring import final_scores, score_player
from solver.wagons.simulate import play_game
from solver.wagons.town import Placement, Town, place, visible_grid

# Cattle Drive (Happy Cows: 2 per Cow not on or next to Snow; Prairie Life: (Cows + Plains) // 2).
# Card 0 = Plains/Cow, Plains/Fort, Plains/Mine, Forest/Beer; card 5 = Forest/Beer, Forest/Wagon,
# Plains/Gun, Forest/Cow (tl, tr, bl, br). Neither card shows Snow, so both Cows always count.
# On paper: the 8 territories are 4 Plains and 4 Forest with 2 Cows. Covering hides a territory, so
# every town shows at most 8; groups <= 8, Happy Cows <= 4, Prairie Life <= (2 + 4) // 2 = 3.
# Groups 8 needs card 5's Plains next to card 0's Plains AND its Forests next to card 0's Forest
# with no overlap; checking the 4 Forest neighbours of card 0 ((2,1), (1,2)) in both turns shows
# every such spot either overlaps card 0 or puts card 5's Plains away from card 0's, so groups <= 7
# uncovered; covered, at most 7 territories show and the goals drop to at most 4 + 2 = 6. Best: 14.
# Card 5 unturned at (2,0) leaves Forest (1,1) apart: groups 3 + 3 = 6, goals 4 + 3 = 7, total 13.
HAND = Town((Placement(0, 0, 0, 0), Placement(5, 2, 0, 0)))
HAND_BEST = 14


def test_a_hand_built_town_one_point_short_of_the_best():
    r = review_town(HAND, (), "cattle-drive", time_limit=30)
    assert r.mine.player.total == 13
    assert r.proven and r.best.player.total == HAND_BEST and r.gap == 1
    assert r.mine.player.groups["Plains"] == 3 and r.mine.player.groups["Forest"] == 3
    # the best layout joins either all 4 Plains or all 4 Forest (both reach 7 in groups)
    assert sorted((r.best.player.groups["Plains"], r.best.player.groups["Forest"])) == [3, 4]
    assert [p.gap for p in r.parts if p.kind == "goal"] == [0, 0]
    lost = [p for p in r.parts if p.gap]
    assert len(lost) == 1 and lost[0].gap == 1 and "1 point was lost here" in lost[0].explanation
    assert "left on the table" in r.headline() and "proven optimal" in r.headline()


def test_the_best_layout_re_scored_equals_its_reported_score_and_the_gaps_add_up():
    state = play_game("water-the-herd", "random", 1).state
    r = review(state, time_limit=20)
    town = Town()
    for p in r.best_town.placements:  # every placement legal, in the order received
        town = place(town, p)
    assert r.best_town.card_ids == state.town.card_ids == r.cards
    assert score_player(r.best_town, r.scenario, r.pile, r.readings).total == r.best.player.total
    assert final_scores(r.best_town, r.pile, r.scenario, r.readings) == r.best
    assert sum(p.gap for p in r.parts) == r.gap == r.best.player.total - r.mine.player.total
    assert sum(p.player for p in r.parts) == r.mine.player.total
    assert sum(p.best for p in r.parts) == r.best.player.total
    assert [p.label for p in r.parts][:6] == [f"Largest {t} group" for t in
                                             ("Desert", "Forest", "Mountains", "Plains", "Snow", "Water")]
    assert [p.name for p in r.parts if p.kind == "goal"] == ["The Herd", "Cool Water"]


@pytest.mark.parametrize("scenario,seed", [("gold-rush", 1), ("cattle-drive", 2)])
def test_the_best_layout_matches_the_exhaustive_oracle(scenario, seed):
    """Small finished games (4 cards; Gold Rush's Claim Jumpers compares with the opponent's pile)."""
    state = play_game(scenario, "random", seed).state
    assert len(state.town.placements) <= 5
    r = review(state, time_limit=30)
    oracle = exhaustive_best(state.town.card_ids, scenario, state.pile, state.readings)
    assert r.proven and r.best.player.total == oracle.value
    assert r.gap == oracle.value - final_scores(state.town, state.pile, scenario, state.readings).player.total


def test_a_cut_short_search_says_not_proven_and_never_reports_below_the_players_town():
    state = play_game("gold-rush", "greedy", 0).state
    r = review(state, time_limit=0.05)
    assert not r.proven
    assert r.best.player.total >= r.mine.player.total
    if r.own_town_kept:
        assert r.best_town == r.town and r.gap == 0
    assert "not proven" in r.headline()
    assert sum(p.gap for p in r.parts) == r.gap
    d = r.to_dict()
    assert d["proven"] is False and d["gap"] == r.gap and len(d["parts"]) == 8


def test_aligned_puts_a_moved_and_turned_copy_back_on_the_town():
    town = Town((Placement(13, 1, 1), Placement(4, 0, 1), Placement(14, 3, 1), Placement(0, 4, 0)))
    turned = Town(tuple(Placement(p.card, -p.x - 1 + 7, -p.y - 1 - 3, (p.rot + 180) % 360) for p in town.placements))
    back = aligned(turned, town)
    assert visible_grid(back) == visible_grid(town)
    assert score_player(back, "boomtown", ()).total == score_player(town, "boomtown", ()).total


def test_unfinished_games_and_empty_towns_are_refused():
    with pytest.raises(BadInput, match="not over yet"):
        review(new_game("boomtown", 0), time_limit=1)
    with pytest.raises(BadInput, match="no cards"):
        review_town(Town(), (), "boomtown", time_limit=1)
    with pytest.raises(BadInput):
        review_town(HAND, (), "nosuch", time_limit=1)
    with pytest.raises(BadInput, match="time limit"):
        review_town(HAND, (), "cattle-drive", time_limit=0)
