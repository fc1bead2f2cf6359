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
