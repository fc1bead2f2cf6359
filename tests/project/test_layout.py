"""The house's rooms stay small (issue 31): no Python module over 600 lines and no folder holding more than 12
modules (``__init__.py`` not counted), anywhere in the repository: product, tests, benches, notebooks.

Nor does a test import another test module: what tests share lives in ``tests/support/`` or a conftest.

A folder that grows past 12 is split into rooms (as ``solver/outlaws/search/``, ``tests/support/dashboard/``); a
module past 600 lines is split by concern (as ``tests/fuzz/test_cli.py`` and ``test_cli_sweep.py``). Counted over
the files git tracks, as a fresh clone has them.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tests.support.paths import ROOT
from tests.support.repo_files import tracked_files

MAX_LINES = 600
MAX_MODULES = 12
TEST_IMPORT = re.compile(r"^\s*(?:from|import)\s+(tests(?:\.\w+)*\.test_\w+)", re.MULTILINE)


def python_files(files: list[Path] | None = None) -> list[Path]:
    """The tracked ``.py`` files that exist in this working copy."""
    return sorted(f for f in (tracked_files() if files is None else files) if f.suffix == ".py" and f.exists())


def long_modules(files: list[Path], base: Path = ROOT) -> list[str]:
    """``path: N lines`` for each module over :data:`MAX_LINES`."""
    out = []
    for f in files:
        lines = len(f.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            out.append(f"{f.relative_to(base).as_posix()}: {lines} lines")
    return out


def crowded_folders(files: list[Path], base: Path = ROOT) -> list[str]:
    """``folder: N modules`` for each folder holding more than :data:`MAX_MODULES` (``__init__.py`` not counted)."""
    counts = Counter(f.parent.relative_to(base).as_posix() for f in files if f.name != "__init__.py")
    return [f"{folder}: {n} modules" for folder, n in sorted(counts.items()) if n > MAX_MODULES]


def imports_of_tests(files: list[Path], base: Path = ROOT) -> list[str]:
    """``path imports module`` for each import of a test module (``tests....test_*``)."""
    return [f"{f.relative_to(base).as_posix()} imports {m}" for f in files
            for m in TEST_IMPORT.findall(f.read_text(encoding="utf-8"))]


def test_no_module_is_over_600_lines():
    assert long_modules(python_files()) == []


def test_no_folder_holds_more_than_12_modules():
    assert crowded_folders(python_files()) == []


def test_no_test_imports_another_test_module():
    assert imports_of_tests(python_files()) == []


def test_the_checks_see_a_long_module_and_a_crowded_folder(tmp_path):
    room = tmp_path / "room"
    room.mkdir()
    made = [room / "__init__.py"] + [room / f"m{i}.py" for i in range(MAX_MODULES)]
    for f in made:
        f.write_text("x = 1\n")
    assert crowded_folders(made, tmp_path) == []  # 12 modules and an __init__.py: within the limit
    (room / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    made.append(room / "long.py")
    assert crowded_folders(made, tmp_path) == ["room: 13 modules"]
    assert long_modules(made, tmp_path) == [f"room/long.py: {MAX_LINES + 1} lines"]
    assert long_modules(made[:-1], tmp_path) == []
    (room / "m0.py").write_text("from tests.dashboard.wagons.test_table import GRID\nimport tests.support.paths\n")
    assert imports_of_tests(made, tmp_path) == ["room/m0.py imports tests.dashboard.wagons.test_table"]
