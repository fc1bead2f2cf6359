"""Home: what each section of the dashboard does."""

import streamlit as st

from dashboard.common import GAME_TITLES, PAGES, has

st.title("Ruleslinger")
st.markdown(
    "A rules-verification and scoring lab for three western tabletop games. Every answer on these "
    "pages comes from the `solver` package (the same engines as the `ruleslinger` command line); "
    "open questions in the rulebooks are named readings you can change on the **Verification** page."
)
for section, entries in PAGES.items():
    if section == "Ruleslinger":
        continue
    st.subheader(section)
    for file, title, icon, what in entries:
        st.page_link(f"sections/{file}.py", label=title, icon=icon)
        st.markdown(what)

st.subheader("Engines in this installation")
status = {"wagons": has("solver.wagons.score", "score_town") or has("solver.wagons", "score_town"),
          "cactus": has("solver.cactus.marshal", "marshal_odds") or has("solver.cactus", "marshal_odds"),
          "outlaws": has("solver.outlaws.state", "legal_actions") or has("solver.outlaws", "legal_actions")}
for game, title in GAME_TITLES.items():
    st.markdown(f"- {title}: {'ready' if status[game] else 'not installed yet'}")
