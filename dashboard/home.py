"""Home: what each section of the dashboard does."""

import streamlit as st

from dashboard.nav import PAGES
from dashboard.shared.fit import whole_titles

whole_titles()  # the navigation's group titles whole
st.title("Ruleslinger")
st.markdown(
    "A rules-verification and scoring lab for three western tabletop games. Every answer on these "
    "pages comes from the `solver` package (the same engines as the `ruleslinger` command line); "
    "open questions in the rulebooks are named readings you can change on the **Verification** page."
)
for section, entries in PAGES.items():
    shown = [info for info in entries if info.name != "home"]
    if not shown:
        continue
    st.subheader("Your work" if section == "Ruleslinger" else section)
    for info in shown:
        st.page_link(info.file, label=info.title, icon=info.icon)
        st.markdown(info.what)

