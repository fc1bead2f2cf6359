"""Can this deal be won (rule:W-opt-canwin), the margin bound (solver.wagons.optimizer.bounds) and the deal
search best play shares with it (rule:W-opt-bestplay).

Oracles: a brute force over the whole game tree (every legal player action through the engine's
``legal_actions`` / ``apply``, the opponent following its rules) on small explicit deals; the
exhaustive layout walk (``exhaustive_best``) for the bound's admissibility; direct counting on random
cell sets for the Wagon Train and Badlands parts of the bound.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import cli
from solver.errors import BadInput
from solver.wagons.cards import load_cards
from solver.wagons.codes import DESERT
from solver.wagons.data import SCENARIO_IDS, load_data
from solver.wagons.game import Draft, apply, is_over, legal_actions
from solver.wagons.optimizer.bestplay import best_play
from solver.wagons.optimizer.bounds import (
    _partitions,
    best_runs,
    between_cells,
    between_cells_of,
    card_counts,
    flankable_guns,
    goal_bound,
    margin_bound,
)
from solver.wagons.optimizer.canwin import can_win, can_win_row
from solver.wagons.optimizer.lines import deal_state, draft_lines, play_out
from solver.wagons.optimizer.oracle import exhaustive_best
from solver.wagons.optimizer.problem import greedy_layout, meets_round1
from solver.wagons.readings import WagonsReadings
from solver.wagons.scoring import run_points, score_player
from solver.wagons.town import Placement, Town, legal_placements, place, visible_grid
from tests.support.builders.wagons import SMALL, best_margin_by_brute_force, random_town, small_deal
from tests.support.depth import deep_after, examples
from tests.support.limits import HANG_GUARD


def _replay_cli(tmp_path, capsys, scenario, circle, deck, actions) -> dict:
    script = tmp_path / "line.json"
    script.write_text(json.dumps({"actions": list(actions)}))
    rc = cli.main(["wagons", "play", "--scenario", scenario, "--circle", ",".join(map(str, circle)),
                   "--deck", ",".join(map(str, deck)), "--policy", "scripted", "--script", str(script), "--json"])
    out, _ = capsys.readouterr()
    assert rc == 0
    return json.loads(out)


@pytest.mark.parametrize("scenario,split,skip", SMALL)
def test_small_deals_match_the_game_tree(scenario, split, skip, tmp_path, capsys):
    circle, deck = small_deal(scenario, split, skip)
    best = best_margin_by_brute_force(deal_state(scenario, circle=circle, deck=deck))
    r = can_win(scenario, circle=circle, deck=deck, time_limit=60)
    assert r.proven and r.winnable == (best > 0)
    assert r.bound is not None and r.bound >= best  # the proven bound never cuts below the true best
    bp = best_play(scenario, circle=circle, deck=deck, time_limit=60)
    assert bp.proven_optimal and bp.margin == best and bp.bound == best
    if r.winnable:
        assert r.margin > 0 and r.final["winner"] == "player"
        played = _replay_cli(tmp_path, capsys, scenario, circle, deck, r.actions)
        assert played["winner"] == "player" and played["margin"] == r.margin
    else:
        assert r.actions == () and r.bound <= 0


@pytest.mark.parametrize("scenario,seed", deep_after([("gold-rush", 1), ("out-drink-the-competition", 1), ("boomtown", 0)]))
def test_seeded_deals_agree_with_best_play(scenario, seed):
    """A decided can-win and a proven best play agree: winnable exactly when the best margin is above 0."""
    r = can_win(scenario, seed, time_limit=30)
    assert r.proven
    bp = best_play(scenario, seed, time_limit=3)
    if bp.proven_optimal:
        assert r.winnable == (bp.margin > 0)
    assert r.winnable is (bp.margin > 0) or not bp.proven_optimal or r.winnable is None
    if r.winnable:
        assert bp.margin >= r.margin  # best play is never worse than a winning line
    else:
        assert r.bound <= 0 and bp.margin <= 0


def test_a_winning_seeded_line_replays_through_the_scripted_policy(tmp_path, capsys):
    r = can_win("gold-rush", 1, time_limit=30)
    assert r.winnable is True and r.proven
    assert all(set(a) in ({"draft", "card", "skipped"}, {"place"}) for a in r.actions)
    script = tmp_path / "win.json"
    script.write_text(json.dumps({"actions": list(r.actions)}))
    rc = cli.main(["wagons", "play", "--scenario", "gold-rush", "--seed", "1", "--policy", "scripted",
                   "--script", str(script), "--json"])
    out, _ = capsys.readouterr()
    assert rc == 0 and json.loads(out)["winner"] == "player"


def test_an_unwinnable_deal_is_proven_and_says_so():
    r = can_win("boomtown", 0, time_limit=30)  # every line's bound from the cards is below 0
    assert r.winnable is False and r.proven and r.bound <= 0 and r.lines_open == 0 and r.actions == ()
    assert r.low_confidence  # Boom or Bust and Smalltown Charm rest on low-confidence numbers
    assert r.to_dict()["rules"]["boom_or_bust"] == "per-mine"


def test_the_time_limit_gives_unknown_with_the_best_found():
    r = can_win("through-the-desert", 0, time_limit=1.0)
    assert r.winnable is None and not r.proven and r.lines_open > 0 and r.note
    assert r.elapsed < HANG_GUARD  # a hang guard, not a speed claim (bench/wagons/bench_wagons_limits.py measures it)


def test_the_guns_tie_break_never_calls_a_tie_a_loss():
    circle, deck = small_deal("cattle-drive", (2, 2), 3)
    tie = can_win("cattle-drive", circle=circle, deck=deck, readings=WagonsReadings(tie_break="guns"), time_limit=30)
    plain = can_win("cattle-drive", circle=circle, deck=deck, time_limit=30)
    if plain.winnable:
        assert tie.winnable is True
    if tie.winnable is False:
        assert tie.bound < 0


def test_row_is_flat():
    row = can_win_row("gold-rush", 1, 10.0)
    assert row["scenario"] == "gold-rush" and row["winnable"] is True and row["proven"] is True
    assert all(not isinstance(v, (dict, list)) for v in row.values())


@pytest.mark.parametrize("kwargs", [{}, {"circle": [0, 0]}, {"seed": 1, "time_limit": 0}, {"seed": 1, "time_limit": "x"},
                                    {"circle": [0, 99]}, {"deck": [0, 2]}])
def test_bad_input(kwargs):
    with pytest.raises(BadInput):
        can_win("cattle-drive", **kwargs)


# ------------------------------------------------------------------ the lines


def _first_legal(state, line):
    """The end of ``line`` played with every card at its first legal spot (another town than the greedy one)."""
    drafts, s = list(line.drafts), state
    while not is_over(s):
        if s.to_move == "opponent" or s.hand:
            s = apply(s, legal_actions(s)[0])
        else:
            s = apply(s, Draft(drafts.pop(0)))
    return s


def test_placements_never_change_the_opponents_pile_outside_boomtown():
    """Two different towns for the same draft line give the opponent the same pile (rule:W1, rule:W4, rule:W5)."""
    state = deal_state("water-the-herd", 4)
    for line in random.Random(1).sample(list(draft_lines(state)), 6):
        greedy, _ = greedy_layout(line.cards, "water-the-herd", line.pile)
        first = _first_legal(state, line)
        assert first.town != greedy
        assert first.pile == play_out(state, line, greedy).pile == line.pile


def test_boomtown_lines_hold_when_the_town_meets_their_round_one_case():
    """Boomtown's round-2 rule reads the territories after round 1 (rule:W5-boomtown), so each draft line
    is two lines, one per case; a town meeting a line's case replays to exactly that line's pile."""
    state = deal_state("boomtown", 1)
    lines = draft_lines(state)
    assert {line.round1[2] for line in lines if line.round1} == {True, False}
    checked = 0
    for line in lines:
        town, _ = greedy_layout(line.cards, "boomtown", line.pile)
        if line.round1 is not None and meets_round1(town, line.round1):
            assert play_out(state, line, town).pile == line.pile
            checked += 1
        if checked >= 8:
            break
    assert checked >= 8


# ------------------------------------------------------------------ the bound


def _pile_for(cards, scenario, rng):
    rest = [c for c in range(18) if c not in cards and c not in deal_state(scenario, seed=0).removed]
    return tuple(rng.sample(rest, rng.randint(0, min(6, len(rest)))))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SCENARIO_IDS), st.integers(1, 4), st.randoms(use_true_random=False),
       st.sampled_from(["per-mine", "flat"]))
def test_the_bound_is_never_below_the_best_town(scenario, n, rng, boom):
    readings = WagonsReadings(boom_or_bust=boom)
    free = [c for c in range(18) if c not in deal_state(scenario, seed=0).removed]
    cards = tuple(rng.sample(free, n))
    pile = _pile_for(cards, scenario, rng)
    best = exhaustive_best(cards, scenario, pile, readings, objective="margin").value
    assert margin_bound(cards, scenario, pile, readings, load_data()) >= best


def _run_score(cells: set, table) -> int:
    total = 0
    for step in ((1, 0), (0, 1)):
        for x, y in cells:
            if (x - step[0], y - step[1]) in cells:
                continue
            n = 0
            while (x + n * step[0], y + n * step[1]) in cells:
                n += 1
            total += run_points(table, n)
    return total


@settings(max_examples=200, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=12))
def test_wagon_runs_bound_counts_every_shape(cells):
    table = tuple(load_data().goal("Wagon Train").param("run_points"))
    assert best_runs(table, len(cells)) >= _run_score(cells, table)


@settings(max_examples=200, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=14))
def test_between_two_deserts_bound_counts_every_shape(deserts):
    between = {(x, y) for x in range(-1, 7) for y in range(-1, 7)
               if {(x - 1, y), (x + 1, y)} <= deserts or {(x, y - 1), (x, y + 1)} <= deserts}
    assert between_cells(len(deserts)) >= len(between)


def test_the_run_bound_is_tighter_than_rows_and_columns_apart():
    """A row of six crossed by a column of four scores 14 with 9 Wagons; the bound is close (15), where
    bounding rows and columns apart gives twice the best split of the nine into runs."""
    table = tuple(load_data().goal("Wagon Train").param("run_points"))
    cross = {(x, 3) for x in range(6)} | {(2, y) for y in range(4)}
    assert _run_score(cross, table) == 14 <= best_runs(table, 9) == 15
    apart = 2 * max(sum(run_points(table, x) for x in p) for p in _partitions(9))
    assert apart >= 22 > best_runs(table, 9)


# ------------------------------------------------------------------ the command


def test_cli_can_win_json_and_text(capsys):
    rc = cli.main(["wagons", "can-win", "--scenario", "gold-rush", "--seed", "1", "--json"])
    out, err = capsys.readouterr()
    assert rc == 0
    doc = json.loads(out)
    assert set(doc) >= {"winnable", "proven", "actions", "margin", "bound", "elapsed", "low_confidence", "rules"}
    assert doc["winnable"] is True and doc["proven"] is True and doc["actions"]
    assert doc["rules"]["tie_break"] == "tie" and "Claim Jumpers" in doc["low_confidence"]
    assert "[can-win]" in err
    # Boomtown seed 0 is lost under the default Boom or Bust reading (per Mine) and won under flat bands
    rc = cli.main(["wagons", "can-win", "--scenario", "boomtown", "--seed", "0", "--quiet"])
    out, err = capsys.readouterr()
    assert rc == 0 and "no: proven" in out and "Boom or Bust" in out and err == ""
    rc = cli.main(["wagons", "can-win", "--scenario", "boomtown", "--seed", "0", "--boom-or-bust", "flat", "--quiet"])
    out, err = capsys.readouterr()
    assert rc == 0 and "yes: a winning line" in out and err == ""


def test_cli_schedule_flag_reaches_the_deal_search(monkeypatch, capsys):
    """``--schedule`` (can-win and best-play) is the deal search's: the same names and default, passed through."""
    from solver.wagons.cli import optimizer as opt_cli
    from solver.wagons.optimizer import bestplay, canwin, dealsearch

    assert opt_cli.SCHEDULES == dealsearch.SCHEDULES and opt_cli.DEFAULT_SCHEDULE == dealsearch.DEFAULT_SCHEDULE
    seen = []
    real_can_win, real_best_play = canwin.can_win, bestplay.best_play
    monkeypatch.setattr(canwin, "can_win", lambda *a, **k: seen.append(k["schedule"]) or real_can_win(*a, **k))
    monkeypatch.setattr(bestplay, "best_play", lambda *a, **k: seen.append(k["schedule"]) or real_best_play(*a, **k))
    for cmd, schedule in (("can-win", "restart"), ("best-play", "restart"), ("can-win", None)):
        extra = ["--schedule", schedule] if schedule else []
        rc = cli.main(["wagons", cmd, "--scenario", "gold-rush", "--seed", "1", "--time-limit", "2", "--quiet",
                       *extra])
        assert rc == 0, capsys.readouterr()
    assert seen == ["restart", "restart", dealsearch.DEFAULT_SCHEDULE]
    rc = cli.main(["wagons", "can-win", "--scenario", "gold-rush", "--seed", "1", "--schedule", "later"])
    out, err = capsys.readouterr()
    assert rc == 2 and "--schedule" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv", [
    ["--scenario", "gold-rush"],
    ["--scenario", "gold-rush", "--seed", "1", "--circle", "0,2"],
    ["--scenario", "nope", "--seed", "1"],
    ["--scenario", "gold-rush", "--circle", "0,0"],
    ["--scenario", "gold-rush", "--seed", "1", "--time-limit", "0"],
    ["--scenario", "gold-rush", "--seed", "1", "--time-limit", "soon"],
    ["--scenario", "gold-rush", "--seed", "-1"],
])
def test_cli_can_win_bad_input(argv, capsys):
    rc = cli.main(["wagons", "can-win", *argv, "--json"])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_proven_facts_are_reused_and_tied_to_their_data():
    """A second search of the same deal repeats no proof (the facts per line are cached), and a cached fact
    counts only for the data object it was proven with."""
    import dataclasses

    from solver.wagons.optimizer.dealsearch import clear_cache

    circle, deck = small_deal("cattle-drive", (2, 2), 3)
    clear_cache()
    first = best_play("cattle-drive", circle=circle, deck=deck, time_limit=30)
    again = best_play("cattle-drive", circle=circle, deck=deck, time_limit=30)
    assert first.solves >= 1 and again.solves == 0
    assert (again.margin, again.proven_optimal) == (first.margin, first.proven_optimal) and again.proven_optimal
    other = dataclasses.replace(load_data())  # the same cards and goals in another object: proven afresh
    assert other is not load_data()
    assert best_play("cattle-drive", circle=circle, deck=deck, time_limit=30, data=other).solves >= 1


