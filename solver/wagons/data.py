"""Loading and validating the wagons data files in ``scenarios/wagons/`` (rule:X-bad-input).

``cards.json`` (the 18 fronts, rule:W-cards), ``goals.toml`` (the 18 scoring conditions, every
number a parameter) and ``scenarios.toml`` (the 6 solo scenarios: goal cards, round-2 draft rule,
opponent scoring readings). Every problem is a one-line :class:`BadInput` naming the file, the
entry and the field. The product never reads the project's shared folder at run time.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.io.read import read_data
from solver.paths import SCENARIOS
from solver.wagons import goal_kinds
from solver.wagons.codes import ICONS, TERRAINS
from solver.wagons.readings import GOAL_READINGS

DATA_DIR = SCENARIOS / "wagons"
CARDS_FILE = DATA_DIR / "cards.json"
GOALS_FILE = DATA_DIR / "goals.toml"
SCENARIOS_FILE = DATA_DIR / "scenarios.toml"

SCENARIO_IDS = ("boomtown", "gold-rush", "through-the-desert", "out-drink-the-competition",
                "water-the-herd", "cattle-drive")
GOAL_KINDS = goal_kinds.NAMES
"""Every goal card's ``kind``: the catalogue's (:mod:`solver.wagons.goal_kinds`) and ``unknown``."""
DRAFT_KINDS = ("skip-if-behind", "first-match", "skip-heavy-then-first-match")
READINGS = ("as-player", "sets", "per-symbol", "wagon-count")


# ---------------------------------------------------------------- records

@dataclass(frozen=True)
class Territory:
    """A quarter of a card front: its terrain and its icon (rule:W-cards)."""
    terrain: str
    icon: str


@dataclass(frozen=True)
class Card:
    """A card front (rule:W-cards), THE card record: its four territories top left, top right, bottom left, bottom
    right, the scoring condition on its back (an unverified pairing, rule:W9) and where it was checked. The engine,
    the verifier's models and the dashboard all read this one record (``load_data().cards``)."""
    id: int
    tl: Territory
    tr: Territory
    bl: Territory
    br: Territory
    back: str = ""
    checked_against: str = ""

    @property
    def territories(self) -> tuple[Territory, Territory, Territory, Territory]:
        return (self.tl, self.tr, self.bl, self.br)

    @property
    def cells(self) -> tuple[tuple[str, str], ...]:
        """(terrain, icon) of the four territories, top left first."""
        return tuple((t.terrain, t.icon) for t in self.territories)

    def icons(self) -> set[str]:
        """The icons the card shows."""
        return {t.icon for t in self.territories}

    def count(self, icons: Collection[str] = (), terrains: Collection[str] = ()) -> int:
        """Territories showing one of ``icons``, plus those of one of ``terrains`` (a territory can count twice)."""
        return sum((t.icon in icons) + (t.terrain in terrains) for t in self.territories)


@dataclass(frozen=True)
class GoalSpec:
    """One scoring condition: its numbers live in ``params`` (name -> value, lists as tuples)."""
    name: str
    kind: str
    known: bool
    text: str
    confidence: str
    source: str
    params: tuple[tuple[str, Any], ...] = ()
    param_confidence: tuple[tuple[str, str], ...] = ()

    def param(self, key: str) -> Any:
        for k, v in self.params:
            if k == key:
                return v
        raise BadInput(f"goals: goal '{self.name}' has no parameter '{key}'")


@dataclass(frozen=True)
class DraftRule:
    """A scenario's round-2 opponent draft rule (rule:W5), as parameters."""
    kind: str
    skip: int = 1
    look: int = 2
    icons: tuple[str, ...] = ()
    terrains: tuple[str, ...] = ()
    min_count: int = 1
    stop_icons: tuple[str, ...] = ()
    stop_terrains: tuple[str, ...] = ()
    heavy_icon: str = ""
    heavy_min: int = 2


