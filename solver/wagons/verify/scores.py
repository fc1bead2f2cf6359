"""Winnability and score bounds of the Lone Cowboy scenarios (``wagons verify``, rule:W-verify).

The bound model (Z3, a fresh context per solve through the one check runner, :mod:`solver.z3check`) is a
relaxation of the final position written from the scoring texts (rule:W6, rule:W7, goals.toml numbers): the player's town is any subset of the
scenario's 16 cards and the pile the rest (card conservation); the town shows any number of each
(terrain, icon) pair up to what its cards carry (covering hides territories), at least 4 in all;
a terrain's largest group is at most the territories of that terrain it shows; each goal card is
bounded by the counts it reads (exact where it reads only counts: Boom or Bust, Prairie Life, the
comparing cards). The opponent's pile has no positions, so its score is exact in the counts. An
optimum of this model is a *proven upper bound*; the engine's best game is the *witness*; the
report gives both.

Winnability (GGP's strong winnability for a one-player game): a deal and a line of play the
engine replays to a player win (``wagons play --policy scripted``), which the bound model must
also allow; and, where the bound model proves it, a deal that no line of play wins (over every
draft line of the deal, ``bestplay.draft_lines``, the relaxation cannot give the player more
points than the opponent). Under each reading of the low-confidence goal numbers
(:func:`goal_number_readings`).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import fields, replace

import z3

from solver.wagons import goal_kinds
from solver.wagons import readings as readings_module
from solver.wagons.data import ICONS, TERRAINS, WagonsData, load_data
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import run_partition_best
from solver.wagons.verify import shared
from solver.wagons.verify.model import card_facts, scenario_cards
from solver.wagons.verify.result import check_result as _result
from solver.z3check import CheckResult, Finding, Z3Run

SCORE_MUTATIONS = {
    "bound-ignores-groups": "the score bound forgets the player's terrain groups",
    "player-scores-nothing": "the player's town scores nothing",
}
PASSAGES = {
    "winnability": "Scoring: 'Player scoring is identical to the 2p game. Opponent scoring is outlined on the scenario "
                   "card. In addition, identify the 3 most common territories in their town. They score 1 point for "
                   "each territory in those 3 types.' Gameplay: 'The player will draft and place cards as normal; "
                   "skipped cards are placed into the opponent's draft pile'",
    "score-bounds": "Scoring: 'Player scoring is identical to the 2p game. Opponent scoring is outlined on the scenario "
                    "card. In addition, identify the 3 most common territories in their town. They score 1 point for "
                    "each territory in those 3 types. (For example: 5 prairie, 5 snow, 4 forest = 14 pts.)'",
}
SCENARIO_SCORING = {
    "boomtown": "Boomtown [Smalltown Charm, Boom or Bust]: 'Mountains count as Mines for Boom or Bust.'",
    "gold-rush": "Gold Rush [Claim Jumpers, Gold Country]: '2 Points per set of Mountain & Mine. Claim Jumpers scores "
                 "as normal, but opponent starts with 2 Guns.'",
    "through-the-desert": "Through the Desert [Wagon Train, Badlands]: '1st six Wagons score as normal. +2 each "
                          "additional Wagon. 4 points per set of Gun and Desert.'",
    "out-drink-the-competition": "Out-Drink the Competition [Bootleggers, One Too Many]: '2 Points per set of Beer + "
                                 "Wagon. Cannot lose points from One Too Many.'",
    "water-the-herd": "Water the Herd [The Herd, Cool Water]: '3 points per Wagon. 2 points per Cow.'",
    "cattle-drive": "Cattle Drive [Happy Cows, Prairie Life]: 'Do not divide by 2 for Prairie Life. Ignore Snow for "
                    "Happy Cows.'",
}


# ------------------------------------------------------------------ readings of the goal numbers

def goal_number_readings(base: WagonsReadings = WagonsReadings()) -> list[tuple[dict, WagonsReadings]]:
    """Every combination of the goal-number readings ``solver.wagons.readings`` offers (open question W11):
    the fields of :class:`WagonsReadings` whose register entry is W11 or a goal card (``W-goal-...``),
    with the values of the option's tuple in ``readings.py``. ``[({}, base)]`` when there is none."""
    from solver.register import register

    options = []
    for r in register().for_game("wagons"):
        if not r.option or not (r.id.startswith("W11") or r.id.startswith("W-goal")):
            continue
        f = next((f for f in fields(WagonsReadings) if f.name == r.option), None)
        if f is None:
            continue
        values = next((v for v in vars(readings_module).values() if isinstance(v, tuple) and f.default in v
                       and all(isinstance(x, type(f.default)) for x in v)), (f.default,))
        if (f.name, values) not in options:
            options.append((f.name, values))
    if not options:
        return [({}, base)]
    out = []
    for combo in itertools.product(*[vals for _, vals in options]):
        chosen = {name: v for (name, _), v in zip(options, combo)}
        out.append((chosen, replace(base, **chosen)))
    return out


