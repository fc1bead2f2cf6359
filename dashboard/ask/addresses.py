"""What the "Ask a rules question" page keeps in its address (rule:X-bad-input): the question (``?ask=``), read by
:func:`dashboard.shared.state.urlstate.decode` against the schema here and then by the core's own reader
(:func:`solver.ask.question.question_from_doc`), so a question the engine would refuse is refused in one line before
the page uses it. The navigation lists it with its page (:mod:`dashboard.nav`)."""

from __future__ import annotations

from dashboard.shared.state.urlstate import Address, AnyOf, Fields, ListOf, Loaded, MapOf, Scalar, Text
from solver.ask.condition import MAX_TEXT
from solver.ask.question import question_from_doc

_PARAM = AnyOf((Scalar(400), ListOf(Scalar(60), most=200)))
"""A domain's parameter: one value (a number, a choice, a position's text) or a list (the cards)."""

QUESTION = Fields(required={"game": Text(40), "ask": Text(20), "domain": MapOf(Text(60), _PARAM, most=40)},
                  optional={"where": Text(MAX_TEXT), "measure": Text(80), "title": Text(200),
                            "readings": MapOf(Text(60), Scalar(), most=60)})
"""A question document (:mod:`solver.ask.question`) as the address may hold it."""

ASK = Address("ask", "the question in the address", Loaded(question_from_doc, QUESTION))
"""``?ask=``: the question on the page (its document), to reload, bookmark or share."""
