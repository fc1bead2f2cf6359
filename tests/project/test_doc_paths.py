"""The reference docs name only what the repository has: every path and module they mention exists.

Scanned: ``README.md``, ``docs/`` (Markdown and the register's TOML), and the notes and data files in
``scenarios/`` (Markdown and TOML), but not ``docs/history/``, whose dated notes describe the repository as it
was. Three kinds of mention are checked against the tracked files (what a fresh clone has):

- a path from the root (``solver/wagons/cli/shared.py``, ``tests/browser/``): the file or folder is tracked, a
  pattern (``bench/bench_*.py``, ``solver/<game>/readings.py``) matches one, a generated output is one the
  ``.gitignore`` names (``bench/results.json``), and ``module.NAME`` names a module's attribute;
- a shorter path or a file's name in backquotes (``optimizer/cpsat/goals.py``, ``verify/scores.py``,
  ``street.py``, said inside a package's own section): some tracked path ends with it;
- a dotted module name (``solver.wagons.optimizer.layout.best_layout``): each part up to a module is a package
  or that module, or a name the package's ``__init__.py`` mentions (a module's own names are not checked).
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.paths import ROOT
from tests.support.repo_files import tracked_paths

NOT_GENERATED = ("*", "!")
TEMPLATE = re.compile(r"<[^<>/]*>|\[[^\]/]*\]")  # <game>, [_<tab>]: any text there
REL = re.compile(r"`((?:[\w.-]+/)*[\w-]+\.(?:py|toml|json|md|parquet|csv|ipynb))`")
DOTTED = re.compile(r"(?<![\w./-])((?:solver|dashboard|tests|bench)(?:\.\w+)+)")
FILE_SUFFIXES = {"md", "py", "toml", "json", "txt", "parquet", "csv", "png", "ipynb"}


def doc_files() -> list[Path]:
    docs = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "docs").rglob("*.toml"),
            *(ROOT / "scenarios").rglob("*.md"), *(ROOT / "scenarios").rglob("*.toml")]
    return sorted(p for p in docs if "history" not in p.relative_to(ROOT).parts)


def generated_outputs() -> list[str]:
    """The plain entries of ``.gitignore`` with a folder in them: outputs a run writes (``bench/results.json``)."""
    lines = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    return [ln.strip().rstrip("/") for ln in lines if "/" in ln.strip().rstrip("/") and not ln.startswith(NOT_GENERATED)]


def _top_folders(paths: set[str]) -> list[str]:
    return sorted({p.split("/")[0] for p in paths if "/" in p and not p.startswith(".")})


def _rooted_exists(path: str, paths: set[str], outputs: list[str]) -> bool:
    path = path.split("{")[0].rstrip("/")
    if path in paths or any(path == o or path.startswith(o + "/") for o in outputs):
        return True
    pattern = TEMPLATE.sub("*", path)
    if pattern != path or "*" in path:  # a star stays inside one folder
        within = re.compile("[^/]*".join(re.escape(piece) for piece in pattern.split("*")))
        return any(within.fullmatch(p) for p in paths)
    module, _, attribute = path.rpartition(".")
    return bool(attribute) and attribute.isidentifier() and module + ".py" in paths


def _dotted_exists(name: str, paths: set[str]) -> bool:
    parts = name.split(".")
    if parts[-1] in FILE_SUFFIXES:
        return True  # a file's name (``dashboard.md``), not a module
    here = parts[0]
    for part in parts[1:]:
        if f"{here}/{part}" in paths and f"{here}/{part}/__init__.py" in paths:
            here = f"{here}/{part}"
            continue
        if f"{here}/{part}.py" in paths:
            return True  # what follows is an attribute of that module
        init = ROOT / here / "__init__.py"
        return init.exists() and re.search(rf"\b{re.escape(part)}\b", init.read_text(encoding="utf-8")) is not None
    return True


def missing_paths(text: str, paths: set[str], outputs: list[str]) -> list[tuple[int, str]]:
    """(line, mention) for every path or module named in ``text`` that ``paths`` (tracked, from the root) lacks."""
    rooted = re.compile(rf"(?<![\w./-])((?:{'|'.join(_top_folders(paths))})/[\w.*<>\[\]{{/-]*)")
    found = []
    for m in rooted.finditer(text):
        if not _rooted_exists(m.group(1).rstrip(".,;:"), paths, outputs):
            found.append((m.start(), m.group(1).rstrip(".,;:")))
    for m in REL.finditer(text):
        rel = m.group(1).rstrip("/")
        if rel.split("/")[0] not in _top_folders(paths) and not any(p == rel or p.endswith("/" + rel) for p in paths):
            found.append((m.start(), rel))
    for m in DOTTED.finditer(text):
        if not _dotted_exists(m.group(1), paths):
            found.append((m.start(), m.group(1)))
    return sorted((text.count("\n", 0, at) + 1, what) for at, what in found)


def test_the_docs_name_only_paths_and_modules_the_repository_has():
    paths, outputs = tracked_paths(), generated_outputs()
    problems = []
    for doc in doc_files():
        for line, what in missing_paths(doc.read_text(encoding="utf-8"), paths, outputs):
            problems.append(f"{doc.relative_to(ROOT).as_posix()}:{line}: names {what!r}, which the repository lacks")
    assert not problems, "\n".join(problems)


def test_the_check_catches_each_kind_of_missing_path():
    paths = {"solver", "solver/wagons", "solver/wagons/__init__.py", "solver/wagons/optimizer",
             "solver/wagons/optimizer/__init__.py", "solver/wagons/optimizer/layout.py", "bench",
             "bench/bench_wagons.py", "tests", "tests/support", "tests/support/dashboard/browser.py"}
    outputs = ["bench/results.json", "tests/screenshots"]
    cases = {
        "`solver/wagons/optimizer/layout.py`": False, "the folder solver/wagons/optimizer/.": False,
        "solver/wagons/optimizer/cli.py": True, "`optimizer/cli.py`": True, "`optimizer/layout.py`": False,
        "bench/bench_*.py": False, "bench/bench_cactus*.py": True, "solver/wagons/opt*.py": True, "solver/<game>/optimizer/": False,
        "bench/results.json": False, "tests/screenshots/<page>[_<tab>]_<width>.png": False,
        "tests/support/dashboard/browser.CUT_OFF": False, "tests/support/browsers.CUT_OFF": True,
        "solver.wagons.optimizer.layout.best_layout": False, "solver.wagons.optimizer.lay.best_layout": True,
        "see dashboard.md": False, "tests/test_store.py": True, "`.venv/`, 1/3": False,
        "`layout.py`": False, "`verify_model.py`": True,
    }
    for text, flagged in cases.items():
        assert bool(missing_paths(text, paths, outputs)) == flagged, (text, missing_paths(text, paths, outputs))
    assert missing_paths("one\n`solver/nope.py`", paths, outputs) == [(2, "solver/nope.py")]


NOT_MODULES = ("solver", "dashboard", "duel", "opponent")
"""Words before a dot that are not a short module name there: the packages (their dotted names are checked above) and
the first part of question measures (``duel.result``, ``opponent.common``: docs/ask.md), which share a module's name."""
SHORT = re.compile(r"`(\w+)\.([A-Za-z_]\w*)(?=[`(\[])")
"""``module.NAME`` in backquotes (``search.win_possible``, ``verify.EVENT_READINGS``), said inside a section."""