@dataclass(frozen=True)
class OpponentReading:
    """How the opponent scores one goal card in one scenario (rule:W6)."""
    goal: str
    reading: str
    extra_guns: int = 0
    mine_terrains: tuple[str, ...] = ()
    can_lose: bool = True
    icons: tuple[str, ...] = ()
    terrains: tuple[str, ...] = ()
    per_set: int = 0
    points: int = 0
    divisor: int = 1
    cap: int = 6
    per_extra: int = 0


@dataclass(frozen=True)
class ScenarioSpec:
    id: str
    name: str
    goals: tuple[str, str]
    draft_text: str
    scoring_text: str
    draft: DraftRule
    opponent: tuple[OpponentReading, ...]

    def reading(self, goal: str) -> OpponentReading:
        for r in self.opponent:
            if r.goal == goal:
                return r
        raise BadInput(f"scenario '{self.id}': no opponent reading for '{goal}'")


@dataclass(frozen=True)
class WagonsData:
    cards: tuple[Card, ...]
    goals: tuple[GoalSpec, ...]
    scenarios: tuple[ScenarioSpec, ...]
    difficulty: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]  # later edition tables

    @cached_property
    def _goal_index(self) -> dict[str, GoalSpec]:
        return {g.name: g for g in self.goals}

    @cached_property
    def _scenario_index(self) -> dict[str, ScenarioSpec]:
        return {s.id: s for s in self.scenarios}

    def goal(self, name: str) -> GoalSpec:
        g = self._goal_index.get(name)
        if g is not None:
            return g
        raise BadInput(f"unknown goal card '{name}' (known: {', '.join(g.name for g in self.goals)})")

    def scorable_goal(self, name: str, use: str = "score") -> GoalSpec:
        """``goal(name)``, or BadInput when no source gives the card's scoring text (never invented)."""
        g = self.goal(name)
        if not g.known or g.kind == "unknown":
            raise BadInput(f"goal card '{name}': its scoring text is in no source the project has; cannot {use} it")
        return g

    def scenario(self, scenario_id: str) -> ScenarioSpec:
        s = self._scenario_index.get(scenario_id) if isinstance(scenario_id, str) else None
        if s is not None:
            return s
        raise BadInput(f"unknown scenario '{scenario_id}' (one of: {', '.join(SCENARIO_IDS)})")

    def for_readings(self, readings) -> WagonsData:
        """This data read under ``readings``' goal-card readings (rule:W11, rule:W12, rule:W13): each goal kind of
        :data:`~solver.wagons.readings.GOAL_READINGS` gets the parameter its reading sets (Boom or Bust's
        ``per_mine``, Badlands' ``twice_when_boxed``, Happy Cows' ``snow_corners``). Cached; the same object
        when it already reads that way, so scorers and optimizers may call it at every entry."""
        want = _reading_values(readings)
        if self._reading_values == want:
            return self
        hit = _READ_AS.get((id(self), want))
        if hit is not None and hit[0] is self:
            return hit[1]
        out = replace(self, goals=tuple(_read_as(g, dict(want)) for g in self.goals))
        if len(_READ_AS) > 64:
            _READ_AS.clear()
        _READ_AS[(id(self), want)] = (self, out)
        return out

    @cached_property
    def _reading_values(self) -> tuple | None:
        """The goal-reading parameters as set by :meth:`for_rules` (None: not set yet)."""
        got = {}
        for g in self.goals:
            if g.kind in GOAL_READINGS:
                _field, param, _values, _confidence = GOAL_READINGS[g.kind]
                have = dict(g.params)
                if param not in have or got.get(g.kind, have[param]) != have[param]:
                    return None
                got[g.kind] = have[param]
        return tuple((k, got.get(k, v)) for k, v in _reading_values(None))

    def difficulty_table(self, name: str) -> dict[int, int]:
        for n, table in self.difficulty:
            if n == name:
                return dict(table)
        raise BadInput(f"unknown difficulty '{name}' (one of: {', '.join(n for n, _ in self.difficulty)})")


def _set(pairs: tuple, key: str, value: Any) -> tuple:
    """``pairs`` (a frozen mapping) with ``key`` set to ``value`` (last)."""
    return tuple((k, v) for k, v in pairs if k != key) + ((key, value),)


