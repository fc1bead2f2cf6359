#!/usr/bin/env python3
"""Run every benchmark of the project and print one table (``python3 run.py bench``).

    python bench/run_all.py [--quick] [--only GAME] [--out bench/results.json]

Imports every ``bench_*.py`` module present in ``bench/`` and its game folders (``bench/wagons/``) and calls its ``run(quick) -> list[dict]``; each
row is ``{"game", "name", "value", "unit", "baseline", "ratio", "notes"}`` (docs/conventions.md), and a row
comparing CP-SAT methods also ``det``, ``cpu``, ``wall`` (``[value, baseline]``: CP-SAT's deterministic seconds,
its CPU seconds, the wall seconds; its ``ratio`` is read from the deterministic time, ``bench/effort.py``).
A module that fails to import or to run does not stop the others: its error becomes a row with
``value`` null and the error in ``notes``. The table is printed and written as JSON (atomically).
``--only GAME`` runs the modules named ``bench_GAME*.py`` (``wagons`` runs ``bench_wagons.py`` and
``bench_wagons_optimize.py``; ``executor`` the scale-out figures). Timings belong here, never in
the test suite.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import platform
import sys
import tempfile
import time
import traceback
from datetime import UTC, datetime
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
COLUMNS = ("game", "name", "value", "unit", "baseline", "ratio", "notes")


def discover(only: str | None = None, folder: Path = BENCH) -> list[Path]:
    """``bench_*.py`` files of ``bench/`` and its game folders (``bench/wagons/``), sorted by name; with ``only``, those
    named ``bench_<only>`` or ``bench_<only>_*``."""
    files = sorted(Path(folder).rglob("bench_*.py"), key=lambda f: f.name)
    if only:
        files = [f for f in files if f.stem == f"bench_{only}" or f.stem.startswith(f"bench_{only}_")]
    return files


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"ruleslinger_bench.{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path.name}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # in sys.modules while it runs: a dataclass of the module looks itself up there
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(spec.name, None)
        raise
    return module


def _error_row(path: Path, stage: str, exc: BaseException) -> dict:
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    message = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
    return {"game": path.stem.removeprefix("bench_"), "name": f"({stage} failed)", "value": None, "unit": "",
            "baseline": None, "ratio": None, "notes": f"{message}{where}", "error": True}


def _number(x):
    if isinstance(x, bool) or not isinstance(x, (int, float)) or (isinstance(x, float) and not math.isfinite(x)):
        return None
    return x


def normalise(row, path: Path) -> dict:
    """A row with exactly the table's keys (plus extras); ratio = value / baseline when missing."""
    if not isinstance(row, dict):
        return _error_row(path, "row", TypeError(f"run() returned a {type(row).__name__} row, expected a dict"))
    out = {key: row.get(key) for key in COLUMNS}
    out["game"] = out["game"] or path.stem.removeprefix("bench_")
    out["name"] = str(out["name"] or "?")
    out["unit"] = str(out["unit"] or "")
    out["notes"] = str(out["notes"] or "")
    for key in ("value", "baseline", "ratio"):
        if isinstance(out[key], float) and not math.isfinite(out[key]):
            out["notes"] = f"{out['notes']} ({key} was {out[key]})".strip()
            out[key] = None
    value, baseline = _number(out["value"]), _number(out["baseline"])
    if out["ratio"] is None and value is not None and baseline:
        out["ratio"] = value / baseline
    out.update({k: v for k, v in row.items() if k not in COLUMNS})
    return out


