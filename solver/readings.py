"""Every verdict the project states, rerun under each alternative reading (``ruleslinger readings``).

A *reading* is one field of a game's rules options (``solver/<game>/rules.py``): its listed values
come from the module's ``CHOICES`` table, from ``bool`` (both values), or for a numeric parameter
from :data:`NUMBERS` (listed values and the few the impact run tries). A *verdict* is a result the
project states (a Z3 check, the marshal-arrival odds, the dead-position search, a win search on an
example position, a greedy win rate, the lone ranger's turn on an example): a function of a rules
object, with the readings its code reads and the argument for the ones it does not (contracts.md
"Readings"; docs/open-questions.md names every reading).

:func:`impact` runs each verdict under the default readings, then under each alternative of each
reading it reads, one at a time (the other readings at their defaults; a reading that only means
something together with another, such as ``difficulty`` with ``edition = later``, is compared with
that other one set alike), and reports the readings that change it with the changed value. Readings
a verdict does not read are listed as skipped with its argument, never dropped. Results are cached
per process by verdict and rules; a result left undecided by a time limit is never cached.
"""

from __future__ import annotations

import contextvars
import dataclasses
import json
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from solver import registry
from solver.errors import BadInput
from solver.paths import SCENARIOS

GAMES = registry.ids()
"""The games whose readings are listed (:mod:`solver.registry`)."""
ALL = "*"
"""A verdict that passes the whole rules object to the engine reads every reading (minus its ``skip``)."""

NUMBERS: dict[tuple[str, str], tuple[tuple, tuple]] = {
    # (game, field): (every listed value, the alternatives the impact run tries)
    ("cactus", "die_sides"): (tuple(range(2, 21)), (4, 20)),
    ("cactus", "solo_event_cards"): (tuple(range(3, 18)), (10,)),
    ("cactus", "duel_win_chance"): (tuple(Fraction(k, 6) for k in range(7)), (Fraction(1, 2),)),
    ("cactus", "duels_per_round"): (tuple(range(0, 7)), (0, 2)),
    ("cactus", "max_duels_per_round"): (tuple(range(1, 13)), (1, 8)),
    ("wagons", "round1_window"): (tuple(range(1, 9)), (1, 2, 4)),
}
"""Numeric parameters: the values the dashboard offers and the probes of the impact run."""

TOGETHER: dict[tuple[str, str], dict[str, Any]] = {
    ("cactus", "solo_event_cards"): {"solo_events": True},
    ("wagons", "difficulty"): {"edition": "later"},
}
"""Readings that only mean something with another one set: their alternatives run with it."""

SWEEP = contextvars.ContextVar("readings_sweep", default=False)
"""True while :func:`impact` builds rules objects (the test suite's record of exercised readings
leaves those out: a sweep is not a test of the alternative)."""


# ------------------------------------------------------------------ readings


@dataclass(frozen=True)
class Reading:
    game: str
    name: str
    default: Any
    values: tuple  # every listed value (empty: the option has no listed alternatives)
    probes: tuple  # the alternatives the impact run tries
    together: dict = field(default_factory=dict)

    @property
    def kind(self) -> str:
        if isinstance(self.default, bool):
            return "bool"
        return "number" if (self.game, self.name) in NUMBERS else "choice"


def rules_class(game: str) -> type:
    return registry.game(game).rules


def game_readings(game: str) -> list[Reading]:
    """Every field of the game's rules options as a :class:`Reading` (in field order)."""
    cls = rules_class(game)
    table = cls.CHOICES
    default = cls()
    out = []
    for f in fields(cls):
        value = getattr(default, f.name)
        if f.name in table:
            values = tuple(table[f.name])
            probes = tuple(v for v in values if v != value)
        elif isinstance(value, bool):
            values, probes = (False, True), (not value,)
        elif (game, f.name) in NUMBERS:
            values, probes = NUMBERS[(game, f.name)]
        else:
            values, probes = (), ()
        out.append(Reading(game, f.name, value, values, probes, dict(TOGETHER.get((game, f.name), {}))))
    return out