def _reading_values(readings) -> tuple:
    """((goal kind, the parameter value its reading under ``readings`` sets), ...) (None: every default)."""
    out = []
    for kind, (field, _param, values, _confidence) in GOAL_READINGS.items():
        chosen = getattr(readings, field, None) if readings is not None else None
        out.append((kind, values[chosen if chosen in values else next(iter(values))]))
    return tuple(out)


def _read_as(goal: GoalSpec, want: dict) -> GoalSpec:
    """``goal`` with the parameter of its reading set to ``want[goal.kind]`` (rule:W11, rule:W12, rule:W13), unless
    the player read that reading off their own card (its confidence "card": the card settles it)."""
    if goal.kind not in want:
        return goal
    _field, param, _values, confidence = GOAL_READINGS[goal.kind]
    if dict(goal.param_confidence).get(param) == CARD:
        return goal
    return replace(goal, params=_set(goal.params, param, want[goal.kind]),
                   param_confidence=_set(goal.param_confidence, param, confidence))


_READ_AS: dict[tuple[int, tuple], tuple[WagonsData, WagonsData]] = {}
"""WagonsData.for_rules results: (id of the data, the reading values) -> (that data, the data read so)."""


# ---------------------------------------------------------------- validation helpers

def _get(d: Any, key: str, kind, where: str, default: Any = ...) -> Any:
    if not isinstance(d, dict):
        raise BadInput(f"{where}: expected a table/object, got {type(d).__name__}")
    if key not in d:
        if default is ...:
            raise BadInput(f"{where}: missing field '{key}'")
        return default
    v = d[key]
    ok = (isinstance(v, int) and not isinstance(v, bool)) if kind is int else isinstance(v, kind)
    if not ok:
        raise BadInput(f"{where}.{key}: expected {getattr(kind, '__name__', kind)}, got {type(v).__name__}")
    return v


def _names(d: dict, key: str, allowed: tuple[str, ...], where: str) -> tuple[str, ...]:
    items = _get(d, key, list, where, [])
    for item in items:
        if item not in allowed:
            raise BadInput(f"{where}.{key}: '{item}' is not one of {', '.join(allowed)}")
    return tuple(items)


