"""Outlaws positions (load/save/validate), moves, look/take, the refill (rule:O2), turns, victories,
the sudden-death trigger and reset (rule:O11), and the CLI."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cli import main
from solver.errors import BadInput
from solver.outlaws.actions import Action, legal_actions
from solver.outlaws.apply import outcomes
from solver.outlaws.position import initial_position
from solver.outlaws.position_json import load_position, position_to_json
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.victory import apply_sudden_death, sudden_death_began, sudden_death_trigger, winner
from solver.paths import SCENARIOS
from tests.support.builders.outlaws import build, pos

EXAMPLE = SCENARIOS / "outlaws" / "contracts-example.json"


ALWAYS = OutlawsReadings(optional_effects="always")  # rule:O16 alternative: a correct take is always kept


def only(p, a, readings=OutlawsReadings()):
    outs = outcomes(p, a, readings)
    assert len(outs) == 1, [o.condition for o in outs]
    return outs[0].position


# ---------------------------------------------------------------- load / save / validate


def test_contract_example_round_trip():
    p = load_position(EXAMPLE)
    assert p.to_move == "A" and p.street.A[0] == "governor" and p.tokens[4] == "election"
    assert load_position(position_to_json(p)) == p
    assert json.loads(json.dumps(position_to_json(p))) == position_to_json(p)


@pytest.mark.parametrize("seed", range(5))
def test_initial_position_is_valid(seed):
    p = initial_position(seed)
    assert load_position(position_to_json(p)) == p
    for side in "AB":
        assert "governor" not in p.saloon[side] and len(set(p.street[side]) | set(p.saloon[side])) == 10
    assert len(p.reserve) == 5 and p.supply.A.bullet == 1 and p.supply.B.handcuffs == 1
    assert initial_position(seed, OutlawsReadings(first_player="B")).to_move == "B"


def _broken(**kw):
    return build(**kw)


@pytest.mark.parametrize("data, words", [
    (_broken(tokens=["vote", "vote", "bullet", "vote", "election", "vote", "handcuffs", "x"], reserve=["vote", "vote", "vote", "x", "x"]),
     "wrong token totals"),
    (_broken(A=["reverend", "hitman", "sheriff", "indian", "merchant", "dancer", "journalist", "bandit"],
             saloon={"A": ["governor", "mayor"], "B": ["indian", "journalist"]}), "Governor"),
    (_broken(A=["governor", "hitman", "hitman", "indian", "merchant", "dancer", "journalist", "bandit"]), "twice"),
    (_broken(saloon={"A": ["reverend", "mayor", "sheriff"], "B": ["indian", "journalist"]}), "exactly 2"),
    (_broken(A=["governor", "hitman", "sheriff", "indian", "merchant", "dancer", "journalist"]), "8 columns"),
    (_broken(tokens=["gold", "x", "bullet", "vote", "election", "vote", "handcuffs", "x"]), "unknown token"),
    (_broken(immobilized=[["A", 1]]), "only a Bandit"),
    (_broken(front_page=[["B", 3]]), "Governor"),
    (_broken(tokens=[None, "x", "bullet", "vote", "election", "vote", "handcuffs", "x"], reserve=["vote", "vote", "vote", "vote", "x", "x"]),
     "unknown token slots"),
    (_broken(to_move="C"), "side"),
    (_broken(actions_left=3), "out of range"),
    (_broken(supply={"A": {"front_page": 4}}), "Front Page"),
])
def test_impossible_positions_are_refused(data, words):
    with pytest.raises(BadInput) as err:
        load_position(data)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_unknowns_are_allowed_when_consistent():
    data = build(tokens=[None, "x", "bullet", "vote", "election", "vote", "handcuffs", "x"], reserve=[None, "vote", "vote", "x", "x"])
    p = load_position(data)
    assert p.tokens[0] is None and None in p.reserve


# ---------------------------------------------------------------- moves (rule:O-move, rule:O-saloon)


def test_move_counts_and_saloon():
    p = pos()
    moves = [a for a in legal_actions(p) if a.kind == "move"]
    swaps = [a for a in moves if a.from_saloon is None]
    assert len(swaps) == 2 * 28
    leave = [a for a in moves if a.from_saloon is not None]
    assert all(a.saloon != "governor" for a in leave)
    # 2 Saloon characters x 28 pairs x 4 arrangements, minus the 2 x 7 pairs x 2 where the Governor would enter
    assert len(leave) == 2 * 28 * 4 - 2 * 7 * 2


def test_fake_swap_changes_only_knowledge_and_turn():
    p = only(pos(), Action("ability", "indian", 3, target=3))  # B now knows A's Indian at 3
    q = only(p, Action("move", columns=(3, 4), swap=False))
    assert q.street == p.street and 3 not in q.knowledge.B.characters
    assert q.to_move == "B" and q.actions_left == 2


def test_real_swap_and_leaving_the_saloon():
    p = pos()
    q = only(p, Action("move", columns=(0, 7), swap=True))
    assert q.street.A[0] == "bandit" and q.street.A[7] == "governor"
    a = Action("move", columns=(1, 2), saloon="hitman", from_saloon="mayor", placement=("sheriff", "mayor"), swap=True)
    r = only(p, a)
    assert r.street.A[1:3] == ("sheriff", "mayor") and r.saloon.A == ("hitman", "reverend")
    j = a.to_json()
    assert j["columns"] == [1, 2] and j["saloon"] == "hitman" and Action.from_json(j) == a


def test_two_actions_per_turn():
    p = pos()
    q = only(p, Action("look", "indian", 3))
    assert (q.to_move, q.actions_left) == ("A", 1) and q.knowledge.A.tokens == {3}
    assert 3 in q.knowledge.B.characters
    r = only(q, Action("look", "indian", 3))
    assert (r.to_move, r.actions_left) == ("B", 2)


# ---------------------------------------------------------------- take and refill (rule:O-take, rule:O2, rule:O3)


def test_take_vote_refills_from_reserve():
    p = pos()
    outs = outcomes(p, Action("take", "indian", 3, call="vote"))
    assert {o.condition: str(o.probability) for o in outs} == {
        "A keeps the token; reserve draw: vote": "3/5", "A keeps the token; reserve draw: x": "2/5",
        "A puts the token back": "1"}  # rule:O16: keeping is A's choice, then the draw's chances
    declined = outs[2].position
    assert declined.tokens == p.tokens and declined.supply == p.supply and 3 in declined.knowledge.B.tokens
    outs = outcomes(p, Action("take", "indian", 3, call="vote"), ALWAYS)
    assert {o.condition: str(o.probability) for o in outs} == {"reserve draw: vote": "3/5", "reserve draw: x": "2/5"}
    for o in outs:
        q = o.position
        assert q.supply.A.vote == 1 and len(q.reserve) == 4
        assert q.tokens[1:4] == ("vote", "x", "bullet") and q.tokens[4:] == p.tokens[4:]


def test_take_at_column_0_and_7():
    p = pos(A=["indian", "hitman", "sheriff", "governor", "merchant", "dancer", "journalist", "bandit"])
    for o in outcomes(p, Action("take", "indian", 0, call="vote"), ALWAYS):
        assert o.position.tokens[1:] == p.tokens[1:]
    p = pos(tokens=["vote", "x", "bullet", "vote", "election", "vote", "handcuffs", "vote"], reserve=["vote", "vote", "x", "x", "x"])
    for o in outcomes(p, Action("take", "bandit", 7, call="vote"), ALWAYS):
        assert o.position.tokens[1:] == p.tokens[:7] and o.position.supply.A.vote == 1


def test_failed_take_stays_and_both_know():
    p = pos()
    q = only(p, Action("take", "bandit", 7, call="vote"))  # a Bogus token
    assert q.tokens == p.tokens and q.supply == p.supply
    assert 7 in q.knowledge.A.tokens and 7 in q.knowledge.B.tokens


def test_calls_per_character():
    acts = legal_actions(pos())
    calls = {(a.actor, a.call) for a in acts if a.kind == "take"}
    assert ("hitman", "bullet") in calls and ("sheriff", "handcuffs") in calls and ("indian", "vote") in calls
    assert ("indian", "bullet") not in calls and ("governor", "vote") not in calls
    assert not any(a.call == "x" for a in acts)


def test_refill_with_empty_reserve_both_readings():
    p = pos(reserve=[], supply={"A": {"vote": 3}}, discard={"x": 2})
    q = only(p, Action("take", "indian", 3, call="vote"), ALWAYS)
    assert q.tokens == ("empty", "vote", "x", "bullet", "election", "vote", "handcuffs", "x")
    alt = OutlawsReadings(refill_empty_reserve="slide_other_end", optional_effects="always")
    r = only(p, Action("take", "indian", 3, call="vote"), alt)
    assert r.tokens == ("vote", "x", "bullet", "election", "vote", "handcuffs", "x", "empty")
    assert all(a.column != 0 for a in legal_actions(q) if a.kind in ("look", "take"))


def test_token_knowledge_slides_with_the_row():
    p = only(pos(), Action("look", "sheriff", 2))
    outs = outcomes(p, Action("take", "indian", 3, call="vote"), ALWAYS)
    assert all(o.position.knowledge.A.tokens == {3} for o in outs)  # the seen token slid from 2 to 3


# ---------------------------------------------------------------- victories and sudden death (rule:O11)


def test_winner_reads_the_position():
    assert winner(pos()) is None
    won = load_position(build(winner="B", victory="ugly"))
    assert winner(won) == ("B", "ugly") and legal_actions(won) == ()


SD = dict(A=["indian", "hitman", "sheriff", "governor", "merchant", "dancer", "journalist", "bandit"],
          tokens=["vote", "x", "x", "x", "x", "election", "empty", "empty"], reserve=[],
          supply={"A": {"vote": 2, "bullet": 0, "handcuffs": 0}, "B": {"vote": 3, "bullet": 0, "handcuffs": 0}},
          discard={"bullet": 3, "handcuffs": 3})


def test_sudden_death_trigger_and_reset():
    p = pos(**SD)
    assert not sudden_death_trigger(p)
    outs = outcomes(p, Action("take", "indian", 0, call="vote"), ALWAYS)
    assert len(outs) == 560  # 8! / (3! 3! 2!) arrangements
    assert len(outcomes(p, Action("take", "indian", 0, call="vote"))) == 561  # + A puts the Vote back
    assert sum(o.probability for o in outs) == 1
    for o in outs[:20]:
        q = o.position
        assert q.sudden_death and sorted(q.tokens) == sorted(["bullet"] * 3 + ["handcuffs"] * 3 + ["x"] * 2)
        assert q.reserve == () and q.discard.bullet == 0 and q.discard.handcuffs == 0
        assert q.discard.x == 2 and q.discard.election == 1 and q.winner is None
        assert not sudden_death_trigger(q) and q.knowledge.A.tokens == frozenset()
        assert load_position(position_to_json(q)) == q


def test_sudden_death_trigger_needs_all_six_used():
    data = build(**{**SD, "supply": {"A": {"vote": 3, "bullet": 1, "handcuffs": 0}, "B": {"vote": 3, "bullet": 0, "handcuffs": 0}},
                    "discard": {"bullet": 2, "handcuffs": 3}, "tokens": ["x", "x", "x", "x", "election", "empty", "empty", "empty"]})
    assert not sudden_death_trigger(load_position(data))
    data = build(**{**SD, "supply": {"A": {"vote": 3, "bullet": 0, "handcuffs": 0}, "B": {"vote": 3, "bullet": 0, "handcuffs": 0}},
                    "tokens": ["x", "x", "x", "x", "election", "empty", "empty", "empty"]})
    p = load_position(data)
    assert sudden_death_trigger(p)
    q = apply_sudden_death(p, ["bullet", "x", "handcuffs", "bullet", "handcuffs", "x", "bullet", "handcuffs"])
    assert q.tokens[0] == "bullet" and q.sudden_death
    assert apply_sudden_death(p, random.Random(3)) == apply_sudden_death(p, random.Random(3))
    with pytest.raises(BadInput):
        apply_sudden_death(p, ["bullet"] * 8)


def test_after_sudden_death_only_bad_and_ugly():
    data = build(**{**SD, "supply": {"A": {"vote": 3, "bullet": 0, "handcuffs": 0}, "B": {"vote": 3, "bullet": 0, "handcuffs": 0}},
                    "tokens": ["x", "x", "x", "x", "election", "empty", "empty", "empty"]})
    q = apply_sudden_death(load_position(data), ["x", "bullet", "handcuffs", "bullet", "handcuffs", "x", "bullet", "handcuffs"])
    acts = legal_actions(q)
    assert not any(a.call == "election" or (a.actor == "governor" and a.kind == "ability") for a in acts)
    r = only(q, Action("take", "hitman", 1, call="bullet"), ALWAYS)  # the Hitman may take Bullets again
    assert r.supply.A.bullet == 1 and r.tokens[0] == "empty" and r.winner is None


# ---------------------------------------------------------------- CLI (contracts.md)


def test_cli_moves_and_status(capsys):
    assert main(["outlaws", "moves", str(EXAMPLE), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    kinds = {a["kind"] for a in out["actions"]}
    assert kinds == {"move", "look", "take", "ability"}
    for a in out["actions"]:
        if a["kind"] == "move":
            assert "columns" in a and "saloon" in a
        else:
            assert "actor" in a and "column" in a
        if a["kind"] == "take":
            assert a["call"]
    assert main(["outlaws", "status", str(EXAMPLE), "--json", "--time-limit", "2", "--max-depth", "4"]) == 0
    st = json.loads(capsys.readouterr().out)
    assert st["winner"] is None and st["victory"] is None and st["sudden_death_trigger"] is False
    import importlib.util

    if importlib.util.find_spec("solver.outlaws.search.searches") is not None:  # the verification engineer's search
        assert set(st["win_possible"]) == {"A", "B"}


def test_cli_apply_and_rules(capsys):
    action = json.dumps({"kind": "take", "actor": "indian", "column": 3, "call": "vote"})
    assert main(["outlaws", "apply", str(EXAMPLE), "--action", action, "--outcome", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [o["probability"] for o in out["outcomes"]] == ["3/5", "2/5", "1/1"]
    assert out["position"]["tokens"][0] == "x"
    assert main(["outlaws", "moves", str(EXAMPLE), "--rule", "sheriff_save=stop", "--json"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("argv", [
    ["outlaws", "moves", "/no/such/file.json"],
    ["outlaws", "moves", str(EXAMPLE), "--rule", "sheriff_save=maybe"],
    ["outlaws", "moves", str(EXAMPLE), "--rule", "nonsense"],
    ["outlaws", "apply", str(EXAMPLE), "--action", "{\"kind\": \"look\", \"actor\": \"indian\", \"column\": 4}"],
    ["outlaws", "apply", str(EXAMPLE), "--action", "99999"],
    ["outlaws", "apply", str(EXAMPLE), "--action", "not json"],
])
def test_cli_bad_input_exit_2(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err


def test_cli_bad_position_file(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(build(saloon={"A": ["governor", "mayor"], "B": ["indian", "journalist"]})))
    assert main(["outlaws", "status", str(bad)]) == 2
    assert "Governor" in capsys.readouterr().err


def test_view_hides_what_a_side_does_not_know():
    from solver.outlaws.position import view

    p = only(pos(), Action("ability", "indian", 3, target=3))
    p = only(p, Action("look", "indian", 3))
    v = view(p, "A")
    assert v.street.A == p.street.A and v.street.B[3] == "governor"
    assert [c for c in range(8) if v.street.B[c] is not None] == [3]
    assert [c for c in range(8) if v.tokens[c] is not None] == [3] and v.reserve == (None,) * 5
    assert load_position(position_to_json(v)) == v  # a view is a valid position with unknowns
    vb = view(p, "B")
    assert vb.street.A[3] == "indian" and sum(x is not None for x in vb.street.A) == 1
    with pytest.raises(BadInput):
        view(p, "C")


def test_every_scenario_loads_and_keeps_its_promise():
    folder = SCENARIOS / "outlaws"
    files = sorted(folder.glob("*.json"))
    assert len(files) >= 8
    for f in files:
        data = json.loads(f.read_text())
        assert data.get("provenance"), f.name
        load_position(f)
    hit = Action("ability", "hitman", 1, target=1)
    assert len(outcomes(load_position(folder / "sheriff-save.json"), hit)) == 3
    sd = outcomes(load_position(folder / "sudden-death-near.json"), Action("take", "indian", 0, call="vote"))
    assert len(sd) == 561 and all(o.position.sudden_death for o in sd if "keeps" in o.condition)
    gov = load_position(folder / "governor-can-win.json")
    assert all(o.position.victory == "good" for o in outcomes(gov, Action("ability", "governor", 4)))
    rev = load_position(folder / "immobilized-bandit.json")
    assert Action("ability", "reverend", 6, target=5) in legal_actions(rev)
    assert winner(load_position(folder / "won-ugly.json")) == ("B", "ugly")
    vb = load_position(folder / "view-of-B.json")
    assert vb.street.A.count(None) == 6 and vb.tokens.count(None) == 8 and vb.to_move == "B"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 20) | st.sampled_from(["A", "B", "vote", "x", "empty", "governor", "bandit", "zz"]),
    lambda inner: st.lists(inner, max_size=9) | st.dictionaries(st.sampled_from(["A", "B", "vote", "bullet"]), inner, max_size=3),
    max_leaves=12)


def _loads_or_refuses_in_one_line(data: dict) -> None:
    """The loader refuses ``data`` in one line, or its position round-trips and has legal actions."""
    try:
        p = load_position(data)
    except BadInput as exc:
        assert "\n" not in str(exc)
    else:
        assert load_position(position_to_json(p)) == p
        legal_actions(p)


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from(["to_move", "actions_left", "street", "saloon", "tokens", "reserve", "supply", "discard",
                            "immobilized", "front_page", "sudden_death", "winner", "victory", "knowledge"]),
       value=json_values, drop=st.booleans())
def test_loader_never_crashes(key, value, drop):
    data = json.loads(EXAMPLE.read_text())
    if drop:
        data.pop(key, None)
    else:
        data[key] = value
    _loads_or_refuses_in_one_line(data)


@settings(max_examples=150, deadline=None)
@given(path=st.sampled_from([("street", "A", 0), ("street", "B", 7), ("saloon", "A", 1), ("tokens", 3), ("reserve", 0),
                             ("supply", "A", "vote"), ("supply", "B", "front_page"), ("discard", "bullet"),
                             ("immobilized",), ("front_page",)]),
       value=json_values)
def test_loader_never_crashes_nested(path, value):
    data = json.loads(EXAMPLE.read_text())
    node = data
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    _loads_or_refuses_in_one_line(data)


def test_sudden_death_repeat_reading():
    """Morte Subitanea: 'Non appena l'ultimo di questi gettoni sia stato reclamato/utilizzato' -- after a
    first sudden death, Votes 3-3, A's last Bullet is spent on B's Reverend: all 6 Bullets and Handcuffs
    are used again, so (default "repeats") the reset happens a second time; with "once" it does not."""
    data = build(tokens=["x", "x", "empty", "empty", "empty", "empty", "empty", "empty"], reserve=[],
                 supply={"A": {"vote": 3, "bullet": 1, "handcuffs": 0}, "B": {"vote": 3, "bullet": 0, "handcuffs": 0}},
                 discard={"bullet": 2, "handcuffs": 3, "x": 2, "election": 1}, sudden_death=True)
    p = load_position(data)
    assert not sudden_death_trigger(p)  # one Bullet is still in A's supply
    miss = Action("ability", "hitman", 1, target=1)  # B's column 1 is the Reverend (helpers' BASE_B)
    once = OutlawsReadings(sudden_death_repeats="once")
    q = only(p, miss, once)
    assert q.discard.bullet == 3 and q.tokens == p.tokens and not sudden_death_trigger(q, once)
    assert sudden_death_trigger(q) and sudden_death_trigger(q, OutlawsReadings())  # the default reads "repeats"
    outs = outcomes(p, miss)
    assert len(outs) == 560  # 8! / (3! 3! 2!): the second reset, every arrangement
    for o in outs[:10]:
        r = o.position
        assert r.sudden_death and sorted(r.tokens) == sorted(["bullet"] * 3 + ["handcuffs"] * 3 + ["x"] * 2)
        assert r.discard.x == 2 and r.discard.bullet == 0 and r.discard.handcuffs == 0 and r.reserve == ()
        assert load_position(position_to_json(r)) == r


def test_sudden_death_began_names_the_action_that_triggers_it():
    """rule:O11: the action that triggers sudden death, the first time (every layout of the Indian's Vote) and again
    after a first one (the Hitman's last Bullet, sudden_death_repeats="repeats"); not an action that only follows
    it, nor a put-back Vote."""
    p = pos(**SD)
    take = outcomes(p, Action("take", "indian", 0, call="vote"))
    began = [o for o in take if sudden_death_began(p, o.position)]
    assert len(began) == 560 and all(o.position.sudden_death for o in began)
    assert [o.condition for o in take if not sudden_death_began(p, o.position)] == ["A puts the token back"]
    later = began[0].position
    move = next(a for a in legal_actions(later) if a.kind == "move")
    assert not sudden_death_began(later, only(later, move))
    again = load_position(build(tokens=["x", "x", "empty", "empty", "empty", "empty", "empty", "empty"], reserve=[],
                                supply={"A": {"vote": 3, "bullet": 1, "handcuffs": 0},
                                        "B": {"vote": 3, "bullet": 0, "handcuffs": 0}},
                                discard={"bullet": 2, "handcuffs": 3, "x": 2, "election": 1}, sudden_death=True))
    miss = Action("ability", "hitman", 1, target=1)
    assert all(sudden_death_began(again, o.position) for o in outcomes(again, miss))
    assert not sudden_death_began(again, only(again, miss, OutlawsReadings(sudden_death_repeats="once")))


def test_contract_outcomes_without_the_legality_check_are_the_same():
    """game.outcomes(check=False), for callers iterating legal_actions, gives what the checked call gives; the
    checked call still refuses an illegal play."""
    from solver.outlaws import game as gm

    g = gm.Game(pos(**SD))
    plays = gm.legal_actions(g)
    assert all(gm.outcomes(g, p, check=False) == gm.outcomes(g, p) for p in plays[::7])
    with pytest.raises(BadInput):
        gm.outcomes(g, gm.Play(Action("take", "indian", 0, call="bullet")))
