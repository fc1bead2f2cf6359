"""Z3 invariant checks on the Outlaws transition rules (rule:O-verify-invariants).

A *symbolic* position (both rows of Main Street, both Saloons, the token row, the reserve as counts
per token type, both supplies, the discard, immobilized characters, sudden death, whose turn) and
every action kind, encoded here directly from the rulebook and the docs/open-questions.md readings, written
independently from the concrete engine (``actions.py``/``apply.py``) and cross-checked against it in
the tests (``tests/outlaws/test_verify.py``). Hidden outcomes (which reserve token refills the row,
where the sudden-death tokens land) and reactions (Sheriff saving the Governor, Reverend cancelling)
are free choices of the encoding, so every possible outcome is covered.

Each check is inductive: from any well-formed position satisfying the invariants, every action of
every kind leads to a position satisfying them again. A check that fails returns a counterexample:
the position before, the action and the offending position after.

Checks (ids):
- ``token-totals``: 6 Votes, 3 Bullets, 3 Handcuffs, 4 Bogus, 1 Election are always somewhere
  (street, reserve, supplies, discard / set aside) (rule:O-components).
- ``saloon-two``: each Saloon holds exactly 2 characters, each character is in exactly one place.
- ``governor-not-in-saloon``: the Governor never enters a Saloon (rule:O-saloon).
- ``immobilized-stay``: immobilized characters never move (rule:O-immobilized).
- ``sudden-death-3-3``: sudden death only triggers with Votes tied 3-3 (rule:O11).
- ``well-formed``: what the checks assume of the position before stays true (no negative counts,
  6 Front Page markers, only a Bandit on Main Street immobilized, the Governor never marked), so
  together the checks are an induction from the set-up.

Each Z3 check runs in its own fresh ``z3.Context()`` with a time limit (conventions: Z3).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3

from solver.outlaws.rules import Rules, add_rule_option

# Own encoding constants (independent of the engine; names are the contracts.md names).
CHARS = ("governor", "hitman", "sheriff", "indian", "merchant", "dancer", "journalist",
         "bandit", "reverend", "mayor")
GOV, HIT, SHE, IND, MER, DAN, JOU, BAN, REV, MAY = range(10)
TOKS = ("empty", "vote", "bullet", "handcuffs", "x", "election")
EMPTY, VOTE, BULLET, CUFFS, BOGUS, ELECTION = range(6)
TYPES = (VOTE, BULLET, CUFFS, BOGUS, ELECTION)
TOTAL = {VOTE: 6, BULLET: 3, CUFFS: 3, BOGUS: 4, ELECTION: 1}
NCOL = 8
SIDE_NAMES = ("A", "B")
SUPPLY_KEYS = ("vote", "bullet", "handcuffs", "election", "front_page")
DISCARD_KEYS = ("vote", "bullet", "handcuffs", "x", "election", "front_page")
KEY_OF = {VOTE: "vote", BULLET: "bullet", CUFFS: "handcuffs", BOGUS: "x", ELECTION: "election"}
KINDS = ("move", "saloon_exit", "look", "take", "governor", "hitman", "sheriff", "indian", "merchant",
         "dancer", "journalist", "bandit", "reverend", "sudden_death")

MUTATIONS = {
    "take_copies_token": "a successful Take adds the token to the supply but leaves it on the street",
    "governor_enters_saloon": "leaving the Saloon may put the Governor in it",
    "saloon_exit_copies": "leaving the Saloon puts the character on the street but also keeps it in the Saloon",
    "dancer_moves_immobilized": "the Dancer may pull immobilized characters",
    "sudden_death_any_votes": "sudden death triggers without the 3-3 Vote tie",
    "journalist_keeps_marker": "a correct Journalist call marks the character without spending a Front Page marker",
}
"""Deliberately broken rules (for the tests: each makes one check fail with a counterexample)."""

RULE_TEXT = {
    "token-totals": "published component list: '17 tokens: 6 Votes, 3 Bullets, 3 Handcuffs, 4 Bogus (X), 1 Election'; "
                    "Prendi un Gettone / Rimpiazzare i Gettoni / Morte Subitanea",
    "saloon-two": "Il Saloon: 'Il Saloon ... contiene due personaggi'; Lasciare il Saloon: 'collocandone uno di "
                  "nuovo nel Saloon, e due su Main Street'",
    "governor-not-in-saloon": "Il Saloon: 'Qualsiasi personaggio può entrare nel Saloon, ad eccezione del "
                              "Governatore'",
    "immobilized-stay": "Immobilizzato: 'Un personaggio immobilizzato non si può muovere, non può essere spostato, "
                        "attivato o utilizzare le proprie abilità in alcun modo'",
    "sudden-death-3-3": "Morte Subitanea: 'entrambi i giocatori hanno 3 voti e tutte e 6 i gettoni Pallottola e "
                        "Manette sono stati utilizzati' (O11)",
    "well-formed": "Lo Sceriffo: 'Se Chiami correttamente il Bandito, allora lo puoi immobilizzare'; Il Giornalista: "
                   "'Non puoi tentare questa azione se non hai più segnalini In Prima Pagina ... non può mai Chiamare "
                   "il Governatore' (the other checks assume what this one proves)",
}


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


def fresh_state(ctx: z3.Context, p: str = "pre") -> Sym:
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


def _sel(xs: list, i) -> Any:
    """xs[i] for a symbolic index i (0 <= i < len(xs) must be asserted by the caller)."""
    out = xs[-1]
    for k in range(len(xs) - 2, -1, -1):
        out = z3.If(i == k, xs[k], out)
    return out


def _count(xs: list, value) -> Any:
    return z3.Sum([z3.If(x == value, 1, 0) for x in xs])


def _in(i, lo, hi) -> Any:
    return z3.And(i >= lo, i <= hi)


def _left(s: int, c):
    """Column to the left of side s's character at column c (rule:O1)."""
    return c - 1 if s == 0 else c + 1


def _right(s: int, c):
    return c + 1 if s == 0 else c - 1


def _imm_at(st: Sym, s: int, col, ctx) -> Any:
    """Whether the character of side s at (symbolic, on-street) column col is immobilized."""
    ch = _sel(st.street[s], col)
    return z3.Or([z3.And(ch == n, st.imm[s][n]) for n in range(10)] + [z3.BoolVal(False, ctx)])


def _on_street_col(st: Sym, s: int, name: int, col) -> Any:
    return z3.And(_in(col, 0, NCOL - 1), _sel(st.street[s], col) == name)


# ------------------------------------------------------------------ well-formedness and invariants


