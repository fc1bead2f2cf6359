"""Where the project's own data lives (never a folder outside the repository: users do not have it)."""

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = REPO / "scenarios"
REGISTER = REPO / "docs" / "register"