def _freeze(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return tuple((k, _freeze(x)) for k, x in v.items())
    return v


def _num(v: Any, where: str) -> None:
    if isinstance(v, bool):
        return
    if isinstance(v, int):
        return
    if isinstance(v, list):
        for i, x in enumerate(v):
            _num(x, f"{where}[{i}]")
        return
    raise BadInput(f"{where}: expected a whole number (or list of them), got {short_repr(v, 40)}")


# ---------------------------------------------------------------- loaders

def parse_cards(doc: Any, what: str = "cards.json") -> tuple[Card, ...]:
    """Validate the card-front document (rule:W-cards)."""
    cards = _get(doc, "cards", list, what)
    out = []
    for n, c in enumerate(cards):
        where = f"{what}: card #{n}"
        cid = _get(c, "id", int, where)
        if cid != n:
            raise BadInput(f"{where}.id: expected {n} (ids run 0..{len(cards) - 1} in order), got {cid}")
        cells = []
        for q in ("tl", "tr", "bl", "br"):
            v = _get(c, q, list, f"{what}: card {cid}")
            if len(v) != 2 or v[0] not in TERRAINS or v[1] not in ICONS:
                raise BadInput(f"{what}: card {cid}.{q}: expected [terrain, icon], got {short_repr(v, 60)}")
            cells.append(Territory(v[0], v[1]))
        back = _get(c, "back_unverified", str, f"{what}: card {cid}", "")
        out.append(Card(cid, cells[0], cells[1], cells[2], cells[3], back, _get(c, "checked_against", str, f"{what}: card {cid}", "")))
    if len(out) != 18:
        raise BadInput(f"{what}: expected 18 cards, got {len(out)}")
    return tuple(out)


def parse_goals(doc: Any, what: str = "goals.toml") -> tuple[GoalSpec, ...]:
    goals = _get(doc, "goal", list, what)
    out, seen = [], set()
    for n, g in enumerate(goals):
        name = _get(g, "name", str, f"{what}: goal #{n}")
        where = f"{what}: goal '{name}'"
        if name in seen:
            raise BadInput(f"{where}: listed twice")
        seen.add(name)
        kind = _get(g, "kind", str, where)
        if kind not in GOAL_KINDS:
            raise BadInput(f"{where}.kind: '{kind}' is not one of {', '.join(GOAL_KINDS)}")
        known = _get(g, "known", bool, where)
        params = _get(g, "params", dict, where, {})
        for k, v in params.items():
            _num(v, f"{where}.params.{k}")
        conf = _get(g, "param_confidence", dict, where, {})
        out.append(GoalSpec(name, kind, known, _get(g, "text", str, where), _get(g, "confidence", str, where),
                            _get(g, "source", str, where), _freeze(params), _freeze(conf)))
    spec = {g.name: g for g in out}
    for g in out:
        if g.known:
            check_goal(g, what)
    return tuple(spec.values())


_REQUIRED = {k.name: k.params for k in goal_kinds.KINDS}
"""The numbers each kind's cards must give (the catalogue's)."""
_LIST_PARAMS = {p for k in goal_kinds.KINDS for p in k.lists}
"""Goal parameters that are lists; every other required parameter is one number or flag."""

GOAL_NUMBER_LIMIT = 1000
"""Every goal-card number lies in -1000..1000: far beyond any printed card, and small enough that
no score overflows the optimizers' 64-bit integer encodings (CP-SAT, the compiled walk)."""
MAX_TABLE = 16
"""Wagon Train run tables and Boom or Bust band lists hold at most 16 entries (the encodings build
one term per entry; a 16-card town has no longer run)."""


def _whole(v: Any, where: str, lo: int = -GOAL_NUMBER_LIMIT, hi: int = GOAL_NUMBER_LIMIT) -> int:
    """``v`` if it is a whole number in lo..hi (not a yes/no flag), else a one-line BadInput."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise BadInput(f"{where}: expected a whole number, got {short_repr(v, 40)}")
    if not lo <= v <= hi:
        raise BadInput(f"{where}: {short_repr(v, 40)} is outside {lo}..{hi}")
    return v


def _check_goal_params(g: GoalSpec, what: str) -> None:
    """Each goal's numbers against the domain every scorer and optimizer encoding supports
    (rule:X-bad-input): whole numbers within :data:`GOAL_NUMBER_LIMIT`, any sign where the card can
    subtract (every per-symbol value, Boom or Bust's band points, Wagon Train's run points), and the
    shapes and orders the card's text implies (bands, run table, divisor, Claim Jumpers' share)."""
    keys = dict(g.params)
    where = f"{what}: goal '{g.name}'.params"
    for k in _REQUIRED.get(g.kind, ()):
        if k not in keys:
            raise BadInput(f"{where}: missing '{k}'")
    for k in _REQUIRED.get(g.kind, ()):
        if k not in _LIST_PARAMS:
            _whole(keys[k], f"{where}.{k}")
    if g.kind == "prairie-life":
        _whole(keys["divisor"], f"{where}.divisor", 1)
    if g.kind == "claim-jumpers":
        _whole(keys["points"], f"{where}.points", 0)
        _whole(keys["taken_by_more_guns"], f"{where}.taken_by_more_guns", 0, keys["points"])
    if g.kind == "wagon-train":
        rp = keys["run_points"]
        if not isinstance(rp, tuple) or not 3 <= len(rp) <= MAX_TABLE:
            raise BadInput(f"{where}.run_points: need a list of 3 to {MAX_TABLE} numbers (points for a run of 0, 1, 2, ... Wagons)")
        for i, v in enumerate(rp):
            _whole(v, f"{where}.run_points[{i}]")
        if rp[0] != 0:
            raise BadInput(f"{where}.run_points[0]: a run of 0 Wagons is no run; it must score 0, got {rp[0]}")
    if g.kind in GOAL_READINGS:
        field, param, values, _confidence = GOAL_READINGS[g.kind]
        if param in keys:
            raise BadInput(f"{where}.{param}: a reading of the card, not a number of it: remove it and choose with "
                           f"--{field.replace('_', '-')} {'|'.join(values)} (rule:W11)")
    if g.kind == "boom-or-bust":
        _check_bands(keys["bands"], f"{where}.bands")


CARD = "card"
"""The confidence of a number (or a reading) the player read off their own card (solver.wagons.scoring.card_numbers)."""


def is_card(goal: GoalSpec) -> bool:
    """The player read this card's numbers off their own card (solver.wagons.scoring.card_numbers)."""
    return goal.confidence == CARD


