"""The Lone Ranger's open readings C6 and C10-C15 on positions worked out by hand from the rulebook
text (docs/open-questions.md); every alternative of every option below is exercised."""

import json
from fractions import Fraction

import pytest

from solver.cactus import duel as du
from solver.cactus import events as ev
from solver.cactus import icons
from solver.cactus import town as tw
from solver.cactus.ranger import decide
from solver.cactus.readings import CHOICES, CactusReadings
from solver.errors import BadInput

FILL = "tumbleweed"


def make(outlaws, ranger=(2, 2)):
    g = [["?"] * 5 for _ in range(5)]
    outs = []
    for name, spec in outlaws.items():
        at, plunder = spec if isinstance(spec[0], tuple) else (spec, 0)
        outs.append(tw.Outlaw(name, at, plunder))
    return tw.Town(tuple(tuple(r) for r in g), ranger, tuple(outs))


def resolve(t, text, readings=CactusReadings(), turn=None):
    return icons.resolve_sequence(t, icons.parse_sequence(text), readings, turn or icons.Turn())


def by_end(outs):
    """Chance of each final building."""
    out: dict = {}
    for o in outs:
        out[tuple(o["ranger"])] = out.get(tuple(o["ranger"]), 0) + Fraction(o["p"])
    return out


def position(outlaws, card, ranger=(2, 2), **extra):
    g = [["?"] * 5 for _ in range(5)]
    g[2][2] = "sheriff's office"
    d = {"town": g, "ranger": list(ranger), "card": card, "targets": [],
         "outlaws": [{"name": n, "at": list(at)} for n, at in outlaws.items()]}
    d.update(extra)
    return d


# ---------------------------------------------------------------------------------------- C6

def test_tie_target_drawn_first_then_slash_falls_through():
    """A (2,0) and B (0,2) are both 2 away from (2,2). H-SNEAK/RUN: the target is drawn (1/2 each);
    toward B the H-SNEAK steps to (1,2); toward A it has no horizontal step, so it is not possible and
    RUN is carried out toward A, the target drawn (C6 tie_target kept): to (2,1)."""
    outs = resolve(make({"A": (2, 0), "B": (0, 2)}), "H-SNEAK/RUN")
    assert by_end(outs) == {(1, 2): Fraction(1, 2), (2, 1): Fraction(1, 2)}
    sneak = [o for o in outs if o["actions"][0]["icon"] == "HORIZONTAL-SNEAK" and not o["actions"][0].get("not_possible")]
    assert [o["p"] for o in sneak] == ["1/2"] and sneak[0]["actions"][0]["toward"] == ["B"]
    (fell,) = [o for o in outs if o["actions"][0].get("not_possible")]
    assert fell["p"] == "1/2" and fell["actions"][0]["toward"] == ["A"]
    assert fell["actions"][1]["icon"] == "RUN" and fell["actions"][1]["toward"] == ["A"]


def test_tie_target_redrawn_by_the_fallback():
    """C6 tie_target redrawn: the fallback RUN draws again (1/2 toward A to (2,1), 1/2 toward B to
    (1,2)): (1,2) with 1/2 + 1/4, (2,1) with 1/4."""
    outs = resolve(make({"A": (2, 0), "B": (0, 2)}), "H-SNEAK/RUN", CactusReadings(tie_target="redrawn"))
    assert by_end(outs) == {(1, 2): Fraction(3, 4), (2, 1): Fraction(1, 4)}


def test_kept_target_only_while_still_among_the_closest():
    """A (2,0) 2 away, B (0,2) 2 away. Drawn A: V-SNEAK to (2,1) (A now 1 away, B 3): H-SNEAK then has
    no step toward A: skipped. Drawn B: V-SNEAK has no vertical step toward B: skipped; H-SNEAK toward
    B (kept) to (1,2)."""
    outs = resolve(make({"A": (2, 0), "B": (0, 2)}), "V-SNEAK H-SNEAK")
    assert by_end(outs) == {(2, 1): Fraction(1, 2), (1, 2): Fraction(1, 2)}
    redrawn = resolve(make({"A": (2, 0), "B": (0, 2)}), "V-SNEAK H-SNEAK", CactusReadings(tie_target="redrawn"))
    # drawn B and skipped: the H-SNEAK draws again: toward B (1/4) to (1,2), toward A (1/4) not possible
    assert by_end(redrawn) == {(2, 1): Fraction(1, 2), (1, 2): Fraction(1, 4), (2, 2): Fraction(1, 4)}


