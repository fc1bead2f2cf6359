"""Pages that fit a phone (390 px wide, no sideways scrolling of the page).

:func:`narrow_page` adds the page's small stylesheet: on a narrow screen a tab bar wraps onto a second line
instead of hiding its last tabs behind a scroll arrow ("Lone ranger's tu›"), and code spans in text wrap.
Drawings fit by their own layout (``dashboard/outlaws/street.py``, ``dashboard/cactus/drawing.py``), data tables
scroll inside themselves. Presentation only.
"""

from __future__ import annotations

import streamlit as st

NARROW_PX = 640
"""Streamlit's own breakpoint: below it, columns stack."""

_CSS = f"""<style>
@media (max-width: {NARROW_PX}px) {{
  [data-testid="stTabs"] [role="tablist"] {{ flex-wrap: wrap; row-gap: 2px; overflow: visible; }}
  [data-testid="stTabs"] [role="tablist"] > [data-testid="stTab"] {{ flex: 0 0 auto; }}
  [data-testid="stMarkdownContainer"] code {{ white-space: pre-wrap; overflow-wrap: anywhere; }}
}}
</style>"""


def narrow_page() -> None:
    """Call once near the top of a page: its tab bars and code spans fit a narrow screen."""
    st.html(_CSS)


_WHOLE_TITLES = """<style>
[data-testid="stNavSectionHeader"] * { white-space: normal !important; text-overflow: clip !important;
  overflow: visible !important; }
[data-testid="stMultiSelect"] [data-tag] { height: auto !important; }
[data-testid="stMultiSelect"] [data-tag] > span[title] { white-space: normal !important;
  text-overflow: clip !important; overflow: visible !important; }
</style>"""
"""The navigation's group titles ("Circle the Wagons: Lone Cowboy") and the options chosen in a multiple choice
("leaving the Saloon may put the Governor in it" on a phone) wrap instead of ending in "..."."""


def whole_titles() -> None:
    """Every page (:func:`dashboard.shared.widgets.page_header`): the sidebar's group titles and the chosen options
    shown whole. Drawn as
    an element of the sidebar, which a fragment's rerun leaves in place (a style-only ``st.html`` goes to the run's
    event area, which such a rerun empties)."""
    st.sidebar.markdown(_WHOLE_TITLES, unsafe_allow_html=True)