def token_totals_ok(st: Sym) -> Any:
    """rule:O-components: every token type adds up to its total everywhere."""
    out = []
    for t in TYPES:
        key = KEY_OF[t]
        parts = [_count(st.tokens, t), st.reserve[t], st.discard[key]]
        if key in SUPPLY_KEYS:
            parts += [st.supply[0][key], st.supply[1][key]]
        out.append(z3.Sum(parts) == TOTAL[t])
    return z3.And(out)


def saloon_ok(st: Sym) -> Any:
    """Each side's 10 characters: 8 on Main Street, 2 (distinct, valid) in the Saloon."""
    out = []
    for s in range(2):
        row = st.street[s] + st.saloon[s]
        out += [_in(x, 0, 9) for x in row]
        out.append(z3.Distinct(row))
    return z3.And(out)


def governor_ok(st: Sym) -> Any:
    return z3.And([x != GOV for s in range(2) for x in st.saloon[s]])


def well_formed(st: Sym, ctx) -> Any:
    """What every reachable, unfinished position satisfies (beyond the invariants under check)."""
    return z3.And(state_ok(st, ctx), st.winner == 0, st.victory == 0, _in(st.to_move, 0, 1),
                  _in(st.actions_left, 1, 2))


def state_ok(st: Sym, ctx) -> Any:
    """The well-formedness every action preserves (check ``well-formed``): token codes, no negative
    counts, 6 Front Page markers in all, only an on-street Bandit immobilized, the Governor never marked."""
    out = [_in(t, 0, 5) for t in st.tokens]
    out += [v >= 0 for v in st.reserve.values()]
    out += [v >= 0 for s in range(2) for v in st.supply[s].values()]
    out += [v >= 0 for v in st.discard.values()]
    out += [st.supply[s]["front_page"] <= 3 for s in range(2)]
    marks = [z3.If(st.fp[s][n], 1, 0) for s in range(2) for n in range(10)]
    out.append(z3.Sum([st.supply[0]["front_page"], st.supply[1]["front_page"], st.discard["front_page"]] + marks) == 6)
    out += [z3.Not(st.fp[s][GOV]) for s in range(2)]
    for s in range(2):
        for n in range(10):
            # only a Bandit can be immobilized, and only on Main Street (rule:O-immobilized)
            on_street = z3.Or([x == n for x in st.street[s]])
            out.append(z3.Implies(st.imm[s][n], z3.And(on_street, z3.BoolVal(n == BAN, ctx))))
    return z3.And(out)


# ------------------------------------------------------------------ transitions


@dataclass
class Step:
    """One action kind for one side: guard, resulting (pre-sudden-death) position, parameters."""

    kind: str
    side: int
    guard: Any
    mid: Sym
    params: dict = field(default_factory=dict)
    split: tuple = ()  # (parameter name, number of values) the checker case-splits on (far faster)


