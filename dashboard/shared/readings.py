"""This session's readings of the open questions, shared by every page: the engines' own readings options edited by select boxes (each choice with the register's line), kept in the page's address, and passed back to the engines. Nothing here decides a rule."""

from __future__ import annotations

import dataclasses
import enum
import re
from functools import partial
from typing import Any

import streamlit as st

from dashboard.shared.work import urldoc
from dashboard.shared.work.urldoc import Address, Fields, Loaded, MapOf, Scalar, Text
from solver.errors import BadInput
from solver.readings import options as reading_options
from solver.readings.base import Readings
from solver.registry import GAMES, titles

GAME_TITLES = titles()
"""{game id: title} (:mod:`solver.registry`)."""


def readings(game: str) -> dict[str, Any]:
    """This session's chosen readings for ``game``: {readings field name: value} (empty = defaults)."""
    return st.session_state.setdefault("readings", {}).setdefault(game, {})


def readings_doc(readings: Any) -> dict:
    """A game's ``Readings`` options as the engine writes them in JSON (:meth:`solver.readings.base.Readings.to_json`)."""
    return readings.to_json()


def readings_from_doc(game: str, doc: dict) -> Any:
    """A game's ``Readings`` options from (part of) :func:`rules_doc`'s JSON, checked by the engine (BadInput)."""
    if not isinstance(doc, dict):
        raise BadInput("rules: expected an object")
    return readings_class(game).from_json(doc)


READINGS_QUERY = "readings"

OPTIONS = MapOf(Text(60), Scalar(), most=60)
"""One game's readings as the address keeps them: {option: value}, only those not at their default."""

READINGS = Address(READINGS_QUERY, "the readings in the address", Fields(
    optional={g.id: Loaded(partial(readings_from_doc, g.id), OPTIONS) for g in GAMES}, noun="game"))
"""``?readings=``: {game id: {option: value}}, each game's options checked by its engine's ``Readings``."""


def readings_to_address() -> None:
    """The readings chosen this session (those not at their default) kept in the page's address, so a reload
    or a bookmark keeps them (``?readings=``, :mod:`dashboard.shared.work.urldoc`); nothing when all are defaults."""
    doc = {}
    for game, cls in READING_CLASSES.items():
        if readings(game):
            full, default = readings_doc(make_readings(game, cls)), readings_doc(cls())
            diff = {k: v for k, v in full.items() if v != default.get(k)}
            if diff:
                doc[game] = diff
    urldoc.put(st.query_params, READINGS_QUERY, doc or None)


def readings_from_address() -> str | None:
    """On a new session, the readings kept in the address (each game's checked by its engine); the
    one-line reason when they cannot be used (the session then starts at the defaults)."""
    text = st.query_params.get(READINGS_QUERY)
    if "readings" in st.session_state or not text:
        return None
    try:
        doc = urldoc.decode(text, READINGS)
        chosen = {}
        for game, part in doc.items():
            if game not in READING_CLASSES:
                raise BadInput(f"the readings in the address name an unknown game '{game}'")
            readings = readings_from_doc(game, part)
            chosen[game] = {k: getattr(readings, k) for k in part}
    except (BadInput, TypeError, ValueError) as exc:
        return f"The readings in the address were not used: {exc}"
    st.session_state["readings"] = chosen
    return None


def make_readings(game: str, readings_cls: type) -> Any:
    """The engine's ``Readings`` options with this session's readings applied (defaults otherwise)."""
    names = {f.name for f in dataclasses.fields(readings_cls)}
    chosen = {k: v for k, v in readings(game).items() if k in names}
    try:
        return readings_cls(**chosen)
    except (TypeError, ValueError, BadInput):
        return readings_cls()


def describe_choice(value: Any) -> str:
    """A reading's value in words: its plain label ("stop archiving" for ``stop_archiving``, "yes" / "no" for a
    boolean), never the code name."""
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value_words(str(value))


def value_words(text: str) -> str:
    """A listed value's plain label: its words without the ``_`` and ``-`` that join them in code."""
    return re.sub(r"(?<=[A-Za-z])-(?=[A-Za-z])", " ", text.replace("_", " "))


def reading_name(game: str, name: str) -> str:
    """A reading in words, as the rulebook's question names it: the register's title of its rule, else its words."""
    from solver.readings.options import option_rules

    own = option_rules(game, name)
    if not own:
        return value_words(name).capitalize()
    return own[0].title if own[0].option == name else f"{own[0].title}: {value_words(name)}"


_CODE_PAIR = re.compile(r"`*\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+)\s?=\s?([A-Za-z0-9][\w/.-]*)`*")
_SNAKE = re.compile(r"`*\b([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)\b`*")


def plain(game: str, text: str) -> str:
    """A register line in words: ``name = value`` of a reading of ``game`` as "the reading's title: the value's
    label", any other code name (``per_gun``) as its words."""
    names = set(READING_CLASSES[game].names()) if game in READING_CLASSES else set()

    def pair(m: re.Match) -> str:
        if m.group(1) not in names:
            return m.group(0)
        return f"{reading_name(game, m.group(1))}: {value_words(m.group(2))}"

    text = re.sub(r"\brules\.(\w+)", lambda m: reading_name(game, m.group(1)), text)
    text = _CODE_PAIR.sub(pair, text)
    text = _SNAKE.sub(lambda m: value_words(m.group(1)), text)
    return re.sub(r"`+([^`]+)`+", r'"\1"', text)  # a command the register quotes: in quotes, not code


