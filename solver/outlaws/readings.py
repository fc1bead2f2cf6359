"""Selectable readings of the Outlaws rules (docs/open-questions.md O1-O17); defaults follow the text.

Every option is a field of :class:`OutlawsReadings` with its allowed values in :data:`CHOICES` (the first value
is the default) and a one-line description in :data:`DESCRIPTIONS`; the CLI's ``--rule`` help is
generated from them (:func:`add_rule_option`), so a new option shows up everywhere at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from solver.outlaws.victory_names import victory_name
from solver.readings.base import Readings

CHOICES = {
    "first_player": ("A", "B", "random"),
    "refill_empty_reserve": ("leave_empty", "slide_other_end"),
    "sheriff_save": ("ugly", "stop"),
    "reverend_left_of": ("target", "sheriff"),
    "bandit_empty_supply": ("allowed", "forbidden"),
    "sudden_death_repeats": ("repeats", "once"),
    "mayor_governor": ("extended", "not_extended"),
    "mayor_reverend": ("extended", "not_extended"),
    "target_immobilized": ("allowed", "forbidden"),
    "optional_effects": ("choice", "always"),
    "actions_per_turn": ("exactly_two", "one_or_two"),
}
"""Option name -> allowed values; the first value is the default."""

RULE_IDS = {
    "first_player": "O13", "refill_empty_reserve": "O2", "sheriff_save": "O6", "reverend_left_of": "O7",
    "bandit_empty_supply": "O10", "sudden_death_repeats": "O11", "mayor_governor": "O14",
    "mayor_reverend": "O14-reverend", "target_immobilized": "O15", "optional_effects": "O16",
    "actions_per_turn": "O17",
}
"""Option name -> the open-question id it reads (docs/open-questions.md, docs/register/outlaws.toml)."""

DESCRIPTIONS = {
    "first_player": "who moves first at the set-up (not in the text)",
    "refill_empty_reserve": "empty reserve: column 0 stays empty, or the far tokens slide and column 7 stays empty",
    "sheriff_save": f"the Sheriff saving his Governor arrests the Hitman, winning {victory_name('ugly')}, or only "
                    "stops him",
    "reverend_left_of": "the Reverend reacts when the target (Bandit/Hitman) or the Sheriff is to his left",
    "bandit_empty_supply": "the Bandit may call a token the opposing supply lacks (gains nothing) or may not",
    "sudden_death_repeats": "sudden death triggers every time its condition holds again, or once a game",
    "mayor_governor": "the Mayor extends the Governor (Election token at i-1..i+1) or not",
    "mayor_reverend": "the Mayor extends the Reverend (Bandit/Hitman up to two places to his left) or not",
    "target_immobilized": "abilities may aim at an immobilized character (reveal, call, mark) or may not",
    "optional_effects": "'puoi tenere il gettone', 'lo puoi immobilizzare': the actor may decline, or never",
    "actions_per_turn": "exactly two actions a turn (a fake swap passes), or a turn may end after one",
}


@dataclass(frozen=True)
class OutlawsReadings(Readings):
    """Options for the open readings (default: the first value of :data:`CHOICES`).

    - ``first_player`` (rule:O13): who moves first at the set-up; default "A".
    - ``refill_empty_reserve`` (rule:O2): with an empty reserve, column 0 stays empty ("leave_empty",
      default) or the tokens beyond the taken column slide toward it and column 7 stays empty.
    - ``sheriff_save`` (rule:O6): the Sheriff saving his Governor arrests the Hitman, a Con le Cattive
      victory (the English edition's Ugly way; "ugly", default), or only stops him ("stop").
    - ``reverend_left_of`` (rule:O7): the Reverend reacts when the immobilized Bandit / arrested
      Hitman stands immediately to his left ("target", default) or the arresting Sheriff does.
    - ``bandit_empty_supply`` (rule:O10): the Bandit may call when the opposing supply lacks the token
      and gains nothing ("allowed", default) or may not ("forbidden").
    - ``sudden_death_repeats`` (rule:O11): "Non appena l'ultimo di questi gettoni sia stato
      reclamato/utilizzato": sudden death triggers every time the condition holds again ("repeats",
      default) or only once a game ("once"; a game whose 6 Bullets and Handcuffs are used up again
      cannot end).
    - ``mayor_governor`` (rule:O14): the Mayor extends the Governor's ability to the Election token at
      columns i-1 and i+1 ("extended", default) or not ("not_extended").
    - ``mayor_reverend`` (rule:O14-reverend): the Mayor extends the Reverend's reach by one, the Bandit or
      Hitman up to two places to his left ("extended", default) or not ("not_extended").
    - ``target_immobilized`` (rule:O15): other abilities may aim at an immobilized character
      ("allowed", default) or may not ("forbidden"); he is never moved either way.
    - ``optional_effects`` (rule:O16): "puoi tenere il gettone", "lo puoi immobilizzare": declining is
      a choice of the acting player ("choice", default) or the effect always applies ("always").
    - ``actions_per_turn`` (rule:O17): exactly two actions a turn ("exactly_two", default; a fake swap
      stands in for passing) or a player may end the turn after one ("one_or_two").
    """

    CHOICES: ClassVar[dict] = CHOICES
    """The listed values of each reading with named alternatives (the module's table)."""

    first_player: str = "A"
    refill_empty_reserve: str = "leave_empty"
    sheriff_save: str = "ugly"
    reverend_left_of: str = "target"
    bandit_empty_supply: str = "allowed"
    sudden_death_repeats: str = "repeats"
    mayor_governor: str = "extended"
    mayor_reverend: str = "extended"
    target_immobilized: str = "allowed"
    optional_effects: str = "choice"
    actions_per_turn: str = "exactly_two"


def add_rule_option(parser) -> None:
    """Every reading as its own flag (``--sheriff-save stop``) and as ``--rule NAME=VALUE``, each help line naming its
    open question (generated from :data:`CHOICES` and :data:`RULE_IDS` by the readings base)."""
    OutlawsReadings.add_arguments(parser, rule_ids={name: f"{RULE_IDS[name]} {DESCRIPTIONS[name]}" for name in RULE_IDS})