# ------------------------------------------------------------------ the bound model

class BoundModel:
    """Final positions of one scenario, relaxed as the module docstring says (all Z3 Ints)."""

    def __init__(self, ctx: z3.Context, scenario: str, readings: WagonsReadings = WagonsReadings(), mutations=frozenset(),
                 data: WagonsData | None = None):
        self.ctx, self.scenario, self.readings, self.mutations = ctx, scenario, readings, frozenset(mutations)
        self.data = (data or load_data()).for_readings(readings)  # rule:W11: the readings of the cards' numbers
        self.spec = self.data.scenario(scenario)
        self.ids = scenario_cards(scenario)
        self.opt = z3.Optimize(ctx=ctx)
        iv = lambda v: z3.IntVal(v, ctx)  # noqa: E731
        self.iv = iv
        self.own = {c: z3.Bool(f"town_{c}", ctx) for c in self.ids}
        pairs = sorted({cell for c in self.ids for cell in card_facts()[c].cells})
        have = {p: z3.Sum([z3.If(self.own[c], card_facts()[c].cells.count(p), 0) for c in self.ids]) for p in pairs}
        self.vis = {p: z3.Int(f"shows_{p[0]}_{p[1]}", ctx) for p in pairs}
        for p in pairs:
            self.opt.add(self.vis[p] >= 0, self.vis[p] <= have[p])
        self.n_town = z3.Sum([z3.If(b, 1, 0) for b in self.own.values()])
        self.opt.add(self.n_town >= 1, self.n_town <= len(self.ids) - 1)
        self.vt = {t: z3.Sum([self.vis[p] for p in pairs if p[0] == t] or [iv(0)]) for t in TERRAINS}
        self.vi = {i: z3.Sum([self.vis[p] for p in pairs if p[1] == i] or [iv(0)]) for i in ICONS}
        self.V = z3.Sum(list(self.vis.values()))
        self.opt.add(self.V >= 4)
        pile = lambda f: z3.Sum([z3.If(self.own[c], 0, f(card_facts()[c])) for c in self.ids])  # noqa: E731
        self.ot = {t: pile(lambda c, t=t: sum(tt == t for tt, _ in c.cells)) for t in TERRAINS}
        self.oi = {i: pile(lambda c, i=i: sum(ii == i for _, ii in c.cells)) for i in ICONS}
        self.n_pile = len(self.ids) - self.n_town
        self.groups = {t: z3.Int(f"group_{t}", ctx) for t in TERRAINS}
        for t in TERRAINS:
            self.opt.add(self.groups[t] >= 0, self.groups[t] <= self.vt[t])
        self.player_goals, self.opp_goals = {}, {}
        for name in self.spec.goals:
            p, o = self._goal(name)
            self.player_goals[name], self.opp_goals[name] = p, o
        group_sum = iv(0) if "bound-ignores-groups" in self.mutations else z3.Sum(list(self.groups.values()))
        self.player_total = group_sum + z3.Sum(list(self.player_goals.values()))
        if "player-scores-nothing" in self.mutations:
            self.player_total = iv(0)
        self.common = self._common()
        self.opp_total = self.common + z3.Sum(list(self.opp_goals.values()))

    def _common(self):
        """rule:W-common: the 3 most common terrains of the pile (later edition: per-card table)."""
        if self.readings.edition == "later":
            table = self.data.difficulty_table(self.readings.difficulty)
            return z3.Sum([z3.If(self.own[c], 0, table.get(len({t for t, _ in card_facts()[c].cells}), 0))
                           for c in self.ids])
        common = z3.Int("common", self.ctx)
        sums = [z3.Sum([self.ot[t] for t in tri]) for tri in itertools.combinations(TERRAINS, 3)]
        self.opt.add(*[common >= s for s in sums], z3.Or([common == s for s in sums]))
        return common

    def _counting(self, g, totals: dict, mine_terrains=()):
        """A counting kind's points (:mod:`solver.wagons.goal_kinds`) of the total of ``totals`` (symbol -> count)
        it counts: a table over every total the scenario's cards can show (``mine_terrains``: territories the
        opponent's Mines may include, rule:W6)."""
        entry = goal_kinds.kind(g.kind)
        extra = mine_terrains if "Mine" in entry.counts else ()
        most = sum(sum(s in cell for s in entry.counts) + (cell[0] in extra)
                   for c in self.ids for cell in card_facts()[c].cells)
        return self._table([entry.points(g, v) for v in range(most + 1)], z3.Sum([totals[s] for s in entry.counts]))

    def _goal(self, name):
        """(player's points bound, opponent's points) of one goal card in this scenario (rule:W6, rule:W7)."""
        g, reading = self.data.scorable_goal(name, "bound"), self.spec.reading(name)
        if g.kind in goal_kinds.COMPARING:
            return COMPARING[g.kind](self, g, reading)
        if g.kind in goal_kinds.COUNTING:
            return self._counting(g, {**self.vt, **self.vi}), self._opp_goal(g, reading)
        return POSITION[g.kind](self, g.param), self._opp_goal(g, reading)

    def _one_too_many(self, g, reading):
        loss, ob = g.param("loss_per_other_beer"), self.oi["Beer"]
        player = z3.If(self.vi["Beer"] > ob, -loss * ob, 0)
        opp = z3.If(ob > self.vi["Beer"], -loss * self.vi["Beer"], 0) if reading.can_lose else self.iv(0)
        return player, opp

    def _claim_jumpers(self, g, reading):
        pts, taken = g.param("points"), g.param("taken_by_more_guns")
        pm, pg = self.vi["Mine"], self.vi["Gun"]
        om, og = self.oi["Mine"], self.oi["Gun"] + reading.extra_guns
        player = z3.If(pm > om, z3.If(og > pg, pts - taken, pts), z3.If(om > pm, z3.If(pg > og, taken, 0), 0))
        opp = z3.If(om > pm, z3.If(pg > og, pts - taken, pts), z3.If(pm > om, z3.If(og > pg, taken, 0), 0))
        return player, opp

    def _smalltown_charm(self, g, reading):
        per, ot = g.param("per_territory"), 4 * self.n_pile
        return z3.If(self.V < ot, per * (ot - self.V), 0), z3.If(ot < self.V, per * (self.V - ot), 0)

    def _badlands_ways(self) -> int:
        """How many times a Gun boxed in both ways scores Badlands under this model's rules (rule:W12)."""
        return 2 if getattr(self.readings, "badlands_both_ways", "once") == "twice" else 1

    def _table(self, values, n):
        e = self.iv(values[-1])
        for i in range(len(values) - 2, -1, -1):
            e = z3.If(n == i, values[i], e)
        return e

    def _opp_goal(self, g, reading):
        """rule:W6: the opponent's points for a goal card that reads only counts."""
        oi, ot, r = self.oi, self.ot, reading.reading
        parts = [oi[i] for i in reading.icons] + [ot[t] for t in reading.terrains]
        if r == "sets":
            m = parts[0]
            for p in parts[1:]:
                m = z3.If(p < m, p, m)
            return reading.per_set * m
        if r == "per-symbol":
            return reading.points * z3.Sum(parts) / reading.divisor
        if r == "wagon-count":
            table, w = tuple(self.data.goal("Wagon Train").param("run_points")), oi["Wagon"]
            capped = z3.If(w < reading.cap, w, reading.cap)
            return self._table(table, capped) + reading.per_extra * z3.If(w > reading.cap, w - reading.cap, 0)
        if g.kind in goal_kinds.COUNTING:  # "as-player": the pile's total, its Mines as the scenario reads them
            return self._counting(g, {**ot, **oi, "Mine": self._opp_mines(reading)}, reading.mine_terrains)
        raise ValueError(f"no opponent reading {r!r} for {g.name}")

    def _opp_mines(self, reading):
        """The opponent's Mines for Boom or Bust (rule:W6): Mine icons + ``mine_terrains`` territories,
        or by a ``boomtown_mines`` reading: each such territory once ("either"), the terrains alone
        ("mountains")."""
        terrains = tuple(reading.mine_terrains)
        how = getattr(self.readings, "boomtown_mines", "both") if terrains else "both"
        if how == "both":
            return self.oi["Mine"] + z3.Sum([self.ot[t] for t in terrains] or [self.iv(0)])
        if how == "mountains":
            return z3.Sum([self.ot[t] for t in terrains])
        return z3.Sum([z3.If(self.own[c], 0, sum(i == "Mine" or t in terrains for t, i in card_facts()[c].cells))
                       for c in self.ids])

    def pin(self, town_cards) -> z3.BoolRef:
        cards = set(town_cards)
        return z3.And([b if c in cards else z3.Not(b) for c, b in self.own.items()])


