"""The lone ranger's decision on a position: which card row, whom he heads for, what he does.

A position JSON (``docs/cactus.md``) holds the town, the standees, the targets and the card the
user reveals, typed as printed (``icons.py`` syntax); nothing of the card is invented here.
rule:C9 chooses the row (visible target or not), rule:C6 the closest outlaw, rule:C-icon-sequence
resolves the row into actions with exact chances.
"""

from __future__ import annotations

from typing import Any

from solver.cactus import icons
from solver.cactus import town as tw
from solver.cactus.events import round_effects, table
from solver.cactus.rules import CactusRules, rules_from
from solver.errors import BadInput
from solver.io import read_json, short_repr

KNOWN_KEYS = {"format", "note", "town", "ranger", "outlaws", "targets", "card", "event", "rules"}


def _checked(position: Any, rules: CactusRules | None) -> tuple[tw.Town, icons.Card, str | None, CactusRules]:
    """Every check of a position document (docs/cactus.md): its keys, readings, town, card, event."""
    if not isinstance(position, dict):
        raise BadInput("position: expected a JSON object")
    unknown = sorted(set(position) - KNOWN_KEYS)
    if unknown:
        raise BadInput(f"position: unknown key {short_repr(unknown[0], 40)} (known: {', '.join(sorted(KNOWN_KEYS))})")
    overrides = position.get("rules", {})
    if not isinstance(overrides, dict):
        raise BadInput("position.rules: expected an object of option: value")
    own = rules_from(overrides)
    town = tw.town_from_dict(position)
    if "card" not in position:
        raise BadInput("position: missing field 'card' (the action card row(s) as printed)")
    card = icons.parse_card(position["card"], "position.card")
    event = position.get("event")
    if event is not None:
        if not isinstance(event, str):
            raise BadInput("position.event: expected an event key such as 'train'")
        table().get(event)
    return town, card, event, rules or own


def position_from_json(doc: Any) -> dict:
    """A position document checked exactly as ``cactus ranger`` checks it, returned complete (the
    lone ranger's default cell filled in, the card as ``VISIBLE | NO VISIBLE`` text); never reads a file."""
    _checked(doc, None)
    town = tw.town_from_dict(doc)
    card = doc["card"]
    if isinstance(card, dict):
        card = f"{card['visible']} | {card['no_visible']}"
    out = {k: doc[k] for k in ("format", "note") if isinstance(doc.get(k), str)}
    return out | tw.town_to_dict(town) | {"card": card, "event": doc.get("event"), "rules": dict(doc.get("rules", {}))}


def read_position(path: str) -> dict:
    """A position file on this machine (the CLI's argument), checked by :func:`position_from_json`."""
    return position_from_json(read_json(path))


def decide(position: Any, rules: CactusRules | None = None) -> dict:
    """The lone ranger's turn on ``position`` (a dict as in the JSON file) as a JSON-ready dict."""
    town, card, event, rules = _checked(position, rules)
    visible = tw.visible_targets(town, rules)
    row = card.visible if visible else card.no_visible
    dist, tied = tw.closest_outlaws(town)
    return {
        "visible_target": bool(visible),
        "visible": visible,
        "row": "visible" if visible else "no_visible",
        "sequence": icons.sequence_text(row),
        "closest": {"distance": dist, "outlaws": [o.name for o in tied],
                    "tie": len(tied) > 1, "note": "ties are broken at random (rule C6)" if len(tied) > 1 else ""},
        "sharing": [o.name for o in tw.sharing(town)],
        "outcomes": icons.resolve_sequence(town, row, rules),
        "moves": tw.movement_summary(town, rules),
        "effects": round_effects(event).to_dict(),
        "rules": rules.to_dict(),
    }


def decide_file(path: str, rules: CactusRules | None = None) -> dict:
    return decide(read_json(path), rules)
