"""The numbers a goal card prints, read off the player's own card (rule:W11).

Seven goal cards of the six Lone Cowboy scenarios rest on one unofficial source (confidence "low" in
``scenarios/wagons/goals.toml``). The player holds the card: :data:`LAYOUTS` says, for each goal kind, what its
card prints (in the card's own order and words: the points, whether they count once or per item, the table of runs
or bands), :func:`read_card` checks what the player typed there (a one-line :class:`BadInput` in words), and
:func:`with_cards` gives the data every scorer, optimizer and verifier reads with those numbers in place, their
confidence "card" (so a score no longer lists the card under ``low_confidence``). :func:`goals_file` writes the
same numbers as the ``--goals FILE`` the command line reads.

The answers are ``{goal card name: {parameter: value}}``, the parameters those of the kind's catalogue entry
(:mod:`solver.wagons.goal_kinds`); lists as lists (Wagon Train's ``run_points``, Boom or Bust's ``bands``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.wagons import goal_kinds
from solver.wagons.data import CARD, GOAL_NUMBER_LIMIT, MAX_TABLE, GoalSpec, WagonsData, check_goal, is_card
from solver.wagons.readings import GOAL_READINGS
from solver.wagons.scoring.totals import is_low_confidence

__all__ = ["CARD", "Question", "LAYOUTS", "questions", "read_card", "card_values", "with_cards", "goals_file",
           "unsettled", "from_card", "check_answers"]

@dataclass(frozen=True)
class Question:
    """One number (or table) a card prints: its goals.toml ``param``, what the card says there in words, and its
    shape: ``number`` (one whole number), ``runs`` (points for a run of 2, 3, ... Wagons) or ``bands`` (rows of
    lowest and highest Mine count and points; no highest: and more)."""

    param: str
    words: str
    shape: str = "number"
    lowest: int = -GOAL_NUMBER_LIMIT


LAYOUTS: dict[str, tuple[Question, ...]] = {
    "gold-country": (Question("per_mine", "points per Mine on or next to a Mountains territory"),),
    "prairie-life": (Question("per_symbol", "points per Cow icon or Plains territory"),
                     Question("divisor", "then divided by (rounded down)", lowest=1)),
    "the-herd": (Question("per_cow", "points per Cow in your largest herd"),),
    "wagon-train": (Question("run_points", "points for a straight run of Wagons, by its length", "runs"),),
    "boom-or-bust": (Question("bands", "points by how many Mines you have", "bands"),),
    "claim-jumpers": (Question("points", "points for the most Mines", lowest=0),
                      Question("taken_by_more_guns", "of those, taken by the player with more Guns", lowest=0)),
    "smalltown-charm": (Question("per_territory", "points per territory fewer than the other town"),),
    "cool-water": (Question("per_wagon", "points per Wagon on or next to your largest Water"),),
    "badlands": (Question("per_gun", "points per Gun between two Deserts"),),
    "happy-cows": (Question("per_cow", "points per Cow not on or next to Snow"),),
    "bootleggers": (Question("per_beer_adjacent", "points per Beer next to a Wagon"),
                    Question("per_beer_alone", "points per Beer not next to a Wagon")),
    "one-too-many": (Question("loss_per_other_beer", "points lost per Beer of the other player", lowest=0),),
}
"""What each kind's card prints, in the card's order (every kind of :mod:`solver.wagons.goal_kinds`)."""

_MISSING = sorted(set(goal_kinds.names(*goal_kinds.FAMILIES)) ^ set(LAYOUTS))
if _MISSING:  # a kind added to the catalogue needs its card's layout here
    raise goal_kinds.MissingEncoding(f"solver/wagons/scoring/card_numbers.py: no card layout for goal kind {', '.join(_MISSING)}")


def questions(goal: GoalSpec) -> tuple[Question, ...]:
    """What ``goal``'s card prints (BadInput for a card no source gives: its numbers cannot be asked for)."""
    if not goal.known or goal.kind not in LAYOUTS:
        raise BadInput(f"{goal.name}: no source gives this card's text, so its numbers cannot be read from it")
    return LAYOUTS[goal.kind]


