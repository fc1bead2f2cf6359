"""Z3 encoding of a whole Lone Cowboy game, written from the rulebook text (rule:W-verify).

Independent of the engine (``game.py``, ``opponent.py``, ``scoring.py``): it reads only the card
fronts and the scenario list (data), and encodes the rules itself. The cross-checks in
:mod:`solver.wagons.verify.checks` compare it with the engine.

Why a pointer encoding is exact: every draft removes a *prefix* of the remaining circle (the player
takes card k and the k before it go to the pile, rule:W-player-draft; the opponent takes card k and
the k before it go to the player, rule:W1, rule:W4), and the preference deck is drawn from the top
(rule:W1). So the deal is 16 slots (0-7 the circle, 8-15 the deck, top first), the circle is the
slots from a cursor to the end of the row, and the deck is the slots from a deck pointer on. Round 2
deals the remaining deck as the new circle (rule:W-rounds), so its row is the deck slots from the
deck pointer to 15, and turn order carries over (rule:W10).

Each step is one party's turn (one draft). Free variables: the deal (any order of the scenario's 16
cards, rule:W-setup, rule:W9), each player draft, and Boomtown's territory count after round 1 (any
value the player's placements can give: 4 when every card is stacked on the first, 4 per card when
none overlaps, rule:W5-boomtown).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache

import z3

from solver.wagons.cards import load_cards
from solver.wagons.data import ICONS, Card, load_data
from solver.wagons.readings import WagonsReadings
from solver.z3check import Z3Run

ROW = 8
SLOTS = 16
MAX_STEPS = SLOTS + 1
"""Steps unrolled: one more than any draft count a game can need, so a game still running is seen."""

MODEL_MUTATIONS = {
    "round1-skip-3": "the round-1 opponent skips up to 3 cards (looks at 4) for a match",
    "skipped-cards-lost": "cards the player skips are discarded instead of entering the opponent's pile",
    "deck-card-kept": "on a round-1 match the deck's top card enters the pile but also stays on the deck",
    "player-may-pass": "the player may end a turn without drafting a card",
    "two-picks": "the round-2 icon fallback may take either matching card (c0 or c1)",
    "round2-no-default": "round 2: when neither the scenario rule nor the icon rule applies, the opponent has no action",
}


# ------------------------------------------------------------------ card facts (data only)

def card_facts() -> tuple[Card, ...]:
    """What the encoding reads of the card fronts: the card records themselves (terrain and icon per territory)."""
    return load_cards()


@lru_cache(maxsize=8)
def scenario_cards(scenario: str) -> tuple[int, ...]:
    """The 16 cards a deal uses: all fronts but the two whose backs are the scenario's goal cards (rule:W9)."""
    data = load_data()
    goals = data.scenario(scenario).goals
    return tuple(c.id for c in data.cards if c.back not in goals)


# ------------------------------------------------------------------ the scenario draft rules (text)

def _first(conds: list) -> list:
    """chosen_k = cond_k and no earlier cond (the first card that meets a rule)."""
    out, none_before = [], None
    for c in conds:
        out.append(c if none_before is None else z3.And(none_before, c))
        none_before = z3.Not(c) if none_before is None else z3.And(none_before, z3.Not(c))
    return out


@dataclass
class SlotFacts:
    """Per deal slot, Booleans for what its card shows (If-chains over the slot's card id)."""
    ctx: z3.Context
    deal: list
    ids: tuple[int, ...]
    cache: dict = field(default_factory=dict)

    def prop(self, s: int, name: str, fn) -> z3.ExprRef:
        key = (s, name)
        if key not in self.cache:
            e = z3.BoolVal(False, self.ctx)
            for cid in self.ids:
                if fn(card_facts()[cid]):
                    e = z3.Or(e, self.deal[s] == cid)
            self.cache[key] = z3.simplify(e)
        return self.cache[key]

    def num(self, s: int, name: str, fn) -> z3.ArithRef:
        key = (s, name)
        if key not in self.cache:
            e = z3.IntVal(0, self.ctx)
            for cid in self.ids:
                v = fn(card_facts()[cid])
                if v:
                    e = z3.If(self.deal[s] == cid, z3.IntVal(v, self.ctx), e)
            self.cache[key] = e
        return self.cache[key]


