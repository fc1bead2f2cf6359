"""The CP-SAT prover of a best layout (rule:W-opt-layout), the default method; its Z3 twin is
:mod:`solver.wagons.optimizer.z3solver`.

- :mod:`.town`: :class:`~.town.CpTown`, the model's view of a town (slots, cell relations, largest groups);
- :mod:`.encode`: :func:`~.encode.encode` the towns one ordered list of cards can build, and ``decode``;
- :mod:`.goals`: the score's terms (the groups and the goal cards, :func:`~.goals.player_score`);
- :mod:`.solve`: :func:`~.solve.solve` a model above an incumbent (the proof phases);
- :mod:`.proof`: the method :class:`~.proof.CpSatProof` and :func:`~.proof.reusing_models`.

The modules import one way: ``town`` <- ``encode`` <- ``goals``, ``solve`` <- ``proof``.
"""
