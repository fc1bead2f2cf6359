"""`python3 run.py dashboard` passes Streamlit's own flags on, and the README says so (issue 32: "the README
does not say that the dashboard command takes Streamlit's flags")."""

from __future__ import annotations

import importlib.util

from solver.paths import REPO


def _run_module():
    spec = importlib.util.spec_from_file_location("run_py", REPO / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_dashboard_command_hands_streamlit_its_flags(monkeypatch):
    run = _run_module()
    calls = []
    monkeypatch.setattr(run, "ensure_venv", lambda: None)
    monkeypatch.setattr(run, "sh", lambda *cmd, **kw: calls.append([str(c) for c in cmd]) or 0)
    assert run.main(["dashboard", "--server.port", "8502", "--server.headless", "true"]) == 0
    [cmd] = calls
    assert cmd[1:3] == ["run", str(REPO / "dashboard" / "app.py")]
    assert cmd[3:] == ["--server.port", "8502", "--server.headless", "true"]


def test_the_readme_says_the_dashboard_takes_streamlits_flags():
    readme = (REPO / "README.md").read_text()
    assert "python3 run.py dashboard --server.port 8502" in readme
