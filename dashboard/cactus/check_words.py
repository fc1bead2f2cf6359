"""A Cactus Town check that fails, explained in words, where its counterexample is
otherwise only JSON.

:mod:`solver.cactus.verify.checks` gives an event-deck counterexample as a deal (the deck by card kind, top
first), the rounds it plays (the card drawn, what a Stagecoach puts back, the lone ranger's duel wins) and the
round the game ends; a solo-deck one as the round whose deck runs short (with its cards) or the marshal's place in
each round's shuffle; the C5 check as the same deal under both readings. Presentation only: every fact is read off
the counterexample.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dashboard.shared.words import sentence

KIND_WORDS = {"marshal": "the marshal's arrival", "train": "the Train", "stagecoach": "the Stagecoach",
              "other": "another event", "-": "nothing (the deck is used up)"}
"""A card kind of the event-deck model -> words."""


def _kind(k: Any) -> str:
    return KIND_WORDS.get(str(k), str(k))


def _solo_card(c: Any) -> str:
    return "the marshal's arrival" if str(c) == "M" else f"#{c}"


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else "none"


def _round(row: Mapping[str, Any]) -> str:
    text = f"round {row.get('round')} draws {_kind(row.get('event'))}"
    if row.get("stagecoach_puts_on_top"):
        text += f", and the Stagecoach puts {_listed(_deck(list(row['stagecoach_puts_on_top'])))} on top"
    if row.get("lone_ranger_wins_duel"):
        n = row.get("duel_wins", 1)
        text += f"; the lone ranger wins {'a duel' if n == 1 else f'{n} duels'}, discarding the next event card" \
                f"{'' if n == 1 else 's'}"
    return text


def _deck(kinds: list[Any]) -> list[str]:
    """The deck top first, runs of other events counted ("3 other events")."""
    out: list[str] = []
    for k in kinds:
        if out and str(k) == "other" and out[-1].endswith(("another event", "other events")):
            n = 2 if out[-1] == "another event" else int(out[-1].split()[0]) + 1
            out[-1] = f"{n} other events"
        else:
            out.append(_kind(k))
    return out


def _plain(row: Mapping[str, Any]) -> bool:
    return str(row.get("event")) == "other" and not row.get("stagecoach_puts_on_top") and not row.get(
        "lone_ranger_wins_duel")


def _rounds_said(rows: list[Mapping[str, Any]]) -> list[str]:
    """Each round in words, runs of rounds that only draw another event said once ("rounds 4 to 6 draw other
    events")."""
    out: list[str] = []
    run: list[Mapping[str, Any]] = []
    for row in [*rows, None]:
        if row is not None and _plain(row):
            run.append(row)
            continue
        if len(run) > 1:
            joint = "and" if len(run) == 2 else "to"
            out.append(f"rounds {run[0].get('round')} {joint} {run[-1].get('round')} draw other events")
        elif run:
            out.append(_round(run[0]))
        run = []
        if row is not None:
            out.append(_round(row))
    return out


def deal_words(trace: Mapping[str, Any]) -> str:
    """An event-deck trace: the deck top first, each round, the round the game ends."""
    deck = _deck(list(trace.get("deck_top_first") or []))
    rounds = "; ".join(_rounds_said(list(trace.get("rounds") or [])))
    end = trace.get("ends_in_round")
    ends = f"the game ends in round {end}" if end else "the game has not ended in the rounds modelled"
    return (f"the event deck, top first, is {', '.join(deck) or 'empty'}; " + (f"{rounds}; " if rounds else "")
            + ends)


def _solo_short(cex: Mapping[str, Any]) -> str:
    if "deck" in cex:
        cards = _listed([_solo_card(c) for c in cex["deck"]])
        return (f"In round {cex.get('round')} the solo deck can hold only {cex.get('deck_size')} cards ({cards}), "
                f"not 3 to program and a second shot. {str(cex.get('what_happens', '')).rstrip('.')}.")
    return f"In round {cex.get('round')} the solo deck can hold fewer than 4 cards: not 3 to program and a second shot."


def _solo_bound(cex: Mapping[str, Any]) -> str:
    places = cex.get("marshal_position_by_round") or {}
    where = _listed([f"round {r}: place {int(p) + 1}" for r, p in places.items()])
    note = str(cex.get("note", "")).rstrip(".")
    return (f"The marshal's arrival can stay unrevealed through round {cex.get('rounds_without_marshal')}: its place "
            f"in each shuffled deck ({where}) is never among the cards programmed. {sentence(note)}.")


def fails_in_words(check: Mapping[str, Any]) -> str | None:
    """The check's counterexample in a sentence or two, or None when it has none."""
    cex = check.get("counterexample")
    if not isinstance(cex, Mapping):
        return None
    family = str(check.get("id", "")).split("/")[0]
    if family.startswith("solo-deck-3-plus-1"):
        return _solo_short(cex)
    if family == "solo-marshal-bound":
        return _solo_bound(cex)
    if family == "c5-reading-changes-end" and "as_many" in cex:
        a, b = cex["as_many"].get("ends_in_round"), cex["none"].get("ends_in_round")
        return (f"On the same deal the game ends in round {a or 'none'} under C5 'as_many' and in round "
                f"{b or 'none'} under C5 'none': {deal_words(cex['as_many'])} (read 'as_many').")
    if "deck_top_first" in cex:
        lead = "A deal where it fails" if check.get("holds") is False else "A deal that shows it"
        return f"{lead}: {deal_words(cex)}."
    return None
