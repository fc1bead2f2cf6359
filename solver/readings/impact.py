"""Every verdict the project states, rerun under each alternative reading (``ruleslinger readings``).

A *reading* is one field of a game's rules options (``solver/<game>/readings.py``): its listed values
come from the module's ``CHOICES`` table, from ``bool`` (both values), or for a numeric parameter
from :data:`NUMBERS` (listed values and the few the impact run tries). A *verdict* is a result the
project states (a Z3 check, the marshal-arrival odds, the dead-position search, a win search on an
example position, a greedy win rate, the lone ranger's turn on an example): a function of a rules
object, with the readings its code reads and the argument for the ones it does not (contracts.md
"Readings"; docs/open-questions.md names every reading).

:func:`impact` runs each verdict under the default readings, then under each alternative of each
reading it reads, one at a time (the other readings at their defaults; a reading that only means
something together with another, such as ``difficulty`` with ``edition = later``, is compared with
that other one set alike), and reports the readings that change it with the changed value. Readings
a verdict does not read are listed as skipped with its argument, never dropped. Results are cached
per process by verdict and rules; a result left undecided by a time limit is never cached.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from solver import registry
from solver.errors import BadInput
from solver.execution.progress import OnProgress, Progress
from solver.readings.base import canon
from solver.readings.options import SWEEP, Reading, game_readings, readings_class
from solver.readings.verdicts import Settings, Verdict, merge_parts

if TYPE_CHECKING:
    from solver.execution.executor import ExecutorSpec


def verdicts(game: str) -> list[Verdict]:
    """Every verdict of ``game``, from its own room (:attr:`solver.registration.GameRegistration.verdicts`)."""
    return registry.game(game).verdicts()


def unread(readings: list[Reading], chosen: list[Verdict]) -> list[dict]:
    """The readings none of ``chosen`` reads, each with the first verdict's argument why it cannot."""
    return [{"reading": r.name, "why": chosen[0].skip_reason(r.name)} for r in readings
            if chosen and not any(v.reads_reading(r.name) for v in chosen)]


_CACHE: dict[tuple, Any] = {}
"""Decided results of this process, by :class:`Job` (an undecided one is never kept)."""


@dataclass(frozen=True)
class Job:
    """One run of one verdict (or of one of its ``parts``): the game, the verdict's id, the readings that differ
    from the defaults (canonical JSON), the settings and the part. Picklable, so the executor can run it in another
    process. A part's job keeps only the readings the part reads, so the runs of readings it cannot read are one."""

    game: str
    verdict: str
    overrides: str
    settings: Settings
    part: str = ""

    @staticmethod
    def of(game: str, verdict: Verdict, overrides: dict, settings: Settings, part: str = "") -> Job:
        if part:
            overrides = {k: v for k, v in overrides.items() if verdict.part_reads(part, k)}
        return Job(game, verdict.id, json.dumps({k: canon(v) for k, v in sorted(overrides.items())}), settings, part)


def jobs_for(game: str, verdict: Verdict, overrides: dict, settings: Settings) -> list[Job]:
    """The jobs of the verdict's value under ``overrides``: one, or one per part."""
    return [Job.of(game, verdict, overrides, settings, part) for part in verdict.parts] or \
        [Job.of(game, verdict, overrides, settings)]


def value_of(game: str, verdict: Verdict, overrides: dict, settings: Settings, results: dict) -> Any:
    """The verdict's value under ``overrides`` from the jobs' results (a parted verdict's parts merged)."""
    values = [results[j][0] for j in jobs_for(game, verdict, overrides, settings)]
    return merge_parts(values) if verdict.parts else values[0]


def _undecided(value: Any) -> bool:
    return isinstance(value, dict) and bool(value.get("undecided"))


def run_task(task: tuple[Job, ...]) -> list[tuple[Any, float]]:
    """The jobs of one task (:func:`tasks_of`), one after the other in this worker (the executor's per-item
    function)."""
    return [run_job(job) for job in task]


def job_readings(job: Job) -> Any:
    """The rules object of the job's readings (the game's defaults with its overrides)."""
    cls: Any = readings_class(job.game)
    return cls.from_json(json.loads(job.overrides))


