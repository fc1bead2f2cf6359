"""A one-page Streamlit script for the browser test of the after-game review: plays the seeded game
named in the URL query (``?scenario=...&policy=...&seed=...``) to its end with the engine's policy,
then shows ``dashboard.wagons.review.show_review`` and ``show_was_winnable`` as the play page does at game end.
Run by tests/browser/test_review.py with ``streamlit run tests/apps/wagons_review.py``."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `streamlit run` puts only this folder on the path
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from dashboard.wagons.review import show_review, show_was_winnable  # noqa: E402
from solver.wagons.simulate import play_game  # noqa: E402

st.set_page_config(page_title="Lone Cowboy review", layout="wide")
q = st.query_params
scenario, policy, seed = q.get("scenario", "cattle-drive"), q.get("policy", "random"), int(q.get("seed", "2"))
st.title("Lone Cowboy: after the game")
game = play_game(scenario, policy, seed)
st.caption(f"Scenario {scenario}, seed {seed}, the {policy} policy: the player scored {game.scores.player.total}, "
           f"the automated opponent {game.scores.opponent.total}.")
show_review(game.state)
show_was_winnable(game.state)