COMPARING = {"one-too-many": BoundModel._one_too_many, "claim-jumpers": BoundModel._claim_jumpers,
             "smalltown-charm": BoundModel._smalltown_charm}
"""Comparing kind -> (player's points, opponent's points), exact in the counts."""
POSITION = {
    "cool-water": lambda m, P: P("per_wagon") * m.vi["Wagon"],
    # a Gun between two Deserts: each Desert borders at most 4 such (Gun, way) pairs, each pair needs 2;
    # a Gun boxed in both ways counts once, or once per way (rule:W12)
    "badlands": lambda m, P: P("per_gun") * _least(m._badlands_ways() * m.vi["Gun"], 2 * m.vt["Desert"]),
    "happy-cows": lambda m, P: P("per_cow") * m.vi["Cow"],
    "bootleggers": lambda m, P: max(P("per_beer_adjacent"), P("per_beer_alone"), 0) * m.vi["Beer"],
    "gold-country": lambda m, P: P("per_mine") * m.vi["Mine"],
    "the-herd": lambda m, P: P("per_cow") * m.vi["Cow"],
    "wagon-train": lambda m, P: 2 * m._table(run_partition_best(P("run_points"), 64), m.vi["Wagon"]),
}
"""Position kind -> ``bound(model, param)``: the player's points bounded from the visible counts, every
adjacency the card asks for assumed met."""
goal_kinds.check_backend("verify", COMPARING.keys() | POSITION.keys(), ("position", "comparing"))


