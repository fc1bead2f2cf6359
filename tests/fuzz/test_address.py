"""Hostile address parameters (issue 33, "a link breaks a page"): every parameter a page reads from its address goes
through :func:`dashboard.shared.work.urldoc.decode` and its schema (:mod:`dashboard.shared.work.addresses`), and whatever
the link holds, the decoder answers a document the page can use, or one BadInput line; never another exception.

"The page can use it" is checked with the page's own next step (:data:`PAGE_USE`): a document the decoder accepts
must give the page a value or a BadInput, as a well-formed document of the wrong type ("unhashable type", "'<' not
supported") did not."""

from __future__ import annotations

import base64
import json
import random
import re
import zlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dashboard import nav
from dashboard.ask import draft as ask_draft
from dashboard.cactus import addresses as cactus_addresses
from dashboard.cactus import companion
from dashboard.outlaws import addresses as outlaws_addresses
from dashboard.outlaws import position_work
from dashboard.shared.readings import readings_from_doc
from dashboard.shared.work import addresses, urldoc
from dashboard.wagons import addresses as wagons_addresses
from dashboard.wagons import game as wg
from dashboard.wagons import view as wv
from solver.ask.examples import examples
from solver.ask.question import question_to_doc
from solver.cactus import companion as cp
from solver.cactus.readings import CactusReadings
from solver.errors import BadInput
from solver.io.read import MAX_DEPTH
from solver.outlaws import game as ogm
from solver.outlaws import line as ln
from solver.outlaws.position import initial_position
from solver.outlaws.position_json import position_to_json
from solver.outlaws.readings import OutlawsReadings
from solver.wagons import game as wgm
from solver.wagons.record.game_record import game_record
from tests.support.dashboard.apptest import shown
from tests.support.fuzz import (
    FUZZ,
    FUZZ_EXAMPLES,
    assert_loader_is_total,
    assert_one_line,
    deep,
    json_values,
    mutated_document,
    no_hang,
)

ISSUE_LINK = "eNrtwTENAAAAAqCgzv41rOEBJAAAwLsCAAD3BkhrbLk"
"""The issue's 43 characters: JSON nested 3,000 deep once inflated."""
TAB_LABELS = ["Marshal's arrival", "Follow a game", "Lone ranger's turn", "Duel odds"]
TAB = addresses.tab(TAB_LABELS)
PLAIN = (addresses.AT, TAB)
EVERY = nav.DOCUMENTS + PLAIN
BY_NAME = {a.name: a for a in nav.DOCUMENTS}


# ----------------------------------------------------------------------------- real documents of each parameter

def wagons_game(seed: int, steps: int) -> dict:
    """The play-along's ``{"record", "at"}`` after ``steps`` random legal actions of a seeded deal."""
    state, rng = wgm.new_game("boomtown", seed), random.Random(seed)
    for _ in range(steps):
        actions = () if wgm.is_over(state) else wgm.legal_actions(state)
        if not actions:
            break
        state = wgm.apply(state, rng.choice(actions))
    record = game_record(state)
    return {"record": record, "at": rng.randint(0, len(record["actions"]))}


def outlaws_line(seed: int, steps: int) -> dict:
    """An Outlaws table line of ``steps`` random plays, each with a random outcome."""
    game = start = ogm.initial_state(seed)
    rng, done = random.Random(seed), []
    for _ in range(steps):
        plays = ogm.legal_actions(game)
        if not plays:
            break
        play = rng.choice(plays)
        outs = ogm.outcomes(game, play)
        k = rng.randrange(len(outs))
        done.append(ln.Step(play, k))
        game = outs[k][1]
    return ln.line_to_json(start, done)


SOLO_ROUNDS = [cp.Record(programmed=(1, 2, 3), second_shot=4), cp.Record(programmed=(5, 1, 4), second_shot=2),
               cp.Record(programmed=(6, 2, 3)), cp.Record(programmed=(1, 7, 5), second_shot=3)]
