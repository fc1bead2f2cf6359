"""Imports in ``solver/`` and ``dashboard/`` run one way: no module imports, directly or through others, a module
that imports it back. Module-level and function-level imports count alike (a lazy import is still a
dependency: it only moves the failure to run time).

Edges: ``import a.b`` and ``from a.b import c`` depend on ``a.b``, or on ``a.b.c`` when that is a module
of ``solver``; relative imports are resolved against the importing module's package. A package's
parents are not counted (importing ``solver.wagons.scoring.totals`` runs ``solver/wagons/scoring/__init__``
first, but that runs before ``totals``, not because of it).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.paths import ROOT

PACKAGES = ("solver", "dashboard")


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _package(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rsplit(".", 1)[0]


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports, anywhere in its body."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = _package(name, path).split(".")
                pkg = pkg[:len(pkg) - node.level + 1]
                base = ".".join(pkg + ([base] if base else []))
            for a in node.names:
                out.add(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base)
    return {m for m in out if m in modules and m != name}


def graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component with more than one module (Tarjan), as a sorted list."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_in_solver_or_dashboard():
    assert cycles(graph()) == []


def test_the_walk_sees_imports_at_every_depth():
    """The walk reads function-level and relative imports (a cycle through either would be missed)."""
    g = graph()
    assert "solver.wagons.optimizer.layout" in g["solver.wagons.cli.optimizer"]  # imported inside a handler
    assert "solver.wagons.scoring.totals" in g["solver.wagons.scoring"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def layer_violations(g: dict[str, set[str]], order: list[str]) -> list[str]:
    """``m imports d`` for each module that imports one of a higher layer (``order``: lowest first, each a module or
    a package, which stands for every module in it); a layer that names no module is itself a violation."""
    def layer(module: str) -> int | None:
        for k, name in enumerate(order):
            if module == name or module.startswith(name + "."):
                return k
        return None

    out = [f"layer {name} names no module" for name in order if not any(layer(m) is not None and
                                                                       (m == name or m.startswith(name + "."))
                                                                       for m in g)]
    for m, deps in sorted(g.items()):
        for d in sorted(deps):
            lm, ld = layer(m), layer(d)
            if lm is not None and ld is not None and ld > lm:
                out.append(f"{m} imports {d}")
    return out


OPTIMIZER_LAYERS = [f"solver.wagons.optimizer.{m}" for m in (
    "quads", "problem", "walk", "cpsat", "z3solver", "oracle", "layout", "bounds", "lines", "dealsearch", "bestplay",
    "canwin")]
"""The optimizer's layers, lowest first: nothing below imports above."""
DASHBOARD_LAYERS = ["dashboard.shared.words", "dashboard.shared.work.urldoc", "dashboard.room", "dashboard.nav",
                    "dashboard.app"]
"""The dashboard's spine, lowest first: the rooms' records below the navigation, the navigation below the app."""


def test_optimizer_layers_import_one_way():
    assert layer_violations(graph(), OPTIMIZER_LAYERS) == []


def test_dashboard_layers_import_one_way():
    assert layer_violations(graph(), DASHBOARD_LAYERS) == []


def test_a_layer_that_names_a_missing_module_fails():
    g = {"a.low": set(), "a.high": {"a.low"}}
    assert layer_violations(g, ["a.low", "a.high"]) == []
    assert layer_violations(g, ["a.low", "a.gone", "a.high"]) == ["layer a.gone names no module"]
    assert layer_violations(g, ["a.high", "a.low"]) == ["a.high imports a.low"]