def _whole(value: Any, what: str, lowest: int = -GOAL_NUMBER_LIMIT, highest: int = GOAL_NUMBER_LIMIT) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{what}: type a whole number, not {short_repr(value, 30)}")
    if not lowest <= value <= highest:
        raise BadInput(f"{what}: {value} is outside {lowest} to {highest}")
    return value


def _runs(value: Any, name: str) -> tuple[int, ...]:
    """A run table as the card lists it (points for a run of 2, 3, ... Wagons; the last also for longer runs), as
    goals.toml holds it (runs of 0 and 1 Wagons first, scoring 0)."""
    if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= MAX_TABLE - 2:
        raise BadInput(f"{name}: list the points for runs of 2, 3, ... Wagons (1 to {MAX_TABLE - 2} lengths)")
    return (0, 0) + tuple(_whole(v, f"{name}, a run of {n + 2} Wagons") for n, v in enumerate(value))


def _bands(value: Any, name: str) -> tuple[tuple[int, int, int], ...]:
    """Bands as the card lists them: [fewest Mines, most Mines (None: and more), points], going up."""
    if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= MAX_TABLE:
        raise BadInput(f"{name}: list 1 to {MAX_TABLE} rows of fewest Mines, most Mines and points")
    out, last = [], -1
    for n, band in enumerate(value):
        row = f"{name}, row {n + 1}"
        if not isinstance(band, (list, tuple)) or len(band) != 3:
            raise BadInput(f"{row}: give the fewest Mines, the most Mines (empty: and more) and the points")
        low = _whole(band[0], f"{row}, fewest Mines", 0, 64)
        high = -1 if band[1] is None else _whole(band[1], f"{row}, most Mines", low, 64)
        points = _whole(band[2], f"{row}, points")
        if low <= last:
            raise BadInput(f"{row}: starts at {low} Mines, inside the row before it (rows go up without overlapping)")
        if high == -1 and n != len(value) - 1:
            raise BadInput(f"{row}: only the last row may go on without a most (\"and more\")")
        last = 10 ** 9 if high == -1 else high
        out.append((low, high, points))
    return tuple(out)


def read_card(goal: GoalSpec, typed: dict) -> GoalSpec:
    """``goal`` with the numbers the player typed off their card (``{param: value}``, tables as the card lists
    them: :func:`card_values`), every number checked, confidence :data:`CARD`; BadInput in words otherwise."""
    if not isinstance(typed, dict):
        raise BadInput(f"{goal.name}: expected the card's numbers")
    asked = questions(goal)
    reading = GOAL_READINGS.get(goal.kind)
    said = reading[1] if reading and reading[3] == "low" else None  # the card settles this reading (rule:W11)
    unknown = sorted(set(typed) - {q.param for q in asked} - {said})
    if unknown:
        raise BadInput(f"{goal.name}: the card prints no number called {short_repr(unknown[0], 30)}")
    params = dict(goal.params)
    for q in asked:
        if q.param not in typed:
            raise BadInput(f"{goal.name}: give the {q.words}")
        v = typed[q.param]
        what = f"{goal.name}, {q.words}"
        params[q.param] = (_runs(v, what) if q.shape == "runs" else _bands(v, what) if q.shape == "bands"
                           else _whole(v, what, q.lowest))
    if goal.kind == "claim-jumpers" and params["taken_by_more_guns"] > params["points"]:
        raise BadInput(f"{goal.name}: the points taken ({params['taken_by_more_guns']}) cannot exceed the points for "
                       f"the most Mines ({params['points']})")
    conf = {k: CARD for k in params}
    if said is None:  # the card settles no reading
        pass
    elif said in typed:
        if not isinstance(typed[said], bool):
            raise BadInput(f"{goal.name}: say whether the card's points count per item or once")
        params[said] = typed[said]
    else:  # the reading is still the rules' (per Mine or once: a low-confidence reading)
        params.pop(said, None)
        conf.pop(said, None)
    out = replace(goal, params=tuple(params.items()), confidence=CARD, param_confidence=tuple(conf.items()))
    check_goal(out)
    return out


