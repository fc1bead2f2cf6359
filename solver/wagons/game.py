"""Whole solo games: setup, turns, rounds, the player's actions and the opponent's drafts.

Frozen :class:`GameState` with pure ``apply(state, action)`` and ``legal_actions(state)``.
Setup (rule:W-setup, rule:W9): the scenario's two goal cards set aside with their fronts, the
other 16 shuffled by the seed, 8 form the circle and 8 the preference deck. Turns (rule:W-rounds,
rule:W10): the player first, then alternating, round 2 from the remaining deck cards without
resetting the turn order. The player's turn (rule:W-player-draft): first place the cards the
opponent skipped (circle order), then draft one circle card (the cards skipped go onto the
opponent's pile, rule:W-pile) and place it. The opponent's turn: :mod:`solver.wagons.opponent`.
Every decision is logged with the register id of the rule that made it.

Chance (rule:W-reveal), as OpenSpiel's chance nodes: a *followed* game (:func:`new_followed_game`,
seed None) starts with its deal unknown. Whenever a card must be seen before anyone can act,
``to_move`` is ``"chance"`` and the legal actions are ``Reveal(c)`` for every unseen card (uniform,
:func:`chance_outcomes`): the 8 circle cards at setup (circle order, the next one first), the
preference deck's top card (it shows from setup and again once a round-1 match takes it), and the
round-2 circle when it is dealt. A seeded game (:func:`new_game`) is fully dealt: no chance nodes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from fractions import Fraction

from solver.contract import Outcome
from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.io.read import as_int
from solver.wagons.data import WagonsData, load_data
from solver.wagons.opponent import add_to_pile, round1_decision, round2_decision
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import FinalScores, Winner, final_scores, town_features
from solver.wagons.town import Placement, Town, legal_placements, placement_problem

__all__ = ["Draft", "Place", "OpponentTurn", "Reveal", "Action", "GameState", "LogEntry", "new_game",
           "new_followed_game", "initial_state", "legal_actions", "apply", "replay", "outcomes", "is_over",
           "is_terminal", "is_chance_node", "chance_outcomes", "unseen_cards", "winner", "outcome", "scores",
           "action_to_dict", "action_from_dict", "actions_from_log", "draft_mismatch", "goal_fronts", "DEAL", "DRAFT_NOTES", "CHANCE"]

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


@dataclass(frozen=True)
class Reveal:
    """A chance action (rule:W-reveal): the next unseen card turns out to be ``card``."""
    card: int


Action = Draft | Place | OpponentTurn | Reveal

CHANCE = "chance"
"""``GameState.to_move`` while a card must be revealed before anyone can act."""


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
    readings: WagonsReadings
    goal_cards: tuple[str, ...]
    removed: tuple[int, ...]        # fronts set aside with the goal cards (rule:W9)
    round: int
    turn: int
    to_move: str | None             # "player", "opponent", "chance" (a card to reveal) or None when over
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
    hidden_circle: int = 0          # circle cards still to reveal, after the known ones (rule:W-reveal)
    hidden_deck: int = 0            # preference deck cards not seen yet, under the known ones
    resume: str | None = None       # who moves once the reveals are done (while to_move is "chance")


def goal_fronts(scenario_goals, data: WagonsData) -> tuple[int, ...]:
    """The fronts of the scenario's goal cards, set aside at set-up (rule:W9)."""
    removed = []
    for name in scenario_goals:
        fronts = [c.id for c in data.cards if c.back == name]
        if len(fronts) != 1:
            raise BadInput(f"cards.json: goal card '{name}' must be the back of exactly one front "
                           f"(found {len(fronts)}); fix back_unverified")
        removed.append(fronts[0])
    return tuple(removed)


def new_game(scenario_id: str, seed: int, readings: WagonsReadings = WagonsReadings(), data: WagonsData | None = None) -> GameState:
    """A shuffled solo setup (rule:W-setup): goal cards set aside (rule:W9), circle of 8, deck of 8."""
    data = data or load_data()
    scenario = data.scenario(scenario_id)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadInput(f"seed: expected a whole number, got {seed!r}")
    removed = goal_fronts(scenario.goals, data)
    rest = [c.id for c in data.cards if c.id not in removed]
    random.Random(seed).shuffle(rest)
    if len(rest) != 2 * DEAL:
        raise BadInput(f"setup: expected {2 * DEAL} cards after setting the goal cards aside, got {len(rest)}")
    log = (LogEntry(0, 1, "game", "setup", "W-setup",
                    note=f"goal cards {', '.join(scenario.goals)} set aside with fronts {list(removed)}; "
                         f"circle {rest[:DEAL]}; deck {rest[DEAL:]} (top first)"),)
    return GameState(scenario.id, readings, scenario.goals, removed, 1, 1, "player", tuple(rest[:DEAL]),
                     tuple(rest[DEAL:]), log=log, seed=seed, data=data)


