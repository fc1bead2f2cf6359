"""How ``python3 run.py test`` shares the test files between its two workers (``-n 2 --dist loadfile``).

Each test file is one unit, run whole by one worker, as pytest-xdist's ``loadfile`` does; the browser tests
(``tests/browser/``) are one unit together, sent first. So at most one Chromium and one dashboard server work at a
time: a browser test spends much of its time waiting for a page's run, and the other worker's tests use that core
meanwhile, where two browser files at once (``loadfile`` sends the files with the fewest tests last, and those are
the browser files) left both cores waiting at once and the run ended on a long browser file. The rest follow in
``loadfile``'s order (most tests first)."""

from __future__ import annotations

from xdist.scheduler import LoadFileScheduling

BROWSER = "tests/browser"


class BrowserFilesFirst(LoadFileScheduling):
    """``loadfile`` with every browser test in one unit that the first worker to ask takes."""

    def _split_scope(self, nodeid: str) -> str:
        path = nodeid.split("::", 1)[0]
        return BROWSER if path.startswith(BROWSER + "/") else path

    def _assign_work_unit(self, node) -> None:  # type: ignore[no-untyped-def]
        if BROWSER in self.workqueue:
            self.workqueue.move_to_end(BROWSER, last=False)
        super()._assign_work_unit(node)
