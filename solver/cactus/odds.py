"""When does the marshal arrive? Exact distributions (``fractions.Fraction``) and a Monte Carlo oracle.

- Solo (rule:C-solo-marshal): the marshal's arrival ends the game when it is among the lone ranger's
  programmed cards; every round's deck is shuffled afresh, so round r ends the game with chance
  programmed/size given it did not end before (an exact product, no floating point).
- 2-5 players (rule:C-event-deck, rule:C-event-draw): the round in which the marshal's arrival is
  drawn, with Train and Stagecoach applied and optional duel discards (rule:C4), by exact
  enumeration of the deck (only where Train and Stagecoach lie matters; every other card acts alike
  for the deck, so they are enumerated as one kind) and an exact Markov chain over the event state;
  each round the lone ranger starts ``duels_per_round`` duels, every win discarding the next event
  (rule:C10 ``every_win``; ``one_per_round`` caps the discards at one a round).
- Solo with the event deck (rule:C1 alternative): the game ends at the earlier of the two; an event
  draw comes before the action phase, so it wins a same-round tie.

:func:`simulate_chunk` is a picklable ``(n, seed, query) -> counts`` Monte Carlo that deals the real
cards; the tests compare it with the exact figures.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from solver.cactus import events as ev
from solver.cactus import solo_deck as sd
from solver.cactus.readings import CactusReadings, frac_str
from solver.contract import sample
from solver.errors import BadInput
from solver.execution.plans import BatchKind, Plan, call_star

PLACEHOLDER = "tumbleweed"  # stands for every card without a deck action (same behaviour for the deck)
SOLO_HORIZON = 40


@dataclass(frozen=True)
class MarshalQuery:
    """What to compute: ``players`` None for solo, else 2..5; ``readings`` the open readings."""

    players: int | None = None
    readings: CactusReadings = CactusReadings()

    def __post_init__(self):
        if self.players is not None:
            ev.deck_size(self.players)  # validates 2..5

    def event_cards(self) -> int | None:
        if self.players is not None:
            return ev.deck_size(self.players)
        return self.readings.solo_event_cards if self.readings.solo_events else None


Dist = dict  # round (int) or None ("never by the marshal") -> Fraction


def solo_deck_distribution(readings: CactusReadings = CactusReadings(), horizon: int = SOLO_HORIZON) -> Dist:
    """Round -> chance the solo deck reveals the marshal's arrival then; None -> beyond ``horizon``."""
    out: Dist = {}
    alive = Fraction(1)
    for rnd in range(1, horizon + 1):
        p = sd.marshal_programmed_chance(rnd, readings)
        if p:
            out[rnd] = alive * p
            alive *= 1 - p
        if alive == 0:
            break
    if alive:
        out[None] = alive
    return out


DECK_KINDS = (ev.TRAIN, ev.STAGECOACH)
"""The cards whose place changes the deck (rule:C-ev-train, rule:C-ev-stagecoach): always told apart."""


def placeholder(kinds: Collection[str] = DECK_KINDS) -> str | None:
    """The key that stands for every card not told apart (a card without a deck action, so it acts as they all do
    for the deck): :data:`PLACEHOLDER` unless it is told apart itself; None when every kind is."""
    plain = [e.key for e in ev.table().events if not e.ends_game and e.deck_action is None and e.key not in kinds]
    return PLACEHOLDER if PLACEHOLDER in plain else (plain[0] if plain else None)


def deck_layouts(size: int, kinds: Collection[str] = DECK_KINDS) -> Iterator[tuple[Fraction, tuple[str, ...]]]:
    """(weight, deck) for every placement of the cards of ``kinds`` (always with Train and Stagecoach) among
    ``size`` drawn cards and of the marshal among the bottom 3 (rule:C-event-deck), every other card as one
    :func:`placeholder` kind; weights are exact (the chance of that sequence of kinds in a shuffle of the 17
    cards) and sum to 1. The others act alike for the deck, so lumping them is exact for anything read off the
    told kinds."""
    have = Counter(ev.table().cards())
    told = tuple((k, have[k]) for k in dict.fromkeys((*DECK_KINDS, *kinds)))
    fill = placeholder(dict(told))
    total = sum(have.values())
    if not 2 <= size <= total:
        raise BadInput(f"event deck: {size} cards is not 2..{total}")

    def walk(prefix: tuple[str, ...], left: tuple[tuple[str, int], ...], other: int,
             w: Fraction) -> Iterator[tuple[Fraction, tuple[str, ...]]]:
        if len(prefix) == size:
            for slot in range(3):
                yield w / 3, ev.build_deck(prefix, size, slot)
            return
        n = total - len(prefix)
        if other:
            assert fill is not None  # a card not told apart exists, so placeholder() named one
            yield from walk(prefix + (fill,), left, other - 1, w * Fraction(other, n))
        for i, (k, c) in enumerate(left):
            if c:
                yield from walk(prefix + (k,), left[:i] + ((k, c - 1),) + left[i + 1:], other, w * Fraction(c, n))

    yield from walk((), told, total - sum(c for _, c in told), Fraction(1))


