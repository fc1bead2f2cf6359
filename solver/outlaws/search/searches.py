"""Can a side still win, and are there dead positions? (rule:O12, rule:O-win-possible)

Both searches are explicit searches over the concrete engine's positions (``legal_actions`` and every
outcome of ``outcomes``), memoised on a canonical position key (the table, the supplies, whose turn;
what each player knows is left out because legality and the result never depend on it). Both players
cooperate and the hidden information is chosen (each outcome is a branch), as ``win_possible`` of
contracts.md asks.

- :func:`win_possible`: best-first search (weighted A*, f = depth + w * estimated actions left) per
  side, with a depth bound, a node budget and a time limit. A side's answer is *proven* when a
  winning line is found (returned), when the token-economy argument below shows no victory is left,
  or when the search exhausted every reachable position; otherwise it is ``None`` (bounded).
- :func:`find_dead_positions`: the same search aimed at positions where nobody can win while the
  sudden-death trigger (rule:O11) does not hold, guided toward using up Votes, Bullets and Handcuffs.

The token-economy argument (:func:`victory_left`), sound for *impossibility*: Votes only move from
the table to a supply; Bullets and Handcuffs only move table -> supply -> discard (or between supplies
by the Bandit), and come back only by the Sheriff recovering his own Handcuffs (which needs one) or by
the sudden-death reset (rule:O11), which needs both sides at exactly 3 Votes and comes again each time
its condition holds again (``sudden_death_repeats="repeats"``, the default) or only once ("once"). So
a side can win Good only if the Election token is still on the table and its Votes plus those left on
the table exceed the opponent's, Bad only if a Bullet is outside the discard or sudden death is still
to come, Ugly likewise with Handcuffs. Under "repeats" this leaves no dead position at all: a side
beyond 3 Votes keeps the Election token on the table (it leaves only by a Good victory or a reset,
and a reset needs 3-3), and with 3-3 the Bullets and Handcuffs come back whenever they run out.
The expansion and the best-first search themselves are :mod:`solver.outlaws.search.best_first`. Why an explicit search
rather than Z3 bounded model checking: the winning lines need the engine's
exact hidden-outcome semantics, and the engine is the thing users run; the Z3 encoding of the rules
(verify.py) is cross-checked against the engine instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from solver.errors import BadInput
from solver.outlaws.position import EMPTY, SIDES, Position, other, unknown_token_pool
from solver.outlaws.position_json import position_to_json
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.search.best_first import (
    INF,
    Expansion,
    Layouts,
    SearchResult,
    best_first,
    expansion,
    position_key,
    successors,
)
from solver.outlaws.victory import sudden_death_trigger, victory_name

__all__ = ["INF", "Expansion", "Layouts", "SearchResult", "best_first", "expansion", "position_key", "successors",
           "victory_left", "can_still_win", "is_dead", "sudden_death_to_come", "economy_class", "reachable_class",
           "dead_position_classes", "estimate_win", "estimate_dead", "WinSearch", "win_possible_side", "win_possible",
           "find_dead_positions", "dead_position_answer"]


# ------------------------------------------------------------------ the token economy


def _table_count(pos: Position) -> dict:
    """Upper bound on each token type still on the table (street + reserve), unknown slots included."""
    counts = {k: 0 for k in ("vote", "bullet", "handcuffs", "x", "election")}
    unknown = 0
    for t in pos.tokens + pos.reserve:
        if t is None:
            unknown += 1
        elif t != EMPTY:
            counts[t] += 1
    if unknown:
        for k, n in unknown_token_pool(pos).items():
            counts[k] += min(n, unknown)
    return counts


def sudden_death_to_come(pos: Position, readings: OutlawsReadings = OutlawsReadings()) -> bool:
    """rule:O11: the reset can still happen: it needs Votes tied 3-3 (so neither side beyond 3), and
    with ``sudden_death_repeats="once"`` no sudden death yet."""
    if pos.sudden_death and readings.sudden_death_repeats == "once":
        return False
    return pos.supply.A.vote <= 3 and pos.supply.B.vote <= 3


def victory_left(pos: Position, side: str, readings: OutlawsReadings = OutlawsReadings()) -> dict[str, bool]:
    """For each victory, False when the token economy proves ``side`` can never win it (sound);
    True means "not excluded" (rule:O12, rule:O5, rule:O11)."""
    if pos.winner is not None:
        return {v: pos.winner == side and pos.victory == v for v in ("good", "bad", "ugly")}
    opp = other(side)
    table = _table_count(pos)
    me, them = pos.supply[side], pos.supply[opp]
    later = sudden_death_to_come(pos, readings)
    good = (not pos.sudden_death and table["election"] > 0 and me.vote + table["vote"] > them.vote)
    bullets = me.bullet + table["bullet"] + them.bullet > 0
    cuffs = me.handcuffs + table["handcuffs"] + them.handcuffs > 0
    return {"good": good, "bad": bullets or later, "ugly": cuffs or later}


def can_still_win(pos: Position, side: str, readings: OutlawsReadings = OutlawsReadings()) -> bool:
    return any(victory_left(pos, side, readings).values())


def is_dead(pos: Position, readings: OutlawsReadings = OutlawsReadings()) -> bool:
    """rule:O12: nobody has won, the sudden-death trigger does not hold, and neither side can win
    (proven by the token economy).

    The converse (token economy leaves a victory open => a line to it exists) is argued, not machine
    checked: a token in a supply can always be used by its holder (the owner moves the Hitman/Sheriff
    across the target, at most one immobilized character per row, the opponent declines to save or
    cancel), a token on the street is taken by the right character, and a reserve is never stranded
    (columns only empty once the reserve is empty, and it never refills). So this criterion is what
    "dead" means here; the searches also report the bound they covered."""
    return (pos.winner is None and not sudden_death_trigger(pos, readings)
            and not can_still_win(pos, "A", readings) and not can_still_win(pos, "B", readings))


def economy_class(pos: Position) -> tuple:
    """What :func:`is_dead` reads of a position: (sudden death, A's Votes, B's Votes, Votes on the
    table, a Bullet outside the discard, Handcuffs outside the discard, the Election on the table)."""
    table = _table_count(pos)
    bullets = pos.supply.A.bullet + pos.supply.B.bullet + table["bullet"] > 0
    cuffs = pos.supply.A.handcuffs + pos.supply.B.handcuffs + table["handcuffs"] > 0
    return (pos.sudden_death, pos.supply.A.vote, pos.supply.B.vote, table["vote"], bullets, cuffs,
            table["election"] > 0)


def reachable_class(cls: tuple) -> bool:
    """The invariants every action keeps (rule:O11, rule:O5): after sudden death the Votes are 3-3 and
    none is on the table, and the Election token is set aside; before it, the Votes not in a supply are
    on the table and the Election token is there (it leaves the table only by a Good victory)."""
    sd, a, b, table, _bullets, _cuffs, election = cls
    if sd:
        return (a, b, table, election) == (3, 3, 0, False)
    return a + b + table == 6 and election


def dead_position_classes(readings: OutlawsReadings = OutlawsReadings()) -> list[tuple]:
    """rule:O12 lemma: the reachable classes of :func:`economy_class` in which :func:`is_dead` holds
    under ``readings``, found by trying one position of every class (is_dead reads nothing else).
    Default readings ("repeats"): none; with ``sudden_death_repeats="once"``: after sudden death with
    every Bullet and Handcuffs used up."""
    from solver.outlaws.position import Discard, PerSide, Supply, initial_position

    base = initial_position(0)
    dead = []
    for sd in (False, True):
        for a in range(7):
            for b in range(7 - a):
                for bullets in (False, True):
                    for cuffs in (False, True):
                        cls = (sd, a, b, 0 if sd else 6 - a - b, bullets, cuffs, not sd)
                        if not reachable_class(cls):
                            continue
                        tokens = ["vote"] * cls[3] + ["election"] * cls[6] + ["bullet"] * bullets + ["handcuffs"] * cuffs
                        p = replace(base, tokens=tuple(tokens + ["x"] * (8 - len(tokens))), reserve=(), sudden_death=sd,
                                    supply=PerSide(Supply(vote=a, bullet=0, handcuffs=0),
                                                   Supply(vote=b, bullet=0, handcuffs=0)),
                                    discard=Discard(bullet=3 - bullets, handcuffs=3 - cuffs))
                        if is_dead(p, readings):
                            dead.append(cls)
    return dead


# ------------------------------------------------------------------ heuristics (estimated actions)


def _col(pos: Position, side: str, name: str) -> int | None:
    row = pos.street[side]
    return row.index(name) if name in row else None


def _align(pos: Position, side: str, actor: str, opp_name: str) -> int:
    """Actions to bring ``side``'s actor in front of the opponent's ``opp_name`` (0 or 1, 2 from the Saloon)."""
    a, t = _col(pos, side, actor), _col(pos, other(side), opp_name)
    if a is None or t is None:
        return 2
    return 0 if a == t else 1


def _plies(pos: Position, side: str, own: int) -> int:
    """Actions (both sides') until ``side`` has made ``own`` more actions: two per turn (rule:O-turn)."""
    if own >= INF:
        return INF
    wait, left = (0, pos.actions_left) if pos.to_move == side else (pos.actions_left, 2)
    if own <= left:
        return wait + own
    return wait + own + 2 * ((own - left + 1) // 2)


def _get_token(pos: Position, side: str, actor: str, token: str) -> int:
    """Estimated actions for ``side``'s ``actor`` to get a ``token`` into the supply and end up
    standing at a known column: walk to a street column holding it and take it (rule:O-take), fetch
    it from the reserve, or have the Bandit take it from the opponent's supply (rule:O-bandit)."""
    opp = other(side)
    here = _col(pos, side, actor)
    best = INF
    for k, t in enumerate(pos.tokens):
        if t == token or t is None:
            best = min(best, (0 if here == k else 1) + 1)
    if best == INF and (token in pos.reserve or None in pos.reserve):
        best = 3  # a Take or the Merchant brings it out first
    if getattr(pos.supply[opp], token) > 0:
        holder = {"bullet": "hitman", "handcuffs": "sheriff"}[token]
        best = min(best, _align(pos, side, "bandit", holder) + 1)
    return best


def estimate_win(pos: Position, side: str, readings: OutlawsReadings = OutlawsReadings()) -> int:
    """Estimated actions until ``side`` wins (INF when the token economy rules it out)."""
    if pos.winner is not None:
        return 0 if pos.winner == side else INF
    left = victory_left(pos, side, readings)
    opp = other(side)
    me, them = pos.supply[side], pos.supply[opp]
    best = INF
    if left["good"]:
        need = max(0, them.vote - me.vote + 1)
        gov = _col(pos, side, "governor")
        takers = [k for k, t in enumerate(pos.tokens) if t in ("vote", None) and pos.street[side][k] != "governor"]
        vote_cost = need if len(takers) >= need else need + (need - len(takers)) * 2
        el = pos.tokens.index("election") if "election" in pos.tokens else None
        cost = vote_cost + (3 if el is None else (0 if gov == el else 1)) + 1
        best = min(best, cost)
    for victory, token, actor, target in (("bad", "bullet", "hitman", "governor"),
                                          ("ugly", "handcuffs", "sheriff", "hitman")):
        if not left[victory]:
            continue
        if getattr(me, token) > 0:
            cost = _align(pos, side, actor, target) + 1
        else:
            get = _get_token(pos, side, actor, token)
            cost = (get + 2) if get < INF else 12  # 12: only after the sudden-death reset
        best = min(best, cost)
    return _plies(pos, side, best)


def estimate_dead(pos: Position, readings: OutlawsReadings = OutlawsReadings()) -> int:
    """Estimated actions (both sides') until no Vote, Bullet or Handcuffs is left to win with: each
    missing Vote taken, each Bullet/Handcuffs taken (walk + take) and used without effect, the ones in
    the reserve brought out first; before sudden death, also the reset's 6 tokens (guides the search). A guide only: it reads no option, and no option changes
    what a dead position needs (every Bullet and Handcuffs used up)."""
    if pos.winner is not None:
        return INF
    cost = 0
    if not pos.sudden_death:
        a, b = pos.supply.A.vote, pos.supply.B.vote
        if a > 3 or b > 3:
            return 500  # sudden death can no longer come: Good stays open for the side ahead
        cost += (3 - a) + (3 - b) + 20
    users = {"bullet": "hitman", "handcuffs": "sheriff"}
    for k, t in enumerate(pos.tokens):
        if t in users or t is None:
            near = t is not None and any(pos.street[s][k] == users[t] for s in SIDES)
            cost += (1 if near else 2) + 1
    cost += 3 * sum(1 for t in pos.reserve if t in users or t is None)
    for s in SIDES:  # used without effect by its holder, first out of the Saloon if need be
        for token, user in users.items():
            n = getattr(pos.supply[s], token)
            cost += n * (1 if user in pos.street[s] else 2)
    return cost


# ------------------------------------------------------------------ win_possible


@dataclass(frozen=True)
class WinSearch:
    """Whether each side can still win (True: line found; False: proven impossible; None: not found
    within the bound). ``proven``: both answers are proofs. ``depth``: the depth bound used."""

    A: bool | None
    B: bool | None
    line_A: tuple | None
    line_B: tuple | None
    proven: bool
    depth: int
    nodes: int = 0
    elapsed: float = 0.0
    reason: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"A": self.A, "B": self.B, "line_A": list(self.line_A) if self.line_A is not None else None,
                "line_B": list(self.line_B) if self.line_B is not None else None, "proven": self.proven,
                "depth": self.depth, "nodes": self.nodes, "elapsed": self.elapsed, "seconds": self.elapsed, "reason": dict(self.reason)}


def win_possible_side(pos: Position, side: str, readings: OutlawsReadings = OutlawsReadings(), max_depth: int = 12,
                      time_limit: float = 5.0, max_nodes: int = 20_000, shared: Expansion | None = None,
                      clock: Callable[[], float] | None = None) -> tuple[bool | None, tuple | None, str, int]:
    """(answer, line, reason, nodes) for one side (rule:O-win-possible); ``shared`` and ``clock``: see
    :func:`best_first` (the layouts of a sudden death are laid lazily)."""
    if side not in SIDES:
        raise BadInput(f"side must be A or B, got {side!r}")
    if pos.winner is not None:
        won = pos.winner == side
        return won, (() if won else None), ("already won" if won else f"{pos.winner} has already won"), 0
    left = victory_left(pos, side, readings)
    if not any(left.values()):
        return False, None, "token economy: no Election/Vote majority, Bullet or Handcuffs left, no sudden death to come", 0
    res = best_first(pos, lambda p: p.winner == side, lambda p: estimate_win(p, side, readings), readings,
                     max_depth, time_limit, max_nodes, shared=shared or Expansion(pos, lazy=True), clock=clock)
    if res.found is not None:
        return True, tuple(res.line), f"{victory_name(res.found.victory)} in {len(res.line)} action{'' if len(res.line) == 1 else 's'}", res.nodes
    if res.exhausted:
        return False, None, f"exhausted every reachable position ({res.nodes} expanded)", res.nodes
    why = {"time": "time limit", "nodes": "node budget"}.get(res.stopped, f"depth bound {max_depth}")
    return None, None, f"not found within the {why} ({res.nodes} positions expanded)", res.nodes


def win_possible(pos: Position, readings: OutlawsReadings = OutlawsReadings(), max_depth: int = 12, time_limit: float = 10.0,
                 max_nodes: int = 20_000, clock: Callable[[], float] | None = None) -> WinSearch:
    """contracts.md ``win_possible``: can each side still win, both sides cooperating and the hidden
    tokens/characters chosen? ``time_limit`` and ``max_nodes`` are shared by the two sides; ``clock`` is the
    time limit's (None: wall seconds; ``time.process_time`` for CPU seconds, which the machine's load does not
    stretch)."""
    if max_depth < 0 or max_depth > 200:
        raise BadInput(f"max_depth {max_depth}: expected 0..200")
    if not time_limit > 0:
        raise BadInput(f"time_limit {time_limit}: expected a positive number of seconds")
    clock = clock or time.perf_counter
    t0 = clock()
    answers, lines, reasons, nodes = {}, {}, {}, 0
    shared = Expansion(pos, lazy=True)
    for n, side in enumerate(SIDES):
        budget = (time_limit - (clock() - t0)) / (len(SIDES) - n)
        a, line, why, k = win_possible_side(pos, side, readings, max_depth, max(budget, 0.01), max_nodes // 2, shared,
                                            clock)
        answers[side], lines[side], reasons[side], nodes = a, line, why, nodes + k
    return WinSearch(answers["A"], answers["B"], lines["A"], lines["B"],
                     proven=all(v is not None for v in answers.values()), depth=max_depth, nodes=nodes,
                     elapsed=round(clock() - t0, 4), reason=reasons)


# ------------------------------------------------------------------ dead positions (rule:O12)


def find_dead_positions(start: Position | None = None, readings: OutlawsReadings = OutlawsReadings(), max_depth: int = 60,
                        time_limit: float = 30.0, max_nodes: int = 50_000, seed: int = 0,
                        use_lemma: bool = True, clock: Callable[[], float] | None = None) -> dict:
    """Search the positions reachable from ``start`` (default: the set-up of ``seed``) for a dead
    position (rule:O12): nobody has won, the sudden-death trigger does not hold, and neither side can
    win. Returns what it found with the action line from ``start``, or the bound within which none
    exists (``exhausted``: every reachable position within ``max_depth`` was checked).

    ``dead_classes`` lists the token-economy classes that are dead under ``readings``
    (:func:`dead_position_classes`). When there is none and ``start`` lies in a reachable class, no
    position reachable from it is dead (``proven``), and with ``use_lemma`` the search is skipped. ``clock``: the
    time limit's (see :func:`best_first`)."""
    from solver.outlaws.position import initial_position

    if start is None:
        start = initial_position(seed, readings)
    if max_depth < 0 or max_depth > 500:
        raise BadInput(f"max_depth {max_depth}: expected 0..500")
    classes = dead_position_classes(readings)
    lemma = not classes and start.winner is None and reachable_class(economy_class(start))
    base = {"dead_classes": [list(c) for c in classes], "proven": lemma, "start": position_to_json(start),
            "rules": readings.to_json()}
    if lemma and use_lemma:
        return {"found": False, "depth_bound": max_depth, "nodes": 0, "checked": 0, "complete": False,
                "exhausted": False, "stopped": None, "elapsed": 0.0, "seconds": 0.0, **base,
                "bound": ("no dead position exists under these readings: in every reachable token-economy class "
                          "some side can still win or the sudden-death trigger holds (lemma, no search needed)")}
    res = best_first(start, lambda p: is_dead(p, readings), lambda p: estimate_dead(p, readings), readings, max_depth,
                     time_limit, max_nodes, weight=None, clock=clock)
    out = {"found": res.found is not None, "depth_bound": max_depth, "nodes": res.nodes, "checked": res.checked,
           "complete": res.complete, "exhausted": res.exhausted, "stopped": res.stopped or None, "elapsed": res.elapsed,
           "seconds": res.elapsed,
           **base}
    if res.found is not None:
        p = res.found
        out.update({
            "line": res.line, "length": len(res.line), "position": position_to_json(p),
            "why": {"sudden_death": p.sudden_death, "sudden_death_trigger": sudden_death_trigger(p, readings),
                    "votes": {s: p.supply[s].vote for s in SIDES},
                    "victories_left": {s: victory_left(p, s, readings) for s in SIDES}},
        })
    else:
        out["bound"] = (f"no dead position within {max_depth} actions of the start (all {res.checked} reachable "
                        f"positions checked with the token-economy criterion)"
                        if res.complete else
                        f"none found: search stopped by the {res.stopped or 'depth bound'} after {res.nodes} "
                        f"positions (not a proof)")
    return out


def dead_position_answer(res: dict) -> dict:
    """What a :func:`find_dead_positions` result settled (the ``dead-positions`` verdict of ``readings impact``):
    ``{"found": True}``; ``{"found": False, "proven_by": "lemma"}`` when the token-economy lemma shows no
    position reachable from the start is dead (a proof without bound: no search needed); ``{"found": False,
    "within_depth": n}`` when the search checked every position within n actions; else undecided, with why."""
    if res["found"]:
        return {"found": True}
    if res.get("proven"):
        return {"found": False, "proven_by": "lemma"}
    if res["complete"] or res["exhausted"]:
        return {"found": False, "within_depth": res["depth_bound"]}
    return {"found": None, "undecided": res.get("bound") or "search bound"}
