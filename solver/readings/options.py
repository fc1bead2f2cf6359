"""The readings of each game as a list (``ruleslinger readings options``): every field of a game's ``Readings``
(:class:`solver.readings.base.Readings`) with its listed values and the alternatives the impact run tries, and what
each value means in the register's words."""

from __future__ import annotations

import contextvars
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

from solver import registry
from solver.errors import BadInput
from solver.readings.base import canon

GAMES = registry.ids()
"""The games whose readings are listed (:mod:`solver.registry`)."""

SWEEP = contextvars.ContextVar("readings_sweep", default=False)
"""True while the impact run builds rules objects (the test suite's record of exercised readings
leaves those out: a sweep is not a test of the alternative)."""


@dataclass(frozen=True)
class Reading:
    """One reading of a game: its default, every listed value (empty: none to choose from) and the alternatives the
    impact run tries; ``together``: the other readings it only means something with."""

    game: str
    name: str
    default: Any
    values: tuple
    probes: tuple
    together: dict = field(default_factory=dict)

    @property
    def kind(self) -> str:
        if isinstance(self.default, bool):
            return "bool"
        return "number" if self.name in readings_class(self.game).NUMBERS else "choice"


def readings_class(game: str) -> type:
    """The game's ``Readings`` class (a :class:`solver.readings.base.Readings`)."""
    return registry.game(game).readings


def game_readings(game: str) -> list[Reading]:
    """Every field of the game's rules options as a :class:`Reading` (in field order)."""
    cls = readings_class(game)
    default = cls()
    out = []
    for name in cls.names():
        value = getattr(default, name)
        if name in cls.CHOICES:
            values = tuple(cls.CHOICES[name])
            probes = tuple(v for v in values if v != value)
        elif isinstance(value, bool):
            values, probes = (False, True), (not value,)
        elif name in cls.NUMBERS:
            values, probes = cls.NUMBERS[name].values(), cls.NUMBERS[name].probes
        else:
            values, probes = (), ()
        out.append(Reading(game, name, value, values, probes, dict(cls.TOGETHER.get(name, {}))))
    return out


def choices(game: str, name: str) -> tuple:
    """The values one reading of ``game`` can take, as :func:`game_readings` lists them (the engine's ``CHOICES``,
    both booleans, a numeric parameter's list; empty: none to choose from). The one list of a reading's choices:
    the command line's ``readings options`` and the dashboard's select boxes both read it."""
    for r in game_readings(game):
        if r.name == name:
            return r.values
    raise BadInput(f"{registry.game(game).title} has no reading '{name}'")


def value_key(value: Any) -> str:
    """A reading's value as a short canonical text (the record of exercised readings)."""
    return json.dumps(canon(value))


def readings_with(game: str, overrides: dict) -> Any:
    """The game's default rules with ``overrides`` (field -> value)."""
    return replace(readings_class(game)(), **overrides)


def describe(game: str, name: str, value: Any, limit: int = 110) -> str:
    """One line on what ``name = value`` means: from the register entry whose option it is (its
    default, or the alternative that names the value), else from the rules class docstring; its first
    sentence, cut to ``limit`` characters."""
    from solver.register import register

    reg = register().for_game(game)
    own = _own_entries(reg, name)
    default = getattr(readings_class(game)(), name)
    text = str(canon(value))
    if value == default and own:
        return _first_sentence(own[0].default, limit)
    for entry in own + [r for r in reg if r not in own]:
        for alt in entry.alternatives:
            head, sep, rest = (x.strip() for x in alt.partition(":"))
            if sep and ((entry in own and head == text) or head.replace(" ", "") == f"{name}={text}"):
                return _first_sentence(rest, limit)
        if entry in own and isinstance(value, bool) and entry.alternatives:
            return _first_sentence(entry.alternatives[0], limit)
    for entry in reg:
        for alt in entry.alternatives:
            head, sep, rest = (x.strip() for x in alt.partition(":"))
            if sep and head == name:
                return f"{text}: {_first_sentence(rest, limit)}"
    return f"{text}: {_docstring_line(game, name, limit) or (own[0].title if own else name)}"


def option_rules(game: str, name: str) -> list:
    """The register entries an option belongs to: those naming it as their option (open questions first); else
    the rules its bullet in the rules class docstring cites (``- ``die_sides``, ... (rule:C8)``); else those whose
    alternatives or notes name it."""
    from solver.register import register

    reg = register().for_game(game)
    own = _own_entries(reg, name)
    if own:
        return own
    by_id = {r.id: r for r in reg}
    found = [by_id[c] for c in cited_rules(readings_class(game).__doc__ or "", name) if c in by_id]
    if found:
        return found
    return [r for r in reg if re.search(rf"\b{re.escape(name)}\b", " ".join(r.alternatives) + " " + r.notes)]


def _own_entries(reg, name: str) -> list:
    """The register entries naming ``name`` as their option, open questions first."""
    return sorted((r for r in reg if r.option == name), key=lambda r: not r.open_question)


def cited_rules(doc: str, name: str) -> list[str]:
    """The rule ids cited by the bullet of a rules class docstring that is about ``name`` (``- ``name`` (rule:C8):
    text``, or ``- ``a``, ``name`` (rule:C8)``: the names before its "(" or ":"), not by a bullet that only
    mentions it; [] without one."""
    for bullet in re.split(r"\n\s*- ", doc)[1:]:
        if f"``{name}``" in re.split(r"[(:]", bullet, maxsplit=1)[0]:
            return re.findall(r"rule:([\w-]+)", bullet)
    return []


def _docstring_line(game: str, name: str, limit: int = 110) -> str:
    """The rules class docstring's bullet for ``name`` (``- ``name`` (a rule id): text``), first sentence."""
    doc = " ".join((readings_class(game).__doc__ or "").split())
    m = re.search(r"``" + re.escape(name) + r"``(?:\s*\([^)]*\))?\s*:\s*(.*?)(?= - ``|$)", doc)
    return _first_sentence(m.group(1), limit) if m else ""


def _first_sentence(text: str, limit: int = 110) -> str:
    text = " ".join(str(text).split())
    cut = text.find(". ")
    text = text if cut < 0 else text[:cut + 1]
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."
