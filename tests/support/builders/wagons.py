"""Builders the Lone Cowboy tests share: random towns, small deals solved by brute force, the hard town."""

from __future__ import annotations

import random
from pathlib import Path

from ortools.sat.python import cp_model

from solver.wagons.data import load_data
from solver.wagons.game import apply, is_over, legal_actions, scores
from solver.wagons.optimizer.cpsat import encode as cps_encode
from solver.wagons.optimizer.cpsat import goals as cps_goals
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
    model = cps_encode.encode(card_quads(HARD_CARDS))
    total, _, _ = cps_goals.player_score(model, data.scenario("through-the-desert"), data, pile_counts(HARD_PILE))
    model.m.add(total >= 33)
    model.m.maximize(total)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = seconds
    return model, solver


def scenario_with_kind(kind: str, data=None):
    """``(data, scenario id, goal card name)``: a scenario scoring a card of goal kind ``kind``: the shipped
    scenario that uses one, else Cattle Drive with its first card replaced by the first card of that kind in
    ``data``'s goals (the opponent scoring it "as-player" when it can, else 2 per Cow in its pile)."""
    from dataclasses import replace

    from solver.wagons import goal_kinds
    from solver.wagons.data import SCENARIO_IDS, OpponentReading

    data = data or load_data()
    for s in SCENARIO_IDS:
        for name in data.scenario(s).goals:
            if data.goal(name).kind == kind:
                return data, s, name
    card = next(g for g in data.goals if g.kind == kind and g.known)
    spec = data.scenario("cattle-drive")
    keep = spec.goals[1]
    if goal_kinds.kind(kind).family == "position":
        reading = OpponentReading(card.name, "per-symbol", icons=("Cow",), points=2)
    else:
        reading = OpponentReading(card.name, "as-player")
    new = replace(spec, goals=(card.name, keep), opponent=(reading, spec.reading(keep)))
    return replace(data, scenarios=tuple(new if s.id == spec.id else s for s in data.scenarios)), spec.id, card.name


TOY_KIND = "gun-show"
"""A counting kind the catalogue does not list (tests only): 3 per Gun and per Desert, halved, rounded down."""


def with_toy_counting_kind(monkeypatch):
    """Add :data:`TOY_KIND` to the catalogue (for the test that uses ``monkeypatch``) and a card of it to the data:
    ``(data, scenario id, card name)`` as :func:`scenario_with_kind` gives them (its kind counts a terrain and an
    icon, as Prairie Life does, but other ones)."""
    from dataclasses import replace

    from solver.wagons import goal_kinds
    from solver.wagons.data import GoalSpec

    toy = goal_kinds.GoalKind(TOY_KIND, "W-goal-toy", "counting", ("per_symbol",), counts=("Gun", "Desert"),
                              score=lambda goal, total: total * goal.param("per_symbol") // 2)
    monkeypatch.setattr(goal_kinds, "KINDS", goal_kinds.KINDS + (toy,))
    monkeypatch.setattr(goal_kinds, "NAMES", goal_kinds.NAMES + (TOY_KIND,))
    monkeypatch.setattr(goal_kinds, "COUNTING", goal_kinds.COUNTING + (TOY_KIND,))
    data = load_data()
    card = GoalSpec("Gun Show", TOY_KIND, True, "3 per Gun and per Desert, halved", "test", "tests/support/builders/wagons.py",
                    (("per_symbol", 3),), (("per_symbol", "test"),))
    return scenario_with_kind(TOY_KIND, replace(data, goals=data.goals + (card,)))


def zygote_pid() -> int | None:
    """The pid of this process's proof-worker zygote (:mod:`solver.wagons.optimizer.proofworkers`), or None when
    none runs: the tests check that no worker outlives a search."""
    import os

    from solver.wagons.optimizer import proofworkers

    z = proofworkers._ZYGOTE
    return z["process"].pid if z and z["owner"] == os.getpid() and z["process"].poll() is None else None


OLD_SHAPES = Path(__file__).resolve().parents[2] / "scenarios" / "wagons"
"""Lone Cowboy games saved in the shapes written before the one game record (real outputs of that code):
``old-play-*.json`` (`wagons play --json`), ``old-state-*.json`` (the whole-state document), ``old-record.json``
(a game file) and ``old-kept.json`` (the dashboard's kept game ``{"record", "at"}``)."""


def older_play_output(doc: dict) -> dict:
    """A `wagons play --json` output as it was printed before it carried its game record (the same keys less
    ``game``, ``version``, ``deal`` and ``actions``)."""
    return {k: v for k, v in doc.items() if k not in ("game", "version", "deal", "actions")}
