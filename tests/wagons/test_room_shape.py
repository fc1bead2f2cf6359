"""The Lone Cowboy room keeps its benchmark baselines in ``bench/``, not in the product (the size of its modules and
folders is the whole repository's rule, ``tests/project/test_layout.py``)."""

from __future__ import annotations

from tests.support.paths import ROOT

WAGONS = ROOT / "solver" / "wagons"


def test_the_benchmark_baselines_live_in_bench_and_no_bench_patches_the_product():
    """The earlier methods the benches compare against (one proof per draft line, the triangle clauses built three
    times) are in ``bench/wagons/baselines.py``; the product keeps only what it uses, and a bench hands its
    baseline to the product as arguments instead of patching it."""
    product = "\n".join(p.read_text(encoding="utf-8") for p in WAGONS.rglob("*.py"))
    for gone in ("each-line", "best_play_each_line", "_triangles_full", '"unique"', "SEARCHES"):
        assert gone not in product, gone
    for bench in (ROOT / "bench").rglob("*.py"):
        text = bench.read_text(encoding="utf-8")
        assert "unittest.mock" not in text and "monkeypatch" not in text, bench.name


def test_dead_and_test_only_code_is_out_of_the_product():
    """Nothing called ``check_status`` or ``new_solver``; the others only tests call, and they live in
    ``tests/support`` (or the test that reads them)."""
    product = "\n".join(p.read_text(encoding="utf-8") for p in WAGONS.rglob("*.py"))
    for gone in ("def check_status", "def new_solver", "MUTATION_BREAKS", "def zygote_pid", "def compiled_score",
                 "def window_best", "def _score_placements"):
        assert gone not in product, gone
