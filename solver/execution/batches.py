"""Named simulation batches run through :mod:`solver.execution.executor` (``ruleslinger batch KIND``).

Kinds (each maps onto one game's picklable per-item function):

- ``wagons-games``: whole solo games of Circle the Wagons: Lone Cowboy, one row per game
  (``solver.wagons.game``), game *i* played with seed ``seed + i``;
- ``wagons-difficulty``: best play vs the greedy policy per deal (``solver.wagons.optimizer.bestplay.best_play_row``),
  one row per seed, ``--time-limit`` seconds per deal;
- ``wagons-atlas``: the difficulty atlas (``solver.wagons.review.atlas.atlas_row``): per deal and per reading of the
  scenario's low-confidence goal numbers, can it be won with perfect play, the best margin and the greedy
  policy's result; ``--scenario ALL`` (or one id, or ids joined by commas), ``--n`` seeds per scenario,
  ``--time-limit`` seconds for each of the two solves per row; the result adds the per-scenario table;
- ``outlaws-playouts``: random playouts of Outlaws: Last Man Standing from the set-up, one row per
  playout (``solver.outlaws.playout.playout(seed, rules)``);
- ``cactus-montecarlo``: Monte Carlo of the round the marshal arrives in Cactus Town
  (``solver.cactus.odds.simulate_chunk(n, seed, query)``), cut into fixed chunks of
  :data:`CACTUS_CHUNK` games with seeds ``seed + j`` and added up; compared with the exact odds.

Row kinds are reproducible item by item: the row of game *i* is the row ``ruleslinger wagons play
--seed <seed + i>`` (or the playout with that seed) gives, whichever executor ran the batch. The
chunking of the Cactus Monte Carlo does not depend on the executor or the worker count either, so
its counts are identical everywhere for the same ``--n`` and ``--seed``.

Game options (the open-question readings) are given as ``--option NAME=VALUE`` and checked
against the game's options dataclass; an unknown name or value is bad input (rule:X-bad-input).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.execution import executor as ex
from solver.io.numbers import parse_float_text, parse_fraction_text, parse_int_text, short_repr
from solver.io.output import is_sink, output_target

MAX_N = 10_000_000
"""Largest batch accepted (items); far above any useful table."""
MAX_SEED = 2**63 - 1
CACTUS_CHUNK = 10_000
"""Monte Carlo games per Cactus task: fixed, so counts do not depend on the executor."""
MAX_TIME_LIMIT = 3600.0
"""Longest time limit per item (seconds) for the solver-backed kinds."""
ATLAS_TIME_LIMIT = 30.0
"""Default seconds for each of can-win and best play per deal and reading (``wagons-atlas``)."""
DIFFICULTY_TIME_LIMIT = 30.0
"""Default seconds per deal for ``wagons-difficulty`` (best_play_row's own default)."""
MAX_ROWS_IN_JSON = 10_000
"""``--rows`` prints every row only up to this many (use ``--out`` for more)."""


@dataclass(frozen=True)
class BatchRequest:
    """What to run: ``n`` items from ``seed``; game parameters; ``options`` NAME=VALUE readings."""

    kind: str
    n: int
    seed: int = 0
    scenario: str | None = None
    policy: str | None = None
    players: int | None = None
    options: tuple[tuple[str, str], ...] = ()
    time_limit: float | None = None  # seconds per item (wagons-difficulty)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise BadInput(f"batch kind: {self.kind!r:.40} is not one of {', '.join(KINDS)}")
        for name, value, lo, hi in (("n", self.n, 1, MAX_N), ("seed", self.seed, 0, MAX_SEED)):
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise BadInput(f"{name}: expected a whole number {lo}..{hi}, got {value!r:.40}")
        if self.seed + self.n - 1 > MAX_SEED:
            raise BadInput(f"seed: {self.seed} + n {self.n} passes the largest seed {MAX_SEED}")
        t = self.time_limit
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 < t <= MAX_TIME_LIMIT):
            raise BadInput(f"time limit: expected seconds in (0, {MAX_TIME_LIMIT}], got {t!r:.40}")


