"""The repository's own files, as a fresh clone has them: the files git tracks (every file when there is no git)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.support.paths import ROOT

SKIP_DIRS = {".git", ".venv", "__pycache__", ".pytest_cache", ".ruff_cache", "node_modules", "screenshots",
             ".hypothesis", "build", "dist"}


def tracked_files() -> list[Path]:
    """Every tracked file (``git ls-files``); in a copy without git, every file outside caches and builds."""
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        return [ROOT / line for line in out.splitlines() if line]
    except (OSError, subprocess.CalledProcessError):  # a copy without git: walk the tree
        files = []
        for root, dirs, names in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")]
            files += [Path(root) / n for n in names]
        return files


def tracked_paths() -> set[str]:
    """The tracked files and every folder holding one, as paths from the root (``solver``, ``solver/cli.py``)."""
    paths = set()
    for f in tracked_files():
        parts = f.relative_to(ROOT).parts
        if f.exists():  # a tracked file deleted in this working copy is not there
            paths.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    return paths
