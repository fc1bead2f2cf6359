"""Draft lines of a known deal (rule:W-opt-bestplay): the set-up of a deal, every distinct sequence of the
player's draft choices, the greedy baseline and the replay of a line with a town through the engine.

Why a deal decomposes into lines: the opponent's drafts (rule:W1, rule:W4, rule:W5) read the circle,
the preference deck and its own pile, never the player's town, except Boomtown's round-2 rule, which
reads the territory counts after round 1 (rule:W5-boomtown). So a *draft line* (the player's draft
choice at each of their turns) fixes the order in which the player receives cards and the opponent's
final pile; for Boomtown (``boomtown_count="visible"``) each line is split in two by whether the
opponent ends round 1 behind or not, and that becomes a constraint on the town after the first ``m``
cards (``Line.round1``). With ``boomtown_count="cards"`` the counts follow from the cards alone: no split.
Where the player's cards lie never changes a draft otherwise (``tests/wagons/optimizer/test_canwin.py`` replays
lines with different towns and checks the opponent's pile is the same).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from solver.errors import BadInput
from solver.stopping import capped
from solver.wagons.data import WagonsData, load_data
from solver.wagons.game import Draft, GameState, Place, apply, is_over, legal_actions, new_game, scores
from solver.wagons.policies import GreedyPolicy
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import deal_start
from solver.wagons.simulate import MAX_STEPS, policy_rng
from solver.wagons.town import Town

__all__ = ["Line", "Lines", "deal_state", "draft_lines", "greedy_margin", "greedy_scores", "play_out", "entry_action"]


@dataclass(frozen=True)
class Line:
    """One sequence of player draft choices and what it implies (rule:W-opt-bestplay)."""

    drafts: tuple[int, ...]            # Draft index at each player turn
    cards: tuple[int, ...]             # the player's cards in placement order
    pile: tuple[int, ...]              # the opponent's final pile, oldest first
    round1: tuple[int, int, bool] | None = None  # Boomtown: (cards placed, opponent territories, behind)


def deal_state(scenario_id: str, seed: int | None = None, circle: Sequence[int] | None = None,
               deck: Sequence[int] | None = None, readings: WagonsReadings = WagonsReadings(), data: WagonsData | None = None
               ) -> GameState:
    """The starting state of a known deal: a seed (rule:W-setup) or an explicit circle and deck."""
    data = data or load_data()
    if circle is None and deck is None:
        if seed is None:
            raise BadInput("give a seed, or an explicit circle and preference deck")
        return new_game(scenario_id, seed, readings, data)
    if circle is None:
        raise BadInput("an explicit deal needs the circle (and the preference deck, top first)")
    return deal_start(scenario_id, circle, deck, readings, seed, data)


def _boomtown(state: GameState, data: WagonsData) -> bool:
    return data.scenario(state.scenario).draft.kind == "skip-if-behind"


class Lines(list):
    """The draft lines found; ``complete`` is False when a deadline cut the enumeration short."""

    complete = True


def draft_lines(state: GameState, data: WagonsData | None = None, max_lines: int = 20000,
                deadline: float | None = None) -> list[Line]:
    """Every distinct draft line from ``state`` (a fresh deal); placements are deferred. With a
    ``deadline`` (time.monotonic), the lines found by then (at least one; ``complete`` False)."""
    data = data or load_data()
    boom = _boomtown(state, data)
    out: dict[tuple, Line] = {}

    def walk(s: GameState, drafts: tuple[int, ...], round1):
        for _ in range(MAX_STEPS):
            if out and deadline is not None and time.monotonic() > capped(deadline):
                raise _OutOfTime
            if is_over(s):
                key = (s.town.card_ids, tuple(sorted(s.pile)), round1)
                if key not in out:
                    if len(out) >= max_lines:
                        raise BadInput(f"deal: more than {max_lines} draft lines; give a smaller deal")
                    out[key] = Line(drafts, s.town.card_ids, s.pile, round1)
                return
            before = s.round
            if s.to_move == "opponent":
                s = apply(s, legal_actions(s)[0])
            elif s.hand:  # any legal spot: where cards lie does not change the drafts (except Boomtown)
                s = apply(s, legal_actions(s)[0])
            else:
                for a in legal_actions(s):
                    walk(apply(s, a), drafts + (a.index,), round1)
                return
            if boom and before == 1 and s.round == 2 and round1 is None and state.readings.boomtown_count == "visible":
                # rule:W5-boomtown: split on the opponent being behind after round 1 or not (counting
                # 4 per card, the counts are known from the cards alone: no split)
                m, opp = len(s.town.placements), 4 * len(s.pile)
                for behind in (True, False):
                    forced = replace(s, after_round_1=(opp if behind else opp - 1, opp))
                    walk(forced, drafts, (m, opp, behind))
                return
        raise BadInput("deal: a game did not finish")

    found = Lines()
    try:
        walk(state, (), None)
    except _OutOfTime:
        found.complete = False
    found.extend(out.values())
    return found


class _OutOfTime(Exception):
    """The enumeration's deadline passed (it is not a proof over every line any more)."""


def greedy_scores(state: GameState):
    """The final scores the greedy policy reaches on this deal (the rules-following baseline)."""
    pol = GreedyPolicy()
    rng = policy_rng(state.seed if state.seed is not None else 0)
    s = state
    for _ in range(MAX_STEPS):
        if is_over(s):
            return scores(s)
        actions = legal_actions(s)
        s = apply(s, actions[0] if s.to_move == "opponent" else pol.choose(s, actions, rng))
    raise BadInput("greedy game did not finish")


def greedy_margin(state: GameState) -> int:
    """The margin the greedy policy reaches on this deal."""
    return greedy_scores(state).margin


def play_out(state: GameState, line: Line, town: Town) -> GameState:
    """Replay ``line`` with ``town``'s placements through the engine (checks every step)."""
    drafts = list(line.drafts)
    places = list(town.placements)
    s = state
    for _ in range(MAX_STEPS):
        if is_over(s):
            return s
        if s.to_move == "opponent":
            s = apply(s, legal_actions(s)[0])
        elif s.hand:
            s = apply(s, Place(places.pop(0)))
        else:
            s = apply(s, Draft(drafts.pop(0)))
    raise BadInput("replay did not finish")


def entry_action(e) -> dict:
    if e.what == "draft":
        return {"draft": len(e.skipped), "card": e.card, "skipped": list(e.skipped)}
    return {"place": e.placement.to_dict()}


