"""Selectable readings of the Outlaws rules (open-questions.md O1-O13); defaults are the documented ones."""

from __future__ import annotations

from dataclasses import dataclass, fields

from solver.errors import BadInput
from solver.io import short_repr

CHOICES = {
    "first_player": ("A", "B", "random"),
    "refill_empty_reserve": ("leave_empty", "slide_other_end"),
    "sheriff_save": ("ugly", "stop"),
    "reverend_left_of": ("target", "sheriff"),
    "bandit_empty_supply": ("allowed", "forbidden"),
    "sudden_death_repeats": ("once", "again"),
}


@dataclass(frozen=True)
class Rules:
    """Options for the open readings.

    - ``first_player`` (rule:O13): who moves first at the set-up; default "A".
    - ``refill_empty_reserve`` (rule:O2): with an empty reserve, column 0 stays empty ("leave_empty",
      default) or the tokens beyond the taken column slide toward it and column 7 stays empty.
    - ``sheriff_save`` (rule:O6): the Sheriff saving his Governor arrests the Hitman, an Ugly victory
      ("ugly", default), or only stops him ("stop").
    - ``reverend_left_of`` (rule:O7): the Reverend reacts when the immobilized Bandit / arrested
      Hitman stands immediately to his left ("target", default) or the arresting Sheriff does.
    - ``bandit_empty_supply`` (rule:O10): the Bandit may call when the opposing supply lacks the token
      and gains nothing ("allowed", default) or may not ("forbidden").
    - ``sudden_death_repeats`` (rule:O11): sudden death triggers only once ("once", default; a game
      whose 6 Bullets and Handcuffs are used up again cannot end) or again each time ("again").
    """

    first_player: str = "A"
    refill_empty_reserve: str = "leave_empty"
    sheriff_save: str = "ugly"
    reverend_left_of: str = "target"
    bandit_empty_supply: str = "allowed"
    sudden_death_repeats: str = "once"

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if value not in CHOICES[f.name]:
                raise BadInput(f"rules.{f.name}: {short_repr(value)} is not one of {', '.join(CHOICES[f.name])}")

    def to_json(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_cli(cls, items: list[str] | None) -> Rules:
        """Rules from the CLI's repeated ``--rule NAME=VALUE`` options."""
        vals = {}
        for item in items or []:
            key, sep, value = item.partition("=")
            if not sep or key not in CHOICES:
                raise BadInput(f"--rule {short_repr(item)}: expected NAME=VALUE with NAME in {', '.join(CHOICES)}")
            vals[key] = value
        return cls(**vals)

    @classmethod
    def from_json(cls, data: dict | None) -> Rules:
        data = data or {}
        if not isinstance(data, dict):
            raise BadInput("rules: expected an object")
        unknown = set(data) - set(CHOICES)
        if unknown:
            raise BadInput(f"rules: unknown option {sorted(unknown)[0]!r}")
        return cls(**data)
