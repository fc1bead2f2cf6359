"""Caching of results computed under a time limit: only final answers are shared.

``st.cache_data`` shares a result with every session. A search cut short by its time limit
("undecided", "best so far") depends on how busy the server was; cached, it would be served to
other sessions as if it were the answer. :func:`cache_final` caches a result only when
``is_final(result)`` says it does not depend on the time limit (proven, exhausted, found), and
recomputes it otherwise.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
from collections.abc import Callable
from typing import Any

import streamlit as st


class _NotFinal(Exception):
    """Carries a time-limited result out of the cached function (exceptions are never cached)."""

    def __init__(self, value: Any):
        super().__init__("not final")
        self.value = value


def cache_final(is_final: Callable[[Any], bool], **cache_options) -> Callable:
    """``st.cache_data(**cache_options)`` that keeps only results for which ``is_final`` holds."""

    def decorate(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def checked(*args, **kwargs):
            result = fn(*args, **kwargs)
            if not is_final(result):
                raise _NotFinal(result)
            return result

        cached = st.cache_data(show_spinner=False, **cache_options)(checked)

        @functools.wraps(fn)
        def call(*args, **kwargs):
            try:
                return cached(*args, **kwargs)
            except _NotFinal as kept_out:
                return kept_out.value

        call.clear = cached.clear
        return call

    return decorate


def proven(result: Any) -> bool:
    """A search answer that is a proof (``proven`` / ``proven_optimal`` true)."""
    return isinstance(result, dict) and bool(result.get("proven", result.get("proven_optimal")))


def not_stopped_by_time(result: Any) -> bool:
    """A bounded search that did not stop on its time limit (its answer is the same on any machine)."""
    return isinstance(result, dict) and result.get("stopped") != "time"


def all_checks_decided(result: Any) -> bool:
    """Verification checks none of which is left undecided (``holds`` null) by a time limit."""
    return isinstance(result, list) and all(isinstance(c, dict) and c.get("holds") is not None for c in result)


def dumps(data: Any) -> str:
    """Canonical JSON text: the cache key of an input."""
    return json.dumps(data, sort_keys=True, default=_default)


def _default(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj):
        return dataclasses.asdict(obj)
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    return str(obj)
