"""The Verification page's "Verdicts across readings" table: ``ruleslinger readings impact`` run with
progress and drawn as a table (solver/readings.py decides everything; nothing is recomputed here).

The verdict runs are cached by the solver per verdict and rules (never an undecided one), so a rerun
only computes what a time limit left open; the last report is kept in the session.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable

import polars as pl
import streamlit as st

from dashboard.nav import VERIFICATION_SECTIONS
from dashboard.shared import answers
from dashboard.shared.readings import GAME_TITLES, describe_choice, plain, reading_name
from dashboard.shared.runs import ProgressBox, Stopped, run_with_progress
from dashboard.shared.widgets import kept
from dashboard.shared.words import counted
from dashboard.verification.results import KEPT
from solver.errors import BadInput
from solver.execution.executor import ExecutorSpec
from solver.execution.progress import Progress
from solver.readings.base import FALSE
from solver.stopping import StopSignal, stopped

ACROSS = {"same": "the same under every reading", "changed": "changed by a reading",
          "undecided": "undecided under some reading"}
"""What the readings do to a verdict, in words (never "holds": a verdict that fails under every reading is "the
same under every reading", not "holds under every reading")."""


def across(v: dict) -> str:
    """The verdict across the readings: the same under every one it reads, changed by some, or undecided."""
    if v["holds_under_every_reading"]:
        return ACROSS["same"]
    return ACROSS["changed"] if v["depends_on"] else ACROSS["undecided"]


def _words(entry: dict, key: str = "result") -> str:
    """A verdict's value in the words its game gave it (a report kept from before verdicts had words: its JSON)."""
    return entry.get("words") or json.dumps(entry.get(key), separators=(", ", ": "))[:120]


def reading_words(game: str, reading: str, value: object) -> str:
    """One reading's value in words: "the question's title: the value's label" (never ``name=value``)."""
    return f"{reading_name(game, reading)}: {describe_choice(value)}"


def rows(report: dict) -> list[dict]:
    """One row per verdict: its value under the default readings and each reading that changes it, in words."""
    out, game = [], report.get("game", "")
    for v in report["verdicts"]:
        changed = "; ".join(f"{reading_words(game, d['reading'], d['value'])}: {_words(d)}"
                            for d in v["depends_on"])
        undecided = ", ".join(reading_words(game, d["reading"], d["value"]) for d in v["undecided"])
        out.append({"verdict": v["id"], "under the default readings": _words(v, "default"),
                    "across the readings": across(v), "readings that change it": changed or "-",
                    "undecided under": undecided or "-", "readings run": len(v["checked"]),
                    "skipped": len(v["skipped"])})
    return out


def summary(report: dict) -> str:
    """One line over the table, in the same words as its column "across the readings"."""
    counts = {key: sum(across(v) == words for v in report["verdicts"]) for key, words in ACROSS.items()}
    total = len(report["verdicts"])
    line = (f"**{counts['same']} of {counted(total, 'verdict')} the same under every reading; "
            f"{counts['changed']} changed by a reading")
    return line + (f"; {counts['undecided']} undecided under some reading" if counts["undecided"] else "") + \
        f"** ({report.get('elapsed', report.get('seconds'))} s)."


_AHEAD: dict[tuple, threading.Thread] = {}
"""The runs computed ahead in this server (game, seconds, games) -> its thread: each at most once a process."""
_AHEAD_LOCK = threading.Lock()


def cards(game: str) -> str:
    """The numbers the player settled on ``game``'s cards, as the game's Verification section passes them (its
    ``impact_cards``), "{}" for a game without them."""
    read = getattr(VERIFICATION_SECTIONS[game], "impact_cards", None)
    return read() if read is not None else "{}"


AHEAD_ENV = "RULESLINGER_AHEAD"
"""``off`` (or ``0``, ``false``, ``no``) leaves the verdicts to the Run button: nothing is computed ahead (a laptop on
battery; the tests' browser servers, whose pages never wait for it). Anything else, or unset: computed ahead."""


def ahead_on() -> bool:
    """Whether the server computes the verdicts ahead (:data:`AHEAD_ENV`)."""
    return os.environ.get(AHEAD_ENV, "").strip().lower() not in FALSE


AHEAD_EXECUTOR = ExecutorSpec("local", workers=1, background=True)
"""Where a run ahead computes: one worker process a game, at the lowest priority, so that neither the pages (the
server's own thread would hold the interpreter's lock) nor anything else on the machine waits for it."""


def compute_ahead(game: str, time_limit: float, games: int, cards: str = "{}") -> None:
    """Start computing every verdict of ``game`` across the readings in the background (once a server process, on
    :data:`AHEAD_EXECUTOR`), so the Run button finds them done: each decided result is kept in memory and on disk
    between runs (:mod:`solver.readings.stored`, keyed by the code and data it rests on), for every set of readings.
    Only in a server that a browser is looking at (its request's headers: an AppTest has none, so tests start no
    background work), and unless :data:`AHEAD_ENV` turns it off."""
    if not browser_session() or not ahead_on():
        return
    key = (game, float(time_limit), int(games), cards)
    with _AHEAD_LOCK:
        if key in _AHEAD:
            return
        from solver.readings import impact
        from solver.readings import verdicts as verdict

        settings = verdict.Settings(time_limit=time_limit, games=games, cards=cards)
        _AHEAD[key] = threading.Thread(target=_quietly, args=(impact.impact, game, None, settings, None,
                                                              AHEAD_EXECUTOR),
                                       name=f"verdicts ahead: {game}", daemon=True)
        _AHEAD[key].start()


def browser_session() -> bool:
    """This run serves a browser (a request with headers), not a test's AppTest."""
    try:
        return bool(st.context.headers)
    except Exception:  # noqa: BLE001 (no script context: no browser)
        return False


def _quietly(fn: Callable[..., object], *args: object) -> None:
    """A run ahead: its results are kept by the solver; a failure is the Run button's to report, not this thread's."""
    try:
        fn(*args, stored=True)
    except Exception:  # noqa: BLE001 (the same run, from the button, says what went wrong)
        return


def _run(game: str, only: tuple[str, ...], time_limit: float, games: int, box: ProgressBox,
         cards: str = "{}") -> dict:
    """The verdicts across the readings, reporting to ``box`` (one with ``stops``: once the page stopped waiting,
    no further check). Every verdict (``only`` empty) waits for the run computed ahead since the tab was first opened
    on this server and takes its results; chosen verdicts run at once (what the run ahead has kept already is read
    from its store)."""
    from solver.readings import impact
    from solver.readings import verdicts as verdict

    ahead = _AHEAD.get((game, float(time_limit), int(games), cards))
    while not only and ahead is not None and ahead.is_alive():  # all of them: the run ahead's, not a second run
        box(Progress(what="computing ahead since the tab was first opened"))
        ahead.join(0.5)
        if stopped():
            raise Stopped
    return impact.impact(game, only or None, verdict.Settings(time_limit=time_limit, games=games, cards=cards),
                         box, stored=True)


def impact_section() -> None:
    """Game, verdicts and bounds; the Run button; the table and each verdict's details."""
    from solver.readings import impact

    st.markdown("Each verdict the project states, run under the default readings and again under each "
                "alternative of each reading its code reads (one at a time, the others at their defaults). "
                "**The same under every reading**: no alternative changes its value (whether it holds or fails); "
                "otherwise the readings that do are listed with the value they give. Readings a verdict cannot "
                "read are skipped, with the argument.")
    newest = answers.newest(KEPT, "impact_")  # a new session opens on the last run and its settings
    game = kept(st.radio, "imp_game", newest[1][0] if newest else list(GAME_TITLES)[0], "Game", list(GAME_TITLES),
                format_func=GAME_TITLES.get, horizontal=True)
    last = answers.last_inputs(KEPT, f"impact_{game}") or [game, [], 30, 100]
    verdicts = [v.id for v in impact.verdicts(game)]
    c = st.columns([3, 1, 1])
    only = kept(c[0].multiselect, f"imp_verdicts_{game}", [v for v in last[1] if v in verdicts],
                "Verdicts (none chosen: all)", verdicts)
    seconds = [2, 5, 10, 30, 60]
    limit = float(kept(c[1].select_slider, f"imp_limit_{game}", next((s for s in seconds if s == last[2]), 30),
                       "Seconds per check or search", seconds))  # the option itself (JSON gave back 30.0)
    games = int(kept(c[2].select_slider, f"imp_games_{game}", last[3], "Games per scenario", [10, 50, 100, 200],
                     disabled=not VERIFICATION_SECTIONS[game].IMPACT_GAMES))
    key = f"impact_{game}"
    card_numbers = cards(game)  # the player's settled card numbers: a verdict scored with them is another run
    inputs = [game, sorted(only), limit, games] + ([card_numbers] if card_numbers != "{}" else [])
    compute_ahead(game, limit, games, card_numbers)
    if card_numbers != "{}":
        st.caption("The verdicts that score towns use the numbers you read off your goal cards: "
                   + ", ".join(sorted(json.loads(card_numbers))) + ".")
    if st.button(f"Run the {GAME_TITLES[game]} verdicts across the readings", key=f"imp_run_{game}"):
        box = ProgressBox(stops=True)
        share = (len(only) / len(verdicts)) if only else 1.0
        st.session_state[f"{key}_running"] = True  # still set on the next run: this one was stopped
        try:
            answers.remember(KEPT, key, inputs, run_with_progress(
                _run, game, tuple(only), limit, games, box, card_numbers, label=f"Verdicts across the readings ({GAME_TITLES[game]})",
                expected_seconds=max(5.0, VERIFICATION_SECTIONS[game].IMPACT_SECONDS * share), box=box, cancel=StopSignal()))
        except BadInput as exc:
            st.error(str(exc), icon=":material/error:")
        st.session_state.pop(f"{key}_running", None)
    elif st.session_state.pop(f"{key}_running", None):
        st.info("The run was stopped before it finished, so it has no table. The checks it completed are remembered: "
                "a new run with the same settings does not repeat them.", icon=":material/stop_circle:")
    report = answers.recall(KEPT, key, inputs)
    if report:
        show(report)


def show(report: dict) -> None:
    st.markdown(summary(report))
    st.dataframe(pl.DataFrame(rows(report)), hide_index=True, width="stretch")
    unread: dict[str, list[str]] = {}
    game = report.get("game", "")
    for u in report.get("unread", []):
        unread.setdefault(plain(game, u["why"]), []).append(reading_name(game, u["reading"]))
    for why, names in unread.items():
        st.caption(f"No verdict reads {', '.join(names)}: {why}")
    for m in report.get("missing", []):
        st.warning(f"Not run: {m['verdict']}: {m['why']}", icon=":material/construction:")
    for v in report["verdicts"]:
        with st.expander(f"{v['id']}: {v['title']}", expanded=False):
            if v["checked"]:
                st.dataframe(pl.DataFrame([{"reading": reading_name(game, c["reading"]),
                                            "value": describe_choice(c["value"]),
                                            "result": _words(c),
                                            "changes it": c in v["depends_on"]} for c in v["checked"]]),
                             hide_index=True, width="stretch")
            by_reason: dict[str, list[str]] = {}
            for s in v["skipped"]:
                by_reason.setdefault(plain(game, s["why"]), []).append(reading_name(game, s["reading"]))
            for why, names in by_reason.items():
                st.caption(f"Skipped {', '.join(names)}: {why}")
