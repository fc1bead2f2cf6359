"""Lone Cowboy's verdicts (``ruleslinger readings impact wagons``): greedy win rates per scenario over seeded
deals and the Z3 checks of ``wagons verify`` in every scenario."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from solver.wagons.data import WagonsData

from solver.readings.verdicts import ALL, Settings, Verdict, counted


def verdicts() -> list[Verdict]:
    from solver.wagons.data import load_data

    scenarios = tuple(sc.id for sc in load_data().scenarios)
    out = [Verdict(f"greedy-wins/{sid}", f"{sid}: games the greedy policy wins (seeded deals)",
                   lambda r, s, sid=sid: _greedy(sid, r, s), ALL, "", elsewhere(sid), words=greedy_words)
           for sid in scenarios]
    from solver.wagons.verify import checks as wagons_verify  # Z3 loads only when the verdicts are listed

    out += [Verdict(f"wagons-verify/{check}", f"the Lone Cowboy check '{check}' (wagons verify), per scenario",
                    lambda r, s, check=check: _wagons_check(check, r, s), ALL, "", _WAGONS_CHECK_SKIPS.get(check, {}),
                    words=per_scenario_words, parts=scenarios, part_skip={sid: elsewhere(sid) for sid in scenarios},
                    run_part=partial(_check_part, check))
            for check in wagons_verify.CHECK_IDS]
    return out


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


_WAGONS_CHECK_SKIPS = {
    "card-conservation": _GAME_ONLY, "termination": _GAME_ONLY, "automaton": _GAME_ONLY,
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
    the same goals override the sheet and ``--goals FILE`` use (:func:`solver.wagons.scoring.card_numbers.with_cards`)."""
    import json

    from solver.wagons.data import load_data
    from solver.wagons.scoring.card_numbers import with_cards

    answers = json.loads(settings.cards or "{}")
    return with_cards(load_data(), answers) if answers else None


def _wagons_check(check: str, rules, settings: Settings, scenarios: tuple[str, ...] | None = None) -> dict:
    """One ``wagons verify`` check in every scenario (or in ``scenarios``), each solve within the settings' time
    limit; a scenario left undecided by the limit makes the verdict undecided (never cached, never 'holds').
    Only ``holds`` is kept, so winnability runs without its search for a deal no line wins (it does not decide
    ``holds``: verify/scores.py check_winnability)."""
    from solver.wagons.data import SCENARIO_IDS
    from solver.wagons.verify import checks as wagons_verify

    family = wagons_verify.check_families()[check]
    extra: dict = {"loss_search": False} if check == "winnability" else {}
    data = card_data(settings)
    if data is not None and check in wagons_verify.READS_GOAL_NUMBERS:
        extra["data"] = data
    rows = [family(sid, rules, frozenset(), settings.time_limit, **extra) for sid in scenarios or SCENARIO_IDS]
    out = {row.id: row.holds for row in rows}
    if any(v is None for v in out.values()):
        return {"undecided": "time limit", **out}
    return out


def _check_part(check: str, scenario: str, rules: Any, settings: Settings) -> dict:
    """One scenario's part of a ``wagons verify`` check's verdict (its own job in the readings sweep)."""
    return _wagons_check(check, rules, settings, (scenario,))


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


def _greedy(scenario: str, rules, settings: Settings) -> dict:
    from solver.wagons.simulate import play_row

    data = card_data(settings)
    wins = ties = 0
    for seed in range(settings.seed, settings.seed + settings.games):
        w = play_row(scenario, "greedy", seed, rules, data)["winner"]
        wins += w == "player"
        ties += w == "tie"
    return {"wins": wins, "ties": ties, "games": settings.games}