def test_tie_target_without_step_alone_is_skipped():
    """V-SNEAK alone, the same tie: toward B (same row) no vertical step: skipped, he passes (1/2)."""
    outs = resolve(make({"A": (2, 0), "B": (0, 2)}), "V-SNEAK")
    assert by_end(outs) == {(2, 1): Fraction(1, 2), (2, 2): Fraction(1, 2)}
    (idle,) = [o for o in outs if o["ranger"] == [2, 2]]
    assert idle["actions"][0]["skipped"] and idle["actions"][-1]["icon"] == "PASS"


# ---------------------------------------------------------------------------------------- C10

def test_two_duel_wins_in_one_round_discard_two_events():
    """Two duels won in one round: every win discards the next event (C10 every_win)."""
    deck = (FILL, "sandstorm", "distraction", "train", ev.MARSHAL)
    readings = CactusReadings(duel_win_chance=Fraction(1), duels_per_round=2)
    ((p, s),) = ev.play_round(ev.EventsInPlay(deck), readings)
    assert p == 1 and s.deck == ("train", ev.MARSHAL) and s.discard == ("distraction", "sandstorm", FILL)
    ((p, s),) = ev.play_round(ev.EventsInPlay(deck), CactusReadings(duel_win_chance=Fraction(1), duels_per_round=2,
                                                                duel_discards="one_per_round"))
    assert s.deck == ("distraction", "train", ev.MARSHAL)


def test_duel_wins_binomial_and_capped():
    """Two duels at 1/2: 0, 1, 2 wins with 1/4, 1/2, 1/4; one a round: 0 or 1 with 1/4, 3/4."""
    assert ev.duel_wins(CactusReadings(duel_win_chance=Fraction(1, 2), duels_per_round=2)) == (
        (0, Fraction(1, 4)), (1, Fraction(1, 2)), (2, Fraction(1, 4)))
    assert ev.duel_wins(CactusReadings(duel_win_chance=Fraction(1, 2), duels_per_round=2, duel_discards="one_per_round")) \
        == ((0, Fraction(1, 4)), (1, Fraction(3, 4)))


@pytest.mark.parametrize("reading, want", [
    # deck other, other, marshal; 2 duels a round at 1/2 (worked by hand):
    # every_win: round 1 two wins reach the marshal (1/4); one win -> round 2 draws it (1/2); no win ->
    # round 2 draws 'other', then 1+ wins (3/4) reach it in round 2, else round 3
    ("every_win", {1: Fraction(1, 4), 2: Fraction(11, 16), 3: Fraction(1, 16)}),
    # one a round: round 1 can discard only the first 'other'
    ("one_per_round", {2: Fraction(15, 16), 3: Fraction(1, 16)}),
])
def test_end_round_with_several_duels_hand_computed(reading, want):
    from solver.cactus import odds

    readings = CactusReadings(duel_win_chance=Fraction(1, 2), duels_per_round=2, duel_discards=reading)
    got = dict(odds._end_from(ev.EventsInPlay((FILL, FILL, ev.MARSHAL)), readings))
    assert {k: v for k, v in got.items() if v} == want


# ---------------------------------------------------------------------------------------- C11

def test_run_after_a_lost_duel_in_the_same_row():
    """DUEL RUN, A on his building: won (1/2) he stays and RUN is not possible (still sharing); lost
    (1/2) he is pushed to one of the 4 neighbours (1/8 each) and the RUN takes him back toward A."""
    outs = resolve(make({"A": (2, 2)}), "DUEL RUN")
    won = [o for o in outs if o["actions"][0]["result"] == "won"]
    lost = [o for o in outs if o["actions"][0]["result"] == "lost"]
    assert len(won) == 1 and won[0]["p"] == "1/2" and won[0]["actions"][1]["skipped"]
    assert sorted(tuple(o["actions"][0]["pushed_to"]) for o in lost) == [(1, 2), (2, 1), (2, 3), (3, 2)]
    assert all(o["p"] == "1/8" and o["actions"][1]["icon"] == "RUN" and o["ranger"] == [2, 2] for o in lost)


