"""The My games page: this browser's saved games and towns, to resume, rename or delete.

A page script for ``st.navigation``; the kinds it can resume, and the pages that own them, are
``dashboard.shared.games.KINDS``."""

from __future__ import annotations

from dashboard.shared import games

games.show()
