"""The suite's two depths (tests/conftest.py): the default run, and ``--deep`` (``python3 run.py test --deep``),
which adds more random instances of the slow oracle cross-checks. :func:`deep_after` marks a parametrization's
later cases ``deep``: its first ones run in every suite, so the check itself never leaves the default run."""

from __future__ import annotations

from collections.abc import Iterable

import pytest


def deep_after(values: Iterable, keep: int = 1) -> list:
    """``values`` as ``parametrize`` cases: the first ``keep`` in every run, the others only with ``--deep``."""
    out = []
    for i, v in enumerate(values):
        if i < keep:
            out.append(v)
        else:
            out.append(pytest.param(*(v if isinstance(v, tuple) else (v,)), marks=pytest.mark.deep))
    return out
