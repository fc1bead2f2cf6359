"""Named simulation batches run through :mod:`solver.execution.executor` (``ruleslinger batch KIND``).

Each game lists its own kinds in its room (``BATCH_KINDS``: :mod:`solver.wagons.batches`,
:mod:`solver.outlaws.search.playout`, :mod:`solver.cactus.odds`), gathered by :mod:`solver.registry`; a kind's planner
turns a :class:`~solver.execution.plans.BatchRequest` into a :class:`~solver.execution.plans.Plan` (a picklable
per-item function and its items). Rows are reproducible item by item: item *i* uses seed ``S + i`` and the results
are identical whichever executor runs them. The readings are given as ``--rule NAME=VALUE`` (``--option`` is its
older spelling) and checked by the game's readings (rule:X-bad-input).
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any

from solver import registry
from solver.errors import BadInput
from solver.execution import executor as ex
from solver.execution.plans import BatchKind, BatchRequest, Plan, Setting
from solver.execution.progress import OnProgress
from solver.io.numbers import parse_int_text, short_repr
from solver.io.output import is_sink, output_target

MAX_ROWS_IN_JSON = 10_000
"""``--rows`` prints every row only up to this many (use ``--out`` for more)."""

KINDS: dict[str, BatchKind] = {k.name: k for g in registry.GAMES for k in g.batches}
"""Every game's batch kinds by name."""
SETTINGS: dict[str, Setting] = {s.name: s for g in registry.GAMES for s in g.batch_settings}
"""Every game's batch set-up flags by name (``--scenario``, ``--players``...)."""


def plan(request: BatchRequest) -> Plan:
    """The executor plan of a request (its kind's planner; BadInput for an unknown kind or a bad parameter)."""
    if request.kind not in KINDS:
        raise BadInput(f"batch kind: {request.kind!r:.40} is not one of {', '.join(KINDS)}")
    return KINDS[request.kind].planner(request)


def add_counts(total: dict, part: dict) -> dict:
    """Add a chunk's counts into ``total`` (nested dicts of numbers are added key by key)."""
    for key, value in part.items():
        if isinstance(value, dict):
            add_counts(total.setdefault(key, {}), value)
        else:
            total[key] = total.get(key, 0) + value
    return total


def summarise(frame) -> dict:
    """Per column of a rows frame: mean/min/max of numbers, share of true, top values of text."""
    import polars as pl

    out: dict[str, Any] = {}
    for name in frame.columns:
        if name == "seed":
            continue
        col = frame[name]
        if col.dtype == pl.Boolean:
            out[name] = {"true": int(col.sum() or 0), "share": _round(col.mean())}
        elif col.dtype.is_numeric():
            out[name] = {"mean": _round(col.mean()), "min": _plain(col.min()), "max": _plain(col.max())}
        elif col.dtype in (pl.Utf8, pl.Categorical):
            distinct = col.n_unique()
            if distinct > 20:  # card lists and the like: a count is more useful than a top ten
                out[name] = {"distinct": distinct}
            else:
                counts = col.value_counts(sort=True)
                out[name] = {"null" if k is None else str(k): int(v) for k, v in counts.iter_rows()}
    return out


def _round(x):
    return None if x is None else round(float(x), 6)


def _plain(x):
    return x.item() if hasattr(x, "item") else x


def run_batch(
    request: BatchRequest,
    *,
    executor: str = "local",
    workers: int = ex.DEFAULT_WORKERS,
    out: str | Path | None = None,
    with_rows: bool = False,
    progress: OnProgress | None = None,
) -> dict:
    """Run a batch and return its JSON result (``ruleslinger batch``; the dashboard calls this too).

    Row kinds: a column summary, plus the Parquet path with ``out`` or the rows with
    ``with_rows``; counts kinds: the added-up counts (Cactus: beside the exact odds). ``progress`` gets the items
    done as they come back (games for the counts kinds, whose items are chunks of games).
    """
    spec = ex.parse_executor(executor, workers)
    if with_rows and request.n > MAX_ROWS_IN_JSON:
        raise BadInput(f"--rows: at most {MAX_ROWS_IN_JSON} rows in JSON; use --out FILE.parquet for {request.n}")
    if out is not None:
        target = output_target(out)  # a folder, a device, a missing or unwritable folder: refused before anything runs
        if Path(out).suffix != ".parquet" and not is_sink(target):
            raise BadInput(f"--out: {short_repr(str(out))} must end in .parquet")
    p = plan(request)
    started = time.perf_counter()
    result: dict[str, Any] = {"kind": request.kind, "n": request.n, "seed": request.seed,
                              "executor": spec.describe(), "settings": p.settings}
    stream = ex.run_items(p.func, p.items, executor=spec, label=request.kind,
                          progress=_scaled(progress, p) if progress else None)
    if p.shape == "counts":
        if out is not None:
            raise BadInput(f"batch {request.kind}: --out applies to row kinds only")
        counts: dict = {}
        for part in stream:
            add_counts(counts, part)
        result |= p.report(counts) if p.report else {"counts": counts}
    elif out is not None:
        written = ex.write_parquet(stream, out, read_back=True)
        frame = written["frame"]
        result |= {"rows": written["rows"], "out": written["path"], "columns": written["columns"],
                   "summary": summarise(frame)}
    else:
        frame = ex.rows_to_frame(stream)
        result |= {"rows": frame.height, "columns": frame.columns, "summary": summarise(frame)}
        if with_rows:
            result["data"] = frame.to_dicts()
    if p.shape == "rows" and p.report:
        result |= p.report(frame)
    result["elapsed"] = result["seconds"] = round(time.perf_counter() - started, 3)  # "seconds": the old key, one version
    return result