def _verdict(game: str, verdict_id: str) -> Verdict:
    return next(v for v in verdicts(game) if v.id == verdict_id)


def tasks_of(jobs: list[Job]) -> list[tuple[Job, ...]]:
    """The jobs as the executor's tasks, biggest first: the jobs whose verdicts share work under the same readings
    (:meth:`~solver.readings.verdicts.Verdict.share_key`) are one task (its jobs grouped by readings), each other job
    a task of its own; the size is the sum of the verdicts' ``cost``, so the long tasks start first and the short
    ones fill both cores at the end."""
    groups: dict[tuple, list[Job]] = {}
    cost: dict[tuple, float] = {}
    token = SWEEP.set(True)
    try:
        for job in jobs:
            verdict = _verdict(job.game, job.verdict)
            shared = verdict.share_key(job.part, job_readings(job))
            key = (job.game, shared, job.settings) if shared else (job,)
            groups.setdefault(key, []).append(job)
            cost[key] = cost.get(key, 0.0) + verdict.cost
    finally:
        SWEEP.reset(token)
    order = sorted(groups, key=lambda k: -cost[k])  # stable: equal sizes keep the jobs' order
    return [tuple(sorted(groups[k], key=lambda j: j.overrides)) for k in order]  # one set of readings after another


def run_job(job: Job) -> tuple[Any, float]:
    """The verdict's value under the job's readings and the seconds it took (the executor's per-item function)."""
    verdict = _verdict(job.game, job.verdict)
    token = SWEEP.set(True)  # the rules built here are a sweep's, not a test's (tests/conftest.py)
    start = time.perf_counter()
    try:
        readings = job_readings(job)
        if job.part and verdict.run_part is not None:
            value = verdict.run_part(job.part, readings, job.settings)
        else:
            value = verdict.run(readings, job.settings)
        return value, round(time.perf_counter() - start, 3)
    finally:
        SWEEP.reset(token)


def plan(game: str, verdict: Verdict, readings: list[Reading]) -> list[tuple[Reading, Any]]:
    """(reading, alternative) pairs the verdict is run under, besides the defaults."""
    return [(r, v) for r in readings if verdict.reads_reading(r.name) for v in r.probes]


def jobs_of(game: str, verdict: Verdict, readings: list[Reading], settings: Settings) -> list[Job]:
    """Every run a verdict's row needs: the defaults, then each alternative (after its baseline, for a reading that
    only means something with another one set)."""
    out = jobs_for(game, verdict, {}, settings)
    for reading, value in plan(game, verdict, readings):
        if reading.together:
            out += jobs_for(game, verdict, dict(reading.together), settings)
        out += jobs_for(game, verdict, {**reading.together, reading.name: value}, settings)
    return list(dict.fromkeys(out))


def chosen_verdicts(game: str, only: Iterable[str] | None) -> list[Verdict]:
    """The game's verdicts, or those named by ``only`` (an unknown id is one line)."""
    chosen = verdicts(game)
    if only:
        known = {v.id for v in chosen}
        wanted = list(only)
        bad = [w for w in wanted if w not in known]
        if bad:
            raise BadInput(f"--verdict {bad[0]!r}: not a {game} verdict (see `ruleslinger readings verdicts {game}`)")
        chosen = [v for v in chosen if v.id in wanted]
    return chosen


def impact(game: str, only: Iterable[str] | None = None, settings: Settings = Settings(),
           progress: OnProgress | None = None, executor: str | ExecutorSpec = "serial",
           workers: int | None = None, stored: bool = False) -> dict:
    """The ``ruleslinger readings impact GAME`` result (contracts.md "Readings").

    Every run is a :class:`Job`, computed once: decided results come from this process's memory, then (with
    ``stored``) from the results kept on disk between runs (:mod:`solver.readings.stored`), and the rest run
    through the executor (``executor``: "serial", "local" processes on ``workers`` cores, a Dask address, or an
    :class:`~solver.execution.executor.ExecutorSpec` such as local processes in the background);
    ``progress`` at once (what is kept) and after each run (its label), a task's runs as soon as the task ends."""
    chosen = chosen_verdicts(game, only)
    readings = game_readings(game)
    start = time.perf_counter()
    jobs = list(dict.fromkeys(j for v in chosen for j in jobs_of(game, v, readings, settings)))
    results = _results(jobs, progress, executor, workers, stored)
    rows = [_verdict_row(game, v, readings, settings, results) for v in chosen]
    return {"game": game, "verdicts": rows,
            "readings": [{"reading": r.name, "default": canon(r.default), "alternatives": [canon(v) for v in r.probes],
                          **({"with": {k: canon(x) for k, x in r.together.items()}} if r.together else {})}
                         for r in readings],
            "unread": unread(readings, chosen),
            "method": "each alternative alone, the other readings at their defaults",
            "settings": dataclasses.asdict(settings), **_elapsed(time.perf_counter() - start),
            "runs": {"total": len(jobs), "computed": sum(1 for j in jobs if results[j][2] == "computed"),
                     "kept": sum(1 for j in jobs if results[j][2] != "computed")}}


