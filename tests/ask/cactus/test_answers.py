"""Cactus Town's questions through the engine and the command line: the shipped examples get their recorded answers,
the chances meet the seeded Monte Carlo of the real cards, the duel domains meet the duel odds, and bad questions
get one line naming their bad part."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from solver.ask import condition as cm
from solver.ask.engine import ask, wilson
from solver.ask.examples import examples
from solver.ask.question import Question, question_from_doc
from solver.cactus import odds
from solver.cactus.duel import duel_odds
from solver.cactus.questions import decks, duels
from solver.cactus.readings import CactusReadings
from solver.cli import main

NAMES = [e.name for e in examples() if e.question.game == "cactus"]


def deck_question(quantifier: str, where: str | None, players: int = 4, measure: str | None = None,
                  readings: tuple = (), **params) -> Question:
    doc = {"game": "cactus", "ask": quantifier, "domain": {"kind": "event-deck", "players": players, **params}}
    if where:
        doc["where"] = where
    if measure:
        doc["measure"] = measure
    if readings:
        doc["readings"] = dict(readings)
    return question_from_doc(doc)


def test_at_least_eight_examples_of_every_quantifier():
    qs = [e.question.quantifier for e in examples() if e.question.game == "cactus"]
    assert len(qs) >= 8 and {"exists", "forall", "max", "min", "chance"} <= set(qs)


@pytest.mark.parametrize("name", NAMES)
def test_each_example_gets_its_answer_through_the_command_line(name, capsys):
    code = main(["ask", "--examples", name, "--json", "--quiet"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["as_expected"], (out["answer"], out["expected"])
    assert out["proven"] and (out["witness"] is not None or out["verdict"] in ("no", "yes"))


def test_the_solo_chance_is_the_marshal_odds_exactly():
    exact = odds.distribution(odds.MarshalQuery(None))
    for rnd, p in exact.items():
        a = ask(deck_question("chance", f"marshal.round == {rnd}", players=1))
        assert a.exact and a.value == p
    assert ask(deck_question("chance", "marshal.round == 6", players=1)).value == Fraction(1, 3)


@pytest.mark.parametrize("players", [2, 4])
def test_the_chances_meet_the_seeded_monte_carlo_of_the_real_cards(players):
    counts = odds.simulate_chunk(2000, 11, odds.MarshalQuery(players))
    n = sum(counts.values())
    for rnd in range(6, 14):
        a = ask(deck_question("chance", f"marshal.round == {rnd}", players=players))
        lo, hi = wilson(counts.get(str(rnd), 0), n)
        assert a.exact and lo - 1e-9 <= float(a.value) <= hi, (rnd, a.value, lo, hi)
        assert a.value == odds.distribution(odds.MarshalQuery(players)).get(rnd, 0)


def test_a_domain_too_large_for_exact_chances_is_estimated_from_real_deals():
    """Sandstorm and Shootout told apart make 330,873 layouts: the chance is a seeded estimate whose interval holds
    the exact figure (the extra conditions always hold)."""
    q = deck_question("chance", "marshal.round == 9 and event.sandstorm.times >= 0 and event.shootout.times >= 0")
    a = ask(q, time_limit=2)
    exact = odds.distribution(odds.MarshalQuery(4))[9]
    assert not a.exact and a.samples and a.interval[0] <= float(exact) <= a.interval[1]


def test_the_rounds_seen_match_the_companion():
    from solver.cactus import companion

    seen = [{"event": "train", "train_discard": "tumbleweed"}, {"event": "stagecoach"}]
    rep = companion.report(2, CactusReadings(), [companion.record_from_json(r, i) for i, r in enumerate(seen, 1)])
    for rnd, p in rep["steps"][-1]["rounds"].items():
        a = ask(deck_question("chance", f"marshal.round == {rnd}", players=2, seen=seen))
        assert a.value == Fraction(p)
    assert ask(deck_question("exists", "event.train.round == 1", players=2, seen=seen)).verdict == "yes"


def test_the_witness_is_a_deck_played_round_by_round():
    a = ask(deck_question("exists", "marshal.how == train", players=3))
    w = a.witness
    assert w["format"] == "cactus-deck-order/1" and w["end_cause"] == "train"
    train = w["deck_top_first"].index("train")
    assert w["deck_top_first"][train + 1] == "marshal" and w["ends_in_round"] == len(w["rounds"])
    assert w["rounds"][-1]["event"] == "train"


def test_the_duel_domain_is_the_duel_odds():
    for event in duels.EVENTS:
        o = duel_odds(2, 1, () if event == "none" else (event,))
        q = question_from_doc({"game": "cactus", "ask": "chance", "where": "duel.won",
                               "domain": {"kind": "duel", "initiator_shot": 2, "defender_shot": 1, "event": event}})
        assert ask(q).value == Fraction(o["win"])


def test_every_small_duel_brute_force():
    best = max(Fraction(duel_odds(a, d, () if e == "none" else (e,), shootout_duel=s)["win"])
               for e in duels.EVENTS for s in ((False, True) if e == "shootout" else (False,))
               for a in range(3) for d in range(3) if a < d)
    q = question_from_doc({"game": "cactus", "ask": "most", "measure": "duel.win", "where": "shot.lead < 0",
                           "domain": {"kind": "duels", "shots": 2}})
    a = ask(q)
    assert a.proven and a.value == best and a.witness_values["shot.lead"] < 0


def test_focus_tells_apart_only_what_is_read():
    d = decks.build({"players": 4}, CactusReadings())
    assert d.layouts() == 333 and d.focus(frozenset({"before.sandstorm.shootout"})).layouts() == 330_873
    assert decks.kinds_read(frozenset({"marshal.round", "event.fast-draw.times"})) == ("fast-draw",)


@pytest.mark.parametrize("doc_change, words", [
    ({"where": "marshal.rond == 3"}, "nearest: marshal.round"),
    ({"where": "marshal.round == yes"}, "marshal.round is a number"),
    ({"where": "marshal.how == bus"}, "is one of"),
    ({"where": "before.sandstorm.shootout", "ask": "exists"}, "330,873 deck orders are too many"),
    ({"domain": {"kind": "event-deck", "players": 6}}, "players"),
    ({"domain": {"kind": "event-deck", "players": 1, "cards": 5}}, "solo_events"),
    ({"domain": {"kind": "event-deck", "players": 2, "seen": [{"event": "train"}, {"event": "marshals-arrival"}]}},
     "round 2"),
    ({"domain": {"kind": "duel", "event": "tumbleweed"}}, "event"),
])
def test_bad_questions_get_one_line(doc_change, words, capsys, tmp_path):
    doc = {"game": "cactus", "ask": "chance", "where": "marshal.round == 9",
           "domain": {"kind": "event-deck", "players": 4}} | doc_change
    if doc["domain"]["kind"] == "duel":
        doc["where"] = "duel.won"
    path = tmp_path / "q.json"
    path.write_text(json.dumps(doc))
    code = main(["ask", str(path), "--json", "--quiet"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and words in err and "\n" not in err and "Traceback" not in err


def test_conditions_read_back_as_written():
    for text in ("marshal.round < 8", "before.stagecoach.train and not marshal.never"):
        assert cm.text(cm.parse(text)) == text


def test_solo_with_the_event_deck_is_the_combined_odds():
    """C1: the solo deck and a (short) solo event deck together end the game at the earlier of the two."""
    chosen = (("solo_events", True), ("solo_event_cards", 3))
    readings = CactusReadings.from_values(dict(chosen))
    exact = odds.distribution(odds.MarshalQuery(None, readings))
    for rnd in (2, 3, 4, 6):
        a = ask(deck_question("chance", f"marshal.round == {rnd}", players=1, readings=chosen))
        assert a.exact and a.value == exact.get(rnd, 0)
    # 3 event cards and the marshal, 2 more from a Stagecoach: the event deck brings him by round 6, and in a round
    # both could the event comes first, so the solo deck never does
    assert ask(deck_question("exists", "marshal.how == solo-deck", players=1, readings=chosen)).verdict == "no"
    assert ask(deck_question("most", None, players=1, measure="marshal.round", readings=chosen)).value == 6
