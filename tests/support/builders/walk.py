"""The compiled walk's scorer on one given town (tests only): the exhaustive oracle's scorer checked against the
ordinary one."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from solver.errors import BadInput
from solver.wagons.cards import card_codes
from solver.wagons.data import WagonsData, load_data
from solver.wagons.optimizer.walk import local
from solver.wagons.optimizer.walk.board import _put, board_size
from solver.wagons.optimizer.walk.compiled import njit
from solver.wagons.optimizer.walk.scorer import goal_tables, score_town
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import opponent_fixed
from solver.wagons.town import Town


@njit(cache=True)
def _score_placements(cc, xs, ys, rs, B, kind, scal, tab, tab_len, opp, can_lose):
    """(player total, opponent's comparing points) of a town given as board positions (for tests)."""
    n = cc.shape[0]
    NB = B * B
    ter = np.full(NB, -1, np.int8)
    ico = np.full(NB, -1, np.int8)
    occ = np.zeros(4 * n, np.int64)
    saved_t = np.zeros((n, 4), np.int8)
    saved_i = np.zeros((n, 4), np.int8)
    added = np.zeros(n, np.int64)
    nocc = 0
    for d in range(n):
        nocc = _put(d, (ys[d] * B + xs[d]) * 2 + rs[d], cc, ter, ico, occ, nocc, B, saved_t, saved_i, added)
    return score_town(ter, ico, occ, nocc, B, np.zeros(NB, np.int64), np.zeros(NB, np.int64), np.zeros(1, np.int64),
                      np.zeros(4 * n + 4, np.int64), kind, scal, tab, tab_len, opp, can_lose)


def compiled_score(town: Town, scenario_id: str, opponent_pile=(), readings: WagonsReadings = WagonsReadings(),
                   objective: str = "score", data: WagonsData | None = None) -> int:
    """The compiled walk's scorer's value of a legal ``town`` (player score, or margin against the pile), to be
    checked against ``score_player`` / ``final_scores`` (the product calls that scorer only inside the walk)."""
    data = (data or load_data()).for_readings(readings)  # rule:W11
    tables = goal_tables(scenario_id, tuple(opponent_pile), data)
    if tables is None:
        raise BadInput(f"scenario '{scenario_id}': its goal cards are outside what the compiled scorer handles")
    ps = town.placements
    n = len(ps)
    B, O = board_size(n)
    cc = np.zeros((n, 2, 4, 4), np.int64)
    codes = card_codes()
    for k, p in enumerate(ps):
        for r in range(2):
            cc[k, r] = codes[p.card][r]
    x0, y0 = ps[0].x, ps[0].y
    xs = np.array([p.x - x0 + O for p in ps], np.int64)
    ys = np.array([p.y - y0 + O for p in ps], np.int64)
    rs = np.array([int(p.rot != 0) for p in ps], np.int64)
    mine, theirs = _score_placements(cc, xs, ys, rs, B, *tables)
    if objective == "score":
        return int(mine)
    return int(mine - theirs - opponent_fixed(tuple(opponent_pile), scenario_id, readings, data))


def window_best(ids: Sequence[int], scenario_id: str, pile: tuple[int, ...], xyr, free: Sequence[int],
                objective: str, data: WagonsData) -> tuple[int, list[tuple[int, int, int]]] | None:
    """(value, town) of the local search's window: the best re-placement of the cards ``free`` in the town ``xyr`` (first card at
    (0, 0) unturned), by the compiled scorer; None when that scorer does not handle the scenario's cards
    (margin: without the opponent's fixed part)."""
    w = local._walker(ids, scenario_id, pile, objective, data)
    if w is None:
        return None
    v, codes = w.best(local._to_codes(xyr, w.B, w.O), free)
    return v, local._to_xyr(codes, w.B, w.O)
