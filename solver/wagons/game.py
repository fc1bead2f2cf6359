"""Whole solo games: setup, turns, rounds, the player's actions and the opponent's drafts.

Frozen :class:`GameState` with pure ``apply(state, action)`` and ``legal_actions(state)``.
Setup (rule:W-setup, rule:W9): the scenario's two goal cards set aside with their fronts, the
other 16 shuffled by the seed, 8 form the circle and 8 the preference deck. Turns (rule:W-rounds,
rule:W10): the player first, then alternating, round 2 from the remaining deck cards without
resetting the turn order. The player's turn (rule:W-player-draft): first place the cards the
opponent skipped (circle order), then draft one circle card (the cards skipped go onto the
opponent's pile, rule:W-pile) and place it. The opponent's turn: :mod:`solver.wagons.opponent`.
Every decision is logged with the register id of the rule that made it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from solver.errors import BadInput
from solver.io import short_repr
from solver.wagons.data import WagonsData, load_data
from solver.wagons.opponent import add_to_pile, round1_decision, round2_decision
from solver.wagons.rules import Rules
from solver.wagons.scoring import FinalScores, final_scores, town_features
from solver.wagons.town import Placement, Town, legal_placements, placement_problem

__all__ = ["Draft", "Place", "OpponentTurn", "GameState", "LogEntry", "new_game", "legal_actions", "apply",
           "is_over", "scores", "action_to_dict", "action_from_dict", "draft_mismatch", "DEAL", "DRAFT_NOTES"]

DEAL = 8
"""Cards in the circle and in the preference deck at setup."""


@dataclass(frozen=True)
class Draft:
    """The player takes circle card ``index`` (0 = the next one), skipping the ones before it."""
    index: int


@dataclass(frozen=True)
class Place:
    """The player places the first card in hand."""
    placement: Placement


@dataclass(frozen=True)
class OpponentTurn:
    """Let the automated opponent draft (its only action)."""


Action = Draft | Place | OpponentTurn


@dataclass(frozen=True)
class LogEntry:
    turn: int
    round: int
    who: str     # "player", "opponent" or "game"
    what: str    # "setup", "draft", "place", "deal", "opponent-draft", "end-of-round-1"
    rule: str    # register id
    card: int | None = None
    skipped: tuple[int, ...] = ()
    deck_card: int | None = None
    placement: Placement | None = None
    note: str = ""

    def to_dict(self) -> dict:
        d = {"turn": self.turn, "round": self.round, "who": self.who, "what": self.what, "rule": self.rule}
        if self.card is not None:
            d["card"] = self.card
        if self.skipped:
            d["skipped"] = list(self.skipped)
        if self.deck_card is not None:
            d["deck_card"] = self.deck_card
        if self.placement is not None:
            d["placement"] = self.placement.to_dict()
        if self.note:
            d["note"] = self.note
        return d


@dataclass(frozen=True)
class GameState:
    scenario: str
    rules: Rules
    goal_cards: tuple[str, ...]
    removed: tuple[int, ...]        # fronts set aside with the goal cards (rule:W9)
    round: int
    turn: int
    to_move: str | None             # "player", "opponent", or None when the game is over
    circle: tuple[int, ...]         # remaining circle cards, the next one first
    deck: tuple[int, ...]           # preference deck, top first
    town: Town = field(default_factory=Town)
    pile: tuple[int, ...] = ()      # opponent's town, oldest first (last = top)
    hand: tuple[int, ...] = ()      # cards the player must place, in order
    drafted: bool = False           # the player has drafted this turn
    after_round_1: tuple[int, int] | None = None  # (player, opponent) territory counts
    log: tuple[LogEntry, ...] = ()
    seed: int | None = None
    data: WagonsData | None = field(default=None, compare=False, repr=False)
    """The cards, goals and scenarios this game is played and scored with (None = the shipped
    files): every draft, score and replay of the game reads this one source."""


def _goal_fronts(scenario_goals, data: WagonsData) -> tuple[int, ...]:
    removed = []
    for name in scenario_goals:
        fronts = [c.id for c in data.cards if c.back == name]
        if len(fronts) != 1:
            raise BadInput(f"cards.json: goal card '{name}' must be the back of exactly one front "
                           f"(found {len(fronts)}); fix back_unverified")
        removed.append(fronts[0])
    return tuple(removed)


def new_game(scenario_id: str, seed: int, rules: Rules = Rules(), data: WagonsData | None = None) -> GameState:
    """A shuffled solo setup (rule:W-setup): goal cards set aside (rule:W9), circle of 8, deck of 8."""
    data = data or load_data()
    scenario = data.scenario(scenario_id)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadInput(f"seed: expected a whole number, got {seed!r}")
    removed = _goal_fronts(scenario.goals, data)
    rest = [c.id for c in data.cards if c.id not in removed]
    random.Random(seed).shuffle(rest)
    if len(rest) != 2 * DEAL:
        raise BadInput(f"setup: expected {2 * DEAL} cards after setting the goal cards aside, got {len(rest)}")
    log = (LogEntry(0, 1, "game", "setup", "W-setup",
                    note=f"goal cards {', '.join(scenario.goals)} set aside with fronts {list(removed)}; "
                         f"circle {rest[:DEAL]}; deck {rest[DEAL:]} (top first)"),)
    return GameState(scenario.id, rules, scenario.goals, removed, 1, 1, "player", tuple(rest[:DEAL]),
                     tuple(rest[DEAL:]), log=log, seed=seed, data=data)


def is_over(state: GameState) -> bool:
    return state.to_move is None


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action now: placements of the first card in hand, drafts, or the opponent's turn."""
    if state.to_move is None:
        return ()
    if state.to_move == "opponent":
        return (OpponentTurn(),)
    if state.hand:
        return tuple(Place(p) for p in legal_placements(state.town, state.hand[0]))
    return tuple(Draft(k) for k in range(len(state.circle)))


