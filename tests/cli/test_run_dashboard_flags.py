"""`python3 run.py dashboard` passes Streamlit's own flags on, and the README says so; after an install, `test` lints
and starts the type check while the kernels compile, starts the tests (or the dashboard) once they have, and reads
the type check's result after the tests; an install puts the kernels' compiler in first and compiles them while pip
installs the rest."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

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


class _Installing:
    """Chromium's install :func:`run.start_chromium` starts; records when it is waited for."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def join(self) -> None:
        self.log.append("chromium installed")


class _Typing:
    """The type check :func:`run.start_types` starts; records when it is killed."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def kill(self) -> None:
        self.log.append("mypy killed")


def _record_types(run, monkeypatch, log: list[str], result: int = 0) -> None:
    monkeypatch.setattr(run, "start_types", lambda: log.append("mypy started") or (_Typing(log), None))
    monkeypatch.setattr(run, "types_result", lambda started: log.append("mypy result") or result)


def test_the_test_command_lints_and_starts_the_type_check_while_the_kernels_compile_and_tests_after(monkeypatch):
    run = _run_module()
    log: list[str] = []
    monkeypatch.setattr(run, "start_chromium", lambda: log.append("chromium started") or _Installing(log))
    monkeypatch.setattr(run, "ensure_venv", lambda: log.append("venv") or _Compiling(log))
    _record_types(run, monkeypatch, log, result=1)
    monkeypatch.setattr(run, "sh", lambda *cmd, **kw: log.append(Path(str(cmd[0])).name + " " + str(cmd[1])) or 0)
    assert run.main(["test", "-x"]) == 1  # the tests passed, the types did not
    assert log == ["chromium started", "venv", "ruff check", "mypy started", "kernels compiled", "chromium installed",
                   "python -m", "mypy result"]


def test_the_type_check_is_read_when_the_tests_fail(monkeypatch):
    run = _run_module()
    log: list[str] = []
    monkeypatch.setattr(run, "ensure_venv", lambda: None)
    monkeypatch.setattr(run, "start_chromium", lambda: None)
    _record_types(run, monkeypatch, log)
    monkeypatch.setattr(run, "sh", lambda *cmd, **kw: int(Path(str(cmd[0])).name == "python"))
    assert run.main(["test"]) == 1
    assert log == ["mypy started", "mypy result"]


def test_an_interrupted_test_run_stops_the_type_check(monkeypatch):
    run = _run_module()
    log: list[str] = []

    def interrupted(*cmd, **kw):
        if Path(str(cmd[0])).name == "python":
            raise KeyboardInterrupt
        return 0

    monkeypatch.setattr(run, "ensure_venv", lambda: None)
    monkeypatch.setattr(run, "start_chromium", lambda: None)
    _record_types(run, monkeypatch, log)
    monkeypatch.setattr(run, "sh", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run.main(["test"])
    assert log == ["mypy started", "mypy killed"]


def test_a_type_check_that_crashed_is_shown_whole_and_fails(capsys):
    """A report without an error line and a failing exit is mypy's own failure (a crash, a bad config): shown as it
    is, its exit code the result (the report read back from the file the process wrote)."""
    run = _run_module()
    out = run.tempfile.TemporaryFile()
    crashed = run.subprocess.Popen([sys.executable, "-c", "print('mypy: a bad config'); raise SystemExit(3)"],
                                   stdout=out)
    assert run.types_result((crashed, out)) == 3
    assert "mypy: a bad config" in capsys.readouterr().out


def test_the_type_check_asks_for_the_lowest_priority_and_starts_where_it_is_refused(monkeypatch):
    run = _run_module()
    asked: list[int] = []
    monkeypatch.setattr(run.os, "nice", lambda n: asked.append(n) or 19)
    run.lowest_priority()

    def refused(n: int) -> int:
        raise PermissionError("not allowed")

    monkeypatch.setattr(run.os, "nice", refused)
    run.lowest_priority()  # no error: the child starts at its priority
    assert asked == [19]


def test_an_install_compiles_the_kernels_while_pip_installs_the_rest(monkeypatch, tmp_path):
    """Fresh: pip itself, then numba alone (the project's own requirement on it), then the compilation starts, then
    the rest; what is returned is the compilation."""
    run = _run_module()
    log: list[str] = []
    monkeypatch.setattr(run, "VENV", tmp_path)
    monkeypatch.setattr(run, "PY", Path(__file__))  # exists: no new venv
    monkeypatch.setattr(run, "sh", lambda *cmd, **kw: log.append(" ".join(str(c) for c in cmd[6:])) or 0)

    class Started:
        def __init__(self, argv, cwd):
            log.append("compiling")

    monkeypatch.setattr(run.subprocess, "Popen", Started)
    assert isinstance(run.ensure_venv(), Started)
    assert log == ["--upgrade pip", f"--no-compile {run.compiler_requirement()}", "compiling",
                   f"--no-compile -e {run.ROOT}[test]"]
    assert run.compiler_requirement().startswith("numba")
    assert run.ensure_venv() is None  # installed: nothing to do


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
    monkeypatch.setattr(run, "start_chromium", lambda: None)
    _record_types(run, monkeypatch, [])
    monkeypatch.setattr(run, "sh", lambda *cmd, **kw: seen.append(os.environ.get("PYTHONDONTWRITEBYTECODE")) or 0)
    assert run.main(["test"]) == 0
    assert run.main(["dashboard"]) == 0
    assert seen and seen == [None] * len(seen)


def test_chromium_is_installed_in_the_background_without_the_desktops_recommendations(monkeypatch, tmp_path, capsys):
    """Missing and root with apt-get: apt-get runs on a thread of its own (the index, then Chromium and the Liberation
    fonts the pictures are drawn in, nothing else it recommends); a failed install says the browser tests will be
    skipped. Present, or not root: nothing is started."""
    run = _run_module()
    calls: list[list[str]] = []
    monkeypatch.setattr(run, "CHROMIUM", tmp_path / "chromium")
    monkeypatch.setattr(run.os, "geteuid", lambda: 0)
    monkeypatch.setattr(run.shutil, "which", lambda name: "/usr/bin/" + name)
    monkeypatch.setattr(run, "sh", lambda *cmd, **kw: calls.append([str(c) for c in cmd]) or 0)
    installing = run.start_chromium()
    assert installing is not None
    run.finish_chromium(installing)
    assert calls == [["apt-get", "update", "-qq"],
                     ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium", "fonts-liberation"]]
    monkeypatch.setattr(run, "sh", lambda *cmd, **kw: 100)
    run.install_chromium()
    assert "could not install chromium: the browser tests will be skipped" in capsys.readouterr().out
    monkeypatch.setattr(run.os, "geteuid", lambda: 1000)
    assert run.start_chromium() is None
    (tmp_path / "chromium").touch()
    assert run.start_chromium() is None


def test_only_the_test_command_installs_chromium(monkeypatch):
    run = _run_module()
    started: list[str] = []
    monkeypatch.setattr(run, "start_chromium", lambda: started.append("chromium"))
    monkeypatch.setattr(run, "ensure_venv", lambda: None)
    monkeypatch.setattr(run, "sh", lambda *cmd, **kw: 0)
    assert run.main(["dashboard"]) == 0
    assert started == []


def test_an_old_python_stops_before_anything_is_installed(monkeypatch):
    run = _run_module()
    started: list[str] = []
    monkeypatch.setattr(run.sys, "version_info", (3, 10, 0))
    monkeypatch.setattr(run, "start_chromium", lambda: started.append("chromium"))
    monkeypatch.setattr(run, "ensure_venv", lambda: started.append("venv"))
    with pytest.raises(SystemExit, match="Python 3.11 or newer is needed"):
        run.main(["test"])
    assert started == []
