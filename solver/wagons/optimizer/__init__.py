"""The Lone Cowboy optimizer: best layouts (rule:W-opt-layout) and best play (rule:W-opt-bestplay).

Imports run one way (each module imports only those above it; ``tests/project/test_import_cycles.py``)::

    quads     what both solver models share: a card's territories, slots, EncodeTimeout
    problem   the problem, the best town so far and the one result builder, the greedy town
    board     the compiled walk (numba): moves, its own scorer, the goal tables
    local     iterated local search on the walk                 <- board
    cpsat     the CP-SAT model and method CpSatProof            <- quads, problem, local
    z3_model, z3_goals, z3   the Z3 model and method Z3Loop     <- quads, problem
    oracle    the exhaustive walk and method Exhaustive         <- problem, board
    layout    best_layout: the greedy seed, then one strategy   <- problem, cpsat, z3, oracle
    bounds    the admissible margin bound of a card set
    lines     a deal's draft lines, the greedy baseline, replays
    dealsearch  the search over a deal's lines                  <- problem, local, layout, bounds, lines
    bestplay  best play for a known deal, the difficulty table  <- problem, layout, lines, dealsearch
    canwin    can this deal be won                              <- lines, dealsearch
    cli       best-layout, best-play, can-win (loads them when a command runs)

Public entry points: :func:`solver.wagons.optimizer.layout.best_layout`,
:func:`solver.wagons.optimizer.problem.greedy_layout`, :func:`solver.wagons.optimizer.oracle.exhaustive_best`,
:func:`solver.wagons.optimizer.bestplay.best_play` / ``best_play_row`` / ``difficulty_table``,
:func:`solver.wagons.optimizer.canwin.can_win` / ``can_win_row``. This file
imports nothing, so ``import solver.wagons.cli.optimizer`` does not load ortools, z3 or numba.
"""
