"""The question the page is building, as plain data (a *draft*), and its way to and from a question document.

A draft is what the builder's widgets set, one value each (JSON, so the store and the address keep it)::

    {"game": "wagons", "domain": "towns", "ask": "exists", "params": {"cards": [3, 7]},
     "conds": [{"measure": "player.total", "op": ">=", "value": 20}], "join": "and",
     "where": None, "measure": None, "readings": {}, "title": ""}

``conds`` are the conditions joined by ``join``; a shipped question whose condition is not such a flat list (a
``not``, brackets mixing and / or) keeps its text in ``where`` until the user starts over. :func:`to_doc` makes the
question document (:mod:`solver.ask.question`), so the page asks exactly what the same question file asks; every
check of it is the core's (:func:`question`). Presentation plumbing: nothing here decides a rule.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from solver import registry
from solver.ask import condition as cond_mod
from solver.ask.model import DomainKind, Measure, Param
from solver.ask.question import Question, question_from_doc, question_to_doc
from solver.errors import BadInput

JOINS = ("and", "or")
_FRACTION = re.compile(r"-?\d+/\d+")
"""An exact fraction as a draft keeps it (JSON has none): ``"1/3"``."""
NUMBER_OPS = (">=", "<=", "==", "!=", ">", "<")
CHOICE_OPS = ("==", "!=")


def kinds(game: str) -> tuple[DomainKind, ...]:
    """The domains ``game`` offers (its ``questions`` registration)."""
    return tuple(registry.game(game).questions)


def games_with_questions() -> list[str]:
    """The ids of the games that offer at least one domain, in the registry's order."""
    return [g.id for g in registry.GAMES if g.questions]


def param_default(p: Param) -> Any:
    """A parameter's starting value: its own default, else the first value its widget offers."""
    if p.default is not None:
        return p.default
    if p.kind == "int":
        return p.low if p.low is not None else 0
    if p.kind == "choice":
        return p.choices[0] if p.choices else ""
    if p.kind in ("cards", "cards-seen"):
        return []
    return ""


def new(game: str, domain: str | None = None, readings: Mapping[str, Any] | None = None) -> dict:
    """A fresh draft of ``game``: its first domain (or ``domain``), *is there*, no condition."""
    offered = kinds(game)
    if not offered:
        raise BadInput(f"{game} offers no domain to ask about yet")
    kind = next((k for k in offered if k.name == domain), offered[0])
    shipped = _shipped_params(game, kind.name)
    params = {p.name: shipped[p.name] if p.default is None and p.name in shipped else param_default(p)
              for p in kind.params}
    return {"game": game, "domain": kind.name, "ask": "exists", "params": params, "conds": [], "join": "and",
            "where": None, "measure": None, "readings": dict(readings or {}), "title": ""}


def _shipped_params(game: str, domain: str) -> dict:
    """The parameters of the first shipped question over this domain (a required parameter's starting value), or
    none."""
    for e in shipped():
        if (e.question.game, e.question.domain) == (game, domain):
            return dict(e.question.params)
    return {}


def shipped() -> tuple:
    """The shipped example questions (:func:`solver.ask.examples.examples`); none when one cannot be read (the page
    says why: :func:`shipped_problem`)."""
    from solver.ask.examples import examples

    try:
        return examples()
    except BadInput:
        return ()


def shipped_problem() -> str | None:
    """Why the shipped examples cannot be read, in one line, or None."""
    from solver.ask.examples import examples

    try:
        examples()
    except BadInput as exc:
        return f"The shipped questions cannot be read: {exc}"
    return None


def with_domain(draft: dict, domain: str) -> dict:
    """The draft over another domain of its game: its parameters at their defaults, its conditions dropped (each
    domain has its own measures)."""
    return new(draft["game"], domain, draft.get("readings")) | {"ask": draft["ask"]}


def typed(m: Measure | None, value: Any) -> Any:
    """A condition's value as the measure's kind has it: yes/no a bool, a choice text, a number an int."""
    if m is None:
        return value
    if m.kind == "yes/no":
        return value if isinstance(value, bool) else str(value).lower() in ("yes", "true", "1")
    if m.kind == "choice":
        return str(value)
    return number(value)


def number(value: Any) -> Any:
    """A number as a draft keeps it: a whole number as an int, any other as exact text (``"1/3"``)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, str) and _FRACTION.fullmatch(value):
        value = Fraction(value)
    if isinstance(value, float):
        value = Fraction(value).limit_denominator(10_000)
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def value_of(kept: Any) -> Any:
    """A draft's value as the condition holds it (exact text back to a fraction)."""
    return Fraction(kept) if isinstance(kept, str) and _FRACTION.fullmatch(kept) else kept