EXAMPLE_SHEET = {"scenario": "gold-rush", "rows": [{"card": 13, "x": 1, "y": 1, "rot": 0},
                                                   {"card": 4, "x": 0, "y": 1, "rot": None}], "pile": [3, 7, 11]}


def valid_documents() -> dict[str, list[Any]]:
    """Documents each page writes in its address (built as the pages build them)."""
    games = [wagons_game(0, 0), wagons_game(3, 9), wagons_game(5, 60)]
    return {
        "readings": [{}, {"wagons": {"boom_or_bust": "flat", "round1_window": 2}},
                     {"cactus": {"duel_win_chance": "1/2", "solo_events": True}, "outlaws": {}}],
        "lc": games, "lc_own": games,
        "sheet": [EXAMPLE_SHEET, {"scenario": "boomtown", "rows": [], "pile": []}],
        "cactus": [companion.new_game(None, [1, 2, 3, 4]),
                   {**companion.new_game(None, [1, 2, 3, 4]), "history": [cp.record_to_json(r) for r in SOLO_ROUNDS]},
                   {**companion.new_game(3, [1, 2, 3, 4]), "history": [cp.record_to_json(cp.Record(event="sandstorm"))]}],
        "line": [outlaws_line(0, 0), outlaws_line(1, 6)],
        "pos": [{"position": position_to_json(initial_position(seed=5, readings=OutlawsReadings())), "seed": 5},
                position_to_json(initial_position(seed=2, readings=OutlawsReadings()))],
        "ask": [json.loads(json.dumps(question_to_doc(e.question))) for e in examples()[::4]],
    }


VALID = valid_documents()


# ----------------------------------------------------------------------------- what each page does next

def _use_readings(doc: dict) -> None:
    for game, part in doc.items():
        readings = readings_from_doc(game, part)
        {k: getattr(readings, k) for k in part}  # noqa: B018 - what readings_from_address keeps


def _use_game(doc: dict) -> None:
    record = wg.load_record(doc.get("record"))
    at = doc.get("at", len(record["actions"]))
    if not 0 <= at <= len(record["actions"]):
        raise BadInput("a bad step number")
    wg.replay(record, at)


def _use_cactus(doc: dict) -> None:
    game = companion.check_game(doc)
    history = [cp.record_from_json(r, n) for n, r in enumerate(game["history"], start=1)]
    cp.report(game["players"], CactusReadings(), history, tuple(game["marked"]))


PAGE_USE = {"readings": _use_readings, "lc": _use_game, "lc_own": _use_game, "sheet": wv.load_sheet,
            "cactus": _use_cactus, "line": ln.line_from_json, "pos": position_work.load,
            "ask": lambda doc: ask_draft.build_of(ask_draft.from_doc(doc))}
"""Each parameter's next step on its page (:mod:`dashboard.shared.readings`, :mod:`dashboard.wagons.game`,
the score sheet, the round companion, the Outlaws table)."""


def decoded_and_used(address: urldoc.Address, text: Any) -> Any:
    """The page's reading of ``text``: decoded, then (a document) handed to the page's next step."""
    value = urldoc.decode(text, address)
    if not address.plain:
        PAGE_USE[address.name](value)
    return value


def assert_refused(address: urldoc.Address, text: Any, why: str = "") -> str:
    with no_hang(), pytest.raises(BadInput) as caught:
        urldoc.decode(text, address)
    assert_one_line(caught.value)
    line = shown(str(caught.value))  # as the page shows it (the decoder's line is plain text: Markdown escapes)
    assert why in line, line
    assert line.startswith(address.what), line
    return line


def packed(raw: str | bytes) -> str:
    """``raw`` as the address would carry it (zlib, base64url), whatever it is."""
    data = raw.encode() if isinstance(raw, str) else raw
    return base64.urlsafe_b64encode(zlib.compress(data)).decode().rstrip("=")


