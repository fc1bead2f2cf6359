"""A two-page Streamlit app over the store's API, for tests/test_store.py: a note that is this browser's kept
work (``store.sync``) and can be saved to My games (kind ``note``), and the My games page itself.
Run by the tests with ``streamlit run tests/apps/store_app.py`` (and as an AppTest)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `streamlit run` puts only this folder on the path
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from dashboard.shared import games  # noqa: E402
from dashboard.shared.work import store  # noqa: E402

HERE = Path(__file__).resolve().parent
NOTE_PAGE = HERE / "store_note.py"
games.KINDS.setdefault("note", games.Kind("Note", NOTE_PAGE, "note"))  # the table others extend

st.set_page_config(page_title="Store test", layout="wide")
page = st.navigation([st.Page(str(NOTE_PAGE), title="Note", url_path="note", default=True),
                      st.Page(str(ROOT / "dashboard" / "shared" / "my_games.py"), title="My games",
                              url_path="my_games")])
store.start()  # as in dashboard/app.py: after the navigation, before the page
page.run()
