"""The Verification page's adapters: run a game's invariant checks in :mod:`solver` and draw their results (holds /
fails, counterexample, rule passage); each game's room draws its own options and counterexamples (its ``verification.py``,
:class:`dashboard.room.VerificationSection`). No check is decided here."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import polars as pl
import streamlit as st

from dashboard.shared import answers
from dashboard.shared.caching import all_checks_decided, cache_final, dumps
from dashboard.shared.readings import make_readings, readings_class, readings_doc, readings_from_doc
from dashboard.shared.runs import ProgressBox, run_with_progress
from solver import registry
from solver.errors import BadInput
from solver.execution.progress import OnProgress


def readings_key(readings: Any) -> str:
    """A readings options object as canonical JSON (the cache key of a check run)."""
    return dumps(readings_doc(readings))


def readings_from_key(game: str, readings_json: str) -> Any:
    """The readings options object back from :func:`rules_key`'s JSON."""
    return readings_from_doc(game, json.loads(readings_json))


@cache_final(all_checks_decided, max_entries=32)
def _run_cached(game: str, readings_json: str, options_json: str, _progress: OnProgress | None = None) -> list[dict]:
    """A game's checks through its room's ``verify`` (:data:`solver.registry.GAMES`), one result shape; ``_progress``
    (not part of the key): the page's :class:`~dashboard.shared.work.ProgressBox`."""
    return registry.game(game).verify(readings_from_key(game, readings_json), json.loads(options_json),
                                      _progress)["checks"]


KEPT = "checks_answers"
"""Work key of the Verification page's last answers (:mod:`dashboard.shared.answers`; the impact table's too)."""


def game_section(game: str, title: str, options: dict, counterexample: Callable[[dict], None],
                 expected_seconds: float) -> None:
    """One game's checks run through :data:`solver.registry.GAMES`: the options its room drew, Run, and the last
    answer for these options (kept for this browser), each counterexample drawn by ``counterexample``."""
    cls = readings_class(game)
    readings_json = readings_key(make_readings(game, cls) if cls else None)
    inputs = [readings_json, dumps(options)]
    if st.button(f"Run the {title} checks", key=f"run_{game}"):
        box = ProgressBox()
        try:
            answers.remember(KEPT, f"checks_{game}", inputs, run_with_progress(
                _run_cached, game, readings_json, inputs[1], box, label=f"Checking {title}",
                expected_seconds=expected_seconds, box=box))
        except BadInput as exc:
            st.error(str(exc), icon=":material/error:")
        except Exception as exc:  # noqa: BLE001 - a verifier's failure is reported, never a traceback
            st.error(f"The {title} verifier failed: {type(exc).__name__}: {exc}", icon=":material/error:")
    result = answers.recall(KEPT, f"checks_{game}", inputs)
    if result is not None:
        show(result, counterexample)


def last_options(game: str) -> dict:
    """The options of a game's last run (kept with its answer): a new session starts its widgets from them."""
    last = answers.last_inputs(KEPT, f"checks_{game}")
    return json.loads(last[1]) if last else {}


def _rule_passage(rule: str | None) -> str:
    """The register's source passage for a rule id, else the check's own text."""
    if not rule:
        return ""
    from solver.register import register

    for token in str(rule).replace(",", " ").split():
        rid = token.removeprefix("rule:")
        try:
            r = register().get(rid)
        except BadInput:
            continue
        return f"**{r.id}** {r.title}: {r.source}" + (f"  \n*In English:* {r.english}" if r.english else "")
    return str(rule)


def draw_counterexample(check: dict, words: Callable[[dict], None]) -> None:
    """A counterexample as its game's room says it (``words``: in words, drawn where it is a position), then its raw
    JSON for the curious."""
    cex = check.get("counterexample")
    if cex is None:
        return
    words(check)
    with st.expander("Counterexample (JSON)", expanded=False):
        st.json(cex)


VERDICT = {True: "holds", False: "fails", None: "undecided"}


def show(checks: list[dict], counterexample: Callable[[dict], None]) -> None:
    """A holds/fails table, then one expander per check with its rule passage and counterexample."""
    if not checks:
        st.info("The verifier returned no checks.")
        return
    held = sum(c["holds"] is True for c in checks)
    failed = sum(c["holds"] is False for c in checks)
    st.markdown(f"**{held} of {len(checks)} checks hold, {failed} fail"
                + (f", {len(checks) - held - failed} undecided within the time limit" if held + failed < len(checks) else "")
                + ".**")
    st.dataframe(pl.DataFrame([{"check": str(c["id"]), "result": VERDICT[c["holds"]],
                                "rule": str(c.get("rule") or ""),
                                "detail": str(c.get("title") or c.get("detail") or c.get("description") or "")}
                               for c in checks]), hide_index=True, width="stretch")
    for c in checks:
        mark = {True: ":material/check_circle:", False: ":material/cancel:", None: ":material/help:"}[c["holds"]]
        with st.expander(f"{VERDICT[c['holds']]} - {c['id']}", icon=mark, expanded=c["holds"] is False):
            passage = _rule_passage(c.get("rule"))
            if passage:
                st.markdown(passage)
            if c.get("counterexample") is not None:
                draw_counterexample(c, counterexample)
            extra = {k: v for k, v in c.items() if k not in ("id", "holds", "counterexample", "rule")}
            if extra:
                with st.expander("The check's details (JSON)"):
                    st.json(extra, expanded=False)
