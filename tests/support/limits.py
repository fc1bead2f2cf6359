"""The one bound a test may put on a wait: a hang guard, never a speed claim (speed is measured in ``bench/``,
e.g. ``bench/wagons/bench_wagons_limits.py`` for how far past its limit a run ends)."""

from __future__ import annotations

HANG_GUARD = 300.0
"""Seconds a test lets something run that should end (a run given a time limit, a stopped search, a process asked to
exit) before it calls it hung: generous on purpose (a loaded 2-core machine), so it can only catch a hang."""