def value_key(value: Any) -> str:
    """A reading's value as a short canonical text (the record of exercised readings)."""
    return json.dumps(canon(value))


def unexercised(seen: Iterable[tuple[str, str, str]]) -> list[str]:
    """``game.reading=value`` for every listed alternative no recorded rules object had; ``seen``
    holds (game, reading, :func:`value_key`) triples. A numeric parameter needs one value other than
    its default; a reading with named values (or a bool) needs each of them."""
    seen = set(seen)
    missing = []
    for game in GAMES:
        for r in game_readings(game):
            if r.kind == "number":
                if not any(g == game and n == r.name and k != value_key(r.default) for g, n, k in seen):
                    missing.append(f"{game}.{r.name}=<any value but {canon(r.default)}>")
                continue
            missing += [f"{game}.{r.name}={canon(v)}" for v in r.values if (game, r.name, value_key(v)) not in seen]
    return missing


def rules_with(game: str, overrides: dict) -> Any:
    """The game's default rules with ``overrides`` (field -> value)."""
    return replace(rules_class(game)(), **overrides)


def canon(value: Any) -> Any:
    """A reading's value as JSON (exact fractions as "p/q")."""
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return value


def parse_value(reading: Reading, text: str) -> Any:
    """A value typed on the command line, matched against the reading's listed values."""
    for v in reading.values:
        if str(canon(v)).lower() == str(text).strip().lower():
            return v
    raise BadInput(f"{reading.name}: '{str(text)[:40]}' is not one of "
                   f"{', '.join(str(canon(v)) for v in reading.values) or '(no listed values)'}")


def describe(game: str, name: str, value: Any, limit: int = 110) -> str:
    """One line on what ``name = value`` means: from the register entry whose option it is (its
    default, or the alternative that names the value), else from the rules class docstring; its first
    sentence, cut to ``limit`` characters."""
    from solver.register import register

    reg = register().for_game(game)
    own = _own_entries(reg, name)
    default = getattr(rules_class(game)(), name)
    text = str(canon(value))
    if value == default and own:
        return _first_sentence(own[0].default, limit)
    for entry in own + [r for r in reg if r not in own]:
        for alt in entry.alternatives:
            head, sep, rest = (x.strip() for x in alt.partition(":"))
            if sep and ((entry in own and head == text) or head.replace(" ", "") == f"{name}={text}"):
                return _first_sentence(rest, limit)
        if entry in own and isinstance(value, bool) and entry.alternatives:
            return _first_sentence(entry.alternatives[0], limit)
    for entry in reg:
        for alt in entry.alternatives:
            head, sep, rest = (x.strip() for x in alt.partition(":"))
            if sep and head == name:
                return f"{text}: {_first_sentence(rest, limit)}"
    return f"{text}: {_docstring_line(game, name, limit) or (own[0].title if own else name)}"


def option_rules(game: str, name: str) -> list:
    """The register entries an option belongs to: those naming it as their option (open questions first); else
    the rules its bullet in the rules class docstring cites (``- ``die_sides``, ... (rule:C8)``); else those whose
    alternatives or notes name it."""
    from solver.register import register

    reg = register().for_game(game)
    own = _own_entries(reg, name)
    if own:
        return own
    by_id = {r.id: r for r in reg}
    found = [by_id[c] for c in cited_rules(rules_class(game).__doc__ or "", name) if c in by_id]
    if found:
        return found
    return [r for r in reg if re.search(rf"\b{re.escape(name)}\b", " ".join(r.alternatives) + " " + r.notes)]


def _own_entries(reg, name: str) -> list:
    """The register entries naming ``name`` as their option, open questions first."""
    return sorted((r for r in reg if r.option == name), key=lambda r: not r.open_question)


def cited_rules(doc: str, name: str) -> list[str]:
    """The rule ids cited by the bullet of a rules class docstring that is about ``name`` (``- ``name`` (rule:C8):
    text``, or ``- ``a``, ``name`` (rule:C8)``: the names before its "(" or ":"), not by a bullet that only
    mentions it; [] without one."""
    for bullet in re.split(r"\n\s*- ", doc)[1:]:
        if f"``{name}``" in re.split(r"[(:]", bullet, maxsplit=1)[0]:
            return re.findall(r"rule:([\w-]+)", bullet)
    return []


