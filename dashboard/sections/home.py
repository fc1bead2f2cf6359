"""Home: what each section of the dashboard does."""

import streamlit as st

from dashboard.common import PAGES

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