# ------------------------------------------------------------------ Badlands from the cards' layouts


def _between_and_flanked(town) -> tuple[int, int]:
    """(cells with a visible Desert on both sides, visible Guns among them) of a town's visible grid."""
    grid = visible_grid(town)
    desert = {xy for xy, t in grid.items() if t.terrain == "Desert"}
    cells = {(x, y) for (x, y) in grid
             if {(x - 1, y), (x + 1, y)} <= desert or {(x, y - 1), (x, y + 1)} <= desert}
    return len(cells), sum(1 for xy in cells if grid[xy].icon == "Gun")


def _every_town(cards):
    """Every legal town of ``cards`` in this order (the first card at (0, 0), either turn)."""
    towns = [Town((Placement(cards[0], 0, 0, r),)) for r in (0, 180)]
    for cid in cards[1:]:
        towns = [place(t, p) for t in towns for p in legal_placements(t, cid)]
    return towns


_DESERT_OR_GUN = [c for c in range(18) if any(t.terrain == "Desert" or t.icon == "Gun"
                                              for t in load_cards()[c].territories)]


@settings(max_examples=examples(10, 40), deadline=None)
@given(st.lists(st.sampled_from(_DESERT_OR_GUN), min_size=3, max_size=3, unique=True))
def test_badlands_card_bounds_hold_on_every_three_card_town(cards):
    """Exhaustive: no town of the three cards (any order of placement given) has more cells between two
    Deserts than :func:`between_cells_of`, more flanked Guns than :func:`flankable_guns`, or more Badlands
    points than the bound's Badlands part."""
    counts = card_counts(cards)
    goal = load_data().goal("Badlands")
    most_between = most_flanked = most_points = 0
    for town in _every_town(cards):
        between, flanked = _between_and_flanked(town)
        most_between, most_flanked = max(most_between, between), max(most_flanked, flanked)
        most_points = max(most_points, score_player(town, "through-the-desert", ()).goals["Badlands"])
    assert most_between <= between_cells_of(cards) <= between_cells(counts.terrain[DESERT])
    assert most_flanked <= flankable_guns(cards)
    assert most_points <= goal_bound(goal, counts)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 10), st.randoms(use_true_random=False))