# ----------------------------------------------------------------------------- the documents the pages write

@pytest.mark.parametrize("address", nav.DOCUMENTS, ids=lambda a: a.name)
def test_the_documents_the_pages_write_are_read_back_unchanged(address):
    assert VALID[address.name]
    for doc in VALID[address.name]:
        assert decoded_and_used(address, urldoc.encode(doc)) == doc


@settings(FUZZ, max_examples=max(10, FUZZ_EXAMPLES // 10))  # each example plays and replays two games
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 80))
def test_any_game_or_line_played_through_the_engine_is_read_back(seed, steps):
    for address, doc in ((wagons_addresses.LC, wagons_game(seed, steps)), (outlaws_addresses.LINE, outlaws_line(seed, steps // 4))):
        assert decoded_and_used(address, urldoc.encode(doc)) == doc


def test_plain_parameters_read_their_values():
    assert urldoc.decode("0", addresses.AT) == 0 and urldoc.decode("17", addresses.AT) == 17
    for label in TAB_LABELS:
        assert urldoc.decode(label, TAB) == label


# ----------------------------------------------------------------------------- the issue's links

@pytest.mark.parametrize("address", nav.DOCUMENTS, ids=lambda a: a.name)
def test_the_issue_link_nested_3000_deep_is_refused_in_one_line(address):
    assert len(ISSUE_LINK) == 43 and zlib.decompress(base64.urlsafe_b64decode(ISSUE_LINK + "=")).count(b"[") == 3000
    assert_refused(address, ISSUE_LINK, f"nested deeper than {MAX_DEPTH} levels")


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, 1000, 3000, 100_000])
@pytest.mark.parametrize("kind", ["[", "{"])
@pytest.mark.parametrize("address", nav.DOCUMENTS, ids=lambda a: a.name)
def test_deep_nesting_is_refused(address, kind, levels):
    assert_refused(address, packed(deep(levels, kind)), "nested deeper")


def test_wrong_types_in_well_formed_documents_are_refused_before_the_page_uses_them():
    """The issue's cases: a list as the sheet's scenario ("unhashable type"), a list of players and marked cards
    mixing text and numbers on the round companion ("'<' not supported")."""
    sheet = {**EXAMPLE_SHEET, "scenario": ["gold-rush"]}
    assert_refused(wagons_addresses.SHEET, urldoc.encode(sheet), "scenario: expected text, got a list")
    game = companion.new_game(None, [1, 2, 3, 4])
    assert_refused(cactus_addresses.CACTUS, urldoc.encode({**game, "players": [3]}), "players: expected a whole number")
    assert_refused(cactus_addresses.CACTUS, urldoc.encode({**game, "marked": [1, "2", 3, 4]}),
                   "marked[1]: expected a whole number, got text")


@pytest.mark.parametrize("text", ["²", "٣", "1" * 5000, "-1", "1e3", "0x1f", "3.0", "", " ", "1 2", "NaN", "∞",
                                  "12\u0663", "9" * 41])
def test_a_step_that_is_not_ascii_digits_or_is_huge_is_refused(text):
    """``?line=<a valid line>&at=²`` (``"²".isdigit()`` holds, ``int("²")`` fails) and ``at=`` with 5,000 digits
    (beyond Python's int conversion limit) broke the Outlaws table."""
    assert_refused(addresses.AT, text)


# ----------------------------------------------------------------------------- hostile texts and documents

encodings = st.sampled_from([urldoc.encode(d) for docs in VALID.values() for d in docs])


@st.composite
def damaged_encoding(draw):
    """A real encoding cut short, with characters changed, inserted or deleted."""
    text = list(draw(encodings))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text) - 1))
        op = draw(st.sampled_from(["flip", "insert", "delete"]))
        ch = draw(st.sampled_from("AZaz09-_=+/ é²"))
        if op == "flip":
            text[i] = ch
        elif op == "insert":
            text.insert(i, ch)
        elif len(text) > 1:
            del text[i]
    return "".join(text)[: draw(st.integers(0, len(text)))]


