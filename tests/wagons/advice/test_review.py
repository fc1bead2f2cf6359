"""After the game (rule:W-advice): the turns where the player's choice lost the most expected margin against the
advised one, in words ("turn 5: drafting card 11 instead of card 3 cost about 4 points"), from the Python function
the pages call and in `wagons replay --review --json`."""

from __future__ import annotations

import json

from solver import cli
from solver.wagons.advice.engine import advise
from solver.wagons.advice.result import action_advice
from solver.wagons.advice.review import choice_line, review_choices
from solver.wagons.advice.rollout import Outcome
from solver.wagons.game import Draft, OpponentTurn, Place, apply, legal_actions, new_game
from solver.wagons.record.game_record import game_record
from solver.wagons.town import Placement

SAMPLES = 4


def _play(scenario: str, seed: int, blunder_at: int | None = None):
    """A seeded game taking the advice at every decision, except the ``blunder_at``-th decision with a choice,
    where the player drafts the last card of the circle (skipping every other)."""
    s, n = new_game(scenario, seed), 0
    while s.to_move is not None:
        if s.to_move == "opponent":
            s = apply(s, OpponentTurn())
            continue
        actions = legal_actions(s)
        if len(actions) > 1:
            n += 1
        if n == blunder_at and isinstance(actions[0], Draft) and len(actions) > 2:
            s = apply(s, actions[-1])
            blunder_at = -1
        else:
            s = apply(s, advise(s, samples=SAMPLES, bound=False).best.action)
    return s


def test_a_game_that_took_the_advice_costs_nothing():
    review = review_choices(_play("cattle-drive", 2), samples=SAMPLES)
    assert review.complete and review.decisions == len(review.turns) >= 8
    assert all(t.cost == 0 for t in review.turns) and review.lines() == []


def test_the_costliest_choice_is_named_first_in_words():
    game = _play("gold-rush", 5, blunder_at=1)
    first = game.log[1]
    assert first.what == "draft" and len(first.skipped) >= 2
    review = review_choices(game, samples=SAMPLES)
    worst = review.costly()[0]
    assert worst.decision == "draft" and worst.chosen.card == first.card and worst.cost >= 1
    assert review.lines()[0] == (f"turn 1: drafting card {first.card} instead of card {worst.advised.card} cost about "
                                 f"{round(worst.cost)} point{'s' if round(worst.cost) != 1 else ''}")
    assert worst.interval[0] <= worst.cost <= worst.interval[1]


def test_the_lines_read_as_a_player_says_them():
    draft = action_advice(new_game("gold-rush", 1), Draft(2), [Outcome(3, "player")], True)
    other = action_advice(new_game("gold-rush", 1), Draft(0), [Outcome(7, "player")], True)
    assert choice_line(5, draft, other, 4.2) == \
        f"turn 5: drafting card {draft.card} instead of card {other.card} cost about 4 points"
    s = new_game("gold-rush", 1)
    here, there = Placement(s.circle[0], 1, 0, 180), Placement(s.circle[0], 0, 2, 0)
    mine = action_advice(s, Place(here), [Outcome(0, "tie")], True)
    best = action_advice(s, Place(there), [Outcome(1, "player")], True)
    assert choice_line(3, mine, best, 0.6) == \
        f"turn 3: placing card {here.card} at (1, 0) turned 180 instead of at (0, 2) cost about 1 point"


def test_the_review_stops_at_its_time_limit():
    review = review_choices(_play("cattle-drive", 2), samples=SAMPLES, time_limit=0.05)
    assert not review.complete and len(review.turns) < review.decisions


def test_replay_review_json_gives_the_same_lines(tmp_path, capsys):
    game = _play("gold-rush", 5, blunder_at=1)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_record(game)))
    assert cli.main(["wagons", "replay", str(path), "--review", "--samples", str(SAMPLES), "--json", "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)["advice_review"]
    assert doc["complete"] and doc["lines"] == review_choices(game, samples=SAMPLES).lines()
    assert doc["lines"][0].startswith("turn 1: drafting card") and doc["costly"][0]["cost"] >= 1
    assert cli.main(["wagons", "replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["advice_review"] is None
