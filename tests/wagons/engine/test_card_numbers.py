"""The numbers a goal card prints, read off the player's own card (rule:W11): :mod:`solver.wagons.scoring.card_numbers`.

Hand-worked on the town of tests/wagons/engine/test_by_reading.py (the rulebook example's first five placements
against the pile 15, 6, 12, 11, 1 in Boomtown): the player shows 17 territories against the pile's 20 and 2 Mines,
Boomtown's opponent 12 Mines (8 icons and 4 Mountains). Shipped numbers: per Mine, player 17 + 3 + 10 = 30 against
14 + 0 + 96 = 110; once per band, 17 + 3 + 5 = 25 against 14 + 0 + 8 = 22.
"""

from __future__ import annotations

import contextlib
import io
import json
import re

import pytest

from solver import cli
from solver.errors import BadInput
from solver.wagons.data import SCENARIO_IDS, load_data
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import final_scores, scores_by_reading
from solver.wagons.scoring.card_numbers import (
    LAYOUTS,
    card_values,
    from_card,
    goals_file,
    questions,
    read_card,
    unsettled,
    with_cards,
)
from solver.wagons.town import Placement, Town, place

FIVE = ((13, 1, 1), (4, 0, 1), (14, 3, 1), (0, 4, 0), (2, 0, 3))
PILE = (15, 6, 12, 11, 1)
BANDS = [[1, 2, 5], [3, 6, 0], [7, 7, 3], [8, None, 8]]


def _town() -> Town:
    town = Town()
    for card, x, y in FIVE:
        town = place(town, Placement(card, x, y, 0))
    return town


def test_every_low_confidence_card_of_the_six_scenarios_has_a_layout_that_asks_for_its_printed_numbers():
    data = load_data()
    low = {n for s in SCENARIO_IDS for n in unsettled(s, data)}
    assert low == {"Smalltown Charm", "Gold Country", "Prairie Life", "The Herd", "Wagon Train", "Claim Jumpers",
                   "Boom or Bust"}
    for name in low:
        goal = data.goal(name)
        reading = {"per_mine"} if goal.kind == "boom-or-bust" else set()  # a reading, not a number (rule:W11)
        assert {q.param for q in questions(goal)} == set(dict(goal.params)) - reading
        assert read_card(goal, card_values(goal)).params == tuple(
            (k, v) for k, v in goal.params if k not in reading)  # the shipped numbers read back as they are


def test_a_card_read_off_by_the_player_scores_with_its_numbers_and_is_no_longer_low_confidence():
    data = with_cards(load_data(), {"Smalltown Charm": {"per_territory": 2}})
    fs = final_scores(_town(), PILE, "boomtown", WagonsReadings(), data)
    assert fs.player.goals["Smalltown Charm"] == 6 and fs.player.total == 17 + 6 + 10
    assert fs.low_confidence == ("Boom or Bust",)
    assert from_card("boomtown", data) == ("Smalltown Charm",) and unsettled("boomtown", data) == ("Boom or Bust",)


def test_boom_or_bust_counted_once_on_the_card_settles_the_reading_whatever_the_rules_say():
    data = with_cards(load_data(), {"Boom or Bust": {"bands": BANDS, "per_mine": False}})
    for readings in (WagonsReadings(), WagonsReadings(boom_or_bust="flat")):
        fs = final_scores(_town(), PILE, "boomtown", readings, data)
        assert (fs.player.total, fs.opponent.total) == (25, 22)
        assert fs.low_confidence == ("Smalltown Charm",)
    assert scores_by_reading(_town(), PILE, "boomtown", WagonsReadings(), data)["readings"] == []  # nothing left to ask


def test_boom_or_bust_bands_from_the_card_without_its_reading_keep_both_readings_open():
    bands = [[1, 3, 4], [4, None, 2]]  # a card that differs: 2 Mines score 4 each; the opponent's 12 score 2 each
    data = with_cards(load_data(), {"Boom or Bust": {"bands": bands}})
    by = scores_by_reading(_town(), PILE, "boomtown", WagonsReadings(), data)
    assert [r["option"] for r in by["readings"]] == ["boom_or_bust"]
    assert [(c["player"], c["opponent"]) for c in by["scores"]] == [(17 + 3 + 8, 14 + 24), (17 + 3 + 4, 14 + 2)]


@pytest.mark.parametrize(("name", "typed", "says"), [
    ("Wagon Train", {"run_points": [1, "x"]}, "Wagon Train, points for a straight run of Wagons, by its length, a run "
                                              "of 3 Wagons: type a whole number"),
    ("Boom or Bust", {"bands": [[1, 2, 5], [2, None, 1]]}, "row 2: starts at 2 Mines, inside the row before it"),
    ("Boom or Bust", {"bands": [[1, None, 5], [3, 4, 1]]}, "row 1: only the last row may go on without a most"),
    ("Claim Jumpers", {"points": 4, "taken_by_more_guns": 5}, "cannot exceed the points for the most Mines (4)"),
    ("Prairie Life", {"per_symbol": 1, "divisor": 0}, "then divided by (rounded down): 0 is outside 1 to 1000"),
    ("Smalltown Charm", {}, "Smalltown Charm: give the points per territory fewer than the other town"),
    ("Smalltown Charm", {"per_territory": 1, "bonus": 2}, "the card prints no number called 'bonus'"),
])
def test_a_number_the_card_cannot_print_is_refused_in_words(name, typed, says):
    with pytest.raises(BadInput) as err:
        read_card(load_data().goal(name), typed)
    assert says in str(err.value)
    assert not re.search(r"\b[a-z]+_[a-z_]+\b|\[\d+\]", str(err.value).replace("'bonus'", ""))


def test_every_kind_has_a_layout():
    from solver.wagons import goal_kinds

    assert set(LAYOUTS) == {k.name for k in goal_kinds.KINDS}


def test_the_answers_export_as_the_goals_file_the_command_line_reads(tmp_path):
    answers = {"Smalltown Charm": {"per_territory": 2}, "Boom or Bust": {"bands": BANDS, "per_mine": False}}
    text = goals_file(load_data(), answers, {"--boom-or-bust": "flat"})
    path = tmp_path / "my-goals.toml"
    path.write_text(text, encoding="utf-8")
    assert "--boom-or-bust flat" in text
    read = load_data(goals_path=str(path))
    assert read.goal("Smalltown Charm").param("per_territory") == 2 and read.goal("Smalltown Charm").confidence == "card"
    town = {"placements": [{"card": c, "x": x, "y": y, "rot": 0} for c, x, y in FIVE]}
    (tmp_path / "town.json").write_text(json.dumps(town), encoding="utf-8")
    (tmp_path / "pile.json").write_text(json.dumps({"pile": list(PILE)}), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["wagons", "score", str(tmp_path / "town.json"), "--scenario", "boomtown",
                         "--opponent", str(tmp_path / "pile.json"), "--goals", str(path),
                         "--json"])
    assert code == 0
    doc = json.loads(out.getvalue())
    assert (doc["player"]["total"], doc["opponent"]["total"]) == (17 + 6 + 5, 22)
    assert doc["low_confidence"] == []
