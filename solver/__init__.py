"""Ruleslinger: rules verification and scoring for three western tabletop games.

Subpackages: ``solver.wagons`` (Circle the Wagons: Lone Cowboy), ``solver.cactus``
(Cactus Town: The Lone Ranger), ``solver.outlaws`` (Outlaws: Last Man Standing).
Shared pieces: ``solver.errors`` (the one bad-input exception), ``solver.data``
(locating and validating the data files in ``scenarios/``), ``solver.register``
(the rules register), ``solver.cli`` (the ``ruleslinger`` command).
"""

__version__ = "0.1.0"
