"""The Lone Cowboy optimizer: best layouts (rule:W-opt-layout) and best play (rule:W-opt-bestplay).

Imports run one way (each module imports only those above it; ``tests/project/test_import_cycles.py``)::

    quads     what both solver models share: a card's territories, slots, EncodeTimeout
    problem   the problem, the best town so far and the one result builder, the greedy town
    walk/     the compiled walk (numba): its cache, its scorer, its moves, the local search on it
    bounds    the admissible margin bound of a card set
    bnb/      the compiled branch and bound and method BranchAndBound    <- problem, walk, bounds
    cpsat/    the CP-SAT model and method CpSatProof            <- quads, problem, walk
    z3solver/ the Z3 model and method Z3Loop                    <- quads, problem
    oracle    the exhaustive walk and method Exhaustive         <- problem, walk
    layout    best_layout: the greedy seed, then one strategy   <- problem, cpsat, z3solver, oracle, bnb
    lines     a deal's draft lines, the greedy baseline, replays
    proofworkers  the worker processes a deal search's line proofs pause and resume in
    dealsearch  the search over a deal's lines                  <- problem, walk, layout, bounds, lines
    bestplay  best play for a known deal, the difficulty table  <- problem, layout, lines, dealsearch
    canwin    can this deal be won                              <- lines, dealsearch

The command lines (best-layout, best-play, can-win) are :mod:`solver.wagons.cli.optimizer`.

Public entry points: :func:`solver.wagons.optimizer.layout.best_layout`,
:func:`solver.wagons.optimizer.problem.greedy_layout`, :func:`solver.wagons.optimizer.oracle.exhaustive_best`,
:func:`solver.wagons.optimizer.bestplay.best_play` / ``best_play_row`` / ``difficulty_table``,
:func:`solver.wagons.optimizer.canwin.can_win` / ``can_win_row``. This file
imports nothing, so ``import solver.wagons.cli.optimizer`` does not load ortools, z3 or numba.
"""