def _least(a, b):
    return z3.If(a < b, a, b)


def _wins(bm: BoundModel, readings: WagonsReadings):
    """The player wins (rule:W8): a higher total; with the Guns tie-break a tie may also be won."""
    return bm.player_total >= bm.opp_total if readings.tie_break == "guns" else bm.player_total > bm.opp_total


def _maximise(run: Z3Run, model: BoundModel, objective) -> tuple[int | None, bool, dict]:
    """The optimum of ``objective`` over the bound model (in ``run``'s context, within its limit)."""
    opt = model.opt
    opt.maximize(objective)
    r = run.check(opt)
    if r != z3.sat:  # a time-out: no proven optimum
        return None, False, {}
    m = opt.model()
    value = m.eval(objective, model_completion=True).as_long()
    proven = True
    town = [c for c, b in model.own.items() if z3.is_true(m.eval(b, model_completion=True))]
    return value, bool(proven), {"town_cards": town, "pile": [c for c in model.ids if c not in town]}


# ------------------------------------------------------------------ engine games (witnesses)

def _games(scenario: str, readings: WagonsReadings, seeds: range, policy: str = "greedy", data: WagonsData | None = None):
    """(seed, engine game) for each seed (played once in a readings sweep: :func:`shared.played`)."""
    for seed in seeds:
        yield seed, shared.played(scenario, policy, seed, readings, data)


def _actions(result) -> list[dict]:
    out = []
    for e in result.state.log:
        if e.who != "player":
            continue
        out.append({"draft": len(e.skipped)} if e.what == "draft" else {"place": e.placement.to_dict()})
    return out


