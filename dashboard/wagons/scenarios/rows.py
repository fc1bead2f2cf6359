"""The Scenarios page's simulated games, fast: stored rows first, then the games this server
has already simulated, and only then new simulations, on demand.

The stored rows (``scenarios/wagons/simulations.parquet``, provenance in ``simulations.md``) are
:func:`solver.wagons.simulate.simulate`'s own rows, 100 games per scenario and player policy from seed 0 (game i
uses seed i), under the default readings and under Boom or Bust read flat (rule:W11, the reading a player's card
may settle), each row tagged with the readings it was played under (column ``readings``: the whole ``Readings`` as
canonical JSON). A request the stored rows cover (the same readings, seeds inside 0-99) is answered from them at
once; ``tests/dashboard/wagons/test_scenarios.py`` replays stored games through the engine, so rows the engine
would no longer produce fail the suite. Regenerate with ``.venv/bin/python -m dashboard.wagons.scenarios.rows``.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from pathlib import Path

import polars as pl

from solver.execution.progress import OnProgress, Progress
from solver.paths import SCENARIOS
from solver.stopping import stopped
from solver.wagons import simulate as sim
from solver.wagons.readings import WagonsReadings

STORED = SCENARIOS / "wagons" / "simulations.parquet"
STORED_GAMES, STORED_SEED = 100, 0
"""Games per scenario and policy in the stored rows, and the first seed (the page's defaults)."""
POLICIES = ("greedy", "random")
READINGS = ({}, {"boom_or_bust": "flat"})
"""The readings the stored rows were played under (changes from the defaults)."""
KEEP = 256
"""Most simulated batches this server keeps in memory."""


def readings_key(readings: dict) -> str:
    """The whole ``Readings`` of a (partial) rules document, as canonical JSON: how stored rows name their readings."""
    return json.dumps(WagonsReadings.from_json(readings).to_json(), sort_keys=True, separators=(",", ":"))


_STORED: dict[str, pl.DataFrame] = {}
_LOCK = threading.Lock()
_COMPUTED: OrderedDict[tuple, pl.DataFrame] = OrderedDict()


def stored(path: Path = STORED) -> pl.DataFrame:
    """The stored rows (read once per process); empty when the file is missing."""
    key = str(path)
    with _LOCK:
        if key not in _STORED:
            _STORED[key] = pl.read_parquet(path) if path.is_file() else pl.DataFrame()
        return _STORED[key]


def stored_batch(scenario: str, policy: str, n: int, seed: int, readings: dict, cards: str = "{}") -> pl.DataFrame | None:
    """The stored rows of games ``seed`` to ``seed + n - 1`` of one scenario and policy under ``readings``, in seed
    order, exactly as :func:`solver.wagons.simulate.simulate` gives them; None when they are not all stored (or the
    player's cards give numbers of their own, ``cards``: the stored games score with the shipped ones)."""
    rows = stored()
    if rows.is_empty() or cards != "{}":
        return None
    got = rows.filter((pl.col("scenario") == scenario) & (pl.col("policy") == policy)
                      & (pl.col("rules") == readings_key(readings)) & pl.col("seed").is_between(seed, seed + n - 1))
    if got.height != n:
        return None
    return got.sort("seed").drop("rules")


def known_batch(scenario: str, policy: str, n: int, seed: int, readings: dict, cards: str = "{}") -> pl.DataFrame | None:
    """The batch from the stored rows or from this server's earlier simulations, without simulating."""
    found = stored_batch(scenario, policy, n, seed, readings, cards)
    if found is not None:
        return found
    with _LOCK:
        return _COMPUTED.get((scenario, policy, n, seed, readings_key(readings), cards))


def simulate_batch(scenario: str, policy: str, n: int, seed: int, readings: dict, cards: str = "{}") -> pl.DataFrame:
    """``n`` games simulated by the engine now (with the numbers of the player's cards, ``cards``), kept for this
    server's later requests."""
    from dashboard.wagons.view import cards_data

    frame = sim.simulate(n, scenario, policy, seed, readings, cards_data(cards))
    with _LOCK:
        _COMPUTED[(scenario, policy, n, seed, readings_key(readings), cards)] = frame
        while len(_COMPUTED) > KEEP:
            _COMPUTED.popitem(last=False)
    return frame


def simulate_missing(jobs: list[tuple[str, str]], n: int, seed: int, readings: dict,
                     progress: OnProgress | None = None, cards: str = "{}") -> list:
    """Each (scenario, policy) batch not yet known, simulated in turn, ``progress`` as each ends (the page's bar);
    asked to stop (the page's Stop), the batches so far."""
    done: list[tuple[str, str]] = []
    for scenario, policy in jobs:
        if known_batch(scenario, policy, n, seed, readings, cards) is None:
            simulate_batch(scenario, policy, n, seed, readings, cards)
        done.append((scenario, policy))
        if progress is not None:
            progress(Progress(len(done), len(jobs), "batches"))
        if stopped():
            break
    return done


def write_stored(path: Path = STORED, games: int = STORED_GAMES) -> pl.DataFrame:
    """Simulate and write the stored rows (every scenario, both policies, each of :data:`READINGS`)."""
    from solver.wagons.data import load_data

    frames = [sim.simulate(games, s.id, policy, STORED_SEED, readings).with_columns(pl.lit(readings_key(readings)).alias("rules"))
              for readings in READINGS for s in load_data().scenarios for policy in POLICIES]
    rows = pl.concat(frames, how="diagonal_relaxed")
    rows.write_parquet(path)
    with _LOCK:
        _STORED.pop(str(path), None)
    return rows


if __name__ == "__main__":  # .venv/bin/python -m dashboard.wagons.scenarios.rows
    import time

    start = time.perf_counter()
    written = write_stored()
    print(f"{written.height} rows written to {STORED} in {time.perf_counter() - start:.0f} s")