def test_pushed_back_to_the_building_he_came_from():
    """C11 came_from: SNEAK to A's building (2,1) from (2,2), DUEL lost -> back to (2,2), RUN -> (2,1)."""
    readings = CactusReadings(pushed_to="came_from")
    outs = resolve(make({"A": (2, 1)}), "SNEAK DUEL RUN", readings)
    (lost,) = [o for o in outs if o["actions"][1].get("result") == "lost"]
    assert lost["p"] == "1/2" and lost["actions"][1]["pushed_to"] == [2, 2] and lost["ranger"] == [2, 1]
    # he did not move: the position names where he came from, else it is bad input
    outs = resolve(make({"A": (2, 2)}), "DUEL", readings, icons.Turn(came_from=(3, 2)))
    assert {tuple(o["ranger"]) for o in outs} == {(2, 2), (3, 2)}
    with pytest.raises(BadInput, match="came_from"):
        resolve(make({"A": (2, 2)}), "DUEL", readings)


def test_position_duel_chances_and_ties():
    """Second shots 3 vs 1 on one d6 each: he wins when d1 + 3 > d2 + 1: 26 of 36, loses 6, ties 4;
    re-rolled ties: 26/32 = 13/16. Under duel_ties=tie the 4/36 = 1/9 tie is a third branch."""
    p = position({"A": (2, 2)}, "DUEL | DUEL", duel={"ranger_shot": 3, "outlaw_shot": 1})
    assert decide(p)["duel"] == {"win": "13/16", "lose": "3/16", "tie": "0"}
    r = decide(p, CactusReadings(duel_ties="tie"))
    assert r["duel"] == {"win": "13/18", "lose": "1/6", "tie": "1/9"}
    (tie,) = [o for o in r["outcomes"] if o["actions"][0]["result"] == "tie"]
    assert tie["p"] == "1/9" and tie["ranger"] == [2, 2]
    # each result is a value (issue 31), equal to the string the JSON carries
    results = [o["actions"][0]["result"] for o in r["outcomes"]]
    assert all(type(x) is icons.DuelResult for x in results) and set(results) == {"won", "lost", "tie"}


def test_came_from_in_the_position_must_be_adjacent():
    with pytest.raises(BadInput, match="came_from"):
        decide(position({"A": (2, 2)}, "DUEL | DUEL", came_from=[0, 0]))
    r = decide(position({"A": (2, 2)}, "DUEL | DUEL", came_from=[2, 1]), CactusReadings(pushed_to="came_from"))
    assert by_end(r["outcomes"]) == {(2, 2): Fraction(1, 2), (2, 1): Fraction(1, 2)}


# ---------------------------------------------------------------------------------------- C12

@pytest.mark.parametrize("reading, want", [("random", {"A": Fraction(1, 2), "B": Fraction(1, 2)}),
                                           ("most_plunder", {"A": Fraction(1)})])
def test_whom_he_confuses_when_two_share(reading, want):
    outs = resolve(make({"A": ((2, 2), 2), "B": ((2, 2), 0)}), "CONFUSE", CactusReadings(sharing_pick=reading))
    got: dict = {}
    for o in outs:
        got[o["actions"][0]["with"]] = got.get(o["actions"][0]["with"], 0) + Fraction(o["p"])
    assert got == want


def test_most_plunder_tie_is_random():
    outs = resolve(make({"A": ((2, 2), 1), "B": ((2, 2), 1), "C": ((2, 2), 0)}), "CONFUSE",
                   CactusReadings(sharing_pick="most_plunder"))
    assert sorted((o["actions"][0]["with"], o["p"]) for o in outs) == [("A", "1/2"), ("B", "1/2")]


# ---------------------------------------------------------------------------------------- C13

def test_movement_slash_while_sharing_not_possible_falls_through_to_duel():
    """'he will not move': RUN is not possible, so RUN/DUEL duels (C13 not_possible)."""
    outs = resolve(make({"A": (2, 2)}), "RUN/DUEL")
    assert {o["actions"][0]["icon"] for o in outs} == {"DUEL"}