def at(ctx, idx, fn, default=None):
    """fn(s) for the slot s == idx (a symbolic slot index), over all 16 slots."""
    e = default if default is not None else z3.BoolVal(False, ctx)
    for s in range(SLOTS):
        e = z3.If(idx == s, fn(s), e)
    return e


# ------------------------------------------------------------------ the game, unrolled

@dataclass
class Step:
    """One turn in the unrolled game: who moves, what the rules offer, what happens."""
    t: int
    live: z3.BoolRef           # the game is not over before this step
    player: z3.BoolRef         # the player moves
    rnd2: z3.BoolRef           # round 2
    cur: z3.ArithRef           # circle cursor (slot of the next circle card)
    end: z3.ArithRef           # one past the row's last slot
    deck: z3.ArithRef          # deck pointer (slot of the deck's top card)
    top: z3.ArithRef           # the pile's top card id (-1 = empty pile)
    pile_icons: dict           # icon -> Bool, shown anywhere in the pile
    pile_len: z3.ArithRef
    placed: z3.ArithRef        # cards in the player's town (placed)
    hand: z3.ArithRef          # cards handed over, not yet placed
    k: z3.ArithRef             # the draft index taken this step (-1 = none)
    chosen: list = field(default_factory=list)   # opponent: the readings' pick, per index
    text_ok: list = field(default_factory=list)  # opponent: indices the text allows
    match: z3.BoolRef | None = None              # opponent round 1: a deck match
    stuck: z3.BoolRef | None = None              # the mover has no action
    round1_matches: list = field(default_factory=list)   # round 1: which of the window cards match
    scenario_pick: list = field(default_factory=list)    # round 2: the scenario rule's pick (W5)
    fallback_pick: list = field(default_factory=list)    # round 2: the icon fallback's pick (W4)
    fallback_by: dict = field(default_factory=dict)      # round 2: the fallback under each W2 reading


class OutOfTime(Exception):
    """The time limit ran out while the game was being encoded."""


PRESOLVE = ("simplify", "propagate-values", "solve-eqs", "smt")
"""The game's solver: the unrolled turns are mostly definitions (``x == If(...)``); simplifying and solving those
equations away before the SMT core makes each check 2-5 times quicker (card-conservation in Gold Rush: 8.6 s of
CPU -> 3.6 s; termination 10 s -> 2 s), with the same answers and models (the tactics keep model converters)."""


def game_solver(ctx: z3.Context) -> z3.Solver:
    """A solver for :class:`GameModel` in ``ctx`` (:data:`PRESOLVE`); ``timeout`` and push/pop work as usual."""
    return z3.Then(*[z3.Tactic(name, ctx=ctx) for name in PRESOLVE], ctx=ctx).solver()


