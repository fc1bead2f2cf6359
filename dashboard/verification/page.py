"""Verification: every invariant check of the three games, every verdict across the readings
(dashboard/verification/impact.py), and the rules register with this session's reading of each open question
(passed to the engines' readings options on every page)."""

from __future__ import annotations

import dataclasses

import polars as pl
import streamlit as st

from dashboard.nav import VERIFICATION_SECTIONS, page, page_header
from dashboard.shared import answers, fit
from dashboard.shared.readings import (
    GAME_TITLES,
    changed_readings,
    describe_choice,
    make_readings,
    option_widget,
    plain,
    readings,
    readings_class,
)
from dashboard.shared.widgets import kept, kept_tabs
from dashboard.verification import impact
from dashboard.verification import results as checks
from solver.register import Rule, register

page_header("verification")
fit.narrow_page()
answers.sync(checks.KEPT)  # the last checks and verdicts of this browser: kept across pages, reloads and restarts
st.caption("Readings used by every page this session: " + "; ".join(  # every page says this at its top
    f"{title}: {', '.join(changed_readings(g, readings_class(g))) or 'the defaults'}" for g, title in GAME_TITLES.items()))
tab_checks, tab_impact, tab_register = kept_tabs(list(page("verification").tabs), "ver_tab")  # nav.py names them

# ----------------------------------------------------------------------------- register


def register_tab() -> None:
    """The readings in force this session, one select box per option, and the rules register."""
    game = kept(st.radio, "reg_game", list(GAME_TITLES)[0], "Game", list(GAME_TITLES), format_func=GAME_TITLES.get,
                horizontal=True)
    rules = register().for_game(game)
    cls = readings_class(game)
    st.subheader("Readings in force this session")
    if cls is None:
        st.info(f"The {GAME_TITLES[game]} engine has no readings options yet; the register below lists "
                "the open questions and their default readings.")
    else:
        by_option: dict = {}
        for r in rules:  # the open question that names the option, before rules that share it
            if r.option and (r.option not in by_option or (r.open_question and not by_option[r.option].open_question)):
                by_option[r.option] = r
        for f in dataclasses.fields(cls):
            entry = by_option.get(f.name)
            option_widget(game, cls, f.name, "opt", describe=entry is None)  # else the caption below says it all
            if entry is not None:
                st.caption(f"Default: {plain(game, entry.default)}" + (" *(inferred)*" if entry.inferred else "")
                           + ("  \nAlternatives: " + "; ".join(plain(game, a) for a in entry.alternatives)
                              if entry.alternatives else ""))
        if st.button("Back to the default readings", key=f"reset_{game}"):
            readings(game).clear()  # the select boxes follow on the rerun (common.option_widget)
            st.rerun()
    st.subheader("Register")
    only_open = st.toggle("Only open questions", value=False, key=f"only_open_{game}")
    rows = [{"id": r.id, "open": r.open_question, "title": plain(game, r.title), "default reading":
             plain(game, r.default) + (" (inferred)" if r.inferred else ""),
             "alternatives": "; ".join(plain(game, a) for a in r.alternatives),
             "in force": describe_choice(getattr(make_readings(game, cls), r.option))
             if cls is not None and r.option and hasattr(cls, r.option) else "",
             "source": plain(game, r.source), "source in English": r.english or "", "status": r.status}
            for r in rules if r.open_question or not only_open]
    if rows:
        if not any(row["source in English"] for row in rows):
            rows = [{k: v for k, v in row.items() if k != "source in English"} for row in rows]
        else:
            st.caption("The rulebook's Italian passages are quoted as printed, each with its English beside it "
                       "(the column *source in English*).")
        st.dataframe(pl.DataFrame(rows), hide_index=True, width="stretch")
        passages(game, [r for r in rules if r.english and (r.open_question or not only_open)])
    else:
        st.info("No register entries for this game yet.")


def passages(game: str, rules: list[Rule] | tuple[Rule, ...]) -> None:
    """One entry's rulebook passage read whole: the Italian as printed and its English side by side."""
    if not rules:
        return
    by_id = {r.id: r for r in rules}
    rid = st.selectbox("Read an entry's rulebook passage with its English", list(by_id), key=f"reg_passage_{game}",
                       format_func=lambda i: f"{i}: {plain(game, by_id[i].title)}")
    left, right = st.columns(2)
    left.markdown("**As printed (Italian)**  \n" + by_id[rid].source)
    right.markdown("**In English**  \n" + by_id[rid].english)


# ----------------------------------------------------------------------------- checks


def checks_tab() -> None:
    st.markdown("Each check is an invariant of the rules as the engines implement them: **holds** means "
                "it was proven within the stated bound, **fails** comes with a counterexample (said in words, "
                "and drawn before and after its action where it is a position), **undecided** means the time "
                "limit ran out.")
    for game, title in GAME_TITLES.items():
        st.subheader(title)
        VERIFICATION_SECTIONS[game].section(title)  # the game's room: its options, Run, its counterexamples drawn


for tab, draw in ((tab_checks, checks_tab), (tab_impact, impact.impact_section), (tab_register, register_tab)):
    if tab.open:  # only the open tab is drawn: the page shows at once
        with tab:
            draw()
