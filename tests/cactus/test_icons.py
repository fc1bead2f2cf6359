"""Icon sequence syntax (parse errors name the token and its column) and resolution rules."""

from fractions import Fraction

import pytest

from solver.cactus import icons
from solver.cactus import town as tw
from solver.errors import BadInput


def names(seq):
    return [[i.text() for i in e] for e in seq]


def test_parse_sequence_with_alternatives_and_two_word_icons():
    seq = icons.parse_sequence("duel/run  Double Sneak h-sneak/V_SNEAK [shoot:possible] SPRINT")
    assert names(seq) == [["DUEL", "RUN"], ["DOUBLE-SNEAK"], ["HORIZONTAL-SNEAK", "VERTICAL-SNEAK"],
                          ["[SHOOT:possible]"], ["SPRINT"]]
    assert icons.sequence_text(seq) == "DUEL/RUN DOUBLE-SNEAK HORIZONTAL-SNEAK/VERTICAL-SNEAK [SHOOT:possible] SPRINT"


def test_slash_with_spaces_binds_single_icons():
    assert names(icons.parse_sequence("RUN SNEAK / DUEL")) == [["RUN"], ["SNEAK", "DUEL"]]


def test_parse_card_rows():
    card = icons.parse_card("DUEL/RUN | SNEAK SNEAK")
    assert names(card.visible) == [["DUEL", "RUN"]] and names(card.no_visible) == [["SNEAK"], ["SNEAK"]]
    card = icons.parse_card({"visible": "PASS", "no_visible": "RUN ALL"})
    assert names(card.no_visible) == [["RUN-ALL"]]


@pytest.mark.parametrize("text, fragment", [
    ("RUN JUMP", "unknown icon 'JUMP' at column 5 (token 2)"),
    ("/RUN", "no icon before the slash '/' at column 1"),
    ("RUN/", "no icon after the slash '/' at column 4"),
    ("RUN // SNEAK", "no icon before the slash '/' at column 6 (token 3)"),
    ("DOUBLE RUN", "'DOUBLE' at column 1 (token 1) must be followed by SNEAK"),
    ("   ", "empty"),
    ("RUN | SNEAK", "unexpected '|' at column 5"),
    ("RUN []", "empty custom icon '[]' at column 5"),
    ("RUN 3", "unknown icon '3' at column 5"),
])
def test_parse_errors_name_token_and_column(text, fragment):
    with pytest.raises(BadInput) as exc:
        icons.parse_sequence(text)
    assert fragment in str(exc.value) and "\n" not in str(exc.value)


def test_card_errors_give_absolute_columns():
    with pytest.raises(BadInput, match="unknown icon 'FLY' at column 7"):
        icons.parse_card("RUN | FLY")
    with pytest.raises(BadInput, match="second '\\|' at column 13"):
        icons.parse_card("RUN | SNEAK | PASS")
    with pytest.raises(BadInput, match="two rows"):
        icons.parse_card("RUN")
    with pytest.raises(BadInput, match="unknown key"):
        icons.parse_card({"visible": "RUN", "none": "RUN"})
    with pytest.raises(BadInput, match="longer than"):
        icons.parse_sequence("RUN " * 100)


def make(outlaws, ranger=(2, 2)):
    g = [["?"] * 5 for _ in range(5)]
    return tw.Town(tuple(tuple(r) for r in g), ranger,
                   tuple(tw.Outlaw(n, tuple(at)) for n, at in outlaws.items()))


def resolve(t, text):
    return icons.resolve_sequence(t, icons.parse_sequence(text))


def test_uninterrupted_sequence_left_to_right():
    (o,) = resolve(make({"A": (2, 0)}), "SNEAK DUEL")
    assert [a["icon"] for a in o["actions"]] == ["SNEAK", "DUEL"]
    assert o["actions"][0]["to"] == [2, 1] and o["actions"][1].get("skipped")
    outs = resolve(make({"A": (2, 1)}), "SNEAK DUEL")
    assert all(o["actions"][1]["icon"] == "DUEL" and o["actions"][1]["with"] == "A" for o in outs)
    assert sum(Fraction(o["p"]) for o in outs) == 1


def test_impossible_icons_are_skipped():
    (o,) = resolve(make({"A": (2, 2)}), "RUN CONFUSE")
    assert o["actions"][0] == {"icon": "RUN", "skipped": True} and o["actions"][1]["icon"] == "CONFUSE"


def test_slash_takes_first_possible():
    outs = resolve(make({"A": (2, 2)}), "DUEL/RUN")
    assert {o["actions"][0]["icon"] for o in outs} == {"DUEL"}
    (o,) = resolve(make({"A": (2, 0)}), "DUEL/RUN")
    assert o["actions"][0]["icon"] == "RUN"


def test_nothing_possible_passes():
    (o,) = resolve(make({"A": (2, 0)}), "DUEL CONFUSE/DUEL")
    assert o["actions"][-1]["pass_turn"] and all(a.get("skipped") for a in o["actions"])
    (o,) = resolve(make({"A": (2, 0)}), "DUEL CONFUSE")
    assert o["actions"][-1]["icon"] == "PASS" and all(a.get("skipped") for a in o["actions"][:-1])


def test_custom_icon_outcome_is_the_users():
    (o,) = resolve(make({"A": (2, 2)}), "RUN [SHOOT:possible]")
    assert o["actions"][1]["icon"] == "[SHOOT:possible]"
    (o,) = resolve(make({"A": (2, 0)}), "[SHOOT:not possible]/RUN")
    assert o["actions"][0]["icon"] == "RUN"


def test_duel_with_two_outlaws_sharing_is_random():
    outs = resolve(make({"A": (2, 2), "B": (2, 2)}), "DUEL")
    chance: dict = {}
    for o in outs:
        chance[o["actions"][0]["with"]] = chance.get(o["actions"][0]["with"], 0) + Fraction(o["p"])
    assert chance == {"A": Fraction(1, 2), "B": Fraction(1, 2)}


def test_sequence_branches_sum_to_one():
    outs = resolve(make({"A": (0, 0), "B": (4, 4)}), "RUN SPRINT/SNEAK")
    assert sum(Fraction(o["p"]) for o in outs) == 1
    assert {tuple(o["ranger"]) for o in outs} <= {(0, 0), (4, 4), (1, 0), (0, 1), (4, 3), (3, 4),
                                                  (1, 1), (3, 3), (2, 0), (0, 2), (4, 2), (2, 4)}
