"""Following a real game of Cactus Town round by round: what the decks can hold given the cards seen,
and the live odds of the marshal's arrival conditioned on that history.

A :class:`Record` is what the table saw in one round: the event card drawn (rule:C-event-draw), the
card a Train discarded (rule:C-ev-train), the cards discarded by the lone ranger's duel wins
(rule:C-duel-discard, rule:C4), and in solo mode the lone ranger's revealed programmed cards and
second shot card (rule:C-solo-planning, rule:C-solo-marshal). :func:`follow` turns a history of
records into a belief: an exact distribution (``Fraction``) over the game contract's states
(:mod:`solver.cactus.game`), updated by Bayes' rule round by round, then played forward through the
contract's :func:`~solver.cactus.game.outcomes` to give the round the marshal arrives.

Exactness of the compressed event deck: for when the game ends only the places of the Train, the
Stagecoach and the marshal's arrival matter (as :mod:`solver.cactus.odds`), so the prior deals every
other card as one lumped "any other card" kind. Which non-Train, non-Stagecoach card shows in a round has the same
chance under every such placement (the other cards are exchangeable), so conditioning on that
lumped kind alone gives the exact posterior over the placements.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, TypeVar

from solver.cactus import events as ev
from solver.cactus import game as gm
from solver.cactus import odds
from solver.cactus import solo_deck as sd
from solver.cactus.readings import CactusReadings, frac_str
from solver.errors import BadInput
from solver.io.numbers import short_repr

__all__ = ["Record", "Belief", "prior", "observe", "follow", "arrival", "report", "record_from_json",
           "record_to_json", "HORIZON"]

HORIZON = 40  # rounds played forward; the chance beyond it is reported as "not by round 40"
Belief = dict  # gm.Game -> Fraction (summing to 1)
T = TypeVar("T")
PLAIN = odds.PLACEHOLDER


@dataclass(frozen=True)
class Record:
    """One round as seen at the table. ``event``: the event card's key (None without an event deck or
    when it is empty); ``train_discard``: the card the Train discarded, None if not seen;
    ``duel_discards``: one entry per duel win of the lone ranger (the card's key, None if not seen);
    ``programmed``: the lone ranger's programmed cards revealed, in order (1..8, ``"M"``);
    ``second_shot``: his second shot card, None if not recorded."""

    event: str | None = None
    train_discard: str | None = None
    duel_discards: tuple = ()
    programmed: tuple = ()
    second_shot: Any = None


# ---------------------------------------------------------------- the prior


def prior(players: int | None, readings: CactusReadings = CactusReadings(), marked: Sequence[int] = sd.DEFAULT_MARKED,
          kinds: Collection[str] = odds.DECK_KINDS, cards: int | None = None) -> Belief:
    """The contract's set-up as a distribution: the event deck (if any) over every placement of the
    Train, the Stagecoach, the other ``kinds`` told apart and the marshal's arrival (rule:C-event-deck), the
    solo deck fixed. ``cards``: the event deck's size when not the rulebook's (a shortened deck)."""
    base = gm.initial_state(0, readings, players, marked)
    if base.events is None:
        return {base: Fraction(1)}
    size = cards or len(base.events.deck) - 1
    out: defaultdict[gm.Game, Fraction] = defaultdict(Fraction)
    for w, deck in odds.deck_layouts(size, kinds):
        out[replace(base, events=ev.EventsInPlay(deck))] += w
    return dict(out)


# ---------------------------------------------------------------- one round observed


def _kind(key: str, kinds: Collection[str] = odds.DECK_KINDS) -> str | None:
    """The card as the compressed deck knows it: Train, Stagecoach, marshal, a kind told apart, or any other
    (None when every kind is told apart, so no card is "other")."""
    told = (*odds.DECK_KINDS, *kinds)
    return key if key in told or key == ev.MARSHAL else odds.placeholder(told)


def _event_step(events: ev.EventsInPlay, rec: Record, readings: CactusReadings,
                kinds: Collection[str] = odds.DECK_KINDS) -> list[tuple[Fraction, ev.EventsInPlay]]:
    """The event draw and the duel discards of ``rec``: each way they can go, weighted by chance and
    kept only where the deck shows what the table saw."""
    out = []
    for p, s in ev.start_round(events, readings):
        if rec.event is None:
            if s.current is not None:
                continue  # an event was drawn, the record says none
        elif s.current is None or _kind(rec.event, kinds) != s.current:
            continue
        if s.current == ev.TRAIN and not _train_matches(events, s, rec.train_discard, kinds):
            continue
        ok = True
        for seen in rec.duel_discards:
            if s.ended or not s.deck:
                ok = False
                break
            top = s.deck[0]
            if seen is not None and _kind(seen, kinds) != top:
                ok = False
                break
            ((_, s),) = ev.duel_discard(s, readings)
        if ok:
            out.append((p, s))
    return out


def _train_matches(before: ev.EventsInPlay, after: ev.EventsInPlay, seen: str | None, kinds: Collection[str] = odds.DECK_KINDS) -> bool:
    if seen is None:
        return True
    if after.end_cause == ev.EndCause.TRAIN:
        return seen == ev.MARSHAL
    nxt = before.deck[1] if len(before.deck) > 1 else None  # the card under the Train
    return nxt is not None and _kind(seen, kinds) == nxt


def _solo_likelihood(deck: tuple, rec: Record, readings: CactusReadings) -> tuple[Fraction, bool]:
    """(chance a freshly shuffled ``deck`` shows ``rec``'s cards where it shows them, whether the
    marshal's arrival was programmed) (rule:C-solo-planning, rule:C-solo-marshal): the cards seen
    are a uniform draw without replacement; a round without the marshal among the revealed
    programmed cards also needs him out of the programmed slots not recorded."""
    n_prog, shot = sd.planning_split(len(deck), readings)
    seen = list(rec.programmed) + ([rec.second_shot] if rec.second_shot is not None else [])
    if not set(seen) <= set(deck) or (rec.second_shot is not None and not shot):
        return Fraction(0), False
    p = Fraction(1)
    for i in range(len(seen)):
        p /= len(deck) - i
    ended = sd.MARSHAL in rec.programmed
    if not ended and sd.MARSHAL in deck and sd.MARSHAL not in seen:
        rest = len(deck) - len(seen)
        p *= Fraction(rest - (n_prog - len(rec.programmed)), rest)
    return p, ended


def _solo_step(game: gm.Game, rec: Record) -> list[tuple[Fraction, gm.Game]]:
    """The planning draw of ``rec`` on ``game`` (the solo deck of this round), then the contract's
    next solo deck (rule:C-solo-schedule, rule:C3)."""
    lik, ended = _solo_likelihood(game.solo_deck, rec, game.readings)
    if not lik:
        return []
    if ended:
        return [(lik, replace(game, round=game.round + 1, end_cause=ev.EndCause.SOLO_DECK))]
    solo_only = replace(game, events=None)
    nxt = [(q, g) for q, g in gm.outcomes(solo_only, gm.NextRound()) if g.end_cause is None]
    total = sum((q for q, _ in nxt), Fraction(0))
    return [(lik * q / total, replace(g, events=game.events)) for q, g in nxt]


def observe(belief: Belief, rec: Record, kinds: Collection[str] = odds.DECK_KINDS) -> Belief:
    """The belief after one more round seen as ``rec`` (Bayes' rule; BadInput if it cannot happen), the event deck
    compressed to ``kinds`` as in :func:`prior`."""
    out: Counter = Counter()
    for g, w in belief.items():
        if gm.is_terminal(g):
            continue  # another round was played, so the game had not ended
        drawn = [(Fraction(1), g.events)] if g.events is None else _event_step(g.events, rec, g.readings, kinds)
        for p, events in drawn:
            after = replace(g, events=events)
            if events is not None and events.ended:
                out[replace(after, round=g.round + 1, end_cause=events.end_cause)] += w * p
            elif after.solo_deck is not None:
                for q, g2 in _solo_step(after, rec):
                    out[g2] += w * p * q
            else:
                out[replace(after, round=g.round + 1)] += w * p
    total = sum(out.values(), Fraction(0))
    if not total:
        if all(gm.is_terminal(g) for g in belief):
            raise BadInput("the game is over: the marshal has arrived (or the event deck is used up)")
        raise BadInput("these cards cannot all have been seen in this round after the rounds before it")
    return {g: p / total for g, p in out.items() if p}


# ---------------------------------------------------------------- forward: when does he arrive


def arrival(belief: Belief, horizon: int = HORIZON) -> dict:
    """Round -> chance the marshal's arrival ends the game then, playing the contract forward from
    ``belief``; None -> never (the event deck is used up without him) or not by ``horizon``."""
    out: defaultdict[int | None, Fraction] = defaultdict(Fraction)
    frontier: dict[gm.Game, Fraction] = dict(belief)
    while frontier:
        nxt: defaultdict[gm.Game, Fraction] = defaultdict(Fraction)
        for g, w in frontier.items():
            if g.end_cause is not None:
                out[g.round] += w
            elif gm.is_terminal(g) or g.round >= horizon:
                out[None] += w
            else:
                for p, g2 in gm.outcomes(g, gm.NextRound()):
                    nxt[g2] += w * p
        frontier = nxt
    return {k: v for k, v in out.items() if v}


# ---------------------------------------------------------------- records: validation and JSON

_SOLO = set(sd.NUMBERED) | {sd.MARSHAL}


def _event_key(value: Any, what: str, allow_none: bool = True) -> str | None:
    if value is None and allow_none:
        return None
    if not isinstance(value, str):
        raise BadInput(f"{what}: expected an event key such as 'train', got {short_repr(value, 30)}")
    ev.table().get(value)  # BadInput names the known keys
    return value


def _solo_card(value: Any, what: str):
    if isinstance(value, bool) or value not in _SOLO:
        raise BadInput(f"{what}: expected a solo card 1..8 or \"M\" (the marshal's arrival), got {short_repr(value, 30)}")
    return value


def record_from_json(doc: Any, n: int = 1) -> Record:
    """A :class:`Record` from ``{"event", "train_discard", "duel_discards", "programmed", "second_shot"}``."""
    what = f"round {n}"
    if not isinstance(doc, dict):
        raise BadInput(f"{what}: expected an object")
    unknown = sorted(set(doc) - {"event", "train_discard", "duel_discards", "programmed", "second_shot"})
    if unknown:
        raise BadInput(f"{what}: unknown key '{unknown[0]}'")
    duels, prog = doc.get("duel_discards", []), doc.get("programmed", [])
    if not isinstance(duels, list) or not isinstance(prog, list):
        raise BadInput(f"{what}: duel_discards and programmed must be lists")
    shot = doc.get("second_shot")
    rec = Record(_event_key(doc.get("event"), f"{what}.event"), _event_key(doc.get("train_discard"), f"{what}.train_discard"),
                 tuple(_event_key(d, f"{what}.duel_discards") for d in duels),
                 tuple(_solo_card(c, f"{what}.programmed") for c in prog),
                 None if shot is None else _solo_card(shot, f"{what}.second_shot"))
    return check_record(rec, n)


def check_record(rec: Record, n: int = 1) -> Record:
    """The record's own consistency (which needs no history); BadInput names the problem."""
    what = f"round {n}"
    cards = list(rec.programmed) + ([rec.second_shot] if rec.second_shot is not None else [])
    if len(set(cards)) != len(cards):
        raise BadInput(f"{what}: a solo card appears twice (each card is drawn once a round)")
    if len(rec.programmed) > 3:
        raise BadInput(f"{what}: the lone ranger programs 3 cards, {len(rec.programmed)} were recorded")
    if sd.MARSHAL in rec.programmed and rec.programmed[-1] != sd.MARSHAL:
        raise BadInput(f"{what}: the game ends when the marshal's arrival is revealed, so no card comes after it")
    if rec.train_discard is not None and rec.event != ev.TRAIN:
        raise BadInput(f"{what}: a Train discard is recorded but the event drawn is not the Train")
    if rec.event == ev.MARSHAL and (rec.duel_discards or cards):
        raise BadInput(f"{what}: the marshal's arrival was drawn as the event, so the game ended before the action phase")
    return rec


def record_to_json(rec: Record) -> dict:
    return {"event": rec.event, "train_discard": rec.train_discard, "duel_discards": list(rec.duel_discards),
            "programmed": list(rec.programmed), "second_shot": rec.second_shot}


# ---------------------------------------------------------------- the companion's answer


def follow(players: int | None, readings: CactusReadings, history: Sequence[Record],
           marked: Sequence[int] = sd.DEFAULT_MARKED, kinds: Collection[str] = odds.DECK_KINDS, cards: int | None = None) -> list[Belief]:
    """The belief before round 1 and after each recorded round (BadInput names the round that
    cannot happen); ``kinds`` and ``cards`` as in :func:`prior`."""
    beliefs = [prior(players, readings, marked, kinds, cards)]
    seen: Counter = Counter()
    stagecoach = False
    for n, rec in enumerate(history, start=1):
        check_record(rec, n)
        for key in (rec.event, rec.train_discard, *rec.duel_discards):
            if key is not None:
                seen[key] += 1
                if seen[key] > ev.table().get(key).count and not stagecoach:
                    raise BadInput(f"round {n}: '{key}' seen {seen[key]} times, but the game has "
                                   f"{ev.table().get(key).count} and no Stagecoach brought one back")
        stagecoach = stagecoach or rec.event == ev.STAGECOACH
        if players is not None and (rec.programmed or rec.second_shot is not None):
            raise BadInput(f"round {n}: solo cards are recorded, but this is a {players}-player game")
        if players is None and not readings.solo_events and (rec.event or rec.duel_discards):
            raise BadInput(f"round {n}: an event card is recorded, but solo games have no event deck "
                           "(reading C1 solo_events is off)")
        try:
            beliefs.append(observe(beliefs[-1], rec, kinds))
        except BadInput as exc:
            raise BadInput(f"round {n}: {exc}") from None
    return beliefs


def _marginal(belief: Belief, key: Callable[[gm.Game], T]) -> list[tuple[Fraction, T]]:
    out: dict[T, Fraction] = {}
    for g, w in belief.items():
        k = key(g)
        out[k] = out.get(k, Fraction(0)) + w
    return sorted(((p, v) for v, p in out.items()), key=lambda t: -t[0])


def _deck_view(belief: Belief) -> dict | None:
    """The solo deck for the next round: each possible contents with its chance, each card's chance."""
    live = {g: w for g, w in belief.items() if g.solo_deck is not None}
    if not live:
        return None
    contents = _marginal(live, lambda g: g.solo_deck or ())  # live: never None
    cards = {str(c): frac_str(sum((p for p, d in contents if c in d), Fraction(0)))
             for c in sd.NUMBERED + (sd.MARSHAL,)}
    return {"contents": [{"cards": [str(c) for c in d], "p": frac_str(p)} for p, d in contents],
            "card_chance": cards, "size": len(contents[0][1])}


def _events_view(belief: Belief) -> dict | None:
    live = {g: w for g, w in belief.items() if g.events is not None}
    if not live:
        return None
    left = _marginal(live, lambda g: len(g.events.deck) if g.events is not None else 0)  # live: never 0
    marshal_in = sum((w for g, w in live.items() if ev.MARSHAL in g.events.deck), Fraction(0))
    return {"cards_left": [{"n": n, "p": frac_str(p)} for p, n in left], "marshal_in_deck": frac_str(marshal_in)}


def _dist_json(dist: dict) -> dict:
    rounds = sorted(k for k in dist if k is not None)
    acc, by = Fraction(0), {}
    for r in rounds:
        acc += dist[r]
        by[str(r)] = frac_str(acc)
    return {"rounds": {str(r): frac_str(dist[r]) for r in rounds}, "by_round": by,
            "never": frac_str(dist.get(None, Fraction(0)))}


def report(players: int | None, readings: CactusReadings, history: Iterable[Record], marked: Sequence[int] = sd.DEFAULT_MARKED) -> dict:
    """The companion's answer, JSON-ready: per step (0 = before round 1, k = after round k) the
    arrival distribution given what was seen, the next round's chance, and the decks' contents."""
    history = list(history)
    beliefs = follow(players, readings, history, marked)
    steps = []
    for k, b in enumerate(beliefs):
        dist = arrival(b)
        ended = sum((w for g, w in b.items() if g.end_cause is not None), Fraction(0))
        causes = sorted({g.end_cause for g in b if g.end_cause is not None})
        steps.append({"after_round": k, **_dist_json(dist),
                      "next_round": frac_str(dist.get(k + 1, Fraction(0))),
                      "ended": frac_str(ended), "end_causes": causes,
                      "solo_deck": _deck_view(b), "events": _events_view(b)})
    return {"mode": "solo" if players is None else "players", "players": players, "marked": list(marked),
            "history": [record_to_json(r) for r in history], "steps": steps, "rules": readings.to_json(),
            "method": "exact"}