def test_badlands_card_bounds_hold_on_random_and_greedy_towns(n, rng):
    """Larger towns: random legal towns and greedy Through the Desert towns (which chase flanked Guns)."""
    town, _ = random_town(rng, n)
    cards = list(town.card_ids)
    greedy, _ = greedy_layout(cards, "through-the-desert")
    for t in (town, greedy):
        between, flanked = _between_and_flanked(t)
        assert between <= between_cells_of(cards)
        assert flanked <= flankable_guns(cards)


def test_deserts_side_by_side_on_one_card_flank_fewer_cells():
    """Card 4 holds three Deserts in an L (a pair in a row and one in a column): with three single-Desert
    cards (1, 7, 9) the six Deserts flank at most 5 cells, not the 7 six free Deserts can; card 11's three
    Guns cannot all score (its lower-left Gun's partners are Guns, so one would have to be covered)."""
    assert between_cells(6) == 7 and between_cells_of([4, 1, 7, 9]) == 5
    assert between_cells_of([8, 1, 7, 9]) == between_cells(5)  # card 8's two Deserts lie corner to corner
    assert flankable_guns([11, 1]) == 2 and flankable_guns([11, 1, 7]) == 2
    assert flankable_guns([12, 1]) == 0 and flankable_guns([12, 1, 7]) == 2  # card 12 has no Desert of its own
    assert flankable_guns([11]) == 0  # the outer Desert must be on another card


