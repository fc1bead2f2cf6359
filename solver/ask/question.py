"""A question as data: the game, its domain (a kind the game offers and its parameters), the quantifier, the condition,
the measure asked about (most / least) and the readings.

A question file is TOML (``scenarios/questions/*.toml``; JSON reads the same)::

    title = "Can Gold Country score 8 with these cards and you still win?"
    game = "wagons"
    ask = "exists"                 # exists | forall | max | min | chance ("most" and "least" read as max and min)
    where = "goal.gold-country >= 8 and winner == player"
    [domain]
    kind = "towns"
    cards = [3, 7, 11, 14]
    scenario = "gold-rush"
    [readings]                     # optional: the readings it is asked under (the defaults otherwise)
    boom_or_bust = "flat"

``measure`` names what max / min ask about. :func:`question_from_doc` reads it and checks every part against the
game's registration (BadInput naming the bad part); :func:`question_to_doc` writes it back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver import registry
from solver.ask import condition as cond_mod
from solver.ask.model import DomainKind
from solver.errors import BadInput
from solver.io.numbers import short_repr

QUANTIFIERS = {"exists": "Is there", "forall": "For every", "max": "What is the most", "min": "What is the least",
               "chance": "What is the chance"}
"""The four quantifiers (the most and the least are one, asked two ways), with how a sentence begins."""
SYNONYMS = {"most": "max", "least": "min"}
"""Other spellings a question file may use."""
KEYS = {"title", "game", "ask", "where", "measure", "domain", "readings", "answer", "note", "source"}
"""The keys a question document may have (``answer``, ``note`` and ``source``: the shipped examples' own)."""


@dataclass(frozen=True)
class Question:
    """One question: ``game`` id, ``domain`` kind name and its ``params``, ``quantifier``, ``condition`` (None: no
    condition), ``measure`` (most/least), ``readings`` (name -> value, as the game's readings spell them) and an
    optional ``title``."""

    game: str
    domain: str
    params: tuple[tuple[str, Any], ...]
    quantifier: str
    condition: cond_mod.Condition | None = None
    measure: str | None = None
    readings: tuple[tuple[str, Any], ...] = ()
    title: str = ""

    @property
    def param_map(self) -> dict[str, Any]:
        return dict(self.params)

    def kind(self) -> DomainKind:
        return domain_kind(self.game, self.domain)

    def chosen_readings(self) -> Any:
        """The game's readings object with this question's readings applied."""
        cls = registry.game(self.game).readings
        return cls.from_values(dict(self.readings)) if self.readings else cls()

    def with_readings(self, readings: Mapping[str, Any]) -> Question:
        from dataclasses import replace

        return replace(self, readings=tuple(sorted(readings.items())))


def domain_kind(game: str, name: str) -> DomainKind:
    """The game's domain kind ``name``; BadInput naming the known ones."""
    kinds = {k.name: k for k in registry.game(game).questions}
    if name not in kinds:
        known = ", ".join(kinds) or "none yet"
        raise BadInput(f"domain: {short_repr(name)} is not a domain of {game} (known: {known})")
    return kinds[name]


def _params(kind: DomainKind, given: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    names = {p.name for p in kind.params}
    extra = sorted(set(given) - names - {"kind"})
    if extra:
        raise BadInput(f"domain: {kind.name} has no parameter {short_repr(extra[0])} (it takes: {', '.join(names)})")
    out = []
    for p in kind.params:
        if p.name in given:
            out.append((p.name, given[p.name]))
        elif p.default is None:
            raise BadInput(f"domain: {kind.name} needs {p.name} ({p.label})")
        else:
            out.append((p.name, p.default))
    return tuple(out)


def _text(doc: Mapping[str, Any], key: str) -> str:
    value = doc.get(key)
    if not isinstance(value, str) or not value.strip():
        raise BadInput(f"question: '{key}' must be text")
    return value.strip()


def _optional_text(doc: Mapping[str, Any], key: str, required: bool = False) -> str | None:
    return _text(doc, key) if required or doc.get(key) is not None else None


def question_from_doc(doc: Any) -> Question:
    """A question from its document (TOML or JSON, as a dict); BadInput naming the bad part."""
    if not isinstance(doc, Mapping):
        raise BadInput("question: expected a table of keys (game, ask, domain, where)")
    unknown = sorted(set(doc) - KEYS)
    if unknown:
        raise BadInput(f"question: unknown key {short_repr(unknown[0])} (keys: {', '.join(sorted(KEYS))})")
    game = _text(doc, "game")
    registry.game(game)
    quantifier = _text(doc, "ask")
    quantifier = SYNONYMS.get(quantifier, quantifier)
    if quantifier not in QUANTIFIERS:
        raise BadInput(f"ask: {short_repr(quantifier)} is not one of {', '.join(QUANTIFIERS)}")
    domain = doc.get("domain")
    if not isinstance(domain, Mapping) or not isinstance(domain.get("kind"), str):
        raise BadInput("domain: expected a table with a 'kind' (what the question ranges over)")
    kind = domain_kind(game, domain["kind"])
    where = _optional_text(doc, "where")
    readings = doc.get("readings") or {}
    if not isinstance(readings, Mapping):
        raise BadInput("readings: expected a table of reading = value")
    q = Question(game, kind.name, _params(kind, domain), quantifier, cond_mod.parse(where) if where else None,
                 _optional_text(doc, "measure", required=quantifier in ("max", "min")),
                 tuple(sorted((str(k), v) for k, v in readings.items())), str(doc.get("title") or ""))
    q.chosen_readings()  # unknown readings or values are refused here, before anything runs
    if q.measure is not None and quantifier not in ("max", "min"):
        raise BadInput("measure: only a max / min question names a measure")
    return q


def question_to_doc(q: Question) -> dict[str, Any]:
    """The question as its document (what :func:`question_from_doc` reads)."""
    doc: dict[str, Any] = {"game": q.game, "ask": q.quantifier, "domain": {"kind": q.domain, **q.param_map}}
    if q.title:
        doc["title"] = q.title
    if q.condition is not None:
        doc["where"] = cond_mod.text(q.condition)
    if q.measure:
        doc["measure"] = q.measure
    if q.readings:
        doc["readings"] = dict(q.readings)
    return doc


def load_question(path: str | Path) -> Question:
    """A question file (``.toml`` or ``.json``); BadInput for a missing or unreadable one."""
    from solver.io.read import read_json, read_toml

    p = Path(path)
    doc = read_json(p) if p.suffix == ".json" else read_toml(p)
    return question_from_doc(doc)


def sentence(q: Question, description: str, measures: Mapping[str, Any]) -> str:
    """The question as one sentence in the game's words ("Is there a town of cards 3, 7 in Gold Rush where ...?")."""
    where = f" where {cond_mod.words(q.condition, measures)}" if q.condition is not None else ""
    if q.quantifier == "exists":
        return f"Is there {description}{where}?"
    if q.quantifier == "forall":
        body = cond_mod.words(q.condition, measures) if q.condition is not None else "the question holds"
        bare = description.removeprefix("a ").removeprefix("an ")  # "For every town", not "For every a town"
        return f"For every {bare}, does it hold that {body}?"
    if q.quantifier == "chance":
        body = cond_mod.words(q.condition, measures) if q.condition is not None else "anything"
        return f"What is the chance, over {description}, that {body}?"
    name = q.measure or ""
    label = measures[name].label if name in measures else name
    return f"{QUANTIFIERS[q.quantifier]} {label} over {description}{where}?"