def check_goal(goal: GoalSpec, what: str = "your card") -> None:
    """One goal's numbers against the domain every scorer and optimizer supports (as goals.toml's are); a reading
    the player read off the card (its confidence "card") is the card's, not a number to refuse."""
    conf = dict(goal.param_confidence)
    if goal.kind in GOAL_READINGS and conf.get(GOAL_READINGS[goal.kind][1]) == CARD:
        param = GOAL_READINGS[goal.kind][1]
        goal = replace(goal, params=tuple((k, v) for k, v in goal.params if k != param))
    _check_goal_params(goal, what)


def _check_bands(bands: Any, where: str) -> None:
    """Boom or Bust bands: [low, high, points] with 0 <= low <= high (high = -1: no limit, last band
    only), in increasing order without overlaps."""
    if not isinstance(bands, tuple) or not 1 <= len(bands) <= MAX_TABLE:
        raise BadInput(f"{where}: need a list of 1 to {MAX_TABLE} bands [low, high, points]")
    last = -1
    for n, band in enumerate(bands):
        bw = f"{where}[{n}]"
        if not (isinstance(band, tuple) and len(band) == 3):
            raise BadInput(f"{bw}: each band is [low, high, points] (high = -1: no upper limit), got {short_repr(band, 40)}")
        lo = _whole(band[0], f"{bw} low", 0, 64)
        hi = _whole(band[1], f"{bw} high", -1, 64)
        _whole(band[2], f"{bw} points")
        if lo <= last:
            raise BadInput(f"{bw}: starts at {lo} Mines, inside the band before it (bands go up without overlapping)")
        if hi == -1 and n != len(bands) - 1:
            raise BadInput(f"{bw}: only the last band may have no upper limit (high = -1)")
        if hi != -1 and hi < lo:
            raise BadInput(f"{bw}: high {hi} is below low {lo}")
        last = hi if hi != -1 else 10 ** 9