class Model:
    """The transition rules of one side's action kinds, built in one Z3 context."""

    def __init__(self, ctx: z3.Context, rules: Rules = Rules(), mutations: frozenset = frozenset()):
        unknown = set(mutations) - set(MUTATIONS)
        if unknown:
            raise ValueError(f"unknown mutation {sorted(unknown)[0]!r}")
        self.ctx, self.rules, self.mut = ctx, rules, frozenset(mutations)

    # helpers
    def I(self, name: str):  # noqa: E743 - z3's own spelling (z3.Int), read as 'Int'
        return z3.Int(name, self.ctx)

    def B(self, name: str):
        return z3.Bool(name, self.ctx)

    def T(self):
        return z3.BoolVal(True, self.ctx)

    def F(self):
        return z3.BoolVal(False, self.ctx)

    def _actor(self, st: Sym, s: int, name: int, c) -> Any:
        """The side-s character `name` stands at column c and may act (not immobilized)."""
        return z3.And(_on_street_col(st, s, name, c), z3.Not(st.imm[s][name]))

    def _free(self, st: Sym, s: int, col) -> Any:
        """rule:O15: an ability may aim at an immobilized character (reveal, call, mark: "allowed", the
        default: 'non si può muovere, non può essere spostato, attivato' limits what he does and what
        moves him) or may not ("forbidden")."""
        if self.rules.target_immobilized == "allowed":
            return self.T()
        return z3.Not(_imm_at(st, s, col, self.ctx))

    def _mayor(self, st: Sym, s: int, c, ext, extends: bool = True) -> Any:
        """rule:O8: ext (column offset -1/0/+1) needs the Mayor immediately to the actor's left (and an
        actor the Mayor extends: ``extends``)."""
        if not extends:
            return ext == 0
        m = _left(s, c)
        return z3.Or(ext == 0, z3.And(z3.Or(ext == -1, ext == 1), self._actor(st, s, MAY, m)))

    def _optional(self, name: str) -> Any:
        """rule:O16: the acting player's choice to apply an optional effect (always True with "always")."""
        return self.T() if self.rules.optional_effects == "always" else self.B(name)

    def steps(self, pre: Sym, s: int) -> list[Step]:
        builders = [self.move, self.saloon_exit, self.look, self.take, self.governor, self.hitman,
                    self.sheriff, self.indian, self.merchant, self.dancer, self.journalist, self.bandit,
                    self.reverend, self.sudden_death]
        if self.rules.actions_per_turn == "one_or_two":
            builders.append(self.end_turn)
        return [b(pre, s) for b in builders]

    def end_turn(self, pre: Sym, s: int) -> Step:
        """rule:O17 alternative: with one action left the player may end the turn; nothing changes."""
        return Step("end_turn", s, pre.actions_left == 1, pre.copy(), {})

    # -- 1. Move (rule:O-move)
    def move(self, pre: Sym, s: int) -> Step:
        """Swap two of one's street characters (i < j), or the fake swap (i == j)."""
        i, j = self.I(f"move{s}_i"), self.I(f"move{s}_j")
        g = [_in(i, 0, NCOL - 1), _in(j, 0, NCOL - 1), i <= j,
             z3.Or(i == j, z3.And(z3.Not(_imm_at(pre, s, i, self.ctx)), z3.Not(_imm_at(pre, s, j, self.ctx))))]
        mid = pre.copy()
        row = pre.street[s]
        a, b = _sel(row, i), _sel(row, j)
        mid.street[s] = [z3.If(k == i, b, z3.If(k == j, a, row[k])) for k in range(NCOL)]
        return Step("move", s, z3.And(g), mid, {"i": i, "j": j})

    def saloon_exit(self, pre: Sym, s: int) -> Step:
        """Leaving the Saloon (rule:O-saloon): the Saloon character and two street characters are
        rearranged, one back into the Saloon (never the Governor), two onto the two columns."""
        k, i, j, perm = (self.I(f"exit{s}_{n}") for n in ("slot", "i", "j", "perm"))
        g = [_in(k, 0, 1), _in(i, 0, NCOL - 1), _in(j, 0, NCOL - 1), i < j, _in(perm, 0, 5),
             z3.Not(_imm_at(pre, s, i, self.ctx)), z3.Not(_imm_at(pre, s, j, self.ctx))]
        row = pre.street[s]
        three = [_sel(pre.saloon[s], k), _sel(row, i), _sel(row, j)]
        orders = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
        pick = lambda slot: _sel([three[o[slot]] for o in orders], perm)  # noqa: E731
        to_saloon, to_i, to_j = pick(0), pick(1), pick(2)
        if "saloon_exit_copies" in self.mut:
            to_i = three[0]
            to_saloon = three[0]
        if "governor_enters_saloon" not in self.mut:
            g.append(to_saloon != GOV)
        mid = pre.copy()
        mid.saloon[s] = [z3.If(k == n, to_saloon, pre.saloon[s][n]) for n in range(2)]
        mid.street[s] = [z3.If(c == i, to_i, z3.If(c == j, to_j, row[c])) for c in range(NCOL)]
        return Step("saloon_exit", s, z3.And(g), mid, {"slot": k, "i": i, "j": j, "perm": perm})

    # -- 2. Look (rule:O-look): reveal and look; nothing on the table changes
    def look(self, pre: Sym, s: int) -> Step:
        c = self.I(f"look{s}_c")
        g = z3.And(_in(c, 0, NCOL - 1), z3.Not(_imm_at(pre, s, c, self.ctx)), _sel(pre.tokens, c) != EMPTY)
        return Step("look", s, g, pre.copy(), {"c": c})

    # -- 3. Take (rule:O-take, rule:O3, rule:O4, rule:O5, rule:O2)
    def _refill(self, st: Sym, c, ok, d) -> tuple[list, Any]:
        """rule:O2: tokens 0..c-1 slide one column toward c and a reserve token (type d, any type the
        reserve holds: a hidden outcome) fills column 0; an empty reserve leaves column 0 empty
        (default) or, alternatively, the tokens beyond c slide toward it and column 7 stays empty."""
        has = z3.Sum(list(st.reserve.values())) > 0
        guard = z3.Or(z3.Not(ok), z3.And(has, z3.Or([z3.And(d == t, st.reserve[t] >= 1) for t in TYPES])),
                      z3.And(z3.Not(has), d == EMPTY))
        toks = st.tokens
        if "take_copies_token" in self.mut:
            return list(toks), guard
        near = [d if k == 0 else z3.If(k <= c, toks[k - 1], toks[k]) for k in range(NCOL)]
        if self.rules.refill_empty_reserve == "slide_other_end":
            far = [z3.If(k >= c, toks[k + 1] if k + 1 < NCOL else z3.IntVal(EMPTY, self.ctx), toks[k])
                   for k in range(NCOL)]
            new = [z3.If(has, near[k], far[k]) for k in range(NCOL)]
        else:
            new = near
        return [z3.If(ok, new[k], toks[k]) for k in range(NCOL)], guard

    def _taken(self, mid: Sym, s: int, ok, t) -> None:
        for typ in (VOTE, BULLET, CUFFS, ELECTION):
            key = KEY_OF[typ]
            mid.supply[s][key] = z3.If(z3.And(ok, t == typ), mid.supply[s][key] + 1, mid.supply[s][key])

    def _draw_reserve(self, mid: Sym, ok, d) -> None:
        for typ in TYPES:
            mid.reserve[typ] = z3.If(z3.And(ok, d == typ), mid.reserve[typ] - 1, mid.reserve[typ])

    def take(self, pre: Sym, s: int, governor_only: bool = False) -> Step:
        """Take (rule:O-take; keeping a correct call is optional, rule:O16), or (``governor_only``) the
        Governor's ability on the token in front of him or, with the Mayor (rule:O14), beside it."""
        tag = "gov" if governor_only else "take"
        c, call, d = self.I(f"{tag}{s}_c"), self.I(f"{tag}{s}_call"), self.I(f"{tag}{s}_draw")
        ext = self.I(f"{tag}{s}_ext")
        o = 1 - s
        actor = _sel(pre.street[s], c)
        more_votes = pre.supply[s]["vote"] > pre.supply[o]["vote"]
        allowed = z3.Or(
            z3.And(call == VOTE, actor != GOV),
            z3.And(call == BULLET, actor == HIT),
            z3.And(call == CUFFS, actor == SHE),
            z3.And(call == ELECTION, actor == GOV, more_votes, z3.Not(pre.sd)))
        if governor_only:
            allowed = z3.And(call == ELECTION, actor == GOV, more_votes, z3.Not(pre.sd))
        k = c + ext if governor_only else c
        here = _sel(pre.tokens, k)
        keep = self.T() if governor_only else self._optional(f"{tag}{s}_keep")
        ok = z3.And(here == call, keep)
        toks, refill_guard = self._refill(pre, k, ok, d)
        extended = governor_only and self.rules.mayor_governor == "extended"
        g = z3.And(_in(c, 0, NCOL - 1), z3.Not(_imm_at(pre, s, c, self.ctx)), _in(ext, -1, 1), _in(k, 0, NCOL - 1),
                   self._mayor(pre, s, c, ext, extended), here != EMPTY, allowed, refill_guard)
        mid = pre.copy()
        mid.tokens = toks
        self._taken(mid, s, ok, call)
        self._draw_reserve(mid, ok, d)
        won = z3.And(ok, call == ELECTION)
        mid.winner = z3.If(won, s + 1, pre.winner)
        mid.victory = z3.If(won, 1, pre.victory)
        params = {"c": c, "call": call, "draw": d, "ext": ext}
        if not governor_only and self.rules.optional_effects == "choice":
            params["keep"] = keep
        return Step("governor" if governor_only else "take", s, g, mid, params, split=(("c", NCOL),))

    # -- 4. Abilities (rule:O-actions)
    def governor(self, pre: Sym, s: int) -> Step:
        """The Governor's ability: take the Election token in front of him (rule:O5)."""
        return self.take(pre, s, governor_only=True)

    def _discard(self, mid: Sym, s: int, key: str, cond) -> None:
        mid.supply[s][key] = z3.If(cond, mid.supply[s][key] - 1, mid.supply[s][key])
        mid.discard[key] = z3.If(cond, mid.discard[key] + 1, mid.discard[key])

    def _reverend_can(self, st: Sym, owner: int, target_col, sheriff_col) -> Any:
        """rule:O7: owner's Reverend stands with the target (default) or the arresting Sheriff
        (alternative) immediately to his left; rule:O14-reverend ("extended"): or two places to his
        left with his Mayor immediately to his left."""
        col = target_col if self.rules.reverend_left_of == "target" else sheriff_col
        rcol = _right(owner, col)
        plain = self._actor(st, owner, REV, rcol)
        if self.rules.mayor_reverend != "extended":
            return plain
        far = z3.And(self._actor(st, owner, MAY, rcol), self._actor(st, owner, REV, _right(owner, rcol)))
        return z3.Or(plain, far)

    def hitman(self, pre: Sym, s: int) -> Step:
        """rule:O-hitman, rule:O6: shoot across; Sheriff's save and Reverend's cancel are choices."""
        c, save, cancel = self.I(f"hit{s}_c"), self.B(f"hit{s}_save"), self.B(f"hit{s}_cancel")
        o = 1 - s
        g = [self._actor(pre, s, HIT, c), pre.supply[s]["bullet"] >= 1, self._free(pre, o, c)]
        mid = pre.copy()
        self._discard(mid, s, "bullet", self.T())
        target_gov = _sel(pre.street[o], c) == GOV
        sheriff_cols = [c - 1, c + 1]
        can_save = z3.And(target_gov, pre.supply[o]["handcuffs"] >= 1,
                          z3.Or([self._actor(pre, o, SHE, sc) for sc in sheriff_cols]))
        g.append(z3.Implies(save, can_save))
        sav_col = self.I(f"hit{s}_savecol")
        g.append(z3.Implies(save, z3.And(z3.Or(sav_col == c - 1, sav_col == c + 1), self._actor(pre, o, SHE, sav_col))))
        can_cancel = self._reverend_can(pre, s, c, sav_col)
        g.append(z3.Implies(cancel, z3.And(save, can_cancel)))
        self._discard(mid, o, "handcuffs", save)
        ugly = self.rules.sheriff_save == "ugly"
        o_wins = z3.And(save, z3.Not(cancel), z3.BoolVal(ugly, self.ctx))
        s_wins = z3.And(target_gov, z3.Not(save))
        mid.winner = z3.If(s_wins, s + 1, z3.If(o_wins, o + 1, pre.winner))
        mid.victory = z3.If(s_wins, 2, z3.If(o_wins, 3, pre.victory))
        return Step("hitman", s, z3.And(g), mid, {"c": c, "save": save, "cancel": cancel})

    def sheriff(self, pre: Sym, s: int) -> Step:
        """rule:O-sheriff: call Hitman (arrest: Ugly) or Bandit (immobilize, Handcuffs back)."""
        c, call, ext, cancel = (self.I(f"she{s}_c"), self.I(f"she{s}_call"), self.I(f"she{s}_ext"),
                                self.B(f"she{s}_cancel"))
        apply_it = self._optional(f"she{s}_immobilize")  # rule:O16: 'lo puoi immobilizzare'
        o = 1 - s
        t = c + ext
        g = [self._actor(pre, s, SHE, c), pre.supply[s]["handcuffs"] >= 1, z3.Or(call == HIT, call == BAN),
             _in(ext, -1, 1), _in(t, 0, NCOL - 1), self._mayor(pre, s, c, ext), self._free(pre, o, t)]
        target = _sel(pre.street[o], t)
        mid = pre.copy()
        self._discard(mid, s, "handcuffs", self.T())
        hit = z3.And(call == HIT, target == HIT)
        ban = z3.And(call == BAN, target == BAN, apply_it)
        g.append(z3.Implies(cancel, z3.And(z3.Or(hit, ban), self._reverend_can(pre, o, t, c))))
        arrest = z3.And(hit, z3.Not(cancel))
        immob = z3.And(ban, z3.Not(cancel))
        mid.winner = z3.If(arrest, s + 1, pre.winner)
        mid.victory = z3.If(arrest, 3, pre.victory)
        mid.imm[o] = [z3.If(immob, z3.BoolVal(True, self.ctx), pre.imm[o][n]) if n == BAN else pre.imm[o][n]
                      for n in range(10)]
        # Handcuffs come back from the discard when the Bandit is caught (and not cancelled)
        mid.supply[s]["handcuffs"] = z3.If(immob, mid.supply[s]["handcuffs"] + 1, mid.supply[s]["handcuffs"])
        mid.discard["handcuffs"] = z3.If(immob, mid.discard["handcuffs"] - 1, mid.discard["handcuffs"])
        params = {"c": c, "call": call, "ext": ext, "cancel": cancel}
        if self.rules.optional_effects == "choice":
            params["immobilize"] = apply_it
        return Step("sheriff", s, z3.And(g), mid, params)

    def indian(self, pre: Sym, s: int) -> Step:
        """rule:O-indian: reveal the character across (or beside it with the Mayor): nothing moves."""
        c, ext = self.I(f"ind{s}_c"), self.I(f"ind{s}_ext")
        g = z3.And(self._actor(pre, s, IND, c), _in(ext, -1, 1), _in(c + ext, 0, NCOL - 1),
                   self._mayor(pre, s, c, ext), self._free(pre, 1 - s, c + ext))
        return Step("indian", s, g, pre.copy(), {"c": c, "ext": ext})

    def merchant(self, pre: Sym, s: int) -> Step:
        """rule:O-merchant: swap two adjacent tokens, or one adjacent token with a reserve token."""
        c, w, a, b, d, mode = (self.I(f"mer{s}_{n}") for n in ("c", "w", "a", "b", "d", "mode"))
        g = [self._actor(pre, s, MER, c), z3.Or(w == 1, w == 2),
             z3.Implies(w == 2, self._actor(pre, s, MAY, _left(s, c))),
             _in(a, 0, NCOL - 1), _in(a, c - w, c + w), _in(mode, 0, 1)]
        toks = pre.tokens
        ta = _sel(toks, a)
        mid = pre.copy()
        # mode 0: two row tokens a < b
        tb = _sel(toks, b)
        g.append(z3.Implies(mode == 0, z3.And(_in(b, 0, NCOL - 1), _in(b, c - w, c + w), a < b,
                                              ta != EMPTY, tb != EMPTY)))
        swapped = [z3.If(k == a, tb, z3.If(k == b, ta, toks[k])) for k in range(NCOL)]
        # mode 1: row token a for a reserve token of type d
        g.append(z3.Implies(mode == 1, z3.And(ta != EMPTY, z3.Or([z3.And(d == t, pre.reserve[t] >= 1) for t in TYPES]))))
        from_res = [z3.If(k == a, d, toks[k]) for k in range(NCOL)]
        mid.tokens = [z3.If(mode == 0, swapped[k], from_res[k]) for k in range(NCOL)]
        for t in TYPES:
            mid.reserve[t] = z3.If(mode == 1, pre.reserve[t] - z3.If(d == t, 1, 0) + z3.If(ta == t, 1, 0),
                                   pre.reserve[t])
        return Step("merchant", s, z3.And(g), mid, {"c": c, "w": w, "a": a, "b": b, "d": d, "mode": mode},
                    split=(("c", NCOL), ("mode", 2), ("a", NCOL), ("b", NCOL)))

    def dancer(self, pre: Sym, s: int) -> Step:
        """rule:O9: pull an opposing character from 1-2 columns beside the one across to the column
        across, shifting those between; immobilized characters are never moved."""
        c, t = self.I(f"dan{s}_c"), self.I(f"dan{s}_t")
        o = 1 - s
        g = [self._actor(pre, s, DAN, c), _in(t, 0, NCOL - 1), z3.Or(t == c - 2, t == c - 1, t == c + 1, t == c + 2)]
        row = pre.street[o]
        if "dancer_moves_immobilized" not in self.mut:
            for k in range(NCOL):  # every column from c to t (inclusive) is moved
                between = z3.Or(z3.And(k >= t, k <= c), z3.And(k >= c, k <= t))
                g.append(z3.Implies(between, z3.Not(_imm_at(pre, o, k, self.ctx))))
        pulled = _sel(row, t)
        new = []
        for k in range(NCOL):
            left_shift = z3.And(t > c, k > c, k <= t)   # t right of c: c..t-1 move one toward t
            right_shift = z3.And(t < c, k >= t, k < c)
            new.append(z3.If(k == c, pulled,
                             z3.If(left_shift, row[k - 1] if k > 0 else row[k],
                                   z3.If(right_shift, row[k + 1] if k < NCOL - 1 else row[k], row[k]))))
        mid = pre.copy()
        mid.street[o] = new
        return Step("dancer", s, z3.And(g), mid, {"c": c, "t": t})

    def journalist(self, pre: Sym, s: int) -> Step:
        """rule:O-journalist: call a character (never the Governor); a Front Page marker is spent."""
        c, call, ext = self.I(f"jou{s}_c"), self.I(f"jou{s}_call"), self.I(f"jou{s}_ext")
        o = 1 - s
        t = c + ext
        target = _sel(pre.street[o], t)
        marked = z3.Or([z3.And(target == n, pre.fp[o][n]) for n in range(10)])
        g = z3.And(self._actor(pre, s, JOU, c), _in(call, 1, 9), pre.supply[s]["front_page"] >= 1,
                   _in(ext, -1, 1), _in(t, 0, NCOL - 1), self._mayor(pre, s, c, ext), self._free(pre, o, t),
                   z3.Not(marked))
        mid = pre.copy()
        ok = target == call
        mid.fp[o] = [z3.Or(pre.fp[o][n], z3.And(ok, target == n)) for n in range(10)]
        mid.supply[s]["front_page"] = pre.supply[s]["front_page"] - 1
        if "journalist_keeps_marker" in self.mut:
            mid.supply[s]["front_page"] = z3.If(ok, pre.supply[s]["front_page"], pre.supply[s]["front_page"] - 1)
        mid.discard["front_page"] = z3.If(ok, pre.discard["front_page"], pre.discard["front_page"] + 1)
        return Step("journalist", s, g, mid, {"c": c, "call": call, "ext": ext})

    def bandit(self, pre: Sym, s: int) -> Step:
        """rule:O-bandit, rule:O10: call Hitman (take a Bullet) or Sheriff (take a Handcuffs)."""
        c, call = self.I(f"ban{s}_c"), self.I(f"ban{s}_call")
        o = 1 - s
        g = [self._actor(pre, s, BAN, c), z3.Or(call == HIT, call == SHE), self._free(pre, o, c)]
        if self.rules.bandit_empty_supply == "forbidden":
            g.append(z3.Implies(call == HIT, pre.supply[o]["bullet"] >= 1))
            g.append(z3.Implies(call == SHE, pre.supply[o]["handcuffs"] >= 1))
        target = _sel(pre.street[o], c)
        mid = pre.copy()
        for who, key in ((HIT, "bullet"), (SHE, "handcuffs")):
            gain = z3.And(call == who, target == who, pre.supply[o][key] >= 1)
            mid.supply[o][key] = z3.If(gain, pre.supply[o][key] - 1, pre.supply[o][key])
            mid.supply[s][key] = z3.If(gain, pre.supply[s][key] + 1, pre.supply[s][key])
        return Step("bandit", s, z3.And(g), mid, {"c": c, "call": call})

    def reverend(self, pre: Sym, s: int) -> Step:
        """rule:O-reverend: free one's immobilized Bandit standing immediately to his left, or (the Mayor
        immediately to his left, rule:O14 "extended") two places to his left."""
        c, ext = self.I(f"rev{s}_c"), self.I(f"rev{s}_ext")
        far = _left(s, _left(s, c))
        lc = z3.If(ext == 1, far, _left(s, c))
        reach = z3.Or(ext == 0, z3.And(ext == 1, z3.BoolVal(self.rules.mayor_reverend == "extended", self.ctx),
                                       self._actor(pre, s, MAY, _left(s, c))))
        freed = z3.And(_in(lc, 0, NCOL - 1), _sel(pre.street[s], lc) == BAN, pre.imm[s][BAN])
        g = z3.And(self._actor(pre, s, REV, c), _in(ext, 0, 1), reach, freed)
        mid = pre.copy()
        mid.imm[s] = [z3.If(freed, z3.BoolVal(False, self.ctx), pre.imm[s][n]) if n == BAN else pre.imm[s][n]
                      for n in range(10)]
        return Step("reverend", s, g, mid, {"c": c, "ext": ext})

    # -- sudden death and the turn (rule:O11)
    def trigger(self, st: Sym) -> Any:
        """rule:O11: both sides hold 3 Votes and no Bullet or Handcuffs is left outside the discard;
        every time ("repeats", default) or only before a first sudden death ("once")."""
        bh = (BULLET, CUFFS)
        none_left = z3.And([_count(st.tokens, t) == 0 for t in bh] + [st.reserve[t] == 0 for t in bh]
                           + [st.supply[x][KEY_OF[t]] == 0 for x in range(2) for t in bh])
        tie = z3.And(st.supply[0]["vote"] == 3, st.supply[1]["vote"] == 3)
        if "sudden_death_any_votes" in self.mut:
            tie = self.T()
        again = self.T() if self.rules.sudden_death_repeats == "repeats" else z3.Not(st.sd)
        return z3.And(st.winner == 0, again, tie, none_left)

    def sd_reset(self, st: Sym, tag: str) -> tuple[Any, Sym, list]:
        """rule:O11: when triggered, the street tokens and the reserve are set aside and 3 Bullets,
        3 Handcuffs and 2 Bogus are laid face down on the 8 columns (where: a hidden outcome)."""
        fired = self.trigger(st)
        lay = [self.I(f"{tag}_sd_{k}") for k in range(NCOL)]
        extra = [z3.Implies(fired, z3.And([z3.Or(x == BULLET, x == CUFFS, x == BOGUS) for x in lay]
                                          + [_count(lay, BULLET) == 3, _count(lay, CUFFS) == 3]))]
        post = st.copy()
        post.tokens = [z3.If(fired, lay[k], st.tokens[k]) for k in range(NCOL)]
        for t in TYPES:
            key = KEY_OF[t]
            cleared = _count(st.tokens, t) + st.reserve[t]
            put = {BULLET: 3, CUFFS: 3, BOGUS: 2}.get(t, 0)
            post.reserve[t] = z3.If(fired, 0, st.reserve[t])
            post.discard[key] = z3.If(fired, st.discard[key] + cleared - put, st.discard[key])
        post.sd = z3.Or(st.sd, fired)
        return fired, post, extra

    def sudden_death(self, pre: Sym, s: int) -> Step:
        """The sudden-death reset as a step of its own (checked from any position satisfying the
        invariants; composed after every action by :meth:`after`)."""
        fired, post, extra = self.sd_reset(pre, f"sd{s}")
        return Step("sudden_death", s, z3.And(fired, *extra), post, {})

    def turn(self, pre: Sym, mid: Sym, s: int) -> Sym:
        """Two actions per turn (rule:O-turn); nothing more once the game is won."""
        post = mid.copy()
        over = mid.winner != 0
        last = pre.actions_left == 1
        post.to_move = z3.If(z3.Or(over, z3.Not(last)), pre.to_move, 1 - s)
        post.actions_left = z3.If(over, pre.actions_left, z3.If(last, 2, pre.actions_left - 1))
        return post

    def after(self, pre: Sym, step: Step) -> tuple[Sym, Any, list]:
        """The full transition: the action, then sudden death if it triggers, then the turn."""
        fired, post, extra = self.sd_reset(step.mid, f"{step.kind}{step.side}")
        return self.turn(pre, post, step.side), fired, extra


