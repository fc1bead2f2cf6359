"""The note page of tests/apps/store_app.py: a text box mirrored to this browser's kept work, and a form saving
it to My games. A page adopting the store does the same: ``sync`` at the top, the widget, ``save_form``."""

from __future__ import annotations

import streamlit as st

from dashboard.shared import games
from dashboard.shared.work import store

store.sync("note")  # restores the note when the session lacks it, keeps it when a run changed it
st.title("Note")
st.text_area("Your note", key="note")
store.persist("note")
games.save_form("note", st.session_state.get("note", ""), key="note_save", default_name="My note")
