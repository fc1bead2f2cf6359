"""Every reading is a named option: inferred register entries have an option with real alternatives,
nothing says "(not offered)", and docs/open-questions.md names the options the register names.

The checks run over whatever the register holds (one test per entry), so entries other work adds or
fixes are checked after a merge. ``KNOWN_GAPS`` lists the entries that fail today, each with who
is fixing it; they are strict xfails, so a fixed entry turns into a failure here until it leaves
the list.
"""

from __future__ import annotations

import re

import pytest

from solver.paths import REPO
from solver.readings import base as readings_base
from solver.readings import options as reading_options
from solver.register import load_register

REG = load_register()
GAME_OF = {"wagons": "wagons", "cactus": "cactus", "outlaws": "outlaws"}

KNOWN_GAPS: dict[str, str] = {}
"""Entries that fail on this branch and the work that fixes them; strict xfails, so each one fails
here once it is fixed, until it leaves this table."""

PENDING = {
    "outlaws": ("mayor_governor", "mayor_reverend", "target_immobilized", "optional_effects", "actions_per_turn",
                "extended", "not_extended", "allowed", "forbidden", "choice", "always", "exactly_two", "one_or_two",
                "repeats", "once"),
    "cactus": ("tie_target", "kept", "redrawn", "duel_discards", "every_win", "one_per_round", "max_duels_per_round",
               "pushed_to", "random_adjacent", "came_from", "sharing_pick", "random", "most_plunder", "no_move",
               "not_possible", "stay", "pass_turn", "ends_row", "icon_only"),
    "wagons": ("boom_or_bust", "per-mine", "flat", "boomtown_count", "visible", "cards", "boomtown_mines", "both",
               "either", "mountains"),
}
"""Option and value names docs/open-questions.md gives for readings other work of this round adds
(Outlaws O11/O14-O17, Cactus Town C6/C10-C14, Lone Cowboy W5/W6/W11); drop them once merged."""

INFERRED = re.compile(r"\binferred\b", re.IGNORECASE)


def _inferred(rule) -> bool:
    return rule.inferred or bool(INFERRED.search(rule.default))


def _problems(rule) -> list[str]:
    out = []
    texts = [rule.default, rule.notes, *rule.alternatives]
    if any("not offered" in t.lower() for t in texts):
        out.append("says '(not offered)': an alternative the text allows must be an option")
    if _inferred(rule):
        if not rule.option:
            out.append("is inferred but names no option")
        if not [a for a in rule.alternatives if a.strip() and "not offered" not in a.lower()]:
            out.append("is inferred but lists no real alternative")
    if rule.option and rule.game in GAME_OF:
        names = {r.name: r for r in reading_options.game_readings(GAME_OF[rule.game])}
        if rule.option not in names:
            out.append(f"names option {rule.option!r}, which is not a field of the {rule.game} rules")
        elif len(names[rule.option].values) < 2:
            out.append(f"option {rule.option!r} has no listed alternatives")
    return out


def _cases():
    for rule in REG.rules:
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[rule.id])] if rule.id in KNOWN_GAPS else []
        yield pytest.param(rule, id=rule.id, marks=marks)


@pytest.mark.parametrize("rule", list(_cases()))
def test_every_reading_is_a_named_option(rule):
    assert _problems(rule) == [], f"{rule.id}: " + "; ".join(_problems(rule))


def test_known_gaps_are_register_entries():
    assert set(KNOWN_GAPS) <= REG.ids()


def test_the_check_catches_each_kind_of_gap():
    from dataclasses import replace

    base = REG.get("O2")
    assert _problems(base) == []
    assert "names no option" in " ".join(_problems(replace(base, option=None)))
    assert "no real alternative" in " ".join(_problems(replace(base, alternatives=("(not offered) x",))))
    assert "not offered" in " ".join(_problems(replace(REG.get("O6"), alternatives=("(not offered) stop",))))
    assert "not a field" in " ".join(_problems(replace(base, option="no_such_option")))
    assert "names no option" in " ".join(_problems(replace(REG.get("O5"), default="Strictly more (inferred).")))