def replay_script(scenario: str, seed: int, actions: list[dict], readings: WagonsReadings, data: WagonsData | None = None):
    """`wagons play --seed N --policy scripted --script FILE` in-process: the engine's final scores."""
    from solver.wagons.policies import policy_by_name
    from solver.wagons.simulate import play_game

    return play_game(scenario, policy_by_name("scripted", actions), seed, readings, data)


DRAFT_READINGS = ("icon_source", "match_order", "round1_window", "round1_pick", "boomtown_count")
"""The readings of the opponent's draft (rule:W1 to rule:W5): they change which cards a game deals to each side,
never how a town is scored (the player's score reads the goal cards' readings alone: scoring/, WagonsData.for_rules),
so the optimizer's best layout of given cards and pile does not read them."""


def best_town_score(cards, scenario: str, pile, readings: WagonsReadings, time_limit: float,
                    data: WagonsData | None = None) -> dict | None:
    """The optimizer's best town for ``cards`` in order (the one place the verifier uses it). Inside a readings
    sweep (:func:`shared.sharing`) it is searched once per cards, pile, scenario, scoring readings (the draft
    readings at their defaults: :data:`DRAFT_READINGS`), goal numbers and limit, for the runs of the other draft
    readings whose best game ended in the same town: a witness only ever raises the engine's toward the proven
    bound, and the same search under the same limit is not made again."""
    from solver.wagons.optimizer.layout import best_layout

    scoring = replace(readings, **{name: getattr(WagonsReadings(), name) for name in DRAFT_READINGS})
    key = (tuple(cards), scenario, tuple(pile), scoring, id(data), time_limit)
    kept = shared.LAYOUTS.get(key)
    if kept is not None and kept[0] is data:
        return None if kept[1] is None else dict(kept[1])
    try:
        r = best_layout(list(cards), scenario, tuple(pile), readings, time_limit=time_limit, data=data)
    except Exception:  # noqa: BLE001 - a witness is optional; the bound stands without it
        return None
    out = {"score": r.score, "proven_optimal": r.proven_optimal, "placements": [p.to_dict() for p in r.placements]}
    shared.LAYOUTS.put(key, (data, out))
    return dict(out)


def _game_summary(seed: int, res) -> dict:
    s = res.scores
    return {"seed": seed, "winner": s.winner, "player": s.player.total, "opponent": s.opponent.total,
            "town": {"placements": [p.to_dict() for p in res.state.town.placements]},
            "pile": list(res.state.pile)}


# ------------------------------------------------------------------ checks

WITNESS_LAYOUT_SECONDS = 10.0
"""At most this long for the optimizer's better layout of the best witness town (it can only raise a witness
toward the bound; the bound is Z3's): a whole-run time limit (``wagons verify`` shares 3600 s) no longer buys it
minutes."""



def _win_witness(scenario: str, readings: WagonsReadings, mutations, deadline: float, seeds: int = 400,
                 data: WagonsData | None = None):
    """The first greedy game the player wins, replayed from its script; and whether the bound
    model allows that win (it must: the model relaxes the rules)."""
    for seed, res in _games(scenario, readings, range(seeds), data=data):
        if time.perf_counter() > deadline:
            return None
        if res.scores.winner != "player":
            continue
        actions = _actions(res)
        again = replay_script(scenario, seed, actions, readings, data)
        run = Z3Run(deadline - time.perf_counter())
        bm = BoundModel(run.ctx, scenario, readings, mutations, data)
        s = run.solver()
        s.add(bm.opt.assertions())
        s.add(bm.pin(res.state.town.card_ids), _wins(bm, readings))
        allowed = run.check(s)
        return {"seed": seed, "script": {"actions": actions}, "replay_winner": again.scores.winner,
                "player": again.scores.player.total, "opponent": again.scores.opponent.total,
                "town": {"placements": [p.to_dict() for p in again.state.town.placements]},
                "pile": list(again.state.pile), "bound_model_allows": None if allowed == z3.unknown else allowed == z3.sat,
                "replay": f"ruleslinger wagons play --scenario {scenario} --seed {seed} --policy scripted --script FILE"}
    return None