@dataclass(frozen=True)
class Plan:
    """A batch ready for the executor: ``func(item)`` for each item; ``shape`` rows or counts."""

    func: Callable[[Any], Any]
    items: Sequence[Any]
    shape: str  # "rows": one flat dict per item; "counts": dicts of counts added up
    settings: dict = field(default_factory=dict)
    total: int = 0  # games simulated (counts kinds: n, not the number of chunks)


@dataclass(frozen=True)
class BatchKind:
    name: str
    help: str
    planner: Callable[[BatchRequest], Plan]


# --- helpers -----------------------------------------------------------------------------------


def _coerce(value: str, default: Any, what: str) -> Any:
    """``--option`` text as the type of the field's default, through the bounded number parsers of
    :mod:`solver.io` (digits and exponent bounded before any conversion)."""
    if isinstance(default, bool):
        low = value.strip().lower()
        if low in ("true", "yes", "1", "on"):
            return True
        if low in ("false", "no", "0", "off"):
            return False
        raise BadInput(f"{what}: expected true or false, got {short_repr(value)}")
    if isinstance(default, int):
        return parse_int_text(value, what, -(10**9), 10**9)
    if isinstance(default, Fraction):
        return parse_fraction_text(value, what)
    if isinstance(default, float):
        return parse_float_text(value, what)
    return value


def options_from(cls: type, pairs: Sequence[tuple[str, str]], what: str = "option"):
    """An instance of the game's frozen options dataclass with NAME=VALUE readings applied."""
    default = cls()
    names = {f.name for f in dataclasses.fields(cls)}
    changes: dict[str, Any] = {}
    for name, value in pairs:
        if name not in names:
            raise BadInput(f"{what}: unknown option {name!r:.40} (known: {', '.join(sorted(names))})")
        changes[name] = _coerce(value, getattr(default, name), f"{what} {name}")
    try:
        return dataclasses.replace(default, **changes)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, BadInput):
            raise
        raise BadInput(f"{what}: {exc}") from None


def parse_option(text: str) -> tuple[str, str]:
    """``NAME=VALUE`` (argparse type for ``--option``)."""
    name, sep, value = str(text).partition("=")
    if not sep or not name.strip():
        raise BadInput(f"--option: expected NAME=VALUE, got {text!r:.40}")
    return name.strip(), value.strip()


def _no(request: BatchRequest, *names: str) -> None:
    for name in names:
        if getattr(request, name) is not None:
            raise BadInput(f"batch {request.kind}: --{name.replace('_', '-')} does not apply to this kind")


def call_with(fn: Callable, args: tuple, kwargs: dict, item: Any) -> Any:
    """``fn(*args, item, **kwargs)``: the picklable per-item adapter used by every kind."""
    return fn(*args, item, **kwargs)


def call_star(fn: Callable, kwargs: dict, item: tuple) -> Any:
    """``fn(*item, **kwargs)`` (chunked Monte Carlo items are ``(n, seed)`` pairs)."""
    return fn(*item, **kwargs)


def _seeds(request: BatchRequest) -> range:
    return range(request.seed, request.seed + request.n)


# --- the kinds ---------------------------------------------------------------------------------


def _plan_cactus(request: BatchRequest) -> Plan:
    _no(request, "scenario", "policy", "time_limit")
    from solver.cactus.odds import MarshalQuery, simulate_chunk
    from solver.cactus.rules import CactusRules

    rules = options_from(CactusRules, request.options)
    query = MarshalQuery(request.players, rules)
    sizes = [min(CACTUS_CHUNK, request.n - start) for start in range(0, request.n, CACTUS_CHUNK)]
    items = [(size, request.seed + j) for j, size in enumerate(sizes)]
    settings = {"players": request.players, "mode": "solo" if request.players is None else "players",
                "rules": dataclasses.asdict(rules) | {"duel_win_chance": str(rules.duel_win_chance)},
                "chunk": CACTUS_CHUNK}
    return Plan(functools.partial(call_star, simulate_chunk, {"query": query}), items, "counts", settings,
                request.n)


def _wagons_rules(request: BatchRequest):
    from solver.wagons.rules import Rules

    return options_from(Rules, request.options)


