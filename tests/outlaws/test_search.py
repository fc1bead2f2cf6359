"""win_possible and the dead-position search (rule:O12) on constructed and random positions."""

from __future__ import annotations

import json
import random

import pytest

from solver import clikit
from solver.errors import BadInput
from solver.outlaws.actions import Action, legal_actions
from solver.outlaws.apply import apply, step
from solver.outlaws.cli import add_verification_commands
from solver.outlaws.position import initial_position
from solver.outlaws.position_json import load_position
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.search.searches import (
    best_first,
    find_dead_positions,
    is_dead,
    victory_left,
    win_possible,
    win_possible_side,
)
from solver.outlaws.victory import sudden_death_trigger
from tests.support.builders.outlaws import build, pos

GOV0 = ["governor", "hitman", "sheriff", "indian", "merchant", "dancer", "journalist", "bandit"]
ONCE = OutlawsReadings(sudden_death_repeats="once")  # rule:O11 alternative: the reading under which dead positions exist


def replay(p, line, readings=OutlawsReadings()):
    """Play a search line through the engine's public apply (each entry: action + outcome index)."""
    for entry in line:
        assert entry["side"] == p.to_move
        p = apply(p, Action.from_json(dict(entry["action"])), readings, entry["outcome"])
    return p


def after_sudden_death(**kw):
    """Sudden death already happened; Votes 3-3; by default every Bullet and Handcuffs is discarded."""
    base = dict(tokens=["x", "x", "empty", "empty", "empty", "empty", "empty", "empty"], reserve=[],
                supply={"A": {"vote": 3, "bullet": 0, "handcuffs": 0}, "B": {"vote": 3, "bullet": 0, "handcuffs": 0}},
                discard={"bullet": 3, "handcuffs": 3, "x": 2, "election": 1}, sudden_death=True)
    for key, val in kw.items():
        if isinstance(val, dict) and isinstance(base.get(key), dict):
            merged = dict(base[key])
            for k, v in val.items():
                merged[k] = {**merged[k], **v} if isinstance(v, dict) and isinstance(merged.get(k), dict) else v
            base[key] = merged
        else:
            base[key] = val
    return pos(**base)


# ---------------------------------------------------------------- win_possible


def test_one_move_win_is_found_with_its_line():
    p = pos(A=GOV0, tokens=["election", "vote", "vote", "vote", "x", "x", "bullet", "handcuffs"],
            supply={"A": {"vote": 1}}, actions_left=1)
    res = win_possible(p, max_depth=3, time_limit=30)
    assert res.A is True and len(res.line_A) == 1
    assert res.line_A[0]["action"]["actor"] == "governor"
    q = replay(p, res.line_A)
    assert (q.winner, q.victory) == ("A", "good")
    assert res.to_json()["line_A"][0]["action"]["column"] == 0


def test_lines_for_both_sides_replay_to_their_victories():
    p = initial_position(3)
    res = win_possible(p, max_depth=8, time_limit=60)
    assert res.A is True and res.B is True and res.proven
    for side, line in (("A", res.line_A), ("B", res.line_B)):
        q = replay(p, line)
        assert q.winner == side, (side, line)


def test_long_lines_are_found():
    """A needs 3 Votes and the Election (9 actions with B's turns); after sudden death B must fetch the
    last Bullet from the street first."""
    p = pos(tokens=["x", "vote", "x", "vote", "election", "x", "vote", "x"], reserve=["vote"],
            supply={"A": {"vote": 0, "bullet": 0, "handcuffs": 0}, "B": {"vote": 2, "bullet": 0, "handcuffs": 0}},
            discard={"bullet": 3, "handcuffs": 3})
    res = win_possible(p, max_depth=14, time_limit=120)
    assert res.A is True and replay(p, res.line_A).victory == "good" and len(res.line_A) >= 7
    q = after_sudden_death(tokens=["x", "x", "bullet", "x", "empty", "x", "empty", "empty"],
                           discard={"bullet": 2, "x": 0})
    res = win_possible(q, max_depth=14, time_limit=120)
    assert res.B is True and replay(q, res.line_B).winner == "B"
    assert res.line_B[-1]["action"]["actor"] in ("hitman", "sheriff")