def new_followed_game(scenario_id: str, readings: WagonsReadings = WagonsReadings(), data: WagonsData | None = None) -> GameState:
    """A solo game whose deal is unknown (rule:W-setup, rule:W-reveal): the goal cards' fronts set
    aside (rule:W9), 8 circle cards and the 8 preference deck cards still to be revealed."""
    data = data or load_data()
    scenario = data.scenario(scenario_id)
    removed = goal_fronts(scenario.goals, data)
    if len(data.cards) - len(removed) != 2 * DEAL:
        raise BadInput(f"setup: expected {2 * DEAL} cards after setting the goal cards aside, "
                       f"got {len(data.cards) - len(removed)}")
    log = (LogEntry(0, 1, "game", "setup", "W-setup",
                    note=f"goal cards {', '.join(scenario.goals)} set aside with fronts {list(removed)}; "
                         f"followed game: the circle of {DEAL} and the preference deck of {DEAL} are revealed "
                         f"as they are seen"),)
    return GameState(scenario.id, readings, scenario.goals, removed, 1, 1, CHANCE, (), (), log=log, seed=None,
                     data=data, hidden_circle=DEAL, hidden_deck=DEAL, resume="player")


def initial_state(seed: int = 0, readings: WagonsReadings = WagonsReadings(), scenario: str = "boomtown") -> GameState:
    """The game contract's set-up: :func:`new_game` for ``scenario`` shuffled by ``seed``."""
    return new_game(scenario, seed, readings)


def is_over(state: GameState) -> bool:
    return state.to_move is None


is_terminal = is_over


def winner(state: GameState) -> Winner | None:
    """"player", "opponent" or "tie" once the game is over (rule:W8; a :class:`Winner`), else None."""
    return scores(state).winner if is_over(state) else None


def outcome(state: GameState) -> Outcome | None:
    """Who won and what decided it (rule:W8) once the game is over, else None."""
    return scores(state).outcome if is_over(state) else None


def is_chance_node(state: GameState) -> bool:
    """A card must be revealed before anyone can act (rule:W-reveal)."""
    return state.to_move == CHANCE


def _places(state: GameState) -> dict[str, tuple[int, ...]]:
    return {"set aside with the goal cards": state.removed, "in the circle": state.circle,
            "in the preference deck": state.deck, "in the player's town": state.town.card_ids,
            "in the opponent's town": state.pile, "in the player's hand": state.hand}


def unseen_cards(state: GameState) -> tuple[int, ...]:
    """The cards not seen yet (not set aside, not in circle, deck, town, pile or hand), in id order."""
    n = len((state.data or load_data()).cards)
    seen = {c for cards in _places(state).values() for c in cards}
    return tuple(c for c in range(n) if c not in seen)


def chance_outcomes(state: GameState) -> list[tuple[Fraction, Reveal]]:
    """At a chance node, every unseen card with its exact chance (uniform: the deal was shuffled,
    rule:W-setup); BadInput elsewhere."""
    if not is_chance_node(state):
        raise BadInput(f"not a chance node: {state.to_move or 'nobody'} is to move")
    cards = unseen_cards(state)
    return [(Fraction(1, len(cards)), Reveal(c)) for c in cards]


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every legal action now: reveals of the unseen cards at a chance node, placements of the first
    card in hand, drafts, or the opponent's turn."""
    if state.to_move is None:
        return ()
    if state.to_move == CHANCE:
        return tuple(Reveal(c) for c in unseen_cards(state))
    if state.to_move == "opponent":
        return (OpponentTurn(),)
    if state.hand:
        return tuple(Place(p) for p in legal_placements(state.town, state.hand[0]))
    return tuple(Draft(k) for k in range(len(state.circle)))


def _end_turn(state: GameState) -> GameState:
    """Pass the turn; deal round 2 when the round-1 circle is empty (rule:W-rounds, rule:W10)."""
    other = "opponent" if state.to_move == "player" else "player"
    s = replace(state, to_move=other, drafted=False, turn=state.turn + 1)
    if not s.circle and not s.hidden_circle and s.round == 1:
        # rule:W5-boomtown: counts taken when the round-1 circle runs out (inferred); the player's
        # count is its visible territories, or 4 per card it holds (rules.boomtown_count)
        mine = town_features(s.town).territories if s.readings.boomtown_count == "visible" \
            else 4 * (len(s.town.placements) + len(s.hand))
        counts = (mine, 4 * len(s.pile))
        hidden = f" and {s.hidden_deck} cards to reveal (W-reveal)" if s.hidden_deck else ""
        s = replace(s, round=2, circle=s.deck, deck=(), hidden_circle=s.hidden_deck, hidden_deck=0,
                    after_round_1=counts,
                    log=s.log + (LogEntry(s.turn, 2, "game", "deal", "W-rounds",
                                          note=f"round 2 circle {list(s.deck)}{hidden}; territories after round 1: "
                                               f"player {counts[0]}, opponent {counts[1]}; {other} moves next (W10)"),))
    if not s.circle and not s.hidden_circle:
        s = replace(s, to_move="player" if s.hand else None)
    return s


