"""What the fuzz tests share: hostile values and documents, the hang guard and the one-line-error checks
(``tests/fuzz/``). Case counts per loader are the ``max_examples`` below (see docs/scale.md)."""

from __future__ import annotations

import copy
import json
import os
import signal
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from solver.errors import BadInput
from solver.io.read import MAX_DEPTH
from tests.support.depth import examples

FUZZ_EXAMPLES = int(os.environ.get("RULESLINGER_FUZZ_EXAMPLES", str(examples(100, 300))))
"""Cases per loader fuzzer: 100 in the default run, 300 with ``--deep``; set RULESLINGER_FUZZ_EXAMPLES=5000 for a
deeper run."""
FUZZ = settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                HealthCheck.function_scoped_fixture])
"""Default fuzz budget per loader (deadline off: the alarm below catches hangs)."""

HANG_SECONDS = 20


@contextmanager
def no_hang(seconds: int = HANG_SECONDS):
    """Fail (instead of hanging CI) when the body runs longer than ``seconds``."""

    def boom(signum, frame):
        raise AssertionError(f"hang: still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def assert_one_line(exc: BaseException) -> None:
    text = str(exc)
    assert text and "\n" not in text and "Traceback" not in text, repr(text)


# --- hostile documents -------------------------------------------------------------------------

HUGE = [10**30, -(10**30), 2**63, -(2**63) - 1, 10**400, 1e308, -1e308, 1.5, -1, 0, True, False, None]
"""Numbers no real file holds (and values of the wrong kind)."""

json_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                         st.text(max_size=20), st.sampled_from(HUGE))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)), max_leaves=30)


def deep(levels: int, kind: str = "[") -> str:
    close = {"[": "]", "{": "}"}[kind]
    if kind == "{":
        return '{"a":' * levels + "1" + close * levels
    return kind * levels + close * levels


# --- structure-aware mutation of a valid document (used by the per-game loader fuzzers) ----------

_HOSTILE_VALUES = st.one_of(
    st.sampled_from(HUGE + ["", "?", "nosuch", "A", "x" * 10_000, "é\u202e", [], {}, [[]], [None], {"": None},
                            json.loads(deep(MAX_DEPTH - 4)), -0.0, 0.5, 2**31, -(2**31), 17, 18, 99, 1e-300]),
    json_values,
)
HOSTILE_VALUES = _HOSTILE_VALUES.map(copy.deepcopy)
"""Hostile values, each a fresh copy (a shared list mutated twice could end up containing itself)."""


def _paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, prefix + (i,))


def _get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


@st.composite
def mutated_document(draw, valid, max_mutations: int = 3):
    """A copy of the valid JSON document ``valid`` with 1..max_mutations hostile edits: a value replaced
    by a hostile one, a key deleted or added, a list item duplicated, removed or the list emptied."""
    doc = json.loads(json.dumps(valid))
    for _ in range(draw(st.integers(1, max_mutations))):
        if draw(st.integers(0, 29)) == 17:
            return draw(HOSTILE_VALUES)  # the whole document replaced
        paths = list(_paths(doc))[1:]
        shallow = [p for p in paths if len(p) == 1]  # top-level fields: as likely as all the deep ones
        if not paths:
            continue
        path = draw(st.sampled_from(shallow if shallow and draw(st.booleans()) else paths))
        parent, key = _get(doc, path[:-1]), path[-1]
        op = draw(st.sampled_from(["replace", "replace", "replace", "delete", "add", "duplicate", "empty"]))
        if op == "replace":
            parent[key] = draw(HOSTILE_VALUES)
        elif op == "delete":
            del parent[key]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "", "__proto__", str(key) + "x"]))] = draw(HOSTILE_VALUES)
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(key, json.loads(json.dumps(parent[key])))
        elif op == "empty" and isinstance(parent[key], (list, dict)):
            parent[key] = type(parent[key])()
    return doc


KNOWN_BUGS: list[tuple[type, str]] = []
"""(exception type, "file.py:line") of loader bugs reported to their owners and pinned by an explicit
``xfail(strict=True)`` test; the fuzzers step over exactly these so they keep looking for others."""


def _known(exc: BaseException) -> bool:
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return any(isinstance(exc, kind) and where == spot for kind, spot in KNOWN_BUGS)


def assert_loader_is_total(load, doc):
    """``load(doc)`` returns or raises a one-line BadInput; anything else is a bug in the loader."""
    from hypothesis import reject

    try:
        with no_hang():
            return load(doc)
    except BadInput as exc:
        assert_one_line(exc)
        return None
    except Exception as exc:
        if _known(exc):
            reject()
        raise
