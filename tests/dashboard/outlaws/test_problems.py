"""AppTest: the Outlaws position editor shows every problem of an edited position at once, inline, and changes
nothing (issue 31 "values, not strings": python-chess's ``status()``); the problems are the engine's
(:func:`solver.outlaws.position_json.position_problems`), quoted as typed."""

from __future__ import annotations

import json

from dashboard.outlaws.problems import in_words
from solver.outlaws.position_json import position_problems
from tests.support.dashboard.apptest import (
    apply_outlaws_json,
    errors,
    open_editor,
    open_page,
    outlaws_position,
    outlaws_start_doc,
)


def shown(text: str) -> str:
    """An error as a reader sees it (the markdown escapes taken away)."""
    return text.replace("\\", "")


def test_every_problem_of_an_edited_json_position_is_shown_and_nothing_changes():
    at = open_page("outlaws")
    before = outlaws_position(at)
    doc = json.loads(json.dumps(before))
    doc["to_move"] = "C"
    doc["tokens"][2] = "gold"
    doc["knowledge"] = {"B": []}
    apply_outlaws_json(at, doc)
    problems = position_problems(doc)
    assert len(problems) == 3
    (error,) = errors(at)
    assert error.startswith("Position not changed: 3 problems")
    assert [shown(line) for line in error.splitlines() if line.startswith("- ")] == [f"- {in_words(p)}" for p in problems]
    assert outlaws_position(at) == before and not at.exception


def test_the_form_editor_shows_both_problems_of_a_governor_in_the_saloon():
    at = open_page("outlaws")
    before = outlaws_position(at)
    open_editor(at)
    at.selectbox(key="ol0_sal_A0").set_value("governor")
    at.button(key="FormSubmitter:ol_form_0-Apply edits").click().run()
    (error,) = errors(at)
    assert "2 problems" in error and "the Governor may never be in the Saloon" in error
    assert "A has governor twice" in error and "position." not in error
    assert outlaws_position(at) == before and not at.exception


def test_a_problem_quoting_markdown_is_shown_as_typed():
    at = open_page("outlaws")
    doc = outlaws_start_doc()
    doc["street"]["A"][0] = "**bold** :red[x] $y$"
    apply_outlaws_json(at, doc)
    (error,) = at.error
    assert "\\*\\*bold\\*\\* \\:red\\[x\\] \\$y\\$" in error.value  # escaped: shown as typed, not drawn
    assert errors(at) == [f"Position not changed: {in_words(position_problems(doc)[0])}"]
