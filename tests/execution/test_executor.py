"""The batch executor: same results in the same order whichever executor runs them; errors surface
as one clear line; progress is reported; rows stream to Polars / Parquet."""

from __future__ import annotations

import functools
import math
import operator
import random

import polars as pl
import pytest

from solver.clikit import ProgressLines
from solver.errors import BadInput
from solver.execution.executor import (
    ExecutorSpec,
    TaskFailed,
    default_chunk_size,
    parse_executor,
    rows_to_frame,
    run_items,
    write_parquet,
)
from solver.io.read import as_int
from tests.support.execution import map_items
from tests.support.fuzz import no_hang
from tests.support.servers import SERVERS, serving


def dice_row(seed: int) -> dict:
    """A stand-in per-item function with a seeded RNG (module level: picklable by reference)."""
    rng = random.Random(seed)
    rolls = [rng.randint(1, 6) for _ in range(5)]
    return {"seed": seed, "total": sum(rolls), "yahtzee": len(set(rolls)) == 1, "first": rolls[0]}


ITEMS = list(range(1000, 1600))


def test_serial_and_local_processes_give_identical_rows_in_order():
    serial = map_items(math.lgamma, ITEMS, executor="serial")
    local = map_items(math.lgamma, ITEMS, executor="local", workers=2, chunk_size=7)
    assert serial == local == [math.lgamma(i) for i in ITEMS]


@pytest.mark.parametrize("chunk_size", [1, 13, 600, 5000])
def test_chunk_size_does_not_change_results(chunk_size):
    assert map_items(abs, [-3, 1, -4, 1, -5, 9, -2, 6], executor="serial", chunk_size=chunk_size) == \
        [3, 1, 4, 1, 5, 9, 2, 6]


def _priority(_item: int) -> tuple[int, int, str]:
    """A worker's session, nice value and scheduling group (module level: picklable by reference)."""
    import os
    from pathlib import Path

    group = Path("/proc/self/autogroup")
    return os.getsid(0), os.getpriority(os.PRIO_PROCESS, 0), group.read_text().strip() if group.exists() else ""


def test_background_workers_give_way_to_everything_else():
    """Work ahead (the Verification page's verdicts) runs in local processes at the lowest priority: nice 19 and,
    on Linux, a session of its own whose scheduling group has the lowest priority (the nice value alone counts only
    within the group); the same workers without ``background`` keep this process's session and priority."""
    import os

    spec = ExecutorSpec("local", workers=1, background=True)
    assert spec.describe() == "local processes x1 in the background"
    ((session, nice, group),) = list(run_items(_priority, [0], executor=spec))
    assert nice == 19
    if os.path.exists("/proc/self/autogroup"):
        assert session != os.getsid(0) and group.endswith("nice 19"), group
    ((session, nice, _),) = list(run_items(_priority, [0], executor=ExecutorSpec("local", workers=1)))
    assert (session, nice) == (os.getsid(0), os.getpriority(os.PRIO_PROCESS, 0))


def test_seeded_rows_identical_serial_vs_processes():
    # dice_row lives in this test module: the forkserver workers import it by name
    serial = map_items(dice_row, range(200), executor="serial")
    local = map_items(dice_row, range(200), executor="local", workers=2, chunk_size=9)
    assert serial == local
    assert [r["seed"] for r in local] == list(range(200))


def test_progress_callback_counts_every_item():
    seen = []
    out = map_items(abs, list(range(-50, 50)), executor="local", workers=2, chunk_size=10,
                    progress=lambda p: seen.append((p.done, p.total)))
    assert len(out) == 100
    assert seen[-1] == (100, 100)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert len(seen) == 10  # once per chunk


def test_progress_lines_go_to_stderr_through_the_command_lines_adapter(capsys):
    map_items(abs, list(range(30)), executor="serial", chunk_size=5, progress=ProgressLines("dice"), label="dice")
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert lines[0].startswith("[dice] 5 of 30 items (") and lines[-1].startswith("[dice] 30 of 30 items (")
    map_items(abs, list(range(30)), executor="serial", chunk_size=5, label="dice")  # no callback: silent
    assert capsys.readouterr().err == ""


def test_an_exception_in_a_task_names_the_item_and_the_error():
    with pytest.raises(TaskFailed) as info:
        map_items(functools.partial(operator.truediv, 1), [4, 2, 1, 0, 5], executor="local", chunk_size=2,
                  label="batch test")
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("batch test: item 3 = 0 failed: ZeroDivisionError")


def test_an_exception_in_serial_mode_is_the_same_message():
    with pytest.raises(TaskFailed, match=r"item 2 = -1 failed: ValueError: math domain error"):
        map_items(math.sqrt, [4, 1, -1], executor="serial")


def test_bad_input_inside_a_task_stays_bad_input():
    with pytest.raises(BadInput, match=r"item 1 = -7: seed: -7 is out of range 0..None"):
        map_items(functools.partial(as_int, what="seed", lo=0), [3, -7, 9], executor="local")


def test_the_stream_is_lazy_and_can_stop_early():
    stream = run_items(abs, list(range(10_000)), executor="local", workers=2, chunk_size=10, window=2)
    first = [next(stream) for _ in range(15)]
    stream.close()  # cancels pending chunks and shuts the pool down
    assert first == list(range(15))


