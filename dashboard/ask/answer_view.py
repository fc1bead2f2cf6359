"""An answer drawn under its question: the verdict in words, how it was decided (proof, estimate, or the best so far),
the readings it rests on, its time (and CP-SAT's deterministic time), the witness's measure values, the witness drawn
as the game's pages draw positions (:data:`dashboard.nav.WITNESSES`; a plain table where a game has no drawing), and
which readings change it. Takes the answer's JSON (:func:`solver.ask.answer.answer_to_json`); decides nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl
import streamlit as st

from solver import registry
from solver.ask.model import Measure

NOUNS = {"yes": "Yes", "no": "No", "unknown": "Not decided"}


def headline(a: Mapping[str, Any]) -> str:
    """The verdict in a few words, as the page's banner says it."""
    verdict = a["verdict"]
    if verdict in NOUNS:
        return f"{NOUNS[verdict]}" + ("" if a.get("proven") or verdict == "unknown" else " (not proven)")
    if verdict == "chance":
        return f"Chance: {a['answer']}"
    return f"{'Value' if a.get('proven') else 'Best found'}: {a['answer']}"


def _banner(a: Mapping[str, Any]) -> None:
    text = f"**{headline(a)}**  \n{a['method']}"
    if a["verdict"] == "unknown" or not a.get("proven", True) and a["verdict"] != "chance":
        st.warning(text, icon=":material/hourglass_bottom:")
    elif a["verdict"] == "no":
        st.info(text, icon=":material/block:")
    else:
        st.success(text, icon=":material/check_circle:")


def changed_readings(game: str, readings: Mapping[str, Any]) -> dict[str, Any]:
    """The answer's readings that differ from the game's defaults."""
    default = registry.game(game).readings().to_json()
    return {k: v for k, v in readings.items() if default.get(k) != v}


def _facts(game: str, a: Mapping[str, Any]) -> None:
    bits = [f"{a['elapsed']:.2f} s"]
    if a.get("deterministic_time") is not None:
        bits.append(f"CP-SAT deterministic time {a['deterministic_time']:.2f}")
    if a.get("size") is not None:
        bits.append(f"{a['size']:,} in the domain")
    if a.get("stopped_by"):
        bits.append(f"ended by the {a['stopped_by']}")
    changed = changed_readings(game, a.get("readings") or {})
    readings = ", ".join(f"{k}={v}" for k, v in changed.items()) + " (the others at their defaults)" if changed \
        else "the defaults"
    st.caption(" · ".join(bits) + f"  \nReadings: {readings}")


def said(value: Any) -> str:
    """A measure's value as people read it (yes / no, not True / False)."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _values(a: Mapping[str, Any], measures: Mapping[str, Measure]) -> None:
    values = a.get("witness_values") or {}
    if not values:
        return
    rows = [{"measure": measures[n].label if n in measures else n, "value": said(v),
             "rule": measures[n].source if n in measures else ""} for n, v in values.items()]
    st.dataframe(pl.DataFrame(rows), hide_index=True, width="stretch")


def witness_title(a: Mapping[str, Any], noun: str) -> str:
    verdict = a["verdict"]
    if verdict == "yes" and "counterexample" not in a["method"]:
        return f"The {noun} that shows it"
    if verdict == "no" and "counterexample" in a["method"]:
        return f"The {noun} where it fails (the counterexample)"
    if verdict == "value":
        return f"A {noun} that reaches it"
    return f"A {noun} where it holds"


def witness_table(witness: Any) -> None:
    """Any witness as plain tables: its single values in one table, each list of records in its own."""
    if not isinstance(witness, Mapping):
        st.write(witness)
        return
    single = [{"part": k, "value": str(v)} for k, v in witness.items()
              if not isinstance(v, (list, dict)) or (isinstance(v, list) and not any(isinstance(x, dict) for x in v))]
    if single:
        st.dataframe(pl.DataFrame(single), hide_index=True, width="stretch")
    for k, v in witness.items():
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            st.markdown(f"**{k}**")
            st.dataframe(pl.DataFrame([{c: str(x) for c, x in row.items()} for row in v]), hide_index=True,
                         width="stretch")
        elif isinstance(v, dict):
            st.markdown(f"**{k}**")
            witness_table(v)


def _witness(game: str, a: Mapping[str, Any], noun: str) -> None:
    from dashboard.nav import WITNESSES

    witness = a.get("witness")
    if not witness:
        return
    st.markdown(f"**{witness_title(a, noun)}**")
    draw = WITNESSES.get(game)
    if draw is None or not draw(witness):
        witness_table(witness)
    with st.expander("The witness as data", icon=":material/data_object:"):
        st.json(witness, expanded=False)


def changed_by(a: Mapping[str, Any]) -> None:
    """Which readings change the answer (after the button asked)."""
    changed = a.get("changed_by")
    if changed is None:
        return
    if not changed:
        st.success("No listed alternative reading changes this answer.", icon=":material/rule:")
        return
    st.markdown("**Readings that change it**")
    st.dataframe(pl.DataFrame([{"reading": c["reading"], "value": str(c["value"]), "answer": c["answer"]}
                               for c in changed]), hide_index=True, width="stretch")


def show(game: str, a: Mapping[str, Any], measures: Mapping[str, Measure], noun: str) -> None:
    """The whole answer."""
    _banner(a)
    if a.get("stopped_early"):
        st.caption("You stopped this answer: this is what it had by then.")
    _facts(game, a)
    _values(a, measures)
    _witness(game, a, noun)
    changed_by(a)
