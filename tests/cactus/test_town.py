"""The lone ranger on constructed towns: visibility (C9), closest outlaw (C6), moves (C6, C7), decisions."""

import json
from fractions import Fraction

import pytest

from solver.cactus import town as tw
from solver.cactus.ranger import decide
from solver.cactus.readings import CactusReadings
from solver.errors import BadInput
from solver.io.read import read_json
from solver.paths import SCENARIOS


def grid(**revealed):
    g = [["?"] * 5 for _ in range(5)]
    g[2][2] = "sheriff's office"
    for name, (x, y) in revealed.items():
        g[y][x] = name
    return g


def pos(outlaws, ranger=(2, 2), targets=(), card="PASS | PASS", revealed=None, **extra):
    d = {"town": grid(**(revealed or {})), "ranger": list(ranger), "card": card,
         "outlaws": [dict(name=n, **o) for n, o in outlaws.items()], "targets": list(targets)}
    d.update(extra)
    return d


def town(outlaws, **kw):
    return tw.town_from_dict(pos(outlaws, **kw))


# ---- visibility (C9)

def test_no_visible_target():
    t = town({"A": {"at": [0, 0]}}, targets=[{"building": "bank"}])
    assert tw.visible_targets(t) == []


def test_outlaw_with_plunder_is_visible_at_any_distance():
    t = town({"A": {"at": [0, 0], "plunder": 1}, "B": {"at": [4, 4]}})
    assert [v["name"] for v in tw.visible_targets(t)] == ["A"]


def test_revealed_unplundered_target_building_is_visible():
    t = town({"A": {"at": [0, 0]}}, targets=[{"building": "bank"}, {"building": "hotel", "plundered": True}],
             revealed={"bank": (4, 0), "hotel": (0, 4)})
    assert tw.visible_targets(t) == [{"kind": "building", "name": "bank", "at": [4, 0]}]


def test_hidden_target_building_is_not_visible():
    t = town({"A": {"at": [0, 0]}}, targets=[{"building": "bank"}], revealed={"saloon": (4, 0)})
    assert tw.visible_targets(t) == []


def test_escaped_plunderer_visibility_option():
    t = town({"A": {"escaped": True, "plunder": 1}, "B": {"at": [1, 1]}})
    assert tw.visible_targets(t) == []
    assert [v["name"] for v in tw.visible_targets(t, CactusReadings(escaped_visible=True))] == ["A"]


# ---- closest outlaw (C6)

def test_closest_outlaw_unique():
    t = town({"A": {"at": [0, 0]}, "B": {"at": [2, 3]}, "C": {"at": [4, 4]}})
    d, tied = tw.closest_outlaws(t)
    assert d == 1 and [o.name for o in tied] == ["B"]


def test_closest_outlaw_ties_listed():
    t = town({"A": {"at": [0, 2]}, "B": {"at": [2, 4]}, "C": {"at": [4, 4]}})
    d, tied = tw.closest_outlaws(t)
    assert d == 2 and [o.name for o in tied] == ["A", "B"]


def test_escaped_outlaws_are_not_targets():
    t = town({"A": {"escaped": True}, "B": {"at": [4, 4]}})
    assert [o.name for o in tw.closest_outlaws(t)[1]] == ["B"]


# ---- movement

def test_straight_step_toward_single_outlaw():
    t = town({"A": {"at": [2, 0]}})
    opts = tw.step_options(t)
    assert [(o["to"], o["p"]) for o in opts] == [((2, 1), 1)]


def test_diagonal_outlaw_both_steps_listed_c6_default():
    t = town({"A": {"at": [4, 4]}})
    opts = {o["to"]: o["p"] for o in tw.step_options(t)}
    assert opts == {(3, 2): Fraction(1, 2), (2, 3): Fraction(1, 2)}
    assert [o["to"] for o in tw.step_options(t, readings=CactusReadings(step_tie="horizontal_first"))] == [(3, 2)]
    assert [o["to"] for o in tw.step_options(t, readings=CactusReadings(step_tie="vertical_first"))] == [(2, 3)]


def test_tied_outlaws_are_equally_likely_targets():
    t = town({"A": {"at": [0, 2]}, "B": {"at": [2, 4]}})
    opts = {(o["to"], o["toward"]): o["p"] for o in tw.step_options(t)}
    assert opts == {((1, 2), "A"): Fraction(1, 2), ((2, 3), "B"): Fraction(1, 2)}


def test_no_move_when_sharing_building_with_outlaw():
    t = town({"A": {"at": [2, 2]}, "B": {"at": [0, 0]}})
    assert tw.step_options(t) == ()
    assert tw.move_outcomes(t, "SPRINT") == ()


def test_horizontal_and_vertical_sneak_c7():
    t = town({"A": {"at": [2, 0]}})  # same column: no horizontal step shortens the distance
    (p, same, act), = tw.move_outcomes(t, "HORIZONTAL-SNEAK")
    assert p == 1 and same == t and act["not_possible"] and act["toward"] == ["A"]
    (p, t2, act), = tw.move_outcomes(t, "VERTICAL-SNEAK")
    assert t2.ranger == (2, 1) and act["reveals"] is None
    plain = tw.move_outcomes(t, "HORIZONTAL-SNEAK", CactusReadings(directional_sneak="plain_sneak"))
    assert [o[1].ranger for o in plain] == [(2, 1)]