def changed_readings(game: str, readings_cls: type) -> list[str]:
    """Each reading in force this session that differs from the default, in words: "its question: its value"."""
    current, default = make_readings(game, readings_cls), readings_cls()
    return [f"{reading_name(game, f.name)}: {describe_choice(getattr(current, f.name))}"
            for f in dataclasses.fields(readings_cls) if getattr(current, f.name) != getattr(default, f.name)]


def readings_summary(game: str, readings_cls: type) -> str:
    """One line naming the readings in force that differ from the defaults."""
    diff = changed_readings(game, readings_cls)
    return ("Readings changed for this session (the Verification page lists them all): " + ", ".join(diff) + ".") if diff \
        else "Default readings of every open question (change them on the Verification page)."


READING_CLASSES: dict[str, type[Readings]] = {g.id: g.readings for g in GAMES}
"""Each game's frozen readings dataclass (its ``Readings``)."""


def readings_class(game: str) -> type:
    """The engine's frozen ``Readings`` options dataclass for ``game``."""
    return READING_CLASSES[game]


def choice_description(game: str, name: str, value: Any) -> str:
    """The register's one line on ``name = value`` (solver.reading_options.describe), or empty."""
    try:
        return reading_options.describe(game, name, value, limit=600)
    except (BadInput, AttributeError, KeyError):
        return ""


def option_widget(game: str, readings_cls: type, name: str, key_prefix: str, label: str | None = None,
                  describe: bool = True) -> None:
    """One select box for one ``Readings`` field, over its listed values, each with the register's one-line
    description (readings are chosen, never typed); a valid change is stored in this session's
    readings (shared by every page), an invalid combination is refused inline by the engine.

    The box follows the readings: when they changed elsewhere (another box for the same reading, a reset),
    its value is set before it is drawn, since the browser would send back its old value otherwise."""
    label = label or reading_label(game, name)
    key = f"{key_prefix}_{game}_{name}"
    try:
        choices = list(reading_options.choices(game, name))  # the solver lists them; this box only shows them
    except BadInput as exc:
        st.error(f"{label}: {exc}", icon=":material/error:")
        return
    value, default = getattr(make_readings(game, readings_cls), name), getattr(readings_cls(), name)
    if not choices:
        st.error(f"{label}: this reading has no listed alternatives to choose from", icon=":material/error:")
        return

    def fmt(v: Any) -> str:  # short, so the closed box shows it whole; the lines are below and in the help
        return describe_choice(v) + (" (default)" if v == default else "")

    shown = value if value in choices else choices[0]
    if st.session_state.get(key) != shown:
        st.session_state[key] = shown
    st.selectbox(label, choices, format_func=fmt, key=key, on_change=_choose_reading,
                 args=(game, readings_cls, name, key),
                 help="  \n".join(f"**{fmt(v)}**: {choice_line(game, name, v)}" for v in choices))
    line = choice_line(game, name, st.session_state[key]) if describe else ""
    if line:
        st.caption(line)
    refused = st.session_state.pop(f"{key}__refused", None)
    if refused:
        st.error(refused, icon=":material/error:")


def choice_line(game: str, name: str, value: Any) -> str:
    """The register's line on one choice in words (:func:`plain`), without the value repeated in front of it."""
    line = choice_description(game, name, value)
    head = f"{value.value if isinstance(value, enum.Enum) else value}:"  # (choice_description reads it uncut)
    line = line[len(head):].strip() if line.startswith(head) else line
    return "" if line == name else plain(game, line)  # the register says nothing on it: no line, not the bare name


def reading_label(game: str, name: str) -> str:
    """A reading's box label in words: the register's title of the rule the option belongs to
    (:func:`solver.readings.options.option_rules`) and its id (the command line's name for it is in the register)."""
    from solver.readings.options import option_rules

    own = option_rules(game, name)
    if not own:
        return value_words(name).capitalize()
    title = f"{own[0].title} ({own[0].id})"
    return title if own[0].option == name else f"{title}: {value_words(name)}"  # one of several under one rule


def _choose_reading(game: str, readings_cls: type, name: str, key: str) -> None:
    """The select box's change (a callback, before the rerun): stored in the readings when the engine
    accepts the combination; otherwise refused inline and the box put back on the reading in force."""
    new = st.session_state[key]
    names = {f.name for f in dataclasses.fields(readings_cls)}
    trial = {k: v for k, v in (dict(readings(game)) | {name: new}).items() if k in names}
    try:
        readings_cls(**trial)
    except (BadInput, TypeError, ValueError) as exc:
        st.session_state[f"{key}__refused"] = f"{reading_label(game, name)}: {plain(game, str(exc))}"
        st.session_state[key] = getattr(make_readings(game, readings_cls), name)
        return
    readings(game)[name] = new
