"""Exact duel odds (rule:C-duel, rule:C8) with the round's event modifiers (one event a round).

Each side rolls ``die_sides`` dice (one; two under Fast draw, rule:C-ev-fast-draw) and adds its
second-shot value (none under Sandstorm, rule:C-ev-sandstorm) and its token/building modifiers;
the initiator gets -1 under Distraction (rule:C-ev-distraction) and +2 in the early Shootout duel
(rule:C-ev-shootout). Under Fast draw ``fast_draw_modifiers`` ``each_die`` (the C8 default) adds
every modifier to each die; ``tokens_buildings_only`` only the token/building ones. Ties: re-roll
(default), stay a tie, or go to one side. All figures are exact fractions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from solver.cactus.events import round_effects, table
from solver.cactus.readings import CactusReadings, frac_str
from solver.errors import BadInput
from solver.io.read import as_int


def roll_distribution(dice: int, sides: int) -> Counter:
    """Sum of ``dice`` fair dice with ``sides`` faces -> count of ways."""
    dist = Counter({0: 1})
    for _ in range(dice):
        nxt: Counter = Counter()
        for total, ways in dist.items():
            for face in range(1, sides + 1):
                nxt[total + face] += ways
        dist = nxt
    return dist


def affects_duels(key: str) -> bool:
    """Whether an event changes a duel's odds: Sandstorm, Distraction, Shootout, Fast draw."""
    e = table().get(key)
    return (not e.second_shot) or bool(e.initiator_modifier) or e.early_duel_modifier is not None \
        or e.dice_per_roll > 1


def duel_event(events: Sequence[str]) -> tuple[str, ...]:
    """rule:C-event-draw one event card a round: at most one event, and one that changes duels
    (a BadInput otherwise, naming the problem)."""
    keys = tuple(table().get(k).key for k in events)  # unknown event -> BadInput
    if len(keys) > 1:
        raise BadInput(f"events: one event card is drawn a round, got {len(keys)} ({', '.join(keys)})")
    for k in keys:
        if not affects_duels(k):
            hint = " (a player who swapped gives up the second shot: enter 0)" if table().get(k).may_swap_second_shot else ""
            raise BadInput(f"events: '{k}' does not change duels; leave it out{hint}")
    return keys


def _side_total(shot: int, bonus: int, event_mod: int, dice: int, readings: CactusReadings) -> Counter:
    base = roll_distribution(dice, readings.die_sides)
    if dice > 1 and readings.fast_draw_modifiers == "each_die":
        add = dice * (shot + bonus + event_mod)
    else:
        add = shot + event_mod + dice * bonus if dice > 1 else shot + bonus + event_mod
    return Counter({t + add: w for t, w in base.items()})


def duel_odds(initiator_shot: int, defender_shot: int, events: Sequence[str] = (),
              initiator_bonus: int = 0, defender_bonus: int = 0, shootout_duel: bool = False,
              readings: CactusReadings = CactusReadings()) -> dict:
    """Exact chances that the initiator wins, loses or ties (after the tie rule)."""
    initiator_shot = as_int(initiator_shot, "initiator second shot", 0, 99)
    defender_shot = as_int(defender_shot, "defender second shot", 0, 99)
    initiator_bonus = as_int(initiator_bonus, "initiator bonus", -20, 20)
    defender_bonus = as_int(defender_bonus, "defender bonus", -20, 20)
    keys = list(duel_event(events))
    effects = [round_effects(k) for k in keys]
    second_shot = all(e.second_shot for e in effects)
    dice = max([e.dice_per_roll for e in effects] + [1])
    init_mod = sum(e.initiator_modifier for e in effects)
    early = [e.early_duel_modifier for e in effects if e.early_duel_modifier is not None]
    if shootout_duel:
        if not early:
            raise BadInput("shootout duel: only when the round's event is Shootout")
        init_mod += early[0]
    a_shot, d_shot = (initiator_shot, defender_shot) if second_shot else (0, 0)
    a = _side_total(a_shot, initiator_bonus, init_mod, dice, readings)
    d = _side_total(d_shot, defender_bonus, 0, dice, readings)
    total = sum(a.values()) * sum(d.values())
    win = sum(wa * wd for ta, wa in a.items() for td, wd in d.items() if ta > td)
    lose = sum(wa * wd for ta, wa in a.items() for td, wd in d.items() if ta < td)
    p_win, p_lose = Fraction(win, total), Fraction(lose, total)
    p_tie = 1 - p_win - p_lose
    raw = {"win": frac_str(p_win), "lose": frac_str(p_lose), "tie": frac_str(p_tie)}
    if readings.duel_ties == "reroll":
        p_win, p_lose, p_tie = p_win / (p_win + p_lose), p_lose / (p_win + p_lose), Fraction(0)
    elif readings.duel_ties == "initiator_wins":
        p_win, p_tie = p_win + p_tie, Fraction(0)
    elif readings.duel_ties == "defender_wins":
        p_lose, p_tie = p_lose + p_tie, Fraction(0)
    return {"win": frac_str(p_win), "lose": frac_str(p_lose), "tie": frac_str(p_tie),
            "single_roll": raw, "dice_per_roll": dice, "second_shot_used": second_shot,
            "initiator_modifier": init_mod, "events": keys,
            "initiator": {"second_shot": a_shot, "bonus": initiator_bonus},
            "defender": {"second_shot": d_shot, "bonus": defender_bonus},
            "ties": readings.duel_ties, "die_sides": readings.die_sides,
            "note": "a lone ranger who wins a duel he started discards the next event; a loser is pushed"}