def test_directional_sneak_draws_the_tied_target_first():
    """C6: 'determine the target randomly between them': A and B both 2 away; the target is drawn
    first (1/2 each); HORIZONTAL SNEAK has a step toward B only, so toward A it is not possible."""
    t = town({"A": {"at": [2, 0]}, "B": {"at": [0, 2]}})
    outs = {(o[2]["toward"][0], bool(o[2].get("not_possible"))): (o[0], o[1].ranger)
            for o in tw.move_outcomes(t, "HORIZONTAL-SNEAK")}
    assert outs == {("B", False): (Fraction(1, 2), (1, 2)), ("A", True): (Fraction(1, 2), (2, 2))}


def test_run_reveals_sneak_does_not():
    t = town({"A": {"at": [2, 0]}})
    (_, run, act), = tw.move_outcomes(t, "RUN")
    assert run.building((2, 1)) == tw.REVEALED_UNKNOWN and act["reveals"] == [2, 1]
    (_, sneak, act), = tw.move_outcomes(t, "SNEAK")
    assert sneak.building((2, 1)) == "?" and act["reveals"] is None


def test_sprint_two_steps_reveals_only_the_end():
    t = town({"A": {"at": [2, 0]}})
    (_, t2, act), = tw.move_outcomes(t, "SPRINT")
    assert t2.ranger == (2, 0) and act["path"] == [[2, 1], [2, 0]]
    assert t2.building((2, 0)) == tw.REVEALED_UNKNOWN and t2.building((2, 1)) == "?"


def test_sprint_stops_on_outlaw_building():
    t = town({"A": {"at": [2, 1]}})
    (_, t2, act), = tw.move_outcomes(t, "SPRINT")
    assert t2.ranger == (2, 1) and len(act["path"]) == 1


def test_double_sneak_exact_distribution():
    t = town({"A": {"at": [4, 4]}})
    dist = {}
    for p, t2, _ in tw.move_outcomes(t, "DOUBLE-SNEAK"):
        dist[t2.ranger] = dist.get(t2.ranger, 0) + p
    assert dist == {(4, 2): Fraction(1, 4), (3, 3): Fraction(1, 2), (2, 4): Fraction(1, 4)}


# ---- decisions on whole positions

def test_decide_uses_visible_row_and_outlaw_sharing_building():
    p = pos({"A": {"at": [2, 2], "plunder": 1}, "B": {"at": [0, 0]}}, card="RUN DUEL | SNEAK")
    r = decide(p)
    assert r["visible_target"] and r["row"] == "visible" and r["sharing"] == ["A"]
    assert r["duel"] == {"win": "1/2", "lose": "1/2", "tie": "0"}  # one d6 each, no modifiers, ties re-rolled
    won = [o for o in r["outcomes"] if o["actions"][1].get("result") == "won"]
    lost = [o for o in r["outcomes"] if o["actions"][1].get("result") == "lost"]
    assert [o["p"] for o in won] == ["1/2"] and won[0]["ranger"] == [2, 2]
    assert all(o["actions"][0]["skipped"] and o["actions"][1]["with"] == "A" for o in r["outcomes"])
    # pushed to one of the 4 orthogonal neighbours of the Sheriff's Office, 1/2 x 1/4 each (C11 default)
    assert sorted((o["ranger"], o["p"]) for o in lost) == [([1, 2], "1/8"), ([2, 1], "1/8"), ([2, 3], "1/8"),
                                                          ([3, 2], "1/8")]


def test_decide_uses_no_visible_row():
    p = pos({"A": {"at": [2, 0]}}, card="DUEL | RUN")
    r = decide(p)
    assert r["row"] == "no_visible"
    (o,) = r["outcomes"]
    assert o["ranger"] == [2, 1] and o["revealed"] == [[2, 1]]


@pytest.mark.parametrize("name", ["example-ranger-chase.json", "example-ranger-sharing.json"])
def test_shipped_examples_decide(name):
    r = decide(read_json(SCENARIOS / "cactus" / name))
    assert sum(Fraction(o["p"]) for o in r["outcomes"]) == 1
    assert "USER-STYLE EXAMPLE" in json.loads((SCENARIOS / "cactus" / name).read_text())["note"]


@pytest.mark.parametrize("change, message", [
    ({"town": [["?"] * 5] * 4}, "expected 5 rows"),
    ({"ranger": [5, 0]}, "out of range"),
    ({"outlaws": []}, "1 to 3 outlaws"),
    ({"outlaws": [{"name": "A", "at": [0, 0]}, {"name": "A", "at": [1, 1]}]}, "duplicate outlaw"),
    ({"outlaws": [{"name": "A"}]}, "missing field 'at'"),
    ({"outlaws": [{"name": "A", "at": [0, 0], "plunder": True}]}, "expected an integer"),
    ({"card": "RUN | FLY"}, "unknown icon 'FLY'"),
    ({"event": "storm"}, "unknown event"),
    ({"extra": 1}, "unknown key 'extra'"),
    ({"rules": {"step_tie": "diagonal"}}, "step_tie"),
])
def test_bad_positions_are_one_line_bad_input(change, message):
    p = pos({"A": {"at": [0, 0]}})
    p.update(change)
    with pytest.raises(BadInput, match=message) as exc:
        decide(p)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("targets", [5, None, "bank", [["bank"]], [{"building": 3}]])
def test_targets_must_be_a_list_of_objects(targets):
    p = pos({"A": {"at": [0, 0]}})
    p["targets"] = targets
    with pytest.raises(BadInput, match="targets"):
        decide(p)


@pytest.mark.parametrize("readings, message", [
    ({"solo_events": "yes"}, "true or false"),
    ({"duel_win_chance": "1e-99999999"}, "not a fraction"),
    ({"duel_win_chance": [1]}, "not a fraction"),
])
def test_hostile_rule_values(readings, message):
    with pytest.raises(BadInput, match=message):
        decide(pos({"A": {"at": [0, 0]}}, rules=readings))  # the document's key is "rules"
