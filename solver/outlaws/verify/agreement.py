"""The Z3 transitions against the engine (rule:O-verify-invariants): on a fully known engine position, the
positions the encoding allows after one action must be exactly those the engine reaches (every action, every
outcome), compared on what the encoding models (knowledge left out; the Saloon as a set).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import z3

from solver.outlaws.position import Position
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.verify.model import Model
from solver.outlaws.verify.symbolic import (
    CHARS,
    DISCARD_KEYS,
    NCHAR,
    NCOL,
    SIDE_NAMES,
    SUPPLY_KEYS,
    TOKS,
    TYPES,
    Sym,
    fresh_position,
    value,
)
from solver.z3check import Z3Run


def project_position(pos) -> tuple:
    """A concrete engine :class:`~solver.outlaws.position.Position` as the tuple of what this encoding
    models (knowledge is left out; the Saloon is a set). Every character and token must be known."""
    code = {n: i for i, n in enumerate(CHARS)}
    tcode = {n: i for i, n in enumerate(TOKS)}
    street = tuple(tuple(code[n] for n in pos.street[s]) for s in SIDE_NAMES)
    saloon = tuple(tuple(sorted(code[n] for n in pos.saloon[s])) for s in SIDE_NAMES)
    reserve = tuple(sum(1 for t in pos.reserve if t == TOKS[k]) for k in TYPES)
    supply = tuple(tuple(getattr(pos.supply[s], k) for k in SUPPLY_KEYS) for s in SIDE_NAMES)
    discard = tuple(getattr(pos.discard, k) for k in DISCARD_KEYS)
    imm = tuple(sorted((SIDE_NAMES.index(s), code[n]) for s, n in pos.immobilized))
    fp = tuple(sorted((SIDE_NAMES.index(s), code[n]) for s, n in pos.front_page))
    return (SIDE_NAMES.index(pos.to_move), pos.actions_left, street, saloon, tuple(tcode[t] for t in pos.tokens),
            reserve, supply, discard, imm, fp, bool(pos.sudden_death),
            {None: 0, "A": 1, "B": 2}[pos.winner], {None: 0, "good": 1, "bad": 2, "ugly": 3}[pos.victory])


def _sym_vector(st: Sym) -> list:
    """The modelled fields of a symbolic position, flattened (order used by :func:`_vector_to_tuple`)."""
    out = [st.to_move, st.actions_left] + st.street[0] + st.street[1] + st.saloon[0] + st.saloon[1] + st.tokens
    out += [st.reserve[t] for t in TYPES]
    out += [st.supply[s][k] for s in range(2) for k in SUPPLY_KEYS]
    out += [st.discard[k] for k in DISCARD_KEYS]
    out += [st.imm[s][n] for s in range(2) for n in range(NCHAR)] + [st.fp[s][n] for s in range(2) for n in range(NCHAR)]
    return out + [st.sd, st.winner, st.victory]


def _vector_to_tuple(v: list) -> tuple:
    it = iter(v)
    take = lambda n: tuple(next(it) for _ in range(n))  # noqa: E731
    to_move, left = take(2)
    street = (take(NCOL), take(NCOL))
    saloon = (tuple(sorted(take(2))), tuple(sorted(take(2))))
    tokens = take(NCOL)
    reserve = take(len(TYPES))
    supply = (take(len(SUPPLY_KEYS)), take(len(SUPPLY_KEYS)))
    discard = take(len(DISCARD_KEYS))
    imm_flags, fp_flags = take(2 * NCHAR), take(2 * NCHAR)
    imm = tuple(divmod(k, NCHAR) for k, f in enumerate(imm_flags) if f)
    fp = tuple(divmod(k, NCHAR) for k, f in enumerate(fp_flags) if f)
    sd, winner, victory = take(3)
    return (to_move, left, street, saloon, tokens, reserve, supply, discard, imm, fp, bool(sd), winner, victory)


def pinned_values(ctx: z3.Context, st: Sym, pos: Position) -> list[tuple[Any, Any]]:
    """Each variable of a symbolic position with its value in a concrete engine position (what :func:`pin`
    asserts)."""
    t = project_position(pos)
    to_move, left, street, saloon, tokens, reserve, supply, discard, imm, fp, sd, winner, victory = t
    num = lambda v: z3.IntVal(v, ctx)  # noqa: E731
    out = [(st.to_move, num(to_move)), (st.actions_left, num(left)), (st.winner, num(winner)),
           (st.victory, num(victory)), (st.sd, z3.BoolVal(sd, ctx))]
    for s in range(2):
        out += [(x, num(v)) for x, v in zip(st.street[s], street[s])]
        out += [(x, num(v)) for x, v in zip(st.saloon[s], saloon[s])]
        out += [(x, num(v)) for x, v in zip([st.supply[s][k] for k in SUPPLY_KEYS], supply[s])]
        out += [(st.imm[s][n], z3.BoolVal((s, n) in imm, ctx)) for n in range(NCHAR)]
        out += [(st.fp[s][n], z3.BoolVal((s, n) in fp, ctx)) for n in range(NCHAR)]
    out += [(x, num(v)) for x, v in zip(st.tokens, tokens)]
    out += [(st.reserve[k], num(v)) for k, v in zip(TYPES, reserve)]
    out += [(st.discard[k], num(v)) for k, v in zip(DISCARD_KEYS, discard)]
    return out


def pin(ctx: z3.Context, st: Sym, pos: Position) -> Any:
    """Constraints fixing a symbolic position to a concrete engine position."""
    return z3.And([x == v for x, v in pinned_values(ctx, st, pos)])


def _concrete(ctx: z3.Context, pos: Position) -> Sym:
    """A concrete engine position as a symbolic one whose every field is a constant."""
    st = fresh_position(ctx, "pre")
    value_of = {x.get_id(): v for x, v in pinned_values(ctx, st, pos)}
    return st.map(lambda x: value_of[x.get_id()])


def _known(e: Any) -> Any:
    """The Python value of a Z3 constant (a number or a truth value), or None for any other expression."""
    if z3.is_true(e) or z3.is_false(e):
        return z3.is_true(e)
    return e.as_long() if z3.is_int_value(e) else None


def model_successors(pos: Position, readings: OutlawsReadings = OutlawsReadings(), limit: int = 5000,
                     mutations: frozenset = frozenset()) -> dict[tuple, str]:
    """Every position the Z3 encoding allows after one action from the concrete ``pos``
    (projected as :func:`project_position`), mapped to the action kind that reaches it."""
    run = Z3Run()
    ctx = run.ctx
    model = Model(ctx, readings, frozenset(mutations))
    pre = _concrete(ctx, pos)  # the position's own values: what pinning its variables would assert
    s = SIDE_NAMES.index(pos.to_move)
    found: dict[tuple, str] = {}
    for step in model.steps(pre, s):
        if step.kind == "sudden_death":
            continue  # part of every action's transition (Model.after)
        post, _fired, extra = model.after(pre, step)
        # the fields the position before already decides are read once; the models are told apart on the rest
        vec = [z3.simplify(e) for e in _sym_vector(post)]
        known = [_known(e) for e in vec]
        free = [i for i, k in enumerate(known) if k is None]
        solver = run.solver()
        solver.add(pre.winner == 0, step.guard, *extra)  # nothing more once the game is won
        while len(found) < limit and run.check(solver) == z3.sat:
            m = solver.model()
            vals = list(known)
            for i in free:
                vals[i] = value(m, vec[i])
            found.setdefault(_vector_to_tuple(vals), step.kind)
            if not free:
                break
            solver.add(z3.Or([vec[i] != z3.BoolVal(vals[i], ctx) if isinstance(vals[i], bool) else vec[i] != vals[i]
                              for i in free]))
    return found


def engine_successors(pos, readings: OutlawsReadings = OutlawsReadings()) -> dict[tuple, str]:
    """Every position the concrete engine reaches after one action (projected), with an example action."""
    from solver.outlaws.actions import legal_actions
    from solver.outlaws.apply import outcomes

    found: dict[tuple, str] = {}
    for a in legal_actions(pos, readings):
        for o in outcomes(pos, a, readings):
            found.setdefault(project_position(o.position), str(a.to_json()) + " / " + o.condition)
    return found


@dataclass(frozen=True)
class Agreement:
    """The encoding against the engine on one position: whether their successor sets are equal, their sizes, up
    to 5 examples of positions only one side reaches (each with the action kind or action reaching it), and the
    seconds the comparison took."""

    agree: bool
    model: int
    engine: int
    only_model: tuple[tuple[str, tuple], ...]
    only_engine: tuple[tuple[str, tuple], ...]
    elapsed: float

    def to_json(self) -> dict[str, Any]:
        return {"agree": self.agree, "model": self.model, "engine": self.engine,
                "only_model": [list(x) for x in self.only_model], "only_engine": [list(x) for x in self.only_engine],
                "elapsed": self.elapsed}


def cross_check(pos, readings: OutlawsReadings = OutlawsReadings(), mutations: frozenset = frozenset()) -> Agreement:
    """Compare the Z3 transition encoding with the engine on one fully known position: the successor
    sets must be equal."""
    start = time.perf_counter()
    mine = model_successors(pos, readings, mutations=mutations)
    theirs = engine_successors(pos, readings)
    only_model = [k for k in mine if k not in theirs]
    only_engine = [k for k in theirs if k not in mine]
    return Agreement(not only_model and not only_engine, len(mine), len(theirs),
                     tuple((mine[k], k) for k in only_model[:5]), tuple((theirs[k], k) for k in only_engine[:5]),
                     round(time.perf_counter() - start, 3))
