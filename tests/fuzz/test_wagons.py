"""Hostile Lone Cowboy files: town, opponent, recorded-game script, and the data files (cards.json,
goals.toml, scenarios.toml, also given by users with ``--goals``). Each loader either accepts the
document or raises one BadInput line; anything else is a bug (see docs/scale.md for case counts)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.errors import BadInput
from solver.io.read import read_json, read_toml
from solver.paths import SCENARIOS
from tests.support.builders.wagons import OLD_SHAPES
from tests.support.fuzz import FUZZ, HOSTILE_VALUES, assert_loader_is_total, assert_one_line, mutated_document, no_hang

wagons = pytest.importorskip("solver.wagons.town")
from solver.wagons import data as wdata  # noqa: E402
from solver.wagons.cli.commands import load_opponent, recorded_actions  # noqa: E402
from solver.wagons.record.load import record_of  # noqa: E402
from solver.wagons.scoring import final_scores  # noqa: E402
from solver.wagons.simulate import play_game  # noqa: E402
from solver.wagons.town import load_town, town_from_dict  # noqa: E402

GAME = play_game("boomtown", "random", 3).to_dict()
VALID_TOWN = GAME["town"]
VALID_PILE = {"pile": GAME["opponent_pile"]}
CARDS = read_json(SCENARIOS / "wagons" / "cards.json")
GOALS = read_toml(SCENARIOS / "wagons" / "goals.toml")
SCENARIOS_DOC = read_toml(SCENARIOS / "wagons" / "scenarios.toml")

placement = st.fixed_dictionaries({"card": st.one_of(st.integers(-3, 20), HOSTILE_VALUES),
                                   "x": st.one_of(st.integers(-3, 40), HOSTILE_VALUES),
                                   "y": st.one_of(st.integers(-3, 40), HOSTILE_VALUES),
                                   "rot": st.sampled_from([0, 180, 90, -180, 360, "0", None, 1.5])})


def test_the_valid_documents_load():
    town = town_from_dict(VALID_TOWN)
    final_scores(town, tuple(VALID_PILE["pile"]), "boomtown")
    assert wdata.parse_cards(CARDS) and wdata.parse_goals(GOALS)


@FUZZ
@given(doc=mutated_document(VALID_TOWN))
def test_town_mutations(doc):
    town = assert_loader_is_total(town_from_dict, doc)
    if town is not None:  # an accepted town must also score without crashing
        assert_loader_is_total(lambda t: final_scores(t, tuple(VALID_PILE["pile"]), "boomtown"), town)


@FUZZ
@given(items=st.lists(placement, max_size=20))
def test_random_placement_sequences(items):
    assert_loader_is_total(town_from_dict, {"placements": items})


@FUZZ
@given(doc=mutated_document(VALID_PILE))
def test_opponent_file_mutations(doc, tmp_path_factory):
    path = tmp_path_factory.getbasetemp() / "opponent.json"
    path.write_text(json.dumps(doc))
    assert_loader_is_total(load_opponent, path)


@FUZZ
@given(doc=mutated_document({"actions": [{"draft": 0}, {"place": VALID_TOWN["placements"][0]}]}))
def test_recorded_game_script_mutations(doc):
    assert_loader_is_total(lambda d: recorded_actions(d, "script.json"), doc)


@FUZZ
@given(doc=mutated_document(CARDS))
def test_cards_json_mutations(doc):
    assert_loader_is_total(wdata.parse_cards, doc)


@FUZZ
@given(doc=mutated_document(GOALS))
def test_goals_toml_mutations(doc):
    assert_loader_is_total(wdata.parse_goals, doc)


@FUZZ
@given(doc=mutated_document(SCENARIOS_DOC))
def test_scenarios_toml_mutations(doc):
    goals = wdata.parse_goals(GOALS)
    assert_loader_is_total(lambda d: wdata.parse_scenarios(d, goals), doc)


@pytest.mark.parametrize("text", ["", "[goal", "goal = 5", "[[goal]]\nname = 1", "[[goal]]\n" * 3000,
                                  "x = " + "[" * 3000 + "]" * 3000])
def test_user_goals_file_via_the_cli(text, tmp_path, capsys):
    from solver import cli

    goals = tmp_path / "goals.toml"
    goals.write_text(text)
    town = tmp_path / "town.json"
    town.write_text(json.dumps(VALID_TOWN))
    opponent = tmp_path / "opponent.json"
    opponent.write_text(json.dumps(VALID_PILE))
    with no_hang():
        code = cli.main(["wagons", "score", str(town), "--scenario", "boomtown", "--opponent", str(opponent),
                         "--goals", str(goals), "--json"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and err.startswith("ruleslinger: error:"), err


def test_town_file_on_disk_huge_and_deep(tmp_path):
    for text in ("[" * 100_000, '{"placements": [' + '{"card": 1, "x": 0, "y": 0},' * 40_000 + "{}]}"):
        path = tmp_path / "town.json"
        path.write_text(text)
        with pytest.raises(BadInput) as info:
            load_town(path)
        assert_one_line(info.value)


# --- bugs found by the fuzzers (explicit inputs, so they stay visible until fixed) ---------------


def test_scenario_goals_holding_a_list_is_bad_input():
    """Found by test_scenarios_toml_mutations: solver/wagons/data.py parse_scenarios tests
    ``g not in names`` (a set) with a list item -> TypeError: unhashable type: 'list'."""
    doc = json.loads(json.dumps(SCENARIOS_DOC))
    doc["scenario"][0]["goals"] = [[], "Boom or Bust"]
    with pytest.raises(BadInput) as info:
        wdata.parse_scenarios(doc, wdata.parse_goals(GOALS))
    assert_one_line(info.value)


def test_a_list_where_a_goal_number_belongs_is_bad_input(tmp_path, capsys):
    """Found by test_goals_toml_mutations: solver/wagons/data.py _check_goal_params compares
    ``keys["divisor"] < 1`` when the user's goals.toml gives ``divisor = [2]`` (Prairie Life)
    -> TypeError: '<' not supported between instances of 'tuple' and 'int'."""
    doc = json.loads(json.dumps(GOALS))
    for goal in doc["goal"]:
        if goal["kind"] == "prairie-life":
            goal["params"]["divisor"] = [2]
    with pytest.raises(BadInput) as info:
        wdata.parse_goals(doc)
    assert_one_line(info.value)


# --- issue 16: one integer rule for every integer field (no floats, no booleans) -------------------


def _same_value_wrong_type(value: int):
    """Values equal to ``value`` (``0.0 == 0``, ``False == 0``) that are not whole numbers."""
    out = [float(value)]
    if value in (0, 1):
        out.append(bool(value))
    return st.sampled_from(out)


@FUZZ
@given(data=st.data())
def test_every_integer_field_refuses_floats_and_booleans(data):
    """rot accepted 0.0, 180.0 and false while x refused 1.0: now every integer field refuses them."""
    from solver.wagons.cli.shared import opponent_from_json
    from solver.wagons.game import action_from_dict

    doc = json.loads(json.dumps(VALID_TOWN))
    where = data.draw(st.sampled_from(["town", "pile", "draft"]))
    if where == "town":
        i = data.draw(st.integers(0, len(doc["placements"]) - 1))
        key = data.draw(st.sampled_from(["card", "x", "y", "rot"]))
        doc["placements"][i][key] = data.draw(_same_value_wrong_type(doc["placements"][i].get(key, 0)))
        load, arg = town_from_dict, doc
    elif where == "pile":
        pile = list(VALID_PILE["pile"])
        i = data.draw(st.integers(0, len(pile) - 1))
        pile[i] = data.draw(_same_value_wrong_type(pile[i]))
        load, arg = opponent_from_json, {"pile": pile}
    else:
        load, arg = action_from_dict, {"draft": data.draw(_same_value_wrong_type(data.draw(st.integers(0, 5))))}
    with pytest.raises(BadInput) as info:
        load(arg)
    assert_one_line(info.value)


def test_duplicate_keys_in_a_town_file_are_refused(tmp_path, capsys):
    from solver import cli

    town = tmp_path / "town.json"
    town.write_text('{"placements": [{"card": 13, "x": 1, "y": 1, "rot": 0, "rot": 180}]}')
    opponent = tmp_path / "opponent.json"
    opponent.write_text(json.dumps(VALID_PILE))
    assert cli.main(["wagons", "score", str(town), "--scenario", "boomtown", "--opponent", str(opponent)]) == 2
    err = capsys.readouterr().err.strip()
    assert "appears twice" in err and "\n" not in err


def test_goals_through_a_symlink_loop_is_one_line(tmp_path, capsys):
    """Found by the issue 16 campaign: solver/wagons/cli/commands.py _data called Path.resolve() -> RuntimeError."""
    from solver import cli

    (tmp_path / "a.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    with no_hang():
        code = cli.main(["wagons", "opponent-draft", "--scenario", "boomtown", "--round", "2", "--circle", "3,7,11",
                         "--goals", str(tmp_path / "a.toml")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "symbolic links" in err, err


@pytest.mark.parametrize("log", [{"log": [{"who": "player", "what": "draft", "skipped": 5}]},
                                 {"log": [{"who": "player", "what": "draft", "skipped": "1,2"}]},
                                 {"actions": [{"draft": [1]}]}, {"actions": [{"draft": 1.0}]},
                                 {"actions": [{"draft": True}]}, {"actions": [{"draft": 10**40}]}])
def test_a_script_with_a_number_where_a_list_belongs_is_one_line(log, tmp_path, capsys):
    """Found by the issue 16 campaign: recorded_actions took len() of a number (TypeError)."""
    from solver import cli

    script = tmp_path / "script.json"
    script.write_text(json.dumps(log))
    code = cli.main(["wagons", "play", "--scenario", "boomtown", "--seed", "1", "--policy", "scripted",
                     "--script", str(script)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and err.startswith("ruleslinger: error:"), err


SAVED = {path.stem: read_json(path) for path in sorted(OLD_SHAPES.glob("old-*.json"))}
"""Every shape a game was saved in (real examples), each read by the one loader."""


@pytest.mark.parametrize("name", sorted(SAVED))
@FUZZ
@given(data=st.data())
def test_every_saved_game_shape_mutated(name, data):
    """A mutated game file, kept game, older state or older play output converts to the record or is one line."""
    doc = data.draw(mutated_document(SAVED[name]))
    record = assert_loader_is_total(record_of, doc)
    if record is not None:  # a converted record is the one serialisation: it reads back as itself
        assert record_of(record) == record
