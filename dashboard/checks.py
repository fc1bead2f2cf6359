"""The Verification page's adapters: run each game's invariant checks in :mod:`solver` and draw
their results (holds / fails, counterexample, rule passage). No check is decided here."""

from __future__ import annotations

import dataclasses
import importlib
import json
from dataclasses import dataclass
from typing import Any, Callable

import polars as pl
import streamlit as st

from dashboard import draw
from dashboard.common import cli_json, dumps
from solver.errors import BadInput


def rules_key(rules: Any) -> str:
    """A Rules options object as canonical JSON (the cache key of a check run)."""
    if rules is None:
        return "{}"
    if hasattr(rules, "to_dict"):
        return dumps(rules.to_dict())
    return dumps(dataclasses.asdict(rules))


def _cli_available(argv: list[str]) -> bool:
    from solver import clikit
    from solver.cli import build_parser

    try:
        build_parser().parse_args(argv)
    except (clikit.UsageError, SystemExit):
        return False
    except Exception:
        return False
    return True


def _rules_from_key(game: str, rules_json: str) -> Any:
    from dashboard.common import rules_class

    cls = rules_class(game)
    if cls is None:
        return None
    data = json.loads(rules_json)
    mod = importlib.import_module(cls.__module__)
    if hasattr(mod, "rules_from"):
        return mod.rules_from(data)
    return cls(**data)


@dataclass(frozen=True)
class Runner:
    game: str
    python: tuple[tuple[str, str], ...]  # (module, function) candidates taking rules=...
    cli: tuple[str, ...]  # contract command giving {"checks": [...]}
    expected_seconds: float = 20.0

    @property
    def needs(self) -> str:
        return " or ".join([f"{m}.{f}" for m, f in self.python] + (["ruleslinger " + " ".join(self.cli)] if self.cli else []))

    def _python(self) -> Callable | None:
        for module, fn in self.python:
            try:
                mod = importlib.import_module(module)
            except ImportError:
                continue
            if hasattr(mod, fn):
                return getattr(mod, fn)
        return None

    def available(self) -> bool:
        return self._python() is not None or (bool(self.cli) and _cli_available(list(self.cli)))

    def run(self, game: str, rules_json: str) -> list[dict]:
        return _run_cached(self.game, rules_json)


@st.cache_data(show_spinner=False, max_entries=32)
def _run_cached(game: str, rules_json: str) -> list[dict]:
    runner = RUNNERS[game]
    fn = runner._python()
    if fn is not None:
        rules = _rules_from_key(game, rules_json)
        result = fn(rules=rules) if rules is not None else fn()
    else:
        result = cli_json(list(runner.cli) + ["--json"])
    return normalise(result)


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
    "wagons": Runner("wagons", (("solver.wagons.verify", "run_checks"), ("solver.wagons.verify", "checks")),
                     ("wagons", "verify"), 20.0),
    "cactus": Runner("cactus", (("solver.cactus.verify", "run_checks"), ("solver.cactus.verify", "checks")),
                     ("cactus", "verify"), 20.0),
    "outlaws": Runner("outlaws", (("solver.outlaws.verify", "run_checks"), ("solver.outlaws.verify", "checks")),
                      ("outlaws", "verify"), 30.0),
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
    if isinstance(cex, dict):
        pos = cex.get("position") if isinstance(cex.get("position"), dict) else cex
        if game == "outlaws" and isinstance(pos, dict) and "street" in pos:
            st.html(draw.outlaws_position_html(pos))
    with st.expander("Counterexample (JSON)", expanded=False):
        st.json(cex)


def show(game: str, checks: list[dict]) -> None:
    """A holds/fails table, then one expander per check with its rule passage and counterexample."""
    if not checks:
        st.info("The verifier returned no checks.")
        return
    held = sum(bool(c["holds"]) for c in checks)
    st.markdown(f"**{held} of {len(checks)} checks hold.**")
    st.dataframe(pl.DataFrame([{"check": str(c["id"]), "holds": bool(c["holds"]),
                                "rule": str(c.get("rule") or ""),
                                "detail": str(c.get("title") or c.get("detail") or c.get("description") or "")}
                               for c in checks]), hide_index=True, width="stretch")
    for c in checks:
        mark = ":material/check_circle:" if c["holds"] else ":material/cancel:"
        with st.expander(f"{'holds' if c['holds'] else 'FAILS'} - {c['id']}", icon=mark, expanded=not c["holds"]):
            passage = _rule_passage(c.get("rule"))
            if passage:
                st.markdown(passage)
            extra = {k: v for k, v in c.items() if k not in ("id", "holds", "counterexample", "rule")}
            if extra:
                st.json(extra, expanded=False)
            if c.get("counterexample") is not None:
                draw_counterexample(game, c["counterexample"])
