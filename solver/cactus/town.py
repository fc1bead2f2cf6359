"""A solo position: the 5x5 town, the lone ranger, the outlaws, the outlaws' target buildings.

Coordinates are ``[x, y]``: ``x`` is the column 0-4 left to right, ``y`` the row 0-4 top to bottom;
the Sheriff's Office is the centre ``[2, 2]`` (the base game's town, from public sources). The JSON format is
documented in ``docs/cactus.md``. Pure functions over frozen dataclasses:

- rule:C9 visible targets, rule:C6 closest outlaw and movement steps (the tied target drawn
  first, with exact chances), rule:C-no-move and rule:C13 (a movement icon while sharing a
  building with an outlaw), rule:C7 horizontal / vertical SNEAK, rule:C-sprint and
  rule:C-double-sneak (up to 2 steps), rule:C11 the push after a lost duel.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from solver.cactus.readings import CactusReadings, frac_str
from solver.errors import BadInput
from solver.io.read import as_int, require

SIZE = 5
CENTRE = (2, 2)
HIDDEN = "?"
REVEALED_UNKNOWN = "*"  # revealed during a resolution; the user enters its name later

Cell = tuple[int, int]


@dataclass(frozen=True)
class Outlaw:
    name: str
    at: Cell | None  # None once escaped to the wilderness
    plunder: int = 0
    escaped: bool = False


@dataclass(frozen=True)
class Target:
    building: str
    plundered: bool = False


@dataclass(frozen=True)
class Town:
    grid: tuple[tuple[str, ...], ...]  # grid[y][x]: "?" face down, else the revealed building
    ranger: Cell
    outlaws: tuple[Outlaw, ...]
    targets: tuple[Target, ...] = ()

    def building(self, cell: Cell) -> str:
        return self.grid[cell[1]][cell[0]]

    def in_town(self) -> tuple[Outlaw, ...]:
        return tuple(o for o in self.outlaws if not o.escaped and o.at is not None)


def cell_from(value: Any, what: str) -> Cell:
    if not isinstance(value, list) or len(value) != 2:
        raise BadInput(f"{what}: expected [x, y], got {str(value)[:40]}")
    return (as_int(value[0], f"{what}[0]", 0, SIZE - 1), as_int(value[1], f"{what}[1]", 0, SIZE - 1))


def town_from_dict(data: Any, what: str = "position") -> Town:
    """Validate and build a :class:`Town` from the position JSON (``docs/cactus.md``)."""
    rows = require(data, "town", list, what)
    if len(rows) != SIZE:
        raise BadInput(f"{what}.town: expected {SIZE} rows, got {len(rows)}")
    grid = []
    for y, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != SIZE:
            raise BadInput(f"{what}.town[{y}]: expected a row of {SIZE} buildings")
        for x, cell in enumerate(row):
            if not isinstance(cell, str) or not cell.strip() or len(cell) > 60:
                raise BadInput(f"{what}.town[{y}][{x}]: expected '?' or a building name")
        grid.append(tuple(c.strip() for c in row))
    ranger = cell_from(data.get("ranger", list(CENTRE)), f"{what}.ranger")
    outlaws_raw = require(data, "outlaws", list, what)
    if not 1 <= len(outlaws_raw) <= 3:
        raise BadInput(f"{what}.outlaws: expected 1 to 3 outlaws, got {len(outlaws_raw)}")
    outlaws, names = [], set()
    for i, o in enumerate(outlaws_raw):
        w = f"{what}.outlaws[{i}]"
        name = require(o, "name", str, w)
        if name in names:
            raise BadInput(f"{w}.name: duplicate outlaw '{name}'")
        names.add(name)
        escaped = o.get("escaped", False)
        if not isinstance(escaped, bool):
            raise BadInput(f"{w}.escaped: expected true or false")
        plunder = as_int(o.get("plunder", 0), f"{w}.plunder", 0, 4)
        at = None if escaped else cell_from(require(o, "at", list, w), f"{w}.at")
        if escaped and o.get("at") is not None:
            raise BadInput(f"{w}: an escaped outlaw has no 'at' in town")
        outlaws.append(Outlaw(name, at, plunder, escaped))
    targets = []
    raw_targets = data.get("targets", [])
    if not isinstance(raw_targets, list):
        raise BadInput(f"{what}.targets: expected a list of {{\"building\": ..., \"plundered\": ...}}")
    for i, t in enumerate(raw_targets):
        w = f"{what}.targets[{i}]"
        if not isinstance(t, dict):
            raise BadInput(f"{w}: expected an object with 'building' and 'plundered'")
        plundered = t.get("plundered", False)
        if not isinstance(plundered, bool):
            raise BadInput(f"{w}.plundered: expected true or false")
        targets.append(Target(require(t, "building", str, w), plundered))
    if len(targets) > 4:
        raise BadInput(f"{what}.targets: the outlaws have 4 target buildings, got {len(targets)}")
    return Town(tuple(grid), ranger, tuple(outlaws), tuple(targets))


def town_to_dict(town: Town) -> dict:
    """The position document of ``town`` (docs/cactus.md), as :func:`town_from_dict` reads it."""
    return {"town": [list(r) for r in town.grid], "ranger": list(town.ranger),
            "outlaws": [{"name": o.name, "at": list(o.at) if o.at else None, "plunder": o.plunder,
                         "escaped": o.escaped} for o in town.outlaws],
            "targets": [{"building": t.building, "plundered": t.plundered} for t in town.targets]}


def building_key(name: str) -> str:
    """A building name as a player types it: letter case and extra spaces do not matter."""
    return " ".join(name.split()).casefold()


def visible_targets(town: Town, readings: CactusReadings = CactusReadings()) -> list[dict]:
    """rule:C9 visible targets (distance irrelevant): outlaws carrying plunder, and revealed
    target buildings not yet plundered (``readings.escaped_visible`` counts escaped plunderers too)."""
    out = []
    for o in town.outlaws:
        if o.plunder > 0 and (not o.escaped or readings.escaped_visible):
            out.append({"kind": "outlaw", "name": o.name, "at": list(o.at) if o.at else None})
    revealed = {building_key(town.building((x, y))): [x, y] for y in range(SIZE) for x in range(SIZE)
                if town.grid[y][x] not in (HIDDEN, REVEALED_UNKNOWN)}
    for t in town.targets:
        if not t.plundered and building_key(t.building) in revealed:
            out.append({"kind": "building", "name": t.building, "at": revealed[building_key(t.building)]})
    return out


def distance(a: Cell, b: Cell) -> int:
    """Building spaces between two cells with orthogonal moves (Manhattan distance)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def closest_outlaws(town: Town, at: Cell | None = None) -> tuple[int | None, tuple[Outlaw, ...]]:
    """rule:C6 the outlaws in town nearest to the lone ranger (all of them when tied)."""
    at = at or town.ranger
    present = town.in_town()
    if not present:
        return None, ()
    best = min(distance(at, o.at) for o in present)
    return best, tuple(o for o in present if distance(at, o.at) == best)