def _needs_reveal(s: GameState) -> bool:
    """A card must be seen before anyone acts (rule:W-reveal): a circle card still face down, or in
    round 1 the preference deck's top card (the opponent's round-1 draft matches it, rule:W1)."""
    return s.hidden_circle > 0 or (s.round == 1 and not s.deck and s.hidden_deck > 0)


def _settle(s: GameState) -> GameState:
    """Hand the move to chance while a card must be revealed (rule:W-reveal)."""
    if s.to_move in ("player", "opponent") and _needs_reveal(s):
        return replace(s, to_move=CHANCE, resume=s.to_move)
    return s


def _apply_reveal(state: GameState, card) -> GameState:
    """The next unseen card is ``card``: the next circle card, else the deck's new top (rule:W-reveal)."""
    if state.to_move != CHANCE:
        raise BadInput(f"nothing to reveal now: it is the {state.to_move}'s turn")
    if isinstance(card, bool) or not isinstance(card, int):
        raise BadInput(f"reveal: expected a card id, got {short_repr(card)}")
    if card not in unseen_cards(state):
        where = next((w for w, cards in _places(state).items() if card in cards), None)
        n = len((state.data or load_data()).cards)
        raise BadInput(f"reveal: card {card} is {where}" if where else f"reveal: no card {card} (cards are 0..{n - 1})")
    if state.hidden_circle:
        s = replace(state, circle=state.circle + (card,), hidden_circle=state.hidden_circle - 1)
        note = f"circle card {len(s.circle)}"
    else:
        s = replace(state, deck=state.deck + (card,), hidden_deck=state.hidden_deck - 1)
        note = "the preference deck's top card"
    s = replace(s, log=s.log + (LogEntry(s.turn, s.round, "game", "reveal", "W-reveal", card, note=note),))
    return s if _needs_reveal(s) else replace(s, to_move=s.resume, resume=None)


def _apply_opponent(state: GameState) -> GameState:
    """The opponent's draft (rule:W1 in round 1, rule:W5 / rule:W4 in round 2)."""
    if state.round == 1:
        d = round1_decision(state.circle, state.deck[0] if state.deck else None, state.readings)
    else:
        d = round2_decision(state.circle, state.pile, state.scenario, state.readings, state.after_round_1, state.data)
    k = len(d.skipped)
    # rule:W3: on a round-1 match the pile order follows rules.match_order
    s = replace(state, circle=state.circle[k + 1:], pile=add_to_pile(state.pile, d, state.readings),
                deck=state.deck[1:] if d.deck_card is not None else state.deck, hand=state.hand + d.skipped,
                log=state.log + (LogEntry(state.turn, state.round, "opponent", "opponent-draft", d.rule, d.take,
                                          d.skipped, d.deck_card),))
    return _end_turn(s)


def _apply_draft(state: GameState, k) -> GameState:
    """The player drafts circle card ``k``; the cards before it go to the opponent (rule:W-player-draft)."""
    if state.hand:
        raise BadInput(f"place card {state.hand[0]} first (cards handed over are placed before drafting)")
    if state.drafted:
        raise BadInput("the player has already drafted this turn")
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(state.circle):
        raise BadInput(f"draft: index {k!r} is not 0..{len(state.circle) - 1}")
    return replace(state, circle=state.circle[k + 1:], pile=state.pile + state.circle[:k],
                   hand=(state.circle[k],), drafted=True,
                   log=state.log + (LogEntry(state.turn, state.round, "player", "draft", "W-player-draft",
                                             state.circle[k], state.circle[:k]),))


