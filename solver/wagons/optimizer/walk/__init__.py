"""The compiled walk (numba): every legal placement sequence of an ordered list of cards, and what runs on it.

- :mod:`.compiled`: the compiled code's cache and its compilation in the background (``njit``, ``Warming``);
- :mod:`.scorer`: the walk's own scorer and the goal cards as arrays (``goal_tables``, the kind numbers);
- :mod:`.board`: the board of cell codes, the moves (rule:W-place) and the depth-first :func:`~.board.walk`;
- :mod:`.local`: the iterated local search that re-places a few cards at a time on the walk.

The exhaustive oracle (:mod:`solver.wagons.optimizer.oracle`) and the branch and bound
(:mod:`solver.wagons.optimizer.bnb`) run on it too. Imports run one way: compiled <- scorer <- board <- local.
"""