any_text = st.one_of(st.text(max_size=300), st.from_regex(r"[A-Za-z0-9_-]{0,200}", fullmatch=True),
                     damaged_encoding(), encodings, st.sampled_from(["", "=", "==", "A", "AA=", ISSUE_LINK]))


@FUZZ
@given(address=st.sampled_from(EVERY), text=any_text)
def test_any_text_is_read_or_refused_in_one_line(address, text):
    assert_loader_is_total(lambda t: decoded_and_used(address, t), text)


@pytest.mark.parametrize("address", nav.DOCUMENTS, ids=lambda a: a.name)
def test_every_truncation_of_a_real_document_is_refused(address):
    for doc in VALID[address.name]:
        text = urldoc.encode(doc)
        for end in range(len(text)):
            assert_refused(address, text[:end])


json_texts = st.one_of(json_values.map(json.dumps), json_values.map(json.dumps),
                       st.builds(deep, st.integers(MAX_DEPTH - 2, 5000), st.sampled_from("[{")))
"""Any JSON document, or one nested 30 to 5,000 deep."""


@FUZZ
@given(address=st.sampled_from(nav.DOCUMENTS), text=json_texts)
def test_any_json_document_is_checked_or_refused(address, text):
    assert_loader_is_total(lambda t: decoded_and_used(address, t), packed(text))


@FUZZ
@given(data=st.data())
def test_mutations_of_real_documents_are_checked_or_refused(data):
    """Wrong types anywhere (a list for a name, text among numbers, a huge number, a missing or extra key):
    the schema refuses them, or the page's next step takes them or refuses them in one line."""
    address = data.draw(st.sampled_from(nav.DOCUMENTS))
    doc = data.draw(mutated_document(data.draw(st.sampled_from(VALID[address.name]))))
    assert_loader_is_total(lambda t: decoded_and_used(address, t), urldoc.encode(doc))


REFUSED_NUMBERS = ["9" * 5000, "-" + "9" * 5000, "1" + "0" * 40, "1e999", "-1e999", "1E400", "²", "٣", "١٢", "NaN",
                   "Infinity", "-Infinity", "0x10", "1_000", "+1", "01", ".5", "1."]
"""Number literals a hand-made link could spell that no parameter takes: longer than 40 characters, not finite, with
non-ASCII digits, or not JSON at all."""
OTHER_NUMBERS = ["1" + "0" * 39, "-0", "1.0", "1e-999", "3.000000000000000001", "2e2", "-7"]
"""Well-formed numbers: read where the schema takes a number of that kind and size, refused elsewhere."""
PLACEHOLDER = "\u2063number\u2063"


def _places(doc: Any, path: tuple = ()) -> list[tuple]:
    """The path of every value in ``doc`` (the document itself first)."""
    inner = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    return [path] + [p for key, value in inner for p in _places(value, path + (key,))]


@st.composite
def with_literal(draw, literal: str) -> tuple[urldoc.Address, str]:
    """A parameter and the JSON text of one of its real documents with one value spelled as ``literal``."""
    address = draw(st.sampled_from(nav.DOCUMENTS))
    doc = json.loads(json.dumps(draw(st.sampled_from(VALID[address.name]))))
    path = draw(st.sampled_from(_places(doc)))
    if not path:
        return address, literal
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = PLACEHOLDER
    return address, json.dumps(doc).replace(json.dumps(PLACEHOLDER), literal)


@FUZZ
@given(data=st.data(), literal=st.sampled_from(REFUSED_NUMBERS + OTHER_NUMBERS))
def test_huge_and_non_ascii_numbers_anywhere_are_refused_or_read(data, literal):
    address, text = data.draw(with_literal(literal))
    outcome = assert_loader_is_total(lambda t: decoded_and_used(address, t), packed(text))
    if literal in REFUSED_NUMBERS:
        assert outcome is None, (literal, outcome)


