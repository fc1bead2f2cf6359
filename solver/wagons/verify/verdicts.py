"""Lone Cowboy's verdicts (``ruleslinger readings impact wagons``): greedy win rates per scenario over seeded
deals and the Z3 checks of ``wagons verify`` in every scenario."""

from __future__ import annotations

from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.wagons.data import WagonsData

from solver.readings.verdicts import ALL, Settings, Verdict, counted


def verdicts() -> list[Verdict]:
    from solver.wagons.data import load_data

    scenarios = tuple(sc.id for sc in load_data().scenarios)
    out = [Verdict(f"greedy-wins/{sid}", f"{sid}: games the greedy policy wins (seeded deals)",
                   lambda r, s, sid=sid: _greedy(sid, r, s), ALL, "", elsewhere(sid), words=greedy_words,
                   share=partial(_greedy_share, sid), cost=COSTS["greedy-wins"])
           for sid in scenarios]
    from solver.wagons.verify import checks as wagons_verify  # Z3 loads only when the verdicts are listed

    out += [Verdict(f"wagons-verify/{check}", f"the Lone Cowboy check '{check}' (wagons verify), per scenario",
                    lambda r, s, check=check: _wagons_check(check, r, s), ALL, "", _WAGONS_CHECK_SKIPS.get(check, {}),
                    words=per_scenario_words, parts=scenarios, part_skip={sid: elsewhere(sid) for sid in scenarios},
                    run_part=partial(_check_part, check), cost=COSTS[check],
                    share=partial(_share, SHARES[check]) if check in SHARES else None)
            for check in wagons_verify.CHECK_IDS]
    return out


Z3_GAME, ENGINE_GAMES = "z3-game", "engine-games"
SHARES = {"card-conservation": Z3_GAME, "termination": Z3_GAME, "automaton": Z3_GAME,
          "winnability": ENGINE_GAMES, "score-bounds": ENGINE_GAMES}
"""What the runs of a verdict share with other runs in one scenario (:mod:`solver.wagons.verify.shared`): one Z3 game
(the three game checks), or the greedy engine games and the score bounds (the greedy win rate, the winnability
witness, the score-bounds check)."""
COSTS = {"greedy-wins": 1.0, "card-conservation": 5.0, "termination": 3.0, "automaton": 4.0, "playability": 2.0,
         "winnability": 1.5, "score-bounds": 6.0}
"""Rough CPU seconds of one run of each verdict (one scenario; the impact run starts its biggest tasks first)."""


def _greedy_share(scenario: str, part: str, readings: Any) -> str:
    """The share key of a greedy-wins run (a verdict per scenario, without parts)."""
    return _share(ENGINE_GAMES, scenario, readings)


def _share(what: str, scenario: str, readings: Any) -> str:
    """The share key of a run: what it shares, the scenario and the readings that set it apart. One Z3 game is
    one set of readings; the engine games' task holds every set of readings with the same bound model (the
    score-bounds check's Z3 bounds: :data:`solver.wagons.verify.scores.BOUND_READINGS`), whose games are kept
    apart by their own readings."""
    import json

    if what == ENGINE_GAMES:
        from solver.wagons.verify.scores import bound_readings

        readings = bound_readings(readings)
    return f"{what}/{scenario}/{json.dumps(readings.to_json(), sort_keys=True)}"


SCENARIO_ONLY = {
    "boom_or_bust": ("boomtown", "it sets the points of the Boom or Bust goal card (rule:W11), a goal card of "
                                 "Boomtown alone (scenarios.toml)"),
    "boomtown_mines": ("boomtown", "it reads Boom or Bust's 'Mountains count as Mines' (the goal's mine_terrains, "
                                   "set in Boomtown alone: scoring/goals.py opponent_mines, verify/scores.py)"),
    "boomtown_count": ("boomtown", "it sets the territory counts after round 1, which only Boomtown's round-2 rule "
                                   "reads (opponent.py skip-if-behind; verify/model.py: the count constrains a game "
                                   "only through that rule)"),
    "badlands_both_ways": ("through-the-desert", "it scores the Badlands goal card (rule:W12), a goal card of "
                                                 "Through the Desert alone (scenarios.toml)"),
    "happy_cows_snow": ("cattle-drive", "it scores the Happy Cows goal card (rule:W13), a goal card of Cattle Drive "
                                        "alone (scenarios.toml)"),
}
"""The readings only one scenario can read, with the argument; in the others a run under them is the default run."""


def elsewhere(scenario: str) -> dict:
    """{reading: why} for the readings of :data:`SCENARIO_ONLY` that ``scenario`` cannot read."""
    return {name: f"{scenario} cannot read it: {why}" for name, (only, why) in SCENARIO_ONLY.items()
            if only != scenario}


_SCORING = ("boom_or_bust", "boomtown_mines", "tie_break", "difficulty", "badlands_both_ways", "happy_cows_snow")


_GAME_ONLY = {n: "the check's Z3 game (verify_model.GameModel) follows the deal, the drafts and the pile; no score "
                 "is computed in it, so the scoring readings cannot change it" for n in _SCORING}


_CONSERVATION = ("where a card goes is the Z3 game's bookkeeping (verify/model.py GameModel._route_slots), which "
                 "reads no reading: each draft sends the card at the draft index k to the drafter, the k before it "
                 "to the other party, and on a round-1 match the deck's top card to the pile; the circle's cursor "
                 "then moves past them and the deck's pointer past the deck card, so every slot is sent once, for "
                 "any index the circle holds. The readings only change which index the opponent takes (every index "
                 "they can name is one the circle holds, and one is always named: the next card when no rule "
                 "applies; the termination check, run under every reading, proves no party is ever left without "
                 "an action and every game ends) or which card lies on top of the pile (match_order), never how "
                 "many cards move or where; so the check's answer under every reading is its answer under the "
                 "default readings")
