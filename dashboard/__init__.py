"""The Ruleslinger Streamlit dashboard: thin pages over :mod:`solver` (no rules logic here)."""
