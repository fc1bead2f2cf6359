"""Outlaws' verdicts (``ruleslinger readings impact outlaws``): the Z3 invariants of :mod:`.checks`, the
dead-position search (rule:O12) and win searches on the example positions. The searches' time limits count CPU
seconds (``time.process_time``), so a busy machine slows a verdict down but does not change its answer."""

from __future__ import annotations

import time
from pathlib import Path

from solver.paths import SCENARIOS
from solver.readings.verdicts import ALL, Settings, Verdict, check_words, counted, z3_value


def verdicts() -> list[Verdict]:
    from solver.outlaws.verify import checks as ov

    first = {"first_player": "a position names the side to move; who moved first at the set-up never enters"}
    out = [Verdict(f"verify/{cid}", f"invariant: {cid} ({ov.RULE_TEXT.get(cid, '')[:70]})",
                   lambda r, s, cid=cid: z3_value(ov.check_invariant(cid, r, s.time_limit)), ALL, "",
                   {"first_player": "the check starts from every well-formed position, whoever is to move"},
                   words=check_words)
           for cid in ov.CHECKS]
    out.append(Verdict("dead-positions", "O12: a position nobody can win is reachable from the set-up (seed 0)",
                       _dead, ALL, "", words=dead_words))
    for path in sorted((SCENARIOS / "outlaws").glob("*.json")):
        out.append(Verdict(f"status/{path.stem}", f"win_possible and the winner on {path.name}",
                           lambda r, s, path=path: _status(path, r, s), ALL, "", first, words=status_words))
    return out


def _dead(readings, settings: Settings) -> dict:
    from solver.outlaws.search.searches import dead_position_answer, find_dead_positions

    return dead_position_answer(find_dead_positions(None, readings, max_depth=80, time_limit=settings.time_limit,
                                                    max_nodes=100_000, seed=settings.seed, clock=time.process_time))


def dead_words(value: dict) -> str:
    """The dead-position search in words."""
    found = value.get("found")
    if found is True:
        return "a dead position is reachable"
    if found is False:
        return f"no dead position within {counted(value.get('within_depth') or 0, 'action')}"
    return f"undecided ({value.get('undecided') or 'search bound'})"


def status_words(value: dict) -> str:
    """A position's status in words: who has won, who can still win, whether sudden death is triggered."""
    can = value.get("win_possible") or {}
    parts = [f"{side} {'can still win' if can.get(side) else 'cannot win' if can.get(side) is False else 'undecided'}"
             for side in ("A", "B") if side in can]
    if value.get("winner"):
        parts.insert(0, f"{value['winner']} has won")
    if value.get("sudden_death_trigger"):
        parts.append("sudden death is triggered")
    return ", ".join(parts)


def _status(path: Path, readings, settings: Settings) -> dict:
    from solver.outlaws.position_json import read_position
    from solver.outlaws.search.searches import win_possible
    from solver.outlaws.victory import sudden_death_trigger, winner

    pos = read_position(path)
    won = winner(pos)
    ws = win_possible(pos, readings, time_limit=min(settings.time_limit, 10.0), clock=time.process_time)
    out = {"winner": won.winner if won else None, "sudden_death_trigger": sudden_death_trigger(pos, readings),
           "win_possible": {"A": ws.A, "B": ws.B}}
    if ws.A is None or ws.B is None:
        out["undecided"] = "search bound"
    return out
