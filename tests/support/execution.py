"""Batches collected whole, for the tests: :func:`solver.execution.executor.run_items` into a list, and a row
kind's rows in seed order."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from solver.errors import BadInput
from solver.execution import executor as ex
from solver.execution.batches import plan
from solver.execution.plans import BatchRequest


def map_items(func: Callable[[Any], Any], items: Sequence[Any], **options) -> list[Any]:
    """``run_items`` collected into a list."""
    return list(ex.run_items(func, items, **options))


def stream_rows(request: BatchRequest, **run_options) -> Iterator[dict]:
    """The rows of a row kind, in seed order, as they arrive (``run_options`` go to run_items)."""
    p = plan(request)
    if p.shape != "rows":
        raise BadInput(f"batch {request.kind}: gives counts, not rows")
    return ex.run_items(p.func, p.items, label=request.kind, **run_options)