@pytest.mark.parametrize("schedule", ["restart", "resume"])
@pytest.mark.parametrize("scenario,split,skip", SMALL[1:4] + [SMALL[6], ("boomtown", (2, 2), 5)])
def test_the_layout_method_is_a_parameter_of_the_deal_search(scenario, split, skip, schedule, monkeypatch):
    """The proofs run with the method asked for (here the exhaustive walk, an independent prover), in the
    process or in the proof workers, and give the game tree's answer with it; on Boomtown with its round-1
    condition too (the oracle once refused it at the first line that needed a proof, after the search began)."""
    from solver.wagons.optimizer import dealsearch
    from solver.wagons.optimizer.dealsearch import clear_cache

    asked = []
    real, real_worker = dealsearch.layout_with, dealsearch.ProofWorker
    monkeypatch.setattr(dealsearch, "layout_with", lambda strategy, *a, **k: asked.append(strategy.name)
                        or real(strategy, *a, **k))
    monkeypatch.setattr(dealsearch, "ProofWorker",
                        lambda job, **kw: asked.append(job["strategy"].name) or real_worker(job, **kw))
    circle, deck = small_deal(scenario, split, skip)
    best = best_margin_by_brute_force(deal_state(scenario, circle=circle, deck=deck))
    clear_cache()
    bp = best_play(scenario, circle=circle, deck=deck, time_limit=60, method="oracle", schedule=schedule)
    clear_cache()
    cw = can_win(scenario, circle=circle, deck=deck, time_limit=60, method="oracle", schedule=schedule)
    assert bp.proven_optimal and bp.margin == best and cw.proven and cw.winnable == (best > 0)
    assert asked and set(asked) == {"oracle"}
    with pytest.raises(BadInput, match="method"):
        can_win(scenario, circle=circle, deck=deck, method="guess")


