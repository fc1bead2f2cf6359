"""The automated opponent's draft (rule:W1, rule:W2, rule:W3, rule:W4, rule:W5) and its pile (rule:W-pile).

The opponent's town is a pile, oldest card first, the last added on top. Each draft returns a
:class:`Decision` naming the register id of the rule that made it:

- round 1: ``W1`` (a match with the preference deck's top card: the deck card joins the pile too)
  or ``W1-next`` (no match: the next card);
- round 2: ``W5-<scenario>`` (the scenario's draft rule), ``W4`` (the icon fallback, original
  edition), ``W4-next`` (nothing applies: the next card) or ``W4-later`` (later edition, no fallback).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.errors import BadInput
from solver.wagons.cards import check_card_ids, load_cards
from solver.wagons.data import DraftRule, WagonsData, load_data
from solver.wagons.readings import WagonsReadings

__all__ = ["Decision", "round1_decision", "round2_decision", "opponent_draft", "add_to_pile",
           "town_icons", "symbol_count", "boomtown_behind"]


@dataclass(frozen=True)
class Decision:
    """What the opponent drafts now: ``take`` from the circle, ``skipped`` (to the player, in
    circle order), ``deck_card`` (round-1 match) and the ``rule`` id that decided."""
    take: int
    skipped: tuple[int, ...]
    deck_card: int | None
    rule: str
    round: int

    def to_dict(self) -> dict:
        return {"take": self.take, "skipped": list(self.skipped), "deck_card": self.deck_card,
                "rule": self.rule, "round": self.round}


def _cards():
    return load_cards()


def symbol_count(card_id: int, icons=(), terrains=()) -> int:
    """How many of the listed symbols a card shows: each icon and each territory counts one."""
    return sum((t.icon in icons) + (t.terrain in terrains) for t in _cards()[card_id].territories)


def town_icons(pile: tuple[int, ...], readings: WagonsReadings = WagonsReadings()) -> frozenset[str]:
    """Icons "showing in their town" (rule:W2): the top card's, or every card's with icon_source=town."""
    if not pile:
        return frozenset()
    cards = pile if readings.icon_source == "town" else pile[-1:]
    return frozenset(t.icon for c in cards for t in _cards()[c].territories)


def add_to_pile(pile: tuple[int, ...], decision: Decision, readings: WagonsReadings = WagonsReadings()) -> tuple[int, ...]:
    """The pile after the opponent's own draft; on a round-1 match the order follows rule:W3."""
    if decision.deck_card is None:
        return pile + (decision.take,)
    if readings.match_order == "deck-first":
        return pile + (decision.deck_card, decision.take)
    return pile + (decision.take, decision.deck_card)


def _take(circle: tuple[int, ...], k: int, rule: str, rnd: int, deck_card: int | None = None) -> Decision:
    return Decision(circle[k], circle[:k], deck_card, rule, rnd)


def round1_decision(circle, deck_top: int | None, readings: WagonsReadings = WagonsReadings()) -> Decision:
    """Round 1: skip up to 2 to match the deck's top card by terrain AND icon (rule:W1)."""
    circle = check_card_ids(circle, "circle")
    if not circle:
        raise BadInput("circle: no cards left to draft")
    if deck_top is not None:
        (deck_top,) = check_card_ids([deck_top], "deck top")
        if deck_top in circle:
            raise BadInput(f"deck top: card {deck_top} is also in the circle")
        wanted = {(t.terrain, t.icon) for t in _cards()[deck_top].territories}
        hits = [k for k, c in enumerate(circle[:readings.round1_window])
                if any((t.terrain, t.icon) in wanted for t in _cards()[c].territories)]
        if hits:  # several matches: the first, or the last with round1_pick=last (rule:W1-pick)
            return _take(circle, hits[-1] if readings.round1_pick == "last" else hits[0], "W1", 1, deck_top)
    return _take(circle, 0, "W1-next", 1)  # rule:W1-next


def boomtown_behind(after_round_1: tuple[int, int]) -> bool:
    """Boomtown: the opponent's territory count is tied with or below the player's (rule:W5-boomtown)."""
    player, opponent = after_round_1
    return opponent <= player


def _scenario_rule(draft: DraftRule, circle: tuple[int, ...], after_round_1) -> int | None:
    """Index of the card the scenario's round-2 rule takes, or None when unmet (rule:W5)."""
    if draft.kind == "skip-if-behind":
        # rule:W5-boomtown (inferred): skip exactly `skip` cards while more than that remain
        if after_round_1 is None:
            raise BadInput("Boomtown round 2 needs the territory counts after round 1 (player, opponent)")
        if boomtown_behind(after_round_1) and len(circle) > draft.skip:
            return draft.skip
        return None
    if draft.kind == "skip-heavy-then-first-match":
        # rule:W5-out-drink-the-competition: skip over a card with 2+ Beers
        if len(circle) >= 2 and symbol_count(circle[0], icons=(draft.heavy_icon,)) >= draft.heavy_min:
            return 1
    # "first-match": rule:W5-gold-rush, rule:W5-through-the-desert, rule:W5-water-the-herd, rule:W5-cattle-drive
    for k, c in enumerate(circle[:draft.look]):
        if symbol_count(c, draft.icons, draft.terrains) >= draft.min_count:
            return k
        if symbol_count(c, draft.stop_icons, draft.stop_terrains) > 0:
            return None  # never skip past this card
    return None


def round2_decision(circle, pile, scenario_id: str, readings: WagonsReadings = WagonsReadings(),
                    after_round_1: tuple[int, int] | None = None, data: WagonsData | None = None) -> Decision:
    """Round 2: the scenario's rule, then the icon fallback (rule:W4), then the next card."""
    data = data or load_data()
    scenario = data.scenario(scenario_id)
    circle = check_card_ids(circle, "circle")
    pile = check_card_ids(pile, "pile")
    if not circle:
        raise BadInput("circle: no cards left to draft")
    if set(circle) & set(pile):
        raise BadInput(f"card {min(set(circle) & set(pile))} is both in the circle and in the pile")
    k = _scenario_rule(scenario.draft, circle, after_round_1)
    if k is not None:
        return _take(circle, k, f"W5-{scenario.id}", 2)
    if readings.edition == "later":
        return _take(circle, 0, "W4-later", 2)  # rule:W4-later
    icons = town_icons(pile, readings)
    for k, c in enumerate(circle[:2]):
        if any(t.icon in icons for t in _cards()[c].territories):
            return _take(circle, k, "W4", 2)
    return _take(circle, 0, "W4-next", 2)  # rule:W4-next


def opponent_draft(scenario_id: str, round_no: int, circle, deck_top: int | None = None, pile=(),
                   after_round_1: tuple[int, int] | None = None, readings: WagonsReadings = WagonsReadings(),
                   data: WagonsData | None = None) -> Decision:
    """The opponent's draft now (contracts.md ``wagons opponent-draft``)."""
    data = data or load_data()
    data.scenario(scenario_id)
    pile = check_card_ids(pile, "pile")
    if round_no == 1:
        d = round1_decision(circle, deck_top, readings)
        used = set(pile) & ({d.take, d.deck_card} | set(circle))
        if used:
            raise BadInput(f"card {min(used)} is both in the pile and in the circle or deck")
        return d
    if round_no == 2:
        return round2_decision(circle, pile, scenario_id, readings, after_round_1, data)
    raise BadInput(f"round must be 1 or 2, got {round_no!r}")
