"""Lone Cowboy's verdicts (``ruleslinger readings impact wagons``): greedy win rates per scenario over seeded
deals and the Z3 checks of ``wagons verify`` in every scenario."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.wagons.data import WagonsData

from solver.readings.verdicts import ALL, Settings, Verdict, counted


def verdicts() -> list[Verdict]:
    from solver.wagons.data import load_data

    out = [Verdict(f"greedy-wins/{sid}", f"{sid}: games the greedy policy wins (seeded deals)",
                   lambda r, s, sid=sid: _greedy(sid, r, s), ALL, "", words=greedy_words)
           for sid in [sc.id for sc in load_data().scenarios]]
    from solver.wagons.verify import checks as wagons_verify  # Z3 loads only when the verdicts are listed

    out += [Verdict(f"wagons-verify/{check}", f"the Lone Cowboy check '{check}' (wagons verify), per scenario",
                    lambda r, s, check=check: _wagons_check(check, r, s), ALL, "", _WAGONS_CHECK_SKIPS.get(check, {}),
                    words=per_scenario_words)
            for check in wagons_verify.CHECK_IDS]
    return out


_SCORING = ("boom_or_bust", "boomtown_mines", "tie_break", "difficulty", "badlands_both_ways", "happy_cows_snow")


_GAME_ONLY = {n: "the check's Z3 game (verify_model.GameModel) follows the deal, the drafts and the pile; no score "
                 "is computed in it, so the scoring readings cannot change it" for n in _SCORING}


_WAGONS_CHECK_SKIPS = {
    "card-conservation": _GAME_ONLY, "termination": _GAME_ONLY, "automaton": _GAME_ONLY,
    "playability": {n: "placement (rule:W-place, rule:W-cover) takes no reading: the check asks only whether "
                       "the card in hand has a legal spot in every reachable town" for n in (
                           *_SCORING, "icon_source", "match_order", "edition", "round1_window", "round1_pick",
                           "boomtown_count")},
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


def _wagons_check(check: str, rules, settings: Settings) -> dict:
    """One ``wagons verify`` check in every scenario, each solve within the settings' time limit;
    a scenario left undecided by the limit makes the verdict undecided (never cached, never 'holds')."""
    from solver.wagons.verify import checks as wagons_verify

    rows = wagons_verify.run_checks(checks=(check,), rules=rules, time_limit=settings.time_limit,
                                    data=card_data(settings))
    out = {row["id"]: row["holds"] for row in rows}
    if any(v is None for v in out.values()):
        return {"undecided": "time limit", **out}
    return out


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