def layout_count(size: int, kinds: Collection[str] = DECK_KINDS) -> int:
    """How many decks :func:`deck_layouts` yields, counted without making them."""
    have = Counter(ev.table().cards())
    caps = tuple(have[k] for k in dict.fromkeys((*DECK_KINDS, *kinds)))

    @functools.cache
    def count(n: int, caps: tuple, other: int) -> int:
        if n == 0:
            return 1
        out = count(n - 1, caps, other - 1) if other else 0
        return out + sum(count(n - 1, caps[:i] + (c - 1,) + caps[i + 1:], other) for i, c in enumerate(caps) if c)

    return 3 * count(size, caps, sum(have.values()) - sum(caps))


@lru_cache(maxsize=200_000)
def _end_from(state: ev.EventsInPlay, readings: CactusReadings) -> tuple:
    if state.ended:
        return ((state.end_round, Fraction(1)),)
    if not state.deck:
        return ((None, Fraction(1)),)
    out: Counter = Counter()
    for p, nxt in ev.play_round(state, readings):
        for rnd, q in _end_from(nxt, readings):
            out[rnd] += p * q
    return tuple(out.items())


def event_distribution(size: int, readings: CactusReadings = CactusReadings()) -> Dist:
    """Round -> chance the event deck of ``size`` cards ends the game then (None: never)."""
    out: Counter = Counter()
    for w, deck in deck_layouts(size):
        for rnd, q in _end_from(ev.EventsInPlay(deck), readings):
            out[rnd] += w * q
    return {k: v for k, v in out.items() if v}


def combine(event: Dist, solo: Dist) -> Dist:
    """Earlier of two independent end rounds; the event draw comes first within a round."""
    def tail(d: Dist, r: int, strict: bool) -> Fraction:  # P(X > r) or P(X >= r)
        return sum((p for k, p in d.items() if k is None or (k > r if strict else k >= r)), Fraction(0))
    rounds = sorted({k for k in event if k is not None} | {k for k in solo if k is not None})
    out: Dist = {}
    for r in rounds:
        p = event.get(r, 0) * tail(solo, r, False) + solo.get(r, 0) * tail(event, r, True)
        if p:
            out[r] = p
    never = event.get(None, 0) * solo.get(None, 0)
    if never:
        out[None] = never
    return out


def distribution(query: MarshalQuery) -> Dist:
    """The exact distribution of the round the marshal ends the game (None: never / beyond)."""
    cards = query.event_cards()
    if query.players is not None:
        return event_distribution(cards, query.readings)
    solo = solo_deck_distribution(query.readings)
    return combine(event_distribution(cards, query.readings), solo) if cards else solo


EVENT_READS = ["stagecoach_short", "duel_win_chance", "duels_per_round", "duel_discards", "marshal_discard"]


def reads(players: int | None, readings: CactusReadings = CactusReadings()) -> list[str]:
    """The options these odds read (no other option can change them): the solo deck reads C2 and C1;
    the event deck C5 and the duel discards (C4, C10 only when ``duel_win_chance`` > 0; C10 only
    with more than one duel a round). C3 never changes them: the marshal's chance depends on the
    deck size only."""
    solo = ["short_deck", "solo_events"] + (["solo_event_cards"] if readings.solo_events else [])
    if players is None and not readings.solo_events:
        return solo
    return (solo if players is None else []) + EVENT_READS


def marshal_odds(players: int | None = None, readings: CactusReadings = CactusReadings()) -> dict:
    """The ``ruleslinger cactus marshal`` result (contracts.md) as a dict of ``"p/q"`` strings."""
    query = MarshalQuery(players, readings)
    dist = distribution(query)
    rounds = sorted(k for k in dist if k is not None)
    never = dist.get(None, Fraction(0))
    cumulative, acc = {}, Fraction(0)
    for r in rounds:
        acc += dist[r]
        cumulative[str(r)] = frac_str(acc)
    result = {"mode": "solo" if players is None else "players", "players": players,
              "rounds": {str(r): frac_str(dist[r]) for r in rounds},
              "by_round": cumulative, "never": frac_str(never),
              "earliest": rounds[0] if rounds else None, "latest": rounds[-1] if rounds and not never else None,
              "expected_round": frac_str(sum(r * dist[r] for r in rounds)) if not never else None,
              "method": "exact", "rules": readings.to_json(), "reads": reads(players, readings)}
    if players is None and never:
        result["note"] = f"'never' is the chance the game goes past round {SOLO_HORIZON} (rule C2 '{readings.short_deck}')"
    elif never:
        result["note"] = "'never' is the chance the marshal's arrival is discarded and never drawn again (rule C4)"
    return result


# ---------------------------------------------------------------- Monte Carlo (the tests' oracle)

