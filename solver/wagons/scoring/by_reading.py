"""The final scores under each reading of a low-confidence goal-card number (rule:W11), side by side.

Where a score part rests on a number known from one unofficial source whose sources leave two readings
open (Boom or Bust: per Mine or flat, W11), the player's card settles it; until the player says which
their card shows, a page shows the totals under every listed alternative. :func:`scores_by_reading`
gives, for one town, pile, scenario and rules: the readings in play (their register wording beside each
value), the score parts that rest on them, and the totals and the winner under every combination of
their values. The readings are those of :data:`~solver.wagons.readings.GOAL_READINGS` whose confidence is
"low" and whose card the scenario uses; a reading of higher confidence (W12, W13) is not listed.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from solver.register import register
from solver.wagons.data import CARD, WagonsData, load_data
from solver.wagons.readings import CHOICES, GOAL_READINGS, WagonsReadings
from solver.wagons.scoring.totals import final_scores
from solver.wagons.town import Town

__all__ = ["low_confidence_readings", "reading_wording", "scores_by_reading"]


def low_confidence_readings(scenario_id: str, data: WagonsData | None = None) -> tuple[tuple[str, str], ...]:
    """(goal card, :class:`WagonsReadings` field) for each goal card of the scenario whose score rests on a
    low-confidence number with listed readings (rule:W11)."""
    data = data or load_data()
    out = []
    for name in data.scenario(scenario_id).goals:
        kind = data.goal(name).kind
        settled = kind in GOAL_READINGS and dict(data.goal(name).param_confidence).get(GOAL_READINGS[kind][1]) == CARD
        if kind in GOAL_READINGS and GOAL_READINGS[kind][3] == "low" and not settled:  # not read off the card
            out.append((name, GOAL_READINGS[kind][0]))
    return tuple(out)


def _entry(field: str):
    """The register entry whose option ``field`` is (the open question first)."""
    own = [r for r in register().for_game("wagons") if r.option == field]
    return sorted(own, key=lambda r: not r.open_question)[0]


def _first_sentence(text: str) -> str:
    head, sep, _ = text.partition(". ")
    return head + "." if sep else text


def reading_wording(field: str, value: str) -> str:
    """What ``field = value`` means, in the register's words: the entry's default for the default value,
    else the alternative that names the value (its first sentence, without the value's name)."""
    entry = _entry(field)
    if value == CHOICES[field][0]:
        text = entry.default
    else:
        text = next((alt for alt in entry.alternatives
                     if alt.partition(":")[0].replace(" ", "") in (value, f"{field}={value}")), "")
    head, sep, rest = text.partition(":")
    if sep and head.replace(" ", "") in (value, f"{field}={value}"):
        text = rest.strip()
    return _first_sentence(text) if text else f"{field} = {value}"


def _reading(name: str, field: str, readings: WagonsReadings, data: WagonsData) -> dict:
    entry = _entry(field)
    return {"option": field, "rule": entry.id, "title": entry.title, "goal": name, "card_text": data.goal(name).text,
            "chosen": getattr(readings, field),
            "values": [{"value": v, "default": v == CHOICES[field][0], "wording": reading_wording(field, v)}
                       for v in CHOICES[field]]}


def _column(town: Town, pile, scenario_id: str, readings: WagonsReadings, data: WagonsData, names, chosen: dict) -> dict:
    fs = final_scores(town, pile, scenario_id, readings, data)
    return {"readings": chosen, "player": fs.player.total, "opponent": fs.opponent.total, "margin": fs.margin,
            "winner": fs.winner, "decided_by": fs.decided_by,
            "parts": {"player": {n: fs.player.goals[n] for n in names},
                      "opponent": {n: fs.opponent.goals[n] for n in names}}}


def scores_by_reading(town: Town, pile, scenario_id: str, readings: WagonsReadings = WagonsReadings(),
                      data: WagonsData | None = None) -> dict:
    """The scores of ``town`` against ``pile`` under every combination of the low-confidence readings the
    scenario's goal cards rest on (rule:W11), the other readings as in ``readings``:

    ``{"readings": [{"option", "rule", "title", "goal", "card_text", "chosen", "values": [{"value", "default",
    "wording"}]}], "parts": [{"side", "goal"}], "scores": [{"readings": {option: value}, "chosen", "player",
    "opponent", "margin", "winner", "decided_by", "parts": {"player": {goal: points}, "opponent": {...}}}]}``;
    all three lists are empty when no score part rests on such a reading."""
    data = data or load_data()
    listed = low_confidence_readings(scenario_id, data)
    names = [name for name, _ in listed]
    fields = list(dict.fromkeys(field for _, field in listed))
    scores = []
    for combo in (itertools.product(*[CHOICES[f] for f in fields]) if fields else ()):
        chosen = dict(zip(fields, combo))
        column = _column(town, pile, scenario_id, replace(readings, **chosen), data, names, chosen)
        column["chosen"] = all(getattr(readings, f) == v for f, v in chosen.items())
        scores.append(column)
    return {"readings": [_reading(name, field, readings, data) for name, field in listed],
            "parts": [{"side": side, "goal": name} for name in names for side in ("player", "opponent")],
            "scores": scores}
