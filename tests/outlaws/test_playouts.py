"""Property tests over random playouts: every generated action applies and keeps the invariants
(token totals, Saloons of 2, no Governor in a Saloon, immobilized characters never move); the
playout rows and the Polars wrapper."""

from __future__ import annotations

import dataclasses
import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.outlaws.actions import legal_actions
from solver.outlaws.apply import outcomes, step
from solver.outlaws.position import CHARACTERS, TOKEN_TOTALS, initial_position
from solver.outlaws.position_json import load_position, position_to_json
from solver.outlaws.readings import CHOICES, OutlawsReadings
from solver.outlaws.search.playout import COLUMNS, playout, playouts, summary
from tests.support.builders.outlaws import pos

readings_strategy = st.builds(OutlawsReadings, **{k: st.sampled_from(v) for k, v in CHOICES.items()})


def check_invariants(before, after):
    assert load_position(position_to_json(after)) == after  # totals, duplicates, Saloons, markers
    for side in "AB":
        assert len(after.saloon[side]) == 2 and "governor" not in after.saloon[side]
        assert sorted(after.street[side] + after.saloon[side]) == sorted(CHARACTERS)
    for side, name in before.immobilized & after.immobilized:
        assert before.column_of(side, name) == after.column_of(side, name)
    placed = [t for t in after.tokens + after.reserve if t != "empty"]
    held = sum(getattr(s, k) for s in after.supply for k in ("vote", "bullet", "handcuffs", "election"))
    discarded = sum(getattr(after.discard, k) for k in TOKEN_TOTALS)
    assert len(placed) + held + discarded == sum(TOKEN_TOTALS.values())
    assert after.supply.A.front_page + after.supply.B.front_page + len(after.front_page) + after.discard.front_page == 6
    if after.sudden_death and not before.sudden_death:
        assert before.supply.A.vote == 3 or after.supply.A.vote == 3
        assert after.supply.A.vote == 3 and after.supply.B.vote == 3


def walk(p, readings, rng, steps, enumerate_every=7):
    for n in range(steps):
        acts = legal_actions(p, readings)
        if not acts:
            assert p.winner is not None
            return p
        assert len(set(acts)) == len(acts)  # each distinct choice once
        a = rng.choice(acts)
        if n % enumerate_every == 0:
            outs = outcomes(p, a, readings)
            assert outs and all(0 < o.probability <= 1 for o in outs)
            assert sum(o.probability for o in outs) >= 1  # each reaction choice's branches sum to 1
            for o in outs[:40]:
                check_invariants(p, o.position)
        q = step(p, a, readings, rng)
        check_invariants(p, q)
        p = q
    return p


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), readings=readings_strategy)
def test_random_playouts_keep_invariants(seed, readings):
    rng = random.Random(seed)
    walk(initial_position(seed, readings), readings, rng, 120)


SD_NEAR = dict(A=["indian", "hitman", "sheriff", "governor", "merchant", "dancer", "journalist", "bandit"],
               tokens=["vote", "x", "x", "x", "x", "election", "empty", "empty"], reserve=[],
               supply={"A": {"vote": 2, "bullet": 0, "handcuffs": 0}, "B": {"vote": 3, "bullet": 0, "handcuffs": 0}},
               discard={"bullet": 3, "handcuffs": 3})


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), readings=readings_strategy)
def test_playouts_through_sudden_death_keep_invariants(seed, readings):
    from solver.outlaws.actions import Action

    rng = random.Random(seed)
    keep = dataclasses.replace(readings, optional_effects="always")  # the Vote is kept: sudden death
    p = step(pos(**SD_NEAR), Action("take", "indian", 0, call="vote"), keep, rng)
    assert p.sudden_death
    end = walk(p, readings, rng, 150, enumerate_every=5)
    assert end.victory in (None, "bad", "ugly")


def test_playout_row_is_deterministic_and_picklable():
    row = playout(3, OutlawsReadings(), max_actions=150)
    assert set(row) == set(COLUMNS)
    assert row == playout(3, OutlawsReadings(), max_actions=150)
    assert pickle.loads(pickle.dumps(playout)) is playout
    assert pickle.loads(pickle.dumps(OutlawsReadings(sheriff_save="stop"))) == OutlawsReadings(sheriff_save="stop")
    assert pickle.loads(pickle.dumps(initial_position(1))) == initial_position(1)
    assert row["length"] <= 150 and row["finished"] == (row["winner"] is not None)


def test_playouts_frame_and_summary():
    df = playouts(4, seed=10, max_actions=120, chunk=3)
    assert df.height == 4 and list(df.columns) == list(COLUMNS)
    assert df["seed"].to_list() == [10, 11, 12, 13]
    s = summary(df)
    assert s["playouts"] == 4
    assert abs(s["share_good"] + s["share_bad"] + s["share_ugly"] + s["share_unfinished"] - 1) < 1e-9


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60))
def test_every_action_resolves_from_a_players_view(seed, steps):
    """Hidden characters, tokens and reserve draws (None) are enumerated as outcomes, each a valid position."""
    from solver.outlaws.position import view

    rng = random.Random(seed)
    p = initial_position(seed)
    for _ in range(steps):
        acts = legal_actions(p)
        if not acts:
            break
        p = step(p, rng.choice(acts), OutlawsReadings(), rng)
    if p.winner is not None:
        return
    v = view(p, p.to_move)
    for a in legal_actions(v):
        if a.kind == "move" and rng.random() < 0.9:
            continue
        outs = outcomes(v, a)
        assert outs
        for o in outs[:25]:
            assert load_position(position_to_json(o.position)) == o.position
