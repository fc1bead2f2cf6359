#!/usr/bin/env python3
"""One-command set-up for Ruleslinger; needs only python3 (3.11+).

    python3 run.py dashboard   # set up .venv (first time) and start the dashboard
    python3 run.py test        # set up .venv (first time), lint with ruff and run the whole test suite
    python3 run.py bench       # set up .venv and run every benchmark (bench/results.json)
    python3 run.py cli ARGS    # run the ruleslinger command inside .venv

The virtual environment lives in ``.venv`` inside the repository; it is re-installed only when
``pyproject.toml`` changes. The browser tests need Debian's Chromium (/usr/bin/chromium): when it is
missing and this runs as root with apt-get, ``test`` installs it while it sets up ``.venv``; otherwise those tests are
skipped.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
CHROMIUM = Path("/usr/bin/chromium")


def say(msg: str) -> None:
    print(f"[run.py] {msg}", flush=True)


def sh(*cmd: str | Path, check: bool = True, **kw) -> int:
    return subprocess.run([str(c) for c in cmd], check=check, **kw).returncode


def need_python() -> None:
    """Stop at once, before anything is installed, under a Python older than 3.11."""
    if sys.version_info < (3, 11):  # noqa: UP036 - run.py runs under any python3 and says what it needs
        sys.exit(f"[run.py] Python 3.11 or newer is needed; this is {sys.version.split()[0]}")


def ensure_venv() -> subprocess.Popen[bytes] | None:
    """Create and install ``.venv`` when ``pyproject.toml`` has changed since the last install. The kernels' compiler
    (numba) is installed first, and the optimizer's kernels are compiled into their cache by a background process
    while pip installs the rest (pip keeps one core busy, the compilation the other); that process is returned: the
    caller does what needs no kernel meanwhile (ruff, mypy) and waits for it (:func:`finish`) before anything else."""
    if not PY.exists():
        say(f"creating virtual environment in {VENV}")
        try:
            sh(sys.executable, "-m", "venv", VENV)
        except subprocess.CalledProcessError:
            sys.exit("[run.py] 'python3 -m venv' failed; on Debian/Ubuntu: apt-get install python3-venv")
    stamp = VENV / ".installed"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return None
    say("installing ruleslinger and its dependencies into .venv (first run takes about a minute)")
    pip_install("--upgrade", "pip")
    # --no-compile: a module is compiled when first imported and kept (write_bytecode), not all of them now
    pip_install("--no-compile", compiler_requirement())
    say("compiling the optimizer's kernels once, in the background (about half a minute; later runs load them "
        "from the cache)")
    compiling = subprocess.Popen([str(PY), "-c", "from solver.wagons.optimizer.bnb.search import compile_kernels; "
                                  "compile_kernels()"], cwd=ROOT)
    try:
        pip_install("--no-compile", "-e", f"{ROOT}[test]")
    except BaseException:
        compiling.kill()
        raise
    stamp.write_text(digest)
    return compiling


def pip_install(*args: str) -> None:
    sh(PY, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *args)


def compiler_requirement() -> str:
    """The project's requirement on numba (pyproject.toml), which is all the kernels' compilation needs: the project's
    own modules are imported from the repository."""
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    return next(d for d in deps if re.match(r"[\w.-]+", d)[0] == "numba")


def finish(compiling: subprocess.Popen[bytes] | None) -> None:
    """Wait for the kernels' compilation :func:`ensure_venv` started, if any (a failure only leaves the cache cold:
    the kernels then compile on first use)."""
    if compiling is not None and compiling.wait() != 0:
        say("the kernels did not compile ahead; they compile on first use instead")


def start_chromium() -> threading.Thread | None:
    """Debian's Chromium for the browser tests, when it is missing and this runs as root with apt-get: installed on a
    thread of its own, so that apt-get downloads and unpacks while pip installs and the kernels compile (in series it
    added about half a minute to a new machine's run); :func:`finish_chromium` waits for it before the tests."""
    if CHROMIUM.exists():
        return None
    if os.name != "posix" or os.geteuid() != 0 or not shutil.which("apt-get"):
        say("Debian's chromium is not installed: the browser tests will be skipped")
        return None
    say("installing Debian's chromium for the browser tests (apt-get), in the background")
    installing = threading.Thread(target=install_chromium, name="chromium", daemon=True)
    installing.start()
    return installing


def install_chromium() -> None:
    """apt-get: Chromium without its recommended desktop packages (printing, sound, a notification daemon), and the
    Liberation fonts it recommends, which the screenshots and the fit checks are drawn in."""
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    quiet = {"check": False, "env": env, "stdout": subprocess.DEVNULL}
    ok = sh("apt-get", "update", "-qq", **quiet) == 0
    ok = ok and sh("apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium", "fonts-liberation",
                   **quiet) == 0
    if not ok:
        say("could not install chromium: the browser tests will be skipped")


def finish_chromium(installing: threading.Thread | None) -> None:
    """Wait for :func:`start_chromium`'s install, if any."""
    if installing is not None:
        installing.join()


def start_types() -> tuple[subprocess.Popen[bytes], IO[bytes]]:
    """mypy over solver/ and dashboard/ (pyproject.toml's [tool.mypy]), started beside the tests at the lowest
    priority: it takes the moments the tests leave a core idle. Its report goes to a temporary file
    (:func:`types_result` reads it)."""
    say("mypy (types), new errors only (mypy-baseline), beside the tests; its result comes after theirs")
    out = tempfile.TemporaryFile()
    return subprocess.Popen([str(PY), "-m", "mypy"], stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
                            preexec_fn=lowest_priority if hasattr(os, "nice") else None), out


def lowest_priority() -> None:
    """In the child before it starts: nice 19, where the system lets it (a refusal only leaves it at its priority)."""
    try:
        os.nice(19)
    except OSError:
        pass


def types_result(started: tuple[subprocess.Popen[bytes], IO[bytes]]) -> int:
    """The result of :func:`start_types`: mypy-baseline lets through only the older modules' known errors
    (mypy-baseline.txt), so any new one, or an untyped new function, fails."""
    mypy, out = started
    code = mypy.wait()
    out.seek(0)
    report = out.read().decode(errors="replace")
    say("mypy (types), new errors only (mypy-baseline)")
    if "error:" not in report and code != 0:  # mypy itself failed (a crash, a bad config)
        print(report, flush=True)
        return code
    filtered = subprocess.run([str(BIN / "mypy-baseline"), "filter", "--no-colors", "--hide-stats"],
                              input=report, text=True, cwd=ROOT)
    return filtered.returncode


def write_bytecode() -> None:
    """Let the processes started from here keep Python's compiled modules in ``__pycache__`` (git-ignored), even where
    the environment says not to (``PYTHONDONTWRITEBYTECODE``): otherwise every process the tests start (both pytest
    workers, each dashboard server, each command, each worker pool) compiles the project's modules again, and pytest
    rewrites the test modules again, about 5 CPU seconds a worker."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "help"
    rest = argv[1:]
    if command in ("help", "-h", "--help"):
        print(__doc__)
        return 0
    need_python()
    write_bytecode()
    installing = start_chromium() if command == "test" else None
    compiling = ensure_venv()
    os.chdir(ROOT)
    if command != "test":
        finish(compiling)
    if command == "dashboard":
        say("starting the dashboard; open the URL printed below (Ctrl+C stops it)")
        return sh(BIN / "streamlit", "run", ROOT / "dashboard" / "app.py", *rest, check=False)
    if command == "test":
        say("ruff check (lint)")
        lint = sh(BIN / "ruff", "check", ROOT, check=False)
        checking = start_types()
        try:
            finish(compiling)
            finish_chromium(installing)
            tests = sh(PY, "-m", "pytest", "-n", "2", "--dist", "loadfile", "-q", *rest, check=False)
        except BaseException:
            checking[0].kill()
            raise
        types = types_result(checking)  # read whatever the tests gave
        return tests or lint or types
    if command == "bench":
        return sh(PY, ROOT / "bench" / "run_all.py", *rest, check=False)
    if command == "cli":
        return sh(BIN / "ruleslinger", *rest, check=False)
    print(__doc__)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