def _apply_place(state: GameState, p: Placement) -> GameState:
    """The player places the first card in hand (rule:W-place); the turn ends after the drafted card."""
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
    if not s.circle and not s.hidden_circle:
        return replace(s, to_move=None)  # the last handed-over cards are placed: game over
    return s


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; BadInput when it is not legal now."""
    if state.to_move is None:
        raise BadInput("the game is over")
    if isinstance(action, Reveal):
        return _apply_reveal(state, action.card)
    if state.to_move == CHANCE:
        raise BadInput(f"a card must be revealed first ({'a circle card' if state.hidden_circle else 'the preference deck top'})")
    if isinstance(action, OpponentTurn):
        if state.to_move != "opponent":
            raise BadInput("it is the player's turn")
        return _settle(_apply_opponent(state))
    if state.to_move != "player":
        raise BadInput("it is the opponent's turn")
    if isinstance(action, Draft):
        return _settle(_apply_draft(state, action.index))
    if isinstance(action, Place):
        return _settle(_apply_place(state, action.placement))
    raise BadInput(f"unknown action {short_repr(action)}")


def replay(start: GameState, actions) -> GameState:
    """``start`` after each of ``actions`` in turn; BadInput names the first that fails (``actions[i]``)."""
    state = start
    for i, action in enumerate(actions):
        try:
            state = apply(state, action)
        except BadInput as exc:
            raise BadInput(f"actions[{i}] ({short_repr(action_to_dict(action), 60)}): {exc}") from None
    return state


def outcomes(state: GameState, action: Action) -> list[tuple[Fraction, GameState]]:
    """The game contract's view of ``action``: one certain outcome. The opponent's draft follows its
    rules (rule:W1, rule:W5); chance is OpenSpiel's: at a chance node the actions are the reveals,
    drawn with :func:`chance_outcomes`, and each reveal's outcome is certain (rule:W-reveal)."""
    return [(Fraction(1), apply(state, action))]


def scores(state: GameState) -> FinalScores:
    """Final scores of a finished game (or of the current position)."""
    return final_scores(state.town, state.pile, state.scenario, state.readings, state.data)


def action_to_dict(action: Action) -> dict:
    if isinstance(action, Draft):
        return {"draft": action.index}
    if isinstance(action, Place):
        return {"place": action.placement.to_dict()}
    if isinstance(action, Reveal):
        return {"reveal": action.card}
    if isinstance(action, OpponentTurn):
        return {"opponent": True}
    raise BadInput(f"unknown action {short_repr(action)}")


DRAFT_NOTES = ("card", "skipped")
"""Keys a draft action may carry besides ``draft`` (as `wagons best-play --json` prints them): the
card drafted and the cards skipped; a replay checks them against the circle (:func:`draft_mismatch`)."""


def action_from_dict(d, what: str = "action") -> Action:
    """An action from ``{"draft": k}`` (optionally with the ``card`` drafted and the cards
    ``skipped``, as best play prints them), ``{"place": {"card", "x", "y", "rot"}}``, the opponent's
    turn ``{"opponent": true}`` or a chance action ``{"reveal": card}``."""
    if d == {"opponent": True} and d["opponent"] is True:
        return OpponentTurn()
    if isinstance(d, dict) and set(d) == {"reveal"}:
        return Reveal(as_int(d["reveal"], f"{what}.reveal", 0, 99))
    if isinstance(d, dict) and "draft" in d and set(d) <= {"draft", *DRAFT_NOTES}:
        card, skipped = d.get("card"), d.get("skipped", [])
        if card is not None and (isinstance(card, bool) or not isinstance(card, int)):
            raise BadInput(f"{what}.card: expected a card id, got {short_repr(card, 40)}")
        if not isinstance(skipped, list) or any(isinstance(c, bool) or not isinstance(c, int) for c in skipped):
            raise BadInput(f"{what}.skipped: expected a list of card ids, got {short_repr(skipped, 40)}")
        return Draft(as_int(d["draft"], f"{what}.draft", 0, 99))
    if isinstance(d, dict) and "place" in d and len(d) == 1 and isinstance(d["place"], dict):
        p = d["place"]
        missing = [k for k in ("card", "x", "y") if k not in p]
        if missing:
            raise BadInput(f"{what}.place: missing field '{missing[0]}'")
        return Place(Placement(p["card"], p["x"], p["y"], p.get("rot", 0)))
    raise BadInput(f"{what}: expected {{\"draft\": k}}, {{\"place\": {{card, x, y, rot}}}}, {{\"opponent\": true}} "
                   f"or {{\"reveal\": card}}, "
                   f"got {short_repr(d, 60)}")


def actions_from_log(state: GameState) -> tuple[Action, ...]:
    """The actions that led to ``state``, read back from its log (setup and deals are not actions)."""
    out: list[Action] = []
    for e in state.log:
        if e.what == "draft":
            out.append(Draft(len(e.skipped)))
        elif e.what == "place" and e.placement is not None:
            out.append(Place(e.placement))
        elif e.what == "opponent-draft":
            out.append(OpponentTurn())
        elif e.what == "reveal" and e.card is not None:
            out.append(Reveal(e.card))
    return tuple(out)


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
