"""The character table (rule:O-actions): one module per character, named after it, each holding its
:class:`Character` record with its ability's legal actions (``targets``) and resolution (``resolve``) side by side,
its words and its Z3 transition. :data:`TABLE` lists them in the rulebook's order ("Abilità dei Personaggi"), the
order of the box's roster (:data:`solver.outlaws.position.CHARACTERS`, rule:O-components). The engine reaches an
ability only through this table: ``legal_actions`` (:mod:`solver.outlaws.actions`), the resolution
(:mod:`solver.outlaws.apply`), the words of an action and the Z3 model (:mod:`solver.outlaws.verify.model`).
docs/how-to.md says how to add an ability.
"""

from __future__ import annotations

from solver.outlaws.characters import (
    bandit,
    dancer,
    governor,
    hitman,
    indian,
    journalist,
    mayor,
    merchant,
    reverend,
    sheriff,
)
from solver.outlaws.characters.common import Character

TABLE: dict[str, Character] = {m.CHARACTER.name: m.CHARACTER for m in (
    governor, hitman, sheriff, indian, merchant, dancer, journalist, bandit, reverend, mayor)}
"""Every character of the box by name, in the rulebook's order."""

__all__ = ["TABLE", "Character"]
