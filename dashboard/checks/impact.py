"""The Verification page's "Verdicts across readings" table: ``ruleslinger readings impact`` run with
progress and drawn as a table (solver/readings.py decides everything; nothing is recomputed here).

The verdict runs are cached by the solver per verdict and rules (never an undecided one), so a rerun
only computes what a time limit left open; the last report is kept in the session.
"""

from __future__ import annotations

import json
from typing import Any

import polars as pl
import streamlit as st

from dashboard.shared.readings import GAME_TITLES
from dashboard.shared.work import Stopped, run_with_progress
from solver.errors import BadInput
from solver.stopping import StopSignal, stopped

EXPECTED_SECONDS = {"wagons": 150.0, "cactus": 180.0, "outlaws": 300.0}
"""Measured full runs (docs/history/2026-12-01-readings-impact.md); the bar scales with the share of verdicts chosen."""


def short(value: Any, limit: int = 90) -> str:
    """A verdict value as one short line (``holds`` first, JSON otherwise)."""
    if isinstance(value, dict) and set(value) <= {"holds", "earliest", "latest", "bound", "undecided"}:
        head = {True: "holds", False: "FAILS", None: "undecided"}[value.get("holds")]
        rest = ", ".join(f"{k} {json.dumps(v)}" for k, v in value.items() if k not in ("holds", "undecided"))
        return head + (f" ({rest})" if rest else "")
    text = json.dumps(value, separators=(", ", ": "))
    return text if len(text) <= limit else text[:limit - 3] + "..."


def rows(report: dict) -> list[dict]:
    """One row per verdict: its value under the default readings and each reading that changes it."""
    out = []
    for v in report["verdicts"]:
        changed = "; ".join(f"{d['reading']}={d['value']}: {short(d['result'], 60)}" for d in v["depends_on"])
        undecided = ", ".join(f"{d['reading']}={d['value']}" for d in v["undecided"])
        verdict = ("holds under every reading" if v["holds_under_every_reading"]
                   else "changed by a reading" if v["depends_on"] else "undecided under some reading")
        out.append({"verdict": v["id"], "default readings": short(v["default"]), "across the readings": verdict,
                    "readings that change it": changed or "-", "undecided under": undecided or "-",
                    "readings run": len(v["checked"]), "skipped": len(v["skipped"])})
    return out


def _run(game: str, only: tuple[str, ...], time_limit: float, games: int, box: dict) -> dict:
    from solver.readings import impact
    from solver.readings import verdicts as verdict

    def progress(done: int, total: int, label: str) -> None:
        if stopped():  # the page stopped waiting (common.run_with_progress): no further check
            raise Stopped
        box["text"] = f"{done} of {total}: {label}"
        box["share"] = done / total if total else None

    return impact.impact(game, only or None, verdict.Settings(time_limit=time_limit, games=games), progress)


def impact_section() -> None:
    """Game, verdicts and bounds; the Run button; the table and each verdict's details."""
    from solver.readings import impact

    st.markdown("Each verdict the project states, run under the default readings and again under each "
                "alternative of each reading its code reads (one at a time, the others at their defaults). "
                "**holds under every reading**: no alternative changes it; otherwise the readings that do are "
                "listed with the value they give. Readings a verdict cannot read are skipped, with the argument.")
    game = st.radio("Game", list(GAME_TITLES), format_func=GAME_TITLES.get, horizontal=True, key="imp_game")
    verdicts = [v.id for v in impact.verdicts(game)]
    c = st.columns([3, 1, 1])
    only = c[0].multiselect("Verdicts (none chosen: all)", verdicts, default=[], key=f"imp_verdicts_{game}")
    limit = float(c[1].select_slider("Seconds per check or search", [2, 5, 10, 30, 60], value=30,
                                     key=f"imp_limit_{game}"))
    games = int(c[2].select_slider("Games per scenario", [10, 50, 100, 200], value=100, key=f"imp_games_{game}",
                                   disabled=game != "wagons"))
    key = f"impact_{game}"
    if st.button(f"Run the {GAME_TITLES[game]} verdicts across the readings", key=f"imp_run_{game}"):
        box: dict = {}
        share = (len(only) / len(verdicts)) if only else 1.0
        st.session_state[f"{key}_running"] = True  # still set on the next run: this one was stopped
        try:
            st.session_state[key] = run_with_progress(
                _run, game, tuple(only), limit, games, box, label=f"Verdicts across the readings ({GAME_TITLES[game]})",
                expected_seconds=max(5.0, EXPECTED_SECONDS[game] * share), detail=lambda: box.get("text", ""),
                fraction=lambda: box.get("share"), cancel=StopSignal())
        except BadInput as exc:
            st.error(str(exc), icon=":material/error:")
        st.session_state.pop(f"{key}_running", None)
    elif st.session_state.pop(f"{key}_running", None):
        st.info("The run was stopped before it finished, so it has no table. The checks it completed are remembered: "
                "a new run with the same settings does not repeat them.", icon=":material/stop_circle:")
    report = st.session_state.get(key)
    if report:
        show(report)


def show(report: dict) -> None:
    table = rows(report)
    held = sum(v["holds_under_every_reading"] for v in report["verdicts"])
    st.markdown(f"**{held} of {len(table)} verdicts hold under every reading; "
                f"{sum(bool(v['depends_on']) for v in report['verdicts'])} change under some reading** "
                f"({report['seconds']} s).")
    st.dataframe(pl.DataFrame(table), hide_index=True, width="stretch")
    unread: dict[str, list[str]] = {}
    for u in report.get("unread", []):
        unread.setdefault(u["why"], []).append(u["reading"])
    for why, names in unread.items():
        st.caption(f"No verdict reads {', '.join(names)}: {why}")
    for m in report.get("missing", []):
        st.warning(f"Not run: {m['verdict']}: {m['why']}", icon=":material/construction:")
    for v in report["verdicts"]:
        with st.expander(f"{v['id']}: {v['title']}", expanded=False):
            if v["checked"]:
                st.dataframe(pl.DataFrame([{"reading": c["reading"], "value": str(c["value"]),
                                            "result": short(c["result"], 120),
                                            "changes it": c in v["depends_on"]} for c in v["checked"]]),
                             hide_index=True, width="stretch")
            by_reason: dict[str, list[str]] = {}
            for s in v["skipped"]:
                by_reason.setdefault(s["why"], []).append(s["reading"])
            for why, names in by_reason.items():
                st.caption(f"Skipped {', '.join(names)}: {why}")