def test_dead_position_proven_for_both_sides():
    p = after_sudden_death()
    assert not sudden_death_trigger(p, ONCE) and sudden_death_trigger(p)
    assert is_dead(p, ONCE) and not is_dead(p)
    res = win_possible(p, ONCE, max_depth=6, time_limit=5)
    assert (res.A, res.B, res.proven) == (False, False, True)
    assert "token economy" in res.reason["A"]


def test_one_bullet_left_keeps_the_game_alive():
    p = after_sudden_death(supply={"A": {"bullet": 1}}, discard={"bullet": 2})
    assert not is_dead(p)
    assert victory_left(p, "A", ONCE) == {"good": False, "bad": True, "ugly": False}
    assert victory_left(p, "A") == {"good": False, "bad": True, "ugly": True}  # the reset brings Handcuffs back
    res = win_possible(p, max_depth=10, time_limit=60)
    assert res.A is True and replay(p, res.line_A).victory == "bad"
    n = len(res.line_A)
    # the reason names the victory as a player knows it (solver.outlaws.victory_names): "1 action", "2 actions"
    assert res.reason["A"] == f"Con le Brutte (the Bad way) in {n} action" + ("" if n == 1 else "s")
    assert res.B is True  # B's Bandit can take A's Bullet (rule:O-bandit)


def test_won_game():
    p = pos(winner="B", victory="ugly")
    res = win_possible(p)
    assert (res.A, res.B, res.proven) == (False, True, True)
    assert res.line_B == ()


def test_bounded_answer_is_not_a_proof():
    res = win_possible(initial_position(0), max_depth=0, time_limit=5)
    assert res.A is None and res.B is None and res.proven is False
    ans, line, why, _ = win_possible_side(initial_position(0), "A", max_depth=30, time_limit=5, max_nodes=0)
    assert ans is None and line is None and "node budget" in why


def test_exhausted_search_is_a_proof():
    """Within one action from the set-up nobody is dead: every child was checked (exhausted)."""
    res = best_first(initial_position(0), lambda p: False, lambda p: 0, max_depth=1, time_limit=60)
    assert res.found is None and res.complete and res.nodes == 1
    assert not res.exhausted  # positions lie beyond the bound


def test_bad_arguments():
    with pytest.raises(BadInput):
        win_possible(initial_position(0), max_depth=-1)
    with pytest.raises(BadInput):
        win_possible(initial_position(0), time_limit=0)
    with pytest.raises(BadInput):
        win_possible_side(initial_position(0), "C")


def test_token_economy_is_monotone_along_random_playouts():
    """Once a victory is excluded it stays excluded, and it never happens (rule:O12 soundness)."""
    readings = OutlawsReadings()
    for seed in range(6):
        rng = random.Random(seed)
        p = initial_position(seed)
        excluded: set = set()
        for _ in range(400):
            for side in "AB":
                left = victory_left(p, side, readings)
                now = {(side, v) for v, ok in left.items() if not ok}
                mine = {e for e in excluded if e[0] == side}
                assert mine <= now, (seed, mine - now)
                excluded = excluded | now
            acts = legal_actions(p, readings)
            if not acts:
                break
            p = step(p, rng.choice(acts), readings, rng)
        if p.winner is not None:
            assert (p.winner, p.victory) not in excluded


# ---------------------------------------------------------------- dead positions (rule:O12)


def test_dead_position_found_from_a_late_position():
    start = after_sudden_death(supply={"A": {"bullet": 1}}, discard={"bullet": 2})
    res = find_dead_positions(start, ONCE, max_depth=6, time_limit=60)
    assert res["found"] and 1 <= res["length"] <= 6
    assert res["dead_classes"] == [[True, 3, 3, 0, False, False, False]] and not res["proven"]
    end = replay(start, res["line"], ONCE)
    assert is_dead(end, ONCE) and end.winner is None
    assert res["why"]["sudden_death"] is True and res["why"]["sudden_death_trigger"] is False
    assert load_position(res["position"]) == end or is_dead(load_position(res["position"]))


