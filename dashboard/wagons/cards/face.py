"""Your goal cards, read off the cards in hand: each goal card of the scenario drawn as a card (its name, its text as
the sources give it, and the numbers it prints, laid out as :data:`solver.wagons.scoring.card_numbers.LAYOUTS` lists them:
the points, once or per item, the table of runs or bands), with a box for each number. **My card shows these** takes
the numbers as listed in one tap; a number typed differently is checked by the engine
(:func:`solver.wagons.scoring.card_numbers.read_card`, one line in words) and then used by every page this browser opens.
The answers live in :mod:`dashboard.wagons.cards.reading` (:data:`~dashboard.wagons.cards.reading.NUMBERS`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape
from typing import TYPE_CHECKING, Any

import streamlit as st

from dashboard.wagons.cards import reading as card_reading
from solver.errors import BadInput
from solver.io.numbers import parse_int_text
from solver.wagons.readings import CHOICES, GOAL_READINGS

if TYPE_CHECKING:
    from solver.wagons.data import GoalSpec

_MOST = 1000


def _box(label: str, key: str, value: Any, where: Any, lo: int = -_MOST, blank: bool = False) -> int | None:
    """A text box for one printed number (``blank``: an empty box means "and more", None); the number typed, or
    BadInput naming the box."""
    text = where.text_input(label, value="" if value is None else str(value), key=key, max_chars=6)
    if blank and not text.strip():
        return None
    return parse_int_text(text, f"'{label}'", lo, _MOST)


def _typed(goal: GoalSpec, key: str, shown: Mapping[str, Any]) -> dict[str, Any]:
    """The numbers in the card's boxes (BadInput naming the box for a text that is no number)."""
    from solver.wagons.scoring.card_numbers import questions

    out: dict[str, Any] = {}
    for q in questions(goal):
        value, k = shown[q.param], f"{key}_{q.param}"
        if q.shape == "runs":
            cols = st.columns(len(value))
            out[q.param] = [_box(f"{n + 2}{'+' if n == len(value) - 1 else ''} Wagons", f"{k}_{n}", v, cols[n])
                            for n, v in enumerate(value)]
        elif q.shape == "bands":
            rows = []
            for n, (lo, hi, pts) in enumerate(value):
                c = st.columns(3)
                rows.append([_box("From Mines", f"{k}_{n}_lo", lo, c[0], 0),
                             _box("To Mines (empty: and more)", f"{k}_{n}_hi", hi, c[1], 0, blank=True),
                             _box("Points", f"{k}_{n}_pts", pts, c[2])])
            out[q.param] = rows
        else:
            out[q.param] = _box(_first_up(q.words), k, value, st, max(q.lowest, -_MOST))
    return out


def _first_up(text: str) -> str:
    return text[:1].upper() + text[1:]


COUNTS = {"per-mine": "per Mine", "flat": "once"}
"""How a card's points count, per reading (Boom or Bust, rule W11), as its face says it."""


def face_html(goal: GoalSpec, shown: Mapping[str, Any], settled: bool, counting: str | None = None) -> str:
    """The card as the sources give it: its name, its text, each printed number with what it counts, and how its
    points count when the player's card said (``counting``)."""
    from solver.wagons.scoring.card_numbers import questions

    rows = []
    for q in questions(goal):
        v = shown[q.param]
        if q.shape == "runs":
            cells = "".join(f"<td>{n + 2}{'+' if n == len(v) - 1 else ''}</td>" for n in range(len(v)))
            v_html = f"<table><tr><th>Wagons</th>{cells}</tr><tr><th>points</th>" + "".join(
                f"<td>{x}</td>" for x in v) + "</tr></table>"
        elif q.shape == "bands":
            v_html = "<table><tr><th>Mines</th><th>points</th></tr>" + "".join(
                f"<tr><td>{lo}{'+' if hi is None else '' if hi == lo else f'-{hi}'}</td><td>{p}</td></tr>"
                for lo, hi, p in v) + "</table>"
        else:
            v_html = f"<b>{v}</b>"
        rows.append(f"<div>{escape(_first_up(q.words))}: {v_html}</div>")
    if counting:
        rows.append(f"<div>The points count: <b>{escape(counting)}</b></div>")
    tag = "from your card" if settled else "low confidence: one unofficial source" if goal.confidence.startswith(
        "low") else goal.confidence + " confidence"
    return (f"<div style='border:2px solid #8a6d3b;border-radius:10px;padding:8px 10px;background:#fbf6ea;"
            f"max-width:420px;font-size:14px'><div style='font-weight:700'>{escape(goal.name)}"
            f" <span style='font-weight:400;font-size:12px'>({tag})</span></div>"
            f"<div style='font-style:italic;margin:4px 0'>{escape(goal.text)}</div>{''.join(rows)}</div>")


