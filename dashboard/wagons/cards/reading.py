"""The player's card settles it: where a Lone Cowboy score rests on a low-confidence number with listed
readings (Boom or Bust today, rule:W11), the page shows the scores under each reading side by side, each with the
reading's wording, until the player says which one their card shows; that answer is remembered for the browser
(:mod:`dashboard.shared.work.store`, work key :data:`WORK`), can be changed, and sets the session's reading (the
readings every page passes to the engines).

The scores are the engine's (:func:`solver.wagons.scoring.by_reading.scores_by_reading`, as ``wagons score --json``
gives them under ``by_reading``); this module only asks, draws and remembers the answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import streamlit as st

from dashboard.shared.readings import READINGS_QUERY, readings
from dashboard.shared.work import store
from solver.errors import BadInput
from solver.wagons.readings import CHOICES, GOAL_READINGS

if TYPE_CHECKING:
    from solver.wagons.data import GoalSpec, WagonsData

NUMBERS = "wagons_card_numbers"
"""Session key and the browser's kept work: {goal card: {number: value}} the player read off their cards
(:func:`solver.wagons.scoring.card_numbers.read_card`; Boom or Bust's ``per_mine`` when the card settled that reading)."""
WORK = "wagons_card_readings"
"""Session key and the browser's kept work: {readings field: the value the player's card shows}."""
_APPLIED = "_wagons_card_readings_applied"
"""Session flag: the remembered answers were put into this session's readings (once, at its first run)."""
OUTCOME = {"player": "you win", "opponent": "the opponent wins", "tie": "a tie"}


def _load(doc: Any) -> dict:
    if not isinstance(doc, dict) or not all(k in CHOICES and v in CHOICES[k] for k, v in doc.items()):
        raise BadInput("the card readings kept for this browser are not readings this version lists")
    return dict(doc)


def said() -> dict:
    """{field: value} the player said their cards show (this browser's, restored on a new session)."""
    if WORK not in st.session_state:
        store.sync(WORK, load=_load)
    return st.session_state.setdefault(WORK, {})


def restore() -> None:
    """Once per session, before the page (app.py): the readings the player's cards settled become the session's,
    except a reading the address names (a shared or bookmarked address keeps its own readings)."""
    if st.session_state.get(_APPLIED):
        return
    st.session_state[_APPLIED] = True
    from_address = set(readings("wagons")) if st.query_params.get(READINGS_QUERY) else set()
    for field, value in said().items():
        if field not in from_address:
            readings("wagons")[field] = value


def choose(field: str, value: str, also: Callable[[str, str], None] | None = None, goal: str | None = None) -> None:
    """The player's card shows ``value``: remembered, and the session's reading (``also`` applies it to a game
    under way). With ``goal``, the card in hand settles its numbers too: those listed, unless the player typed
    others (:mod:`dashboard.wagons.cards.face`), and this reading with them."""
    st.session_state[WORK] = {**said(), field: value}
    readings("wagons")[field] = value
    store.persist(WORK)
    if goal is not None:
        _settle_reading(goal, field, value)
    if also is not None:
        also(field, value)


def unsay(field: str) -> None:
    """**Change**: the scores under every reading side by side again, until the player answers anew."""
    st.session_state[WORK] = {k: v for k, v in said().items() if k != field}
    store.persist(WORK)
    param = next((p for f, p, _v, _c in GOAL_READINGS.values() if f == field), None)
    st.session_state[NUMBERS] = {name: {k: v for k, v in typed.items() if k != param}
                                 for name, typed in numbers().items()}
    store.persist(NUMBERS)


# ----------------------------------------------------------------------------- the numbers printed on the cards

def _load_numbers(doc: Any) -> dict:
    from solver.wagons.data import load_data
    from solver.wagons.scoring.card_numbers import check_answers

    return check_answers(doc, load_data())


def numbers() -> dict:
    """{goal card: {number: value}} the player read off their cards (this browser's, restored on a new session)."""
    if NUMBERS not in st.session_state:
        store.sync(NUMBERS, load=_load_numbers)
    return st.session_state.setdefault(NUMBERS, {})


def cards_json() -> str:
    """The player's card numbers as canonical JSON: part of every cached engine call's key."""
    return json.dumps(numbers(), sort_keys=True, separators=(",", ":"))


def card_data() -> WagonsData:
    """The wagons data every engine on these pages reads: the shipped numbers with the player's cards' in place."""
    from dashboard.wagons.view import cards_data
    from solver.wagons.data import load_data

    return cards_data(cards_json()) or load_data()


def unsettled_card(goal: GoalSpec) -> bool:
    """A goal card whose numbers rest on one unofficial source and that the player has not read off their card."""
    from solver.wagons.scoring.totals import is_low_confidence

    return goal.name not in numbers() and is_low_confidence(goal)


def set_numbers(goal: str, typed: dict, also: Callable[[str, str], None] | None = None, rerun: bool = False) -> None:
    """The numbers on the player's ``goal`` card (checked by the engine, an inline line in words if refused);
    a reading of it the player's card already settled (:func:`said`) goes with them."""
    from solver.wagons.data import load_data
    from solver.wagons.scoring.card_numbers import read_card

    goal_spec = load_data().goal(goal)
    typed = dict(typed)
    reading = GOAL_READINGS.get(goal_spec.kind)
    if reading and reading[0] in said():
        typed[reading[1]] = reading[2][said()[reading[0]]]
    try:
        read_card(goal_spec, typed)
    except BadInput as exc:
        st.error(f"Your {goal} card was not taken: {exc}", icon=":material/error:")
        return
    st.session_state[NUMBERS] = {**numbers(), goal: typed}
    store.persist(NUMBERS)
    if rerun:
        st.rerun()


def forget_numbers(goal: str) -> None:
    """**Change what my card shows**: the card's numbers as the sources give them, low confidence again (and any
    reading of it with them)."""
    st.session_state[NUMBERS] = {k: v for k, v in numbers().items() if k != goal}
    store.persist(NUMBERS)
    from solver.wagons.data import load_data

    reading = GOAL_READINGS.get(load_data().goal(goal).kind)
    if reading and reading[0] in said():
        unsay(reading[0])


def _settle_reading(goal: str, field: str, value: str) -> None:
    """A one-tap reading of ``goal``'s card: its numbers as listed (or as typed before) with that reading."""
    from solver.wagons.data import load_data
    from solver.wagons.scoring.card_numbers import card_values

    spec = load_data().goal(goal)
    typed = {k: v for k, v in (numbers().get(goal) or card_values(spec)).items()}
    set_numbers(goal, typed)


def goals_text() -> str:
    """The player's card numbers as the goals file the command line reads (``--goals FILE``)."""
    from solver.wagons.data import load_data
    from solver.wagons.scoring.card_numbers import goals_file

    flags = {"--" + k.replace("_", "-"): v for k, v in said().items()}
    return goals_file(load_data(), numbers(), flags)


@st.cache_data(show_spinner=False, max_entries=256)
def by_reading(town_json_text: str, pile: tuple[int, ...], scenario: str, readings_json: str,
               cards: str = "{}") -> dict:
    """The engine's scores under each low-confidence reading (``wagons score --json`` ``by_reading``), with the
    numbers the player read off their cards (``cards``: :func:`cards_json`)."""
    from dashboard.wagons.view import cards_data
    from solver.wagons.readings import WagonsReadings
    from solver.wagons.scoring import scores_by_reading
    from solver.wagons.town import town_from_dict

    return {**scores_by_reading(town_from_dict(json.loads(town_json_text)), tuple(pile), scenario,
                                WagonsReadings.from_json(json.loads(readings_json)), cards_data(cards)), "scenario": scenario}


def _settled(by: dict) -> list[tuple[str, str, str]]:
    """(goal card, reading, its wording) of each reading of this scenario's cards the player's card settled."""
    from solver.wagons.data import load_data
    from solver.wagons.scoring.by_reading import low_confidence_readings, reading_wording

    if "scenario" not in by:
        return []
    return [(goal, field, reading_wording(field, said()[field]))
            for goal, field in low_confidence_readings(by["scenario"], load_data()) if field in said()]


SHORT = {"per-mine": "counts its points per Mine", "flat": "counts its points once"}
"""What a reading of a card says, short, for the headline ("28-20 if your card counts its points once")."""


def headline(by: dict) -> str | None:
    """The result under each reading while the readings disagree, the one in force first: "You 20, the opponent
    18; or 28-20 if your Boom or Bust card counts its points once"; None when they agree or are settled."""
    listed = [r for r in by.get("readings") or [] if r["option"] not in said()]
    columns = by.get("scores") or []
    if not listed or len({(c["player"], c["opponent"]) for c in columns}) < 2:
        return None
    chosen = next((c for c in columns if c["chosen"]), columns[0])
    reading = listed[0]
    alt = "; or ".join(f"{c['player']}-{c['opponent']} if your {reading['goal']} card "
                       f"{SHORT.get(c['readings'][reading['option']], c['readings'][reading['option']])}"
                       for c in columns if c is not chosen)
    return f"You {chosen['player']}, the opponent {chosen['opponent']}; or {alt}"


def _column_text(column: dict, reading: dict, winner_shown: bool) -> str:
    value = column["readings"][reading["option"]]
    wording = next(v["wording"] for v in reading["values"] if v["value"] == value)
    lines = [f"**If your card says:** {wording}", f"You **{column['player']}**, the opponent **{column['opponent']}**"
             f" (margin {column['margin']:+d})"]
    if winner_shown:
        lines.append(f"Then {OUTCOME.get(column['winner'], column['winner'])}.")
    return "  \n".join(lines)


def panel(by: dict, key: str, finished: bool, also: Callable[[str, str], None] | None = None) -> str | None:
    """The scores under each reading side by side with **My card says this** under each, while the player has not
    said which and the readings give these towns different scores; once said, one line with **Change**. Returns
    why no single winner can be named yet (the readings disagree on it), or None."""
    listed = by.get("readings") or []
    open_ = [r for r in listed if r["option"] not in said()]
    for goal, field, wording in _settled(by):
        with st.container(horizontal=True, vertical_alignment="center"):  # the button as wide as its word
            st.caption(f"**{goal}**: your card says {wording} (remembered in this browser).", width="stretch")
            st.button("Change", key=f"{key}_unsay_{field}", on_click=unsay, args=(field,), width="content")
    if not open_ or len({(c["player"], c["opponent"]) for c in by["scores"]}) < 2:
        return None  # settled, or every reading gives these towns the same scores: nothing rests on it here
    st.markdown(f"**Score: {headline(by)}.**")
    reading = open_[0]
    with st.container(border=True, key=f"{key}_by_reading"):
        st.markdown(f"**{reading['goal']} decides these scores, and your card settles it.** Its numbers are known "
                    f"from one unofficial source, which reads two ways (rule {reading['rule']}): \"{reading['card_text']}\"."
                    " Which does your card say?")
        columns = by["scores"]
        cols = st.columns(len(columns))
        for col, column in zip(cols, columns):
            value = column["readings"][reading["option"]]
            with col:
                st.markdown(_column_text(column, reading, finished))
                st.button("My card says this", key=f"{key}_say_{reading['option']}_{value}", type="primary",
                          on_click=choose, args=(reading["option"], value, also, reading["goal"]), width="stretch")
        chosen = next((c for c in columns if c["chosen"]), columns[0])
        in_force = next(v["wording"] for v in reading["values"]
                        if v["value"] == chosen["readings"][reading["option"]])
        st.caption(f"Until your card says, the totals and tables below count {reading['goal']} as the reading in "
                   f"force does: {in_force}")
    winners = {c["winner"] for c in by["scores"]}
    if len(winners) > 1:
        return f"it depends on what your {reading['goal']} card says (the readings above disagree on it)"
    return None
