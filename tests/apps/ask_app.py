"""The dashboard with the page's made-up question domain (tests/support/dashboard/ask_fake.py) standing in for
Cactus Town's own, for tests/browser/test_ask.py: the builder driven in Chromium without depending on a game's
domains.
Run by the tests with ``streamlit run tests/apps/ask_app.py``."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `streamlit run` puts only this folder on the path
    sys.path.insert(0, str(ROOT))

from tests.support.dashboard.ask_fake import install  # noqa: E402

install("cactus")
runpy.run_path(str(ROOT / "dashboard" / "app.py"), run_name="__main__")
