"""The dashboard's Streamlit settings that users see: no "Deploy" button on a local lab, no usage statistics."""

from __future__ import annotations

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
