"""What the "Ask a rules question" page keeps in its address (rule:X-bad-input): the question (``?ask=``), read by
:func:`dashboard.shared.work.urldoc.decode` against the schema here and then by the core's own reader
(:func:`solver.ask.question.question_from_doc`), so a question the engine would refuse is refused in one line before
the page uses it. The navigation lists it with its page (:mod:`dashboard.nav`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dashboard.shared.work.urldoc import Address, AnyOf, Fields, ListOf, Loaded, MapOf, Scalar, Text
from solver.ask.condition import MAX_TEXT
from solver.ask.question import question_from_doc
from solver.errors import BadInput


@dataclass(frozen=True)
class Document:
    """Any JSON value of scalars (``Scalar(most)``), lists and objects (keys ``Text(60)``), at most ``items`` values
    in all: a position document a question gives whole; the engine's reader checks what it means."""

    most: int = 400
    items: int = 4000

    def check(self, value: Any, where: str) -> Any:
        count = [0]
        self._walk(value, where, count)
        return value

    def _walk(self, value: Any, where: str, count: list[int]) -> None:
        count[0] += 1
        if count[0] > self.items:
            raise BadInput(f"{where}: more than {self.items} values")
        if isinstance(value, dict):
            for k, v in value.items():
                Text(60).check(k, where)
                self._walk(v, f"{where}.{k}", count)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                self._walk(v, f"{where}[{i}]", count)
        else:
            Scalar(self.most).check(value, where)


_PARAM = AnyOf((Scalar(400), ListOf(Scalar(60), most=200), Document()))
"""A domain's parameter: one value (a number, a choice, a file's name), a list (the cards) or a document (a
position, the rounds seen)."""

QUESTION = Fields(required={"game": Text(40), "ask": Text(20), "domain": MapOf(Text(60), _PARAM, most=40)},
                  optional={"where": Text(MAX_TEXT), "measure": Text(80), "title": Text(200),
                            "readings": MapOf(Text(60), Scalar(), most=60)})
"""A question document (:mod:`solver.ask.question`) as the address may hold it."""

ASK = Address("ask", "the question in the address", Loaded(question_from_doc, QUESTION))
"""``?ask=``: the question on the page (its document), to reload, bookmark or share."""
