"""The three Outlaws victories are named in one place, with the Italian name beside the English edition's
(rule:O-victory-good, rule:O-victory-bad, rule:O-victory-ugly; issue 32, "Wrong names").

The Italian text ("Vincere la partita"): "Con le Buone Il tuo Governatore si rivela e prende il gettone
Elezione." "Con le Brutte Il tuo Sicario riesce ad assassinare il Governatore dell'avversario." "Con le
Cattive Il tuo Sceriffo riesce ad arrestare il Sicario dell'avversario." The English edition calls the
Hitman's victory the Bad way and the Sheriff's the Ugly way (register O-victory-bad / O-victory-ugly), so
the contract's values stay: "bad" is the assassination (Con le Brutte), "ugly" the arrest (Con le Cattive).
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from solver import cli
from solver.outlaws import game as gm
from solver.outlaws import line as ln
from solver.outlaws.position import VICTORIES
from solver.outlaws.position_json import position_from_json
from solver.outlaws.victory import VICTORY_BY_VALUE, WAYS_TO_WIN, sudden_death_victories, victory_name, victory_words
from solver.paths import REPO, SCENARIOS
from solver.register import load_register

WON_UGLY = SCENARIOS / "outlaws" / "won-ugly.json"


def _position(street_b, saloon_b=("indian", "journalist")):
    """won-ugly.json, not yet won, A to move, with B's street and Saloon as given (A's street: Governor,
    Hitman, Sheriff, Indian, Merchant, Dancer, Journalist, Bandit; A holds a Bullet and Handcuffs)."""
    doc = json.loads(WON_UGLY.read_text())
    for key in ("winner", "victory", "provenance", "description"):
        doc.pop(key, None)
    doc["to_move"] = "A"
    doc["street"]["B"] = list(street_b)
    doc["saloon"]["B"] = list(saloon_b)
    return gm.Game(position_from_json(doc), gm.initial_state(0).readings)


def _ability(game, actor, call=None):
    return next(p for p in gm.legal_actions(game)
                if p.action.kind == "ability" and p.action.actor == actor and p.action.call == call)


def test_one_table_names_every_victory_value_of_the_contract():
    assert tuple(v.value for v in WAYS_TO_WIN) == VICTORIES == ("good", "bad", "ugly")
    assert [(v.italian, v.english) for v in WAYS_TO_WIN] == [("Con le Buone", "Good"), ("Con le Brutte", "Bad"),
                                                             ("Con le Cattive", "Ugly")]
    assert [v.literal for v in WAYS_TO_WIN] == ["with the good (means)", "with the ugly (means)",
                                                "with the bad (means)"]
    assert victory_name("bad") == "Con le Brutte (the Bad way)" and victory_name(None) == "no victory"
    assert sudden_death_victories() == "Con le Brutte (the Bad way) and Con le Cattive (the Ugly way)"


@pytest.mark.parametrize("value", ["good", "bad", "ugly"])
def test_the_register_quotes_the_italian_name_and_shows_both(value):
    v = VICTORY_BY_VALUE[value]
    entry = load_register().get(v.rule)
    assert f"'{v.italian} " in entry.source  # the rulebook passage the name comes from
    assert entry.title.startswith(v.name)
    assert "English edition" in entry.source and "Kickstarter" in entry.source


def test_the_hitmans_shot_is_con_le_brutte():
    """B's Governor stands across A's Hitman (column 1); B's Sheriff (column 5) is not beside him: A wins."""
    game = _position(["bandit", "governor", "mayor", "reverend", "hitman", "sheriff", "merchant", "dancer"])
    [(_, after, text)] = ln.outcome_texts(game, _ability(game, "hitman"))
    assert after.position.winner == "A" and after.position.victory == "bad"
    assert "A wins Con le Brutte (the Bad way): the Hitman assassinates the opposing Governor" in text


def test_the_sheriffs_arrest_is_con_le_cattive():
    """B's Hitman stands across A's Sheriff (column 2), no Reverend on B's street: A arrests him and wins."""
    game = _position(["bandit", "indian", "hitman", "governor", "mayor", "sheriff", "merchant", "dancer"],
                     ("reverend", "journalist"))
    [(_, after, text)] = ln.outcome_texts(game, _ability(game, "sheriff", "hitman"))
    assert after.position.winner == "A" and after.position.victory == "ugly"
    assert "A wins Con le Cattive (the Ugly way): the Sheriff arrests the opposing Hitman" in text


def test_status_json_keeps_the_value_and_adds_the_name(tmp_path):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["outlaws", "status", str(WON_UGLY), "--json", "--max-depth", "1"]) == 0
    doc = json.loads(out.getvalue())
    assert doc["winner"] == "B" and doc["victory"] == "ugly"
    assert doc["victory_name"] == victory_words("ugly") == ("Con le Cattive (the Ugly way): the Sheriff arrests "
                                                             "the opposing Hitman")


NAMING = re.compile(r"\b(?:Good|Bad|Ugly) (?:way|victor)")


def _strings(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module that are not docstrings (what its code can show), with their lines."""
    tree = ast.parse(path.read_text(), str(path))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


def test_no_other_module_spells_out_a_victory_name():
    """Every player-facing text reads solver/outlaws/victory_names.py: no string another solver or dashboard
    module can show writes "the Bad way", "Ugly victory", ... itself (docstrings and comments may)."""
    found = [f"{path.relative_to(REPO)}:{line}: {text!r}"
             for path in sorted((REPO / "solver").rglob("*.py")) + sorted((REPO / "dashboard").rglob("*.py"))
             if path.name != "victory_names.py"
             for line, text in _strings(path) if NAMING.search(text)]
    assert found == []


def test_sides_and_victories_are_values_equal_to_their_strings():
    """Issue 31 "values, not strings": a position's side to move, winner and victory are ``Side`` and ``Way``
    members, from a file and from play alike, and still read and write as the contract's strings."""
    import random

    from solver.outlaws.actions import legal_actions
    from solver.outlaws.apply import step
    from solver.outlaws.position import Side, initial_position, other
    from solver.outlaws.position_json import position_to_json
    from solver.outlaws.readings import OutlawsReadings
    from solver.outlaws.victory import winner
    from solver.outlaws.victory_names import Way

    doc = json.loads(WON_UGLY.read_text())
    p = position_from_json(doc)
    assert (type(p.to_move), type(p.winner), type(p.victory)) == (Side, Side, Way)
    assert winner(p) == (Side.B, Way.UGLY) and winner(p).termination is Way.UGLY
    out = position_to_json(p)
    assert json.dumps(out["winner"]) == '"B"' and json.dumps(out["victory"]) == '"ugly"'
    assert other("A") is Side.B and other(Side.B) is Side.A
    rng, pos = random.Random(3), initial_position(3)
    while pos.winner is None:
        assert type(pos.to_move) is Side
        pos = step(pos, rng.choice(legal_actions(pos, OutlawsReadings())), OutlawsReadings(), rng)
    assert (type(pos.winner), type(pos.victory)) == (Side, Way)
