"""Words, not code names: every reading, option and error message the pages can show names things as the rulebook
does ("player A's Main Street, column 2", "Solo deck short from round 12: stop archiving"), never by an identifier
(``short_deck=stop_archiving``, ``position.street.A[1]``, ``readings.edition``)."""

from __future__ import annotations

import json
import re

import pytest

from dashboard.outlaws.problems import in_words, problems_text
from dashboard.shared import readings as rd
from dashboard.verification import impact as impact_words
from solver.outlaws.position import initial_position
from solver.outlaws.position_json import position_problems, position_to_json
from solver.readings.options import game_readings
from solver.register import register
from tests.support.dashboard.apptest import open_page, texts

CODE = re.compile(r"`[^`]+`"  # code marks
                  r"|\b[A-Za-z][a-z0-9]*_[A-Za-z0-9_]+\b"  # snake_case
                  r"|\b[a-z_]{2,}\.[a-z_]{2,}(?:\.\w|\[)|\b(?:rules|position)\.\w"  # dotted paths
                  r"|\[\d+\]"  # indexes
                  r"|\b[a-z_]+=[\w-]")  # name=value
"""An identifier-style name in a text a player reads."""

GAMES = tuple(rd.READING_CLASSES)


def code_names(texts_: list[str]) -> list[str]:
    return [f"{m.group(0)!r} in {t[:120]!r}" for t in texts_ for m in CODE.finditer(str(t))]


def test_the_check_finds_each_kind_of_code_name():
    assert len(code_names(["boom_or_bust=flat", "position.outlaws[1].at[0]", "`short_deck`", "rules.edition: x",
                           "short_deck = stop_archiving"])) >= 5
    assert code_names(["Solo deck short from round 12 (C2): stop archiving", "player 2's column", "e.g. goals.toml"]) \
        == []


@pytest.mark.parametrize("game", GAMES)
def test_every_reading_and_value_is_named_in_words(game):
    shown: list[str] = []
    for r in game_readings(game):
        shown += [rd.reading_label(game, r.name), rd.reading_name(game, r.name)]
        for value in r.values:
            shown += [rd.describe_choice(value), rd.choice_line(game, r.name, value)]
    for entry in register().for_game(game):  # the register tab's table and the captions under each box
        shown += [rd.plain(game, entry.default), rd.plain(game, entry.source)]
        shown += [rd.plain(game, a) for a in entry.alternatives]
    assert code_names(shown) == []


@pytest.mark.parametrize("game", GAMES)
def test_changed_readings_and_the_verdict_table_name_readings_in_words(game, monkeypatch):
    probes = {r.name: r.probes[0] for r in game_readings(game) if r.probes and not r.together}
    monkeypatch.setattr(rd, "readings", lambda g: dict(probes) if g == game else {})
    shown = rd.changed_readings(game, rd.READING_CLASSES[game])
    assert len(shown) == len(probes) and code_names(shown) == []
    checked = [{"reading": k, "value": v, "result": {"holds": False}} for k, v in probes.items()]
    report = {"game": game, "seconds": 1.0, "verdicts": [
        {"id": "v", "title": "t", "default": {"holds": True}, "depends_on": checked, "undecided": checked,
         "checked": checked, "skipped": [], "holds_under_every_reading": False}]}
    (row,) = impact_words.rows(report)
    assert code_names([str(v) for v in row.values()]) == []


def _broken_positions() -> list[dict]:
    """Positions each with one field of each kind broken (a street column, a Saloon seat, a token, a supply count,
    a mark, a discard count, what a player knows, the winner), and several at once."""
    base = position_to_json(initial_position(seed=1))
    edits = [lambda d: d["street"]["A"].__setitem__(1, "cowboy"), lambda d: d["saloon"]["B"].__setitem__(0, 7),
             lambda d: d["tokens"].__setitem__(3, "gold"), lambda d: d["reserve"].append("silver"),
             lambda d: d["supply"]["A"].__setitem__("front_page", 9), lambda d: d["supply"]["B"].pop("vote"),
             lambda d: d.__setitem__("immobilized", [["A", "x"]]), lambda d: d.__setitem__("front_page", [[1]]),
             lambda d: d["discard"].__setitem__("bullet", -1), lambda d: d.__setitem__("knowledge", {"A": {"tokens": [9]}}),
             lambda d: d.__setitem__("winner", "C"), lambda d: d.__setitem__("actions_left", 5),
             lambda d: d.pop("to_move"), lambda d: d.__setitem__("street", {"A": [None] * 3, "B": 4})]
    out = []
    for edit in edits:
        doc = json.loads(json.dumps(base))
        edit(doc)
        out.append(doc)
    return out


