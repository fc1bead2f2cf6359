"""Results computed under a time limit are never cached for other sessions (issue 16)."""

from __future__ import annotations

from dashboard.shared.caching import all_checks_decided, cache_final, not_stopped_by_time, proven
from tests.support.paths import ROOT


def test_only_final_results_are_cached():
    calls = []

    @cache_final(proven, max_entries=8)
    def search(key: str, final: bool) -> dict:
        calls.append(key)
        return {"key": key, "proven": final}

    search.clear()
    assert search("a", False) == {"key": "a", "proven": False}
    assert search("a", False) == {"key": "a", "proven": False}
    assert calls == ["a", "a"]  # undecided: computed again each time
    search("b", True)
    search("b", True)
    assert calls == ["a", "a", "b"]  # proven: cached


def test_the_final_tests():
    assert proven({"proven_optimal": True}) and not proven({"proven_optimal": False}) and not proven(None)
    assert not_stopped_by_time({"stopped": None, "found": False}) and not not_stopped_by_time({"stopped": "time"})
    assert all_checks_decided([{"holds": True}, {"holds": False}]) and not all_checks_decided([{"holds": None}])


def test_every_time_limited_dashboard_cache_keeps_only_final_results():
    """The cached functions that take a time limit are all wrapped by cache_final (none by st.cache_data alone)."""
    import ast

    root = ROOT / "dashboard"
    offenders = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef):
                continue
            names = [a.arg for a in node.args.args + node.args.kwonlyargs]
            plain = [d for d in node.decorator_list if "cache_data" in ast.unparse(d) or "cache_resource" in ast.unparse(d)]
            if plain and ("time_limit" in names or "options_json" in names):
                offenders.append(f"{path.name}:{node.name}")
    assert offenders == []


def test_the_cactus_pages_engine_calls_are_cached():
    """Each rerun of the Cactus page asks the engine again unless these are cached (a helper slipped in under
    ``decide``'s decorator once and took its cache: so exactly these four are cached, in the page and the
    modules of its tabs)."""
    import ast

    cached = {node.name for name in ("page.py", "town_tab.py", "duel_tab.py")
              for node in ast.walk(ast.parse((ROOT / "dashboard" / "cactus" / name).read_text()))
              if isinstance(node, ast.FunctionDef) and any("cache_data" in ast.unparse(d) for d in node.decorator_list)}
    assert cached == {"marshal", "decide", "duel", "example_position"}