def run_module(path: Path, quick: bool) -> list[dict]:
    """Rows of one bench module; any failure becomes one error row."""
    try:
        module = _load(path)
    except BaseException as exc:  # noqa: BLE001 - a broken module must not stop the others
        if isinstance(exc, KeyboardInterrupt):
            raise
        return [_error_row(path, "import", exc)]
    run = getattr(module, "run", None)
    if not callable(run):
        return [_error_row(path, "import", AttributeError(f"{path.name} has no run(quick) function"))]
    start = time.perf_counter()
    try:
        rows = run(quick)
    except BaseException as exc:  # noqa: BLE001
        if isinstance(exc, KeyboardInterrupt):
            raise
        return [_error_row(path, "run", exc)]
    if not isinstance(rows, (list, tuple)):
        return [_error_row(path, "run", TypeError(f"run() returned {type(rows).__name__}, expected a list"))]
    out = [normalise(row, path) for row in rows]
    for row in out:
        row.setdefault("module", path.name)
    print(f"[bench] {path.name}: {len(out)} rows in {time.perf_counter() - start:.1f}s", file=sys.stderr, flush=True)
    return out


def _fmt(x) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        if x == 0:
            return "0"
        if abs(x) >= 1000:
            return f"{x:,.0f}"
        return f"{x:.3g}" if abs(x) < 1 else f"{x:.2f}"
    if isinstance(x, int) and not isinstance(x, bool):
        return f"{x:,}"
    return str(x)


EFFORT = ("det", "cpu", "wall")
"""Optional columns of a CP-SAT row (``bench/effort.py``): its deterministic seconds, CPU seconds and wall seconds,
each ``[value, baseline]``; such a row's ``ratio`` is read from the deterministic time."""


def _pair(x) -> str:
    """An effort cell: ``value / baseline``, or the value alone."""
    if not isinstance(x, (list, tuple)) or not x:
        return _fmt(x)
    value, base = (list(x) + [None])[:2]
    return _fmt(value) if base is None else f"{_fmt(value)} / {_fmt(base)}"


def table(rows: list[dict]) -> str:
    """The rows as one aligned text table (notes last, unaligned); with CP-SAT rows, their deterministic time, CPU
    seconds and wall seconds (value / baseline) beside the ratio."""
    effort = [c for c in EFFORT if any(c in r for r in rows)]
    heads = list(COLUMNS[:-1]) + effort
    cells = [[_fmt(r.get(c)) for c in COLUMNS[:-1]] + [_pair(r.get(c)) for c in effort] + [_fmt(r.get("notes"))]
             for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(heads)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(heads, widths)) + "  notes"]
    lines.append("  ".join("-" * w for w in widths) + "  -----")
    for row in cells:
        lines.append("  ".join(c.ljust(w) for c, w in zip(row[:-1], widths)) + "  " + row[-1])
    return "\n".join(lines)


def write_json(doc: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".results-", suffix=".json", dir=path.parent)
    with os.fdopen(fd, "w") as fh:
        json.dump(doc, fh, indent=2)
        fh.write("\n")
    os.replace(tmp, path)


def main(argv: list[str] | None = None, folder: Path = BENCH) -> int:
    parser = argparse.ArgumentParser(description="Run every bench/bench_*.py module and print one table.")
    parser.add_argument("--quick", action="store_true", help="small sizes (about a minute in all)")
    parser.add_argument("--only", metavar="GAME", help="only bench_GAME*.py (wagons, cactus, outlaws, executor)")
    parser.add_argument("--out", default=str(BENCH / "results.json"), help="JSON output (default bench/results.json)")
    args = parser.parse_args(argv)
    files = discover(args.only, folder)
    if not files:
        print(f"bench: no bench/bench_{args.only or '*'}*.py module found", file=sys.stderr)
        return 2
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    started = time.time()
    rows: list[dict] = []
    for path in files:
        rows.extend(run_module(path, args.quick))
    print(table(rows))
    doc = {
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": args.quick,
        "seconds": round(time.time() - started, 1),
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count()},
        "modules": [p.name for p in files],
        "rows": rows,
    }
    write_json(doc, Path(args.out))
    print(f"[bench] wrote {args.out} ({len(rows)} rows)", file=sys.stderr)
    return 1 if any(r.get("error") for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
