"""The Verification page's adapters: run each game's invariant checks in :mod:`solver` and draw
their results (holds / fails, counterexample, rule passage). No check is decided here."""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import polars as pl
import streamlit as st

from dashboard import draw
from dashboard.caching import all_checks_decided, cache_final
from dashboard.common import dumps
from solver.errors import BadInput


def rules_key(rules: Any) -> str:
    """A Rules options object as canonical JSON (the cache key of a check run)."""
    if rules is None:
        return "{}"
    for name in ("to_dict", "to_json"):
        if hasattr(rules, name):
            return dumps(getattr(rules, name)())
    return dumps(dataclasses.asdict(rules))


def _rules_from_key(game: str, rules_json: str) -> Any:
    from dashboard.common import rules_class

    cls = rules_class(game)
    if cls is None:
        return None
    data = json.loads(rules_json)
    mod = importlib.import_module(cls.__module__)
    for name in ("rules_from",):
        if hasattr(mod, name):
            return getattr(mod, name)(data)
    for name in ("from_dict", "from_json"):
        if hasattr(cls, name):
            return getattr(cls, name)(data)
    return cls(**data)


def _fn(module: str, name: str) -> Callable | None:
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    return getattr(mod, name, None)


@dataclass(frozen=True)
class Runner:
    """How to run one game's checks: the engine function and the options the page offers."""

    game: str
    module: str
    function: str
    expected_seconds: float = 20.0

    @property
    def needs(self) -> str:
        return f"{self.module}.{self.function}"

    def available(self) -> bool:
        return _fn(self.module, self.function) is not None

    def run(self, game: str, rules_json: str, options_json: str = "{}") -> list[dict]:
        return _run_cached(game, rules_json, options_json)


def _call(game: str, rules: Any, options: dict) -> Any:
    runner = RUNNERS[game]
    fn = _fn(runner.module, runner.function)
    if game == "cactus":  # the deck checks try every reading themselves
        return fn(players=tuple(options.get("players", (2, 3, 4, 5))), quick=bool(options.get("quick", True)))
    if game == "outlaws":
        return fn(rules=rules, time_limit=float(options.get("time_limit", 30.0)),
                  mutations=frozenset(options.get("mutations", ())))
    return fn(rules=rules) if rules is not None else fn()


@cache_final(all_checks_decided, max_entries=32)
def _run_cached(game: str, rules_json: str, options_json: str) -> list[dict]:
    return normalise(_call(game, _rules_from_key(game, rules_json), json.loads(options_json)))


def normalise(result: Any) -> list[dict]:
    """Checks as plain dicts ``{"id", "holds", "counterexample", "rule", ...}`` whatever the engine
    returns (a contract dict, a list of dataclasses, or a list of dicts)."""
    if isinstance(result, dict) and "checks" in result:
        result = result["checks"]
    out = []
    for c in result or []:
        if dataclasses.is_dataclass(c):
            c = c.to_dict() if hasattr(c, "to_dict") else dataclasses.asdict(c)
        if not isinstance(c, dict) or "id" not in c or "holds" not in c:
            raise BadInput(f"verifier returned an unexpected check: {str(c)[:80]}")
        out.append(dict(c))
    return out


RUNNERS: dict[str, Runner] = {
    "wagons": Runner("wagons", "solver.wagons.verify", "run_checks", 20.0),
    "cactus": Runner("cactus", "solver.cactus.verify", "verify", 60.0),
    "outlaws": Runner("outlaws", "solver.outlaws.verify", "run_checks", 60.0),
}


def _rule_passage(rule: str | None) -> str:
    """The register's source passage for a rule id, else the check's own text."""
    if not rule:
        return ""
    from solver.register import register

    for token in str(rule).replace(",", " ").split():
        rid = token.removeprefix("rule:")
        try:
            r = register().get(rid)
        except BadInput:
            continue
        return f"**{r.id}** {r.title}: {r.source}"
    return str(rule)


def draw_counterexample(game: str, cex: Any) -> None:
    """A counterexample drawn as a position where the engine gave one, plus its raw JSON."""
    if cex is None:
        return
    if game == "outlaws" and isinstance(cex, dict):
        shown = False
        for label in ("position", "before", "after"):
            pos = cex.get(label)
            if isinstance(pos, dict) and "street" in pos:
                if label == "after" and isinstance(cex.get("action"), dict):
                    st.markdown(f"**Action:** `{json.dumps(cex['action'])}`")
                st.markdown(f"**{label.title()}**")
                _safe_position(pos)
                shown = True
        if not shown and "street" in cex:
            _safe_position(cex)
    with st.expander("Counterexample (JSON)", expanded=False):
        st.json(cex)


VERDICT = {True: "holds", False: "FAILS", None: "undecided"}


def _safe_position(pos: dict) -> None:
    try:
        st.html(draw.outlaws_position_html(pos))
    except (KeyError, TypeError, ValueError, AttributeError):
        st.caption("(this counterexample cannot be drawn as a street)")


def show(game: str, checks: list[dict]) -> None:
    """A holds/fails table, then one expander per check with its rule passage and counterexample."""
    if not checks:
        st.info("The verifier returned no checks.")
        return
    held = sum(c["holds"] is True for c in checks)
    failed = sum(c["holds"] is False for c in checks)
    st.markdown(f"**{held} of {len(checks)} checks hold, {failed} fail"
                + (f", {len(checks) - held - failed} undecided within the time limit" if held + failed < len(checks) else "")
                + ".**")
    st.dataframe(pl.DataFrame([{"check": str(c["id"]), "result": VERDICT[c["holds"]],
                                "rule": str(c.get("rule") or ""),
                                "detail": str(c.get("title") or c.get("detail") or c.get("description") or "")}
                               for c in checks]), hide_index=True, width="stretch")
    for c in checks:
        mark = {True: ":material/check_circle:", False: ":material/cancel:", None: ":material/help:"}[c["holds"]]
        with st.expander(f"{VERDICT[c['holds']]} - {c['id']}", icon=mark, expanded=c["holds"] is False):
            passage = _rule_passage(c.get("rule"))
            if passage:
                st.markdown(passage)
            extra = {k: v for k, v in c.items() if k not in ("id", "holds", "counterexample", "rule")}
            if extra:
                st.json(extra, expanded=False)
            if c.get("counterexample") is not None:
                draw_counterexample(game, c["counterexample"])