def _unwinnable_deal(scenario: str, readings: WagonsReadings, mutations, deadline: float, deals: int = 40,
                     data: WagonsData | None = None):
    """The first seeded deal on which the bound model proves no draft line can win."""
    from solver.wagons.optimizer.bestplay import deal_state, draft_lines

    tried = 0
    for seed in range(deals):
        if time.perf_counter() > deadline:
            break
        tried += 1
        state = deal_state(scenario, seed=seed, readings=readings, data=data)
        lines = draft_lines(state, data)
        run = Z3Run(deadline - time.perf_counter())
        bm = BoundModel(run.ctx, scenario, readings, mutations, data)
        s = run.solver()
        s.add(bm.opt.assertions())
        s.add(z3.Or([bm.pin(line.cards) for line in lines]), _wins(bm, readings))
        r = run.check(s)
        if r == z3.unsat:
            return {"seed": seed, "circle": list(state.circle), "deck": list(state.deck), "draft_lines": len(lines),
                    "proof": "Z3: for every draft line of this deal the relaxed player total is at most the "
                             "opponent's (unsat)"}, tried
    return None, tried


def check_winnability(scenario: str, readings: WagonsReadings = WagonsReadings(), mutations=frozenset(), time_limit: float = 60.0,
                      data: WagonsData | None = None, loss_search: bool = True) -> CheckResult:
    """Per goal-number reading: a won deal with its replayable line, and a deal no line wins (if proven);
    ``data``: the goal numbers to check under (a user's ``--goals`` file; None: the shipped ones).

    ``holds`` rests on the won deal alone; the deal no line wins is a finding beside it (``details``), so
    ``loss_search=False`` (a sweep that keeps only ``holds``) leaves that search out: same ``holds``."""
    run = Z3Run(time_limit)
    start = run.started
    choices = goal_number_readings(readings)
    per, holds, cex = [], True, None
    for chosen, r in choices:
        budget = (time_limit - (time.perf_counter() - start)) / max(1, len(choices) - len(per))
        deadline = time.perf_counter() + budget
        win = _win_witness(scenario, r, mutations, time.perf_counter() + budget / 2, data=data)
        lose, tried = _unwinnable_deal(scenario, r, mutations, deadline, data=data) if loss_search else (None, 0)
        row = {"reading": chosen or "default", "win": win, "unwinnable_deal": lose, "deals_tried_for_a_loss": tried}
        per.append(row)
        if win is None:
            holds = None if holds is True else holds
        elif win["replay_winner"] != "player" or win["bound_model_allows"] is False:
            holds = False
            cex = {"why": "the engine's won game is not a win on replay" if win["replay_winner"] != "player"
                   else "the verifier's score model says this won game cannot be won", "reading": chosen, **win}
    details = {"readings": per, "winnable": [row["win"] is not None for row in per]}
    return _result(f"winnability/{scenario}", f"{scenario}: some deal and line of play win (and a deal no line wins, "
                   "where one is proven)", PASSAGES["winnability"] + " " + SCENARIO_SCORING[scenario], run,
                   Finding(holds, cex, details, "W11"))


BOUND_READINGS = ("edition", "difficulty", "boomtown_mines", *(f for f, *_ in readings_module.GOAL_READINGS.values()))
"""The readings :class:`BoundModel` reads: the later edition's per-card table (``_common``), the opponent's Mines
(``_opp_mines``) and the goal cards' numbers (``WagonsData.for_rules``, ``_badlands_ways``). The draft readings
change which towns a game reaches, never the relaxation, which allows every subset of the cards."""


def bound_readings(readings: WagonsReadings) -> WagonsReadings:
    """``readings`` with every reading the bound model does not read at its default (the key of a kept bound)."""
    return replace(WagonsReadings(), **{name: getattr(readings, name) for name in BOUND_READINGS})


OPEN_BOUND_TRIES = 2
"""How often a readings sweep tries one bound its time limit leaves open before it keeps it open: twice (a single
try kept open made a whole task's runs undecided when a load spike, not the problem, cut the one try short)."""
OPEN_TRY_CPU = 0.5
"""A try counts toward :data:`OPEN_BOUND_TRIES` only when the process had at least this share of the limit in CPU
seconds: at a load of 25 two tries of the through-the-desert opponent bound got a fraction of a core each and left
its task's runs undecided, where a try in each run decided them."""


