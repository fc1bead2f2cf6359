"""Lone Cowboy game files (:mod:`solver.wagons.record.game_record`) and ``ruleslinger wagons replay``.

A record gives back its state (seeded and followed games, finished or not, every prefix), every bad
file is refused with one line naming the problem, an illegal action is named by its index and why,
and the CLI prints the state, the scores when over and the next legal actions, exit 2 on bad input.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import cli
from solver.errors import BadInput
from solver.paths import SCENARIOS
from solver.wagons.data import SCENARIO_IDS
from solver.wagons.game import (
    Reveal,
    apply,
    chance_outcomes,
    is_chance_node,
    is_over,
    legal_actions,
    new_followed_game,
    new_game,
    scores,
)
from solver.wagons.optimizer.bestplay import deal_state
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_json import state_to_json
from solver.wagons.record.game_record import game_from_record, game_record

EXAMPLE = SCENARIOS / "wagons" / "examples" / "followed-game.json"


def _walk(state, seed: int, stop: int | None = None):
    rng = random.Random(seed)
    states = [state]
    while not is_over(state) and (stop is None or len(states) <= stop):
        state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    return states


def _round_trip(state):
    doc = json.loads(json.dumps(game_record(state)))
    back = game_from_record(doc)
    assert back == state and game_record(back) == doc
    return doc


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=st.sampled_from(SCENARIO_IDS), seed=st.integers(0, 10**6), followed=st.booleans(),
       edition=st.sampled_from(["original", "later"]))
def test_every_state_of_a_game_gives_back_its_record(scenario, seed, followed, edition):
    readings = WagonsReadings(edition=edition)
    start = new_followed_game(scenario, readings) if followed else new_game(scenario, seed, readings)
    states = _walk(start, seed)
    for n, s in enumerate(states):
        doc = _round_trip(s)
        assert len(doc["actions"]) == n
        assert doc["seed"] == (None if followed else seed) and doc["rules"] == readings.to_json()


def test_record_shape():
    states = _walk(new_followed_game("boomtown"), 3, stop=12)
    doc = game_record(states[-1])
    assert list(doc) == ["game", "version", "scenario", "rules", "seed", "actions"]
    assert doc["game"] == "lone-cowboy" and doc["version"] == 1 and doc["seed"] is None
    assert doc["actions"][:9] == [{"reveal": c} for c in states[9].circle + states[9].deck]  # circle, deck top
    assert all(set(a) <= {"reveal", "draft", "place", "opponent"} for a in doc["actions"])


def test_an_explicit_deal_has_no_record():
    s = deal_state("boomtown", None, [0, 1, 2, 3, 5, 6, 7, 8], [10, 11, 12, 13, 14, 15, 16, 17])
    with pytest.raises(BadInput, match="does not replay"):
        game_record(s)


def _good() -> dict:
    return game_record(_walk(new_game("gold-rush", 5), 1, stop=6)[-1])


def _followed() -> dict:
    return game_record(_walk(new_followed_game("gold-rush"), 1, stop=14)[-1])


BAD = [
    ("not an object", lambda d: [1, 2], "expected a JSON object"),
    ("unknown key", lambda d: {**d, "extra": 1}, "unknown key 'extra'"),
    ("missing actions", lambda d: {k: v for k, v in d.items() if k != "actions"}, "missing field 'actions'"),
    ("missing scenario", lambda d: {k: v for k, v in d.items() if k != "scenario"}, "missing field 'scenario'"),
    ("wrong game", lambda d: {**d, "game": "wagons"}, 'game must be "lone-cowboy"'),
    ("version 2", lambda d: {**d, "version": 2}, "version 2 is not supported"),
    ("version text", lambda d: {**d, "version": "1"}, "version '1' is not supported"),
    ("version true", lambda d: {**d, "version": True}, "version True is not supported"),
    ("unknown scenario", lambda d: {**d, "scenario": "nosuch"}, "unknown scenario 'nosuch'"),
    ("scenario number", lambda d: {**d, "scenario": 3}, "scenario must be a scenario id"),
    ("rules list", lambda d: {**d, "rules": []}, "rules must be an object"),
    ("unknown reading", lambda d: {**d, "rules": {"nosuch": 1}}, "unknown option"),
    ("bad reading", lambda d: {**d, "rules": {"edition": "third"}}, "rules.edition"),
    ("negative seed", lambda d: {**d, "seed": -1}, "seed: -1 is out of range"),
    ("float seed", lambda d: {**d, "seed": 5.0}, "seed: expected an integer"),
    ("actions object", lambda d: {**d, "actions": {}}, "actions must be a list, got dict"),
    ("too many actions", lambda d: {**d, "actions": [{"draft": 0}] * 201}, "201 actions"),
    ("malformed action", lambda d: {**d, "actions": d["actions"][:2] + [{"jump": 1}]}, r"actions\[2\]: expected"),
    ("illegal draft", lambda d: {**d, "actions": [{"draft": 9}]}, r"actions\[0\] .*draft: index 9 is not 0..7"),
    ("place before draft", lambda d: {**d, "actions": [{"place": {"card": 1, "x": 0, "y": 0, "rot": 0}}]},
     r"actions\[0\] .*no card to place"),
    ("reveal in a seeded game", lambda d: {**d, "actions": [{"reveal": 3}]}, r"actions\[0\] .*nothing to reveal"),
    ("opponent out of turn", lambda d: {**d, "actions": [{"opponent": True}]}, r"actions\[0\] .*player's turn"),
    ("followed: draft before reveals", lambda d: {**d, "seed": None, "actions": [{"draft": 0}]},
     r"actions\[0\] .*must be revealed first"),
]


@pytest.mark.parametrize(("name", "mutate", "message"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_file_is_refused_with_one_line(name, mutate, message):
    with pytest.raises(BadInput, match=message) as err:
        game_from_record(mutate(_good()))
    assert "\n" not in str(err.value)


def test_a_reveal_of_a_seen_card_names_where_it_is():
    doc = _followed()
    first = doc["actions"][0]["reveal"]
    with pytest.raises(BadInput, match=rf"actions\[1\] .*reveal: card {first} is in the circle"):
        game_from_record({**doc, "actions": [doc["actions"][0], {"reveal": first}]})
    aside = new_followed_game("gold-rush").removed[0]
    with pytest.raises(BadInput, match=r"set aside with the goal cards"):
        game_from_record({**doc, "actions": [{"reveal": aside}]})


def test_a_seedless_record_without_the_seed_key_is_a_followed_game():
    doc = _followed()
    del doc["seed"]
    assert game_from_record(doc) == game_from_record(_followed())


_VALUES = st.none() | st.booleans() | st.integers(-3, 20) | st.text(max_size=4) | st.lists(st.integers(0, 20), max_size=3)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.booleans(), data=st.data(), value=_VALUES | st.dictionaries(st.text(max_size=5), _VALUES, max_size=3))
def test_hostile_records(which, data, value):
    doc = _followed() if which else _good()
    if data.draw(st.booleans()) and doc["actions"]:
        i = data.draw(st.integers(0, len(doc["actions"]) - 1))
        doc["actions"][i] = value
    else:
        doc[data.draw(st.sampled_from([*doc, "other"]))] = value
    try:
        state = game_from_record(doc)
    except BadInput as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert game_from_record(game_record(state)) == state


def test_the_example_game_file_replays():
    doc = json.loads(EXAMPLE.read_text())
    state = game_from_record(doc)
    assert state.seed is None and game_record(state) == doc
    assert is_chance_node(state) or state.to_move in ("player", "opponent")


# ---------------------------------------------------------------- the CLI


def _cli(capsys, *argv):
    rc = cli.main(["wagons", "replay", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_replay_cli_prints_state_scores_and_next_actions(tmp_path, capsys):
    over = _walk(new_game("water-the-herd", 8), 2)[-1]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_record(over)))
    rc, out, err = _cli(capsys, str(path), "--json")
    r = json.loads(out)
    assert rc == 0 and r["over"] and r["legal_actions"] == [] and r["chances"] == []
    assert r["scores"] == scores(over).to_dict() and r["state"] == state_to_json(over)
    rc, out, _ = _cli(capsys, str(path))
    assert rc == 0 and f"player {scores(over).player.total} - opponent {scores(over).opponent.total}" in out


def test_replay_cli_at_a_chance_node_and_a_prefix(tmp_path, capsys):
    states = _walk(new_followed_game("boomtown"), 4)
    path = tmp_path / "followed.json"
    path.write_text(json.dumps(game_record(states[-1])))
    rc, out, _ = _cli(capsys, str(path), "--json", "--upto", "3")
    r = json.loads(out)
    assert rc == 0 and r["to_move"] == "chance" and not r["over"] and r["scores"] is None
    assert r["state"] == state_to_json(states[3]) and len(r["record"]["actions"]) == 3
    expected = [{"reveal": a.card, "probability": str(p)} for p, a in chance_outcomes(states[3])]
    assert r["chances"] == expected and r["legal_actions"] == [{"reveal": c["reveal"]} for c in expected]
    assert r["chances"][0]["probability"] == "1/13"
    rc, out, _ = _cli(capsys, str(path), "--upto", "9")
    assert rc == 0 and "player to move" in out and f"deck: {states[9].deck[0]} (+7 unseen)" in out


@pytest.mark.parametrize(("text", "message"), [
    ("{", "JSON"), ("[]", "expected a JSON object"),
    ('{"game": "lone-cowboy", "version": 3, "scenario": "boomtown", "rules": {}, "seed": 1, "actions": []}',
     "version 3 is not supported"),
    ('{"game": "lone-cowboy", "version": 1, "scenario": "boomtown", "rules": {}, "seed": 1, "actions": [{"draft": 8}]}',
     r"actions\[0\]"),
])
def test_replay_cli_bad_files_exit_2_with_one_line(tmp_path, capsys, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    rc, out, err = _cli(capsys, str(path), "--json")
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert pytest.importorskip("re").search(message, err), err


def test_replay_cli_bad_upto_and_missing_file(tmp_path, capsys):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game_record(new_game("boomtown", 1))))
    rc, _, err = _cli(capsys, str(path), "--upto", "1")
    assert rc == 2 and "--upto: expected 0..0" in err
    rc, _, err = _cli(capsys, str(tmp_path / "missing.json"))
    assert rc == 2 and len(err.strip().splitlines()) == 1


def test_a_finished_followed_game_file_scores_like_the_seeded_game(tmp_path, capsys):
    """The example of issue 19: a physical game followed by entering only what is revealed."""
    seeded = new_game("cattle-drive", 21)
    deal, k = seeded.circle + seeded.deck, 0
    f = new_followed_game("cattle-drive")
    rng = random.Random(0)
    while not is_over(f):
        if is_chance_node(f):
            f, k = apply(f, Reveal(deal[k])), k + 1
            continue
        a = rng.choice(legal_actions(f))
        f, seeded = apply(f, a), apply(seeded, a)
    path = tmp_path / "f.json"
    path.write_text(json.dumps(game_record(f)))
    rc, out, _ = _cli(capsys, str(path), "--json")
    assert rc == 0 and json.loads(out)["scores"] == scores(seeded).to_dict()
