"""The measures of an Outlaws line of play (solver.ask): what a question's condition may compare, each read off the
games along the line that the game contract produced (no rule is modelled here: the engine decided every step).

A :class:`Line` is the element of the lines domain (:mod:`solver.outlaws.questions.lines`): the steps (a play and
the index of the chance outcome that followed, as :mod:`solver.outlaws.line` replays them) and the games along it.
The measures, by name:

- ``actions``: the actions played (fewer than asked when the game ended first).
- ``winner`` (A, B or none) and ``victory``, the way it was won (good = Con le Buone, bad = Con le Brutte, ugly = Con
  le Cattive, none).
- ``sudden-death``: sudden death was triggered during the line; ``sudden-death.at``: by which action (1 = the
  first; 0 when it was not); ``sudden-death.on``: it is in force at the end (triggered in the line or before).
- ``votes.first``: the action that claimed the line's first Vote (0: no Vote was claimed);
  ``votes.before-sudden-death``: the Votes claimed in the line up to the action that triggered sudden death, its own
  included (0 when it was not triggered): "can sudden death come before anyone has claimed a Vote?" is
  ``sudden-death and votes.before-sudden-death == 0``.
- per side S (A, B): ``S.votes``, ``S.bullets``, ``S.handcuffs`` (held in the supply at the end),
  ``S.votes.claimed`` (Votes S claimed during the line), ``S.marked`` (how many of S's characters bear a Front Page
  mark), ``S.bandit.immobilized``;
- per side S and character C (the project's English names, the rulebook's Italian beside them in the labels):
  ``S.C.place`` (street = Main Street, saloon = the Saloon, unknown = a face-down character the position does not
  name), ``S.C.column`` (0-7 on Main Street, counted from A's left as position files do: A's column i faces B's
  column i; -1 when not on Main Street or unknown), ``S.C.marked`` (on the Front Page; not the Governor, whom the
  Journalist may never call).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from solver.ask.model import Measure, Value
from solver.outlaws.game import Game
from solver.outlaws.line import Step
from solver.outlaws.position import CHARACTERS, SIDES
from solver.outlaws.victory import sudden_death_began

WINNERS = ("A", "B", "none")
WAYS = ("good", "bad", "ugly", "none")
PLACES = ("street", "saloon", "unknown")
ITALIAN = {"governor": "Governatore", "hitman": "Sicario", "sheriff": "Sceriffo", "indian": "Indiano",
           "merchant": "Commerciante", "dancer": "Ballerina", "journalist": "Giornalista", "bandit": "Bandito",
           "reverend": "Reverendo", "mayor": "Sindaco"}
"""The rulebook's names of the characters (the glossary of the rules folder's README)."""
VICTORY_RULES = "rule:O-victory-good, rule:O-victory-bad, rule:O-victory-ugly"


@dataclass(frozen=True)
class Line:
    """One line of play: ``steps`` (each play with the index of its chance outcome among the contract's
    ``outcomes``), ``games`` (the start, then the game after each step) and ``weight`` (its chance when each side
    picks uniformly among its legal actions and chance follows its exact odds)."""

    steps: tuple[Step, ...]
    games: tuple[Game, ...]
    weight: Fraction = Fraction(1)

    @property
    def end(self) -> Game:
        return self.games[-1]


def _first(line: Line, happened: Callable[[Game, Game], bool]) -> int:
    """The number (1 = the first) of the line's first action after which ``happened(before, after)``; 0: none."""
    for n in range(1, len(line.games)):
        if happened(line.games[n - 1], line.games[n]):
            return n
    return 0


def _sudden_death_at(line: Line) -> int:
    return _first(line, lambda b, a: sudden_death_began(b.position, a.position))


def _vote_claimed(before: Game, after: Game) -> bool:
    return any(after.position.supply[s].vote > before.position.supply[s].vote for s in SIDES)


def _votes_before_sudden_death(line: Line) -> int:
    at = _sudden_death_at(line)
    return sum(line.games[at].position.supply[s].vote - line.games[0].position.supply[s].vote for s in SIDES) if at \
        else 0


def _place(line: Line, side: str, name: str) -> str:
    pos = line.end.position
    return "street" if name in pos.street[side] else "saloon" if name in pos.saloon[side] else "unknown"


def _column(line: Line, side: str, name: str) -> int:
    row = line.end.position.street[side]
    return row.index(name) if name in row else -1