def _bound(scenario: str, readings: WagonsReadings, mutations: frozenset, data: WagonsData | None, side: str,
           limit: float) -> dict:
    """The proven bound of one side's total (Z3's optimum of the bound model within ``limit`` seconds), in a
    fresh context (its own :class:`Z3Run`). Inside a readings sweep (:func:`shared.sharing`) the answer is kept per
    scenario, bound readings, mutations, goal numbers, side and limit (the same Z3 problem) for the runs of the other
    draft readings: a proven bound at once; a bound the limit left open only after :data:`OPEN_BOUND_TRIES` tries,
    so a run a busy machine slowed once is tried again, and a problem the limit never decides is not retried in
    every run."""
    key = (scenario, bound_readings(readings), frozenset(mutations), id(data), side, limit)
    kept = shared.BOUNDS.get(key)
    tries = 0
    if kept is not None and kept[0] is data:
        out, tries = kept[1], kept[2]
        if out["bound"] is not None or tries >= OPEN_BOUND_TRIES:
            return dict(out)
    cpu = time.process_time()
    run = Z3Run(limit)
    bm = BoundModel(run.ctx, scenario, readings, mutations, data)
    bound, proven, arg = _maximise(run, bm, bm.player_total if side == "player" else bm.opp_total)
    out = {"bound": bound, "proven": proven, "bound_position": arg}
    had_the_cpu = time.process_time() - cpu >= OPEN_TRY_CPU * limit  # a busy machine's try is not counted
    shared.BOUNDS.put(key, (data, out, tries + (bound is None and had_the_cpu)))
    return dict(out)


def check_score_bounds(scenario: str, readings: WagonsReadings = WagonsReadings(), mutations=frozenset(), time_limit: float = 60.0,
                       games: int = 60, data: WagonsData | None = None) -> CheckResult:
    """Proven upper bounds of both totals; witnesses from engine games (and the optimizer); ``data`` as
    :func:`check_winnability`."""
    run = Z3Run(time_limit)
    start = run.started
    out = {side: _bound(scenario, readings, mutations, data, side, max(0.05, time_limit / 4))
           for side in ("player", "opponent")}
    best = {"player": None, "opponent": None}
    for seed, res in _games(scenario, readings, range(games), data=data):
        if time.perf_counter() - start > time_limit * 0.6:
            break
        for side, total in (("player", res.scores.player.total), ("opponent", res.scores.opponent.total)):
            if best[side] is None or total > best[side]["total"]:
                best[side] = {"total": total, **_game_summary(seed, res)}
    wp = best["player"]
    if wp is not None and time_limit >= 5 and time.perf_counter() - start < time_limit * 0.8:
        cards = [p["card"] for p in wp["town"]["placements"]]
        opt = best_town_score(cards, scenario, wp["pile"], readings, min(time_limit * 0.15, WITNESS_LAYOUT_SECONDS), data)
        if opt is not None and opt["score"] > wp["total"]:
            wp = {**wp, "total": opt["score"], "town": {"placements": opt["placements"]}, "by": "optimizer",
                  "proven_optimal_layout": opt["proven_optimal"]}
            best["player"] = wp
    holds, cex = True, None
    for side in ("player", "opponent"):
        out[side]["witness"] = best[side]
        w, b = best[side], out[side]["bound"]
        if b is None:
            holds = None if holds is True else holds
        elif w is not None and w["total"] > b:
            holds, cex = False, {"side": side, "bound": b, "engine_total": w["total"], **w,
                                 "why": f"the engine's {side} total beats the proven bound"}
        out[side]["gap"] = None if (b is None or w is None) else b - w["total"]
    proven = holds is not None and all(out[s]["proven"] for s in out)
    return _result(f"score-bounds/{scenario}", f"{scenario}: the highest totals the player's town and the opponent's "
                   "pile can reach (proven bound and best witness)", PASSAGES["score-bounds"] + " " +
                   SCENARIO_SCORING[scenario], run, Finding(holds, cex, out, "W11"), proven)