def card_values(goal: GoalSpec) -> dict:
    """``goal``'s numbers as its card lists them (the shape :func:`read_card` takes): a run table from runs of 2
    Wagons, bands with None for "and more"; the reading parameters that :class:`Readings` sets left out."""
    out = {}
    for q in questions(goal):
        v = goal.param(q.param)
        if q.shape == "runs":
            v = list(v[2:])
        elif q.shape == "bands":
            v = [[lo, None if hi == -1 else hi, pts] for lo, hi, pts in v]
        out[q.param] = v
    reading = GOAL_READINGS.get(goal.kind)
    if reading and dict(goal.param_confidence).get(reading[1]) == CARD:
        out[reading[1]] = goal.param(reading[1])
    return out


def check_answers(doc: Any, data: WagonsData) -> dict:
    """Answers kept for a browser or read from a file, checked: ``{goal card: {param: value}}`` (BadInput else)."""
    if not isinstance(doc, dict):
        raise BadInput("the card numbers: expected an object of goal cards")
    for name, typed in doc.items():
        read_card(data.goal(name), typed)
    return {name: dict(typed) for name, typed in doc.items()}


def with_cards(data: WagonsData, answers: dict) -> WagonsData:
    """``data`` with each answered card's numbers as the player read them (confidence :data:`CARD`); the same
    object when there are none. The reading parameters (per Mine or once, rule:W11) stay the rules' to set."""
    if not answers:
        return data
    read = {name: read_card(data.goal(name), typed) for name, typed in answers.items()}
    return replace(data, goals=tuple(read.get(g.name, g) for g in data.goals))


def unsettled(scenario_id: str, data: WagonsData) -> tuple[str, ...]:
    """The scenario's goal cards whose numbers are still low confidence (none read off the player's card)."""
    return tuple(n for n in data.scenario(scenario_id).goals if is_low_confidence(data.goal(n)) and not is_card(data.goal(n)))


def from_card(scenario_id: str, data: WagonsData) -> tuple[str, ...]:
    """The scenario's goal cards whose numbers the player read off their card."""
    return tuple(n for n in data.scenario(scenario_id).goals if is_card(data.goal(n)))


def _toml(value: Any) -> str:
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)


def goals_file(data: WagonsData, answers: dict, readings: dict | None = None) -> str:
    """Every goal card of ``data`` as a goals.toml the command line reads (``--goals FILE``), the answered cards
    with the player's numbers (confidence "card"); ``readings`` ({flag: value} the cards settled, such as
    ``--boom-or-bust flat``) are named in a comment; a reading the card settled is in the file too (confidence
    "card": it stands whatever flag is given)."""
    data = with_cards(data, answers)
    lines = ["# Circle the Wagons goal cards, with the numbers read off your own cards (confidence \"card\").",
             "# Use it as: ruleslinger wagons score --goals THIS_FILE ..."]
    if readings:
        lines.append("# and give the readings your cards settled: " + " ".join(f"{k} {v}" for k, v in readings.items()))
    for g in data.goals:
        lines += ["", "[[goal]]", f"name = {json.dumps(g.name)}", f"kind = {json.dumps(g.kind)}",
                  f"known = {'true' if g.known else 'false'}", f"text = {json.dumps(g.text)}",
                  f"confidence = {json.dumps(g.confidence)}", f"source = {json.dumps(g.source)}"]
        conf = dict(g.param_confidence)
        kind = goal_kinds.kind(g.kind)
        params = [(k, v) for k, v in g.params if (kind and k in kind.params) or conf.get(k) == CARD]
        if params:
            lines.append("params = { " + ", ".join(f"{k} = {_toml(v)}" for k, v in params) + " }")
            lines.append("param_confidence = { " + ", ".join(f"{k} = {json.dumps(conf.get(k, g.confidence))}"
                                                            for k, _ in params) + " }")
    return "\n".join(lines) + "\n"
