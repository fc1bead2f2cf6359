"""The question domains and measures of Cactus Town (solver.ask): what a rules question can range over and the named
quantities its condition compares, each citing the rule it reads.

- ``event-deck``: every shuffle of a game's decks for 1 (solo) to 5 players under the readings, optionally after the
  rounds already seen (the companion's records), with exact chances: the round the marshal arrives, the round each
  event is drawn, the order of two events (:mod:`.decks`).
- ``duel``: one duel's results with their exact chances; ``duels``: every duel of small second shots under each
  event, with its exact chances as measures (:mod:`.duels`).
"""

from __future__ import annotations

from solver.ask.model import DomainKind, Param
from solver.cactus.questions import decks, duels

DOMAINS: tuple[DomainKind, ...] = (
    DomainKind("event-deck", "Shuffles of the event deck (and the solo deck)",
               (Param("players", "players (1: solo)", "int", 4, 1, 5),
                Param("cards", "event cards in the deck (0: the rulebook's count)", "int", 0, 0, 17,
                      help="a shortened (or longer) event deck, dealt from the 17 cards as the rulebook deals it"),
                Param("seen", "rounds already seen", "cards-seen", (),
                      help="each round as the companion takes it: event, train_discard, duel_discards, programmed, "
                           "second_shot")),
               decks.build, "rule:C-event-deck rule:C-event-draw rule:C-solo-schedule rule:C-solo-marshal",
               "every way the event deck (and in solo the lone ranger's deck) can play out, each with its exact "
               "chance", most=decks.MOST),
    DomainKind("duel", "One duel's results",
               (Param("initiator_shot", "second shot of who starts it", "int", 0, 0, 20),
                Param("defender_shot", "second shot of the other side", "int", 0, 0, 20),
                Param("event", "the round's event", "choice", "none", choices=duels.EVENTS),
                Param("initiator_bonus", "token and building bonus of who starts it", "int", 0, -10, 10),
                Param("defender_bonus", "token and building bonus of the other side", "int", 0, -10, 10),
                Param("shootout_duel", "the Shootout's early duel (+2)", "choice", "no", choices=("no", "yes"))),
               duels.Duel, "rule:C-duel rule:C8", "a duel's results (won, lost, tie), each with its exact chance"),
    DomainKind("duels", "Every duel of small second shots",
               (Param("shots", "the highest second shot", "int", 6, 0, 20),),
               duels.Duels, "rule:C-duel rule:C8", "every duel of second shots 0..shots under each event that "
               "changes duels; its measures are the exact chances"),
)
"""Every kind of domain a question of this game can range over."""