"""Why card-conservation cannot depend on the readings of the opponent's draft."""


_WAGONS_CHECK_SKIPS = {
    "card-conservation": {**_GAME_ONLY, **{n: _CONSERVATION for n in (
        "icon_source", "match_order", "edition", "round1_window", "round1_pick", "boomtown_count")}},
    "termination": _GAME_ONLY, "automaton": _GAME_ONLY,
    "playability": {n: "placement (rule:W-place, rule:W-cover) takes no reading: the check asks only whether "
                       "the card in hand has a legal spot in every reachable town" for n in (
                           *_SCORING, "icon_source", "match_order", "edition", "round1_window", "round1_pick",
                           "boomtown_count")},
    "score-bounds": {"tie_break": "the check compares totals (its bound model's, the engine games' and the "
                                  "optimizer's); tie_break decides only who wins equal totals (scoring/totals.py), and "
                                  "no total, the greedy policy nor the bound model reads it"},
}
"""Readings each Lone Cowboy check cannot read, with the argument (the others it reads)."""


def card_data(settings: Settings) -> WagonsData | None:
    """The wagons data with the numbers the player read off their goal cards (``settings.cards``), None for none:
    the same goals override the sheet and ``--goals FILE`` use (:func:`solver.wagons.scoring.card_numbers.with_cards`).
    One object per numbers in a process, so the games kept by :mod:`solver.wagons.verify.shared` find it again."""
    return _card_data(settings.cards or "{}")


@lru_cache(maxsize=8)
def _card_data(cards: str) -> WagonsData | None:
    import json

    from solver.wagons.data import load_data
    from solver.wagons.scoring.card_numbers import with_cards

    answers = json.loads(cards)
    return with_cards(load_data(), answers) if answers else None


REPORT_ONLY: dict[str, dict[str, Any]] = {
    "winnability": {"loss_search": False}, "card-conservation": {"random_checks": 0},
    "termination": {"random_checks": 0, "longest": False}, "automaton": {"random_checks": 0, "gaps": False}}
"""The searches of a ``wagons verify`` check that only add findings to its report beside ``holds``, left out of the
verdict, which keeps ``holds`` alone: winnability's deal no line wins (verify/scores.py check_winnability), the game
checks' random engine games pinned on the Z3 game, termination's longest game and the automaton's gaps in the text
(verify/checks.py). ``holds`` is each check's first solve, made before any of them."""


def _wagons_check(check: str, readings, settings: Settings, scenarios: tuple[str, ...] | None = None) -> dict:
    """One ``wagons verify`` check in every scenario (or in ``scenarios``), each solve within the settings' time
    limit; a scenario left undecided by the limit makes the verdict undecided (never cached, never 'holds').
    Only ``holds`` is kept, so the check runs without the searches that do not decide it (:data:`REPORT_ONLY`)."""
    from solver.wagons.data import SCENARIO_IDS
    from solver.wagons.verify import checks as wagons_verify
    from solver.wagons.verify import shared

    family = wagons_verify.check_families()[check]
    extra: dict = dict(REPORT_ONLY.get(check, {}))
    data = card_data(settings)
    if data is not None and check in wagons_verify.READS_GOAL_NUMBERS:
        extra["data"] = data
    with shared.sharing():
        rows = [family(sid, readings, frozenset(), settings.time_limit, **extra) for sid in scenarios or SCENARIO_IDS]
    out = {row.id: row.holds for row in rows}
    if any(v is None for v in out.values()):
        return {"undecided": "time limit", **out}
    return out


def _check_part(check: str, scenario: str, readings: Any, settings: Settings) -> dict:
    """One scenario's part of a ``wagons verify`` check's verdict (its own job in the readings sweep)."""
    return _wagons_check(check, readings, settings, (scenario,))


def per_scenario_words(value: dict) -> str:
    """A check run in every scenario, in words: where it fails, where it is undecided, how many it holds in."""
    results = {k: v for k, v in value.items() if k != "undecided"}
    failed = sorted(k.split("/")[-1] for k, v in results.items() if v is False)
    open_ = sorted(k.split("/")[-1] for k, v in results.items() if v is None)
    held = sum(v is True for v in results.values())
    if not failed and not open_:
        return f"holds in every scenario ({held})"
    parts = [f"fails in {', '.join(failed)}"] if failed else []
    parts += [f"undecided in {', '.join(open_)}"] if open_ else []
    return "; ".join(parts) + f"; holds in {held}"


def greedy_words(value: dict) -> str:
    """The greedy policy's wins in words."""
    return (f"the greedy policy wins {value['wins']} of {counted(value['games'], 'game')} "
            f"({counted(value.get('ties', 0), 'tie')})")


def _greedy(scenario: str, readings, settings: Settings) -> dict:
    """The greedy policy's wins and ties over the settings' seeded deals (the games the score-bounds and
    winnability checks of the same scenario and readings play too: :func:`shared.played`)."""
    from solver.wagons.verify import shared

    data = card_data(settings)
    wins = ties = 0
    with shared.sharing():
        for seed in range(settings.seed, settings.seed + settings.games):
            w = shared.played(scenario, "greedy", seed, readings, data).scores.winner
            wins += w == "player"
            ties += w == "tie"
    return {"wins": wins, "ties": ties, "games": settings.games}