def test_no_dead_position_within_the_bound_is_reported_as_such():
    res = find_dead_positions(initial_position(0), ONCE, max_depth=1, time_limit=60)
    assert res["found"] is False and res["complete"] is True
    assert "within 1 actions" in res["bound"]


def test_no_dead_position_under_the_default_reading_is_proven_by_the_lemma():
    """rule:O11 default ("repeats"): no token-economy class is dead, so the search is not needed; the
    search itself (use_lemma=False) finds none either, from the late position that is dead under "once"."""
    start = after_sudden_death(supply={"A": {"bullet": 1}}, discard={"bullet": 2})
    res = find_dead_positions(start)
    assert (res["found"], res["proven"], res["dead_classes"], res["nodes"]) == (False, True, [], 0)
    searched = find_dead_positions(start, max_depth=2, time_limit=10, use_lemma=False)
    assert searched["found"] is False and searched["proven"] is True
    unreachable = after_sudden_death(supply={"A": {"vote": 4}, "B": {"vote": 2}})  # no 3-3 after sudden death
    assert find_dead_positions(unreachable, max_depth=0)["proven"] is False


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_dead_position_reached_from_the_set_up(seed):
    """The O12 gap: from the set-up, sudden death and then using up every Bullet and Handcuffs again."""
    start = initial_position(seed)
    res = find_dead_positions(start, ONCE, max_depth=80, time_limit=600, max_nodes=20_000)
    assert res["found"], res.get("bound")
    end = replay(start, res["line"], ONCE)
    assert is_dead(end, ONCE) and end.sudden_death and end.winner is None
    assert not sudden_death_trigger(end, ONCE)


# ---------------------------------------------------------------- CLI


def _parser():
    parser = clikit.Parser(prog="t")
    games = parser.add_subparsers(dest="game", parser_class=clikit.Parser)
    group = clikit.add_group(games, "outlaws", "x")
    add_verification_commands(group)
    return parser


