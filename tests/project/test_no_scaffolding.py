"""No scaffolding: the command line and the dashboard import the engines directly, so renaming or
breaking an engine is an error at import, never a command or a page section that quietly vanishes.

Scanned (``solver/``, ``dashboard/``, ``notebooks/build.py``): no engine looked up by name at run
time (``importlib``, ``__import__``), no ``except ImportError`` guards, no signature inspection, no lazy
package exports (a module-level ``__getattr__``). The one place that asks whether a module exists is
:mod:`solver.deps`, the start-up check that turns a missing dependency into one clear line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from solver import cli, deps
from tests.support.paths import ROOT

ALLOWED = {"solver/deps.py"}  # the start-up dependency check (importlib.util.find_spec)
OPTIMIZER: set[str] = set()  # no module is exempt: the numba guard left with the optimizer package
SOURCES = sorted(p for d in ("solver", "dashboard") for p in (ROOT / d).rglob("*.py")) + [ROOT / "notebooks" / "build.py"]


def _problems(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "importlib" for a in node.names):
            found.append(f"line {node.lineno}: import importlib")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("importlib", "inspect"):
            found.append(f"line {node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Import) and any(a.name == "inspect" for a in node.names):
            found.append(f"line {node.lineno}: import inspect")
        elif isinstance(node, ast.Name) and node.id == "__import__":
            found.append(f"line {node.lineno}: __import__")
        elif isinstance(node, ast.ExceptHandler) and node.type is not None:
            names = [n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)]
            if {"ImportError", "ModuleNotFoundError"} & set(names):
                found.append(f"line {node.lineno}: except ImportError")
        elif isinstance(node, ast.FunctionDef) and node.name == "__getattr__" and node.col_offset == 0:
            found.append(f"line {node.lineno}: module-level __getattr__ (lazy exports)")
    return found


def _code_of(path: Path) -> str:
    """The file's Python; for the notebook builder, also the code of the cells it writes."""
    text = path.read_text()
    if path.name != "build.py":
        return text
    cells = [n.value for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Constant) and isinstance(n.value, str)
             and ("import " in n.value or "=" in n.value)]
    return text + "\n" + "\n".join(c for c in cells if _parses(c))


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_engines_are_imported_directly(path):
    rel = str(path.relative_to(ROOT))
    if rel in ALLOWED or rel in OPTIMIZER:
        return
    assert _problems(ast.parse(_code_of(path))) == [], rel


def test_the_scan_finds_each_kind_of_scaffolding():
    code = ("import importlib\nfrom inspect import signature\n"
            "try:\n    import x\nexcept ImportError:\n    x = None\n"
            "def __getattr__(name):\n    return __import__(name)\n")
    assert len(_problems(ast.parse(code))) == 5


def test_a_missing_dependency_is_one_line_at_start_up(monkeypatch, capsys):
    real = deps.find_spec
    monkeypatch.setattr(deps, "find_spec", lambda name: None if name == "ortools" else real(name))
    assert cli.main(["wagons", "score", "--help"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "missing dependency ortools" in err, err


def test_every_command_is_listed():
    """The commands the engines offer are all added (none hidden by a failed import)."""
    parser = cli.build_parser()
    games = next(a for a in parser._actions if a.dest == "game").choices
    commands = {g: set(next(a for a in p._actions if getattr(a, "choices", None)).choices) for g, p in games.items()
                if g in ("wagons", "cactus", "outlaws")}
    assert {"best-layout", "best-play", "score", "play", "opponent-draft", "simulate"} <= commands["wagons"]
    assert {"moves", "status", "apply", "playouts", "verify", "dead-positions"} <= commands["outlaws"]
    assert {"marshal", "verify", "ranger", "duel"} <= commands["cactus"]


def test_no_issue_numbers_in_the_product():
    """History lives in docs/history/, not in the code: no module of solver/ or dashboard/ cites an issue number
    (the issues are not in the repository)."""
    import re

    pattern = re.compile(r"issue\s+#?\d", re.IGNORECASE)
    found = [f"{p.relative_to(ROOT)}:{n}" for p in SOURCES[:-1] for n, line in
             enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert found == []
