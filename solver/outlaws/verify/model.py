"""The Z3 transition rules of Outlaws (rule:O-verify-invariants): every action kind of one side as a
:class:`Step` (guard, the position after, its parameters), encoded directly from the rulebook and the
docs/open-questions.md readings, independently from the engine (``actions.py``/``apply.py``) and
cross-checked against it (:mod:`solver.outlaws.verify.agreement`). Hidden outcomes (which reserve token
refills the row, where the sudden-death tokens land) and reactions are free choices of the encoding, so
every possible outcome is covered. The generic actions (Move, leaving the Saloon, Look, Take: rule:O-move,
rule:O-saloon, rule:O-look, rule:O-take), sudden death (rule:O11) and the turn (rule:O-turn, rule:O17)
are here; each character's ability is its record's ``z3_step`` (:mod:`solver.outlaws.characters`), built on
the helpers below.
"""

from __future__ import annotations

from typing import Any

import z3

from solver.outlaws.characters import TABLE
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.verify.symbolic import (
    BOGUS,
    BULLET,
    CUFFS,
    ELECTION,
    EMPTY,
    GOV,
    HIT,
    KEY_OF,
    MAY,
    NCOL,
    REV,
    SHE,
    TYPES,
    VOTE,
    Step,
    Sym,
    count,
    immobilized_at,
    left,
    right,
    sel,
    stands_at,
    within,
)

MUTATIONS = {
    "take_copies_token": "a successful Take adds the token to the supply but leaves it on the street",
    "governor_enters_saloon": "leaving the Saloon may put the Governor in it",
    "saloon_exit_copies": "leaving the Saloon puts the character on the street but also keeps it in the Saloon",
    "dancer_moves_immobilized": "the Dancer may pull immobilized characters",
    "sudden_death_any_votes": "sudden death triggers without the 3-3 Vote tie",
    "journalist_keeps_marker": "a correct Journalist call marks the character without spending a Front Page marker",
}
"""Deliberately broken rules (for the tests: each makes one check fail with a counterexample)."""