def refusal_of(literal: str) -> str:
    """The reason the decoder gives for a number spelled ``literal`` (one of :data:`REFUSED_NUMBERS`)."""
    if len(literal) > 40:
        return "characters (at most 40)"
    if literal.lstrip("-").lower() in ("1e999", "1e400"):
        return "is not finite"
    return "is not a number JSON allows" if literal.lstrip("-") in ("NaN", "Infinity") else "invalid JSON"


def first_leaf_spelled(doc: Any, literal: str) -> str:
    """The JSON text of ``doc`` with its first single value (depth first) spelled as ``literal``."""
    doc = json.loads(json.dumps(doc))
    path = next((p for p in _places(doc)[1:] if not isinstance(_value_at(doc, p), (dict, list))), ())
    if not path:
        return literal
    parent = _value_at(doc, path[:-1])
    parent[path[-1]] = PLACEHOLDER
    return json.dumps(doc).replace(json.dumps(PLACEHOLDER), literal)


def _value_at(doc: Any, path: tuple) -> Any:
    for key in path:
        doc = doc[key]
    return doc


@pytest.mark.parametrize("literal", REFUSED_NUMBERS)
@pytest.mark.parametrize("address", nav.DOCUMENTS, ids=lambda a: a.name)
def test_a_huge_or_non_ascii_number_in_a_real_document_is_one_line_naming_it(address, literal):
    """The decoder names the number (its length, not finite, not JSON), as the file loaders do; the old one called
    a 5,000-digit number "not JSON", took ``1e999`` for infinity and ``NaN`` for a number."""
    for doc in VALID[address.name]:
        assert_refused(address, packed(first_leaf_spelled(doc, literal)), refusal_of(literal))


def test_duplicate_keys_and_oversized_documents_are_refused():
    for address in nav.DOCUMENTS:
        doc = VALID[address.name][-1]
        key = sorted(doc)[0] if doc else "wagons"
        assert_refused(address, packed(json.dumps(doc)[:-1] + f', "{key}": null}}'), "appears twice")
        assert_refused(address, packed(b"[" + b" " * 2_000_000 + b"]"), "too large")
        assert_refused(address, "A" * (urldoc.MAX_TEXT + 1), "too long")
        assert_refused(address, packed('{"a": "caf\xe9"}'.encode("latin-1")), "not UTF-8")


# ----------------------------------------------------------------------------- another page's documents

@pytest.mark.parametrize("address", EVERY, ids=lambda a: a.name)
def test_a_valid_document_of_another_parameter_is_refused(address):
    """A link whose parameter holds another page's state (``?sheet=`` holding a Cactus Town game): one line."""
    same = {address.name} | ({"lc", "lc_own"} if address.name in ("lc", "lc_own") else set())
    others = [doc for name, docs in VALID.items() if name not in same for doc in docs]
    assert others
    for doc in others:
        assert_refused(address, urldoc.encode(doc))
    for text in ("0", "12", TAB_LABELS[0], "Follow a game"):  # a step or a tab's label where a document goes
        if not address.plain:
            assert_refused(address, text)


@FUZZ
@given(text=st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=60))
def test_a_step_of_any_digits_is_an_ascii_number_or_refused(text):
    try:
        value = urldoc.decode(text, addresses.AT)
    except BadInput as exc:
        assert_one_line(exc)
        return
    assert text.isascii() and value == int(text)


def _spelled_otherwise(action: dict) -> list[dict]:
    """``action`` with one whole number spelled as an equal float (``0.0``) or true/false, one at a time."""
    out = []
    for key, value in action.items():
        if isinstance(value, int) and not isinstance(value, bool):
            out += [{**action, key: float(value)}] + ([{**action, key: bool(value)}] if value in (0, 1) else [])
        elif isinstance(value, list) and value and all(type(v) is int for v in value):
            out.append({**action, key: [float(value[0])] + value[1:]})
    return out