def sharing(town: Town) -> tuple[Outlaw, ...]:
    """Outlaws on the lone ranger's building."""
    return tuple(o for o in town.in_town() if o.at == town.ranger)


def _steps(at: Cell, goal: Cell, direction: str) -> list[Cell]:
    out = []
    if direction in ("any", "horizontal") and goal[0] != at[0]:
        out.append((at[0] + (1 if goal[0] > at[0] else -1), at[1]))
    if direction in ("any", "vertical") and goal[1] != at[1]:
        out.append((at[0], at[1] + (1 if goal[1] > at[1] else -1)))
    return out


def step_options(town: Town, direction: str = "any", readings: CactusReadings = CactusReadings(),
                 target: str | None = None) -> tuple[dict, ...]:
    """One step toward the closest outlaw: ``({"p", "to", "toward"}, ...)`` with exact chances.

    rule:C6: the target is drawn first among the tied closest outlaws (equal chances), then the
    step is taken toward it; a horizontal and a vertical step that both shorten the distance are
    both listed (``step_tie`` ``both``) or one is preferred. rule:C7: ``direction`` restricts the
    step; when the drawn target has no step that way, ``to`` is None: the icon is not possible on
    that draw (the slash falls through, as for any icon). rule:C-no-move: none at all when an
    outlaw shares his building (rule:C13 decides what the icon then does). ``target``: the outlaw
    drawn earlier this turn; rule:C6-tie-target ``kept``: he stays the target while among the closest.
    """
    if sharing(town):
        return ()
    _, tied = closest_outlaws(town)
    if readings.tie_target == "kept" and target in {o.name for o in tied}:
        tied = tuple(o for o in tied if o.name == target)
    out: dict[tuple, Fraction] = {}
    for o in tied:
        steps = _steps(town.ranger, o.at, direction)
        if len(steps) == 2 and readings.step_tie != "both":
            steps = [steps[0]] if readings.step_tie == "horizontal_first" else [steps[1]]
        for s in steps or [None]:
            key = (s, o.name)
            out[key] = out.get(key, Fraction(0)) + Fraction(1, len(tied) * max(1, len(steps)))
    return tuple({"p": p, "to": cell, "toward": name}
                 for (cell, name), p in sorted(out.items(), key=lambda kv: (kv[0][0] is None, kv[0])))


def adjacent(cell: Cell) -> tuple[Cell, ...]:
    """The orthogonally adjacent buildings on the 5x5 board."""
    x, y = cell
    return tuple((a, b) for a, b in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
                 if 0 <= a < SIZE and 0 <= b < SIZE)


