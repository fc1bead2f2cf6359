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
PARTS = {  # what each page needs from the engines: (module, function, what it gives)
    "wagons": [("solver.wagons.scoring", "final_scores", "scoring"), ("solver.wagons.opponent", "opponent_draft", "opponent drafts"),
               ("solver.wagons.simulate", "simulate", "simulation"), ("solver.wagons.optimizer.layout", "best_layout", "best layout"),
               ("solver.wagons.optimizer.bestplay", "best_play_row", "best play")],
    "cactus": [("solver.cactus.odds", "marshal_odds", "marshal odds"), ("solver.cactus.ranger", "decide", "lone ranger"),
               ("solver.cactus.duel", "duel_odds", "duels"), ("solver.cactus.verify", "verify", "checks")],
    "outlaws": [("solver.outlaws.actions", "legal_actions", "legal actions"), ("solver.outlaws.search", "win_possible", "win search"),
                ("solver.outlaws.playout", "playouts", "playouts"), ("solver.outlaws.verify", "run_checks", "checks")],
}
for game, title in GAME_TITLES.items():
    parts = [f"{what} {'✓' if has(module, fn) else '(not installed)'}" for module, fn, what in PARTS[game]]
    st.markdown(f"- **{title}**: " + ", ".join(parts))