def _docstring_line(game: str, name: str, limit: int = 110) -> str:
    """The rules class docstring's bullet for ``name`` (``- ``name`` (a rule id): text``), first sentence."""
    doc = " ".join((rules_class(game).__doc__ or "").split())
    m = re.search(r"``" + re.escape(name) + r"``(?:\s*\([^)]*\))?\s*:\s*(.*?)(?= - ``|$)", doc)
    return _first_sentence(m.group(1), limit) if m else ""


def _first_sentence(text: str, limit: int = 110) -> str:
    text = " ".join(str(text).split())
    cut = text.find(". ")
    text = text if cut < 0 else text[:cut + 1]
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."


# ------------------------------------------------------------------ verdicts


@dataclass(frozen=True)
class Settings:
    """Bounds of the work: seconds per Z3 check or search, Lone Cowboy games per scenario."""

    time_limit: float = 30.0
    games: int = 100
    seed: int = 0

    def __post_init__(self):
        if not 0 < self.time_limit <= 3600:
            raise BadInput(f"time limit {self.time_limit}: expected 0 < seconds <= 3600")
        if isinstance(self.games, bool) or not 1 <= self.games <= 100_000:
            raise BadInput(f"games {self.games}: expected 1..100000")


@dataclass(frozen=True)
class Verdict:
    """A stated result as a function of the rules: ``run(rules, settings)`` -> a JSON value; a
    dict with ``"undecided"`` means a time limit or bound ran out."""

    id: str
    title: str
    run: Callable[[Any, Settings], Any]
    reads: tuple[str, ...] | str  # the readings its code reads, or ALL
    why: str  # the argument: what its code reads, hence why the other readings cannot touch it
    skip: dict = field(default_factory=dict)  # with ALL: readings left out, each with its argument

    def reads_reading(self, name: str) -> bool:
        return name not in self.skip if self.reads == ALL else name in self.reads

    def skip_reason(self, name: str) -> str:
        return self.skip.get(name) or self.why


def _cactus_timed(settings: Settings, fn: Callable[[], dict]) -> dict:
    """Run a Cactus deck check with the settings' time limit for each Z3 solve."""
    from solver.cactus.verify import checks as cv

    limit = getattr(cv, "TIMEOUT", None)
    if limit is None:
        return _z3_value(fn())
    token = limit.set(max(1, int(settings.time_limit * 1000)))
    try:
        return _z3_value(fn())
    finally:
        limit.reset(token)


def _z3_value(check: dict) -> dict:
    if check.get("holds") is None:
        return {"holds": None, "undecided": "time limit"}
    out = {"holds": check["holds"]}
    details = check.get("details") or {}
    for key in ("earliest", "latest", "bound"):
        if details.get(key) is not None:
            out[key] = details[key]
    return out


# ---- Cactus Town

_TITLES = {"event-end-bound": "Train and Stagecoach keep the marshal's end within its bound",
           "event-last-3-rounds": "the game ends in the rounds of the last 3 cards",
           "duel-discard-reaches-marshal": "a duel discard can reach the marshal's arrival",
           "event-end-bound-with-duels": "duel discards in any round: the marshal always ends the game, and the "
                                         "earliest end",
           "event-marshal-last-3": "the marshal's arrival is among the last 3 event cards",
           "c5-reading-changes-end": "the Stagecoach reading (C5) never changes the end round",
           "solo-deck-3-plus-1-through-round-11": "solo: rounds 1-11 have 3 programmed cards and a second shot",
           "solo-deck-3-plus-1-after-round-11": "solo: rounds 12+ still have 3 programmed cards and a second shot",
           "solo-marshal-bound": "solo: the marshal's arrival is revealed by a bound round, whatever the shuffles"}
EVENT_FAMILIES = ("event-marshal-last-3", "event-end-bound", "event-last-3-rounds", "duel-discard-reaches-marshal",
                  "event-end-bound-with-duels", "c5-reading-changes-end")
