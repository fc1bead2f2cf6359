"""Placeholder until the engine lands."""

import streamlit as st

from dashboard.common import page_header

page_header("wagons_play")
st.info("This page is being built.")
