"""The question domains and measures of Lone Cowboy (:mod:`solver.ask`): what a rules question can range over and
the named quantities its condition compares, each citing the rule it reads.

- ``towns`` (:mod:`.towns`): the legal towns of given cards, placed in the order given (rule:W-place);
- ``any-cards`` (:mod:`.towns`): the towns of any k cards of the scenario's deck (k at most 3);
- ``games`` (:mod:`.games`): whole games, every deal, the player following a named policy (chance, estimated);
- ``deal`` (:mod:`.games`): the lines of play of one seeded deal (can-win and best play decide them).

The measures are :mod:`.measures`' (scores, counts, where each card is) and, for games, the automaton's skips and
matches per round.
"""

from solver.ask.model import DomainKind, Param
from solver.wagons.data import SCENARIO_IDS
from solver.wagons.policies import POLICIES
from solver.wagons.questions.games import build_deal, build_games
from solver.wagons.questions.towns import MAX_K, MOST_TOWNS, build_any_cards, build_towns

__all__ = ["DOMAINS"]

_SCENARIO = Param("scenario", "scenario", "choice", "gold-rush", choices=SCENARIO_IDS,
                  help="its two goal cards score, and the opponent scores by its card")
_PILE = Param("pile", "the opponent's pile (card numbers, oldest first)", "cards", [],
              help="empty: the opponent holds nothing")

DOMAINS: tuple[DomainKind, ...] = (
    DomainKind("towns", "towns of given cards",
               (Param("cards", "your cards, in the order placed", "cards",
                      help="each placed legally on arrival, later ones on top; 1 to 4 cards are listed town by town, "
                           "5 and more decided by the CP-SAT town model (a chance over 5 to 7 is estimated)"),
                _SCENARIO, _PILE),
               build_towns, "rule:W-place", "every legal town of these cards, in this order", most=MOST_TOWNS),
    DomainKind("any-cards", "towns of any k cards of the deck",
               (Param("k", "how many cards", "int", 2, 1, MAX_K), _SCENARIO, _PILE),
               build_any_cards, "rule:W-place",
               "every ordered choice of k cards of the scenario's deck, each with every legal town of them",
               most=MOST_TOWNS),
    DomainKind("games", "whole games of a scenario (every deal)",
               (_SCENARIO, Param("policy", "how you play", "choice", "greedy", choices=POLICIES)),
               build_games, "rule:W-rounds",
               "every deal, the automaton drafting by its rules and you following a policy; chances are estimated",
               most=0),
    DomainKind("deal", "your lines of play on one deal",
               (_SCENARIO, Param("seed", "the deal's seed", "int", 0, 0, 2 ** 31)),
               build_deal, "rule:W-opt-canwin",
               "every choice you could make on the deal of this seed: is there a win, or the best margin",
               most=0),
)
"""Every kind of domain a question of this game can range over."""
