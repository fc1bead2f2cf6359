"""A read-only copy of the sources with no folder numba can write to (issue 33: a shared install), and the
``ruleslinger`` command run in it (tests/wagons/optimizer/test_compiled.py, tests/fuzz/test_limits.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT as REPO


def read_only_install(tmp_path: Path, numba_cache_dir: str | None) -> dict[str, str]:
    """A copy of the sources where numba can cache nothing, and the environment of a user who runs it."""
    install = tmp_path / "install"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "solver", install / "solver", ignore=ignore)
    shutil.copytree(REPO / "scenarios", install / "scenarios", ignore=ignore)
    shutil.copytree(REPO / "docs" / "register", install / "docs" / "register")
    for kernels in ("walk", "bnb"):  # the folders of the compiled kernels: no cache beside them
        (install / "solver" / "wagons" / "optimizer" / kernels / "__pycache__").write_text("not a folder")
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / ".cache").write_text("not a folder")
    (tmp_path / "blocker").write_text("a regular file")
    (tmp_path / "tmp").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "XDG_", "RULESLINGER_"))}
    env |= {"HOME": str(tmp_path / "home"), "TMPDIR": str(tmp_path / "tmp"), "PYTHONPATH": str(install),
            "PYTHONDONTWRITEBYTECODE": "1"}
    if numba_cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = numba_cache_dir.format(tmp=tmp_path)
    return env


def ruleslinger(env: dict[str, str], *argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "solver", *argv], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300)
