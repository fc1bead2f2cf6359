"""The solo mode action card draw deck, round by round, and the lone ranger's planning draws.

Card identities only: the printed contents of the solo cards are unknown and never invented.
The 9 solo cards are the marshal's arrival plus 8 numbered cards (#1-#8): round 1 uses the 4 marked
cards, rounds 2-5 add one more each (4 + 4 = 8) and round 6 adds the marshal ("the deck now has 9
cards"). Which numbers are marked is not printed in the text: ``marked`` is a parameter.

rule:C-solo-schedule rule:C-solo-planning rule:C-solo-marshal rule:C2 rule:C3
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from solver.cactus.readings import CactusReadings
from solver.errors import BadInput

NUMBERED = tuple(range(1, 9))
MARSHAL = "M"
DEFAULT_MARKED = (1, 2, 3, 4)
LAST_ROUND = 14  # by round 14 only the marshal's arrival is left under every reading that archives


def _check_marked(marked: Sequence[int]) -> tuple[int, ...]:
    m = tuple(sorted(set(marked)))
    if len(m) != 4 or any(c not in NUMBERED for c in m):
        raise BadInput(f"marked: expected 4 distinct card numbers 1..8, got {list(marked)}")
    return m


def deck_size(rnd: int, readings: CactusReadings = CactusReadings()) -> int:
    """Cards in the draw deck in round ``rnd`` (rule:C-solo-schedule; rule:C2 ``stop_archiving``)."""
    if rnd < 1:
        raise BadInput(f"round: {rnd} must be 1 or more")
    if rnd <= 5:
        return 3 + rnd
    size = 9 - (rnd - 6)
    if readings.short_deck == "stop_archiving":
        return max(size, 4)
    return max(size, 1)


def archived(rnd: int, readings: CactusReadings = CactusReadings()) -> tuple[int, ...]:
    """Numbered cards archived by round ``rnd``: #1 in round 7, #2 in round 8, ... (rule:C3)."""
    n = max(0, rnd - 6)
    if readings.short_deck == "stop_archiving":
        n = min(n, 5)  # the deck keeps 4 cards: #6, #7, #8 and the marshal
    return NUMBERED[:min(n, 8)]


def planning_split(size: int, readings: CactusReadings = CactusReadings()) -> tuple[int, bool]:
    """(programmed cards, second shot set aside?) for a deck of ``size`` (rule:C-solo-planning).

    With 4 or more cards: 3 programmed then 1 second shot. Fewer (rule:C2): ``no_second_shot``
    programs them all (at most 3); ``keep_second_shot`` sets the last aside when 2+ remain.
    """
    if size >= 4:
        return 3, True
    if readings.short_deck == "keep_second_shot" and size >= 2:
        return size - 1, True
    return min(size, 3), False


def contents_outcomes(rnd: int, readings: CactusReadings = CactusReadings(),
                      marked: Sequence[int] = DEFAULT_MARKED) -> tuple[tuple[Fraction, frozenset], ...]:
    """Every possible deck content in round ``rnd`` with its exact probability (rule:C3)."""
    m = _check_marked(marked)
    rest = tuple(c for c in NUMBERED if c not in m)
    if rnd <= 5:
        extra = rnd - 1
        if readings.added_card == "lowest_number":
            return ((Fraction(1), frozenset(m + rest[:extra])),)
        combos = list(combinations(rest, extra))
        return tuple((Fraction(1, len(combos)), frozenset(m + c)) for c in combos)
    gone = archived(rnd, readings)
    return ((Fraction(1), frozenset(c for c in NUMBERED if c not in gone) | {MARSHAL}),)


def marshal_programmed_chance(rnd: int, readings: CactusReadings = CactusReadings()) -> Fraction:
    """Chance the marshal's arrival is among the programmed cards of round ``rnd``, given the game
    has not ended (each round's deck is freshly shuffled; rule:C-solo-marshal)."""
    if rnd < 6:
        return Fraction(0)
    size = deck_size(rnd, readings)
    programmed, _ = planning_split(size, readings)
    return Fraction(programmed, size)


@dataclass(frozen=True)
class PlanningDraw:
    programmed: tuple  # in the order placed on the action stack
    second_shot: object | None
    marshal_programmed: bool


def planning_draw(shuffled: Sequence, readings: CactusReadings = CactusReadings()) -> PlanningDraw:
    """The lone ranger's planning draws from a shuffled deck (top first): 3 programmed cards, then
    1 second shot card (rule:C-solo-planning; a marshal drawn as second shot does not end the game)."""
    cards = tuple(shuffled)
    if not cards:
        raise BadInput("solo deck: empty deck")
    n, shot = planning_split(len(cards), readings)
    programmed = cards[:n]
    return PlanningDraw(programmed, cards[n] if shot else None, MARSHAL in programmed)


def schedule(readings: CactusReadings = CactusReadings(), marked: Sequence[int] = DEFAULT_MARKED,
             last_round: int = LAST_ROUND) -> list[dict]:
    """Round by round: deck size, programmed cards, second shot, the marshal's chance, notes."""
    rows = []
    for rnd in range(1, last_round + 1):
        size = deck_size(rnd, readings)
        programmed, shot = planning_split(size, readings)
        outcomes = contents_outcomes(rnd, readings, marked)
        fixed = sorted(outcomes[0][1], key=str) if len(outcomes) == 1 else None
        note = ""
        if rnd == 6:
            note = "the marshal's arrival is added (the last card added)"
        elif rnd >= 7 and archived(rnd, readings) != archived(rnd - 1, readings):
            note = f"archive card #{archived(rnd, readings)[-1]}"
        if size < 4:
            note = (note + "; " if note else "") + "short deck: fewer than 3 programmed + 1 second shot (rule C2)"
        rows.append({"round": rnd, "deck_size": size, "programmed": programmed, "second_shot": shot,
                     "contents": [str(c) for c in fixed] if fixed else "random (rule C3)",
                     "marshal_in_deck": rnd >= 6, "note": note})
    return rows
