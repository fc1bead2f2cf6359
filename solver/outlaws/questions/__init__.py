"""The question domains and measures of Outlaws (solver.ask): what a rules question can range over and the named
quantities its condition compares, each citing the rule it reads. One domain: the lines of play from a position
(:mod:`solver.outlaws.questions.lines`), with the measures of :mod:`solver.outlaws.questions.measures`."""

from __future__ import annotations

from solver.ask.model import DomainKind
from solver.outlaws.questions.lines import LINES

DOMAINS: tuple[DomainKind, ...] = (LINES,)
"""Every kind of domain a question of this game can range over."""