# ------------------------------------------------------------------ the checks


Check = Callable[[Sym, Sym, Any, Any], Any]

CHECKS: dict[str, Check] = {
    "token-totals": lambda pre, post, fired, ctx: token_totals_ok(post),
    "saloon-two": lambda pre, post, fired, ctx: saloon_ok(post),
    "governor-not-in-saloon": lambda pre, post, fired, ctx: governor_ok(post),
    "immobilized-stay": lambda pre, post, fired, ctx: z3.And(
        [z3.Implies(z3.And(pre.imm[s][n], pre.street[s][k] == n), post.street[s][k] == n)
         for s in range(2) for n in range(10) for k in range(NCOL)]),
    "sudden-death-3-3": lambda pre, post, fired, ctx: z3.Implies(
        fired, z3.And(post.supply[0]["vote"] == 3, post.supply[1]["vote"] == 3)),
    "well-formed": lambda pre, post, fired, ctx: state_ok(post, ctx),
}


def _pre_assumptions(pre: Sym, ctx) -> Any:
    return z3.And(well_formed(pre, ctx), token_totals_ok(pre), saloon_ok(pre), governor_ok(pre))


def _val(m: z3.ModelRef, e) -> Any:
    v = m.eval(e, model_completion=True)
    if z3.is_true(v) or z3.is_false(v):
        return z3.is_true(v)
    return v.as_long()


