"""Towns: placement legality (first anywhere, edge or cover, no corner-only), rotation, covering,
legal placement lists, the town file format, and the data loaders' one-line errors."""

import json

import pytest

from solver.errors import BadInput
from solver.io.read import read_json, read_toml
from solver.wagons.cards import Territory, card_cells, load_cards
from solver.wagons.data import (
    CARDS_FILE,
    GOALS_FILE,
    SCENARIOS_FILE,
    load_data,
    parse_cards,
    parse_goals,
    parse_scenarios,
)
from solver.wagons.town import (
    Placement,
    Town,
    legal_placements,
    load_town,
    place,
    placement_problem,
    town_to_json,
    visible_grid,
)


def test_cards_data_counts():
    cards = load_cards()
    assert len(cards) == 18 and [c.id for c in cards] == list(range(18))
    terr = [t.terrain for c in cards for t in c.territories]
    icons = [t.icon for c in cards for t in c.territories]
    assert all(terr.count(t) == 12 for t in set(terr)) and len(set(terr)) == 6
    assert all(icons.count(i) == 12 for i in set(icons)) and len(set(icons)) == 6
    assert sorted(c.back for c in cards) == sorted(g.name for g in load_data().goals)


def test_rotation_180_swaps_corners():
    c = load_cards()[1]
    assert dict(card_cells(c, 0))[(0, 0)] == c.tl
    assert dict(card_cells(c, 180))[(0, 0)] == c.br and dict(card_cells(c, 180))[(1, 0)] == c.bl
    with pytest.raises(BadInput, match="180"):
        card_cells(c, 90)


def test_first_card_anywhere_then_edge_or_cover():
    t = place(Town(), Placement(1, 7, -3))
    assert placement_problem(t, Placement(0, 9, -3)) is None      # shares an edge
    assert placement_problem(t, Placement(0, 8, -2)) is None      # covers one territory
    assert placement_problem(t, Placement(0, 7, -3, 180)) is None  # covers it entirely
    why = placement_problem(t, Placement(0, 9, -1))
    assert why and "card 0" in why and "corner" in why
    why = placement_problem(t, Placement(0, 12, 5))
    assert why and "card 0" in why and "does not touch" in why


def test_illegal_placements_are_named():
    t = place(Town(), Placement(1, 0, 0))
    for p, words in [(Placement(1, 2, 0), "already placed"), (Placement(0, 2, 0, 90), "rotation"),
                     (Placement(18, 2, 0), "no such card"), (Placement(0, 10**6, 0), "x must")]:
        with pytest.raises(BadInput, match=words):
            place(t, p)


def test_covered_territories_do_not_count():
    t = place(place(Town(), Placement(0, 0, 0)), Placement(1, 1, 1))
    g = visible_grid(t)
    assert len(g) == 7
    assert g[(1, 1)] == Territory("Mountains", "Fort")


def test_legal_placements_are_legal_distinct_and_complete():
    t = place(place(Town(), Placement(4, 0, 0)), Placement(0, 2, 1, 180))
    ps = legal_placements(t, 9)
    assert len(set(ps)) == len(ps) > 0
    assert all(placement_problem(t, p) is None for p in ps)
    brute = {Placement(9, x, y, r) for x in range(-6, 9) for y in range(-6, 9) for r in (0, 180)
             if placement_problem(t, Placement(9, x, y, r)) is None}
    assert brute == set(ps)
    assert legal_placements(Town(), 3) == (Placement(3, 0, 0, 0), Placement(3, 0, 0, 180))
    assert legal_placements(t, 4) == ()


def test_town_file_round_trip_and_errors(tmp_path):
    doc = {"placements": [{"card": 13, "x": 1, "y": 1, "rot": 0}, {"card": 4, "x": 0, "y": 1, "rot": 180}]}
    t = load_town(doc)
    assert town_to_json(t) == doc
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    assert load_town(path) == t
    bad = [({"placements": "x"}, "list"), ({"nope": []}, "placements"),
           ({"placements": [{"card": 1, "x": 0}]}, "missing field 'y'"),
           ({"placements": [{"card": 1, "x": 0, "y": 0}, {"card": 2, "x": 2, "y": 2}]}, r"placements\[1\].*card 2.*corner"),
           ({"placements": [{"card": True, "x": 0, "y": 0}]}, "no such card")]
    for doc, words in bad:
        with pytest.raises(BadInput, match=words):
            load_town(doc)


def _doc(path):
    return read_toml(path) if str(path).endswith(".toml") else read_json(path)


def test_loaders_name_file_entry_and_field():
    cards = _doc(CARDS_FILE)
    cards["cards"][5]["tr"] = ["Lava", "Beer"]
    with pytest.raises(BadInput, match=r"cards.json: card 5.tr"):
        parse_cards(cards, "cards.json")
    goals = _doc(GOALS_FILE)
    goals["goal"][0]["params"] = {}
    with pytest.raises(BadInput, match=r"goals.toml: goal 'Cool Water'.params: missing 'per_wagon'"):
        parse_goals(goals, "goals.toml")
    goals = _doc(GOALS_FILE)
    goals["goal"][1]["params"]["per_gun"] = "four"
    with pytest.raises(BadInput, match=r"goal 'Badlands'.params.per_gun"):
        parse_goals(goals, "goals.toml")
    scen = _doc(SCENARIOS_FILE)
    scen["scenario"][1]["draft"]["icons"] = ["Gold"]
    with pytest.raises(BadInput, match=r"scenario 'gold-rush'.draft.icons: 'Gold'"):
        parse_scenarios(scen, load_data().goals, "scenarios.toml")
    scen = _doc(SCENARIOS_FILE)
    del scen["scenario"][2]["opponent"]["Badlands"]
    with pytest.raises(BadInput, match=r"through-the-desert'.opponent: missing field 'Badlands'"):
        parse_scenarios(scen, load_data().goals, "scenarios.toml")


def test_load_data_bad_file(tmp_path):
    p = tmp_path / "goals.toml"
    p.write_text("[[goal]\nname=")
    with pytest.raises(BadInput, match="goals.toml"):
        load_data(goals_path=str(p))


def test_goal_and_scenario_data_complete():
    """The shape of the goal data, from the data itself (a goal card added to goals.toml needs no edit here): names
    are unique, the goals the scenarios use are exactly the known ones, and every known goal says how sure each of
    its numbers is."""
    data = load_data()
    names = [g.name for g in data.goals]
    assert len(names) == len(set(names)) and any(g.known for g in data.goals)
    used = {g for s in data.scenarios for g in s.goals}
    assert used == {g.name for g in data.goals if g.known}
    for g in data.goals:
        if g.known:
            assert dict(g.param_confidence).keys() == dict(g.params).keys(), g.name
