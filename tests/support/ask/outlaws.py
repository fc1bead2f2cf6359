"""A brute-force oracle of the Outlaws lines domain (solver.outlaws.questions): every line of at most n actions
enumerated naively through the game contract (``legal_actions``, ``outcomes`` with its legality check), each with its
chance under uniform choices, and every measure read afresh from the games along it. Sudden death is found from the
engine's own outcome conditions (the shuffle's "sudden death column" draws), not from the positions, so the domain's
reading of it is checked against the engine's resolution. Also random playouts (Monte Carlo) with the same choices,
and conditions as small trees the tests both write as text and evaluate on their own."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import cache
from typing import Any

from solver import registry
from solver.outlaws import apply as ap
from solver.outlaws import game as gm
from solver.outlaws.actions import Action
from solver.outlaws.position import CHARACTERS
from solver.outlaws.readings import OutlawsReadings
from solver.paths import SCENARIOS

Line = tuple[Fraction, tuple, tuple]
"""(chance, games along the line, steps as (play, outcome index))."""


def naive_lines(game: gm.Game, n: int) -> list[Line]:
    """Every line of at most ``n`` actions from ``game`` (ending sooner when it is won), in the contract's order."""
    if n == 0 or gm.is_terminal(game):
        return [(Fraction(1), (game,), ())]
    plays = gm.legal_actions(game)
    out = []
    for play in plays:
        for k, (p, after) in enumerate(gm.outcomes(game, play)):
            for w, games, steps in naive_lines(after, n - 1):
                out.append((p / len(plays) * w, (game,) + games, ((play, k),) + steps))
    return out


@cache
def _laid(before: gm.Game, action: Action) -> frozenset:
    """The positions the engine reaches from ``before`` by laying sudden death's tokens (rule:O11)."""
    return frozenset(o.position for o in ap.outcomes(before.position, action, before.readings)
                     if "sudden death column" in o.condition)


def _shuffled(before: gm.Game, play: gm.Play, after: gm.Game) -> bool:
    """The engine laid sudden death's tokens on the way from ``before`` to ``after``."""
    return after.position in _laid(before, play.action)


def _votes(game: gm.Game) -> int:
    return game.position.supply.A.vote + game.position.supply.B.vote


def oracle(games: tuple, steps: tuple) -> dict[str, Any]:
    """Every measure of the line, read afresh."""
    start, end = games[0].position, games[-1].position
    shuffles = [k + 1 for k, (play, _) in enumerate(steps) if _shuffled(games[k], play, games[k + 1])]
    claims = [k + 1 for k in range(len(steps)) if _votes(games[k + 1]) > _votes(games[k])]
    at = shuffles[0] if shuffles else 0
    out: dict[str, Any] = {
        "actions": len(steps), "winner": end.winner or "none", "victory": end.victory or "none",
        "sudden-death": bool(shuffles), "sudden-death.at": at, "sudden-death.on": end.sudden_death,
        "votes.first": claims[0] if claims else 0,
        "votes.before-sudden-death": _votes(games[at]) - _votes(games[0]) if at else 0}
    for side in "AB":
        supply = end.supply[side]
        out |= {f"{side}.votes": supply.vote, f"{side}.bullets": supply.bullet, f"{side}.handcuffs": supply.handcuffs,
                f"{side}.votes.claimed": supply.vote - start.supply[side].vote,
                f"{side}.marked": len([1 for s, _ in end.front_page if s == side]),
                f"{side}.bandit.immobilized": (side, "bandit") in end.immobilized}
        for name in CHARACTERS:
            where = [i for i, c in enumerate(end.street[side]) if c == name]
            place = "street" if where else "saloon" if name in end.saloon[side] else "unknown"
            out[f"{side}.{name}.place"] = place
            out[f"{side}.{name}.column"] = where[0] if where else -1
            if name != "governor":
                out[f"{side}.{name}.marked"] = (side, name) in end.front_page
    return out


def playout(game: gm.Game, n: int, rng: random.Random) -> tuple[gm.Game, ...]:
    """One random line (uniform choices, chance by its odds): the games along it."""
    games = [game]
    for _ in range(n):
        if gm.is_terminal(games[-1]):
            break
        play = rng.choice(gm.legal_actions(games[-1]))
        outs = gm.outcomes(games[-1], play)
        x, acc = rng.random(), 0.0
        pick = outs[-1][1]
        for p, after in outs:
            acc += float(p)
            if x < acc:
                pick = after
                break
        games.append(pick)
    return tuple(games)


def domain_doc(params: tuple) -> dict[str, Any]:
    """A question's domain table for ``params`` (a position document given as JSON text read back)."""
    return {k: (json.loads(v) if k == "position" and v.startswith("{") else v) for k, v in params}


def lines_kind():
    """The lines domain kind, as the registry lists it."""
    return next(k for k in registry.game("outlaws").questions if k.name == "lines")


@cache
def brute(params: tuple) -> tuple[Any, list[tuple[Fraction, tuple, tuple, dict]]]:
    """The domain of ``params`` (a tuple of (name, value) pairs, the defaults filled in; a position document as its
    JSON text) and its lines enumerated naively, each as (chance, games, steps, measures)."""
    kind = lines_kind()
    given = domain_doc(params)
    domain = kind.build({p.name: given.get(p.name, p.default) for p in kind.params}, OutlawsReadings())
    lines = naive_lines(domain.start, domain.actions)
    return domain, [(w, games, steps, oracle(games, steps)) for w, games, steps in lines]


# ---------------------------------------------------------------- conditions: ("cmp", name, op, value), ("and", a, b),
# ("or", a, b), ("not", a)

def holds(cond: tuple, values: dict[str, Any]) -> bool:
    kind = cond[0]
    if kind == "not":
        return not holds(cond[1], values)
    if kind in ("and", "or"):
        parts = [holds(c, values) for c in cond[1:]]
        return all(parts) if kind == "and" else any(parts)
    _, name, op, value = cond
    v = values[name]
    if op in ("==", "!="):
        return (v == value) == (op == "==")
    return {"<": v < value, "<=": v <= value, ">": v > value, ">=": v >= value}[op]


def text(cond: tuple) -> str:
    kind = cond[0]
    if kind == "not":
        return f"not ({text(cond[1])})"
    if kind in ("and", "or"):
        return f" {kind} ".join(f"({text(c)})" for c in cond[1:])
    _, name, op, value = cond
    shown = ("yes" if value else "no") if isinstance(value, bool) else value
    return f"{name} {op} {shown}"


def _hitman_view() -> str:
    """A's view (view-of-A) with B's Hitman named at column 0, facing A's Governor: B may win at once, so lines end
    early; B's other characters are unknown, so B has few plays."""
    doc = json.loads((SCENARIOS / "outlaws" / "view-of-A.json").read_text())
    doc["street"]["B"][0] = "hitman"
    return json.dumps(doc, sort_keys=True)


DOMAINS: dict[str, tuple] = {
    "sheriff-save/1": (("position", "sheriff-save"), ("actions", 1)),
    "sudden-death-near/1": (("position", "sudden-death-near"), ("actions", 1)),
    "view-of-A/2": (("position", "view-of-A"), ("actions", 2)),
    "hitman-view/2": (("position", _hitman_view()), ("actions", 2)),
    "won-ugly/3": (("position", "won-ugly"), ("actions", 3)),
}
"""Small domains (at most 2 actions but for a finished game) the brute force enumerates in a few seconds."""
