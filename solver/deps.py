"""The run-time dependencies (pyproject.toml), checked at start-up by the ``ruleslinger`` command
and the dashboard: a missing one is one clear line naming it, before any command or page runs,
instead of a traceback half-way through a command.
"""

from __future__ import annotations

from importlib.util import find_spec

ENGINES = {"z3": "z3-solver", "ortools": "ortools", "numba": "numba", "polars": "polars", "dask": "dask",
           "distributed": "dask[distributed]"}
"""Import name -> distribution name of what the engines and the command line use."""
DASHBOARD = {"streamlit": "streamlit", "altair": "altair"}
"""What the dashboard adds."""


class MissingDependency(RuntimeError):
    """A declared dependency is not installed (not bad input: the installation is incomplete)."""


def check(needed: dict[str, str] = ENGINES) -> None:
    """Raise :class:`MissingDependency` naming every module of ``needed`` that is not installed."""
    missing = sorted(dist for name, dist in needed.items() if find_spec(name) is None)
    if missing:
        raise MissingDependency(f"missing dependenc{'y' if len(missing) == 1 else 'ies'} {', '.join(missing)}: "
                                "install the project (python3 run.py sets up .venv, or pip install -e .)")
