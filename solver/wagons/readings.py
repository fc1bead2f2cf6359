"""The selectable readings of the Lone Cowboy rules (docs/open-questions.md W1-W13).

Each field is one open question's reading; the defaults are the documented defaults of
docs/open-questions.md, the alternatives are listed in ``docs/register/wagons.toml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from solver.readings.base import Number, Readings

ICON_SOURCES = ("top", "town")
MATCH_ORDERS = ("drafted-first", "deck-first")
EDITIONS = ("original", "later")
DIFFICULTIES = ("local", "newcomer", "legend")
TIE_BREAKS = ("tie", "guns")
BOOM_OR_BUST = ("per-mine", "flat")
BOOMTOWN_COUNTS = ("visible", "cards")
BOOMTOWN_MINES = ("both", "either", "mountains")
ROUND1_PICKS = ("first", "last")
BADLANDS_BOTH_WAYS = ("once", "twice")
HAPPY_COWS_SNOW = ("edge", "corner")
CHOICES = {"icon_source": ICON_SOURCES, "match_order": MATCH_ORDERS, "edition": EDITIONS,
           "difficulty": DIFFICULTIES, "tie_break": TIE_BREAKS, "boom_or_bust": BOOM_OR_BUST,
           "boomtown_count": BOOMTOWN_COUNTS, "boomtown_mines": BOOMTOWN_MINES,
           "round1_pick": ROUND1_PICKS, "badlands_both_ways": BADLANDS_BOTH_WAYS,
           "happy_cows_snow": HAPPY_COWS_SNOW}
"""The listed values of each reading with named alternatives (the first is the default)."""

GOAL_READINGS = {
    "boom-or-bust": ("boom_or_bust", "per_mine", {"per-mine": True, "flat": False}, "low"),
    "badlands": ("badlands_both_ways", "twice_when_boxed", {"once": False, "twice": True}, "medium"),
    "happy-cows": ("happy_cows_snow", "snow_corners", {"edge": False, "corner": True}, "medium"),
}
"""The readings of a goal card's text (rule:W11, rule:W12, rule:W13): goal kind -> (the :class:`WagonsReadings` field, the
goal parameter :meth:`~solver.wagons.data.WagonsData.for_rules` sets from it, that parameter's value for each
listed value of the field, the confidence of the reading). Every scorer and optimizer reads the parameter."""


@dataclass(frozen=True)
class WagonsReadings(Readings):
    """Readings of the open questions; every field has the docs/open-questions.md default.

    - ``icon_source`` (rule:W2): icons "showing in their town" = the top card of the pile
      ("top", default) or any card in the pile ("town").
    - ``match_order`` (rule:W3): on a round-1 match the drafted card enters the pile first and the
      deck card lands on top ("drafted-first", default) or the reverse ("deck-first").
    - ``edition`` (rule:W4, rule:W-later-scoring): "original" (default) or "later" (no round-2 icon
      fallback; opponent scores per card by distinct terrains at ``difficulty``).
    - ``difficulty`` (rule:W-later-difficulty): the later edition's table, "local" (default), "newcomer" or
      "legend".
    - ``tie_break`` (rule:W8): equal totals are a "tie" (default) or won by most Guns ("guns").
    - ``round1_window`` (rule:W1): how many circle cards the round-1 opponent looks at (3 = "skip up to 2").
    - ``boom_or_bust`` (rule:W11): Boom or Bust's band points count per Mine ("per-mine", default:
      1-2 Mines 5 each, 3-6 none, 7 3 each, 8+ 8 each) or once per band ("flat": 5, 0, 3, 8); the
      one source for the card is unofficial. Player and opponent (Boomtown: Mountains count as
      Mines) alike; every scorer and optimizer reads it through :meth:`WagonsData.for_rules`.
    - ``boomtown_count`` (rule:W5-boomtown): "territories after Round 1" of the player = the visible
      territories of its town ("visible", default) or 4 per card it holds ("cards", as the pile).
    - ``boomtown_mines`` (rule:W6): "Mountains count as Mines for Boom or Bust" for the opponent:
      Mine icons plus Mountains territories, a Mountains territory with a Mine counting twice
      ("both", default), each territory with a Mine or on Mountains once ("either"), or the Mountains
      territories alone ("mountains").
    - ``round1_pick`` (rule:W1-pick): when several of those cards match, the opponent takes the first
      ("first", default: it skips only as many as it needs) or the last ("last": as many as it may).
    - ``badlands_both_ways`` (rule:W12): a Gun with Desert left and right *and* above and below scores
      Badlands once ("once", default: the card's "single Gun") or once per direction ("twice").
    - ``happy_cows_snow`` (rule:W13): a Snow territory touching a Cow's territory only at a corner leaves the
      Cow happy ("edge", default: adjacent means sharing an edge) or makes it unhappy ("corner").
    """

    CHOICES: ClassVar[dict] = CHOICES
    """The listed values of each reading with named alternatives (the module's table)."""
    NUMBERS: ClassVar[dict] = {"round1_window": Number(int, 1, 8, probes=(1, 2, 4))}
    TOGETHER: ClassVar[dict] = {"difficulty": {"edition": "later"}}
    """``difficulty`` only means something in the later edition: its alternatives are compared with it set."""

    icon_source: str = "top"
    match_order: str = "drafted-first"
    edition: str = "original"
    difficulty: str = "local"
    tie_break: str = "tie"
    round1_window: int = 3
    boom_or_bust: str = "per-mine"
    boomtown_count: str = "visible"
    boomtown_mines: str = "both"
    round1_pick: str = "first"
    badlands_both_ways: str = "once"
    happy_cows_snow: str = "edge"