def sym_to_json(m: z3.ModelRef, st: Sym) -> dict:
    """A concrete position (contracts.md format) from a Z3 model of a symbolic one."""
    name = lambda v: CHARS[v] if 0 <= v < 10 else f"?{v}"  # noqa: E731
    tok = lambda v: TOKS[v] if 0 <= v < 6 else f"?{v}"  # noqa: E731
    reserve = []
    for t in TYPES:
        reserve += [TOKS[t]] * max(0, _val(m, st.reserve[t]))
    return {
        "to_move": SIDE_NAMES[_val(m, st.to_move)] if _val(m, st.to_move) in (0, 1) else None,
        "actions_left": _val(m, st.actions_left),
        "street": {SIDE_NAMES[s]: [name(_val(m, x)) for x in st.street[s]] for s in range(2)},
        "saloon": {SIDE_NAMES[s]: [name(_val(m, x)) for x in st.saloon[s]] for s in range(2)},
        "tokens": [tok(_val(m, x)) for x in st.tokens],
        "reserve": reserve,
        "supply": {SIDE_NAMES[s]: {k: _val(m, st.supply[s][k]) for k in SUPPLY_KEYS} for s in range(2)},
        "discard": {k: _val(m, st.discard[k]) for k in DISCARD_KEYS},
        "immobilized": [[SIDE_NAMES[s], CHARS[n]] for s in range(2) for n in range(10) if _val(m, st.imm[s][n])],
        "front_page": [[SIDE_NAMES[s], CHARS[n]] for s in range(2) for n in range(10) if _val(m, st.fp[s][n])],
        "sudden_death": _val(m, st.sd),
        "winner": {0: None, 1: "A", 2: "B"}.get(_val(m, st.winner)),
        "victory": {0: None, 1: "good", 2: "bad", 3: "ugly"}.get(_val(m, st.victory)),
    }