def test_every_outlaws_position_problem_names_places_as_the_rulebook_does():
    problems = [p for doc in _broken_positions() for p in position_problems(doc)]
    assert len(problems) >= 14
    shown = [in_words(p) for p in problems] + [problems_text(problems)]
    assert code_names(shown) == []
    assert in_words("position.street.A[1]: unknown character 'x'") == "player A's Main Street, column 2: unknown " \
                                                                       "character 'x'"


def test_the_verification_register_tab_shows_no_code_name():
    at = open_page("verification", state={"ver_tab": "Rules register and readings",
                                          "readings": {"wagons": {"boom_or_bust": "flat"},
                                                       "cactus": {"short_deck": "stop_archiving"}}})
    for game in GAMES:
        at.radio(key="reg_game").set_value(game).run()
        shown = [texts(at)] + [b.label for b in at.selectbox] + [str(o) for b in at.selectbox for o in b.options]
        shown += [str(v) for d in at.dataframe for c in d.value.columns if c != "id" for v in d.value[c]]
        assert not at.exception and code_names(shown) == [], game
    assert "Solo deck short from round 12: stop archiving" in texts(at)


def test_the_outlaws_page_quotes_each_way_to_win_in_italian_with_english_beside_it_and_says_why_bad_is_brutte():
    at = open_page("outlaws")
    shown = texts(at)
    assert "\"Con le Brutte Il tuo Sicario riesce ad assassinare il Governatore dell'avversario.\"" in shown
    assert "your Hitman succeeds in assassinating your opponent's Governor. **Con le Brutte (the Bad way)**" in shown
    assert "your Sheriff succeeds in arresting your opponent's Hitman. **Con le Cattive (the Ugly way)**" in shown
    assert "So Con le Brutte, the Hitman's victory, is the Bad way, and Con le Cattive, the Sheriff's, the Ugly way." \
        in shown


def test_every_italian_passage_the_verification_page_quotes_for_outlaws_has_its_english_beside_it():
    from solver.outlaws.verify.checks import RULE_TEXT

    for check, text in RULE_TEXT.items():  # each Italian section quoted, its English right after it
        italian = re.findall(r"\b(?:Il Saloon|Lasciare il Saloon|Immobilizzato|Morte Subitanea|Lo Sceriffo|"
                             r"Il Giornalista|Prendi un Gettone)\b: '", text)
        assert text.count("(in English") >= max(1, len(italian)), check


READING_CODE = re.compile(r"\b(?:" + "|".join(sorted({n for cls in rd.READING_CLASSES.values() for n in cls.names()
                                                       if "_" in n})) + r")\b")
"""Any reading's code name (``boom_or_bust``, ``short_deck``): never on a page."""


@pytest.mark.parametrize("page", ["wagons_sheet", "wagons_play", "wagons_scenarios", "cactus", "outlaws",
                                  "outlaws_table", "verification"])
def test_no_page_names_a_reading_by_its_code_name_even_with_every_reading_changed(page):
    changed = {g: {r.name: r.probes[0] for r in game_readings(g) if r.probes and not r.together} for g in GAMES}
    at = open_page(page, state={"readings": changed})
    shown = [m.value for kind in ("markdown", "caption", "success", "info", "warning", "error") for m in getattr(at, kind)]
    shown += [w.label for kind in ("selectbox", "multiselect", "button", "toggle", "text_input", "radio")
              for w in getattr(at, kind)]
    assert not at.exception
    assert [m.group(0) for t in shown for m in READING_CODE.finditer(str(t))] == []
    assert [m.group(0) for t in shown for m in re.finditer(r"\b[a-z_]+=[\w-]+|\[\d+\]\.|\bposition\.\w", str(t))] == []
