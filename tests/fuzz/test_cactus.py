"""Hostile Cactus Town position files (the lone ranger's turn): mutations of the example positions,
random card texts and card objects; each is decided, or refused with one BadInput line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.errors import BadInput
from solver.io.read import read_json
from solver.paths import SCENARIOS
from tests.support.fuzz import FUZZ, HOSTILE_VALUES, assert_loader_is_total, assert_one_line, mutated_document, no_hang

pytest.importorskip("solver.cactus.ranger")
from solver.cactus import icons  # noqa: E402
from solver.cactus.ranger import decide  # noqa: E402

EXAMPLES = sorted((SCENARIOS / "cactus").glob("*.json"))
VALID = [read_json(p) for p in EXAMPLES]
WORDS = list(icons.ICONS) + list(icons.ALIASES) + ["DOUBLE", "HORIZONTAL", "ALL", "[", "]", "[X]", "[]", "/",
                                                    "|", "run", "sneak_all", "?", "é", "PASS"]


def test_the_examples_are_decided():
    assert VALID, "no example positions in scenarios/cactus"
    for doc in VALID:
        assert decide(doc)["row"] in ("visible", "no_visible")


@FUZZ
@given(data=st.data())
def test_position_mutations(data):
    doc = data.draw(mutated_document(data.draw(st.sampled_from(VALID))))
    assert_loader_is_total(decide, doc)


card_text = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)


@FUZZ
@given(text=st.one_of(card_text, st.text(max_size=80), st.just("RUN " * 100)))
def test_icon_sequences(text):
    assert_loader_is_total(icons.parse_sequence, text)


@FUZZ
@given(card=st.one_of(st.tuples(card_text, card_text).map(" | ".join), card_text, HOSTILE_VALUES,
                      st.fixed_dictionaries({"visible": st.one_of(card_text, HOSTILE_VALUES),
                                             "no_visible": st.one_of(card_text, HOSTILE_VALUES)})))
def test_cards_in_a_position(card):
    doc = dict(VALID[0], card=card)
    assert_loader_is_total(decide, doc)


@FUZZ
@given(readings=st.dictionaries(st.sampled_from(["short_deck", "duel_win_chance", "die_sides", "solo_events",
                                               "escaped_visible", "step_tie", "nosuch"]), HOSTILE_VALUES, max_size=3))
def test_rules_inside_a_position(readings):
    assert_loader_is_total(decide, dict(VALID[0], rules=readings))


@pytest.mark.parametrize("text", ["", "{", "[" * 40_000, json.dumps({"town": [["?"] * 5] * 5})])
def test_position_files_on_disk(text, tmp_path):
    path = tmp_path / "position.json"
    path.write_text(text)
    with no_hang(), pytest.raises(BadInput) as info:
        decide(read_json(str(path)))
    assert_one_line(info.value)


# --- bugs found by the fuzzers (explicit inputs, so they stay visible until fixed) ---------------


@pytest.mark.parametrize("targets", [5, None, 1.5, True])
def test_targets_that_are_not_a_list_are_bad_input(targets):
    """Found by test_position_mutations: solver/cactus/town.py town_from_dict runs
    ``for i, t in enumerate(data.get("targets", []))`` -> TypeError: 'int' object is not iterable."""
    with pytest.raises(BadInput) as info:
        decide(dict(VALID[0], targets=targets))
    assert_one_line(info.value)
