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

Each Z3 check runs through the one check runner (:mod:`solver.z3check`: a fresh ``z3.Context``, a time limit),
one step (action kind and side) at a time and each step one case at a time (:attr:`Step.cases`); the take steps are solved
with Z3's preprocessing (their refill arithmetic needs it). The symbolic position is in :mod:`symbolic`,
the transitions in :mod:`model` and :mod:`abilities`, the agreement with the engine in :mod:`agreement`;
``ruleslinger outlaws verify`` is added by :mod:`solver.outlaws.cli`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import z3

from solver.execution.progress import OnProgress, Progress
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.verify.agreement import cross_check, engine_successors, model_successors, pin, project_position
from solver.outlaws.verify.model import MUTATIONS, Model
from solver.outlaws.verify.symbolic import (
    NCHAR,
    NCOL,
    SIDE_NAMES,
    Step,
    Sym,
    fresh_position,
    governor_ok,
    saloon_ok,
    state_ok,
    sym_to_json,
    token_totals_ok,
    value,
    well_formed,
)
from solver.z3check import CheckResult, Finding, Z3Run

__all__ = ["CHECKS", "MUTATIONS", "RULE_TEXT", "Model", "check_invariant", "run_checks", "invariants_hold_at",
           "cross_check", "model_successors", "engine_successors", "project_position", "sym_to_json"]

RULE_TEXT = {
    "token-totals": "published component list: '17 tokens: 6 Votes, 3 Bullets, 3 Handcuffs, 4 Bogus (X), 1 Election'; "
                    "Prendi un Gettone / Rimpiazzare i Gettoni / Morte Subitanea (in English: Take a Token / Replacing "
                    "the Tokens / Sudden Death)",
    "saloon-two": "Il Saloon: 'Il Saloon ... contiene due personaggi' (in English, The Saloon: 'The Saloon ... holds two "
                  "characters'); Lasciare il Saloon: 'collocandone uno di nuovo nel Saloon, e due su Main Street' (in "
                  "English, Leaving the Saloon: 'placing one of them back in the Saloon, and two on Main Street')",
    "governor-not-in-saloon": "Il Saloon: 'Qualsiasi personaggio può entrare nel Saloon, ad eccezione del "
                              "Governatore' (in English, The Saloon: 'Any character may enter the Saloon, except the "
                              "Governor')",
    "immobilized-stay": "Immobilizzato: 'Un personaggio immobilizzato non si può muovere, non può essere spostato, "
                        "attivato o utilizzare le proprie abilità in alcun modo' (in English, Immobilized: 'An "
                        "immobilized character cannot move, cannot be moved, activated or use his abilities in any "
                        "way')",
    "sudden-death-3-3": "Morte Subitanea: 'entrambi i giocatori hanno 3 voti e tutte e 6 i gettoni Pallottola e "
                        "Manette sono stati utilizzati' (in English, Sudden Death: 'both players have 3 Votes and all 6 "
                        "Bullet and Handcuffs tokens have been used') (O11)",
    "well-formed": "Lo Sceriffo: 'Se Chiami correttamente il Bandito, allora lo puoi immobilizzare' (in English, The "
                   "Sheriff: 'If you Call the Bandit correctly, then you may immobilize him'); Il Giornalista: 'Non puoi "
                   "tentare questa azione se non hai più segnalini In Prima Pagina ... non può mai Chiamare il "
                   "Governatore' (in English, The Journalist: 'You cannot attempt this action if you have no Front Page "
                   "markers left ... can never Call the Governor') (the other checks assume what this one proves)",
}
"""Each check's rule passage: the Italian rulebook's words, each quote with its English beside it."""


Check = Callable[[Sym, Sym, Any, Any], Any]

CHECKS: dict[str, Check] = {
    "token-totals": lambda pre, post, fired, ctx: token_totals_ok(post),
    "saloon-two": lambda pre, post, fired, ctx: saloon_ok(post),
    "governor-not-in-saloon": lambda pre, post, fired, ctx: governor_ok(post),
    "immobilized-stay": lambda pre, post, fired, ctx: z3.And(
        [z3.Implies(z3.And(pre.imm[s][n], pre.street[s][k] == n), post.street[s][k] == n)
         for s in range(2) for n in range(NCHAR) for k in range(NCOL)]),
    "sudden-death-3-3": lambda pre, post, fired, ctx: z3.Implies(
        fired, z3.And(post.supply[0]["vote"] == 3, post.supply[1]["vote"] == 3)),
    "well-formed": lambda pre, post, fired, ctx: state_ok(post, ctx),
}


def _pre_assumptions(pre: Sym, ctx) -> Any:
    """What the induction assumes of the position before: well-formed and every invariant."""
    return z3.And(well_formed(pre, ctx), token_totals_ok(pre), saloon_ok(pre), governor_ok(pre))