def _project_modules(paths: set[str]) -> dict[str, list[str]]:
    """{a module's short name: the tracked files that are it} over solver/ and dashboard/ (a package: its
    ``__init__.py`` and its modules)."""
    out: dict[str, list[str]] = {}
    for p in paths:
        if not p.endswith(".py") or not p.startswith(("solver/", "dashboard/")):
            continue
        parts = p[:-3].split("/")
        if parts[-1] == "__init__":
            package = "/".join(parts[:-1])
            out.setdefault(parts[-2], []).extend(q for q in paths if q.startswith(package + "/") and q.endswith(".py"))
        else:
            out.setdefault(parts[-1], []).append(p)
    return out


def _defines(files: list[str], name: str) -> bool:
    pattern = re.compile(rf"^\s*(?:def|class)\s+{re.escape(name)}\b|^\s*{re.escape(name)}\s*[:=]|"
                         rf"\bimport\b[^\n]*\b{re.escape(name)}\b|\bself\.{re.escape(name)}\s*[:=]", re.MULTILINE)
    return any(pattern.search((ROOT / f).read_text(encoding="utf-8")) for f in files)


def missing_names(text: str, paths: set[str]) -> list[tuple[int, str]]:
    """(line, mention) for each backquoted ``module.NAME`` whose module is the project's but defines no NAME."""
    modules = _project_modules(paths)
    found = []
    for m in SHORT.finditer(text):
        module, name = m.group(1), m.group(2)
        if module in modules and module not in NOT_MODULES and name not in FILE_SUFFIXES \
                and not _defines(modules[module], name):
            found.append((text.count("\n", 0, m.start()) + 1, f"{module}.{name}"))
    return found


def test_the_docs_name_only_symbols_the_modules_define():
    paths = tracked_paths()
    problems = [f"{doc.relative_to(ROOT).as_posix()}:{line}: names {what!r}, which its module does not define"
                for doc in doc_files() for line, what in missing_names(doc.read_text(encoding="utf-8"), paths)]
    assert not problems, "\n".join(problems)


def test_a_stale_symbol_is_found():
    paths = tracked_paths()
    assert missing_names("see `registry.game(...)` and `registry.no_such_function()`", paths) == \
        [(1, "registry.no_such_function")]
