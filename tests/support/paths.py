"""Where things are, for every test: the repository root, the dashboard's app script, the golden files."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
GOLDEN = TESTS / "golden"
APP = ROOT / "dashboard" / "app.py"
