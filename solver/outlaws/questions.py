"""The question domains and measures of this game (solver.ask): what a rules question can range over and the
named quantities its condition compares, each citing the rule it reads. Filled in beside the engines."""

from __future__ import annotations

from solver.ask.model import DomainKind

DOMAINS: tuple[DomainKind, ...] = ()
"""Every kind of domain a question of this game can range over."""
