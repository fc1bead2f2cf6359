"""The lone ranger's decision on a position: which card row, whom he heads for, what he does.

A position JSON (``docs/cactus.md``) holds the town, the standees, the targets and the card the
user reveals, typed as printed (``icons.py`` syntax); nothing of the card is invented here.
rule:C9 chooses the row (visible target or not), rule:C6 the closest outlaw, rule:C-icon-sequence
resolves the row into actions with exact chances; a duel's chances come from ``duel.py``
(rule:C-duel) and a lost duel pushes him (rule:C11).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from solver.cactus import icons
from solver.cactus import town as tw
from solver.cactus.duel import affects_duels, duel_odds
from solver.cactus.events import round_effects, table
from solver.cactus.readings import CactusReadings, frac_str
from solver.errors import BadInput
from solver.io.numbers import short_repr
from solver.io.read import as_int, read_json

KNOWN_KEYS = {"format", "note", "town", "ranger", "outlaws", "targets", "card", "event", "rules", "duel", "came_from"}
DUEL_KEYS = ("ranger_shot", "outlaw_shot", "ranger_bonus", "outlaw_bonus")


def turn_from(position: dict, event: str | None, readings: CactusReadings) -> icons.Turn:
    """rule:C-duel the chances of a duel he starts this turn (``position.duel``: second shots and
    token/building bonuses, default 0; the round's event if it changes duels) and rule:C11 the
    building he entered his own from (``position.came_from``)."""
    raw = position.get("duel", {})
    if not isinstance(raw, dict):
        raise BadInput("position.duel: expected an object with " + ", ".join(DUEL_KEYS))
    for key in raw:
        if key not in DUEL_KEYS:
            raise BadInput(f"position.duel: unknown key '{key}' (known: {', '.join(DUEL_KEYS)})")
    lo, hi = {"ranger_shot": (0, 99), "outlaw_shot": (0, 99)}, (-20, 20)
    v = {k: as_int(raw.get(k, 0), f"position.duel.{k}", *lo.get(k, hi)) for k in DUEL_KEYS}
    events = (event,) if event is not None and affects_duels(event) else ()
    odds = duel_odds(v["ranger_shot"], v["outlaw_shot"], events, v["ranger_bonus"], v["outlaw_bonus"], readings=readings)
    came = position.get("came_from")
    came_cell = None
    if came is not None:
        came_cell = tw.cell_from(came, "position.came_from")
        ranger = tw.cell_from(position.get("ranger", list(tw.CENTRE)), "position.ranger")
        if came_cell not in tw.adjacent(ranger):
            raise BadInput("position.came_from: expected a building orthogonally next to the lone ranger's")
    return icons.Turn(Fraction(odds["win"]), Fraction(odds["lose"]), came_cell)


def _checked(position: Any, readings: CactusReadings | None) -> tuple[tw.Town, icons.Card, str | None, CactusReadings,
                                                                 icons.Turn]:
    """Every check of a position document (docs/cactus.md): its keys, readings, town, card, event,
    duel figures and the building he came from."""
    if not isinstance(position, dict):
        raise BadInput("position: expected a JSON object")
    unknown = sorted(set(position) - KNOWN_KEYS)
    if unknown:
        raise BadInput(f"position: unknown key {short_repr(unknown[0], 40)} (known: {', '.join(sorted(KNOWN_KEYS))})")
    overrides = position.get("rules", {})
    if not isinstance(overrides, dict):
        raise BadInput("position.rules: expected an object of option: value")
    own = CactusReadings.from_json(overrides)  # the document's own readings are checked even when the caller gives readings
    readings = readings or own
    town = tw.town_from_dict(position)
    if "card" not in position:
        raise BadInput("position: missing field 'card' (the action card row(s) as printed)")
    card = icons.parse_card(position["card"], "position.card")
    event = position.get("event")
    if event is not None:
        if not isinstance(event, str):
            raise BadInput("position.event: expected an event key such as 'train'")
        event = table().get(event).key
    return town, card, event, readings, turn_from(position, event, readings)


def position_from_json(doc: Any) -> dict:
    """A position document checked exactly as ``cactus ranger`` checks it, returned complete (the
    lone ranger's default cell filled in, the card as ``VISIBLE | NO VISIBLE`` text); never reads a file."""
    town = _checked(doc, None)[0]
    card = doc["card"]
    if isinstance(card, dict):
        card = f"{card['visible']} | {card['no_visible']}"
    out = {k: doc[k] for k in ("format", "note") if isinstance(doc.get(k), str)}
    extra = {k: doc[k] for k in ("duel", "came_from") if k in doc}
    return out | tw.town_to_dict(town) | {"card": card, "event": doc.get("event"),
                                          "rules": dict(doc.get("rules", {}))} | extra


def read_position(path: str) -> dict:
    """A position file on this machine (the CLI's argument), checked by :func:`position_from_json`."""
    return position_from_json(read_json(path))


def decide(position: Any, readings: CactusReadings | None = None) -> dict:
    """The lone ranger's turn on ``position`` (a dict as in the JSON file) as a JSON-ready dict."""
    town, card, event, readings, turn = _checked(position, readings)
    visible = tw.visible_targets(town, readings)
    row = card.visible if visible else card.no_visible
    dist, tied = tw.closest_outlaws(town)
    return {
        "visible_target": bool(visible),
        "visible": visible,
        "row": "visible" if visible else "no_visible",
        "sequence": icons.sequence_text(row),
        "closest": {"distance": dist, "outlaws": [o.name for o in tied],
                    "tie": len(tied) > 1,
                    "note": "the target is drawn at random among them, then the icon is carried out toward it "
                            "(rule C6)" if len(tied) > 1 else ""},
        "sharing": [o.name for o in tw.sharing(town)],
        "outcomes": icons.resolve_sequence(town, row, readings, turn),
        "duel": {"win": frac_str(turn.win), "lose": frac_str(turn.lose), "tie": frac_str(turn.tie)},
        "moves": tw.movement_summary(town, readings),
        "effects": round_effects(event).to_dict(),
        "rules": readings.to_json(),
    }

