"""The measures of a finished Lone Cowboy position (the player's town and the opponent's pile), as the question engine
names them, each read from the engine's own scorer (:func:`~solver.wagons.scoring.score_player`,
:func:`~solver.wagons.scoring.score_opponent`, :func:`~solver.wagons.scoring.winner_of`).

Names: ``group.<terrain>`` (the largest group of each terrain), ``goal.<card>`` (the player's points from a goal
card, ``goal.gold-country``), ``opponent.goal.<card>``, ``opponent.common`` (its three most common terrains, or the
later edition's per-card points), ``player.total``, ``opponent.total``, ``margin``, ``winner`` (player / opponent /
tie), ``player.icon.<icon>`` and ``player.terrain.<terrain>`` (visible in the town), ``player.territories``,
``opponent.icon.<icon>``, ``opponent.terrain.<terrain>`` and ``opponent.territories`` (the pile's, 4 per card),
``player.cards`` and ``opponent.cards``, and ``card.<n>`` (where card n is: player, opponent or neither).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from solver.ask.model import Measure, Value
from solver.wagons.codes import GUN, ICONS, TERRAINS
from solver.wagons.data import WagonsData, load_data
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import (
    TownFeatures,
    pile_counts,
    score_opponent,
    score_player,
    winner_of,
)
from solver.wagons.town import Town

__all__ = ["slug", "position_measures", "position_values", "Position", "WHERE"]

WHERE = ("player", "opponent", "neither")
"""Where a card can be at the end: the player's town, the opponent's pile, or neither (set aside or not dealt)."""

_GOAL_RULE = {"Cool Water": "W-goal-cool-water", "Badlands": "W-goal-badlands", "Happy Cows": "W-goal-happy-cows",
              "Bootleggers": "W-goal-bootleggers", "One Too Many": "W-goal-one-too-many",
              "Gold Country": "W-goal-gold-country", "Prairie Life": "W-goal-prairie-life",
              "The Herd": "W-goal-the-herd", "Wagon Train": "W-goal-wagon-train",
              "Boom or Bust": "W-goal-boom-or-bust", "Claim Jumpers": "W-goal-claim-jumpers",
              "Smalltown Charm": "W-goal-smalltown-charm"}
"""Each goal card's register entry (rule:W7 for the player's two goal cards, rule:W6 for the opponent's readings)."""


def slug(name: str) -> str:
    """A goal card's or terrain's name as a measure word ("Gold Country" -> "gold-country")."""
    return name.lower().replace(" ", "-")


@dataclass(frozen=True)
class Position:
    """A finished position: the player's ``town`` (with its bitboards ``features``) and the opponent's ``pile``."""

    town: Town
    features: TownFeatures
    pile: tuple[int, ...]


def _n(name: str, label: str, source: str, low: int | None = 0, high: int | None = None, help: str = "") -> Measure:
    return Measure(name, label, "number", source, low, high, help=help)