class Model:
    """The transition rules of one side's action kinds, built in one Z3 context."""

    def __init__(self, ctx: z3.Context, readings: OutlawsReadings = OutlawsReadings(), mutations: frozenset = frozenset()):
        unknown = set(mutations) - set(MUTATIONS)
        if unknown:
            raise ValueError(f"unknown mutation {sorted(unknown)[0]!r}")
        self.ctx, self.readings, self.mut = ctx, readings, frozenset(mutations)

    # helpers
    def I(self, name: str):  # noqa: E743 - z3's own spelling (z3.Int), read as 'Int'
        return z3.Int(name, self.ctx)

    def B(self, name: str):
        return z3.Bool(name, self.ctx)

    def T(self):
        return z3.BoolVal(True, self.ctx)

    def F(self):
        return z3.BoolVal(False, self.ctx)

    def actor(self, st: Sym, s: int, name: int, c) -> Any:
        """The side-s character `name` stands at column c and may act (not immobilized)."""
        return z3.And(stands_at(st, s, name, c), z3.Not(st.imm[s][name]))

    def free(self, st: Sym, s: int, col) -> Any:
        """rule:O15: an ability may aim at an immobilized character (reveal, call, mark: "allowed", the
        default: 'non si può muovere, non può essere spostato, attivato' limits what he does and what
        moves him) or may not ("forbidden")."""
        if self.readings.target_immobilized == "allowed":
            return self.T()
        return z3.Not(immobilized_at(st, s, col, self.ctx))

    def mayor_reach(self, st: Sym, s: int, c, ext, extends: bool = True) -> Any:
        """rule:O8: ext (column offset -1/0/+1) needs the Mayor immediately to the actor's left (and an
        actor the Mayor extends: ``extends``)."""
        if not extends:
            return ext == 0
        m = left(s, c)
        return z3.Or(ext == 0, z3.And(z3.Or(ext == -1, ext == 1), self.actor(st, s, MAY, m)))

    def optional(self, name: str) -> Any:
        """rule:O16: the acting player's choice to apply an optional effect (always True with "always")."""
        return self.T() if self.readings.optional_effects == "always" else self.B(name)

    def steps(self, pre: Sym, s: int) -> list[Step]:
        """Every action kind of side ``s``: the generic ones, each character's ability (its ``z3_step`` in
        :data:`solver.outlaws.characters.TABLE`), then the reset."""
        builders = [self.move, self.saloon_exit, self.look, self.take]
        builders += [lambda pre, s, b=c.z3_step: b(self, pre, s) for c in TABLE.values() if c.z3_step is not None]
        builders.append(self.sudden_death)
        if self.readings.actions_per_turn == "one_or_two":
            builders.append(self.end_turn)
        return [b(pre, s) for b in builders]

    def end_turn(self, pre: Sym, s: int) -> Step:
        """rule:O17 alternative: with one action left the player may end the turn; nothing changes."""
        return Step("end_turn", s, pre.actions_left == 1, pre.copy(), {})

    # -- 1. Move (rule:O-move)
    def move(self, pre: Sym, s: int) -> Step:
        """Swap two of one's street characters (i < j), or the fake swap (i == j)."""
        i, j = self.I(f"move{s}_i"), self.I(f"move{s}_j")
        g = [within(i, 0, NCOL - 1), within(j, 0, NCOL - 1), i <= j,
             z3.Or(i == j, z3.And(z3.Not(immobilized_at(pre, s, i, self.ctx)),
                                  z3.Not(immobilized_at(pre, s, j, self.ctx))))]
        mid = pre.copy()
        row = pre.street[s]
        a, b = sel(row, i), sel(row, j)
        mid.street[s] = [z3.If(k == i, b, z3.If(k == j, a, row[k])) for k in range(NCOL)]
        return Step("move", s, z3.And(g), mid, {"i": i, "j": j})

    def saloon_exit(self, pre: Sym, s: int) -> Step:
        """Leaving the Saloon (rule:O-saloon): the Saloon character and two street characters are
        rearranged, one back into the Saloon (never the Governor), two onto the two columns."""
        k, i, j, perm = (self.I(f"exit{s}_{n}") for n in ("slot", "i", "j", "perm"))
        g = [within(k, 0, 1), within(i, 0, NCOL - 1), within(j, 0, NCOL - 1), i < j, within(perm, 0, 5),
             z3.Not(immobilized_at(pre, s, i, self.ctx)), z3.Not(immobilized_at(pre, s, j, self.ctx))]
        row = pre.street[s]
        three = [sel(pre.saloon[s], k), sel(row, i), sel(row, j)]
        orders = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
        pick = lambda slot: sel([three[o[slot]] for o in orders], perm)  # noqa: E731
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
        g = z3.And(within(c, 0, NCOL - 1), z3.Not(immobilized_at(pre, s, c, self.ctx)), sel(pre.tokens, c) != EMPTY)
        return Step("look", s, g, pre.copy(), {"c": c})

    # -- 3. Take (rule:O-take, rule:O3, rule:O4, rule:O5, rule:O2)
    def _refill(self, st: Sym, c, ok, d, has) -> tuple[list, Any]:
        """rule:O2: tokens 0..c-1 slide one column toward c and a reserve token (type d, any type the
        reserve holds: a hidden outcome) fills column 0; an empty reserve leaves column 0 empty
        (default) or, alternatively, the tokens beyond c slide toward it and column 7 stays empty. ``has``: the
        reserve holds a token (a parameter, so the checker can take the two cases apart)."""
        drawn = z3.Or([z3.And(d == t, st.reserve[t] >= 1) for t in TYPES])
        guard = z3.And(has == (z3.Sum(list(st.reserve.values())) > 0),
                       z3.Or(z3.Not(ok), z3.And(has, drawn), z3.And(z3.Not(has), d == EMPTY)))
        toks = st.tokens
        if "take_copies_token" in self.mut:
            return list(toks), guard
        near = [d if k == 0 else z3.If(k <= c, toks[k - 1], toks[k]) for k in range(NCOL)]
        if self.readings.refill_empty_reserve == "slide_other_end":
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
        actor = sel(pre.street[s], c)
        more_votes = pre.supply[s]["vote"] > pre.supply[o]["vote"]
        allowed = z3.Or(
            z3.And(call == VOTE, actor != GOV),
            z3.And(call == BULLET, actor == HIT),
            z3.And(call == CUFFS, actor == SHE),
            z3.And(call == ELECTION, actor == GOV, more_votes, z3.Not(pre.sd)))
        if governor_only:
            allowed = z3.And(call == ELECTION, actor == GOV, more_votes, z3.Not(pre.sd))
        k = c + ext if governor_only else c
        here = sel(pre.tokens, k)
        keep = self.T() if governor_only else self.optional(f"{tag}{s}_keep")
        ok = z3.And(here == call, keep)
        has = self.B(f"{tag}{s}_reserve")
        toks, refill_guard = self._refill(pre, k, ok, d, has)
        extended = governor_only and self.readings.mayor_governor == "extended"
        g = z3.And(within(c, 0, NCOL - 1), z3.Not(immobilized_at(pre, s, c, self.ctx)), within(ext, -1, 1),
                   within(k, 0, NCOL - 1), self.mayor_reach(pre, s, c, ext, extended), here != EMPTY, allowed, refill_guard)
        mid = pre.copy()
        mid.tokens = toks
        self._taken(mid, s, ok, call)
        self._draw_reserve(mid, ok, d)
        won = z3.And(ok, call == ELECTION)
        mid.winner = z3.If(won, s + 1, pre.winner)
        mid.victory = z3.If(won, 1, pre.victory)
        params = {"c": c, "call": call, "draw": d, "ext": ext, "reserve": has}
        if not governor_only and self.readings.optional_effects == "choice":
            params["keep"] = keep
        columns = [(col, e) for col in range(NCOL) for e in ((-1, 0, 1) if extended else (0,)) if 0 <= col + e < NCOL]
        return Step("governor" if governor_only else "take", s, g, mid, params,
                    cases=tuple((("c", col), ("ext", e), *r) for col, e in columns for r in self._reserve_cases(has)),
                    preprocess=True)

    def _reserve_cases(self, has) -> tuple:
        """Whether the reserve is empty changes which tokens slide under ``refill_empty_reserve="slide_other_end"``
        (rule:O2): there the checker takes the two apart (twice as fast); by default it only decides the draw."""
        if self.readings.refill_empty_reserve == "slide_other_end":
            return ((("reserve", True),), (("reserve", False),))
        return ((),)

    # -- 4. Abilities (rule:O-actions)
    def discard(self, mid: Sym, s: int, key: str, cond) -> None:
        mid.supply[s][key] = z3.If(cond, mid.supply[s][key] - 1, mid.supply[s][key])
        mid.discard[key] = z3.If(cond, mid.discard[key] + 1, mid.discard[key])

    def reverend_can(self, st: Sym, owner: int, target_col, sheriff_col) -> Any:
        """rule:O7: owner's Reverend stands with the target (default) or the arresting Sheriff
        (alternative) immediately to his left; rule:O14-reverend ("extended"): or two places to his
        left with his Mayor immediately to his left."""
        col = target_col if self.readings.reverend_left_of == "target" else sheriff_col
        rcol = right(owner, col)
        plain = self.actor(st, owner, REV, rcol)
        if self.readings.mayor_reverend != "extended":
            return plain
        far = z3.And(self.actor(st, owner, MAY, rcol), self.actor(st, owner, REV, right(owner, rcol)))
        return z3.Or(plain, far)


    # -- sudden death and the turn (rule:O11)
    def trigger(self, st: Sym) -> Any:
        """rule:O11: both sides hold 3 Votes and no Bullet or Handcuffs is left outside the discard;
        every time ("repeats", default) or only before a first sudden death ("once")."""
        bh = (BULLET, CUFFS)
        none_left = z3.And([count(st.tokens, t) == 0 for t in bh] + [st.reserve[t] == 0 for t in bh]
                           + [st.supply[x][KEY_OF[t]] == 0 for x in range(2) for t in bh])
        tie = z3.And(st.supply[0]["vote"] == 3, st.supply[1]["vote"] == 3)
        if "sudden_death_any_votes" in self.mut:
            tie = self.T()
        again = self.T() if self.readings.sudden_death_repeats == "repeats" else z3.Not(st.sd)
        return z3.And(st.winner == 0, again, tie, none_left)

    def sd_reset(self, st: Sym, tag: str) -> tuple[Any, Sym, list]:
        """rule:O11: when triggered, the street tokens and the reserve are set aside and 3 Bullets,
        3 Handcuffs and 2 Bogus are laid face down on the 8 columns (where: a hidden outcome)."""
        fired = self.trigger(st)
        lay = [self.I(f"{tag}_sd_{k}") for k in range(NCOL)]
        extra = [z3.Implies(fired, z3.And([z3.Or(x == BULLET, x == CUFFS, x == BOGUS) for x in lay]
                                          + [count(lay, BULLET) == 3, count(lay, CUFFS) == 3]))]
        post = st.copy()
        post.tokens = [z3.If(fired, lay[k], st.tokens[k]) for k in range(NCOL)]
        for t in TYPES:
            key = KEY_OF[t]
            cleared = count(st.tokens, t) + st.reserve[t]
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