def check_invariant(check_id: str, rules: Rules = Rules(), time_limit: float = 30.0,
                    mutations: frozenset = frozenset()) -> dict:
    """Run one invariant check (fresh Z3 context): holds / fails with a counterexample / unknown."""
    if check_id not in CHECKS:
        raise ValueError(f"unknown check {check_id!r}")
    start = time.perf_counter()
    ctx = z3.Context()
    model = Model(ctx, rules, frozenset(mutations))
    pre = fresh_state(ctx, "pre")
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", max(1, int(time_limit * 1000)))
    solver.add(_pre_assumptions(pre, ctx))
    holds: bool | None = True
    counterexample = None
    per_kind = {}
    for s in range(2):
        for step in model.steps(pre, s):
            t0 = time.perf_counter()
            if step.kind == "sudden_death":
                post, fired, extra = step.mid, step.guard, []
            else:  # the reset is checked as its own step: the action alone here
                post, fired, extra = model.turn(pre, step.mid, s), z3.BoolVal(False, ctx), []
            goal = z3.And(pre.to_move == s, step.guard, *extra, z3.Not(CHECKS[check_id](pre, post, fired, ctx)))
            res, m = z3.unsat, None
            for case in itertools.product(*[range(n) for _, n in step.split]):
                remaining = time_limit - (time.perf_counter() - start)
                if remaining <= 0:
                    res = z3.unknown
                    break
                pairs = [(step.params[n], z3.IntVal(v, ctx)) for (n, _), v in zip(step.split, case)]
                solver.push()
                try:
                    solver.add(z3.simplify(z3.substitute(goal, *pairs)) if pairs else goal)
                    solver.add(*[x == v for x, v in pairs])
                    solver.set("timeout", max(1, int(remaining * 1000)))
                    res = solver.check()
                    m = solver.model() if res == z3.sat else None
                finally:
                    solver.pop()
                if res != z3.unsat:
                    break
            per_kind[f"{step.kind}/{SIDE_NAMES[s]}"] = round(time.perf_counter() - t0, 4)
            if res == z3.sat:
                holds = False
                counterexample = {
                    "before": sym_to_json(m, pre),
                    "action": {"kind": step.kind, "side": SIDE_NAMES[s],
                               **{k: _val(m, v) for k, v in step.params.items()}},
                    "after": sym_to_json(m, post),
                    "sudden_death_fired": _val(m, fired),
                }
                break
            if res == z3.unknown:
                holds = None
                break
        if holds is not True:
            break
    return {"id": check_id, "holds": holds, "counterexample": counterexample, "rule": RULE_TEXT[check_id],
            "seconds": round(time.perf_counter() - start, 4), "proven": holds is not None,
            "mutations": sorted(mutations), "per_kind_seconds": per_kind}


