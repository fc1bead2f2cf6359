"""The named readings of Cactus Town: The Lone Ranger's open questions (docs/open-questions.md C1-C15).

:class:`CactusReadings` holds one field per open reading, each with the documented default; every
engine function takes it as ``readings``. The register (``docs/register/cactus.toml``) names the field
of each entry in its ``option`` key. Readings marked *inferred* fill a gap in the rulebook text.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from solver.readings.base import Number, Readings

CHOICES: dict[str, tuple[str, ...]] = {
    "short_deck": ("no_second_shot", "keep_second_shot", "stop_archiving"),  # rule:C2
    "added_card": ("uniform", "lowest_number"),  # rule:C3
    "marshal_discard": ("revealed", "discarded"),  # rule:C4
    "stagecoach_short": ("as_many", "none"),  # rule:C5
    "step_tie": ("both", "horizontal_first", "vertical_first"),  # rule:C6
    "tie_target": ("kept", "redrawn"),  # rule:C6-tie-target
    "directional_sneak": ("restricted_step", "plain_sneak"),  # rule:C7
    "duel_ties": ("reroll", "tie", "initiator_wins", "defender_wins"),  # rule:C8
    "fast_draw_modifiers": ("each_die", "tokens_buildings_only"),  # rule:C8
    "duel_discards": ("every_win", "one_per_round"),  # rule:C10
    "pushed_to": ("random_adjacent", "came_from"),  # rule:C11
    "sharing_pick": ("random", "most_plunder"),  # rule:C12
    "no_move": ("not_possible", "stay"),  # rule:C13
    "pass_turn": ("ends_row", "icon_only"),  # rule:C14
}


@dataclass(frozen=True)
class CactusReadings(Readings):
    """One field per open reading; the defaults are the project's default readings.

    - ``solo_events`` (rule:C1): use the event deck in solo too (default False); its size
      ``solo_event_cards`` (default 8, the 2-player size; inferred, the table stops at 2 players).
    - ``short_deck`` (rule:C2): when the solo deck holds fewer than 4 cards (round 12+):
      ``no_second_shot`` (all cards are programmed, none set aside), ``keep_second_shot`` (set the
      last card aside as second shot, program the rest), ``stop_archiving`` (archiving stops when the
      deck holds 4 cards).
    - ``added_card`` (rule:C3): the card added in rounds 2-5: ``uniform`` among the numbered cards
      not yet in the deck, or ``lowest_number`` first.
    - ``marshal_discard`` (rule:C4): a duel win discarding the marshal's arrival: ``revealed`` (the
      game ends, like Train) or ``discarded`` (it goes to the discard pile).
    - ``stagecoach_short`` (rule:C5): fewer than 2 discarded events: ``as_many`` (draw 0 or 1) or
      ``none`` (draw nothing unless 2 are there).
    - ``duel_win_chance`` (rule:C4, rule:C10): chance that the lone ranger wins each duel he starts,
      discarding the next event (0 in the contract's odds: no duel discards).
    - ``step_tie`` (rule:C6): when a horizontal and a vertical step both shorten the distance.
    - ``tie_target`` (rule:C6-tie-target, inferred): the target drawn among tied outlaws stays his target for the rest
      of the turn while he is still among the closest (``kept``), or every movement icon draws
      again (``redrawn``).
    - ``directional_sneak`` (rule:C7, inferred): HORIZONTAL / VERTICAL SNEAK as a SNEAK restricted to
      that direction, or as a plain SNEAK.
    - ``die_sides``, ``duel_ties``, ``fast_draw_modifiers`` (rule:C8).
    - ``escaped_visible`` (rule:C9): an escaped outlaw carrying plunder counts as a visible target
      (default False: escaped outlaws have left the town).
    - ``duel_discards`` (rule:C10): ``every_win`` (each duel he starts and wins discards the next
      event, several a round) or ``one_per_round`` (at most one discard a round).
    - ``duels_per_round`` (rule:C10): duels the lone ranger starts each round in the marshal odds,
      each won with ``duel_win_chance`` independently (default 1).
    - ``max_duels_per_round`` (rule:C-duels-a-round, inferred): the most duels he can start in one round, for the
      verifier's bounds (default 4: one per programmed action card, plus the Shootout duel).
    - ``pushed_to`` (rule:C11, inferred): where a lone ranger who lost a duel is pushed:
      ``random_adjacent`` (an orthogonally adjacent building, uniformly) or ``came_from`` (back to
      the building he entered this one from).
    - ``sharing_pick`` (rule:C12): whom he duels or confuses when several outlaws share his
      building: ``random`` (uniformly) or ``most_plunder`` (ties among those at random).
    - ``no_move`` (rule:C13): a movement icon while an outlaw shares his building: ``not_possible``
      (a slash falls through) or ``stay`` (carried out as staying; the slash stops there).
    - ``pass_turn`` (rule:C14): ``ends_row`` (nothing more of the row is carried out) or
      ``icon_only`` (only that icon / slash group is passed).
    """

    CHOICES: ClassVar[dict] = CHOICES
    """The listed values of each reading with named alternatives (the module's table)."""
    NUMBERS: ClassVar[dict] = {
        "solo_event_cards": Number(int, 3, 17, probes=(10,)),
        "duel_win_chance": Number(Fraction, 0, 1, probes=(Fraction(1, 2),),
                                  listed=tuple(Fraction(k, 6) for k in range(7))),
        "die_sides": Number(int, 2, 20, probes=(4, 20)),
        "duels_per_round": Number(int, 0, 6, probes=(0, 2)),
        "max_duels_per_round": Number(int, 1, 12, probes=(1, 8)),
    }
    """The numeric readings: their ranges, the values offered and the alternatives the impact run tries."""
    TOGETHER: ClassVar[dict] = {"solo_event_cards": {"solo_events": True}}
    """``solo_event_cards`` only means something with the event deck in solo."""

    solo_events: bool = False
    solo_event_cards: int = 8
    short_deck: str = "no_second_shot"
    added_card: str = "uniform"
    marshal_discard: str = "revealed"
    stagecoach_short: str = "as_many"
    duel_win_chance: Fraction = Fraction(0)
    step_tie: str = "both"
    tie_target: str = "kept"
    directional_sneak: str = "restricted_step"
    die_sides: int = 6
    duel_ties: str = "reroll"
    fast_draw_modifiers: str = "each_die"
    escaped_visible: bool = False
    duel_discards: str = "every_win"
    duels_per_round: int = 1
    max_duels_per_round: int = 4
    pushed_to: str = "random_adjacent"
    sharing_pick: str = "random"
    no_move: str = "not_possible"
    pass_turn: str = "ends_row"


def frac_str(p: Fraction) -> str:
    """An exact probability as the contract's ``"p/q"`` string (``"0"`` and ``"1"`` allowed)."""
    p = Fraction(p)
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"
