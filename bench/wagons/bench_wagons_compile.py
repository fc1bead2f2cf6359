"""The first run after an install against a warm run: ``best-layout --method bnb --time-limit 1`` (issue 33;
conventions: ``run(quick) -> rows``).

Each run is a fresh ``ruleslinger`` process with its own numba cache folder (``NUMBA_CACHE_DIR``):

- first run, cold: an empty cache, so the kernels compile while the search's clock runs
  (solver/wagons/optimizer/walk/compiled.py: the search waits for them only until its deadline);
- warm run: the same command once the kernels are in the cache (``compile_kernels()``, what ``run.py`` does
  at install; its seconds are a row too: what the first run would cost if it waited for the compiler).

Wall time is the whole process (start-up and imports included); ``elapsed`` is what the command reports,
the part its ``--time-limit`` bounds. The ratio is cold over warm (1.0: the first run costs nothing extra).

Run: ``.venv/bin/python bench/wagons/bench_wagons_compile.py [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

GAME = "wagons"
CARDS = "3,7,11,14,2,5,0,13"
LIMIT = 1.0


def _row(name, value, unit, baseline=None, ratio=None, notes=""):
    return {"game": GAME, "name": name, "value": value, "unit": unit, "baseline": baseline, "ratio": ratio,
            "notes": notes}


def _env(cache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "RULESLINGER_"))}
    return env | {"NUMBA_CACHE_DIR": cache}


def first_layout(cache: str) -> tuple[float, dict]:
    """(wall seconds, the JSON result) of one ``best-layout --method bnb --time-limit 1`` process."""
    argv = [sys.executable, "-m", "solver", "wagons", "best-layout", "--cards", CARDS, "--scenario", "boomtown",
            "--method", "bnb", "--time-limit", str(LIMIT), "--json", "--quiet"]
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=_env(cache), check=True)
    return time.perf_counter() - started, json.loads(done.stdout)


def compile_s(cache: str) -> float:
    """Seconds to compile every kernel (or load it from ``cache``) in a fresh process, imports excluded."""
    code = ("import time; from solver.wagons.optimizer.bnb.search import compile_kernels; t = time.perf_counter(); "
            "compile_kernels(); print(time.perf_counter() - t)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(cache), check=True)
    return float(done.stdout.strip().splitlines()[-1])


def run(quick: bool = False) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="ruleslinger-numba-bench-") as cache:
        cold_wall, cold = first_layout(cache)
        compiling = compile_s(cache)
        loading = compile_s(cache)
        warm_wall, warm = first_layout(cache)
    note = lambda r: f"elapsed {r['elapsed']} s, value {r['value']} (greedy {r['greedy_value']}), " \
                     f"proven {r['proven_optimal']}"
    return [
        _row("best-layout bnb --time-limit 1, first run (cold cache): wall", round(cold_wall, 2), "s",
             round(warm_wall, 2), round(cold_wall / warm_wall, 2), note(cold)),
        _row("best-layout bnb --time-limit 1, first run (cold cache): elapsed", cold["elapsed"], "s",
             warm["elapsed"], round(cold["elapsed"] / warm["elapsed"], 2), "what --time-limit bounds"),
        _row("best-layout bnb --time-limit 1, warm run: wall", round(warm_wall, 2), "s", notes=note(warm)),
        _row("compiling every kernel (cold, once)", round(compiling, 2), "s", round(loading, 2),
             round(compiling / loading, 1), "baseline: loading them from the cache"),
    ]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    for row in run(parser.parse_args().quick):
        print(json.dumps(row))