def card_form(goal: GoalSpec, key: str, also: Callable[[str, str], None] | None = None) -> None:
    """One goal card: its face, **My card shows these** (one tap) and, opened on asking, a box for each number."""
    from solver.wagons.scoring.card_numbers import card_values

    said = card_reading.numbers().get(goal.name)
    shown = said or card_values(goal)
    reading = GOAL_READINGS.get(goal.kind)
    counting = COUNTS.get(card_reading.said().get(reading[0], "")) if reading else None
    st.html(face_html(goal, shown, said is not None, counting))
    if said is not None:
        st.button("Change what my card shows", key=f"{key}_forget", on_click=card_reading.forget_numbers,
                  args=(goal.name,))
        return
    if reading and reading[3] == "low" and reading[0] not in card_reading.said():  # the card reads two ways
        with st.container(horizontal=True):
            for value in CHOICES[reading[0]]:
                st.button(f"My card {card_reading.SHORT.get(value, value)}", key=f"{key}_says_{value}",
                          type="primary", on_click=card_reading.choose, args=(reading[0], value, also, goal.name),
                          help="These numbers, as your card prints them, with its points counted this way")
    else:
        st.button("My card shows these", key=f"{key}_same", type="primary", on_click=card_reading.set_numbers,
                  args=(goal.name, card_values(goal), also), help="The numbers above are the ones printed on your card")
    with st.expander("My card shows other numbers", key=f"{key}_other"):
        with st.form(f"{key}_form", border=False):
            typed: dict[str, Any] | BadInput
            try:
                typed = _typed(goal, key, shown)
            except BadInput as exc:
                typed = exc
            if st.form_submit_button("Use my card's numbers"):
                if isinstance(typed, BadInput):
                    st.error(f"Fix the box {typed}.", icon=":material/error:")
                else:
                    card_reading.set_numbers(goal.name, typed, also, rerun=True)


def cards_panel(scenario: str, key: str, also: Callable[[str, str], None] | None = None,
                open_: bool = True) -> None:
    """Every goal card of the scenario: the low-confidence ones first, open while any is not read off the card
    (and ``open_``: a game under way keeps it folded until its end)."""
    from solver.wagons.data import load_data

    data = card_reading.card_data()
    names = data.scenario(scenario).goals
    low = [n for n in names if card_reading.unsettled_card(data.goal(n))]
    title = (f"Your goal cards: {len(low)} of them rest on one unofficial source; read their numbers off your cards"
             if low else "Your goal cards (their numbers, as your cards print them)")
    with st.expander(title, expanded=bool(low) and open_, icon=":material/style:", key=f"{key}_cards"):
        cols = st.columns(len(names))
        for col, name in zip(cols, sorted(names, key=lambda n: n not in low)):
            with col:
                card_form(load_data().goal(name), f"{key}_{name.lower().replace(' ', '_')}", also)
        st.download_button("Download my cards' numbers (a goals file for the command line's --goals)",
                           card_reading.goals_text(), file_name="my-goals.toml", key=f"{key}_goals_file",
                           icon=":material/download:", disabled=not card_reading.numbers())
