"""The rules register is complete and consistent with the code, and its Markdown rendering shows every entry."""

import re
from pathlib import Path

import pytest

from solver import register as reg_mod
from solver.errors import BadInput

OPEN_QUESTION_IDS = (
    [f"W{i}" for i in range(1, 11)] + [f"C{i}" for i in range(1, 10)] + [f"O{i}" for i in range(1, 14)]
)


def test_register_has_every_open_question():
    reg = reg_mod.load_register()
    missing = [i for i in OPEN_QUESTION_IDS if i not in reg.ids()]
    assert not missing, f"register lacks open questions {missing}"
    for rid in OPEN_QUESTION_IDS:
        rule = reg.get(rid)
        assert rule.open_question, f"{rid} should be marked open_question = true"
        assert rule.default.strip() and rule.source.strip()


def test_register_and_code_agree():
    assert reg_mod.problems(reg_mod.load_register()) == []


def test_every_implemented_rule_names_code():
    for rule in reg_mod.load_register().rules:
        if rule.status == "implemented":
            assert rule.code, rule.id


def test_the_markdown_register_has_a_row_per_entry_under_its_games_heading():
    """``ruleslinger rules --markdown`` (made when asked, not kept): every entry once, in its game's part, with its
    source and the code it names."""
    reg = reg_mod.load_register()
    text = reg_mod.to_markdown(reg)
    rows = [ln for ln in text.splitlines() if ln.startswith("| ") and not ln.startswith("| id ")]
    assert [r.split(" | ")[0].removeprefix("| ") for r in rows] == [
        r.id for game in reg_mod.parts() for r in reg.for_game(game)]
    assert len(rows) == len(reg.rules)
    for game, title in reg_mod.parts().items():
        for rule in reg.for_game(game):
            heading = text.index(f"## {title}")
            row = text.index(f"| {rule.id} | ", heading)
            assert all(f"`{c}`" in text[row:text.index("\n", row)] for c in rule.code), rule.id


def _tree(tmp_path: Path, toml: str, code: str) -> Path:
    (tmp_path / "docs" / "register").mkdir(parents=True)
    (tmp_path / "docs" / "register" / "wagons.toml").write_text('title = "Wagons"\norder = 1\n' + toml)
    (tmp_path / "solver").mkdir()
    (tmp_path / "solver" / "mod.py").write_text(code)
    return tmp_path


ENTRY = """
[[rule]]
id = "W-test"
title = "t"
source = "s"
default = "d"
status = "implemented"
code = ["solver/mod.py"]
"""


def test_unknown_citation_is_a_problem(tmp_path):
    root = _tree(tmp_path, ENTRY, '"""Implements rule:W-test and rule:W-nope."""\n')
    reg = reg_mod.load_register(root / "docs" / "register")
    assert reg_mod.problems(reg, root) == ["code cites unknown rule id 'W-nope' in ['solver/mod.py']"]


def test_implemented_rule_without_citation_is_a_problem(tmp_path):
    root = _tree(tmp_path, ENTRY, '"""No citation here."""\n')
    reg = reg_mod.load_register(root / "docs" / "register")
    assert reg_mod.problems(reg, root) == ["W-test: solver/mod.py does not cite the rule:W-test"]


def test_malformed_register_entry_is_bad_input(tmp_path):
    root = _tree(tmp_path, '[[rule]]\nid = "W-x"\ntitle = "t"\n', "")
    with pytest.raises(BadInput, match="missing text field 'source'"):
        reg_mod.load_register(root / "docs" / "register")


def test_a_register_part_names_its_title_and_order(tmp_path):
    """Each file of the register says its own title and place (register.parts), so no list of games is kept in code."""
    root = _tree(tmp_path, ENTRY, "")
    (root / "docs" / "register" / "common.toml").write_text('title = "Shared"\norder = 0\n')
    assert reg_mod.parts(root / "docs" / "register") == {"common": "Shared", "wagons": "Wagons"}
    (root / "docs" / "register" / "common.toml").write_text("[[rule]]\n")
    with pytest.raises(BadInput, match="common.toml: expected a text 'title'"):
        reg_mod.parts(root / "docs" / "register")


def test_duplicate_rule_id_is_bad_input(tmp_path):
    root = _tree(tmp_path, ENTRY + ENTRY, "")
    with pytest.raises(BadInput, match="duplicate rule id 'W-test'"):
        reg_mod.load_register(root / "docs" / "register")


ITALIAN_WORDS = frozenset({"il", "lo", "gli", "di", "del", "della", "dei", "dallo", "dal", "che", "per", "con", "non",
                           "è", "un", "una", "sua", "suo", "tuo", "alla", "ed", "oppure", "soltanto", "viene",
                           "personaggio", "personaggi", "gettone", "gettoni", "svela", "puoi", "si", "può", "sono",
                           "ci", "tutte", "due", "entrambi", "giocatori", "voti", "contiene", "azioni"})
"""Words of the Italian rulebook's passages that no English passage of the register uses."""


def quotes_italian(source: str) -> bool:
    """Whether a source quotes an Italian passage: a quoted passage with two of :data:`ITALIAN_WORDS` or more."""
    for passage in re.findall(r"'(.+?)'(?=[\s;.,)]|$)", source):
        if len(set(re.findall(r"[\wè]+", passage.lower())) & ITALIAN_WORDS) >= 2:
            return True
    return False


def test_the_italian_detector_tells_the_languages_apart():
    assert quotes_italian("'Il Governatore - Svela il Governatore per prendere il gettone Elezione.'")
    assert quotes_italian("Immobilizzato: 'non si può muovere, non può essere spostato'; docs/open-questions.md O15")
    assert not quotes_italian("docs/outside-facts.md: '2 per Mine on or adjacent to a Mountains territory' (low)")
    assert not quotes_italian("docs/open-questions.md O13 (who plays first is not in the text)")


def test_every_entry_quoting_the_italian_rulebook_has_its_english_beside_it():
    rules = reg_mod.load_register().rules
    italian = [r for r in rules if quotes_italian(r.source)]
    assert len(italian) >= 30  # the Outlaws rulebook is Italian: most of its entries quote it
    missing = [r.id for r in italian if not r.english.strip()]
    assert not missing, f"entries quoting Italian without their English: {missing}"
    for r in italian:  # the English is not Italian again (the victories keep their Italian names)
        assert not quotes_italian(r.english.replace("Con le", "")), r.id
    assert all(r.english == "" or r.id in {i.id for i in italian} for r in rules)