def _sim_events(size: int, readings: CactusReadings, rng: random.Random) -> int | None:
    order = list(ev.table().cards())
    rng.shuffle(order)
    cards = order[:size]
    bottom = cards[-2:] + [ev.MARSHAL]
    rng.shuffle(bottom)
    state = ev.EventsInPlay(tuple(cards[:-2] + bottom))
    while not state.ended and state.deck:
        state = ev.EventsInPlay(state.deck, state.discard, state.round + 1)
        key, rest = state.deck[0], state.deck[1:]
        state = sample(ev.apply_event(replace(state, deck=rest, current=key), key, readings), rng)
        if not state.ended and readings.duel_win_chance:
            wins = sum(rng.random() < float(readings.duel_win_chance) for _ in range(readings.duels_per_round))
            if readings.duel_discards == "one_per_round":  # rule:C10
                wins = min(wins, 1)
            for _ in range(wins):
                state = sample(ev.duel_discard(state, readings), rng)
    return state.end_round if state.ended else None


def _sim_solo(readings: CactusReadings, rng: random.Random, horizon: int = SOLO_HORIZON) -> int | None:
    rest = [c for c in sd.NUMBERED if c not in sd.DEFAULT_MARKED]
    deck = list(sd.DEFAULT_MARKED)
    for rnd in range(1, horizon + 1):
        if 2 <= rnd <= 5:
            card = rest.pop(0) if readings.added_card == "lowest_number" else rest.pop(rng.randrange(len(rest)))
            deck.append(card)
        elif rnd == 6:
            deck.append(sd.MARSHAL)
        elif rnd >= 7:
            gone = sd.archived(rnd, readings)
            deck = [c for c in deck if c not in gone]
        rng.shuffle(deck)
        if sd.planning_draw(deck, readings).marshal_programmed:
            return rnd
    return None


def simulate_one(query: MarshalQuery, rng: random.Random) -> int | None:
    cards = query.event_cards()
    if query.players is not None:
        return _sim_events(cards, query.readings, rng)
    solo = _sim_solo(query.readings, rng)
    if cards:
        event = _sim_events(cards, query.readings, rng)
        if event is not None and (solo is None or event <= solo):
            return event
    return solo


def simulate_chunk(n: int, seed: int, query: MarshalQuery = MarshalQuery()) -> dict[str, int]:
    """Monte Carlo: ``n`` games from ``seed``; counts of the end round (``"never"``: none).

    A pure, picklable module-level function, so an executor (process pool, Dask) can run chunks
    with different seeds and add the counts up.
    """
    if n < 0:
        raise BadInput(f"n: {n} must not be negative")
    rng = random.Random(seed)
    counts: Counter = Counter()
    for _ in range(n):
        r = simulate_one(query, rng)
        counts["never" if r is None else str(r)] += 1
    return dict(counts)


CHUNK = 10_000
"""Monte Carlo games per batch task (``cactus-montecarlo``): fixed, so counts do not depend on the executor."""


def montecarlo_report(counts: dict, query: MarshalQuery) -> dict:
    """A Monte Carlo run's counts beside the exact odds (rule:C-solo-marshal, rule:C-event-draw): each round's count,
    share, exact chance and z-score, and the largest |z|."""
    import math

    exact = distribution(query)
    n = sum(counts.values())
    keys = sorted({*(str(k) if k is not None else "never" for k in exact), *counts},
                  key=lambda k: (k == "never", int(k) if k != "never" else 0))
    table, worst = {}, 0.0
    for key in keys:
        p = exact.get(None if key == "never" else int(key), Fraction(0))
        share = counts.get(key, 0) / n
        sigma = math.sqrt(max(float(p) * (1 - float(p)), 1e-12) / n)
        z = (share - float(p)) / sigma
        worst = max(worst, abs(z))
        table[key] = {"count": counts.get(key, 0), "share": round(share, 6), "exact": frac_str(p), "z": round(z, 2)}
    ordered = {key: counts[key] for key in keys if key in counts}
    return {"counts": ordered, "rounds": table, "max_abs_z": round(worst, 2)}


def plan_montecarlo(request):
    """``ruleslinger batch cactus-montecarlo``: the marshal's arrival round in ``n`` simulated games, in chunks of
    :data:`CHUNK` (chunk j with seed+j), reported beside the exact odds."""
    request.only("players")
    readings = request.readings(CactusReadings)
    query = MarshalQuery(request.get("players"), readings)
    sizes = [min(CHUNK, request.n - start) for start in range(0, request.n, CHUNK)]
    items = [(size, request.seed + j) for j, size in enumerate(sizes)]
    settings = {"players": query.players, "mode": "solo" if query.players is None else "players",
                "rules": readings.to_json(), "chunk": CHUNK}
    return Plan(functools.partial(call_star, simulate_chunk, {"query": query}), items, "counts", settings,
                request.n, report=lambda counts: montecarlo_report(counts, query))


BATCH_KINDS = (BatchKind("cactus-montecarlo", "Cactus Town: Monte Carlo of the marshal's arrival round vs the exact odds, "
                                              "--players 2..5 (default: solo)",
                      plan_montecarlo),)
"""Cactus Town's batch kinds (listed by :mod:`solver.registry`)."""
