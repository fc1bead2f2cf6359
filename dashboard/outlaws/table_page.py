"""Outlaws at the table: play a position forward, one engine action at a time (the flow is
:mod:`dashboard.outlaws.play`; every rule is :mod:`solver.outlaws`'s)."""

from __future__ import annotations

import streamlit as st

from dashboard.nav import page_header
from dashboard.outlaws import play as outlaws_play
from dashboard.outlaws import position_work
from dashboard.shared import fit
from dashboard.shared.readings import make_readings, readings_class, readings_summary
from solver.outlaws import game as gm

DEFAULT_SEED = 0  # the game contract's and the CLI's default set-up seed

page_header("outlaws_table")
fit.narrow_page()
cls = readings_class("outlaws")
st.caption(readings_summary("outlaws", cls) + " The game is kept as you play (a reload, another page or a closed "
           "tab loses nothing) and in the page's address, to bookmark or share.")
outlaws_play.render(gm.initial_state(DEFAULT_SEED, make_readings("outlaws", cls)), DEFAULT_SEED,
                    position_work.shown_elsewhere())
