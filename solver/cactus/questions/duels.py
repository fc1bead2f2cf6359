"""The duel domains of a rules question, from the exact duel odds (:func:`solver.cactus.duel.duel_odds`, rule:C-duel,
rule:C8, the round's event: rule:C-ev-sandstorm, rule:C-ev-distraction, rule:C-ev-shootout, rule:C-ev-fast-draw).

- ``duel``: one duel the lone ranger (or anyone) starts, a chance domain of its results (won, lost, tie), each with
  its exact chance. Witness: ``{"format": "cactus-duel/1", "result", "chance", "duel": {initiator_shot,
  defender_shot, event, initiator_bonus, defender_bonus, shootout_duel}}``.
- ``duels``: every duel of second shots 0..``shots`` for each side under each event that changes duels (and none),
  the Shootout's early duel included; not a chance domain: each duel counts once, and its measures are the exact
  chances to win, lose or tie. Witness: the same document with ``win``, ``lose`` and ``tie`` chances ("p/q").
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

from solver.ask.model import Measure, Value
from solver.cactus.duel import affects_duels, duel_odds
from solver.cactus.events import table
from solver.cactus.readings import CactusReadings, frac_str
from solver.errors import BadInput
from solver.io.read import as_int

RESULTS = ("won", "lost", "tie")
EVENTS = ("none",) + tuple(e.key for e in table().events if not e.ends_game and affects_duels(e.key))
"""The round's event as a duel sees it: none (or one that does not change duels) or one that does."""


def _event(params: Mapping[str, Any], name: str = "event") -> str:
    value = params.get(name, "none")
    if value not in EVENTS:
        raise BadInput(f"{name}: {str(value)[:30]!r} is not one of {', '.join(EVENTS)}")
    return value


def _odds(ishot: int, dshot: int, event: str, ibonus: int, dbonus: int, shootout: bool, readings: CactusReadings) -> dict:
    return duel_odds(ishot, dshot, () if event == "none" else (event,), ibonus, dbonus, shootout, readings)


class Duel:
    """One duel's results with their exact chances."""

    chance = True
    noun = "duel result"

    def __init__(self, params: Mapping[str, Any], readings: CactusReadings):
        self.setup = {"initiator_shot": as_int(params.get("initiator_shot", 0), "initiator_shot", 0, 20),
                      "defender_shot": as_int(params.get("defender_shot", 0), "defender_shot", 0, 20),
                      "event": _event(params),
                      "initiator_bonus": as_int(params.get("initiator_bonus", 0), "initiator_bonus", -10, 10),
                      "defender_bonus": as_int(params.get("defender_bonus", 0), "defender_bonus", -10, 10),
                      "shootout_duel": params.get("shootout_duel", "no") == "yes"}
        if params.get("shootout_duel", "no") not in ("yes", "no"):
            raise BadInput("shootout_duel: expected yes or no")
        u = self.setup
        self.odds = _odds(u["initiator_shot"], u["defender_shot"], u["event"], u["initiator_bonus"],
                          u["defender_bonus"], u["shootout_duel"], readings)
        event = "" if u["event"] == "none" else f" in a {table().get(u['event']).name} round"
        self.description = (f"a duel of second shot {u['initiator_shot']} (who starts it) against "
                            f"{u['defender_shot']}{event}")
        self.chances = {r: Fraction(self.odds[k]) for r, k in zip(RESULTS, ("win", "lose", "tie"))}

    def size(self) -> int:
        return sum(1 for p in self.chances.values() if p)

    def measures(self) -> Mapping[str, Measure]:
        ms = [Measure("duel.result", "the duel's result for who starts it", "choice", "rule:C-duel", choices=RESULTS),
              Measure("duel.won", "who starts the duel wins it", "yes/no", "rule:C-duel"),
              Measure("duel.tie", "the duel stays a tie", "yes/no", "rule:C8")]
        return {m.name: m for m in ms}

    def elements(self) -> Iterator[tuple[Fraction, str]]:
        for r, p in self.chances.items():
            if p:
                yield p, r

    def values(self, element: str, names: frozenset[str]) -> Mapping[str, Value]:
        return {"duel.result": element, "duel.won": element == "won", "duel.tie": element == "tie"}

    def witness(self, element: str) -> dict:
        return {"format": "cactus-duel/1", "result": element, "chance": frac_str(self.chances[element]),
                "duel": dict(self.setup)}


class Duels:
    """Every duel of second shots 0..shots under every event that changes duels; measures: exact chances."""

    chance = False
    noun = "duel"

    def __init__(self, params: Mapping[str, Any], readings: CactusReadings):
        self.shots = as_int(params.get("shots", 6), "shots", 0, 20)
        self.readings = readings
        self.description = f"a duel of second shots 0 to {self.shots} under any event"

    def size(self) -> int:
        return (self.shots + 1) ** 2 * (len(EVENTS) + 1)

    def measures(self) -> Mapping[str, Measure]:
        ms = [Measure("duel.win", "chance who starts the duel wins", "number", "rule:C-duel", 0, 1),
              Measure("duel.lose", "chance who starts the duel loses", "number", "rule:C-duel", 0, 1),
              Measure("duel.tie", "chance the duel stays a tie", "number", "rule:C8", 0, 1),
              Measure("shot.initiator", "second shot of who starts the duel", "number", "rule:C-duel", 0, 20),
              Measure("shot.defender", "second shot of the other side", "number", "rule:C-duel", 0, 20),
              Measure("shot.lead", "lead in second shots of who starts the duel", "number", "rule:C-duel", -20, 20,
                      help="his second shot less the other side's (negative when behind)"),
              Measure("duel.event", "the round's event", "choice", "rule:C-event-draw", choices=EVENTS),
              Measure("duel.shootout", "the Shootout's early duel (+2)", "yes/no", "rule:C-ev-shootout")]
        return {m.name: m for m in ms}

    def elements(self) -> Iterator[tuple[Fraction, tuple]]:
        for event in EVENTS:
            for shootout in ((False, True) if event == "shootout" else (False,)):
                for a in range(self.shots + 1):
                    for d in range(self.shots + 1):
                        yield Fraction(1), (a, d, event, shootout)

    def _odds(self, e: tuple) -> dict:
        return _odds(e[0], e[1], e[2], 0, 0, e[3], self.readings)

    def values(self, element: tuple, names: frozenset[str]) -> Mapping[str, Value]:
        out: dict[str, Value] = {"shot.initiator": element[0], "shot.defender": element[1], "shot.lead": element[0] - element[1], "duel.event": element[2],
                                 "duel.shootout": element[3]}
        if names & {"duel.win", "duel.lose", "duel.tie"}:
            o = self._odds(element)
            out |= {"duel.win": Fraction(o["win"]), "duel.lose": Fraction(o["lose"]), "duel.tie": Fraction(o["tie"])}
        return out

    def witness(self, element: tuple) -> dict:
        o = self._odds(element)
        return {"format": "cactus-duel/1", "win": o["win"], "lose": o["lose"], "tie": o["tie"],
                "duel": {"initiator_shot": element[0], "defender_shot": element[1], "event": element[2],
                         "initiator_bonus": 0, "defender_bonus": 0, "shootout_duel": element[3]}}
