"""The symbolic Outlaws position of the Z3 checks (rule:O-verify-invariants, rule:O-components): both rows of
Main Street, both Saloons, the token row, the reserve as counts per token type, both supplies, the discard,
immobilized and marked characters, sudden death, the result and whose turn, as Z3 expressions; the invariants
the checks prove of it, and a concrete position read back from a Z3 model.

Own encoding constants, written independently from the engine (names are the contracts.md names); a character's
code is its place in the box's roster (:data:`solver.outlaws.position.CHARACTERS`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3

from solver.outlaws.position import CHARACTERS

CHARS = CHARACTERS  # each character's code is its place in the box's roster
NCHAR = len(CHARS)
GOV, HIT, SHE, IND, MER, DAN, JOU, BAN, REV, MAY = (CHARS.index(n) for n in (
    "governor", "hitman", "sheriff", "indian", "merchant", "dancer", "journalist", "bandit", "reverend", "mayor"))
TOKS = ("empty", "vote", "bullet", "handcuffs", "x", "election")
EMPTY, VOTE, BULLET, CUFFS, BOGUS, ELECTION = range(6)
TYPES = (VOTE, BULLET, CUFFS, BOGUS, ELECTION)
TOTAL = {VOTE: 6, BULLET: 3, CUFFS: 3, BOGUS: 4, ELECTION: 1}
NCOL = 8
SIDE_NAMES = ("A", "B")
SUPPLY_KEYS = ("vote", "bullet", "handcuffs", "election", "front_page")
DISCARD_KEYS = ("vote", "bullet", "handcuffs", "x", "election", "front_page")
KEY_OF = {VOTE: "vote", BULLET: "bullet", CUFFS: "handcuffs", BOGUS: "x", ELECTION: "election"}

# ------------------------------------------------------------------ the symbolic position


@dataclass
class Sym:
    """A symbolic position: lists of Z3 expressions (copied, never shared, by :meth:`copy`)."""

    street: list  # [side][col] Int, character code
    saloon: list  # [side][2] Int
    tokens: list  # [col] Int, token code
    reserve: dict  # type -> Int count
    supply: list  # [side] dict key -> Int
    discard: dict  # key -> Int
    imm: list  # [side][character] Bool
    fp: list  # [side][character] Bool: marked by the Journalist (Front Page)
    sd: Any  # Bool
    winner: Any  # Int: 0 none, 1 A, 2 B
    victory: Any  # Int: 0 none, 1 good, 2 bad, 3 ugly
    to_move: Any  # Int 0/1
    actions_left: Any  # Int

    def copy(self) -> Sym:
        return Sym([list(r) for r in self.street], [list(r) for r in self.saloon], list(self.tokens),
                   dict(self.reserve), [dict(s) for s in self.supply], dict(self.discard),
                   [list(r) for r in self.imm], [list(r) for r in self.fp], self.sd, self.winner, self.victory, self.to_move,
                   self.actions_left)

    def map(self, f: Callable[[Any], Any]) -> Sym:
        """A symbolic position whose every field is ``f`` of this one's (the fields as :meth:`copy` lists them)."""
        return Sym([[f(x) for x in r] for r in self.street], [[f(x) for x in r] for r in self.saloon],
                   [f(x) for x in self.tokens], {k: f(x) for k, x in self.reserve.items()},
                   [{k: f(x) for k, x in d.items()} for d in self.supply], {k: f(x) for k, x in self.discard.items()},
                   [[f(x) for x in r] for r in self.imm], [[f(x) for x in r] for r in self.fp], f(self.sd),
                   f(self.winner), f(self.victory), f(self.to_move), f(self.actions_left))


def fresh_position(ctx: z3.Context, p: str = "pre") -> Sym:
    I = lambda n: z3.Int(f"{p}_{n}", ctx)  # noqa: E731
    B = lambda n: z3.Bool(f"{p}_{n}", ctx)  # noqa: E731
    return Sym(
        street=[[I(f"street_{s}_{k}") for k in range(NCOL)] for s in SIDE_NAMES],
        saloon=[[I(f"saloon_{s}_{k}") for k in range(2)] for s in SIDE_NAMES],
        tokens=[I(f"token_{k}") for k in range(NCOL)],
        reserve={t: I(f"reserve_{TOKS[t]}") for t in TYPES},
        supply=[{k: I(f"supply_{s}_{k}") for k in SUPPLY_KEYS} for s in SIDE_NAMES],
        discard={k: I(f"discard_{k}") for k in DISCARD_KEYS},
        imm=[[B(f"imm_{s}_{c}") for c in CHARS] for s in SIDE_NAMES],
        fp=[[B(f"fp_{s}_{c}") for c in CHARS] for s in SIDE_NAMES],
        sd=B("sudden_death"), winner=I("winner"), victory=I("victory"), to_move=I("to_move"),
        actions_left=I("actions_left"))


def sel(xs: list, i) -> Any:
    """xs[i] for a symbolic index i (0 <= i < len(xs) must be asserted by the caller)."""
    out = xs[-1]
    for k in range(len(xs) - 2, -1, -1):
        out = z3.If(i == k, xs[k], out)
    return out


def count(xs: list, value) -> Any:
    return z3.Sum([z3.If(x == value, 1, 0) for x in xs])


def within(i, lo, hi) -> Any:
    return z3.And(i >= lo, i <= hi)


def left(s: int, c):
    """Column to the left of side s's character at column c (rule:O1)."""
    return c - 1 if s == 0 else c + 1


def right(s: int, c):
    return c + 1 if s == 0 else c - 1