@pytest.mark.parametrize("spec", ["", "cluster", "http//x", "tcp://", "spark://host:1", "LOCAL "])
def test_bad_executor_names_are_bad_input(spec):
    if spec.strip() == "LOCAL":
        spec = "Local"
    with pytest.raises(BadInput, match="executor"):
        parse_executor(spec)


@pytest.mark.parametrize("workers", [0, -1, 10**6, True, 1.5, "2"])
def test_bad_worker_counts_are_bad_input(workers):
    with pytest.raises(BadInput, match="workers"):
        parse_executor("local", workers)


def test_executor_specs():
    assert parse_executor("serial") == ExecutorSpec("serial", 2)
    assert parse_executor("local", 3) == ExecutorSpec("local", 3)
    assert parse_executor("tcp://10.0.0.5:8786") == ExecutorSpec("dask", 2, "tcp://10.0.0.5:8786")
    assert parse_executor(None).kind == "local"


def test_unreachable_dask_scheduler_is_one_line_bad_input():
    with pytest.raises(BadInput, match="cannot reach the Dask scheduler") as info:
        map_items(abs, [1, 2], executor="tcp://127.0.0.1:9", connect_timeout=1.0)
    assert "\n" not in str(info.value)


# --- issue 33: an address that is not a Dask scheduler is one line naming it, within a bounded time -----------


@pytest.mark.parametrize("kind", ["http", *SERVERS])
def test_a_server_that_is_not_a_dask_scheduler_is_one_line_naming_it(kind):
    """Found by the issue 33 campaign: a web server, or a listener that never answers, hung the batch for
    300 s and more (Dask waits for the scheduler's greeting without a time limit)."""
    with serving(kind) as address, no_hang(60), pytest.raises(BadInput) as info:
        map_items(abs, [1, 2], executor=address, connect_timeout=1.0)
    text = str(info.value)
    assert "\n" not in text and address in text and text.startswith("executor:"), text
    if "greet" not in kind:
        assert "is not a Dask scheduler" in text, text


def test_a_stopped_test_server_answers_no_later_connection():
    """The test servers above stop listening when their block ends: an accepting thread left behind took a later
    server's connections (the same file number) and answered them as the old server did, so a later test met the
    wrong server now and then."""
    import socket
    import time

    with serving("answers garbage") as address:
        port = int(address.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
            assert conn.recv(64)  # accepted and answered: the thread has gone back to waiting for the next one
        time.sleep(0.05)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_default_chunk_size():
    assert default_chunk_size(0, 2) == 1
    assert default_chunk_size(160, 2) == 10
    assert default_chunk_size(10**7, 2) == 1000


def test_rows_to_frame_unifies_chunks():
    rows = ({"i": i, "x": None if i < 5 else i / 2} for i in range(12))
    frame = rows_to_frame(rows, chunk_rows=5)
    assert frame.shape == (12, 2)
    assert frame["x"].dtype == pl.Float64
    assert frame["x"].null_count() == 5


def test_write_parquet_streams_chunks_and_replaces_atomically(tmp_path):
    out = tmp_path / "rows.parquet"
    summary = write_parquet((dice_row(s) for s in range(2500)), out, chunk_rows=1000)
    assert summary["rows"] == 2500
    frame = pl.read_parquet(out)
    assert frame.to_dicts() == [dice_row(s) for s in range(2500)]
    assert [p.name for p in tmp_path.iterdir()] == ["rows.parquet"]  # parts cleaned up


def test_write_parquet_leaves_no_partial_file_when_the_batch_fails(tmp_path):
    out = tmp_path / "rows.parquet"
    out.write_bytes(b"old")

    def rows():
        yield {"i": 1}
        raise TaskFailed("boom")

    with pytest.raises(TaskFailed):
        write_parquet(rows(), out, chunk_rows=1)
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["rows.parquet"]


def test_write_parquet_refuses_missing_folders(tmp_path):
    with pytest.raises(BadInput, match="does not exist"):
        write_parquet([{"i": 1}], tmp_path / "no" / "such.parquet")
    with pytest.raises(BadInput, match="directory"):
        write_parquet([{"i": 1}], tmp_path)


@pytest.mark.slow
def test_dask_local_cluster_gives_identical_results():
    from dask import distributed
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster:
        address = cluster.scheduler_address
        seen = []
        on_dask = map_items(dice_row, range(300), executor=address, chunk_size=17,
                            progress=lambda p: seen.append(p.done))
        assert on_dask == map_items(dice_row, range(300), executor="serial")
        assert seen[-1] == 300
        with pytest.raises(TaskFailed, match=r"item 2 = -1 failed: ValueError: math domain error"):
            map_items(math.sqrt, [1, 4, -1, 9], executor=address)
        with pytest.raises(BadInput, match="item 1 = -7"):
            map_items(functools.partial(as_int, what="seed", lo=0), [3, -7], executor=address)


def test_mapper_is_a_pool_like_map_in_order():
    from solver.execution.executor import Mapper

    assert list(Mapper("local", workers=2).map(pow, [2, 3, 4, 5], [5, 2, 0, 1])) == [32, 9, 1, 5]
    assert list(Mapper("serial").map(divmod, range(10, 14), [3] * 4)) == [(3, 1), (3, 2), (4, 0), (4, 1)]


def test_mapper_drives_the_difficulty_table():
    from solver.execution.executor import Mapper
    from solver.wagons.optimizer import bestplay

    table = bestplay.difficulty_table(["gold-rush"], 2, seed=5, time_limit=0.5, executor=Mapper("local"))
    assert table["seed"].to_list() == [5, 6]
