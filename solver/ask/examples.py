"""The shipped example questions (``scenarios/questions/*.toml``), each with the answer it must get.

An example file is a question document (:mod:`solver.ask.question`) with an ``[answer]`` table: the ``verdict`` and,
for most / least and chance, the ``value`` (exact fractions as "p/q"); ``source`` says where the question comes from
(a real player's question, a rule passage). ``ruleslinger ask --examples`` lists them, the page offers each in one tap
and the tests answer every one through the command line and the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from solver.ask.question import Question, question_from_doc
from solver.errors import BadInput
from solver.io.read import read_toml
from solver.paths import SCENARIOS

FOLDER = SCENARIOS / "questions"


@dataclass(frozen=True)
class Example:
    """One shipped question: its file's ``name`` (without ``.toml``), the ``question``, the ``expected`` answer
    (``verdict`` and maybe ``value``) and its ``source``."""

    name: str
    question: Question
    expected: dict[str, Any]
    source: str


def read_example(path: Path) -> Example:
    doc = read_toml(path)
    expected = doc.get("answer")
    if not isinstance(expected, dict) or "verdict" not in expected:
        raise BadInput(f"{path.name}: an example needs an [answer] table with its verdict")
    return Example(path.stem, question_from_doc(doc), dict(expected), str(doc.get("source") or ""))


@lru_cache(maxsize=1)
def examples(folder: Path = FOLDER) -> tuple[Example, ...]:
    """Every shipped example, by game then file name."""
    found = [read_example(p) for p in sorted(folder.glob("*.toml"))]
    return tuple(sorted(found, key=lambda e: (e.question.game, e.name)))


def example(name: str) -> Example:
    """The shipped example ``name``; BadInput naming the known ones."""
    for e in examples():
        if e.name == name:
            return e
    raise BadInput(f"example: no shipped question named {name[:40]!r}")


def matches(expected: dict[str, Any], got: dict[str, Any]) -> bool:
    """Whether an answer's JSON (:func:`solver.ask.answer.answer_to_json`) is the expected one: the same verdict and,
    where the example gives one, the same value."""
    if got.get("verdict") != expected.get("verdict"):
        return False
    return "value" not in expected or str(got.get("value")) == str(expected["value"])