def immobilized_at(st: Sym, s: int, col, ctx) -> Any:
    """Whether the character of side s at (symbolic, on-street) column col is immobilized."""
    ch = sel(st.street[s], col)
    return z3.Or([z3.And(ch == n, st.imm[s][n]) for n in range(NCHAR)] + [z3.BoolVal(False, ctx)])


def stands_at(st: Sym, s: int, name: int, col) -> Any:
    return z3.And(within(col, 0, NCOL - 1), sel(st.street[s], col) == name)


@dataclass
class Step:
    """One action kind for one side: guard, resulting (pre-sudden-death) position, parameters."""

    kind: str
    side: int
    guard: Any
    mid: Sym
    params: dict = field(default_factory=dict)
    cases: tuple = ((),)
    """The checker solves one case at a time, each fixing some parameters ((name, value) pairs); together the
    cases cover every value the guard allows (one solve over all of them is far slower)."""
    preprocess: bool = False
    """Solve each case with Z3's preprocessing (simplify, propagate values, solve equations) in a fresh solver:
    the incremental solver skips it, and the Take's refill arithmetic needs it (a few times faster)."""


# ------------------------------------------------------------------ well-formedness and invariants


def token_totals_ok(st: Sym) -> Any:
    """rule:O-components: every token type adds up to its total everywhere."""
    out = []
    for t in TYPES:
        key = KEY_OF[t]
        parts = [count(st.tokens, t), st.reserve[t], st.discard[key]]
        if key in SUPPLY_KEYS:
            parts += [st.supply[0][key], st.supply[1][key]]
        out.append(z3.Sum(parts) == TOTAL[t])
    return z3.And(out)


def saloon_ok(st: Sym) -> Any:
    """Each side's characters (rule:O-components): 8 on Main Street, 2 in the Saloon, distinct and valid."""
    out = []
    for s in range(2):
        row = st.street[s] + st.saloon[s]
        out += [within(x, 0, NCHAR - 1) for x in row]
        out.append(z3.Distinct(row))
    return z3.And(out)


def governor_ok(st: Sym) -> Any:
    return z3.And([x != GOV for s in range(2) for x in st.saloon[s]])


def well_formed(st: Sym, ctx) -> Any:
    """What every reachable, unfinished position satisfies (beyond the invariants under check)."""
    return z3.And(state_ok(st, ctx), st.winner == 0, st.victory == 0, within(st.to_move, 0, 1),
                  within(st.actions_left, 1, 2))


def state_ok(st: Sym, ctx) -> Any:
    """The well-formedness every action preserves (check ``well-formed``): token codes, no negative
    counts, 6 Front Page markers in all, only an on-street Bandit immobilized, the Governor never marked."""
    out = [within(t, 0, 5) for t in st.tokens]
    out += [v >= 0 for v in st.reserve.values()]
    out += [v >= 0 for s in range(2) for v in st.supply[s].values()]
    out += [v >= 0 for v in st.discard.values()]
    out += [st.supply[s]["front_page"] <= 3 for s in range(2)]
    marks = [z3.If(st.fp[s][n], 1, 0) for s in range(2) for n in range(NCHAR)]
    out.append(z3.Sum([st.supply[0]["front_page"], st.supply[1]["front_page"], st.discard["front_page"]] + marks) == 6)
    out += [z3.Not(st.fp[s][GOV]) for s in range(2)]
    for s in range(2):
        for n in range(NCHAR):
            # only a Bandit can be immobilized, and only on Main Street (rule:O-immobilized)
            on_street = z3.Or([x == n for x in st.street[s]])
            out.append(z3.Implies(st.imm[s][n], z3.And(on_street, z3.BoolVal(n == BAN, ctx))))
    return z3.And(out)



def value(m: z3.ModelRef, e) -> Any:
    v = m.eval(e, model_completion=True)
    if z3.is_true(v) or z3.is_false(v):
        return z3.is_true(v)
    return v.as_long()


def sym_to_json(m: z3.ModelRef, st: Sym) -> dict:
    """A concrete position (contracts.md format) from a Z3 model of a symbolic one."""
    name = lambda v: CHARS[v] if 0 <= v < NCHAR else f"?{v}"  # noqa: E731
    tok = lambda v: TOKS[v] if 0 <= v < 6 else f"?{v}"  # noqa: E731
    reserve = []
    for t in TYPES:
        reserve += [TOKS[t]] * max(0, value(m, st.reserve[t]))
    return {
        "to_move": SIDE_NAMES[value(m, st.to_move)] if value(m, st.to_move) in (0, 1) else None,
        "actions_left": value(m, st.actions_left),
        "street": {SIDE_NAMES[s]: [name(value(m, x)) for x in st.street[s]] for s in range(2)},
        "saloon": {SIDE_NAMES[s]: [name(value(m, x)) for x in st.saloon[s]] for s in range(2)},
        "tokens": [tok(value(m, x)) for x in st.tokens],
        "reserve": reserve,
        "supply": {SIDE_NAMES[s]: {k: value(m, st.supply[s][k]) for k in SUPPLY_KEYS} for s in range(2)},
        "discard": {k: value(m, st.discard[k]) for k in DISCARD_KEYS},
        "immobilized": [[SIDE_NAMES[s], CHARS[n]] for s in range(2) for n in range(NCHAR) if value(m, st.imm[s][n])],
        "front_page": [[SIDE_NAMES[s], CHARS[n]] for s in range(2) for n in range(NCHAR) if value(m, st.fp[s][n])],
        "sudden_death": value(m, st.sd),
        "winner": {0: None, 1: "A", 2: "B"}.get(value(m, st.winner)),
        "victory": {0: None, 1: "good", 2: "bad", 3: "ugly"}.get(value(m, st.victory)),
    }