# ------------------------------------------------------------------ docs/open-questions.md

def _open_ids() -> list[str]:
    """The ids docs/open-questions.md must hold, in its order: every open question of the register named by a
    letter and a number (W1, C15, O17; not its sub-entries such as W1-pick), by game then number, and the
    Outlaws "Knowledge" note."""
    ids = [r.id for r in REG.rules if r.open_question and re.fullmatch(r"[WCO]\d+", r.id)]
    order = {"W": 0, "C": 1, "O": 2}
    return sorted(ids, key=lambda i: (order[i[0]], int(i[1:]))) + ["Knowledge"]


OPEN_IDS = _open_ids()
GAME_BY_LETTER = {"W": "wagons", "C": "cactus", "O": "outlaws", "K": "outlaws"}


def _doc_entries() -> dict[str, str]:
    text = (REPO / "docs/open-questions.md").read_text(encoding="utf-8")
    parts = re.split(r"^### (\S+)", text, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def test_open_questions_doc_has_every_id_with_its_parts():
    entries = _doc_entries()
    assert list(entries) == OPEN_IDS
    for qid, body in entries.items():
        for part in ("**Open:**", "**Default:**", "**Alternatives:**", "**Inferred:**", "**Option:**"):
            assert part in body, f"docs/open-questions.md {qid}: missing {part}"


def _option_line(body: str) -> str:
    return body.split("**Option:**", 1)[1].split("\n- **", 1)[0].split("\n### ", 1)[0]


def test_open_questions_doc_names_the_register_options():
    """The doc's Option line names every option the register gives that id, and every name it
    puts in backticks is a field of the game's rules, one of its values, or a file."""
    entries = _doc_entries()
    for qid, body in entries.items():
        game = GAME_BY_LETTER[qid[0]]
        readings = reading_options.game_readings(game)
        words = ({r.name for r in readings} | {str(readings_base.canon(v)).lower() for r in readings for v in r.values}
                 | set(PENDING[game]))
        line = _option_line(body)
        for token in re.findall(r"`([^`]+)`", line):
            assert token.lower() in words or "/" in token, f"{qid}: `{token}` is not an option, a value or a file"
        if qid in REG.ids() and REG.get(qid).option:
            assert f"`{REG.get(qid).option}`" in line, f"{qid}: the Option line must name `{REG.get(qid).option}`"


def test_every_reading_belongs_to_a_register_entry():
    """Each selectable reading is labelled by the register entry it belongs to (the later edition's difficulty
    had none and was shown by its bare name; C8's die sides and C10's duels a round were found only by name)."""
    from solver.readings.options import GAMES, game_readings, option_rules

    missing = [f"{game}.{r.name}" for game in GAMES for r in game_readings(game) if not option_rules(game, r.name)]
    assert missing == []
    assert [r.id for r in option_rules("cactus", "die_sides")] == ["C8"]
    assert [r.id for r in option_rules("cactus", "duels_per_round")] == ["C10"]
    assert [r.id for r in option_rules("wagons", "difficulty")] == ["W-later-difficulty"]
    assert [r.id for r in option_rules("cactus", "solo_event_cards")] == ["C1"]


def test_an_options_rules_come_from_its_own_bullet_not_from_another_that_mentions_it():
    """The rules a docstring cites for an option are those of the bullet about it (its names before the "(" or
    ":"), not of the first bullet that mentions it (review, 2026-12-02)."""
    from solver.readings.options import cited_rules

    doc = """Readings.

    - ``edition`` (rule:W4): "later" scores per card at ``difficulty``
      (rule:W6).
    - ``a``, ``difficulty`` (rule:W8, rule:W9): the level.
    - ``b``: mentions ``c`` (rule:W1).
    """
    assert cited_rules(doc, "edition") == ["W4", "W6"] and cited_rules(doc, "difficulty") == ["W8", "W9"]
    assert cited_rules(doc, "a") == ["W8", "W9"] and cited_rules(doc, "c") == [] and cited_rules(doc, "b") == ["W1"]