def _plan_wagons_games(request: BatchRequest) -> Plan:
    _no(request, "players", "time_limit")
    from solver.wagons.game import new_game
    from solver.wagons.policies import POLICIES, policy_by_name
    from solver.wagons.simulate import play_row

    if request.scenario is None:
        raise BadInput(f"batch {request.kind}: --scenario is required")
    policy = request.policy or "random"
    if policy not in POLICIES:
        raise BadInput(f"batch {request.kind}: --policy {policy!r:.40} is not one of {', '.join(POLICIES)}")
    policy_by_name(policy)
    rules = _wagons_rules(request)
    new_game(request.scenario, request.seed, rules)  # checks the scenario id before any process starts
    settings = {"scenario": request.scenario, "policy": policy, "rules": rules.to_dict()}
    return Plan(functools.partial(call_with, play_row, (request.scenario, policy), {"rules": rules}),
                _seeds(request), "rows", settings, request.n)


def _plan_wagons_difficulty(request: BatchRequest) -> Plan:
    """Best play vs the greedy policy per deal (solver.wagons.optimizer.bestplay.best_play_row, rule:W-opt-bestplay).

    Rows are identical across executors when every deal is proven (``proven`` true); a deal cut
    short by ``time_limit`` holds the best found so far, which depends on the machine's speed.
    """
    _no(request, "players", "policy")
    from solver.wagons.game import new_game
    from solver.wagons.optimizer.bestplay import best_play_row as row

    if request.scenario is None:
        raise BadInput(f"batch {request.kind}: --scenario is required")
    rules = _wagons_rules(request)
    new_game(request.scenario, request.seed, rules)
    limit = float(request.time_limit if request.time_limit is not None else DIFFICULTY_TIME_LIMIT)
    settings = {"scenario": request.scenario, "time_limit": limit, "rules": rules.to_dict()}
    return Plan(functools.partial(call_with, row, (request.scenario,), {"time_limit": limit,
                                                                         "rules": rules.to_dict()}),
                _seeds(request), "rows", settings, request.n)


def _atlas_scenarios(text: str | None) -> list[str]:
    from solver.wagons.data import SCENARIO_IDS

    if not isinstance(text, str):
        raise BadInput("batch wagons-atlas: --scenario is required (a scenario id, ids joined by commas, or ALL)")
    if text.strip().upper() == "ALL":
        return list(SCENARIO_IDS)
    names = [t.strip() for t in text.split(",") if t.strip()]
    for name in names:
        if name not in SCENARIO_IDS:
            raise BadInput(f"batch wagons-atlas: --scenario {short_repr(name)} is not one of ALL, {', '.join(SCENARIO_IDS)}")
    if not names:
        raise BadInput("batch wagons-atlas: --scenario names no scenario")
    return list(dict.fromkeys(names))


def _plan_wagons_atlas(request: BatchRequest) -> Plan:
    """The difficulty atlas (solver.wagons.review.atlas.atlas_row, rule:W-opt-canwin, rule:W-opt-bestplay): one row per
    deal and reading. Rows are identical across executors when every deal is decided and proven."""
    _no(request, "players", "policy")
    from solver.wagons.review.atlas import atlas_items, atlas_row

    scenarios = _atlas_scenarios(request.scenario)
    rules = _wagons_rules(request)
    limit = float(request.time_limit if request.time_limit is not None else ATLAS_TIME_LIMIT)
    items = atlas_items(scenarios, request.n, request.seed, rules)
    settings = {"scenarios": scenarios, "deals_per_scenario": request.n, "time_limit": limit, "rules": rules.to_dict()}
    return Plan(functools.partial(call_star, atlas_row, {"time_limit": limit}), items, "rows", settings, len(items))


def _plan_outlaws_playouts(request: BatchRequest) -> Plan:
    _no(request, "scenario", "policy", "players", "time_limit")
    from solver.outlaws.playout import playout
    from solver.outlaws.rules import Rules

    rules = options_from(Rules, request.options)
    settings = {"rules": dataclasses.asdict(rules)}
    return Plan(functools.partial(call_with, playout, (), {"rules": rules}), _seeds(request), "rows", settings,
                request.n)


