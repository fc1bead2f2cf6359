"""The suite's two depths (tests/conftest.py): the default run, and ``--deep`` (``python3 run.py test --deep``),
which adds more random instances of the slow oracle cross-checks. :func:`deep_after` marks a parametrization's
later cases ``deep``: its first ones run in every suite, so the check itself never leaves the default run."""

from __future__ import annotations

import os
from collections.abc import Iterable

import pytest

DEEP = os.environ.get("RULESLINGER_DEEP") == "1"
"""True in a ``--deep`` run (tests/conftest.py sets the variable for the workers too)."""


def examples(default: int, deep: int) -> int:
    """A property test's ``max_examples``: ``default`` in every run, ``deep`` with ``--deep``."""
    return deep if DEEP else default


def deep_after(values: Iterable, keep: int = 1) -> list:
    """``values`` as ``parametrize`` cases: the first ``keep`` in every run, the others only with ``--deep``."""
    out = []
    for i, v in enumerate(values):
        if i < keep:
            out.append(v)
        else:
            out.append(pytest.param(*(v if isinstance(v, tuple) else (v,)), marks=pytest.mark.deep))
    return out