def test_movement_slash_while_sharing_stay_stops_the_slash():
    """C13 stay: RUN is carried out as staying; the slash stops there: no duel."""
    (o,) = resolve(make({"A": (2, 2)}), "RUN/DUEL", CactusReadings(no_move="stay"))
    assert o["p"] == "1" and o["actions"] == [{"icon": "RUN", "stays": True, "to": None,
                                              "note": o["actions"][0]["note"]}] and o["ranger"] == [2, 2]


# ---------------------------------------------------------------------------------------- C14

def test_pass_ends_the_row_by_default():
    (o,) = resolve(make({"A": (2, 0)}), "PASS RUN")
    assert [a["icon"] for a in o["actions"]] == ["PASS"] and o["ranger"] == [2, 2] and o["row_ended_by_pass"]
    (o,) = resolve(make({"A": (2, 0)}), "DUEL/CONFUSE RUN")  # none of the slash possible: pass turn
    assert len(o["actions"]) == 1 and o["actions"][0]["pass_turn"] and o["ranger"] == [2, 2]


def test_pass_only_that_icon():
    readings = CactusReadings(pass_turn="icon_only")
    (o,) = resolve(make({"A": (2, 0)}), "PASS RUN", readings)
    assert [a["icon"] for a in o["actions"]] == ["PASS", "RUN"] and o["ranger"] == [2, 1]
    (o,) = resolve(make({"A": (2, 0)}), "DUEL/CONFUSE RUN", readings)
    assert o["actions"][1]["icon"] == "RUN" and o["ranger"] == [2, 1] and not o["row_ended_by_pass"]


# ---------------------------------------------------------------------------------------- C15

def test_base_game_icon_needs_its_outcome():
    with pytest.raises(BadInput, match=r"\[SHOOT:possible\] or \[SHOOT:not possible\]"):
        icons.parse_sequence("RUN [shoot]")
    with pytest.raises(BadInput, match="needs the outcome"):
        icons.parse_sequence("[shoot:maybe]")
    (o,) = resolve(make({"A": (2, 0)}), "[SHOOT:not possible] RUN")
    assert o["actions"][0]["skipped"] and o["ranger"] == [2, 1]


