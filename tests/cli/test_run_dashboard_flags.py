"""`python3 run.py dashboard` passes Streamlit's own flags on, and the README says so; after an install, `test` lints
and type-checks while the kernels compile, and starts the tests (or the dashboard) once they have."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

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


class _Compiling:
    """The background compilation :func:`run.ensure_venv` returns after an install; records when it is waited for."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def wait(self) -> int:
        self.log.append("kernels compiled")
        return 0


def test_the_test_command_lints_and_type_checks_while_the_kernels_compile_and_tests_after(monkeypatch):
    run = _run_module()
    log: list[str] = []
    monkeypatch.setattr(run, "ensure_venv", lambda: _Compiling(log))
    monkeypatch.setattr(run, "ensure_chromium", lambda: log.append("chromium"))
    monkeypatch.setattr(run, "check_types", lambda: log.append("mypy") or 0)
    monkeypatch.setattr(run, "sh", lambda *cmd, **kw: log.append(Path(str(cmd[0])).name + " " + str(cmd[1])) or 0)
    assert run.main(["test", "-x"]) == 0
    assert log == ["chromium", "ruff check", "mypy", "kernels compiled", "python -m"]


def test_the_dashboard_starts_after_the_kernels_compile(monkeypatch):
    run = _run_module()
    log: list[str] = []
    monkeypatch.setattr(run, "ensure_venv", lambda: _Compiling(log))
    monkeypatch.setattr(run, "sh", lambda *cmd, **kw: log.append(Path(str(cmd[0])).name) or 0)
    assert run.main(["dashboard"]) == 0
    assert log == ["kernels compiled", "streamlit"]


def test_the_processes_it_starts_keep_their_compiled_modules(monkeypatch):
    """An environment that says not to write bytecode (PYTHONDONTWRITEBYTECODE) would have every worker, server and
    command compile the project again: the tests and the dashboard start without it."""
    run = _run_module()
    seen: list[str | None] = []
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setattr(run, "ensure_venv", lambda: None)
    monkeypatch.setattr(run, "ensure_chromium", lambda: None)
    monkeypatch.setattr(run, "check_types", lambda: 0)
    monkeypatch.setattr(run, "sh", lambda *cmd, **kw: seen.append(os.environ.get("PYTHONDONTWRITEBYTECODE")) or 0)
    assert run.main(["test"]) == 0
    assert run.main(["dashboard"]) == 0
    assert seen and seen == [None] * len(seen)
