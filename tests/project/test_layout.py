"""The house's rooms stay small (issue 31): no Python module over 600 lines and no folder holding more than 12
modules (``__init__.py`` not counted), anywhere in the repository: product, tests, benches, notebooks.

Outside the games' own packages (``solver/<game>/``, ``dashboard/<game>/``) only the registry, the command line's root
and the dashboard's navigation name every game: the other cross-game modules read :mod:`solver.registry` or
:mod:`dashboard.nav`. A name counts in code (an identifier or its parts between underscores, a string), not in
docstrings or comments. The dashboard's shared room (``dashboard/shared/``) names no game at all: a game's drawing
or words live in its own room.

Nor does a test import another test module: what tests share lives in ``tests/support/`` or a conftest.

A folder that grows past 12 is split into rooms (as ``solver/outlaws/search/``, ``tests/support/dashboard/``); a
module past 600 lines is split by concern (as ``tests/fuzz/test_cli.py`` and ``test_cli_sweep.py``). Counted over
the files git tracks, as a fresh clone has them.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections import Counter
from pathlib import Path

from solver.registry import ids
from tests.support.paths import ROOT
from tests.support.repo_files import tracked_files

MAX_LINES = 600
MAX_MODULES = 12
NAMING_EVERY_GAME = {"solver/registry.py", "solver/cli.py", "dashboard/nav.py"}
"""The modules outside the games' packages that may name every game (issue 31)."""
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


def games_named(source: str) -> set[str]:
    """The game ids a module's code names: in identifiers (``wagons_checks``) and strings, not docstrings or comments."""
    words = [tok.string.lower() for tok in tokenize.generate_tokens(io.StringIO(source).readline)
             if tok.type == tokenize.NAME
             or (tok.type == tokenize.STRING and not tok.string.lstrip("rbfuRBFU").startswith(('"""', "'''")))]
    text = " ".join(words)
    return {g for g in ids() if re.search(rf"(?<![a-z]){g}(?![a-z])", text)}


def naming_every_game(files: list[Path], base: Path = ROOT) -> list[str]:
    """The cross-game modules of ``solver/`` and ``dashboard/`` (not a game's own package) naming every game."""
    out = []
    for f in files:
        parts = f.relative_to(base).parts
        if parts[0] not in ("solver", "dashboard") or (len(parts) > 2 and parts[1] in ids()):
            continue
        if games_named(f.read_text(encoding="utf-8")) == set(ids()):
            out.append(f.relative_to(base).as_posix())
    return out


def shared_naming_a_game(files: list[Path], base: Path = ROOT) -> list[str]:
    """``path: games`` for each module of the dashboard's shared room (``dashboard/shared/``) naming a game in code."""
    out = []
    for f in files:
        parts = f.relative_to(base).parts
        if parts[:2] == ("dashboard", "shared") and (named := games_named(f.read_text(encoding="utf-8"))):
            out.append(f"{f.relative_to(base).as_posix()}: {', '.join(sorted(named))}")
    return out


def imports_of_tests(files: list[Path], base: Path = ROOT) -> list[str]:
    """``path imports module`` for each import of a test module (``tests....test_*``)."""
    return [f"{f.relative_to(base).as_posix()} imports {m}" for f in files
            for m in TEST_IMPORT.findall(f.read_text(encoding="utf-8"))]


def test_no_module_is_over_600_lines():
    assert long_modules(python_files()) == []


def test_no_folder_holds_more_than_12_modules():
    assert crowded_folders(python_files()) == []


def test_only_the_registry_the_command_line_and_the_navigation_name_every_game():
    assert sorted(naming_every_game(python_files())) == sorted(NAMING_EVERY_GAME)


def test_the_dashboards_shared_room_names_no_game():
    assert shared_naming_a_game(python_files()) == []


def test_the_shared_room_check_sees_a_game_named_in_code(tmp_path):
    (tmp_path / "dashboard" / "shared").mkdir(parents=True)
    (tmp_path / "dashboard" / "wagons").mkdir()
    shared, own = tmp_path / "dashboard" / "shared" / "draw.py", tmp_path / "dashboard" / "wagons" / "draw.py"
    shared.write_text('"""Lone Cowboy cards (the wagons room draws them)."""\nx = 1\n')
    own.write_text('def wagons_card_html():\n    pass\n')
    assert shared_naming_a_game([shared, own], tmp_path) == []  # a docstring; a game's own room
    shared.write_text('def wagons_card_html():\n    pass\n')
    assert shared_naming_a_game([shared, own], tmp_path) == ["dashboard/shared/draw.py: wagons"]


def test_the_game_check_reads_code_not_docstrings(tmp_path):
    (tmp_path / "dashboard").mkdir()
    (tmp_path / "dashboard" / "wagons").mkdir()
    shared, own = tmp_path / "dashboard" / "page.py", tmp_path / "dashboard" / "wagons" / "page.py"
    shared.write_text('"""Lone Cowboy, wagons, cactus and outlaws in words."""\n# wagons cactus outlaws\nx = 1\n')
    own.write_text('RUNS = {"wagons": 1, "cactus": 2}\nfrom solver import outlaws_x\n')
    assert naming_every_game([shared, own], tmp_path) == []  # a docstring and a comment; a game's own room
    shared.write_text('RUNS = {"wagons": 1, "cactus": 2}\n\n\ndef _outlaws_run():\n    pass\n')
    assert naming_every_game([shared, own], tmp_path) == ["dashboard/page.py"]


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