SOLO_FAMILIES = ("solo-deck-3-plus-1-through-round-11", "solo-deck-3-plus-1-after-round-11", "solo-marshal-bound")


def _deck_why(family: str) -> str:
    from solver.cactus.verify import checks as cv

    reads = cv.READS[family]
    return (f"the Z3 model of this check (verify.run_check('{family}')) takes only "
            f"{', '.join(reads) if reads else 'no reading'} (verify.READS); the deck's shuffles, the added solo "
            "cards and whether a duel is won are free choices of the model")


def _deck_verdict(family: str, players: int | None) -> Verdict:
    from solver.cactus.verify import checks as cv

    vid = f"{family}/p{players}" if players else family
    title = f"{players} players: {_TITLES[family]}" if players else _TITLES[family]
    return Verdict(vid, title, lambda r, s: _cactus_timed(s, lambda: cv.run_check(family, r, players)),
                   tuple(cv.READS[family]), _deck_why(family))


def _cactus_verdicts() -> list[Verdict]:
    out = [_deck_verdict(family, p) for p in (2, 3, 4, 5) for family in EVENT_FAMILIES]
    out += [_deck_verdict(family, None) for family in SOLO_FAMILIES]
    odds_skip = {n: "the odds never play a lone ranger's turn or roll a duel (a duel win is the given chance "
                    "duel_win_chance)" for n in _RANGER_ONLY + _DUEL_ROLL}
    out.append(Verdict("marshal-odds/solo", "solo: the round the marshal's arrival ends the game (exact odds)",
                       lambda r, s: _odds(None, r), ALL, "", odds_skip))
    for p in (2, 3, 4, 5):
        skip = dict(odds_skip)
        skip.update({n: "a game of 2-5 players ends by the event deck alone (odds.event_distribution); the solo "
                        "action deck is not dealt" for n in ("short_deck", "added_card", "solo_events",
                                                             "solo_event_cards")})
        out.append(Verdict(f"marshal-odds/p{p}", f"{p} players: the round the marshal's arrival card is drawn (exact odds)",
                           lambda r, s, p=p: _odds(p, r), ALL, "", skip))
    ranger_skip = {n: "the lone ranger's turn (ranger.decide) does not touch the decks or the event odds (a DUEL "
                      "is rolled with the duel readings, not with duel_win_chance)"
                   for n in ("short_deck", "added_card", "marshal_discard", "stagecoach_short", "solo_events",
                             "solo_event_cards", "duel_win_chance", "duel_discards", "duels_per_round",
                             "max_duels_per_round")}
    for path in sorted((SCENARIOS / "cactus").glob("example-*.json")):
        out.append(Verdict(f"ranger/{path.stem}", f"the lone ranger's turn on {path.name}: where he can end and "
                           "with what chance", lambda r, s, path=path: _ranger(path, r), ALL, "", ranger_skip))
    return out


_RANGER_ONLY = ("step_tie", "tie_target", "directional_sneak", "escaped_visible", "pushed_to", "sharing_pick",
                "no_move", "pass_turn")
_DUEL_ROLL = ("die_sides", "duel_ties", "fast_draw_modifiers")


def _odds(players: int | None, rules) -> dict:
    from solver.cactus.odds import marshal_odds

    res = marshal_odds(players, rules)
    return {"rounds": res["rounds"], "never": res["never"]}


def _ranger(path: Path, rules) -> dict:
    from solver.cactus.ranger import decide
    from solver.io import read_json

    position = read_json(path)
    res = decide({k: v for k, v in position.items() if k != "rules"}, rules)
    ends: dict[str, Fraction] = {}
    for o in res["outcomes"]:
        key = json.dumps(o["ranger"])
        ends[key] = ends.get(key, Fraction(0)) + Fraction(o["p"])
    return {"row": res["row"], "ends": {k: canon(v) for k, v in sorted(ends.items())}}


# ---- Outlaws