class GameModel:
    """The whole game for one scenario and reading (``readings``), with deliberate ``mutations``;
    ``deadline`` (a ``time.perf_counter()`` value) stops the encoding with :class:`OutOfTime`; ``run``: the check
    runner's run whose context it is in (its solves go through it)."""

    run: Z3Run | None = None

    def __init__(self, ctx: z3.Context, scenario: str, readings: WagonsReadings = WagonsReadings(),
                 mutations: frozenset = frozenset(), steps: int = MAX_STEPS, deadline: float | None = None):
        self.ctx, self.scenario, self.readings, self.mutations = ctx, scenario, readings, frozenset(mutations)
        self.deadline = deadline
        self.ids = scenario_cards(scenario)
        self.s = game_solver(ctx)
        iv = lambda v: z3.IntVal(v, ctx)  # noqa: E731
        self.iv = iv
        self.deal = [z3.Int(f"deal_{i}", ctx) for i in range(SLOTS)]
        for d in self.deal:
            self.s.add(z3.Or([d == c for c in self.ids]))
        self.s.add(z3.Distinct(*self.deal))
        self.facts = SlotFacts(ctx, self.deal, self.ids)
        self._memo: dict = {}
        self.drafts = [z3.Int(f"draft_{t}", ctx) for t in range(steps)]
        self.boom_count = z3.Int("player_territories_after_round_1", ctx)
        self.to_town = [[] for _ in range(SLOTS)]   # per slot: conditions it enters the town/hand
        self.to_pile = [[] for _ in range(SLOTS)]
        self.steps: list[Step] = []
        self.after_r1 = None  # (placed cards, pile length) when round 1 ends
        self._build(steps)

    # -- card questions about a symbolic slot (memoised per slot expression)
    def _sel(self, slot, name, fn, default=None):
        key = (slot.get_id() if z3.is_expr(slot) else slot, name)
        if key not in self._memo:  # the slot expression is kept alive, so its id is never reused
            self._memo[key] = (slot, at(self.ctx, slot, fn, default))
        return self._memo[key][1]

    def has_icon(self, slot, icon):
        return self._sel(slot, f"icon:{icon}",
                         lambda s: self.facts.prop(s, f"icon:{icon}", lambda c: icon in c.icons()))

    def count(self, slot, icons=(), terrains=()):
        name = f"count:{icons}:{terrains}"
        return self._sel(slot, name, lambda s: self.facts.num(s, name, lambda c: c.count(icons, terrains)),
                         self.iv(0))

    def shows(self, slot, icons=(), terrains=()):
        return self.count(slot, icons, terrains) >= 1

    def card(self, slot):
        return self._sel(slot, "card", lambda s: self.deal[s], self.iv(-1))

    def match(self, a, b):
        """Round 1 (rule:W1): the cards in slots a and b share a territory of the same terrain AND icon."""
        ca, cb = self.card(a), self.card(b)
        ok = []
        for x in self.ids:
            compat = [y for y in self.ids if y != x and set(card_facts()[x].cells) & set(card_facts()[y].cells)]
            if compat:
                ok.append(z3.And(ca == x, z3.Or([cb == y for y in compat])))
        return z3.Or(ok)

    def icon_in_town(self, slot, top, pile_icons, source=None):
        """Round 2 (rule:W2): the card shows an icon showing in the opponent's town."""
        ctx = self.ctx
        if (source or self.readings.icon_source) == "town":
            return z3.Or([z3.And(pile_icons[i], self.has_icon(slot, i)) for i in ICONS])
        parts = []
        for cid in self.ids:
            icons = card_facts()[cid].icons()
            parts.append(z3.And(top == cid, z3.Or([self.has_icon(slot, i) for i in icons])))
        return z3.Or(parts) if parts else z3.BoolVal(False, ctx)

    # -- the scenario's round-2 rule (rule:W5), as conditions on the next cards c0, c1, c2
    def scenario_rule(self, cur, rem, behind) -> list:
        ctx, sc = self.ctx, self.scenario
        c = [cur + j for j in range(3)]
        F = z3.BoolVal(False, ctx)
        if sc == "boomtown":  # rule:W5-boomtown: skip exactly 1 while 2+ cards remain (inferred)
            return [F, z3.And(behind, rem >= 2), F]
        if sc == "gold-rush":  # rule:W5-gold-rush: first Gun in c0..c2, never past Mountains or a Mine
            out, ok = [], z3.BoolVal(True, ctx)
            for j in range(3):
                gun = z3.And(rem > j, self.has_icon(c[j], "Gun"))
                out.append(z3.And(ok, gun))
                ok = z3.And(ok, z3.Not(gun), z3.Not(self.shows(c[j], ("Mine",), ("Mountains",))))
            return out
        if sc == "out-drink-the-competition":  # rule:W5-out-drink-the-competition
            heavy = z3.And(rem >= 2, self.count(c[0], ("Beer",)) >= 2)
            wag = _first([z3.And(rem > j, self.has_icon(c[j], "Wagon")) for j in range(2)])
            return [z3.And(z3.Not(heavy), wag[0]), z3.Or(heavy, wag[1]), F]
        sym = {"through-the-desert": (("Wagon", "Gun"), ("Desert",), 2),   # rule:W5-through-the-desert
               "water-the-herd": (("Wagon", "Cow"), ("Water",), 2),         # rule:W5-water-the-herd
               "cattle-drive": (("Cow",), ("Plains",), 1)}[sc]              # rule:W5-cattle-drive
        icons, terrains, need = sym
        return _first([z3.And(rem > j, self.count(c[j], icons, terrains) >= need) for j in range(2)]) + [F]

    def _round1(self, st: Step, rem):
        """rule:W1: the first (or, rule:W1-pick round1_pick=last, the last) of the next 3 that matches the deck's top
        card; rule:W1-next: else the next."""
        window = 4 if "round1-skip-3" in self.mutations else self.readings.round1_window
        has_top = st.deck < SLOTS
        m = [z3.And(rem > j, has_top, self.match(st.cur + j, st.deck)) for j in range(window)]
        if getattr(self.readings, "round1_pick", "first") == "last":  # the last match in the window
            chosen = list(reversed(_first(list(reversed(m)))))
        else:
            chosen = _first(m)
        chosen[0] = z3.Or(chosen[0], z3.Not(z3.Or(m)))
        st.round1_matches = m
        text = [z3.And(rem > j, has_top, self.match(st.cur + j, st.deck)) if j <= 2 else z3.BoolVal(False, self.ctx)
                for j in range(window)]
        text[0] = z3.Or(text[0], z3.Not(z3.Or(text[:3])))
        return chosen, text, z3.Or(m)

    def _round2(self, st: Step, rem):
        """rule:W4: the scenario rule, then the first of c0, c1 showing a town icon (W2), else the next."""
        ctx = self.ctx
        sc = self.scenario_rule(st.cur, rem, self.behind)
        any_sc = z3.Or(sc)
        fb_by = {src: _first([z3.And(rem > j, self.icon_in_town(st.cur + j, st.top, st.pile_icons, src))
                              for j in range(2)]) + [z3.BoolVal(False, ctx)] for src in ("top", "town")}
        if self.readings.edition == "later":  # rule:W4-later
            fb = [z3.BoolVal(False, ctx)] * 3
        else:
            fbc = [z3.And(rem > j, self.icon_in_town(st.cur + j, st.top, st.pile_icons)) for j in range(2)]
            fb = (fbc if "two-picks" in self.mutations else _first(fbc)) + [z3.BoolVal(False, ctx)]
        st.scenario_pick, st.fallback_pick, st.fallback_by = sc, fb, fb_by
        any_fb = z3.Or(fb)
        chosen = [z3.Or(sc[j], z3.And(z3.Not(any_sc), fb[j])) for j in range(3)]
        if "round2-no-default" not in self.mutations:
            chosen[0] = z3.Or(chosen[0], z3.And(z3.Not(any_sc), z3.Not(any_fb)))
        # the text's bound on skipping: 2 for Gold Rush, else 1 (rule:W5, round 2 text)
        limit = 2 if self.scenario == "gold-rush" else 1
        text = [z3.And(rem > j, z3.BoolVal(j <= limit, ctx)) for j in range(3)]
        return chosen, text

    def _build(self, steps: int) -> None:
        ctx, iv, s = self.ctx, self.iv, self.s
        T, F = z3.BoolVal(True, ctx), z3.BoolVal(False, ctx)
        live, player, rnd2 = T, T, F
        cur, end, deck, top = iv(0), iv(ROW), iv(ROW), iv(-1)
        pile_icons = {i: F for i in ICONS}
        pile_len, placed, hand = iv(0), iv(0), iv(0)
        self.behind = z3.Bool("opponent_behind_after_round_1", ctx)
        self.ended_at = []
        for t in range(steps):
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise OutOfTime(f"the time limit ran out while encoding turn {t + 1}")
            rem = end - cur
            st = Step(t, live, player, rnd2, cur, end, deck, top, pile_icons, pile_len, placed, hand, self.drafts[t])
            k = st.k
            # the player: places handed-over cards, then drafts card k (k before it go to the pile)
            lo = -1 if "player-may-pass" in self.mutations else 0
            p_ok = z3.And(k >= lo, k < rem)
            # the opponent: the readings' pick
            c1, t1, m1 = self._round1(st, rem)
            c2, t2 = self._round2(st, rem)
            n = max(len(c1), len(c2))
            pad = lambda xs, n=n: xs + [F] * (n - len(xs))  # noqa: E731
            c1, t1, c2, t2 = pad(c1), pad(t1), pad(c2), pad(t2)
            st.chosen = [z3.If(rnd2, c2[j], c1[j]) for j in range(n)]
            st.text_ok = [z3.If(rnd2, t2[j], t1[j]) for j in range(n)]
            st.match = z3.And(z3.Not(rnd2), m1)
            o_ok = z3.Or([z3.And(k == j, st.chosen[j]) for j in range(n)])
            st.stuck = z3.And(live, z3.Not(player), z3.Not(z3.Or(st.chosen)))
            s.add(z3.Implies(z3.And(live, player), p_ok))
            s.add(z3.Implies(z3.And(live, z3.Not(player), z3.Not(st.stuck)), o_ok))
            s.add(z3.Implies(z3.Or(z3.Not(live), st.stuck), k == -1))
            moves = z3.And(live, k >= 0)
            opp_match = z3.And(moves, z3.Not(player), st.match)
            self.steps.append(st)
            self._route_slots(player, cur, k, moves, opp_match, deck)
            # the pile's top (rule:W3) and its icons
            taken_card, last_skipped, deck_card = self.card(cur + k), self.card(cur + k - 1), self.card(deck)
            if self.readings.match_order == "deck-first":
                opp_top = taken_card
            else:
                opp_top = z3.If(st.match, deck_card, taken_card)
            new_top = z3.If(player, z3.If(k > 0, last_skipped, top), opp_top)
            if "skipped-cards-lost" in self.mutations:
                new_top = z3.If(player, top, opp_top)
            added_icons = self._pile_icons_after(st, player, cur, k, moves, deck, pile_icons)
            added = z3.If(player, z3.If(z3.BoolVal("skipped-cards-lost" in self.mutations, ctx), 0, k),
                          1 + z3.If(st.match, 1, 0))
            n_top = z3.If(moves, new_top, top)
            n_pile_len = z3.If(moves, pile_len + added, pile_len)
            n_placed = z3.If(moves, z3.If(player, placed + hand + 1, placed), placed)
            n_hand = z3.If(moves, z3.If(player, 0, hand + k), hand)
            n_cur = z3.If(moves, cur + k + 1, cur)
            keep = "deck-card-kept" in self.mutations
            n_deck = z3.If(z3.And(opp_match, z3.BoolVal(not keep, ctx)), deck + 1, deck)
            circle_out = z3.And(live, n_cur >= end)
            # round 1 ends: the remaining deck becomes the circle (rule:W-rounds, rule:W10)
            r1_over = z3.And(circle_out, z3.Not(rnd2))
            if self.after_r1 is None:
                self.after_r1 = []
            self.after_r1.append((r1_over, n_placed, n_pile_len, n_hand))
            n_cur = z3.If(r1_over, n_deck, n_cur)
            n_end = z3.If(r1_over, iv(SLOTS), end)
            n_rnd2 = z3.Or(rnd2, r1_over)
            over = z3.And(live, z3.Or(z3.And(circle_out, rnd2), z3.And(r1_over, n_deck >= SLOTS)))
            self.ended_at.append(over)
            live = z3.And(live, z3.Not(over), z3.Not(st.stuck))
            player = z3.If(moves, z3.Not(player), player)
            rnd2, cur, end, deck, top = n_rnd2, n_cur, n_end, n_deck, n_top
            pile_icons, pile_len, placed, hand = added_icons, n_pile_len, n_placed, n_hand
        self.live_after = live
        self.final_pile_len, self.final_placed, self.final_hand = pile_len, placed, hand
        self._boomtown_counts()

    def _route_slots(self, player, cur, k, moves, opp_match, deck) -> None:
        """Where each deal slot goes this step: the drafted card to the drafter, the skipped ones to
        the other party (rule:W-player-draft, rule:W-pile), the deck card on a round-1 match (rule:W1)."""
        lost = z3.BoolVal("skipped-cards-lost" not in self.mutations, self.ctx)
        for sl in range(SLOTS):
            taken = z3.And(moves, cur + k == sl)
            skipped = z3.And(moves, sl >= cur, sl < cur + k)
            self.to_pile[sl].append(z3.Or(z3.And(z3.Not(player), taken), z3.And(player, skipped, lost),
                                          z3.And(opp_match, deck == sl)))
            self.to_town[sl].append(z3.Or(z3.And(player, taken), z3.And(z3.Not(player), skipped)))

    def _pile_icons_after(self, st, player, cur, k, moves, deck, pile_icons) -> dict:
        """The icons in the opponent's pile after this step (rule:W2 'any icon in its town')."""
        out = {}
        for i in ICONS:
            opp_adds = z3.Or(z3.And(z3.Not(player), self.has_icon(cur + k, i)),
                             z3.And(z3.Not(player), st.match, self.has_icon(deck, i)))
            pl_adds = z3.And(player, k > 0, z3.Or([z3.And(sl >= cur, sl < cur + k, self.facts.prop(
                sl, f"icon:{i}", lambda c, i=i: i in c.icons())) for sl in range(SLOTS)]))
            out[i] = z3.Or(pile_icons[i], z3.And(moves, z3.Or(opp_adds, pl_adds)))
        return out

    def _boomtown_counts(self) -> None:
        """Boomtown: the player's visible territories after round 1 are any value 4..4m, m the cards
        placed (rule:W5-boomtown); with a ``boomtown_count`` reading "cards", 4 per card held."""
        ctx, s = self.ctx, self.s
        m = z3.Int("placed_after_round_1", ctx)
        opp = z3.Int("opponent_territories_after_round_1", ctx)
        held = z3.Int("held_after_round_1", ctx)  # placed + handed over, not yet placed
        never = z3.Not(z3.Or([ended for ended, _, _, _ in self.after_r1]))
        s.add(z3.Or([z3.And(ended, m == placed, opp == 4 * pl, held == placed + hand)
                     for ended, placed, pl, hand in self.after_r1] + [z3.And(never, m == 1, opp == 0, held == 1)]))
        if getattr(self.readings, "boomtown_count", "visible") == "cards":  # 4 per card the player holds
            s.add(self.boom_count == 4 * held)
        else:
            s.add(self.boom_count >= 4, self.boom_count <= 4 * m)
        s.add(self.behind == (opp <= self.boom_count))
        self.opp_after_r1, self.placed_after_r1 = opp, m

    # -- questions
    def turns(self) -> z3.ArithRef:
        """Drafts made (player and opponent turns)."""
        return z3.Sum([z3.If(st.k >= 0, 1, 0) for st in self.steps])

    def town_count(self, sl: int):
        return z3.Sum([z3.If(c, 1, 0) for c in self.to_town[sl]])

    def pile_count(self, sl: int):
        return z3.Sum([z3.If(c, 1, 0) for c in self.to_pile[sl]])

    def trace(self, m: z3.ModelRef) -> dict:
        """A model as a replayable game: the deal, the player's drafts and the opponent's picks."""
        val = lambda e: m.eval(e, model_completion=True)  # noqa: E731
        num = lambda e: val(e).as_long()  # noqa: E731
        deal = [num(d) for d in self.deal]
        turns = []
        for st in self.steps:
            if not z3.is_true(val(st.live)):
                break
            k = num(st.k)
            who = "player" if z3.is_true(val(st.player)) else "opponent"
            row = {"turn": st.t + 1, "who": who, "round": 2 if z3.is_true(val(st.rnd2)) else 1,
                   "circle": deal[num(st.cur):num(st.end)], "k": k}
            if who == "opponent":
                row["deck_top"] = deal[num(st.deck)] if num(st.deck) < SLOTS and row["round"] == 1 else None
                row["pile_top"] = num(st.top) if num(st.top) >= 0 else None
                row["readings_pick"] = [j for j, c in enumerate(st.chosen) if z3.is_true(val(c))]
                row["text_allows"] = [j for j, c in enumerate(st.text_ok) if z3.is_true(val(c))]
                row["deck_match"] = z3.is_true(val(st.match))
            turns.append(row)
        out = {"circle": deal[:ROW], "deck": deal[ROW:], "turns": turns,
               "player_drafts": [r["k"] for r in turns if r["who"] == "player"]}
        if self.scenario == "boomtown":
            out["player_territories_after_round_1"] = num(self.boom_count)
            out["opponent_territories_after_round_1"] = num(self.opp_after_r1)
            out["opponent_behind_after_round_1"] = z3.is_true(val(self.behind))
        return out