def position_measures(scenario_id: str, data: WagonsData | None = None, cards_held: int = 16) -> dict[str, Measure]:
    """Every measure of a finished position in ``scenario_id`` (its two goal cards), by name; ``cards_held`` bounds
    the steppers (the player's cards at most)."""
    data = data or load_data()
    scenario = data.scenario(scenario_id)
    most = 4 * cards_held
    out: list[Measure] = []
    for t in TERRAINS:
        out.append(_n(f"group.{slug(t)}", f"the largest {t} group", "rule:W-groups", 0, most))
    for g in scenario.goals:
        rule = _GOAL_RULE.get(g, "W7")
        out.append(_n(f"goal.{slug(g)}", f"{g} points for you", f"rule:{rule}", None, None))
        out.append(_n(f"opponent.goal.{slug(g)}", f"{g} points for the opponent", "rule:W6", None, None))
    out += [
        _n("opponent.common", "the opponent's points from its three most common terrains", "rule:W-common", 0, 64,
           help="in the later edition, its points per card by distinct terrains (rule:W-later-scoring)"),
        _n("player.total", "your total", "rule:W7", None, None),
        _n("opponent.total", "the opponent's total", "rule:W6", None, None),
        _n("margin", "your margin (your total minus the opponent's)", "rule:W8", None, None),
        Measure("winner", "the winner", "choice", "rule:W8", choices=("player", "opponent", "tie")),
        _n("player.territories", "the territories showing in your town", "rule:W-cover", 0, most),
        _n("opponent.territories", "the territories in the opponent's pile", "rule:W-pile", 0, 64),
        _n("player.cards", "the cards in your town", "rule:W-place", 0, 16),
        _n("opponent.cards", "the cards in the opponent's pile", "rule:W-pile", 0, 16),
    ]
    for i in ICONS:
        out.append(_n(f"player.icon.{slug(i)}", f"the {i} icons showing in your town", "rule:W-cover", 0, most))
        out.append(_n(f"opponent.icon.{slug(i)}", f"the {i} icons in the opponent's pile", "rule:W-pile", 0, 64))
    for t in TERRAINS:
        out.append(_n(f"player.terrain.{slug(t)}", f"the {t} territories showing in your town", "rule:W-cover", 0,
                      most))
        out.append(_n(f"opponent.terrain.{slug(t)}", f"the {t} territories in the opponent's pile", "rule:W-pile", 0,
                      64))
    for c in range(len(data.cards)):
        out.append(Measure(f"card.{c}", f"where card {c} is", "choice", "rule:W-pile", choices=WHERE))
    return {m.name: m for m in out}


_BOTH = ("margin", "winner")
_PLAYER = ("group.", "goal.", "player.total") + _BOTH
_OPPONENT = ("opponent.goal.", "opponent.common", "opponent.total") + _BOTH
_COUNTS = ("player.icon.", "player.terrain.", "player.territories", "player.cards", "opponent.icon.",
           "opponent.terrain.", "opponent.territories", "opponent.cards", "card.")


def position_values(pos: Position, scenario_id: str, readings: WagonsReadings, data: WagonsData,
                    names: frozenset[str]) -> Mapping[str, Value]:
    """The values of the measures ``names`` on ``pos`` (each side's score only when one of its measures is named)."""
    out: dict[str, Value] = {}
    f = pos.features
    goals = data.scenario(scenario_id).goals
    player_total = opponent_total = 0  # both set whenever a measure of both sides is named (_BOTH is in each)
    if any(n.startswith(_PLAYER) for n in names):
        player = score_player(pos.town, scenario_id, pos.pile, readings, data, f)
        out.update({f"group.{slug(t)}": player.groups[t] for t in TERRAINS})
        out.update({f"goal.{slug(g)}": player.goals[g] for g in goals})
        out["player.total"] = player_total = player.total
    if any(n.startswith(_OPPONENT) for n in names):
        opponent = score_opponent(pos.pile, scenario_id, pos.town, readings, data, f)
        out.update({f"opponent.goal.{slug(g)}": opponent.goals[g] for g in goals})
        out["opponent.common"] = opponent.common
        out["opponent.total"] = opponent_total = opponent.total
    if any(n.startswith(_BOTH) for n in names):
        out["margin"] = player_total - opponent_total
        guns_o = pile_counts(pos.pile).icon[GUN]
        out["winner"] = str(winner_of(player_total, opponent_total, f.icon[GUN].bit_count(), guns_o, readings)[0])
    if any(n.startswith(_COUNTS) for n in names):
        pc = pile_counts(pos.pile)
        out["player.territories"] = f.occupied.bit_count()
        out["opponent.territories"] = pc.territories
        out["player.cards"] = len(pos.town.placements)
        out["opponent.cards"] = len(pos.pile)
        for k, i in enumerate(ICONS):
            out[f"player.icon.{slug(i)}"] = f.icon[k].bit_count()
            out[f"opponent.icon.{slug(i)}"] = pc.icon[k]
        for k, t in enumerate(TERRAINS):
            out[f"player.terrain.{slug(t)}"] = f.terrain[k].bit_count()
            out[f"opponent.terrain.{slug(t)}"] = pc.terrain[k]
        held, piled = set(pos.town.card_ids), set(pos.pile)
        for c in range(len(data.cards)):
            out[f"card.{c}"] = "player" if c in held else "opponent" if c in piled else "neither"
    return {n: out[n] for n in names}