def _end_turn(state: GameState) -> GameState:
    """Pass the turn; deal round 2 when the round-1 circle is empty (rule:W-rounds, rule:W10)."""
    other = "opponent" if state.to_move == "player" else "player"
    s = replace(state, to_move=other, drafted=False, turn=state.turn + 1)
    if not s.circle and s.round == 1:
        # rule:W5-boomtown: counts taken when the round-1 circle runs out (inferred); the player's
        # count is its visible territories, or 4 per card it holds (rules.boomtown_count)
        mine = town_features(s.town).territories if s.rules.boomtown_count == "visible" \
            else 4 * (len(s.town.placements) + len(s.hand))
        counts = (mine, 4 * len(s.pile))
        s = replace(s, round=2, circle=s.deck, deck=(), after_round_1=counts,
                    log=s.log + (LogEntry(s.turn, 2, "game", "deal", "W-rounds",
                                          note=f"round 2 circle {list(s.deck)}; territories after round 1: "
                                               f"player {counts[0]}, opponent {counts[1]}; {other} moves next (W10)"),))
    if not s.circle:
        s = replace(s, to_move="player" if s.hand else None)
    return s


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; BadInput when it is not legal now."""
    if state.to_move is None:
        raise BadInput("the game is over")
    if isinstance(action, OpponentTurn):
        if state.to_move != "opponent":
            raise BadInput("it is the player's turn")
        if state.round == 1:
            d = round1_decision(state.circle, state.deck[0] if state.deck else None, state.rules)
        else:
            d = round2_decision(state.circle, state.pile, state.scenario, state.rules, state.after_round_1, state.data)
        k = len(d.skipped)
        # rule:W3: on a round-1 match the pile order follows rules.match_order
        s = replace(state, circle=state.circle[k + 1:], pile=add_to_pile(state.pile, d, state.rules),
                    deck=state.deck[1:] if d.deck_card is not None else state.deck, hand=state.hand + d.skipped,
                    log=state.log + (LogEntry(state.turn, state.round, "opponent", "opponent-draft", d.rule, d.take,
                                              d.skipped, d.deck_card),))
        return _end_turn(s)
    if state.to_move != "player":
        raise BadInput("it is the opponent's turn")
    if isinstance(action, Draft):
        if state.hand:
            raise BadInput(f"place card {state.hand[0]} first (cards handed over are placed before drafting)")
        if state.drafted:
            raise BadInput("the player has already drafted this turn")
        k = action.index
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(state.circle):
            raise BadInput(f"draft: index {k!r} is not 0..{len(state.circle) - 1}")
        return replace(state, circle=state.circle[k + 1:], pile=state.pile + state.circle[:k],
                       hand=(state.circle[k],), drafted=True,
                       log=state.log + (LogEntry(state.turn, state.round, "player", "draft", "W-player-draft",
                                                 state.circle[k], state.circle[:k]),))
    if isinstance(action, Place):
        p = action.placement
        if not state.hand:
            raise BadInput("no card to place: draft first")
        if p.card != state.hand[0]:
            raise BadInput(f"card {p.card}: the card to place now is {state.hand[0]}")
        why = placement_problem(state.town, p)
        if why:
            raise BadInput(f"illegal placement: {why}")
        s = replace(state, town=Town(state.town.placements + (p,)), hand=state.hand[1:],
                    log=state.log + (LogEntry(state.turn, state.round, "player", "place", "W-place", p.card,
                                              placement=p),))
        if s.hand:
            return s
        if s.drafted:
            return _end_turn(s)
        if not s.circle:
            return replace(s, to_move=None)  # the last handed-over cards are placed: game over
        return s
    raise BadInput(f"unknown action {action!r}")


def scores(state: GameState) -> FinalScores:
    """Final scores of a finished game (or of the current position)."""
    return final_scores(state.town, state.pile, state.scenario, state.rules, state.data)


def action_to_dict(action: Action) -> dict:
    if isinstance(action, Draft):
        return {"draft": action.index}
    if isinstance(action, Place):
        return {"place": action.placement.to_dict()}
    return {"opponent": True}


DRAFT_NOTES = ("card", "skipped")
"""Keys a draft action may carry besides ``draft`` (as `wagons best-play --json` prints them): the
card drafted and the cards skipped; a replay checks them against the circle (:func:`draft_mismatch`)."""


def action_from_dict(d, what: str = "action") -> Action:
    """A player action from ``{"draft": k}`` (optionally with the ``card`` drafted and the cards
    ``skipped``, as best play prints them) or ``{"place": {"card", "x", "y", "rot"}}``."""
    if isinstance(d, dict) and "draft" in d and set(d) <= {"draft", *DRAFT_NOTES}:
        card, skipped = d.get("card"), d.get("skipped", [])
        if card is not None and (isinstance(card, bool) or not isinstance(card, int)):
            raise BadInput(f"{what}.card: expected a card id, got {short_repr(card, 40)}")
        if not isinstance(skipped, list) or any(isinstance(c, bool) or not isinstance(c, int) for c in skipped):
            raise BadInput(f"{what}.skipped: expected a list of card ids, got {short_repr(skipped, 40)}")
        return Draft(d["draft"])
    if isinstance(d, dict) and "place" in d and len(d) == 1 and isinstance(d["place"], dict):
        p = d["place"]
        missing = [k for k in ("card", "x", "y") if k not in p]
        if missing:
            raise BadInput(f"{what}.place: missing field '{missing[0]}'")
        return Place(Placement(p["card"], p["x"], p["y"], p.get("rot", 0)))
    raise BadInput(f"{what}: expected {{\"draft\": k}} or {{\"place\": {{card, x, y, rot}}}}, got {short_repr(d, 60)}")


def draft_mismatch(state: GameState, d: dict) -> str:
    """Why a recorded draft ``d`` (with its optional ``card`` / ``skipped`` notes) does not fit the
    circle of ``state`` ("" when it fits or carries no notes)."""
    k = d.get("draft")
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(state.circle):
        return ""  # the draft itself is checked by apply
    if "card" in d and d["card"] != state.circle[k]:
        return f"it drafts card {d['card']}, but card {state.circle[k]} is at index {k} of the circle now"
    if "skipped" in d and list(d["skipped"]) != list(state.circle[:k]):
        return f"it skips {list(d['skipped'])}, but the cards before index {k} are {list(state.circle[:k])}"
    return ""