def check_invariant(check_id: str, readings: OutlawsReadings = OutlawsReadings(), time_limit: float = 30.0,
                    mutations: frozenset = frozenset()) -> CheckResult:
    """Run one invariant check through the Z3 check runner (fresh context): holds / fails with a counterexample /
    unknown; ``extra`` names the mutations and the seconds each step (action kind / side) took."""
    if check_id not in CHECKS:
        raise ValueError(f"unknown check {check_id!r}")
    run = Z3Run(time_limit)
    ctx = run.ctx
    model = Model(ctx, readings, frozenset(mutations))
    pre = fresh_position(ctx, "pre")
    assumed = _pre_assumptions(pre, ctx)
    solver = z3.Solver(ctx=ctx)
    solver.add(assumed)
    holds: bool | None = True
    counterexample = None
    per_kind = {}
    for s in range(2):
        for step in model.steps(pre, s):
            t0 = time.perf_counter()
            if step.kind == "sudden_death":
                post, fired = step.mid, step.guard
            else:  # the reset is checked as its own step: the action alone here
                post, fired = model.turn(pre, step.mid, s), z3.BoolVal(False, ctx)
            goal = z3.And(pre.to_move == s, step.guard, z3.Not(CHECKS[check_id](pre, post, fired, ctx)))
            res, m = _solve_cases(run, step, goal, solver, assumed)
            per_kind[f"{step.kind}/{SIDE_NAMES[s]}"] = round(time.perf_counter() - t0, 4)
            if res == z3.sat:
                holds = False
                counterexample = {
                    "before": sym_to_json(m, pre),
                    "action": {"kind": step.kind, "side": SIDE_NAMES[s],
                               **{k: value(m, v) for k, v in step.params.items()}},
                    "after": sym_to_json(m, post),
                    "sudden_death_fired": value(m, fired),
                }
                break
            if res == z3.unknown:
                holds = None
                break
        if holds is not True:
            break
    return CheckResult(check_id, check_id, RULE_TEXT[check_id], run.finish(Finding(holds, counterexample)),
                       extra={"mutations": sorted(mutations), "per_kind_elapsed": per_kind}, seconds_alias=True)


def _solve_cases(run: Z3Run, step: Step, goal, solver: z3.Solver, assumed) -> tuple[Any, Any]:
    """(sat, model) for the first case of ``step`` whose ``goal`` (a broken invariant) can hold, (unsat, None)
    when none can, (unknown, None) when the run's time limit passes first. The incremental ``solver`` holds
    ``assumed``; a preprocessing step gets a fresh solver per case."""
    ctx = goal.ctx
    for case in step.cases:
        if run.out_of_time():
            return z3.unknown, None
        pairs = [(step.params[name], z3.BoolVal(v, ctx) if isinstance(v, bool) else z3.IntVal(v, ctx))
                 for name, v in case]
        fixed = z3.simplify(z3.substitute(goal, *pairs)) if pairs else goal
        if z3.is_false(fixed):
            continue  # the guard rules this case out
        fixes = [x == v for x, v in pairs]
        if step.preprocess:
            one = z3.Then("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "smt", ctx=ctx).solver()
            one.set("arith.solver", 2)  # the plain simplex: faster on the refill's counts than the default solver
            one.add(assumed, fixed, *fixes)
            res = run.check(one)
            m = one.model() if res == z3.sat else None
        else:
            solver.push()
            try:
                solver.add(fixed, *fixes)
                res = run.check(solver)
                m = solver.model() if res == z3.sat else None
            finally:
                solver.pop()
        if res != z3.unsat:
            return res, m
    return z3.unsat, None


def run_checks(readings: OutlawsReadings = OutlawsReadings(), time_limit: float = 60.0, mutations: frozenset = frozenset(),
               only: tuple[str, ...] | None = None, progress: OnProgress | None = None) -> list[CheckResult]:
    """All invariant checks (contracts.md ``verify`` format once :meth:`CheckResult.to_json`); each in a fresh context.

    ``time_limit`` is per check; ``holds`` is None (not proven) when a check runs out of time. ``progress`` before
    each check (its id) and at the end.
    """
    ids = only or tuple(CHECKS)
    out = []
    for i, cid in enumerate(ids):
        if progress:
            progress(Progress(i, len(ids), "checks", cid))
        out.append(check_invariant(cid, readings, time_limit, mutations))
    if progress:
        progress(Progress(len(ids), len(ids), "checks"))
    return out



def invariants_hold_at(pos) -> bool:
    """Whether a concrete, fully known engine position satisfies every state invariant the checks
    assume (the base case of the induction: tested on set-ups)."""
    run = Z3Run()
    st = fresh_position(run.ctx, "at")
    solver = run.solver()
    solver.add(pin(run.ctx, st, pos), state_ok(st, run.ctx), token_totals_ok(st), saloon_ok(st), governor_ok(st))
    return run.check(solver) == z3.sat


def report(readings: OutlawsReadings, options: dict, progress: OnProgress | None = None) -> dict:
    """The registry's entry (:mod:`solver.verification`): every check under ``readings`` with ``options``
    ``{"time_limit": seconds per check, "mutations": [names], "only": [check ids]}``."""
    from solver import verification

    mutations = frozenset(options.get("mutations", ()))
    only = tuple(options["only"]) if options.get("only") else None
    checks = run_checks(readings, float(options.get("time_limit", 60.0)), mutations, only, progress)
    return verification.report(checks, readings, mutations=sorted(mutations),
                               all_hold=all(c.holds is True for c in checks))