KINDS: dict[str, BatchKind] = {
    "wagons-games": BatchKind(
        "wagons-games", "Lone Cowboy: whole solo games, one row per game (seed+i), --scenario, --policy",
        _plan_wagons_games),
    "wagons-difficulty": BatchKind(
        "wagons-difficulty", "Lone Cowboy: best play vs greedy per deal (seed+i), --scenario, --time-limit per deal",
        _plan_wagons_difficulty),
    "wagons-atlas": BatchKind(
        "wagons-atlas", "Lone Cowboy: the difficulty atlas, can-win and best play per deal and goal-number reading, "
        "--scenario ALL, --n seeds per scenario, --time-limit per solve", _plan_wagons_atlas),
    "outlaws-playouts": BatchKind(
        "outlaws-playouts", "Outlaws: random playouts from the set-up, one row per playout (seed+i)",
        _plan_outlaws_playouts),
    "cactus-montecarlo": BatchKind(
        "cactus-montecarlo", "Cactus Town: Monte Carlo of the marshal's arrival round vs the exact odds",
        _plan_cactus),
}


def plan(request: BatchRequest) -> Plan:
    """The executor plan of a request (imports the game's module; BadInput when unavailable)."""
    return KINDS[request.kind].planner(request)


# --- running -----------------------------------------------------------------------------------


def stream_rows(request: BatchRequest, **run_options) -> Iterator[dict]:
    """The rows of a row kind, in seed order, as they arrive (``run_options`` go to run_items)."""
    p = plan(request)
    if p.shape != "rows":
        raise BadInput(f"batch {request.kind}: gives counts, not rows")
    return ex.run_items(p.func, p.items, label=request.kind, **run_options)


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


def _cactus_report(counts: dict, settings: dict, query_players, rules) -> dict:
    from solver.cactus.odds import MarshalQuery, distribution
    from solver.cactus.rules import frac_str

    exact = distribution(MarshalQuery(query_players, rules))
    n = sum(counts.values())
    keys = sorted({*(str(k) if k is not None else "never" for k in exact), *counts},
                  key=lambda k: (k == "never", int(k) if k != "never" else 0))
    table, worst = {}, 0.0
    for key in keys:
        p = exact.get(None if key == "never" else int(key), Fraction(0))
        share = counts.get(key, 0) / n
        sigma = math.sqrt(max(float(p) * (1 - float(p)), 1e-12) / n)
        z = (share - float(p)) / sigma
        worst = max(worst, abs(z))
        table[key] = {"count": counts.get(key, 0), "share": round(share, 6), "exact": frac_str(p),
                      "z": round(z, 2)}
    ordered = {key: counts[key] for key in keys if key in counts}
    return {"counts": ordered, "rounds": table, "max_abs_z": round(worst, 2)}


def run_batch(
    request: BatchRequest,
    *,
    executor: str = "local",
    workers: int = ex.DEFAULT_WORKERS,
    out: str | Path | None = None,
    with_rows: bool = False,
    progress: bool | None = None,
    on_progress: ex.ProgressCallback | None = None,
) -> dict:
    """Run a batch and return its JSON result (``ruleslinger batch``; the dashboard calls this too).

    Row kinds: a column summary, plus the Parquet path with ``out`` or the rows with
    ``with_rows``; counts kinds: the added-up counts (Cactus: beside the exact odds).
    """
    spec = ex.parse_executor(executor, workers)
    if with_rows and request.n > MAX_ROWS_IN_JSON:
        raise BadInput(f"--rows: at most {MAX_ROWS_IN_JSON} rows in JSON; use --out FILE.parquet for {request.n}")
    if out is not None:
        target = output_target(out)  # a folder, a device, a missing or unwritable folder: refused before any work
        if Path(out).suffix != ".parquet" and not is_sink(target):
            raise BadInput(f"--out: {short_repr(str(out))} must end in .parquet")
    p = plan(request)
    started = time.perf_counter()
    result: dict[str, Any] = {"kind": request.kind, "n": request.n, "seed": request.seed,
                              "executor": spec.describe(), "settings": p.settings}
    stream = ex.run_items(p.func, p.items, executor=spec, label=request.kind, progress=progress,
                          on_progress=_scaled(on_progress, p) if on_progress else None)
    if p.shape == "counts":
        if out is not None:
            raise BadInput(f"batch {request.kind}: --out applies to row kinds only")
        counts: dict = {}
        for part in stream:
            add_counts(counts, part)
        if request.kind == "cactus-montecarlo":
            from solver.cactus.rules import CactusRules

            result |= _cactus_report(counts, p.settings, request.players,
                                     options_from(CactusRules, request.options))
        else:
            result["counts"] = counts
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
    if request.kind == "wagons-atlas":
        from solver.wagons.review.atlas import atlas_table

        result["atlas"] = atlas_table(frame).to_dicts()
    result["seconds"] = round(time.perf_counter() - started, 3)
    return result


