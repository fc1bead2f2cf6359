"""Z3 checks of the Lone Cowboy solo rules (``ruleslinger wagons verify``, rule:W-verify).

Each check runs through the one Z3 check runner (:mod:`solver.z3check`: a fresh ``z3.Context``, a time limit) and
reports ``holds`` (None when the time ran out), ``proven``, a ``counterexample`` (a deal and a line of play, or a
town), the rulebook passage it rests on (``rule``, English, carried here) and ``elapsed`` seconds. The game
checks use :mod:`solver.wagons.verify.model` (the rules encoded from the text, not the engine) and
replay every counterexample and a few random games through the engine
(:mod:`solver.wagons.verify.engine`). Checks, per scenario:

- ``card-conservation``: every card ends in exactly one of the player's town and the opponent's pile.
- ``termination``: every game ends within 16 turns (drafts); the bound is reached by a deal.
- ``automaton``: at every opponent turn a game can reach, the readings name exactly one action,
  one the text allows; ``details.text_gaps`` lists where the text alone leaves the choice open
  and which reading settles it.
- ``playability``: a legal placement always exists, for towns up to the largest a game gives.
- ``winnability`` and ``score-bounds``: :mod:`solver.wagons.verify.scores`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import z3

from solver.errors import BadInput
from solver.execution.progress import OnProgress, Progress
from solver.wagons.data import SCENARIO_IDS, WagonsData
from solver.wagons.readings import WagonsReadings
from solver.wagons.verify import shared
from solver.wagons.verify.engine import random_games, replay
from solver.wagons.verify.model import MODEL_MUTATIONS, SLOTS, GameModel, OutOfTime, scenario_cards
from solver.wagons.verify.result import check_result as _result
from solver.z3check import CheckResult, Finding, Z3Run

PASSAGES = {
    "conservation": "Setup: 'Find the two goal cards listed on the scenario and place them on the table. Shuffle the "
                    "remaining cards ... make a circle of 8 cards and place the remaining cards in the center. This pile "
                    "is known as the preference deck.' Gameplay: 'The remaining cards in the deck are then dealt to form "
                    "a second circle' and 'skipped cards are placed into the opponent's draft pile, called their town.' "
                    "Round 1: 'both the drafted card and the top card of the deck are placed into their town.'",
    "termination": "Gameplay: 'The game is broken into two rounds of several turns each. The first round lasts until "
                   "all 8 starting cards are drafted. The remaining cards in the deck are then dealt to form a second "
                   "circle, and round 2 begins.'",
    "automaton": "Round 1: 'The opponent will skip up to 2 cards in order to draft a card with an icon that matches "
                 "(icon and color) an icon on top of the preference deck. ... Otherwise, place only the drafted card "
                 "into their town.' Round 2: 'The opponent will skip up to 1 card in order to match an icon showing in "
                 "their town. There may also be additional draft rules on the scenario card.'",
    "playability": "Circle the Wagons placement (base game): 'the first card anywhere; every later card must share at "
                   "least one territory edge with the town or cover at least one territory of it. Corner-only contact "
                   "is illegal.' Gameplay: 'The player will draft and place cards as normal'",
}
SCENARIO_TEXT = {
    "boomtown": "Boomtown: 'If tied or fewer territories after Round 1, will skip draft every time.'",
    "gold-rush": "Gold Rush: 'Will skip up to 2 for a Gun, but not past a Mountain or Mine.'",
    "through-the-desert": "Through the Desert: 'Will skip 1 to a card with two or more of Wagon, Gun, or Desert.'",
    "out-drink-the-competition": "Out-Drink the Competition: 'Will skip 1 to a Wagon, or over a card with 2 or more "
                                 "Beers on it.'",
    "water-the-herd": "Water the Herd: 'Will skip 1 to a card with two or more of Wagon, Cow, Water.'",
    "cattle-drive": "Cattle Drive: 'Will skip 1 to any Cow or Prairie.'",
}
TURN_BOUND = SLOTS
"""Every turn drafts at least one card and there are 16: the bound the termination check proves."""


def _undecided(family: str, scenario: str, rule: str, run: Z3Run, why) -> CheckResult:
    """A check stopped by its time limit before Z3 could decide it."""
    return _result(f"{family}/{scenario}", f"{scenario}: {family} (stopped by the time limit)", rule, run,
                   Finding(None, details={"stopped": str(why)}))


def _game(run: Z3Run, scenario: str, readings: WagonsReadings, mutations: frozenset, deal=None) -> GameModel:
    """The Z3 game in the run's fresh context; ``deal`` (circle + deck, 16 ids) pins one deal. Inside the readings
    sweep's :func:`~solver.wagons.verify.shared.sharing`, a game without a pinned deal is built once for the checks
    of one scenario and readings (each asks in its own push/pop scope, under its own run's time limit)."""
    key = (scenario, readings, frozenset(mutations))
    kept = shared.MODELS.get(key) if deal is None else None
    if kept is not None:
        kept.run, kept.deadline = run, run.deadline
        run.limit(kept.s)
        return kept
    m = GameModel(run.ctx, scenario, readings, mutations, deadline=run.deadline)
    m.run = run
    run.limit(m.s)
    if deal is not None:
        if sorted(deal) != sorted(scenario_cards(scenario)):
            raise BadInput(f"deal: expected the 16 cards {sorted(scenario_cards(scenario))} in some order")
        m.s.add(*[d == v for d, v in zip(m.deal, deal)])
        m.pinned = True
    else:
        shared.MODELS.put(key, m)
    return m


def _sat(model: GameModel, *conds):
    """(sat?, trace) of the model with ``conds``; None when the check's time is used up (a model made outside
    :func:`_game` solves without a limit)."""
    run = model.run if model.run is not None else Z3Run()
    if run.out_of_time():
        return None, None
    model.s.push()
    model.s.add(*conds)
    r = run.check(model.s)
    tr = model.trace(model.s.model()) if r == z3.sat else None
    model.s.pop()
    return (None if r == z3.unknown else r == z3.sat), tr


def _engine_view(scenario: str, readings: WagonsReadings, trace: dict | None) -> dict | None:
    """The engine's replay of a Z3 trace, summarised for the report (agrees, first difference,
    the final town and pile when the engine's game ended)."""
    if trace is None:
        return None
    try:
        r = replay(scenario, trace, readings)
    except BadInput as e:
        return {"agrees": False, "mismatch": f"the engine refuses the line: {e}"}
    out: dict[str, Any] = {"agrees": r.agrees, "mismatch": r.mismatch}
    st = r.state
    if st is not None:
        out["town"] = {"placements": [p.to_dict() for p in st.town.placements]}
        out["pile"] = list(st.pile)
        out["over"] = r.over
        if r.over:  # the engine's own conservation on this deal and line
            out["cards_once"] = sorted(st.town.card_ids + st.pile) == sorted(scenario_cards(scenario))
    return out


def pin_random_games(model: GameModel, scenario: str, readings: WagonsReadings, games: int, seed: int = 0) -> dict:
    """(see below) With a pinned deal the games are skipped: ``{"games": 0}``."""
    if getattr(model, "pinned", False):
        return {"games": 0, "agree": 0, "first_difference": None}
    return _pin_random_games(model, scenario, readings, games, seed)


def _pin_random_games(model: GameModel, scenario: str, readings: WagonsReadings, games: int, seed: int = 0) -> dict:
    """Pin the Z3 game on ``games`` random engine games (deal, drafts, Boomtown count): the Z3 model
    must allow each and take the same opponent actions; returns agreement counts and the first
    difference."""
    ok, first, done = 0, None, 0
    for g in random_games(scenario, games, seed, readings):
        if model.run is not None and model.run.out_of_time():
            break
        done += 1
        pins = [d == v for d, v in zip(model.deal, g["circle"] + g["deck"])]
        for pos, k in enumerate(g["player_drafts"]):
            pins.append(_player_draft(model, pos) == k)
        if g.get("after_round_1"):
            pins.append(model.boom_count == g["after_round_1"][0])
        res, tr = _sat(model, *pins)
        if res is None:
            done -= 1
            break
        if res and _same_opponent(tr, g):
            ok += 1
        elif first is None:
            first = {"deal": {"circle": g["circle"], "deck": g["deck"]}, "player_drafts": g["player_drafts"],
                     "z3": "no such game" if not res else [t["k"] for t in tr["turns"]],
                     "engine": [t["k"] for t in g["turns"]]}
    return {"games": done, "agree": ok, "first_difference": first}


def _player_draft(model: GameModel, nth: int):
    """The player's ``nth`` draft: the draft variable of step 2*nth (the player moves first, turns alternate)."""
    return model.steps[2 * nth].k if 2 * nth < len(model.steps) else model.iv(-1)


def _same_opponent(trace: dict, game: dict) -> bool:
    a = [(t["who"], t["circle"], t["k"]) for t in trace["turns"]]
    b = [(t["who"], t["circle"], t["k"]) for t in game["turns"]]
    return a == b


# ------------------------------------------------------------------ the game checks

def check_conservation(scenario: str, readings: WagonsReadings = WagonsReadings(), mutations: frozenset = frozenset(),
                       time_limit: float = 60.0, random_checks: int = 3, deal=None) -> CheckResult:
    """Over every deal and line: each of the 16 cards ends once in the town (or hand) or the pile."""
    run = Z3Run(time_limit)
    try:
        m = _game(run, scenario, readings, mutations, deal)
    except OutOfTime as e:
        return _undecided("card-conservation", scenario, PASSAGES["conservation"], run, e)
    bad = [m.town_count(sl) + m.pile_count(sl) != 1 for sl in range(SLOTS)]
    found, tr = _sat(m, z3.Not(m.live_after), z3.Or(bad))
    cex = None
    if tr is not None:
        mv = m.s
        mv.push()
        mv.add(z3.Not(m.live_after), z3.Or(bad))
        run.check(mv)
        mod = mv.model()
        counts = {int(mod.eval(m.deal[sl]).as_long()): {"town": mod.eval(m.town_count(sl)).as_long(),
                                                        "pile": mod.eval(m.pile_count(sl)).as_long()}
                  for sl in range(SLOTS)}
        mv.pop()
        wrong = {str(c): v for c, v in counts.items() if v["town"] + v["pile"] != 1}
        cex = {"game": tr, "cards_not_once": wrong, "engine": _engine_view(scenario, readings, tr)}
    details = {"cards": list(scenario_cards(scenario)), "random_games": pin_random_games(m, scenario, readings,
                                                                                        random_checks)}
    return _result(f"card-conservation/{scenario}", f"{scenario}: every card ends in exactly one of the town and the "
                   "opponent's pile; nothing is drawn twice", PASSAGES["conservation"], run,
                   Finding(None if found is None else not found, cex, details))


def check_termination(scenario: str, readings: WagonsReadings = WagonsReadings(), mutations: frozenset = frozenset(),
                      time_limit: float = 60.0, random_checks: int = 3, deal=None, longest: bool = True) -> CheckResult:
    """Every game ends within TURN_BOUND turns; with ``longest``, a deal and line reaching the most turns. ``holds``
    is the first solve's answer; the longest game and the random games' agreement are findings beside it."""
    run = Z3Run(time_limit)
    try:
        m = _game(run, scenario, readings, mutations, deal)
    except OutOfTime as e:
        return _undecided("termination", scenario, PASSAGES["termination"], run, e)
    stuck = z3.Or([st.stuck for st in m.steps])
    found, tr = _sat(m, z3.Or(m.live_after, stuck, m.turns() > TURN_BOUND))
    details = {"bound_turns": TURN_BOUND, "steps_unrolled": len(m.steps)}
    cex = None
    if found:
        cex = {"game": tr, "why": "still running after the bound" if tr["turns"] and len(tr["turns"]) > TURN_BOUND
               else "a party has no action (the game is stuck)", "engine": _engine_view(scenario, readings, tr)}
    elif found is False:
        for n in range(TURN_BOUND, 0, -1) if longest else ():
            ok, w = _sat(m, z3.Not(m.live_after), m.turns() == n)
            if ok:
                details.update({"longest_game_turns": n, "witness": w, "engine": _engine_view(scenario, readings, w)})
                break
            if ok is None:
                break
        details["random_games"] = pin_random_games(m, scenario, readings, random_checks)
    return _result(f"termination/{scenario}", f"{scenario}: every game ends within {TURN_BOUND} turns",
                   PASSAGES["termination"], run, Finding(None if found is None else not found, cex, details))


def _gaps(m: GameModel, scenario: str, readings: WagonsReadings) -> list[dict]:
    """Where the text alone leaves the opponent's choice open, at a turn a game reaches (each with
    the reading that settles it and a game reaching it, replayable in the engine)."""
    def opp(st, r2):
        return z3.And(st.live, z3.Not(st.player), st.rnd2 if r2 else z3.Not(st.rnd2))

    F = z3.BoolVal(False, m.ctx)
    found = []
    cases = [
        ("W1-pick", "round 1: two or more of the next 3 cards match the deck's top card; the text does not say which "
               "the opponent takes (reading W1-pick, option round1_pick: the first)",
         [z3.And(opp(st, False), z3.PbGe([(c, 1) for c in st.round1_matches[:3]], 2)) for st in m.steps]),
        ("W4", "round 2: the scenario rule and the icon rule name different cards; the text does not order them "
               "(reading: the scenario rule first)",
         [z3.And(opp(st, True), z3.Or([z3.And(st.scenario_pick[i], z3.Or([st.fallback_by[readings.icon_source][j]
                                                                          for j in range(2) if j != i] or [F]))
                                       for i in range(3)])) for st in m.steps]),
        ("W2", "round 2: icons on the pile's top card and icons anywhere in the pile lead to different cards "
               "(reading: the top card)",
         [z3.And(opp(st, True), z3.Not(z3.Or(st.scenario_pick)),
                 z3.Or([st.fallback_by["top"][j] != st.fallback_by["town"][j] for j in range(2)])) for st in m.steps]),
    ]
    if scenario == "boomtown":
        cases.append(("W5-boomtown", "Boomtown: the opponent is behind with 3 or more cards left; 'will skip draft "
                                     "every time' does not say how many (reading: exactly 1)",
                      [z3.And(opp(st, True), m.behind, st.end - st.cur >= 3) for st in m.steps]))
        cases.append(("W5-boomtown", "Boomtown: round 1 ends on the opponent's draft with cards handed over to the "
                                     "player still to place; 'territories after Round 1' does not say whether they "
                                     "count (reading: placed cards only)",
                      [z3.And(ended, hand_left) for ended, hand_left in _r1_hand(m)]))
    if scenario == "out-drink-the-competition":
        cases.append(("W5-out-drink-the-competition", "Out-Drink: the next card has 2+ Beers and a Wagon (skip over "
                                                      "it, or take it?)",
                      [z3.And(opp(st, True), m.count(st.cur, ("Beer",)) >= 2, m.has_icon(st.cur, "Wagon"))
                       for st in m.steps]))
    for rule_id, what, conds in cases:
        ok, tr = _sat(m, z3.Or(conds))
        entry = {"rule": rule_id, "situation": what, "reachable": ok}
        if tr is not None:
            entry["game"] = tr
            entry["engine"] = _engine_view(scenario, readings, tr)
        elif ok is False:
            entry["note"] = "no deal reaches it with these card fronts: the text is not open here"
        found.append(entry)
    return found


def _r1_hand(m: GameModel):
    """(round 1 ends at this step, the player then holds handed-over cards) for each step."""
    out = []
    for st, (ended, _placed, _pile, _hand) in zip(m.steps, m.after_r1):
        hand_after = z3.And(z3.Not(st.player), st.k > 0)
        out.append((ended, hand_after))
    return out


def check_automaton(scenario: str, readings: WagonsReadings = WagonsReadings(), mutations: frozenset = frozenset(),
                    time_limit: float = 60.0, random_checks: int = 3, gaps: bool = True, deal=None) -> CheckResult:
    """At every opponent turn a game reaches, the readings name exactly one action and the text allows it."""
    run = Z3Run(time_limit)
    try:
        m = _game(run, scenario, readings, mutations, deal)
    except OutOfTime as e:
        return _undecided("automaton", scenario, PASSAGES["automaton"] + " " + SCENARIO_TEXT[scenario], run, e)
    bad = []
    for st in m.steps:
        n_chosen = z3.Sum([z3.If(c, 1, 0) for c in st.chosen])
        outside = z3.Or([z3.And(c, z3.Not(t)) for c, t in zip(st.chosen, st.text_ok)])
        bad.append(z3.And(st.live, z3.Not(st.player), z3.Or(n_chosen != 1, outside)))
    found, tr = _sat(m, z3.Or(bad))
    cex = None
    if tr is not None:
        turn = next((t for t in tr["turns"] if t["who"] == "opponent" and
                     (len(t["readings_pick"]) != 1 or not set(t["readings_pick"]) <= set(t["text_allows"]))), None)
        cex = {"game": tr, "turn": turn, "engine": _engine_view(scenario, readings, tr),
               "why": None if turn is None else ("no action named" if not turn["readings_pick"] else
                                                 "more than one action named" if len(turn["readings_pick"]) > 1 else
                                                 "the action skips more cards than the text allows")}
    details = {"readings": readings.to_json()}
    if found is False:
        details["random_games"] = pin_random_games(m, scenario, readings, random_checks)
        if gaps:
            details["text_gaps"] = _gaps(m, scenario, readings)
    return _result(f"automaton/{scenario}", f"{scenario}: the opponent's round-1 and round-2 rules name exactly one "
                   "action, within what the text allows, at every turn a game reaches",
                   PASSAGES["automaton"] + " " + SCENARIO_TEXT[scenario], run,
                   Finding(None if found is None else not found, cex, details, "W1, W2, W4, W5"))


# ------------------------------------------------------------------ placements

PLACE_MUTATIONS = {
    "corner-placement": "a card touching the town only at a corner counts as legally placed",
    "first-card-needs-edge": "the first card, too, must share an edge with the town",
}


def _placement_model(ctx, n: int, mutations: frozenset):
    """n cards at (x_i, y_i) (2x2 each, the first at the origin), each legal on the ones before it;
    ``legal(x, y, upto)`` is the placement rule for a new card (rule:W-place, rule:W-cover)."""
    s = z3.Solver(ctx=ctx)
    xs = [z3.Int(f"x{i}", ctx) for i in range(n)]
    ys = [z3.Int(f"y{i}", ctx) for i in range(n)]
    lim = 2 * n + 2

    def contact(x, y, j):
        dx, dy = x - xs[j], y - ys[j]
        absx, absy = z3.If(dx >= 0, dx, -dx), z3.If(dy >= 0, dy, -dy)
        cover = z3.And(absx <= 1, absy <= 1)
        edge = z3.Or(z3.And(absx == 2, absy <= 1), z3.And(absy == 2, absx <= 1))
        corner = z3.And(absx == 2, absy == 2)
        return cover, edge, corner

    def legal(x, y, upto):
        if upto == 0:
            return z3.BoolVal("first-card-needs-edge" not in mutations, ctx)
        parts = []
        for j in range(upto):
            cover, edge, corner = contact(x, y, j)
            parts += [cover, edge] + ([corner] if "corner-placement" in mutations else [])
        return z3.Or(parts)

    for i in range(n):
        s.add(xs[i] >= -lim, xs[i] <= lim, ys[i] >= -lim, ys[i] <= lim)
        s.add(legal(xs[i], ys[i], i))
    if n:
        s.add(xs[0] == 0, ys[0] == 0)
    return s, xs, ys, legal, contact


def check_playability(scenario: str, readings: WagonsReadings = WagonsReadings(), mutations: frozenset = frozenset(),
                      time_limit: float = 60.0, max_town: int | None = None) -> CheckResult:
    """For towns of 0..largest cards: a legal placement exists, and the rule admits no corner-only one (each town
    size in its own run of the Z3 check runner, with what is left of the time limit)."""
    run = Z3Run(time_limit)
    # every card of a deal: at least the largest town a game gives (card conservation)
    largest = max_town if max_town is not None else len(scenario_cards(scenario))
    holds: bool | None = True
    cex, sizes = None, []
    for n in range(0, (largest or 0) + 1):
        if run.out_of_time():
            holds = None
            break
        size_run = Z3Run(run.remaining())
        ctx = size_run.ctx
        s, xs, ys, legal, contact = _placement_model(ctx, n, mutations)
        # (a) no legal placement near the last card (a subset of all placements: unsat proves one exists)
        bx, by = (xs[-1], ys[-1]) if n else (z3.IntVal(0, ctx), z3.IntVal(0, ctx))
        stuck = z3.And([z3.Not(legal(bx + dx, by + dy, n)) for dx in range(-2, 3) for dy in range(-2, 3)])
        res = _check_town(size_run, s, stuck, xs, ys, n, "no legal placement for the next card")
        if res is None:
            # (b) a placement the rule allows touching only at corners
            x, y = z3.Int("nx", ctx), z3.Int("ny", ctx)
            cs = [contact(x, y, j) for j in range(n)]
            only_corner = z3.And(n > 0, z3.Not(z3.Or([z3.Or(c[0], c[1]) for c in cs] or [z3.BoolVal(False, ctx)])),
                                 legal(x, y, n))
            res = _check_town(size_run, s, only_corner, xs, ys, n,
                              "the rule accepts a card touching the town only at a corner", (x, y))
        sizes.append(n)
        if res is not None:
            holds, cex = res
            break
    if cex is not None:
        cex["engine"] = _engine_placement(scenario, cex)
    details = {"largest_town_checked": largest, "town_sizes_checked": sizes}
    return _result(f"playability/{scenario}", f"{scenario}: the player always has a legal placement (towns of up to "
                   f"{largest} cards, every card of a deal), and the rule never accepts corner-only contact", PASSAGES["playability"],
                   run, Finding(holds, cex, details))


def _check_town(run: Z3Run, s: z3.Solver, cond: Any, xs: list, ys: list, n: int, why: str,
                new: tuple | None = None) -> tuple[bool | None, dict | None] | None:
    """None when no town of ``n`` cards meets ``cond``; (False, the town) when one does; (None, None) undecided."""
    out: tuple[bool | None, dict | None] | None = None
    s.push()
    s.add(cond)
    r = run.check(s)
    if r == z3.unknown:
        out = (None, None)
    elif r == z3.sat:
        mod = s.model()
        town = [{"x": mod.eval(xs[i]).as_long(), "y": mod.eval(ys[i]).as_long()} for i in range(n)]
        cex = {"why": why, "town_cells": town, "cards": n}
        if new is not None:
            cex["new_card"] = {"x": mod.eval(new[0]).as_long(), "y": mod.eval(new[1]).as_long()}
        out = (False, cex)
    s.pop()
    return out


def _engine_placement(scenario: str, cex: dict) -> dict:
    """The engine's verdict on a placement counterexample (the scenario's cards in deal order)."""
    from solver.wagons.town import Placement, Town, legal_placements, placement_problem

    ids = scenario_cards(scenario)
    placements = []
    town = Town()
    for i, xy in enumerate(cex["town_cells"]):
        p = Placement(ids[i], xy["x"], xy["y"], 0)
        why = placement_problem(town, p)
        if why:
            return {"town_legal": False, "problem": why}
        placements.append(p)
        town = Town(tuple(placements))
    out = {"town_legal": True, "town": {"placements": [p.to_dict() for p in placements]},
           "legal_placements_next": len(legal_placements(town, ids[len(placements)]))}
    if "new_card" in cex:
        p = Placement(ids[len(placements)], cex["new_card"]["x"], cex["new_card"]["y"], 0)
        out["new_card"] = p.to_dict()
        out["engine_problem"] = placement_problem(town, p)
    return out


# ------------------------------------------------------------------ the plan and the CLI

MUTATIONS = {**MODEL_MUTATIONS, **PLACE_MUTATIONS}


def _score_checks():
    from solver.wagons.verify import scores as verify_scores

    return verify_scores


def check_families() -> dict[str, Callable]:
    vs = _score_checks()
    MUTATIONS.update(vs.SCORE_MUTATIONS)
    return {"card-conservation": check_conservation, "termination": check_termination,
            "automaton": check_automaton, "playability": check_playability,
            "winnability": vs.check_winnability, "score-bounds": vs.check_score_bounds}


CHECK_IDS = ("card-conservation", "termination", "automaton", "playability", "winnability", "score-bounds")
READS_GOAL_NUMBERS = frozenset({"winnability", "score-bounds"})
"""The checks whose verdict depends on the goal cards' numbers (``--goals``): they score towns."""


def mutation_names() -> dict[str, str]:
    check_families()
    return dict(MUTATIONS)


def run_checks(scenarios=SCENARIO_IDS, checks=CHECK_IDS, readings: WagonsReadings = WagonsReadings(), mutations=frozenset(),
               time_limit: float = 60.0, progress: OnProgress | None = None, total_limit: float | None = None,
               data: WagonsData | None = None) -> list[CheckResult]:
    """Every (check, scenario) pair, each in its own Z3 context; ``progress`` before each (its id) and at the end.

    ``data``: the goal numbers the checks that read them (:data:`READS_GOAL_NUMBERS`) use, e.g. a user's
    ``--goals`` file (None: the shipped ones); the other checks read the cards and the draft rules only.

    ``time_limit`` is per check; with ``total_limit`` the whole run shares that many seconds (each
    check gets an equal share of what is left, at most ``time_limit``)."""
    fams = check_families()
    for name in mutations:
        if name not in MUTATIONS:
            raise BadInput(f"--mutate {name!r}: expected one of {', '.join(MUTATIONS)}")
    for c in checks:
        if c not in fams:
            raise BadInput(f"--check {c!r}: expected one of {', '.join(CHECK_IDS)}")
    jobs = [(c, s) for s in scenarios for c in checks]
    out = []
    end = None if total_limit is None else time.perf_counter() + total_limit
    for i, (c, s) in enumerate(jobs):
        if progress:
            progress(Progress(i, len(jobs), "checks", f"{c}/{s}"))
        limit = time_limit
        if end is not None:
            limit = min(time_limit, max(0.05, (end - time.perf_counter()) / (len(jobs) - i)))
        extra = {"data": data} if data is not None and c in READS_GOAL_NUMBERS else {}
        out.append(fams[c](s, readings, frozenset(mutations), limit, **extra))
    if progress:
        progress(Progress(len(jobs), len(jobs), "checks"))
    return out


def report(readings: WagonsReadings, options: dict, progress: OnProgress | None = None) -> dict:
    """The registry's entry (:mod:`solver.verification`): the checks under ``readings`` with ``options``
    ``{"scenarios": [ids], "checks": [ids], "mutations": [names], "time_limit": seconds}``."""
    from solver import verification

    mutations = frozenset(options.get("mutations", ()))
    res = run_checks(tuple(options.get("scenarios", SCENARIO_IDS)), tuple(options.get("checks", CHECK_IDS)), readings,
                     mutations, float(options.get("time_limit", 60.0)), progress=progress)
    return verification.report(res, readings, mutations=sorted(mutations), goals=None)
