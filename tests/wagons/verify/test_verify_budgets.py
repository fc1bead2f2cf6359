"""What a Lone Cowboy check spends its time on: the sweep's winnability leaves out the loss search (same holds),
the score bounds' witness layout is capped whatever the run's limit, and the game's solver presolves."""

import z3

from solver.wagons.readings import WagonsReadings
from solver.wagons.verify import model as verify_model
from solver.wagons.verify import scores as vs


def test_winnability_without_the_loss_search_keeps_holds():
    whole = vs.check_winnability("gold-rush", WagonsReadings(), time_limit=4)
    won_only = vs.check_winnability("gold-rush", WagonsReadings(), time_limit=4, loss_search=False)
    assert whole.holds is True and won_only.holds is True
    assert [r["win"]["seed"] for r in whole.details["readings"]] == \
        [r["win"]["seed"] for r in won_only.details["readings"]]
    assert all(r["unwinnable_deal"] is None and r["deals_tried_for_a_loss"] == 0
               for r in won_only.details["readings"])


def test_the_witness_layout_is_capped_whatever_the_run_limit(monkeypatch):
    asked = []
    monkeypatch.setattr(vs, "best_town_score", lambda cards, sc, pile, readings, limit, data=None: asked.append(limit))
    res = vs.check_score_bounds("gold-rush", WagonsReadings(), time_limit=3600, games=3)
    assert res.holds is True and asked == [vs.WITNESS_LAYOUT_SECONDS]


def test_the_game_model_presolves_and_keeps_its_timeout():
    ctx = z3.Context()
    s = verify_model.game_solver(ctx)
    x = z3.Int("x", ctx)
    s.set("timeout", 1000)
    s.add(x == 3)
    s.push()
    s.add(x > 5)
    assert s.check() == z3.unsat
    s.pop()
    assert s.check() == z3.sat and s.model().eval(x).as_long() == 3
    assert verify_model.PRESOLVE[-1] == "smt"