def _outlaws_verdicts() -> list[Verdict]:
    from solver.outlaws.verify import checks as ov

    first = {"first_player": "a position names the side to move; who moved first at the set-up never enters"}
    out = [Verdict(f"verify/{cid}", f"invariant: {cid} ({ov.RULE_TEXT.get(cid, '')[:70]})",
                   lambda r, s, cid=cid: _z3_value(ov.check_invariant(cid, r, s.time_limit)), ALL, "",
                   {"first_player": "the check starts from every well-formed position, whoever is to move"})
           for cid in ov.CHECKS]
    out.append(Verdict("dead-positions", "O12: a position nobody can win is reachable from the set-up (seed 0)",
                       _dead, ALL, ""))
    for path in sorted((SCENARIOS / "outlaws").glob("*.json")):
        out.append(Verdict(f"status/{path.stem}", f"win_possible and the winner on {path.name}",
                           lambda r, s, path=path: _status(path, r, s), ALL, "", first))
    return out


def _dead(rules, settings: Settings) -> dict:
    from solver.outlaws.search import dead_position_answer, find_dead_positions

    return dead_position_answer(find_dead_positions(None, rules, max_depth=80, time_limit=settings.time_limit,
                                                    max_nodes=100_000, seed=settings.seed))


def _status(path: Path, rules, settings: Settings) -> dict:
    from solver.outlaws.search import win_possible
    from solver.outlaws.state import read_position
    from solver.outlaws.victory import sudden_death_trigger, winner

    pos = read_position(path)
    won = winner(pos)
    ws = win_possible(pos, rules, time_limit=min(settings.time_limit, 10.0))
    out = {"winner": won[0] if won else None, "sudden_death_trigger": sudden_death_trigger(pos, rules),
           "win_possible": {"A": ws.A, "B": ws.B}}
    if ws.A is None or ws.B is None:
        out["undecided"] = "search bound"
    return out


# ---- Lone Cowboy

def _wagons_verdicts() -> list[Verdict]:
    from solver.wagons.data import load_data

    out = [Verdict(f"greedy-wins/{sid}", f"{sid}: games the greedy policy wins (seeded deals)",
                   lambda r, s, sid=sid: _greedy(sid, r, s), ALL, "")
           for sid in [sc.id for sc in load_data().scenarios]]
    from solver.wagons.verify import checks as wagons_verify  # Z3 loads only when the verdicts are listed

    out += [Verdict(f"wagons-verify/{check}", f"the Lone Cowboy check '{check}' (wagons verify), per scenario",
                    lambda r, s, check=check: _wagons_check(check, r, s), ALL, "", _WAGONS_CHECK_SKIPS.get(check, {}))
            for check in wagons_verify.CHECK_IDS]
    return out


_SCORING = ("boom_or_bust", "boomtown_mines", "tie_break", "difficulty", "badlands_both_ways", "happy_cows_snow")
_GAME_ONLY = {n: "the check's Z3 game (verify_model.GameModel) follows the deal, the drafts and the pile; no score "
                 "is computed in it, so the scoring readings cannot change it" for n in _SCORING}
_WAGONS_CHECK_SKIPS = {
    "card-conservation": _GAME_ONLY, "termination": _GAME_ONLY, "automaton": _GAME_ONLY,
    "playability": {n: "placement (rule:W-place, rule:W-cover) takes no reading: the check asks only whether "
                       "the card in hand has a legal spot in every reachable town" for n in (
                           *_SCORING, "icon_source", "match_order", "edition", "round1_window", "round1_pick",
                           "boomtown_count")},
}
"""Readings each Lone Cowboy check cannot read, with the argument (the others it reads)."""


def _wagons_check(check: str, rules, settings: Settings) -> dict:
    """One ``wagons verify`` check in every scenario, each solve within the settings' time limit;
    a scenario left undecided by the limit makes the verdict undecided (never cached, never 'holds')."""
    from solver.wagons.verify import checks as wagons_verify

    rows = wagons_verify.run_checks(checks=(check,), rules=rules, time_limit=settings.time_limit)
    out = {row["id"]: row["holds"] for row in rows}
    if any(v is None for v in out.values()):
        return {"undecided": "time limit", **out}
    return out