def _scaled(callback: OnProgress, p: Plan) -> OnProgress:
    """Progress in games, not chunks, for counts kinds (the Cactus items are chunks of games)."""
    if p.shape == "rows":
        return callback
    sizes = [item[0] for item in p.items]
    prefix = [0]
    for s in sizes:
        prefix.append(prefix[-1] + s)
    return lambda report: callback(dataclasses.replace(report, done=prefix[report.done or 0], total=p.total,
                                                       unit="games"))


# --- the command line --------------------------------------------------------------------------


def add_commands(games) -> None:
    """Add ``ruleslinger batch KIND`` to the root command (called by solver/cli.py)."""
    from solver import clikit

    parser = clikit.add_command(games, "batch", "run a large simulation batch (local processes or a Dask cluster)",
                                _handle, _render,
                                description="Run a named simulation batch through the executor: "
                                + "; ".join(f"{k}: {v.help}" for k, v in KINDS.items()))
    parser.add_argument("kind", metavar="KIND", help=f"one of: {', '.join(KINDS)}")
    parser.add_argument("--n", type=str, default="1000", help="number of games / playouts (default 1000)")
    parser.add_argument("--seed", type=str, default="0", help="first seed; item i uses seed+i (default 0)")
    parser.add_argument("--executor", default="local",
                        help="local (default: worker processes), serial, or a Dask scheduler address tcp://host:port")
    parser.add_argument("--workers", type=str, default=str(ex.DEFAULT_WORKERS), help="local worker processes (default 2)")
    parser.add_argument("--out", help="write every row to this .parquet file (row kinds)")
    parser.add_argument("--rows", action="store_true", help=f"include the rows in the JSON (n <= {MAX_ROWS_IN_JSON})")
    for setting in SETTINGS.values():
        parser.add_argument(f"--{setting.name.replace('_', '-')}", dest=f"setup_{setting.name}", help=setting.help)
    parser.add_argument("--time-limit", type=str, metavar="S",
                        help="seconds per item, for the solver-backed kinds (each kind's help gives its default)")
    parser.add_argument("--rule", "--option", dest="rule", action="append", default=[], metavar="NAME=VALUE",
                        help="a reading of the game's rules (repeatable), e.g. --rule tie_break=guns")
    parser.add_argument("--no-progress", "--quiet", dest="no_progress", action="store_true",
                        help="no progress lines on standard error (they are shown with --json too)")


def _pair(text: str) -> tuple[str, str]:
    """``NAME=VALUE`` of ``--rule`` (the game's readings check the name and the value)."""
    name, sep, value = str(text).partition("=")
    if not sep or not name.strip():
        raise BadInput(f"--rule: expected NAME=VALUE, got {short_repr(text)}")
    return name.strip(), value.strip()


def _int_arg(text: str | None, what: str) -> int | None:
    return None if text is None else parse_int_text(text, f"--{what}")


def _handle(args) -> dict:
    from solver.clikit import ProgressLines

    if args.kind not in KINDS:
        raise BadInput(f"batch kind: {args.kind!r:.40} is not one of {', '.join(KINDS)}")
    setup = tuple((name, _int_arg(value, name) if SETTINGS[name].whole else value)
                  for name in SETTINGS if (value := getattr(args, f"setup_{name}")) is not None)
    request = BatchRequest(args.kind, _int_arg(args.n, "n"), _int_arg(args.seed, "seed"), setup,
                           tuple(_pair(o) for o in args.rule), args.time_limit)
    workers = _int_arg(args.workers, "workers")
    try:
        return run_batch(request, executor=args.executor, workers=workers, out=args.out, with_rows=args.rows,
                         progress=None if args.no_progress else ProgressLines(request.kind))
    except ex.TaskFailed as exc:  # a bug in a game's per-item function: still one line, exit 2
        raise BadInput(f"batch failed: {exc}") from None


def _render(result: dict) -> str:
    """The result as text: the plain listing, then the kind's own table when it has one (``BatchKind.render``)."""
    from solver.clikit import render_plain

    kind = KINDS.get(result.get("kind"))
    table = kind.render(result) if kind is not None and kind.render else None
    if table is None:
        return render_plain(result)
    return render_plain({k: v for k, v in result.items() if k not in table[0]}) + "\n" + table[1]
