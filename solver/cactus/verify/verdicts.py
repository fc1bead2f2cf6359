"""Cactus Town's verdicts (``ruleslinger readings impact cactus``): the deck checks of :mod:`.checks` for 2-5
players and solo, the marshal's exact odds, and the lone ranger's turn on the example positions."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from solver.paths import SCENARIOS
from solver.readings.base import canon
from solver.readings.verdicts import ALL, Settings, Verdict, check_words, z3_value
from solver.z3check import CheckResult


def _cactus_timed(settings: Settings, fn: Callable[[], CheckResult]) -> dict:
    """Run a Cactus deck check with the settings' time limit for each Z3 solve."""
    from solver.cactus.verify import checks as cv

    limit = getattr(cv, "TIMEOUT", None)
    if limit is None:
        return z3_value(fn())
    token = limit.set(max(1, int(settings.time_limit * 1000)))
    try:
        return z3_value(fn())
    finally:
        limit.reset(token)


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
                   tuple(cv.READS[family]), _deck_why(family), words=check_words)


def verdicts() -> list[Verdict]:
    out = [_deck_verdict(family, p) for p in (2, 3, 4, 5) for family in EVENT_FAMILIES]
    out += [_deck_verdict(family, None) for family in SOLO_FAMILIES]
    odds_skip = {n: "the odds never play a lone ranger's turn or roll a duel (a duel win is the given chance "
                    "duel_win_chance)" for n in _RANGER_ONLY + _DUEL_ROLL}
    out.append(Verdict("marshal-odds/solo", "solo: the round the marshal's arrival ends the game (exact odds)",
                       lambda r, s: _odds(None, r), ALL, "", odds_skip, words=odds_words))
    for p in (2, 3, 4, 5):
        skip = dict(odds_skip)
        skip.update({n: "a game of 2-5 players ends by the event deck alone (odds.event_distribution); the solo "
                        "action deck is not dealt" for n in ("short_deck", "added_card", "solo_events",
                                                             "solo_event_cards")})
        out.append(Verdict(f"marshal-odds/p{p}", f"{p} players: the round the marshal's arrival card is drawn (exact odds)",
                           lambda r, s, p=p: _odds(p, r), ALL, "", skip, words=odds_words))
    ranger_skip = {n: "the lone ranger's turn (ranger.decide) does not touch the decks or the event odds (a DUEL "
                      "is rolled with the duel readings, not with duel_win_chance)"
                   for n in ("short_deck", "added_card", "marshal_discard", "stagecoach_short", "solo_events",
                             "solo_event_cards", "duel_win_chance", "duel_discards", "duels_per_round",
                             "max_duels_per_round")}
    for path in sorted((SCENARIOS / "cactus").glob("example-*.json")):
        out.append(Verdict(f"ranger/{path.stem}", f"the lone ranger's turn on {path.name}: where he can end and "
                           "with what chance", lambda r, s, path=path: _ranger(path, r), ALL, "", ranger_skip,
                           words=ends_words))
    return out


_RANGER_ONLY = ("step_tie", "tie_target", "directional_sneak", "escaped_visible", "pushed_to", "sharing_pick",
                "no_move", "pass_turn")


_DUEL_ROLL = ("die_sides", "duel_ties", "fast_draw_modifiers")


def _odds(players: int | None, readings) -> dict:
    from solver.cactus.odds import marshal_odds

    res = marshal_odds(players, readings)
    return {"rounds": res["rounds"], "never": res["never"]}


def odds_words(value: dict) -> str:
    """The marshal's odds in words: the rounds he can arrive in, the first one's chance, and never."""
    rounds = {int(r): p for r, p in (value.get("rounds") or {}).items() if Fraction(p)}
    if not rounds:
        return "the marshal never arrives"
    first = min(rounds)
    text = f"the marshal arrives in round {first} to {max(rounds)}; in round {first} with chance {rounds[first]}"
    never = value.get("never")
    return text + (f"; never with chance {never}" if never and Fraction(never) else "")


def ends_words(value: dict) -> str:
    """The lone ranger's turn in words: the row he follows and the squares he can end on, with their chances."""
    row = "with a visible target" if value.get("row") == "visible" else "without a visible target"
    ends = []
    for cell, p in (value.get("ends") or {}).items():
        try:
            x, y = json.loads(cell)
            ends.append(f"x{x} y{y} ({p})")
        except (ValueError, TypeError):
            ends.append(f"{cell} ({p})")
    return f"he follows the row {row} and ends on " + (", ".join(ends) or "no square")


def _ranger(path: Path, readings) -> dict:
    from solver.cactus.ranger import decide
    from solver.io.read import read_json

    position = read_json(path)
    res = decide({k: v for k, v in position.items() if k != "rules"}, readings)
    ends: dict[str, Fraction] = {}
    for o in res["outcomes"]:
        key = json.dumps(o["ranger"])
        ends[key] = ends.get(key, Fraction(0)) + Fraction(o["p"])
    return {"row": res["row"], "ends": {k: canon(v) for k, v in sorted(ends.items())}}
