"""The Outlaws section of the Verification page: a time limit per check and the rules broken on purpose, each
counterexample said in one sentence (:mod:`dashboard.outlaws.counterexample`) and drawn as Main Street before and
after its action, and how its verdicts across the readings run (:mod:`solver.outlaws.verify` decides every check;
nothing is decided here). The navigation lists it with the other games' sections (:data:`dashboard.nav.VERIFICATION_SECTIONS`)."""

from __future__ import annotations

import streamlit as st

from dashboard.outlaws import street
from dashboard.outlaws.counterexample import sentence
from dashboard.shared.widgets import kept
from dashboard.verification.results import game_section, last_options

GAME = "outlaws"
EXPECTED_SECONDS = 60.0
"""A run of the checks with the default options (the progress bar's estimate)."""
IMPACT_SECONDS = 300.0
"""A full run of this game's verdicts across the readings (docs/history/2026-12-01-readings-impact.md)."""
IMPACT_GAMES = False
"""Its verdicts are searches and Z3 checks: "Games per scenario" does not apply."""


def options(before: dict) -> dict:
    """The checks' options, starting from the last run's (``before``)."""
    from solver.outlaws.verify.checks import MUTATIONS

    return {
        "time_limit": float(kept(st.slider, "ver_outlaws_limit", int(before.get("time_limit", 30)),
                                 "Time limit per check (seconds)", 1, 120)),
        "mutations": kept(
            st.multiselect, "ver_outlaws_mutations", before.get("mutations", []),
            "Break a rule on purpose, to see the verifier catch it with a counterexample", sorted(MUTATIONS),
            format_func=lambda m: MUTATIONS[m],
            help="The verifier's own deliberately broken variants of the rules; the real rules stay unchanged."),
    }


def _safe_position(pos: dict, caption: str, before: dict | None = None) -> None:
    try:
        st.html(street.street_html(pos, caption, before=before, counts=True))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        st.caption(f"({caption}: this counterexample cannot be drawn as a street)")


def counterexample(check: dict) -> None:
    """A counterexample that is a position and an action: one sentence, then the street before and after it (what
    changed outlined)."""
    cex = check.get("counterexample")
    if not (isinstance(cex, dict) and isinstance(cex.get("before"), dict)):
        return
    st.markdown(f"**Counterexample:** {sentence(str(check['id']), cex)}")
    _safe_position(cex["before"], "Before the action")
    if isinstance(cex.get("after"), dict):
        _safe_position(cex["after"], "After it (what changed is outlined in orange, with what it was)",
                       before=cex["before"])


def section(title: str) -> None:
    """Options, Run, and the last answer for these options."""
    game_section(GAME, title, options(last_options(GAME)), counterexample, EXPECTED_SECONDS)