def parse_scenarios(doc: Any, goals: tuple[GoalSpec, ...], what: str = "scenarios.toml"
                    ) -> tuple[tuple[ScenarioSpec, ...], tuple]:
    names = {g.name for g in goals}
    out = []
    for n, s in enumerate(_get(doc, "scenario", list, what)):
        sid = _get(s, "id", str, f"{what}: scenario #{n}")
        where = f"{what}: scenario '{sid}'"
        if sid not in SCENARIO_IDS:
            raise BadInput(f"{where}.id: not one of {', '.join(SCENARIO_IDS)}")
        gl = _get(s, "goals", list, where)
        if len(gl) != 2 or any(not isinstance(g, str) or g not in names for g in gl):
            raise BadInput(f"{where}.goals: expected two goal names from goals.toml, got {short_repr(gl, 80)}")
        d = _get(s, "draft", dict, where)
        dw = f"{where}.draft"
        kind = _get(d, "kind", str, dw)
        if kind not in DRAFT_KINDS:
            raise BadInput(f"{dw}.kind: '{kind}' is not one of {', '.join(DRAFT_KINDS)}")
        draft = DraftRule(kind=kind, skip=_get(d, "skip", int, dw, 1), look=_get(d, "look", int, dw, 2),
                          icons=_names(d, "icons", ICONS, dw), terrains=_names(d, "terrains", TERRAINS, dw),
                          min_count=_get(d, "min_count", int, dw, 1),
                          stop_icons=_names(d, "stop_icons", ICONS, dw),
                          stop_terrains=_names(d, "stop_terrains", TERRAINS, dw),
                          heavy_icon=_get(d, "heavy_icon", str, dw, ""), heavy_min=_get(d, "heavy_min", int, dw, 2))
        if draft.heavy_icon and draft.heavy_icon not in ICONS:
            raise BadInput(f"{dw}.heavy_icon: '{draft.heavy_icon}' is not an icon")
        if not (1 <= draft.look <= 8) or not (0 <= draft.skip <= 7):
            raise BadInput(f"{dw}: look must be 1..8 and skip 0..7")
        opp = _get(s, "opponent", dict, where)
        readings = []
        for goal in gl:
            r = _get(opp, goal, dict, f"{where}.opponent")
            rw = f"{where}.opponent.'{goal}'"
            reading = _get(r, "reading", str, rw)
            if reading not in READINGS:
                raise BadInput(f"{rw}.reading: '{reading}' is not one of {', '.join(READINGS)}")
            readings.append(OpponentReading(
                goal=goal, reading=reading, extra_guns=_get(r, "extra_guns", int, rw, 0),
                mine_terrains=_names(r, "mine_terrains", TERRAINS, rw), can_lose=_get(r, "can_lose", bool, rw, True),
                icons=_names(r, "icons", ICONS, rw), terrains=_names(r, "terrains", TERRAINS, rw),
                per_set=_get(r, "per_set", int, rw, 0), points=_get(r, "points", int, rw, 0),
                divisor=max(1, _get(r, "divisor", int, rw, 1)), cap=_get(r, "cap", int, rw, 6),
                per_extra=_get(r, "per_extra", int, rw, 0)))
            for k in ("extra_guns", "per_set", "points", "divisor", "per_extra"):
                _whole(getattr(readings[-1], k), f"{rw}.{k}")
            _whole(readings[-1].cap, f"{rw}.cap", 0, 64)
        out.append(ScenarioSpec(sid, _get(s, "name", str, where), (gl[0], gl[1]),
                                _get(s, "draft_text", str, where, ""), _get(s, "scoring_text", str, where, ""),
                                draft, tuple(readings)))
    missing = set(SCENARIO_IDS) - {s.id for s in out}
    if missing:
        raise BadInput(f"{what}: missing scenarios {', '.join(sorted(missing))}")
    later = _get(doc, "later_edition", dict, what)
    diff = _get(later, "difficulty", dict, f"{what}: later_edition")
    tables = []
    for name, table in diff.items():
        tw = f"{what}: later_edition.difficulty.{name}"
        if not isinstance(table, dict):
            raise BadInput(f"{tw}: expected a table of terrain-count = points")
        rows = []
        for k, v in table.items():
            if not str(k).isdigit() or isinstance(v, bool) or not isinstance(v, int):
                raise BadInput(f"{tw}.{k}: expected whole numbers")
            rows.append((int(k), v))
        tables.append((name, tuple(sorted(rows))))
    return tuple(out), tuple(tables)


@lru_cache(maxsize=8)
def load_data(cards_path: str | None = None, goals_path: str | None = None,
              scenarios_path: str | None = None) -> WagonsData:
    """All wagons data, validated (cached per set of paths; ``None`` = the shipped files)."""
    cp = Path(cards_path) if cards_path else CARDS_FILE
    gp = Path(goals_path) if goals_path else GOALS_FILE
    sp = Path(scenarios_path) if scenarios_path else SCENARIOS_FILE
    cards = parse_cards(read_data(cp), cp.name)
    goals = parse_goals(read_data(gp), gp.name)
    scenarios, difficulty = parse_scenarios(read_data(sp), goals, sp.name)
    # read with the default goal-card readings (rule:W11); WagonsData.for_rules switches them
    return WagonsData(cards, goals, scenarios, difficulty).for_readings(None)
