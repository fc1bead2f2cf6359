"""The dashboard's Streamlit settings that users see: no "Deploy" button on a local lab, no usage statistics, no
full garbage collection after every tap."""

from __future__ import annotations

import subprocess
import sys
import tomllib

from tests.support.paths import ROOT

CONFIG = ROOT / ".streamlit" / "config.toml"


def test_the_deploy_button_and_developer_menu_are_hidden():
    config = tomllib.loads(CONFIG.read_text())
    assert config["client"]["toolbarMode"] == "minimal"


def test_usage_statistics_are_not_sent_and_uploads_are_small():
    config = tomllib.loads(CONFIG.read_text())
    assert config["browser"]["gatherUsageStats"] is False
    assert config["server"]["maxUploadSize"] <= 1


def test_a_run_ends_without_a_full_garbage_collection():
    """Streamlit collects all garbage after every run by default: with the engines loaded that took 0.1-0.2 s of
    every tap. The setting is off, under the name Streamlit reads (a misspelt one is ignored with a warning): read
    back by Streamlit itself from the folder the dashboard starts in."""
    code = "from streamlit import config; print(config.get_option('runner.postScriptGC'))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stdout + out.stderr
