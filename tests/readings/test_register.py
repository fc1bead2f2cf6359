"""The rules register is complete, consistent with the code, and docs/rules.md is current."""

from pathlib import Path

import pytest

from solver import register as reg_mod
from solver.errors import BadInput
from solver.paths import REPO

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


def test_rules_markdown_is_current():
    expected = reg_mod.to_markdown(reg_mod.load_register())
    actual = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert actual.strip() == expected.strip(), "regenerate: ruleslinger rules --markdown > docs/rules.md"


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
