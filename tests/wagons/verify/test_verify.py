"""The Lone Cowboy verifier (solver.wagons.verify.checks*): Z3 checks, their mutations, the engine cross-checks."""

import json

import pytest
import z3

from solver.cli import main
from solver.wagons.optimizer.bestplay import deal_state
from solver.wagons.readings import WagonsReadings
from solver.wagons.verify import checks as v
from solver.wagons.verify import scores as vs
from solver.wagons.verify.engine import random_games, replay
from solver.wagons.verify.model import GameModel, scenario_cards
from solver.z3check import Z3Run
from tests.support.depth import examples

KEYS = {"id", "title", "holds", "proven", "counterexample", "rule", "open_question", "details", "elapsed"}
SEED0 = {s: deal_state(s, seed=0) for s in ("cattle-drive", "boomtown")}


def _deal(scenario):
    st = SEED0[scenario]
    return tuple(st.circle + st.deck)


def run_cli(capsys, *argv):
    code = main(["wagons", "verify", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


MUTATION_BREAKS = {
    "skipped-cards-lost": "card-conservation", "deck-card-kept": "card-conservation",
    "player-may-pass": "termination", "round1-skip-3": "automaton", "two-picks": "automaton",
    "round2-no-default": "automaton", "corner-placement": "playability", "first-card-needs-edge": "playability",
    "player-scores-nothing": "winnability", "bound-ignores-groups": "score-bounds",
}
"""Which check each mutation of the verifier breaks."""


def test_every_check_has_a_mutation_that_breaks_it():
    assert set(MUTATION_BREAKS.values()) == set(v.CHECK_IDS)
    assert set(MUTATION_BREAKS) == set(v.mutation_names())


def test_cli_playability_holds_and_has_the_contract_keys(capsys):
    code, out, _ = run_cli(capsys, "--scenario", "cattle-drive", "--check", "playability", "--time-limit", "60", "--json")
    assert code == 0
    doc = json.loads(out)
    (c,) = doc["checks"]
    assert KEYS <= set(c) and c["holds"] is True and c["proven"] is True and c["counterexample"] is None
    assert c["details"]["town_sizes_checked"] == list(range(17))
    assert "Corner-only contact is illegal" in c["rule"]


@pytest.mark.parametrize("mutation", ["corner-placement", "first-card-needs-edge"])
def test_placement_mutations_break_playability_and_the_engine_disagrees(capsys, mutation):
    code, out, _ = run_cli(capsys, "--scenario", "cattle-drive", "--check", "playability", "--mutate", mutation,
                           "--time-limit", "60", "--json")
    (c,) = json.loads(out)["checks"]
    assert code == 0 and c["holds"] is False
    eng = c["counterexample"]["engine"]
    if mutation == "corner-placement":
        assert "only at a corner" in eng["engine_problem"]
    else:
        assert c["counterexample"]["cards"] == 0 and eng["legal_placements_next"] > 0


@pytest.mark.parametrize("argv, needle", [
    (["--mutate", "nonsense"], "--mutate"),
    (["--check", "nonsense"], "--check"),
    (["--scenario", "nowhere"], "--scenario"),
    (["--time-limit", "0"], "--time-limit"),
    (["--time-limit", "soon"], "--time-limit"),
    (["--rule", "bogus=1"], "unknown option"),
    (["--rule", "icon_source=sideways"], "icon_source"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, needle):
    code, out, err = run_cli(capsys, *argv, "--check", "playability", "--json")
    assert code == 2 and out == ""
    assert needle in err and len(err.strip().splitlines()) == 1


def test_help_lists_every_mutation(capsys):
    with pytest.raises(SystemExit):
        main(["wagons", "verify", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in v.mutation_names():
        assert name in text.replace("- ", "-")


def test_hand_worked_round1_match_in_the_z3_game():
    """Rulebook text, round 1: skip up to 2 cards for a card sharing terrain AND icon with the deck's top.
    Circle [0, 17, 15, ...], deck top 3 (Snow/Gun, Snow/Cow, Snow/Fort, Water/Mine): card 0 (Plains/Cow,
    Plains/Fort, Plains/Mine, Forest/Beer) and 17 (Forest/Cow, Water/Beer, Mountains/Beer, Plains/Beer)
    share no (terrain, icon) with it, 15 has Water/Mine: the opponent skips 0 and 17 and takes 15 and 3."""
    ctx = z3.Context()
    m = GameModel(ctx, "boomtown")
    circle = [6, 2, 1, 8, 13, 0, 17, 15]
    deck = [3, 14, 12, 5, 7, 11, 16, 10]
    assert sorted(circle + deck) == sorted(scenario_cards("boomtown"))
    m.s.add(*[d == x for d, x in zip(m.deal, circle + deck)])
    m.s.add(m.steps[0].k == 1, m.steps[2].k == 1)  # the player takes 2, then 13
    assert m.s.check() == z3.sat
    tr = m.trace(m.s.model())
    t4 = tr["turns"][3]
    assert t4["circle"] == [0, 17, 15] and t4["deck_top"] == 3
    assert t4["k"] == 2 and t4["deck_match"] is True and t4["readings_pick"] == [2]
    assert tr["turns"][4]["round"] == 2 and tr["turns"][4]["circle"] == deck[1:]


def test_z3_game_agrees_with_the_engine_on_random_games():
    m = v._game(Z3Run(120), "gold-rush", WagonsReadings(), frozenset())
    n = examples(2, 4)  # games pinned
    r = v.pin_random_games(m, "gold-rush", WagonsReadings(), n, seed=7)
    assert r["games"] == n and r["agree"] == n, r["first_difference"]


def test_replay_catches_a_trace_the_engine_does_not_play():
    g = random_games("cattle-drive", 1, seed=3)[0]
    trace = {"circle": g["circle"], "deck": g["deck"], "player_drafts": g["player_drafts"],
             "turns": [dict(t, who=t["who"]) for t in g["turns"]]}
    assert replay("cattle-drive", trace).agrees is True
    opp = next(i for i, t in enumerate(trace["turns"]) if t["who"] == "opponent")
    trace["turns"][opp] = dict(trace["turns"][opp], k=trace["turns"][opp]["k"] + 1)
    assert replay("cattle-drive", trace).agrees is False


def test_goal_number_readings_cover_the_base_rules():
    readings = vs.goal_number_readings()
    assert readings and all(isinstance(r, WagonsReadings) for _, r in readings)
    assert any(r == WagonsReadings() for _, r in readings) or all(chosen for chosen, _ in readings)


def test_winnability_mutation_rejects_the_engine_win():
    c = vs.check_winnability("cattle-drive", WagonsReadings(), frozenset({"player-scores-nothing"}), time_limit=30)
    assert c.holds is False
    cex = c.counterexample
    assert cex["replay_winner"] == "player" and cex["bound_model_allows"] is False


@pytest.mark.slow
def test_winnability_cattle_drive_has_a_replayable_win():
    c = vs.check_winnability("cattle-drive", WagonsReadings(), frozenset(), time_limit=30)
    assert c.holds is True
    win = c.details["readings"][0]["win"]
    again = vs.replay_script("cattle-drive", win["seed"], win["script"]["actions"], WagonsReadings())
    assert again.scores.winner == "player" and again.scores.player.total == win["player"]


@pytest.mark.slow
def test_score_bound_is_above_every_engine_game_and_its_mutation_fails():
    c = vs.check_score_bounds("water-the-herd", WagonsReadings(), frozenset(), time_limit=20, games=examples(3, 10))
    assert c.holds is True and c.details["player"]["proven"]
    assert c.details["player"]["bound"] >= c.details["player"]["witness"]["total"]
    assert c.details["opponent"]["bound"] >= c.details["opponent"]["witness"]["total"]
    # Cattle Drive's goal cards alone (2 per Cow, (Cows + Plains) / 2) stay below a good town's total
    bad = vs.check_score_bounds("cattle-drive", WagonsReadings(), frozenset({"bound-ignores-groups"}), time_limit=40,
                                games=examples(5, 30))
    assert bad.holds is False and bad.counterexample["engine_total"] > bad.counterexample["bound"]


# Cattle Drive deals on which Z3 (unpinned, every deal) found each automaton mutation's counterexample
MUTATION_DEALS = {
    "round1-skip-3": (3, 5, 8, 4, 0, 12, 7, 13, 14, 10, 17, 16, 9, 11, 2, 15),
    "two-picks": (9, 13, 10, 14, 2, 15, 7, 5, 0, 4, 3, 17, 8, 16, 12, 11),
    "round2-no-default": (15, 2, 13, 9, 12, 7, 14, 11, 5, 3, 17, 4, 0, 10, 8, 16),
}


@pytest.mark.slow
@pytest.mark.parametrize("check, mutation", [
    (v.check_conservation, "skipped-cards-lost"),
    (v.check_conservation, "deck-card-kept"),
    (v.check_termination, "player-may-pass"),
    (v.check_automaton, "round1-skip-3"),
    (v.check_automaton, "two-picks"),
    (v.check_automaton, "round2-no-default"),
])
def test_game_mutations_break_their_check_on_one_deal(check, mutation):
    deal = MUTATION_DEALS.get(mutation, _deal("cattle-drive"))
    c = check("cattle-drive", WagonsReadings(), frozenset({mutation}), time_limit=120, deal=deal)
    assert c.holds is False and c.counterexample["game"]["circle"] == list(deal[:8])
    if mutation == "two-picks":  # two actions named; Z3 may then play the one the engine plays
        assert len(c.counterexample["turn"]["readings_pick"]) == 2
    else:
        assert c.counterexample["engine"]["agrees"] is False or mutation == "skipped-cards-lost"
    if mutation == "skipped-cards-lost":  # the engine keeps every card on this line
        assert c.counterexample["engine"]["cards_once"] is True


@pytest.mark.slow
def test_unmutated_game_checks_hold_on_one_deal():
    deal = _deal("boomtown")
    assert v.check_conservation("boomtown", WagonsReadings(), frozenset(), time_limit=120, deal=deal).holds is True
    assert v.check_automaton("boomtown", WagonsReadings(), frozenset(), time_limit=120, gaps=False, deal=deal).holds is True
    t = v.check_termination("boomtown", WagonsReadings(), frozenset(), time_limit=120, deal=deal)
    assert t.holds is True
    assert t.details["longest_game_turns"] <= v.TURN_BOUND and t.details["engine"]["agrees"] is True


@pytest.mark.parametrize("pick, take", [("first", 2), ("last", 15)])
def test_round1_pick_reading_in_the_engine_and_the_z3_game(pick, take):
    """Round 1, deck top 3 (its Water/Mine): cards 2 and 15 both show Water/Mine, card 0 does not.
    W1-pick 'first' takes 2 (no skip); 'last' skips 2 and 0 and takes 15."""
    from solver.wagons.opponent import round1_decision

    readings = WagonsReadings(round1_pick=pick)
    d = round1_decision((2, 0, 15, 1), deck_top=3, readings=readings)
    assert d.take == take and d.deck_card == 3
    ctx = z3.Context()
    m = GameModel(ctx, "boomtown", readings)
    deal = [5, 2, 0, 15, 1, 6, 7, 8, 3, 10, 11, 12, 13, 14, 16, 17]
    m.s.add(*[x == c for x, c in zip(m.deal, deal)], m.steps[0].k == 0)
    assert m.s.check() == z3.sat
    t2 = m.trace(m.s.model())["turns"][1]
    assert t2["circle"][:3] == [2, 0, 15] and t2["circle"][t2["k"]] == take and t2["deck_match"] is True
