"""The Lone Cowboy room stays readable (issue 31): no module of ``solver/wagons`` over 600 lines, no folder of it
with more than 12 modules, and the benchmark baselines live in ``bench/``, not in the product."""

from __future__ import annotations

from tests.support.paths import ROOT

WAGONS = ROOT / "solver" / "wagons"
MOST_LINES = 600
MOST_MODULES = 12


def test_no_wagons_module_is_over_600_lines():
    long = {str(p.relative_to(ROOT)): n for p in WAGONS.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert long == {}


def test_no_wagons_folder_holds_more_than_12_modules():
    folders = {p.parent for p in WAGONS.rglob("*.py")}
    crowded = {str(f.relative_to(ROOT)): n for f in folders if (n := len(list(f.glob("*.py")))) > MOST_MODULES}
    assert crowded == {}


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
