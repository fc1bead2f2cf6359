"""The one progress report of long work: checks, batches, searches, play-outs, answers.

Every producer in ``solver/`` takes an optional ``progress`` argument of type :data:`OnProgress` and calls it with a
:class:`Progress`; the command line shows it through one adapter (:class:`solver.clikit.ProgressLines`: lines on
standard error, silent with ``--quiet``, kept off standard output with ``--json``) and the dashboard through one
other (``dashboard.shared.work.ProgressBox``, read by the page's bar). A callback may raise to end the work (the
dashboard's Stop does): producers let that exception through.

- a count of work (checks, games, runs, play-outs): ``done`` of ``total`` ``unit``, and ``what`` is the item just
  done or being done;
- a search (a layout, a deal's lines): ``best`` found so far and the proven upper ``bound`` on every answer, the
  value named by ``unit`` ("score", "margin"); ``proven`` once they meet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Progress", "OnProgress"]


@dataclass(frozen=True)
class Progress:
    """Where long work is (module docstring): a count, a search's best and bound, or both; ``elapsed`` seconds
    since the work began when it measures them (None: the adapters use their own clock)."""

    done: int | None = None      # units done; None: the work is not counted
    total: int | None = None     # units in all; None: not known ahead
    unit: str = ""               # what is counted ("checks", "games") or, in a search, the value ("score", "margin")
    what: str = ""               # the item just done or being done, or the state of the work, in words
    best: int | None = None      # a search's best value so far; None: nothing found yet
    bound: int | None = None     # a search's proven upper bound on every answer; None: none proven yet
    elapsed: float | None = None

    @property
    def proven(self) -> bool:
        """A search whose best meets its proven bound: the best is optimal."""
        return self.best is not None and self.bound is not None and self.bound <= self.best

    @property
    def fraction(self) -> float | None:
        """The share done, 0..1, when the work is counted against a known total; else None."""
        if self.done is None or not self.total:
            return None
        return max(0.0, min(1.0, self.done / self.total))

    @property
    def searching(self) -> bool:
        """A search's report (a best or a bound), not only a count."""
        return self.best is not None or self.bound is not None

    def text(self) -> str:
        """The report in words, as both adapters show it: ``3 of 12 checks, hand-size/boomtown``,
        ``best margin 5, none above 9``."""
        parts = []
        if self.done is not None:
            count = f"{self.done:,} of {self.total:,}" if self.total else f"{self.done:,}"
            parts.append(f"{count} {self.unit}".strip() if not self.searching else count)
        if self.searching:
            name = f"best {self.unit}".strip()
            found = f"no {self.unit or 'answer'} found yet" if self.best is None else f"{name} {self.best}"
            if self.proven:
                found += ", proven optimal"
            elif self.bound is not None:
                found += f", none above {self.bound}"
            parts.append(found)
        if self.what:
            parts.append(self.what)
        return ", ".join(parts)


OnProgress = Callable[[Progress], None]
"""The one progress callback: called with each new :class:`Progress` (from the work's own thread)."""
