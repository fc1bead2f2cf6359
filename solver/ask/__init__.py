"""Questions of one's own: a rules question put in a game's own words, answered by the engines.

A :class:`~solver.ask.question.Question` is data: the game, the domain it ranges over (one of the game's
:class:`~solver.ask.model.DomainKind`, defined in the game's own ``questions`` module beside its engines), its
quantifier (is there, for every, the most or least, the chance) and a condition over the domain's named
:class:`~solver.ask.model.Measure` values. :func:`ask` answers it with a proof or an estimate, the witness or
counterexample, and the readings it rests on (:class:`~solver.ask.answer.Answer`).
"""

from solver.ask.answer import Answer
from solver.ask.engine import ask
from solver.ask.question import Question, load_question, question_from_doc

__all__ = ["Answer", "Question", "ask", "load_question", "question_from_doc"]