def test_cli_bare_custom_icon_is_one_line_exit_2(tmp_path, capsys):
    from solver.cli import main

    f = tmp_path / "p.json"
    f.write_text(json.dumps(position({"A": (2, 0)}, "[SHOOT] | RUN")))
    assert main(["cactus", "ranger", str(f), "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "[SHOOT:possible]" in err


# ---------------------------------------------------------------------------------------- events in duels

@pytest.mark.parametrize("events, msg", [
    (("sandstorm", "distraction"), "one event card"),
    (("distraction", "distraction"), "one event card"),
    (("train",), "does not change duels"),
    (("disorder",), "enter 0"),
])
def test_duel_refuses_more_than_one_or_non_duel_events(events, msg):
    with pytest.raises(BadInput, match=msg):
        du.duel_odds(0, 0, events)


def test_cli_duel_two_events_exit_2(capsys):
    from solver.cli import main

    assert main(["cactus", "duel", "--event", "distraction", "--event", "distraction", "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "one event card" in err


def test_building_names_match_as_typed():
    p = position({"A": (0, 0)}, "RUN | PASS")
    p["town"][1][1] = "Bank "
    p["targets"] = [{"building": "bank", "plundered": False}]
    assert decide(p)["visible"] == [{"kind": "building", "name": "bank", "at": [1, 1]}]


def test_dried_up_well_limits_run_all_as_the_icon_is_typed():
    well = ev.round_effects("dried-up-water-well")
    assert [ev.standees_allowed(a, 3, well) for a in ("RUN-ALL", "run all", "Run_All", "SNEAK-ALL")] == [1, 1, 1, 3]


def test_every_new_option_value_is_exercised_here():
    """The alternatives of C10-C14 listed in CHOICES are the ones these tests select."""
    assert CHOICES["tie_target"] == ("kept", "redrawn")
    assert CHOICES["duel_discards"] == ("every_win", "one_per_round")
    assert CHOICES["pushed_to"] == ("random_adjacent", "came_from")
    assert CHOICES["sharing_pick"] == ("random", "most_plunder")
    assert CHOICES["no_move"] == ("not_possible", "stay")
    assert CHOICES["pass_turn"] == ("ends_row", "icon_only")


def test_register_names_every_new_reading_with_its_option():
    """C10-C15 are in the register; those with an option name a CactusReadings field whose values the
    entry's default and alternatives mention; every inferred Cactus entry has an option or says why
    it is not a choice."""
    from dataclasses import fields

    from solver.register import load_register

    reg = load_register()
    names = {f.name for f in fields(CactusReadings)}
    for rid, option in (("C6-tie-target", "tie_target"), ("C10", "duel_discards"), ("C11", "pushed_to"), ("C12", "sharing_pick"),
                        ("C13", "no_move"), ("C14", "pass_turn"), ("C-duels-a-round", "max_duels_per_round")):
        rule = reg.get(rid)
        assert rule.option == option and option in names and rule.status == "implemented"
        for value in CHOICES.get(option, ()):
            assert value in rule.default + " ".join(rule.alternatives), (rid, value)
    assert reg.get("C15").option is None and "nothing to choose" in reg.get("C15").default
    for rule in reg.for_game("cactus"):
        if rule.inferred:
            assert (rule.option and rule.alternatives) or rule.notes.startswith("Not a choice"), rule.id
        assert "docs/open-questions.md" not in rule.source.replace("docs/open-questions.md", "")
        assert "outside-facts" not in rule.source and ".txt" not in rule.source


def test_cli_verify_takes_readings(capsys):
    from solver.cli import main

    assert main(["cactus", "verify", "--players", "2", "--quick", "--rule", "duel_discards=one_per_round",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (bound,) = [c for c in data["checks"] if c["id"].startswith("event-end-bound-with-duels/")]
    assert bound["id"] == "event-end-bound-with-duels/one_per_round/revealed/p2"
    assert bound["details"]["earliest"] == 3 and data["rules"]["duel_discards"] == "one_per_round"


def test_chase_example_by_hand():
    """scenarios/cactus/example-ranger-chase.json, row 'DUEL/RUN SNEAK' (the saloon is a revealed
    target). From (2,2), outlaws 1 (0,1) and 3 (3,0) tie at 3. RUN: the target is drawn (1/2 each),
    each with two shortening steps (1/4 each): toward 1 to (1,2) or (2,1), toward 3 to (3,2) or (2,1).
    SNEAK keeps the target while still among the closest: from (1,2) toward 1 (alone at 2): (0,2) or
    (1,1); from (2,1) toward 1 (tied with 3): (1,1) only; from (3,2) toward 3: (3,1); from (2,1)
    toward 3: (3,1) or (2,0)."""
    from solver.io.read import read_json
    from solver.paths import SCENARIOS

    r = decide(read_json(SCENARIOS / "cactus" / "example-ranger-chase.json"))
    assert r["row"] == "visible" and r["closest"]["outlaws"] == ["outlaw 1", "outlaw 3"]
    assert by_end(r["outcomes"]) == {(0, 2): Fraction(1, 8), (1, 1): Fraction(3, 8), (3, 1): Fraction(3, 8),
                                     (2, 0): Fraction(1, 8)}


@pytest.mark.parametrize("name, value", [("added_card", "lowest_number"), ("step_tie", "vertical_first"),
                                         ("pushed_to", "came_from"), ("duel_ties", "tie")])
def test_marshal_odds_do_not_read_what_they_say_they_do_not(name, value):
    """An option outside ``reads`` leaves the odds unchanged (solo and 2 players with duel discards)."""
    from dataclasses import replace

    from solver.cactus import odds

    base = CactusReadings(duel_win_chance=Fraction(1, 3), duels_per_round=2)
    for players in (None, 2):
        assert name not in odds.reads(players, base)
        assert odds.marshal_odds(players, replace(base, **{name: value}))["rounds"] == \
            odds.marshal_odds(players, base)["rounds"]
    assert "duel_discards" in odds.marshal_odds(2, base)["reads"]
