"""AppTest: counts in the right number and a plain line for a card in both towns (issue 32, "Smaller":
"reserve 1 tokens", "A legal town of 1 cards", "Card(s) [0] are in both towns.")."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from solver.outlaws.position import initial_position
from solver.outlaws.position_json import position_to_json
from solver.outlaws.readings import OutlawsReadings
from tests.support.dashboard.apptest import errors, open_editor, open_page, texts


def test_a_card_in_both_towns_is_named_in_words():
    """Boomtown's example town holds cards 13, 4, 14, 0, 2 and 1."""
    at = open_page("wagons_sheet")
    at.session_state["wg_pile_loaded"] = [7, 13]  # a loaded pile may hold a town card: it is flagged
    at.run()
    assert "Card 13 is in your town and in the opponent's pile; a card is in one of them only. Take it out of one " \
           "to see the scores." in errors(at)
    at.session_state["wg_pile_loaded"] = [4, 7, 13]
    at.run()
    assert any(e.startswith("Cards 4 and 13 are in your town and in the opponent's pile") for e in errors(at))
    assert not any("Card(s)" in e or "[" in e.split(";")[0] for e in errors(at))


def test_a_reserve_of_one_token_is_one_token():
    """The set-up's reserve is 5 tokens; a position with one left says "1 token"."""
    doc = position_to_json(initial_position(seed=1, readings=OutlawsReadings()))
    at = open_page("outlaws")
    assert "reserve 5 tokens" in texts(at)
    extra = doc["reserve"][1:]
    doc["reserve"] = doc["reserve"][:1]
    doc["discard"] = dict(doc.get("discard") or {})
    for token in extra:  # the tokens taken off the reserve lie in the discard (component totals hold)
        doc["discard"][token] = doc["discard"].get(token, 0) + 1
    open_editor(at)
    at.text_area(key=f"ol_json_{at.session_state['ol_ver']}").set_value(json.dumps(doc))
    at.button(key="ol_apply_json").click().run()
    assert not errors(at), errors(at)
    assert "reserve 1 token" in texts(at) and "1 tokens" not in texts(at)


def _one_card_counterexample():
    from dashboard.wagons import verification

    verification.counterexample({"counterexample": {"town_cells": [], "cards": 1, "engine": {
        "town": {"placements": [{"card": 0, "x": 0, "y": 0, "rot": 0}]}}}})


def test_a_one_card_town_is_one_card():
    at = AppTest.from_function(_one_card_counterexample, default_timeout=60).run()
    assert not at.exception
    captions = [h.proto.body for h in at.get("html")]
    assert any("A legal town of 1 card<" in c for c in captions) and not any("1 cards" in c for c in captions)
