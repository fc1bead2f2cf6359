"""Where the project's own data lives (never a folder outside the repository: users do not have it)."""

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = REPO / "scenarios"
REGISTER = REPO / "docs" / "register"

STORE_ENV = "RULESLINGER_STORE"
"""Environment variable naming the dashboard's saved-games store (it overrides the user's data folder)."""


def store_path() -> Path:
    """The dashboard's saved-games store: ``$RULESLINGER_STORE``, else ``store.sqlite3`` in the user's data folder
    (XDG_DATA_HOME when absolute, else ``~/.local/share``), in ``ruleslinger/``."""
    named = os.environ.get(STORE_ENV, "").strip()
    if named:
        return Path(named).expanduser().absolute()
    data = os.environ.get("XDG_DATA_HOME", "").strip()
    root = Path(data) if data and Path(data).is_absolute() else Path.home() / ".local" / "share"
    return root / "ruleslinger" / "store.sqlite3"


OWN_FOLDERS = (SCENARIOS, REGISTER, REPO / "solver", REPO / "dashboard")
"""Folders whose files the program reads to run (its data, its rule register, its code): never an output."""