def _greedy(scenario: str, rules, settings: Settings) -> dict:
    from solver.wagons.simulate import play_row

    wins = ties = 0
    for seed in range(settings.seed, settings.seed + settings.games):
        w = play_row(scenario, "greedy", seed, rules)["winner"]
        wins += w == "player"
        ties += w == "tie"
    return {"wins": wins, "ties": ties, "games": settings.games}


VERDICTS = {"wagons": _wagons_verdicts, "cactus": _cactus_verdicts, "outlaws": _outlaws_verdicts}

UNREAD: dict[str, dict[str, str]] = {}
"""Readings no verdict reads, each with the argument why none can depend on them."""

def verdicts(game: str) -> list[Verdict]:
    rules_class(game)
    return VERDICTS[game]()


# ------------------------------------------------------------------ the impact run

_CACHE: dict[tuple, Any] = {}


def _undecided(value: Any) -> bool:
    return isinstance(value, dict) and bool(value.get("undecided"))


def _run(game: str, verdict: Verdict, overrides: dict, settings: Settings) -> Any:
    rules = rules_with(game, overrides)
    key = (game, verdict.id, settings, json.dumps({k: canon(v) for k, v in sorted(overrides.items())}))
    if key in _CACHE:
        return _CACHE[key]
    value = verdict.run(rules, settings)
    if not _undecided(value):
        _CACHE[key] = value
    return value


def plan(game: str, verdict: Verdict, readings: list[Reading]) -> list[tuple[Reading, Any]]:
    """(reading, alternative) pairs the verdict is run under, besides the defaults."""
    return [(r, v) for r in readings if verdict.reads_reading(r.name) for v in r.probes]


def impact(game: str, only: Iterable[str] | None = None, settings: Settings = Settings(),
           progress: Callable[[int, int, str], None] | None = None) -> dict:
    """The ``ruleslinger readings impact GAME`` result (contracts.md "Readings")."""
    chosen = verdicts(game)
    if only:
        known = {v.id for v in chosen}
        wanted = list(only)
        bad = [w for w in wanted if w not in known]
        if bad:
            raise BadInput(f"--verdict {bad[0]!r}: not a {game} verdict (see `ruleslinger readings verdicts {game}`)")
        chosen = [v for v in chosen if v.id in wanted]
    readings = game_readings(game)
    total = sum(1 + sum(2 if r.together else 1 for r, _ in plan(game, v, readings)) for v in chosen)
    done = [0]

    def step(label: str) -> None:
        done[0] += 1
        if progress:
            progress(done[0], total, label)

    start = time.perf_counter()
    token = SWEEP.set(True)
    try:
        rows = [_verdict_row(game, v, readings, settings, step) for v in chosen]
    finally:
        SWEEP.reset(token)
    out = {"game": game, "verdicts": rows,
           "readings": [{"reading": r.name, "default": canon(r.default), "alternatives": [canon(v) for v in r.probes],
                         **({"with": {k: canon(x) for k, x in r.together.items()}} if r.together else {})}
                        for r in readings],
           "unread": [{"reading": n, "why": why} for n, why in UNREAD.get(game, {}).items()],
           "method": "each alternative alone, the other readings at their defaults",
           "settings": dataclasses.asdict(settings), "seconds": round(time.perf_counter() - start, 2)}
    return out


def _verdict_row(game: str, verdict: Verdict, readings: list[Reading], settings: Settings, step) -> dict:
    t0 = time.perf_counter()
    default = _run(game, verdict, {}, settings)
    step(f"{verdict.id} (default readings)")
    depends, undecided, checked = [], [], []
    for reading, value in plan(game, verdict, readings):
        base = default
        if reading.together:
            base = _run(game, verdict, dict(reading.together), settings)
            step(f"{verdict.id} ({reading.name} baseline)")
        result = _run(game, verdict, {**reading.together, reading.name: value}, settings)
        step(f"{verdict.id} ({reading.name}={canon(value)})")
        entry = {"reading": reading.name, "value": canon(value), "result": result}
        if reading.together:
            entry["with"] = {k: canon(x) for k, x in reading.together.items()}
            entry["compared_with"] = base
        checked.append(entry)
        if _undecided(result) or _undecided(base):
            undecided.append(entry)
        elif result != base:
            depends.append(entry)
    skipped = [{"reading": r.name, "why": verdict.skip_reason(r.name)} for r in readings
               if not verdict.reads_reading(r.name)]
    return {"id": verdict.id, "title": verdict.title, "default": default, "depends_on": depends,
            "holds_under_every_reading": not depends and not undecided and not _undecided(default),
            "undecided": undecided, "skipped": skipped, "checked": checked,
            "seconds": round(time.perf_counter() - t0, 2)}


