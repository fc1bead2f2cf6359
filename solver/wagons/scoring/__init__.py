"""Lone Cowboy scoring (rule:W7, rule:W6, rule:W8): the public names other modules import.

- :mod:`.totals`: the player's and the opponent's final scores and the winner (the rules);
- :mod:`.goals`: the goal cards by kind (player cards, comparing cards, the opponent's readings);
- :mod:`.bitboards`: the town's bitboards and the pile's packed counts (the speed-ups);
- :mod:`.by_reading`: the final scores under each reading of a low-confidence number, side by side.

Import from here (``from solver.wagons.scoring import final_scores``); the submodules import one
way: ``bitboards`` <- ``goals`` <- ``totals`` <- ``by_reading``.
"""

from solver.wagons.scoring import bitboards, goals, totals
from solver.wagons.scoring.bitboards import (
    PileCounts,
    TownFeatures,
    features_of,
    features_plus,
    frame_features,
    group_of,
    growth_frame,
    largest_group_size,
    largest_group_size_uncached,
    largest_groups,
    pile_counts,
    placements_features,
    town_features,
)
from solver.wagons.scoring.by_reading import scores_by_reading
from solver.wagons.scoring.goals import (
    COMPARING,
    COMPARING_GOALS,
    PLAYER_GOALS,
    Side,
    boom_points,
    comparing_goal,
    opponent_goal,
    opponent_mines,
    player_goal,
    run_partition_best,
    run_points,
)
from solver.wagons.scoring.totals import (
    DecidedBy,
    FinalScores,
    OpponentScore,
    PlayerScore,
    Winner,
    common_score,
    final_scores,
    is_low_confidence,
    later_card_score,
    low_confidence,
    margin_of,
    margin_scorer,
    opponent_fixed,
    score_opponent,
    score_player,
    winner_of,
)

__all__ = ["largest_groups", "score_player", "score_opponent", "final_scores", "PlayerScore", "OpponentScore",
           "FinalScores", "Winner", "DecidedBy", "TownFeatures", "town_features", "pile_counts", "PileCounts", "winner_of", "growth_frame",
           "frame_features", "features_plus", "margin_of", "margin_scorer", "opponent_fixed", "common_score",
           "later_card_score", "features_of", "player_goal", "comparing_goal", "opponent_goal", "Side", "COMPARING",
           "PLAYER_GOALS", "COMPARING_GOALS", "boom_points", "run_points", "run_partition_best", "group_of", "largest_group_size",
           "largest_group_size_uncached", "placements_features", "clear_caches", "opponent_mines",
           "low_confidence", "is_low_confidence", "scores_by_reading"]


def clear_caches(tables: bool = False) -> None:
    """Forget every per-town and per-pile result; with ``tables`` also the per-card, per-frame-shape and
    per-scenario tables and the compiled goal cards (built once per process in normal use)."""
    bitboards.clear_caches(tables)
    if tables:
        goals.clear_caches()
        totals.clear_caches()