def test_cli_deal_commands_take_the_layout_method(capsys):
    circle, deck = small_deal("gold-rush", (3, 1), 5)
    for command in ("can-win", "best-play"):
        rc = cli.main(["wagons", command, "--scenario", "gold-rush", "--circle", ",".join(map(str, circle)),
                       "--deck", ",".join(map(str, deck)), "--method", "oracle", "--quiet", "--json"])
        out, _ = capsys.readouterr()
        assert rc == 0 and json.loads(out)["elapsed"] >= 0
        rc = cli.main(["wagons", command, "--scenario", "gold-rush", "--seed", "1", "--method", "nope", "--json"])
        assert rc == 2 and capsys.readouterr().out == ""


@pytest.mark.parametrize("cmd,extra", [("best-play", []), ("can-win", []), ("can-win", ["--schedule", "restart"])])
def test_the_oracle_on_a_deal_too_big_for_it_is_refused_before_any_search(cmd, extra, capsys):
    """Fuzz finding (2026-12-02): best-play with --method oracle printed a progress line, then failed at its
    first proof of a 9-card line, two lines on standard error. Now one line, before anything is searched."""
    rc = cli.main(["wagons", cmd, "--scenario", "cattle-drive", "--seed", "42", "--time-limit", "5", "--method",
                   "oracle", *extra])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "method oracle: this deal's draft lines hold up to" in err and "use cpsat" in err