def _label(job: Job) -> str:
    over = json.loads(job.overrides)
    return f"{job.verdict}{'/' + job.part if job.part else ''} ({', '.join(f'{k}={v}' for k, v in over.items()) or 'default readings'})"


def _results(jobs: list[Job], progress: OnProgress | None, executor: str | ExecutorSpec, workers: int | None,
             stored: bool) -> dict[Job, tuple]:
    """{job: (value, seconds, where from)}: kept results first, then the executor's."""
    from solver.execution import executor as ex
    from solver.readings import stored as disk

    out: dict[Job, tuple] = {}
    for job in jobs:
        if job in _CACHE:
            out[job] = (*_CACHE[job], "memory")
        elif stored and (kept := disk.load(job)) is not None:
            out[job] = (*kept, "disk")
            _CACHE[job] = kept
    todo = [j for j in jobs if j not in out]
    total, done = len(jobs), len(out)
    if progress:  # a first line at once: what is kept, what is left to run
        progress(Progress(done, total, "runs", f"{done} kept from earlier runs, {len(todo)} to run"))
    tasks = tasks_of(todo)
    runs = ex.run_items(run_task, tasks, executor=executor, workers=workers or ex.DEFAULT_WORKERS, chunk_size=1,
                        label="readings impact", ordered=False)  # each task's runs as soon as it ends
    for index, values in runs:
        for job, (value, seconds) in zip(tasks[index], values):
            out[job] = (value, seconds, "computed")
            if not _undecided(value):
                _CACHE[job] = (value, seconds)
                if stored:
                    disk.save(job, value, seconds)
            done += 1
            if progress:
                progress(Progress(done, total, "runs", _label(job)))
    return out


def _verdict_row(game: str, verdict: Verdict, readings: list[Reading], settings: Settings, results: dict) -> dict:
    value = lambda overrides: value_of(game, verdict, overrides, settings, results)
    default = value({})
    depends, undecided, checked = [], [], []
    for reading, alt in plan(game, verdict, readings):
        base = value(dict(reading.together)) if reading.together else default
        result = value({**reading.together, reading.name: alt})
        entry = {"reading": reading.name, "value": canon(alt), "result": result, "words": verdict.words(result)}
        if reading.together:
            entry["with"] = {k: canon(x) for k, x in reading.together.items()}
            entry["compared_with"] = base
        checked.append(entry)
        if _undecided(result) or _undecided(base):
            undecided.append(entry)
        elif result != base:
            depends.append(entry)
    skipped = [{"reading": r.name, "why": verdict.skip_reason(r.name)} for r in readings
               if not verdict.reads_reading(r.name)]
    seconds = sum(results[j][1] for j in jobs_of(game, verdict, readings, settings))
    return {"id": verdict.id, "title": verdict.title, "default": default, "words": verdict.words(default),
            "depends_on": depends,
            "holds_under_every_reading": not depends and not undecided and not _undecided(default),
            "undecided": undecided, "skipped": skipped, "checked": checked, **_elapsed(seconds)}


def _elapsed(seconds: float) -> dict[str, float]:
    """A run's time as ``elapsed``, and under the old key ``seconds`` (kept for one version: docs/contracts.md)."""
    return {"elapsed": round(seconds, 2), "seconds": round(seconds, 2)}


def clear_cache() -> None:
    """Forget this process's results (the results kept on disk stay)."""
    _CACHE.clear()
