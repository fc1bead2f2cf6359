"""Builders the Lone Cowboy tests share: random towns, small deals solved by brute force, the hard town."""

from __future__ import annotations

import random

from ortools.sat.python import cp_model

from solver.wagons.data import load_data
from solver.wagons.game import apply, is_over, legal_actions, scores
from solver.wagons.optimizer.cpsat import model as cps
from solver.wagons.optimizer.lines import deal_state
from solver.wagons.optimizer.problem import card_quads
from solver.wagons.scoring import pile_counts
from solver.wagons.town import Town, legal_placements, place


def random_town(rng: random.Random, n: int) -> tuple[Town, tuple[int, ...]]:
    """A random legal town of ``n`` cards (each step a uniformly chosen legal placement, covers
    included) and a random opponent pile from the cards left."""
    ids = list(range(18))
    rng.shuffle(ids)
    town = Town()
    for c in ids[:n]:
        town = place(town, rng.choice(legal_placements(town, c)))
    return town, tuple(ids[n:n + rng.randint(0, 18 - n)])


def best_margin_by_brute_force(state) -> int:
    if is_over(state):
        return scores(state).margin
    return max(best_margin_by_brute_force(apply(state, a)) for a in legal_actions(state))


def free_cards(scenario, n, skip=0):
    removed = set(deal_state(scenario, seed=0).removed)
    return [c for c in range(18) if c not in removed][skip:skip + n]


SMALL = [("boomtown", (2, 2), 0), ("cattle-drive", (2, 2), 3), ("gold-rush", (3, 1), 5),
         ("out-drink-the-competition", (2, 2), 8), ("water-the-herd", (3, 2), 2), ("through-the-desert", (2, 2), 6),
         ("boomtown", (3, 2), 9), ("cattle-drive", (2, 3), 10)]


def small_deal(scenario, split, skip):
    cards = free_cards(scenario, sum(split), skip)[::-1]
    return cards[:split[0]], cards[split[0]:]


# The player's cards and the opponent's pile of the greedy Through the Desert game, seed 108, and a town
# of those cards that the engine scores 32: no proof of it has been seen within a minute.
HARD_CARDS, HARD_PILE = (6, 9, 11, 3, 4, 2, 15, 5), (8, 16, 14, 17, 1, 7, 12, 13)
HARD_TOWN = ((6, 0, 0, 0), (9, 1, -2, 0), (11, 3, -1, 0), (3, 2, 0, 0), (4, 5, -2, 180), (2, 4, 1, 0),
             (15, -1, -2, 0), (5, -2, 0, 180))


def beat_the_hard_town(seconds: float):
    """(model, solver): :data:`HARD_CARDS`' model asked for more than its best known 32, and a one-worker solver
    limited to ``seconds``."""
    data = load_data()
    model = cps.encode(card_quads(HARD_CARDS))
    total, _, _ = cps.player_score(model, data.scenario("through-the-desert"), data, pile_counts(HARD_PILE))
    model.m.add(total >= 33)
    model.m.maximize(total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = seconds
    return model, solver
