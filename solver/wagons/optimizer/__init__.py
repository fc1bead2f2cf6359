"""The Lone Cowboy optimizer: best layouts (rule:W-opt-layout) and best play (rule:W-opt-bestplay).

Imports run one way (each module imports only those above it; ``tests/test_import_cycles.py``)::

    problem   the problem, the best town so far and the one result builder, the greedy town
    board     the compiled walk (numba): moves, its own scorer, the goal tables
    local     iterated local search on the walk                 <- board
    cpsat     the CP-SAT model and method CpSatProof            <- problem, local
    z3_model, z3_goals, z3   the Z3 model and method Z3Loop     <- problem
    oracle    the exhaustive walk and method Exhaustive         <- problem, board
    layout    best_layout: the greedy seed, then one strategy   <- problem, cpsat, z3, oracle
    bestplay  best play for a known deal, the difficulty table  <- problem, layout
    cli       best-layout, best-play (loads layout, bestplay when a command runs)

Public entry points: :func:`solver.wagons.optimizer.layout.best_layout`,
:func:`solver.wagons.optimizer.problem.greedy_layout`, :func:`solver.wagons.optimizer.oracle.exhaustive_best`,
:func:`solver.wagons.optimizer.bestplay.best_play` / ``best_play_row`` / ``difficulty_table``. This file
imports nothing, so ``import solver.wagons.optimizer.cli`` does not load ortools, z3 or numba.
"""
