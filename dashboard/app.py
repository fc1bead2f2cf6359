"""Ruleslinger dashboard entry point: ``streamlit run dashboard/app.py``.

Pages live in one room per game (``dashboard/wagons/``, ``cactus/``, ``outlaws/``, ``verification/``; the list is
:mod:`dashboard.nav`); every rule decision is made by :mod:`solver`, the pages only
collect input, call the engines and draw their answers.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `streamlit run` puts only dashboard/ on the path
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from solver import deps  # noqa: E402

st.set_page_config(page_title="Ruleslinger", page_icon=":cactus:", layout="wide")
try:
    deps.check(deps.ENGINES | deps.DASHBOARD)
except deps.MissingDependency as exc:
    st.error(f"Ruleslinger cannot start: {exc}", icon=":material/error:")
    st.stop()

from dashboard.nav import PAGES, start_rooms  # noqa: E402
from dashboard.shared.readings import readings_from_address, readings_to_address  # noqa: E402
from dashboard.shared.runs import deliver_stopped  # noqa: E402
from dashboard.shared.work import store  # noqa: E402

HERE = Path(__file__).resolve().parent
pages = {
    section: [st.Page(str(HERE / info.file), title=info.title, icon=info.icon, url_path=info.name,
                      default=(info.name == "home"))
              for info in entries]
    for section, entries in PAGES.items()
}
page = st.navigation(pages)  # first: the browser learns the page it is on before any element can ask for a rerun
# (the cookie writer below reports a held id at once; a rerun asked before this line ran the Home page instead)
store.start()  # this browser's kept work and saved games (the cookie writer; one line when saving is off); a tab
# that takes the id another tab of this browser wrote starts over under it, before anything reads the session
problem = readings_from_address()  # a new session takes the readings kept in the address (a reload, a bookmark)
if problem:
    st.error(problem, icon=":material/error:")
start_rooms()  # each game room's start-up (Lone Cowboy: the readings this browser's cards settled)
readings_to_address()  # readings change in callbacks and before reruns, so the start of a run is up to date
deliver_stopped()  # the best so far of a search stopped in the last run, where its page reads it

page.run()