def test_an_outlaws_action_with_a_column_spelled_as_a_float_is_refused_in_one_line():
    """Found by the number fuzzer above: ``"column": 1e-999`` (0.0) equals a legal action's column 0, passed the
    legality check and then failed as a tuple index (TypeError) in the engine's replay; in a link and in
    ``outlaws apply --action`` alike. The engine's action loader now checks each field's kind."""
    from solver.outlaws.actions import Action

    game, seen = ogm.initial_state(0), 0
    for play in ogm.legal_actions(game):
        for spelled in _spelled_otherwise(ogm.action_to_json(play)):
            seen += 1
            doc = ln.line_to_json(game, [])
            doc["steps"] = [{"action": spelled, "outcome": 0}]
            assert_refused(outlaws_addresses.LINE, urldoc.encode(doc), "expected")
            with pytest.raises(BadInput, match="expected"):
                Action.from_json({k: v for k, v in spelled.items() if k != "reactions"})
    assert seen > 10


def test_outlaws_apply_refuses_a_column_spelled_as_a_float_with_exit_code_2(tmp_path, capsys):
    from solver import cli
    from solver.outlaws.position_json import position_to_json

    game = ogm.initial_state(0)
    action = next(ogm.action_to_json(p) for p in ogm.legal_actions(game) if "column" in ogm.action_to_json(p))
    action = {k: v for k, v in action.items() if k != "reactions"}
    position = tmp_path / "position.json"
    position.write_text(json.dumps(position_to_json(game.position)))
    assert cli.main(["outlaws", "apply", str(position), "--action", json.dumps(action)]) == 0
    capsys.readouterr()
    spelled = json.dumps({**action, "column": float(action["column"])})
    assert cli.main(["outlaws", "apply", str(position), "--action", spelled]) == 2
    err = capsys.readouterr().err.strip()
    assert "action.column: expected a whole number" in err and "\n" not in err, err


UNPRINTABLE = ['"\\ud800"', '"\\udfff"', '"a\\udc80b"', '"\\u0000"', '"\\u001b[31mred"', '"\\u202eevil"', '"\\u2028"',
               '"\\ud83d\\ude00\\ud800"', '{"\\ud800": 1}', '["\\udce9"]']
"""JSON text no page can print as it is: lone surrogates, control and format characters (as the address spells
them, JSON escapes)."""


@FUZZ
@given(data=st.data(), literal=st.sampled_from(UNPRINTABLE))
def test_text_that_cannot_be_printed_anywhere_is_refused_in_a_line_that_can(data, literal):
    address, text = data.draw(with_literal(literal))
    try:
        decoded_and_used(address, packed(text))
    except BadInput as exc:
        assert_one_line(exc)
        assert str(exc).isprintable(), repr(str(exc))
        str(exc).encode("utf-8")


MARKUP = ['"![x](http://127.0.0.1:9/x.png)"', '"<img src=x onerror=alert(1)>"', '"**loud** _i_ `c` ~~s~~"',
          '":red[red] :material/home: $x^2$"', '"[a](javascript:alert(1))"', '"# heading"', '{"![k](http://x/)": 1}']
"""Text an address could carry that Markdown would read as markup (an image link makes the browser fetch it)."""
_ACTIVE = re.compile(r"(?<!\\)(?:\\\\)*[`*~<\[\]$]")


@FUZZ
@given(data=st.data(), literal=st.sampled_from(MARKUP))
def test_markup_anywhere_in_an_address_is_refused_as_plain_text(data, literal):
    """The decoder's lines; the pages' own next steps show theirs as plain text too (test_address_pages.py)."""
    address, text = data.draw(with_literal(literal))
    try:
        urldoc.decode(packed(text), address)
    except BadInput as exc:
        assert_one_line(exc)
        assert not _ACTIVE.search(str(exc)), str(exc)  # every markup character escaped where the page shows it