def push_outcomes(town: Town, came_from: Cell | None, readings: CactusReadings = CactusReadings()) -> tuple[tuple[Fraction, Town], ...]:
    """rule:C11 "A losing lone ranger is pushed": he leaves the building he shares (nothing is
    revealed: a push is no RUN). ``pushed_to`` ``random_adjacent`` (inferred default): an
    orthogonally adjacent building, each equally likely; ``came_from``: back to the building he
    entered this one from (``came_from``; bad input when it is not known)."""
    if readings.pushed_to == "came_from":
        if came_from is None:
            raise BadInput("position.came_from: pushed_to=came_from needs the building he entered this one from "
                           "(he did not move this turn); give it as [x, y]")
        return ((Fraction(1), replace(town, ranger=came_from)),)
    cells = adjacent(town.ranger)
    return tuple((Fraction(1, len(cells)), replace(town, ranger=c)) for c in cells)


MOVES = {  # icon -> (steps, direction, reveals)
    "RUN": (1, "any", True), "RUN-ALL": (1, "any", True),
    "SNEAK": (1, "any", False), "SNEAK-ALL": (1, "any", False),
    "SPRINT": (2, "any", True), "DOUBLE-SNEAK": (2, "any", False),
    "HORIZONTAL-SNEAK": (1, "horizontal", False), "VERTICAL-SNEAK": (1, "vertical", False),
}


def _reveal(town: Town, cell: Cell) -> Town:
    if town.building(cell) != HIDDEN:
        return town
    rows = [list(r) for r in town.grid]
    rows[cell[1]][cell[0]] = REVEALED_UNKNOWN
    return replace(town, grid=tuple(tuple(r) for r in rows))


def move_outcomes(town: Town, icon: str, readings: CactusReadings = CactusReadings(),
                  target: str | None = None) -> tuple[tuple[Fraction, Town, dict], ...]:
    """Every outcome of one movement icon: ``(p, town after, action)``; empty when impossible; an
    action marked ``not_possible`` on a draw (rule:C6) whose target has no step of this icon.

    RUN reveals the building entered, SNEAK does not; SPRINT is up to 2 RUNs revealing only the
    final building (rule:C-sprint); DOUBLE SNEAK up to 2 SNEAKs (rule:C-double-sneak); each step
    aims at the then closest outlaw (a tie: rule:C6 ``tie_target``; ``target`` is the one drawn
    earlier this turn) and stops on an outlaw's building. rule:C7
    directional SNEAKs. rule:C13: while an outlaw shares his building ``no_move`` ``not_possible``
    gives no outcome, ``stay`` one outcome where he stays.
    """
    steps, direction, reveals = MOVES[icon]
    if direction != "any" and readings.directional_sneak == "plain_sneak":
        direction = "any"
    if sharing(town):
        if readings.no_move == "not_possible":
            return ()
        who = ", ".join(o.name for o in sharing(town))
        return ((Fraction(1), town, {"icon": icon, "stays": True, "to": None,
                                     "note": f"he shares a building with {who}: he will not move (rule C13)"}),)
    results: list[tuple[Fraction, Town, list]] = [(Fraction(1), town, [])]
    failed: list[tuple[Fraction, str]] = []
    for n in range(steps):
        nxt = []
        for p, t, path in results:
            aim = path[-1][1] if path else target
            opts = step_options(t, direction, readings, aim) if not (n and sharing(t)) else ()
            if not opts:
                nxt.append((p, t, path))
            for o in opts:
                if o["to"] is None and n == 0:
                    failed.append((p * o["p"], o["toward"]))
                elif o["to"] is None:
                    nxt.append((p * o["p"], t, path))
                else:
                    nxt.append((p * o["p"], replace(t, ranger=o["to"]), path + [(o["to"], o["toward"])]))
        results = nxt
    out = [_moved(town, icon, reveals, p, t, path) for p, t, path in results]
    out += [(p, town, {"icon": icon, "not_possible": True, "toward": [name],
                       "note": f"the target drawn among the tied closest outlaws is {name}: this icon has no step "
                               "toward him, so it is not possible (rule C6)"}) for p, name in failed]
    return tuple(out)


def _moved(town: Town, icon: str, reveals: bool, p: Fraction, t: Town, path: list) -> tuple[Fraction, Town, dict]:
    end = t.ranger
    if reveals:
        t = _reveal(t, end)
    return (p, t, {"icon": icon, "path": [list(c) for c, _ in path], "toward": [name for _, name in path],
                   "to": list(end), "reveals": list(end) if reveals and town.building(end) == HIDDEN else None})


def movement_summary(town: Town, readings: CactusReadings = CactusReadings()) -> dict:
    """For each movement icon: its possible destinations with exact chances (for the dashboard);
    ``"to": null`` is the chance the icon is not possible (rule:C6 drawn target without a step)."""
    out = {}
    for icon in ("RUN", "SNEAK", "SPRINT", "DOUBLE-SNEAK", "HORIZONTAL-SNEAK", "VERTICAL-SNEAK"):
        merged: dict[tuple | None, Fraction] = {}
        for p, t, act in move_outcomes(town, icon, readings):
            key = None if act.get("not_possible") else t.ranger
            merged[key] = merged.get(key, Fraction(0)) + p
        out[icon] = [{"to": list(c) if c is not None else None, "p": frac_str(p)}
                     for c, p in sorted(merged.items(), key=lambda kv: (kv[0] is None, kv[0] or (0, 0)))]
    return out