def run_checks(rules: Rules = Rules(), time_limit: float = 60.0, mutations: frozenset = frozenset(),
               only: tuple[str, ...] | None = None) -> list[dict]:
    """All invariant checks (contracts.md ``verify`` format plus ``seconds``); each in a fresh context.

    ``time_limit`` is per check; ``holds`` is None (not proven) when a check runs out of time.
    """
    ids = only or tuple(CHECKS)
    return [check_invariant(cid, rules, time_limit, mutations) for cid in ids]


# ------------------------------------------------------------------ agreement with the concrete engine


def project_position(pos) -> tuple:
    """A concrete engine :class:`~solver.outlaws.state.Position` as the tuple of what this encoding
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
    out += [st.imm[s][n] for s in range(2) for n in range(10)] + [st.fp[s][n] for s in range(2) for n in range(10)]
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
    imm_flags, fp_flags = take(20), take(20)
    imm = tuple((k // 10, k % 10) for k, f in enumerate(imm_flags) if f)
    fp = tuple((k // 10, k % 10) for k, f in enumerate(fp_flags) if f)
    sd, winner, victory = take(3)
    return (to_move, left, street, saloon, tokens, reserve, supply, discard, imm, fp, bool(sd), winner, victory)


def _pin(ctx, st: Sym, pos) -> Any:
    """Constraints fixing a symbolic position to a concrete engine position."""
    t = project_position(pos)
    to_move, left, street, saloon, tokens, reserve, supply, discard, imm, fp, sd, winner, victory = t
    eq = [st.to_move == to_move, st.actions_left == left, st.winner == winner, st.victory == victory,
          st.sd == z3.BoolVal(sd, ctx)]
    for s in range(2):
        eq += [x == v for x, v in zip(st.street[s], street[s])]
        eq += [x == v for x, v in zip(st.saloon[s], saloon[s])]
        eq += [x == v for x, v in zip([st.supply[s][k] for k in SUPPLY_KEYS], supply[s])]
        eq += [st.imm[s][n] == z3.BoolVal((s, n) in imm, ctx) for n in range(10)]
        eq += [st.fp[s][n] == z3.BoolVal((s, n) in fp, ctx) for n in range(10)]
    eq += [x == v for x, v in zip(st.tokens, tokens)]
    eq += [st.reserve[k] == v for k, v in zip(TYPES, reserve)]
    eq += [st.discard[k] == v for k, v in zip(DISCARD_KEYS, discard)]
    return z3.And(eq)


def model_successors(pos, rules: Rules = Rules(), limit: int = 5000,
                     mutations: frozenset = frozenset()) -> dict[tuple, str]:
    """Every position the Z3 encoding allows after one action from the concrete ``pos``
    (projected as :func:`project_position`), mapped to the action kind that reaches it."""
    ctx = z3.Context()
    model = Model(ctx, rules, frozenset(mutations))
    pre = fresh_state(ctx, "pre")
    pin = _pin(ctx, pre, pos)
    s = SIDE_NAMES.index(pos.to_move)
    found: dict[tuple, str] = {}
    for step in model.steps(pre, s):
        if step.kind == "sudden_death":
            continue  # part of every action's transition (Model.after)
        post, _fired, extra = model.after(pre, step)
        vec = _sym_vector(post)
        solver = z3.Solver(ctx=ctx)
        solver.add(pin, pre.winner == 0, step.guard, *extra)  # nothing more once the game is won
        while len(found) < limit and solver.check() == z3.sat:
            m = solver.model()
            vals = [_val(m, e) for e in vec]
            found.setdefault(_vector_to_tuple(vals), step.kind)
            solver.add(z3.Or([e != z3.BoolVal(v, ctx) if isinstance(v, bool) else e != v for e, v in zip(vec, vals)]))
    return found


def engine_successors(pos, rules: Rules = Rules()) -> dict[tuple, str]:
    """Every position the concrete engine reaches after one action (projected), with an example action."""
    from solver.outlaws.actions import legal_actions
    from solver.outlaws.apply import outcomes

    found: dict[tuple, str] = {}
    for a in legal_actions(pos, rules):
        for o in outcomes(pos, a, rules):
            found.setdefault(project_position(o.position), str(a.to_json()) + " / " + o.condition)
    return found


def cross_check(pos, rules: Rules = Rules(), mutations: frozenset = frozenset()) -> dict:
    """Compare the Z3 transition encoding with the engine on one fully known position: the successor
    sets must be equal. Returns counts and examples of positions only one side reaches."""
    start = time.perf_counter()
    mine = model_successors(pos, rules, mutations=mutations)
    theirs = engine_successors(pos, rules)
    only_model = [k for k in mine if k not in theirs]
    only_engine = [k for k in theirs if k not in mine]
    return {"agree": not only_model and not only_engine, "model": len(mine), "engine": len(theirs),
            "only_model": [(mine[k], k) for k in only_model[:5]],
            "only_engine": [(theirs[k], k) for k in only_engine[:5]],
            "seconds": round(time.perf_counter() - start, 3)}


# ------------------------------------------------------------------ CLI: `ruleslinger outlaws verify | dead-positions`


def _cli_rules(args) -> Rules:
    return Rules.from_args(args)


def _positive(value: float, what: str, hi: float) -> float:
    from solver.errors import BadInput

    if not (value > 0 and value <= hi):
        raise BadInput(f"{what} {value}: expected a number of seconds in (0, {hi:g}]")
    return value


def verify_cmd(args) -> dict:
    """`ruleslinger outlaws verify`: every Z3 invariant check (contracts.md verify format)."""
    from solver.errors import BadInput

    rules = _cli_rules(args)
    limit = _positive(args.time_limit, "--time-limit", 3600)
    only = tuple(args.check) if args.check else None
    for cid in only or ():
        if cid not in CHECKS:
            raise BadInput(f"--check {cid!r}: expected one of {', '.join(CHECKS)}")
    mutations = frozenset(args.mutate or ())
    for m in mutations:
        if m not in MUTATIONS:
            raise BadInput(f"--mutate {m!r}: expected one of {', '.join(MUTATIONS)}")
    checks = run_checks(rules, limit, mutations, only)
    return {"checks": checks, "rules": rules.to_json(), "mutations": sorted(mutations),
            "all_hold": all(c["holds"] is True for c in checks)}


def _render_verify(result: dict) -> str:
    lines = []
    for c in result["checks"]:
        state = {True: "holds", False: "FAILS", None: "unknown (time limit)"}[c["holds"]]
        lines.append(f"{c['id']:<24} {state:<22} {c['seconds']:>7.2f}s  {c['rule'][:70]}")
        if c["counterexample"]:
            cx = c["counterexample"]
            lines.append(f"    counterexample: {cx['action']}")
            lines.append(f"    before: {cx['before']}")
    if result["mutations"]:
        lines.append(f"(deliberately broken rules: {', '.join(result['mutations'])})")
    return "\n".join(lines)


def dead_positions_cmd(args) -> dict:
    """`ruleslinger outlaws dead-positions`: search for positions nobody can win (rule:O12)."""
    from solver.errors import BadInput
    from solver.outlaws.search import find_dead_positions
    from solver.outlaws.state import read_position

    rules = _cli_rules(args)
    limit = _positive(args.time_limit, "--time-limit", 86400)
    if not 0 <= args.max_depth <= 500:
        raise BadInput(f"--max-depth {args.max_depth}: expected 0..500")
    if not 1 <= args.max_nodes <= 10_000_000:
        raise BadInput(f"--max-nodes {args.max_nodes}: expected 1..10000000")
    start = read_position(args.position) if args.position else None
    out = find_dead_positions(start, rules, args.max_depth, limit, args.max_nodes, args.seed,
                              use_lemma=not args.no_lemma)
    out["rules"] = rules.to_json()
    return out


def _render_dead(result: dict) -> str:
    lines = [f"searched {result['nodes']} positions in {result['seconds']:.1f}s (depth bound {result['depth_bound']})"]
    lines.append(f"dead token-economy classes under these readings: {result['dead_classes'] or 'none'}")
    if not result["found"]:
        lines.append(result["bound"])
        return "\n".join(lines)
    lines.append(f"DEAD POSITION after {result['length']} actions: nobody can win and the sudden-death "
                 f"trigger does not hold (sudden death already happened: {result['why']['sudden_death']})")
    for n, e in enumerate(result["line"], 1):
        a = e["action"]
        rest = ", ".join(f"{k}={v}" for k, v in a.items() if k != "kind")
        cond = "" if e["condition"] == "certain" else f"  [{e['condition'][:80]}]"
        lines.append(f"{n:3d}. {e['side']} {a['kind']} {rest}{cond}")
    p = result["position"]
    lines.append(f"tokens: {p['tokens']}  reserve: {p['reserve']}  supply: {p['supply']}  discard: {p['discard']}")
    return "\n".join(lines)


def register_verification(group) -> None:
    """Add ``verify`` and ``dead-positions`` to the ``ruleslinger outlaws`` group (called by cli.py)."""
    from solver import clikit

    rule_opt = add_rule_option

    p = clikit.add_command(group, "verify", "Z3 invariant checks on every action kind (with counterexamples)",
                           verify_cmd, _render_verify)
    rule_opt(p)
    p.add_argument("--time-limit", type=float, default=120.0, help="seconds per check (default 120)")
    p.add_argument("--check", action="append", metavar="ID", help=f"only this check ({', '.join(CHECKS)}); repeatable")
    p.add_argument("--mutate", action="append", metavar="NAME",
                   help=f"check a deliberately broken rule instead ({', '.join(MUTATIONS)}); repeatable")
    p = clikit.add_command(group, "dead-positions",
                           "search reachable positions where nobody can win and sudden death does not trigger (O12)",
                           dead_positions_cmd, _render_dead)
    rule_opt(p)
    p.add_argument("position", nargs="?", default=None, help="start position JSON (default: the set-up of --seed)")
    p.add_argument("--seed", type=clikit.seed_int, default=0, help="set-up seed when no position is given (default 0)")
    p.add_argument("--max-depth", type=int, default=80, help="depth bound in actions (default 80)")
    p.add_argument("--time-limit", type=float, default=300.0, help="seconds (default 300)")
    p.add_argument("--max-nodes", type=int, default=100_000, help="positions expanded at most (default 100000)")
    p.add_argument("--no-lemma", action="store_true",
                   help="search even when the token-economy lemma already shows no dead position exists")


def invariants_hold_at(pos) -> bool:
    """Whether a concrete, fully known engine position satisfies every state invariant the checks
    assume (the base case of the induction: tested on set-ups)."""
    ctx = z3.Context()
    st = fresh_state(ctx, "at")
    solver = z3.Solver(ctx=ctx)
    solver.add(_pin(ctx, st, pos), state_ok(st, ctx), token_totals_ok(st), saloon_ok(st), governor_ok(st))
    return solver.check() == z3.sat