def _game_measures() -> list[tuple[Measure, Callable[[Line], Value]]]:
    sd = "rule:O11"
    return [
        (Measure("actions", "the number of actions played", "number", "rule:O-turn", 0, 6,
                 help="fewer than the line's length when the game ended first"), lambda ln: len(ln.steps)),
        (Measure("winner", "the winner", "choice", VICTORY_RULES, choices=WINNERS),
         lambda ln: str(ln.end.position.winner or "none")),
        (Measure("victory", "the way the game was won", "choice", VICTORY_RULES, choices=WAYS,
                 help="good: Con le Buone (the Governor takes the Election token); bad: Con le Brutte (the Hitman "
                      "assassinates the Governor); ugly: Con le Cattive (the Sheriff arrests the Hitman)"),
         lambda ln: str(ln.end.position.victory or "none")),
        (Measure("sudden-death", "sudden death was triggered during the line", "yes/no", sd),
         lambda ln: _sudden_death_at(ln) > 0),
        (Measure("sudden-death.at", "the action that triggered sudden death", "number", sd, 0, 6,
                 help="1 for the line's first action; 0 when sudden death was not triggered"), _sudden_death_at),
        (Measure("sudden-death.on", "sudden death is in force at the end", "yes/no", sd,
                 help="triggered during the line or before it"), lambda ln: ln.end.position.sudden_death),
        (Measure("votes.first", "the action that claimed the first Vote", "number", "rule:O-take", 0, 6,
                 help="1 for the line's first action; 0 when no Vote was claimed"),
         lambda ln: _first(ln, _vote_claimed)),
        (Measure("votes.before-sudden-death", "the Votes claimed before sudden death", "number",
                 "rule:O11, rule:O-take", 0, 6, help="claimed during the line up to the action that triggered sudden "
                 "death, that action's own included (a Vote that completes the 3-3 comes first); 0 when it was not "
                 "triggered"), _votes_before_sudden_death),
    ]


def _marked(line: Line, side: str, name: str) -> bool:
    return (side, name) in line.end.position.front_page


def _side_measures(side: str) -> list[tuple[Measure, Callable[[Line], Value]]]:
    def held(kind: str) -> Callable[[Line], Value]:
        return lambda ln: getattr(ln.end.position.supply[side], kind)

    def of(read: Callable[[Line, str, str], Value], name: str) -> Callable[[Line], Value]:
        return lambda ln: read(ln, side, name)

    out: list[tuple[Measure, Callable[[Line], Value]]] = [
        (Measure(f"{side}.{word}", f"{word.title()} {side} holds", "number", "rule:O-take", 0, high,
                 help=f"in {side}'s supply at the end of the line"), held(kind))
        for word, kind, high in (("votes", "vote", 6), ("bullets", "bullet", 3), ("handcuffs", "handcuffs", 3))]
    out += [
        (Measure(f"{side}.votes.claimed", f"Votes {side} claimed during the line", "number", "rule:O-take", 0, 6),
         lambda ln: ln.end.position.supply[side].vote - ln.games[0].position.supply[side].vote),
        (Measure(f"{side}.marked", f"how many of {side}'s characters are on the Front Page", "number",
                 "rule:O-journalist", 0, 3), lambda ln: sum(s == side for s, _ in ln.end.position.front_page)),
        (Measure(f"{side}.bandit.immobilized", f"{side}'s Bandit (Bandito) is immobilized", "yes/no",
                 "rule:O-immobilized"), lambda ln: (side, "bandit") in ln.end.position.immobilized),
    ]
    for name in CHARACTERS:
        who = f"{side}'s {name.title()} ({ITALIAN[name]})"
        out += [
            (Measure(f"{side}.{name}.place", f"where {who} is", "choice", "rule:O1, rule:O-saloon", choices=PLACES,
                     help="street: Main Street; saloon: the Saloon; unknown: face down where the position does not "
                          "name him"), of(_place, name)),
            (Measure(f"{side}.{name}.column", f"the column of {who}", "number", "rule:O1", -1, 7,
                     help="0-7 on Main Street from A's left (A's column i faces B's column i); -1 when not on Main "
                          "Street or unknown"), of(_column, name)),
        ]
        if name != "governor":  # "Il Giornalista non può mai Chiamare il Governatore"
            out.append((Measure(f"{side}.{name}.marked", f"{who} is on the Front Page", "yes/no", "rule:O-journalist"),
                        of(_marked, name)))
    return out


TABLE: dict[str, tuple[Measure, Callable[[Line], Value]]] = {
    m.name: (m, fn) for m, fn in _game_measures() + [x for s in SIDES for x in _side_measures(s)]}
"""Every measure by name, with how it reads a line."""
MEASURES: Mapping[str, Measure] = {name: m for name, (m, _) in TABLE.items()}


def values(line: Line, names: frozenset[str]) -> dict[str, Value]:
    """The values of the measures ``names`` on ``line``."""
    return {name: TABLE[name][1](line) for name in names}
