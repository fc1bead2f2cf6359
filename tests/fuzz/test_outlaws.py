"""Hostile Outlaws position files: mutations of the contracts example (wrong types, huge numbers, unknown
characters and tokens, impossible positions), random documents; each loads, or is one BadInput line.
An accepted position must also survive ``legal_actions`` and every outcome of its first actions."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.errors import BadInput
from solver.io.read import read_json
from solver.paths import SCENARIOS
from tests.support.fuzz import FUZZ, assert_loader_is_total, assert_one_line, json_values, mutated_document, no_hang

pytest.importorskip("solver.outlaws.position_json")
from solver.outlaws.position_json import position_from_json, position_to_json, read_position  # noqa: E402

EXAMPLE = SCENARIOS / "outlaws" / "contracts-example.json"
VALID = read_json(EXAMPLE)

NAMES = ["governor", "hitman", "sheriff", "indian", "merchant", "dancer", "journalist", "bandit", "reverend", "mayor"]
TOKENS = ["vote", "x", "bullet", "handcuffs", "election", "empty"]


def _exercise(pos):
    """Legal actions and the outcomes of up to 5 of them: engines must not crash on accepted positions."""
    from solver.outlaws.actions import legal_actions
    from solver.outlaws.apply import outcomes
    from solver.outlaws.victory import sudden_death_trigger, winner

    winner(pos)
    sudden_death_trigger(pos)
    for action in legal_actions(pos)[:5]:
        outcomes(pos, action)
    return pos


def load_and_play(doc):
    pos = position_from_json(doc)
    _exercise(pos)
    return pos


def test_the_example_loads_and_round_trips():
    pos = load_and_play(VALID)
    assert position_from_json(position_to_json(pos)) == pos


@FUZZ
@given(doc=mutated_document(VALID))
def test_position_mutations(doc):
    if isinstance(doc, dict):
        assert_loader_is_total(load_and_play, doc)
    else:
        with pytest.raises(BadInput):
            position_from_json(doc) if isinstance(doc, dict) else _via_file(doc)


def _via_file(doc):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "position.json"
        path.write_text(json.dumps(doc))
        return read_position(str(path))


@st.composite
def shuffled_position(draw):
    """Plausible-looking positions: the example with characters and tokens redrawn from the real names."""
    doc = json.loads(json.dumps(VALID))
    for side in ("A", "B"):
        doc["street"][side] = draw(st.lists(st.sampled_from(NAMES + [None]), min_size=8, max_size=8))
        doc["saloon"][side] = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=2))
    doc["tokens"] = draw(st.lists(st.sampled_from(TOKENS), min_size=8, max_size=8))
    doc["reserve"] = draw(st.lists(st.sampled_from(TOKENS[:-1]), max_size=8))
    doc["to_move"] = draw(st.sampled_from(["A", "B"]))
    doc["actions_left"] = draw(st.sampled_from([1, 2]))
    doc["immobilized"] = draw(st.lists(st.tuples(st.sampled_from(["A", "B"]), st.integers(-1, 8)).map(list),
                                       max_size=2))
    doc["front_page"] = draw(st.lists(st.tuples(st.sampled_from(["A", "B"]), st.integers(-1, 8)).map(list),
                                      max_size=2))
    doc["sudden_death"] = draw(st.booleans())
    return doc


@FUZZ
@given(doc=shuffled_position())
def test_plausible_but_impossible_positions(doc):
    assert_loader_is_total(load_and_play, doc)


@FUZZ
@given(doc=json_values)
def test_random_documents(doc):
    if isinstance(doc, dict):
        assert_loader_is_total(position_from_json, doc)


@pytest.mark.parametrize("text", ["", "[]", "null", "{", "[" * 50_000, json.dumps(VALID)[:-1]])
def test_position_files_on_disk(text, tmp_path):
    path = tmp_path / "position.json"
    path.write_text(text)
    with no_hang(), pytest.raises(BadInput) as info:
        read_position(str(path))
    assert_one_line(info.value)


# --- a document is never a path (issue 16: the dashboard read files on the server) ---------------


@FUZZ
@given(doc=st.one_of(json_values.filter(lambda d: not isinstance(d, dict)),
                     st.sampled_from([str(EXAMPLE), "/etc/passwd", "/etc", "/nosuch", "/dev/zero", "", "."])))
def test_a_document_that_is_not_an_object_is_refused_without_touching_files(doc):
    """position_from_json never opens anything: a JSON string is a wrong document, not a file name."""
    from unittest import mock

    def forbidden(*args, **kwargs):
        raise AssertionError(f"a document loader touched the file system: {args[:1]}")

    with mock.patch("builtins.open", forbidden), mock.patch("os.stat", forbidden), \
            pytest.raises(BadInput) as info:
        position_from_json(doc)
    assert_one_line(info.value)
    message = str(info.value)
    assert message.startswith("position: expected a JSON object")
    for leak in ("no such file", "directory", "regular file", "bytes", "permission", "root:"):
        assert leak not in message.lower()


def test_the_compatibility_loader_takes_no_strings():
    """load_position (kept for old callers) reads a pathlib.Path or takes a dict, never a str."""
    from solver.outlaws.position_json import load_position

    assert load_position(EXAMPLE) == read_position(str(EXAMPLE)) == position_from_json(VALID)
    with pytest.raises(BadInput, match="expected a JSON object, got a string"):
        load_position(str(EXAMPLE))
