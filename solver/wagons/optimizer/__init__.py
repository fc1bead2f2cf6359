"""The Lone Cowboy optimizer: best layouts (rule:W-opt-layout) and best play (rule:W-opt-bestplay).

Imports run one way::

    problem  (the problem, the best town so far, the one result builder, the greedy town)
      -> board  (the compiled walk and its goal tables, numba)
        -> local (iterated local search)  -> cpsat (CP-SAT model and method)
        -> oracle (exhaustive walk)
      -> z3_model -> z3_goals -> z3 (the Z3 model and method)
    layout (best_layout: the greedy seed and one strategy)  -> bestplay (best play for a deal)
    cli (best-layout, best-play; imports layout and bestplay when a command runs)

Public entry points: :func:`solver.wagons.optimizer.layout.best_layout`,
:func:`solver.wagons.optimizer.problem.greedy_layout`, :func:`solver.wagons.optimizer.oracle.exhaustive_best`,
:func:`solver.wagons.optimizer.bestplay.best_play` / ``best_play_row`` / ``difficulty_table``. This file
imports nothing, so ``import solver.wagons.optimizer.cli`` does not load ortools, z3 or numba.
"""
