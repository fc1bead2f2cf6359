"""The Cactus Town section of the Verification page: which player counts' event decks to check and whether to skip the
slowest alternative-reading checks, a failing check said in words (:mod:`dashboard.cactus.check_words`), and how its
verdicts across the readings run (:mod:`solver.cactus.verify` decides every check; nothing is decided here). The
navigation lists it with the other games' sections (:data:`dashboard.nav.VERIFICATION_SECTIONS`)."""

from __future__ import annotations

import streamlit as st

from dashboard.cactus.check_words import fails_in_words
from dashboard.shared.widgets import kept
from dashboard.verification.results import game_section, last_options

GAME = "cactus"
EXPECTED_SECONDS = 60.0
"""A run of the checks with the default options (the progress bar's estimate)."""
IMPACT_SECONDS = 180.0
"""A full run of this game's verdicts across the readings (docs/history/2026-12-01-readings-impact.md)."""
IMPACT_GAMES = False
"""Its verdicts are exact odds and Z3 checks: "Games per scenario" does not apply."""


def options(before: dict) -> dict:
    """The checks' options, starting from the last run's (``before``)."""
    oc = st.columns(2)
    chosen = {
        "players": kept(oc[0].multiselect, "ver_cactus_players", before.get("players", []),
                        "Event-deck checks for player counts", [2, 3, 4, 5],
                        help="Each player count adds Z3 checks of up to a minute or two; the solo-deck checks "
                             "always run."),
        "quick": kept(oc[1].toggle, "ver_cactus_quick", before.get("quick", True), "Quick run",
                      help="Skip the slowest checks of the alternative readings"),
    }
    st.caption("The deck checks try every reading of C2-C5 themselves, so they do not depend on this session's "
               "readings.")
    return chosen


def counterexample(check: dict) -> None:
    """A failing check's counterexample (or a holding one's witness) in words, where the words can say it."""
    words = fails_in_words(check)
    if words:
        st.markdown(f"**{'Counterexample' if check.get('holds') is False else 'Witness'}:** {words}")


def section(title: str) -> None:
    """Options, Run, and the last answer for these options."""
    game_section(GAME, title, options(last_options(GAME)), counterexample, EXPECTED_SECONDS)