def test_cli_dead_positions(tmp_path, capsys):
    f = tmp_path / "p.json"
    f.write_text(json.dumps(build(**{
        "tokens": ["x", "x", "empty", "empty", "empty", "empty", "empty", "empty"], "reserve": [],
        "supply": {"A": {"vote": 3, "bullet": 1, "handcuffs": 0}, "B": {"vote": 3, "bullet": 0, "handcuffs": 0}},
        "discard": {"bullet": 2, "handcuffs": 3, "x": 2, "election": 1}, "sudden_death": True})))
    once = ["--rule", "sudden_death_repeats=once"]
    args = _parser().parse_args(["outlaws", "dead-positions", str(f), "--max-depth", "4", "--time-limit", "60", "--json",
                                 *once])
    assert clikit.run(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["found"] is True and out["line"] and out["rules"]["sudden_death_repeats"] == "once"
    args = _parser().parse_args(["outlaws", "dead-positions", str(f), "--max-depth", "4", "--time-limit", "60", *once])
    assert clikit.run(args) == 0
    assert "DEAD POSITION" in capsys.readouterr().out
    args = _parser().parse_args(["outlaws", "dead-positions", str(f), "--json"])
    assert clikit.run(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["found"] is False and out["proven"] is True and out["dead_classes"] == []


def test_cli_dead_positions_bad_input(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(build(**{"saloon": {"A": ["governor", "mayor"], "B": ["indian", "journalist"]}})))
    for argv in (["outlaws", "dead-positions", str(bad)],
                 ["outlaws", "dead-positions", "--time-limit", "0"],
                 ["outlaws", "dead-positions", "--max-depth", "-3"]):
        with pytest.raises(BadInput):
            clikit.run(_parser().parse_args(argv))


def test_no_dead_position_before_sudden_death():
    """Token-economy lemma: before sudden death some side can always still win (so every dead position
    follows sudden death). Exhaustive over Vote splits, Bullets/Handcuffs left and the Election's place."""
    from solver.outlaws.position import Discard, PerSide, Supply

    base = after_sudden_death()
    for a in range(7):
        for b in range(7 - a):
            table_votes = 6 - a - b
            for left in (0, 1):
                tokens = ["vote"] * min(table_votes, 6) + ["election"]
                reserve = tuple(["vote"] * (table_votes - min(table_votes, 6)))
                tokens += ["bullet"] * left + ["x"] * (8 - len(tokens) - left)
                p = base.__class__(**{**base.__dict__, "tokens": tuple(tokens[:8]), "reserve": reserve,
                                      "supply": PerSide(Supply(vote=a, bullet=0, handcuffs=0),
                                                        Supply(vote=b, bullet=0, handcuffs=0)),
                                      "discard": Discard(bullet=3 - left, handcuffs=3), "sudden_death": False})
                assert not is_dead(p), (a, b, left)


# ---------------------------------------------------------------- expanding a position once sudden death is due


@pytest.fixture(scope="module")
def sudden_death_again_walked():
    """sudden-death-again, the actions whose own effects ran while :func:`successors` listed its children (82,320 of
    them: every action ends in the 560 layouts), and those children; listed once for the tests that read them."""
    from solver.outlaws import apply as ap
    from solver.outlaws.search.searches import successors
    from tests.support.paths import ROOT

    p = load_position(ROOT / "scenarios" / "outlaws" / "sudden-death-again.json")
    runs = []
    real_act = ap.act
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ap, "act", lambda *a: runs.append(a[1]) or real_act(*a))
        children = list(successors(p))
    return p, runs, children


def test_sudden_death_layouts_reuse_the_action_and_equal_effects_are_expanded_once(sudden_death_again_walked):
    """Issue 33: once the sudden-death trigger holds, every action ends in the 560 layouts. The walk runs the
    action's own effects once per action (not once per layout), and an action whose effects equal an earlier
    one's (up to what the players know: a second fake swap) adds nothing, so it is not expanded again; the
    children left are those of the full enumeration, under the same outcome numbers."""
    from solver.outlaws import apply as ap
    from solver.outlaws.search.searches import position_key

    p, runs, children = sudden_death_again_walked
    assert sudden_death_trigger(p)
    acts = legal_actions(p)
    assert len(runs) == len(acts)  # each action's effects once, not once per layout
    fake_swaps = [a for a in acts if a.kind == "move" and not a.swap]
    assert {a for a, *_ in children} & set(fake_swaps) == {fake_swaps[0]}  # the others repeat its effects
    for a in list(acts[:3]) + fake_swaps[:1]:
        mine = [(n, cond, position_key(q)) for b, n, cond, q in children if b == a]
        full = [(n, o.condition, position_key(o.position)) for n, o in enumerate(ap.outcomes(p, a, check=False))]
        assert mine == full and len(full) == 560


@pytest.mark.slow
def test_both_sides_win_after_a_second_sudden_death_within_the_node_budget():
    """The win search on sudden-death-again (both sides can win once the reset lays Bullets and Handcuffs
    again) decides; issue 33 found it undecided at the readings' limit."""
    from tests.support.paths import ROOT

    p = load_position(ROOT / "scenarios" / "outlaws" / "sudden-death-again.json")
    res = win_possible(p, time_limit=600, max_nodes=400)
    assert res.A is True and res.B is True and res.proven
    for side, line in (("A", res.line_A), ("B", res.line_B)):
        assert replay(p, line).winner == side


def test_a_shared_expansion_is_walked_once(monkeypatch):
    """The two sides' win searches from one start share its expansion (:class:`Expansion`)."""
    from solver.outlaws import apply as ap
    from solver.outlaws.search.searches import Expansion, successors

    p = initial_position(5)
    runs = []
    real_act = ap.act
    monkeypatch.setattr(ap, "act", lambda *a: runs.append(1) or real_act(*a))
    shared = Expansion(p)
    first = list(shared.of(p, OutlawsReadings()))
    n = len(runs)
    assert shared.complete and list(shared.of(p, OutlawsReadings())) == first == list(successors(p)) and n > 0
    assert len(runs) == 2 * n  # the second walk came from the record; successors() walked again
    other = initial_position(6)
    assert list(shared.of(other, OutlawsReadings())) == list(successors(other))  # another position is not taken from it


# ---------------------------------------------------------------- sudden death's layouts laid when wanted


def _sudden_death_again():
    from tests.support.paths import ROOT

    return load_position(ROOT / "scenarios" / "outlaws" / "sudden-death-again.json")


def test_an_action_ending_in_sudden_death_is_one_entry_whose_layouts_are_the_engines(sudden_death_again_walked):
    """Partial expansion (issue 33, ``readings impact outlaws``): lazily, an action every new outcome of which ends
    in sudden death is one :class:`Layouts`; laid, it gives the children :func:`successors` gives for it (same
    outcome numbers, conditions and positions), and each side's win estimate of its bound is at most that of
    every layout (a hidden token may be any)."""
    from solver.outlaws.search.searches import Layouts, estimate_win, expansion, position_key

    p, _, eager = sudden_death_again_walked  # successors(p)
    lazy = list(expansion(p, OutlawsReadings(), lazy=True))
    assert lazy and all(isinstance(item, Layouts) for item in lazy)
    laid = [(a, n, cond, position_key(q)) for item in lazy for a, n, cond, q in item.children()]
    assert laid == [(a, n, cond, position_key(q)) for a, n, cond, q in eager]
    for item in lazy[::20]:
        for side in ("A", "B"):
            bound = min(estimate_win(b, side) for b in item.bounds)
            assert bound <= min(estimate_win(q, side) for *_, q in item.children())
    assert all(isinstance(child, tuple) for child in expansion(initial_position(3), OutlawsReadings(), lazy=True))


def test_the_win_search_lays_only_the_layouts_it_needs(monkeypatch):
    """On sudden-death-again every one of the ~147 distinct actions ends in the 560 layouts (82,320 children); the
    win search lays those of a few and finds the same lines as when it lays them all."""
    from solver.outlaws import apply as ap
    from solver.outlaws.search.searches import Expansion, estimate_win

    p = _sudden_death_again()
    laid = []
    real = ap.apply_sudden_death
    monkeypatch.setattr(ap, "apply_sudden_death", lambda *a: laid.append(1) or real(*a))
    res = win_possible(p, time_limit=600)
    assert res.A is True and res.B is True and res.proven
    assert len(laid) <= 10 * 560, len(laid)
    for side, line in (("A", res.line_A), ("B", res.line_B)):
        assert replay(p, line).winner == side
        eager = best_first(p, lambda q, s=side: q.winner == s, lambda q, s=side: estimate_win(q, s), OutlawsReadings(),
                           12, 600, 10_000, shared=Expansion(p))
        assert eager.line == list(line)


def test_a_search_counts_time_on_the_clock_it_is_given(monkeypatch):
    """The readings' verdicts count CPU seconds (``time.process_time``): on a machine so busy that wall time races
    ahead (here: 1000 s per reading of the wall clock), the status verdict still decides; on the wall clock the
    same search stops at once."""
    import solver.outlaws.search.searches as se
    from solver.outlaws.verify.verdicts import _status
    from solver.readings.verdicts import Settings
    from tests.support.paths import ROOT

    ticks = iter(range(0, 10**9, 1000))
    monkeypatch.setattr(se.time, "perf_counter", lambda: float(next(ticks)))
    path = ROOT / "scenarios" / "outlaws" / "sudden-death-near.json"
    assert _status(path, OutlawsReadings(), Settings(time_limit=10))["win_possible"] == {"A": True, "B": True}
    wall = win_possible(load_position(path), time_limit=10, clock=se.time.perf_counter)
    assert wall.A is None and wall.B is None
