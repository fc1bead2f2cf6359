"""Best play for a known deal (rule:W-opt-bestplay) against a brute force over the whole game tree.

The oracle plays every legal player action (every draft, every placement) through the engine's
``legal_actions`` / ``apply`` on small explicit deals, the opponent following its rules, and takes
the best final margin. It shares nothing with the draft-line decomposition it checks.
"""

import json
import pickle

import pytest

from solver import cli
from solver.errors import BadInput
from solver.wagons.game import apply, is_over, legal_actions, scores
from solver.wagons.optimizer.bestplay import (
    best_play,
    best_play_row,
    deal_state,
    difficulty_summary,
    difficulty_table,
    draft_lines,
)


def best_margin_by_brute_force(state) -> int:
    if is_over(state):
        return scores(state).margin
    return max(best_margin_by_brute_force(apply(state, a)) for a in legal_actions(state))


def free_cards(scenario, n):
    removed = set(deal_state(scenario, seed=0).removed)
    return [c for c in range(18) if c not in removed][:n]


@pytest.mark.parametrize("scenario,split", [("boomtown", (2, 2)), ("cattle-drive", (2, 2)), ("gold-rush", (3, 1)),
                                            ("out-drink-the-competition", (2, 2)), ("boomtown", (3, 2)),
                                            ("water-the-herd", (3, 2))])
def test_small_deals_match_the_game_tree(scenario, split):
    cards = free_cards(scenario, sum(split))[::-1]
    circle, deck = cards[:split[0]], cards[split[0]:]
    state = deal_state(scenario, circle=circle, deck=deck)
    expected = best_margin_by_brute_force(state)
    res = best_play(scenario, circle=circle, deck=deck, time_limit=120)
    assert res.proven_optimal and res.lines_settled == res.lines
    assert res.margin == expected
    assert res.final["margin"] == expected
    # the line of play replays through the engine to that margin
    s = state
    for a in res.actions:
        while s.to_move == "opponent":
            s = apply(s, legal_actions(s)[0])
        act = [x for x in legal_actions(s)
               if ("draft" in a and getattr(x, "index", None) == a["draft"])
               or ("place" in a and getattr(x, "placement", None) is not None and x.placement.to_dict() == a["place"])]
        assert act, a
        s = apply(s, act[0])
    while not is_over(s):
        s = apply(s, legal_actions(s)[0])
    assert scores(s).margin == expected
    assert res.greedy_margin <= res.margin


def test_boomtown_lines_split_on_round_one():
    cards = free_cards("boomtown", 6)
    lines = draft_lines(deal_state("boomtown", circle=cards[:3], deck=cards[3:]))
    assert lines and all(line.round1 is not None for line in lines)
    assert {line.round1[2] for line in lines} == {True, False}


def test_lines_cover_every_card_once():
    cards = free_cards("water-the-herd", 8)
    state = deal_state("water-the-herd", circle=cards[:4], deck=cards[4:])
    for line in draft_lines(state):
        assert sorted(line.cards + line.pile) == sorted(cards)
        assert line.round1 is None


def test_time_limit_on_a_full_deal_gives_best_found():
    res = best_play("gold-rush", seed=3, time_limit=1.5)
    assert res.lines > 50
    assert not res.proven_optimal
    assert isinstance(res.margin, int) and res.final["margin"] == res.margin  # a real, replayed line
    assert res.lines_settled < res.lines


def test_row_is_picklable_and_table_has_the_columns():
    fn = pickle.loads(pickle.dumps(best_play_row))
    row = fn("cattle-drive", 5, 1.0)
    assert row["scenario"] == "cattle-drive" and row["seed"] == 5
    table = difficulty_table(["cattle-drive"], 1, seed=5, time_limit=1.0)
    assert table.height == 1 and table["seed"][0] == 5 and isinstance(table["best_margin"][0], int)
    assert set(table.columns) >= {"scenario", "seed", "best_margin", "proven", "greedy_margin", "best_wins", "greedy_wins"}
    summary = difficulty_summary(table)
    assert summary["deals"][0] == 1
    assert set(summary.columns) >= {"win_share_best", "win_share_greedy", "best_margin_median"}


@pytest.mark.parametrize("kwargs", [
    {},
    {"circle": [0, 0]},
    {"circle": [1, 3]},  # card 1's front is set aside with Happy Cows in Cattle Drive (W9 data)
    {"circle": [0, 2], "deck": [2]},
    {"circle": [0, 99]},
    {"deck": [0, 2]},
    {"seed": 1, "time_limit": 0},
    {"seed": 1, "time_limit": "x"},
])
def test_bad_input(kwargs):
    with pytest.raises(BadInput):
        best_play("cattle-drive", **kwargs)


def test_cli_best_play(capsys):
    cards = free_cards("cattle-drive", 4)
    rc = cli.main(["wagons", "best-play", "--scenario", "cattle-drive", "--circle", ",".join(map(str, cards[:2])),
                   "--deck", ",".join(map(str, cards[2:])), "--json"])
    out, err = capsys.readouterr()
    assert rc == 0
    doc = json.loads(out)
    assert doc["proven_optimal"] is True and isinstance(doc["margin"], int)
    assert "[best-play]" in err
    for argv in (["--scenario", "cattle-drive"], ["--scenario", "cattle-drive", "--seed", "1", "--circle", "0,2"],
                 ["--scenario", "nope", "--seed", "1"], ["--scenario", "cattle-drive", "--circle", "0,0"]):
        rc = cli.main(["wagons", "best-play", *argv, "--json"])
        out, err = capsys.readouterr()
        assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_the_draft_line_enumeration_honours_a_deadline():
    """Issue 16 time-limit overruns: draft_lines ran to the end whatever the limit (1-4 s past a 1 s
    limit on a loaded machine); with a deadline it stops after the lines found so far (best_play
    then does not call its answer proven)."""
    import time as _time

    from solver.wagons.data import load_data
    from solver.wagons.optimizer.bestplay import deal_state, draft_lines
    from solver.wagons.readings import WagonsReadings

    state = deal_state("boomtown", 2, None, None, WagonsReadings(), load_data())
    cut = draft_lines(state, load_data(), deadline=_time.monotonic() - 1)
    assert len(cut) >= 1 and cut.complete is False
    full = draft_lines(state, load_data())
    assert full.complete and len(full) > len(cut)