def starting_condition(m: Measure) -> dict:
    """A new condition on ``m``: a number at least its low end (or 1), yes/no is yes, a choice is its first value."""
    if m.kind == "yes/no":
        return {"measure": m.name, "op": "==", "value": True}
    if m.kind == "choice":
        return {"measure": m.name, "op": "==", "value": m.choices[0] if m.choices else ""}
    low = m.low if m.low is not None else 0
    return {"measure": m.name, "op": ">=", "value": max(low, 1) if m.high is None or m.high >= 1 else low}


def condition(draft: Mapping[str, Any]) -> cond_mod.Condition | None:
    """The draft's condition tree (None: no condition)."""
    if draft.get("where"):
        return cond_mod.parse(draft["where"])
    parts = tuple(cond_mod.Compare(c["measure"], c["op"], value_of(c["value"])) for c in draft.get("conds") or ())
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    return cond_mod.All(parts) if draft.get("join", "and") == "and" else cond_mod.Any_(parts)


def to_doc(draft: Mapping[str, Any]) -> dict:
    """The question document of the draft (what a question file holds)."""
    doc: dict[str, Any] = {"game": draft["game"], "ask": draft["ask"],
                           "domain": {"kind": draft["domain"], **dict(draft.get("params") or {})}}
    tree = condition(draft)
    if tree is not None:
        doc["where"] = cond_mod.text(tree)
    if draft["ask"] in ("max", "min") and draft.get("measure"):
        doc["measure"] = draft["measure"]
    if draft.get("readings"):
        doc["readings"] = dict(draft["readings"])
    if draft.get("title"):
        doc["title"] = draft["title"]
    return doc


def question(draft: Mapping[str, Any]) -> Question:
    """The draft as the core's question; BadInput naming the bad part (the core's own checks)."""
    return question_from_doc(to_doc(draft))


def _row(c: cond_mod.Compare) -> dict:
    return {"measure": c.measure, "op": c.op, "value": number(c.value) if isinstance(c.value, Fraction) else c.value}


def _flat(tree: cond_mod.Condition | None) -> tuple[list[dict], str] | None:
    """The condition as a list of comparisons and their join, or None when it is not one."""
    if tree is None:
        return [], "and"
    if isinstance(tree, cond_mod.Compare):
        return [_row(tree)], "and"
    if isinstance(tree, (cond_mod.All, cond_mod.Any_)):
        compares = [p for p in tree.parts if isinstance(p, cond_mod.Compare)]
        if len(compares) == len(tree.parts):
            return [_row(p) for p in compares], "and" if isinstance(tree, cond_mod.All) else "or"
    return None


def from_question(q: Question) -> dict:
    """The draft of a question (a shipped example, a saved or shared one): every widget set to it."""
    flat = _flat(q.condition)
    conds, join = flat if flat is not None else ([], "and")
    return {"game": q.game, "domain": q.domain, "ask": q.quantifier, "params": dict(q.params), "conds": conds,
            "join": join, "where": None if flat is not None or q.condition is None else cond_mod.text(q.condition),
            "measure": q.measure, "readings": dict(q.readings), "title": q.title}


def from_doc(doc: Any) -> dict:
    """The draft of a question document, checked by the core (BadInput naming the bad part)."""
    return from_question(question_from_doc(doc))


def build(game: str, domain: str, params: Mapping[str, Any], readings: Mapping[str, Any]) -> Any:
    """The domain the game's own ``build`` makes of these parameters under these readings; BadInput in one line for
    any parameter it cannot take (a page shows it inline, never a traceback)."""
    kind = next((k for k in kinds(game) if k.name == domain), None)
    if kind is None:
        raise BadInput(f"domain: {domain[:40]!r} is not a domain of {game}")
    cls = registry.game(game).readings
    try:
        return kind.build(params, cls.from_values(dict(readings)) if readings else cls())
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        raise BadInput(f"domain: these parameters cannot be used ({type(exc).__name__}: {str(exc)[:80]})") from None


def build_of(draft: Mapping[str, Any]) -> Any:
    """The draft's domain (:func:`build`)."""
    return build(draft["game"], draft["domain"], draft["params"], draft.get("readings") or {})


def doc_of(q: Question) -> dict:
    """The question's document (the core's writer)."""
    return question_to_doc(q)
