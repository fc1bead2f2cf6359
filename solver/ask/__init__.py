"""Questions of one's own: a rules question put in a game's own words, answered by the engines.

A :class:`~solver.ask.question.Question` is data: the game, the domain it ranges over (one of the game's
:class:`~solver.ask.model.DomainKind`, defined in the game's own ``questions`` package beside its engines and listed
by its registration), its quantifier (is there, for every, the most or least, the chance) and a condition over the
domain's named :class:`~solver.ask.model.Measure` values. :func:`solver.ask.engine.ask` answers it with a proof or an
estimate, the witness or counterexample, and the readings it rests on (:class:`~solver.ask.answer.Answer`)::

    from solver.ask.engine import ask
    from solver.ask.question import load_question
    answer = ask(load_question("scenarios/questions/cactus-solo-marshal-round-6.toml"))

This package's ``__init__`` imports nothing: the games' domains import :mod:`solver.ask.model` while the registry
that lists them is still being built.
"""
