"""The one Lone Cowboy game serialisation (the game record) and the loader of every older shape.

Each older shape is a real output of the code before the record became the one serialisation
(``tests/scenarios/wagons/old-*.json``): it still loads, converts into the record, and that record replays to
the same game. ``wagons play --json`` is the record plus derived fields; an explicit deal's record names it.
"""

from __future__ import annotations

import json

import pytest

from solver import cli
from solver.errors import BadInput
from solver.wagons.game import is_over, scores
from solver.wagons.optimizer.lines import deal_state
from solver.wagons.record.game_json import state_from_json
from solver.wagons.record.game_record import RECORD_KEYS, game_from_record, game_record
from solver.wagons.record.load import DERIVED_KEYS, read_game, record_of
from solver.wagons.simulate import play_game, play_out
from tests.support.builders.wagons import OLD_SHAPES, older_play_output

EXPLICIT = ([0, 2, 3, 4, 5, 7, 8, 9], [10, 11, 12, 13, 14, 15, 16, 17])


def _old(name: str) -> dict:
    return json.loads((OLD_SHAPES / f"old-{name}.json").read_text())


def _same_game(record: dict, doc: dict) -> None:
    """The record is canonical (written again unchanged) and ends where the older document says."""
    state = game_from_record(record)
    assert game_record(state, _start(record)) == record and set(record) <= set(RECORD_KEYS)
    final = scores(state)
    assert is_over(state)
    assert [p.to_dict() for p in state.town.placements] == doc["town"]["placements"]
    assert list(state.pile) == doc.get("opponent_pile", doc.get("pile"))
    if "player" in doc:
        assert (final.player.total, final.opponent.total) == (doc["player"]["total"], doc["opponent"]["total"])


def _start(record: dict):
    deal = record.get("deal")
    return None if deal is None else deal_state(record["scenario"], record["seed"], deal["circle"], deal["deck"])


def test_an_older_game_file_is_the_record_itself():
    doc = _old("record")
    assert record_of(doc) == doc
    assert read_game(doc) == game_from_record(doc)


def test_an_older_kept_game_loads_at_its_step_and_keeps_every_action():
    doc = _old("kept")
    assert read_game(doc) == game_from_record({**doc["record"], "actions": doc["record"]["actions"][:doc["at"]]})
    assert record_of(doc) == doc["record"]
    with pytest.raises(BadInput, match=r"kept\.at: expected a step 0\.\.19"):
        read_game({**doc, "at": 20}, "kept")


@pytest.mark.parametrize("name", ["state-finished", "state-followed"])
def test_an_older_state_document_converts_to_the_record_that_replays_to_it(name):
    doc = _old(name)
    state = state_from_json(doc)
    record = record_of(doc)
    assert game_from_record(record) == state == read_game(doc)
    assert record["seed"] == doc["seed"] and "deal" not in record
    assert record["actions"].count({"opponent": True}) == sum(e["what"] == "opponent-draft" for e in doc["log"])


def test_an_older_play_output_converts_to_the_record_the_same_game_prints_now():
    doc = _old("play-seeded")
    record = record_of(doc)
    _same_game(record, doc)
    now = play_game("boomtown", "greedy", 0).to_dict()
    assert {k: v for k, v in now.items() if k in RECORD_KEYS} == record
    assert older_play_output(now) == doc  # the derived fields did not change


def test_an_older_explicit_deal_play_output_converts_with_its_deal_read_off_the_log():
    doc = _old("play-explicit")
    assert doc["seed"] is None and "actions" not in doc
    record = record_of(doc)
    assert record["deal"] == {"circle": EXPLICIT[0], "deck": EXPLICIT[1]}
    _same_game(record, doc)
    now = play_out(deal_state("cattle-drive", None, *EXPLICIT), "greedy").to_dict()
    assert {k: v for k, v in now.items() if k in RECORD_KEYS} == record


def test_the_play_output_is_the_record_plus_derived_fields():
    out = play_game("gold-rush", "greedy", 4).to_dict()
    record = {k: v for k, v in out.items() if k in RECORD_KEYS}
    assert set(out) == set(record) | set(DERIVED_KEYS)
    assert record == game_record(game_from_record(record)) == record_of(out)
    assert read_game(out) == game_from_record(record)


def test_an_explicit_deal_record_names_its_deal_and_replays():
    start = deal_state("boomtown", 7, [0, 1, 2, 3, 5, 6, 7, 8], [10, 11, 12, 13, 14, 15, 16, 17])
    end = play_out(start, "greedy").state
    record = game_record(end, start)
    assert record["deal"] == {"circle": [0, 1, 2, 3, 5, 6, 7, 8], "deck": [10, 11, 12, 13, 14, 15, 16, 17]}
    assert record["seed"] == 7  # it seeds the policy only; the deal is the one given
    assert game_from_record(json.loads(json.dumps(record))) == end
    with pytest.raises(BadInput, match="deal must be"):
        game_from_record({**record, "deal": {"circle": [0]}})
    with pytest.raises(BadInput, match=r"deal\.circle\[0\]: 99 is not a card id"):
        game_from_record({**record, "deal": {"circle": [99], "deck": []}})


def test_a_shape_that_is_none_of_them_is_one_line():
    with pytest.raises(BadInput, match="expected a JSON object") as exc:
        read_game([1, 2], "upload")
    assert "\n" not in str(exc.value)
    with pytest.raises(BadInput, match="missing field 'actions'"):
        read_game({"game": "lone-cowboy", "version": 1, "scenario": "boomtown", "rules": {}})
    with pytest.raises(BadInput, match="unknown key 'pile'"):
        read_game({**_old("record"), "pile": []})


@pytest.mark.parametrize("name", ["record", "kept", "state-finished", "state-followed", "play-seeded",
                                  "play-explicit"])
def test_replay_reads_every_older_shape(name, capsys):
    code = cli.main(["wagons", "replay", str(OLD_SHAPES / f"old-{name}.json"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["record"] == record_of(_old(name))
    assert out["over"] == is_over(game_from_record(out["record"]))


def test_the_choice_review_of_an_explicit_deal_replays_from_its_deal():
    from solver.wagons.advice.review import _decisions
    from solver.wagons.game import legal_actions

    start = deal_state("cattle-drive", None, *EXPLICIT)
    end = play_out(start, "greedy").state
    todo = _decisions(end, start)
    assert todo and todo[0][0] == start and all(s.to_move == "player" and a in legal_actions(s) for s, a in todo)
    with pytest.raises(BadInput):  # from a followed start the deal's actions do not replay
        _decisions(end)