def test_the_oracle_on_boomtown_lines_too_long_for_its_round_1_walk_is_refused_before_any_search(capsys):
    """Audit finding (2026-12-02): Boomtown's round-1 lines take the engine's walk, minutes at 5 cards, so such a
    deal was accepted and then left every split line undecided; it is refused in one line, before any search."""
    rc = cli.main(["wagons", "can-win", "--scenario", "boomtown", "--circle", "0,1,2,3,5,6", "--deck", "7,8,10",
                   "--time-limit", "5", "--method", "oracle"])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "round-1 condition hold up to 5 cards" in err and "use cpsat" in err


@pytest.mark.parametrize("behind", [True, False])
def test_the_oracle_keeps_only_the_towns_that_meet_boomtowns_round_1_condition(behind):
    """rule:W5 (Boomtown's round-1 count): the exhaustive best under ``round1`` is the best of the towns, listed
    one by one from the engine's placements, whose first two cards show at least (behind) or fewer than 7."""
    cards, pile = (3, 5, 8), (1, 2)
    round1 = (2, 7, behind)
    best = None
    for p0 in legal_placements(Town(), cards[0]):  # the first card at (0, 0), both ways up
        for p1 in legal_placements(Town((p0,)), cards[1]):
            two = Town((p0, p1))
            for p2 in legal_placements(two, cards[2]):
                town = Town((p0, p1, p2))
                if meets_round1(town, round1):
                    v = score_player(town, "boomtown", pile).total
                    best = v if best is None else max(best, v)
    res = exhaustive_best(cards, "boomtown", pile, round1=round1)
    assert res.value == best and meets_round1(Town(res.placements), round1)
    assert score_player(Town(res.placements), "boomtown", pile).total == best
    assert exhaustive_best(cards, "boomtown", pile, round1=(2, 99, True)).value is None