def clear_cache() -> None:
    _CACHE.clear()


# ------------------------------------------------------------------ CLI


def _impact_cmd(args) -> dict:
    from solver import clikit

    settings = Settings(time_limit=args.time_limit, games=args.games, seed=args.seed)
    bar = clikit.Progress(f"readings impact {args.game_name}", quiet=args.json)
    return impact(args.game_name, args.verdict, settings, lambda d, t, label: bar(d, f"of {t}: {label}"))


def _render_impact(result: dict) -> str:
    lines = [f"{result['game']}: each verdict under each alternative reading ({result['method']}; "
             f"{result['seconds']} s)"]
    for v in result["verdicts"]:
        lines.append(f"{v['id']}: default {json.dumps(v['default'])}")
        if v["holds_under_every_reading"]:
            lines.append("    holds under every reading it reads")
        for d in v["depends_on"]:
            lines.append(f"    changed by {d['reading']}={d['value']}: {json.dumps(d['result'])}")
        for d in v["undecided"]:
            lines.append(f"    undecided under {d['reading']}={d['value']} (time limit)")
        if v["skipped"]:
            lines.append(f"    skipped: {', '.join(s['reading'] for s in v['skipped'])}")
    for u in result["unread"]:
        lines.append(f"no verdict reads {u['reading']}: {u['why']}")
    for m in result.get("missing", []):
        lines.append(f"not run: {m['verdict']}: {m['why']}")
    return "\n".join(lines)


def _verdicts_cmd(args) -> dict:
    readings = game_readings(args.game_name)
    return {"game": args.game_name, "verdicts": [
        {"id": v.id, "title": v.title,
         "reads": [r.name for r in readings if v.reads_reading(r.name)],
         "skipped": [{"reading": r.name, "why": v.skip_reason(r.name)} for r in readings if not v.reads_reading(r.name)]}
        for v in verdicts(args.game_name)]}


def _options_cmd(args) -> dict:
    g = args.game_name
    return {"game": g, "readings": [
        {"reading": r.name, "default": canon(r.default), "kind": r.kind,
         "values": [{"value": canon(v), "description": describe(g, r.name, v)} for v in r.values],
         **({"with": {k: canon(x) for k, x in r.together.items()}} if r.together else {})}
        for r in game_readings(g)]}


def register_cli(games) -> None:
    from solver import clikit

    group = clikit.add_group(games, "readings", "every verdict across the readings of the rules")
    p = clikit.add_command(group, "impact", "rerun each verdict under each alternative reading and say which "
                           "readings change it", _impact_cmd, _render_impact)
    p.add_argument("game_name", metavar="GAME", choices=list(GAMES), help=", ".join(GAMES))
    p.add_argument("--verdict", action="append", metavar="ID", help="only this verdict (repeatable; ids from "
                   "`readings verdicts GAME`)")
    p.add_argument("--time-limit", type=float, default=30.0, help="seconds per Z3 solve or search (default 30)")
    p.add_argument("--games", type=int, default=100, help="Lone Cowboy games per scenario (default 100)")
    p.add_argument("--seed", type=clikit.seed_int, default=0, help="first deal seed / set-up seed (default 0)")
    p = clikit.add_command(group, "verdicts", "the verdicts of a game and the readings each one reads", _verdicts_cmd)
    p.add_argument("game_name", metavar="GAME", choices=list(GAMES), help=", ".join(GAMES))
    p = clikit.add_command(group, "options", "the readings of a game, their values and what each means", _options_cmd)
    p.add_argument("game_name", metavar="GAME", choices=list(GAMES), help=", ".join(GAMES))
