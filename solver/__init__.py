"""Ruleslinger: rules verification and scoring for three western tabletop games.

Subpackages: ``solver.wagons`` (Circle the Wagons: Lone Cowboy), ``solver.cactus``
(Cactus Town: The Lone Ranger), ``solver.outlaws`` (Outlaws: Last Man Standing).
Each game package exports the same game contract (``docs/conventions.md``). Shared pieces:
``solver.errors`` (the one bad-input exception), ``solver.io`` (safe JSON/TOML reading),
``solver.paths`` (where the data files in ``scenarios/`` are), ``solver.register`` (the rules
register), ``solver.clikit`` and ``solver.cli`` (the ``ruleslinger`` command), ``solver.execution.executor``
and ``solver.execution.batches`` (large batches), ``solver.deps`` (the start-up dependency check).
"""

__version__ = "0.1.0"
