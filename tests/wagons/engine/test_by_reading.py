"""The score under each reading of a low-confidence number, side by side (rule:W11; issue 32, "the player's
card settles it"): :func:`solver.wagons.scoring.scores_by_reading` and ``wagons score --json``'s ``by_reading``.

Hand-worked from the card fronts (scenarios/wagons/cards.json) and the rulebook's example town
(docs/outside-facts.md), never from the engine's output. The town is the example's first five placements,
(13, 1, 1), (4, 0, 1), (14, 3, 1), (0, 4, 0), (2, 0, 3), all unturned (the sixth, card 1 at (2, 3), is left
out, so the cells (2, 3), (3, 3), (2, 4), (3, 4) stay empty). Its visible grid, row by row:

    y0: x4 Plains/Cow, x5 Plains/Fort
    y1: x0 Desert/Wagon, Desert/Gun, Desert/Fort, Plains/Beer, Plains/Mine, x5 Forest/Beer
    y2: x0 Desert/Cow, Mountains/Fort, Mountains/Cow, Mountains/Cow, x4 Plains/Gun
    y3: x0 Water/Mine, x1 Water/Beer
    y4: x0 Snow/Wagon, x1 Water/Gun

* Groups: Desert 4 ((0,1), (1,1), (2,1), (0,2)), Forest 1, Mountains 3 ((1,2)-(3,2)), Plains 5 ((4,0), (5,0),
  (3,1), (4,1), (4,2)), Snow 1, Water 3 ((0,3), (1,3), (1,4)) = 17; 17 territories show.
* Opponent pile 15, 6, 12, 11, 1 (20 territories). Terrains: Water 1 + 2 + 1 + 1 = 5, Snow 1 + 1 + 2 + 1 = 5,
  Mountains 1 + 3 = 4, Plains, Forest and Desert 2 each: the 3 most common score 5 + 5 + 4 = 14.
* Smalltown Charm: the player's 17 territories are fewer than the pile's 20: the player scores 20 - 17 = 3.
* Boom or Bust: the player shows 2 Mines ((4, 1), (0, 3)): per Mine 2 x 5 = 10, flat 5. Boomtown's opponent
  counts Mine icons 3 + 2 + 1 + 1 + 1 = 8 plus Mountains territories 1 + 3 = 4 ("Mountains count as Mines",
  W6 default "both"): 12 Mines, the 8+ band: per Mine 12 x 8 = 96, flat 8.
* Totals: per Mine, player 17 + 3 + 10 = 30, opponent 14 + 0 + 96 = 110, the opponent wins by 80;
  flat, player 17 + 3 + 5 = 25, opponent 14 + 0 + 8 = 22, the player wins by 3.
"""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from solver import cli
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import final_scores, scores_by_reading
from solver.wagons.scoring.by_reading import low_confidence_readings, reading_wording
from solver.wagons.town import Placement, Town, place

FIVE = ((13, 1, 1), (4, 0, 1), (14, 3, 1), (0, 4, 0), (2, 0, 3))
PILE = (15, 6, 12, 11, 1)
PER_MINE = {"player": 30, "opponent": 110, "margin": -80, "winner": "opponent",
            "parts": {"player": {"Boom or Bust": 10}, "opponent": {"Boom or Bust": 96}}}
FLAT = {"player": 25, "opponent": 22, "margin": 3, "winner": "player",
        "parts": {"player": {"Boom or Bust": 5}, "opponent": {"Boom or Bust": 8}}}


def _town() -> Town:
    town = Town()
    for card, x, y in FIVE:
        town = place(town, Placement(card, x, y, 0))
    return town


def _column(col: dict) -> dict:
    return {k: col[k] for k in ("player", "opponent", "margin", "winner", "parts")}


@pytest.mark.parametrize("chosen", ["per-mine", "flat"])
def test_boomtown_scores_side_by_side_under_both_boom_or_bust_readings(chosen):
    by = scores_by_reading(_town(), PILE, "boomtown", WagonsReadings(boom_or_bust=chosen))
    assert [r["option"] for r in by["readings"]] == ["boom_or_bust"]
    assert by["readings"][0]["rule"] == "W11" and by["readings"][0]["chosen"] == chosen
    assert by["parts"] == [{"side": "player", "goal": "Boom or Bust"}, {"side": "opponent", "goal": "Boom or Bust"}]
    assert [s["readings"] for s in by["scores"]] == [{"boom_or_bust": "per-mine"}, {"boom_or_bust": "flat"}]
    assert [_column(s) for s in by["scores"]] == [PER_MINE, FLAT]
    assert [s["chosen"] for s in by["scores"]] == [chosen == "per-mine", chosen == "flat"]


def test_each_column_is_the_final_score_under_that_reading():
    by = scores_by_reading(_town(), PILE, "boomtown")
    for s in by["scores"]:
        fs = final_scores(_town(), PILE, "boomtown", WagonsReadings(**s["readings"]))
        assert (s["player"], s["opponent"], s["winner"]) == (fs.player.total, fs.opponent.total, fs.winner)


def test_the_other_readings_stay_as_chosen():
    """Boomtown's opponent Mines read "mountains" (W6): Mountains alone, 4 Mines, the 3-6 band: 0 either way,
    so the opponent scores 14 under both Boom or Bust readings and the player 30 / 25."""
    by = scores_by_reading(_town(), PILE, "boomtown", WagonsReadings(boomtown_mines="mountains"))
    assert [(s["player"], s["opponent"]) for s in by["scores"]] == [(30, 14), (25, 14)]


def test_the_wording_of_each_value_comes_from_the_register():
    values = scores_by_reading(_town(), PILE, "boomtown")["readings"][0]["values"]
    assert [v["value"] for v in values] == ["per-mine", "flat"] and [v["default"] for v in values] == [True, False]
    assert values[0]["wording"] == reading_wording("boom_or_bust", "per-mine")
    assert values[0]["wording"].startswith("Boom or Bust scores the band's points once per Mine")
    assert values[1]["wording"].startswith("each band's points once (1-2 Mines 5, 3-6 none, 7 3, 8+ 8)")


def test_a_scenario_without_such_a_reading_lists_nothing():
    """Through the Desert's cards (Wagon Train: low, but no listed reading; Badlands: W12 is medium)."""
    assert low_confidence_readings("through-the-desert") == ()
    assert scores_by_reading(_town(), PILE, "through-the-desert") == {"readings": [], "parts": [], "scores": []}
    assert low_confidence_readings("boomtown") == (("Boom or Bust", "boom_or_bust"),)


def _score_json(tmp_path, *flags) -> dict:
    town = tmp_path / "town.json"
    town.write_text(json.dumps({"placements": [{"card": c, "x": x, "y": y, "rot": 0} for c, x, y in FIVE]}))
    opp = tmp_path / "opp.json"
    opp.write_text(json.dumps({"pile": list(PILE)}))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["wagons", "score", str(town), "--scenario", "boomtown", "--opponent", str(opp), "--json",
                         *flags]) == 0
    return json.loads(out.getvalue())


def test_wagons_score_json_carries_by_reading_beside_the_unchanged_keys(tmp_path):
    doc = _score_json(tmp_path, "--boom-or-bust", "flat")
    assert (doc["player"]["total"], doc["opponent"]["total"], doc["winner"]) == (25, 22, "player")
    assert [_column(s) for s in doc["by_reading"]["scores"]] == [PER_MINE, FLAT]
    assert doc["by_reading"]["readings"][0]["chosen"] == "flat"
    assert set(doc) == {"player", "opponent", "winner", "margin", "decided_by", "low_confidence", "scenario", "rules",
                        "by_reading"}