def _scaled(callback: ex.ProgressCallback, p: Plan) -> ex.ProgressCallback:
    """Progress in games, not chunks, for counts kinds (the Cactus items are chunks of games)."""
    if p.shape == "rows":
        return callback
    sizes = [item[0] for item in p.items]
    prefix = [0]
    for s in sizes:
        prefix.append(prefix[-1] + s)
    return lambda done, total: callback(prefix[done], p.total)


# --- the command line --------------------------------------------------------------------------


def register_batch(games) -> None:
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
    parser.add_argument("--scenario", help="wagons: scenario id (wagons-atlas: ALL, or ids joined by commas)")
    parser.add_argument("--policy", help="wagons: player policy name")
    parser.add_argument("--players", type=str, help="cactus: 2..5 players (default: solo)")
    parser.add_argument("--time-limit", type=str, metavar="S",
                        help=f"wagons-difficulty: seconds per deal (default {DIFFICULTY_TIME_LIMIT:g}); wagons-atlas: "
                             f"seconds for each of can-win and best play per deal (default {ATLAS_TIME_LIMIT:g})")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rules reading of the game (repeatable), e.g. --option tie_break=guns")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")


def _int_arg(text: str | None, what: str) -> int | None:
    return None if text is None else parse_int_text(text, f"--{what}")


def _float_arg(text: str | None, what: str) -> float | None:
    return None if text is None else parse_float_text(text, f"--{what}", kind="a finite number of seconds")


def _handle(args) -> dict:
    if args.kind not in KINDS:
        raise BadInput(f"batch kind: {args.kind!r:.40} is not one of {', '.join(KINDS)}")
    request = BatchRequest(args.kind, _int_arg(args.n, "n"), _int_arg(args.seed, "seed"), args.scenario,
                           args.policy, _int_arg(args.players, "players"),
                           tuple(parse_option(o) for o in args.option), _float_arg(args.time_limit, "time-limit"))
    workers = _int_arg(args.workers, "workers")
    try:
        return run_batch(request, executor=args.executor, workers=workers, out=args.out, with_rows=args.rows,
                         progress=False if args.no_progress else None)
    except ex.TaskFailed as exc:  # a bug in a game's per-item function: still one line, exit 2
        raise BadInput(f"batch failed: {exc}") from None


def _render(result: dict) -> str:
    from solver.clikit import render_plain

    if "atlas" not in result:
        return render_plain(result)
    rest = {k: v for k, v in result.items() if k != "atlas"}
    return render_plain(rest) + "\n" + _atlas_text(result["atlas"])


def _atlas_text(rows: list[dict]) -> str:
    """The atlas table as aligned text: per scenario and reading, deals won with perfect play (of the decided)
    against the greedy policy on the same deals, and the best margin's spread."""
    pct = lambda x: "-" if x is None else f"{100 * x:.0f}%"
    head = (f"{'scenario':<27}{'reading':<24}{'deals':>6}{'undecided':>10}{'perfect play wins':>18}"
            f"{'greedy wins':>12}  best margin min/median/max (proven)")
    lines = ["Difficulty atlas (wins: share of the decided deals):", head]
    for r in rows:
        lines.append(f"{r['scenario']:<27}{r['reading']:<24}{r['deals']:>6}{r['undecided']:>10}"
                     f"{pct(r['winnable_share']):>18}{pct(r['greedy_win_share']):>12}  "
                     f"{r['best_margin_min']}/{r['best_margin_median']}/{r['best_margin_max']} ({r['best_proven']})")
    return "\n".join(lines)
