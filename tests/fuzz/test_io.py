"""Hostile input for the shared JSON/TOML reader (solver/io/): every failure is one BadInput line
(the helpers the fuzz tests share are in ``tests/support/fuzz.py``)."""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.errors import BadInput
from solver.io.numbers import MAX_NUMBER_CHARS
from solver.io.read import (
    MAX_BYTES,
    MAX_DEPTH,
    as_int,
    parse_json_text,
    parse_toml_text,
    read_data,
    read_json,
    read_toml,
    require,
)
from tests.support.fuzz import FUZZ, assert_one_line, deep, json_values, no_hang
from tests.support.limits import HANG_GUARD

broken_json = st.one_of(
    st.sampled_from(["", "{", "}", "[", "{\"a\": }", "{'a': 1}", "[1, 2,]", "NaN", "nul", "{\"a\" 1}",
                     "\"unterminated", "1" * 5000, "-" + "9" * 5000, "[" * 40 + "]" * 40, "\x00",
                     "\ufeff{}", "{\"a\": 1} trailing", "1e999999"]),
    st.text(max_size=200),
    st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
)


def mutate(doc: str, data) -> str:
    """A valid JSON document with a few characters deleted, duplicated or replaced."""
    if not doc:
        return doc
    i = data.draw(st.integers(0, len(doc) - 1))
    op = data.draw(st.sampled_from(["drop", "dup", "swap", "cut"]))
    if op == "drop":
        return doc[:i] + doc[i + 1:]
    if op == "dup":
        return doc[:i] + doc[i] * 3 + doc[i:]
    if op == "cut":
        return doc[:i]
    return doc[:i] + data.draw(st.sampled_from(list("{}[],:\"0-e. x"))) + doc[i + 1:]


# --- the JSON reader ---------------------------------------------------------------------------


@FUZZ
@given(text=broken_json)
def test_parse_json_text_never_crashes(text):
    with no_hang():
        try:
            parse_json_text(text, "fuzz.json")
        except BadInput as exc:
            assert_one_line(exc)
            assert str(exc).startswith("fuzz.json:")


@FUZZ
@given(raw=st.binary(max_size=400))
def test_parse_json_bytes_never_crash(raw):
    try:
        parse_json_text(raw, "fuzz.json")
    except BadInput as exc:
        assert_one_line(exc)


@FUZZ
@given(value=json_values)
def test_valid_json_round_trips(value):
    text = json.dumps(value)
    if _longest_number(value) > MAX_NUMBER_CHARS:
        with pytest.raises(BadInput, match="characters|allows"):
            parse_json_text(text)
    else:
        assert parse_json_text(text) == json.loads(text)


def _longest_number(value) -> int:
    if isinstance(value, dict):
        return max(map(_longest_number, value.values()), default=0)
    if isinstance(value, list):
        return max(map(_longest_number, value), default=0)
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return MAX_NUMBER_CHARS + 1  # Infinity is not JSON: refused like an overlong number
    return len(json.dumps(value)) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


@FUZZ
@given(value=json_values, data=st.data())
def test_mutated_json_is_parsed_or_refused_in_one_line(value, data):
    text = mutate(json.dumps({"placements": value, "pile": [1, 2, 3]}), data)
    try:
        parse_json_text(text)
    except BadInput as exc:
        assert_one_line(exc)


@pytest.mark.parametrize("kind", ["[", "{"])
@pytest.mark.parametrize("levels", [MAX_DEPTH, MAX_DEPTH + 1, 1000, 100_000, MAX_BYTES // 2])
def test_deep_nesting_is_refused_without_recursion_error(kind, levels):
    text = deep(levels, kind)
    with no_hang():
        if levels <= MAX_DEPTH:
            parse_json_text(text)
            return
        with pytest.raises(BadInput) as info:
            parse_json_text(text)
    assert_one_line(info.value)


def test_brackets_inside_strings_do_not_count_as_nesting():
    assert parse_json_text(json.dumps({"s": "[" * 5000})) == {"s": "[" * 5000}


@pytest.mark.parametrize("digits", [4300, 4301, 100_000])
def test_huge_integer_literals_are_refused_in_one_line(digits):
    text = "[" + "9" * digits + "]"
    with no_hang():
        try:
            assert parse_json_text(text) == [int("9" * digits)]
        except BadInput as exc:
            assert_one_line(exc)


def test_large_files_are_refused_before_reading(tmp_path):
    big = tmp_path / "big.json"
    big.write_text("[" + "0," * (MAX_BYTES // 2) + "0]")
    with pytest.raises(BadInput, match="too large") as info:
        read_json(big)
    assert_one_line(info.value)
    with pytest.raises(BadInput, match="too large"):
        parse_json_text(b" " * (MAX_BYTES + 1))
    with pytest.raises(BadInput, match="too large"):
        parse_toml_text("#" * (MAX_BYTES + 1))


@pytest.mark.parametrize("make", ["missing", "directory", "latin1", "empty", "fifo_free_binary"])
def test_unreadable_files_are_one_line(tmp_path, make):
    path = tmp_path / "f.json"
    if make == "directory":
        path.mkdir()
    elif make == "latin1":
        path.write_bytes("caf\xe9".encode("latin-1"))
    elif make == "empty":
        path.write_text("")
    elif make == "fifo_free_binary":
        path.write_bytes(bytes(range(256)))
    with pytest.raises(BadInput) as info:
        read_json(path)
    assert_one_line(info.value)
    assert str(path) in str(info.value)


# --- the TOML reader ---------------------------------------------------------------------------

broken_toml = st.one_of(
    st.sampled_from(["a =", "[a", "a = [1,", "a = \"x", "= 1", "[[a]]\n[a]", "a = 1\na = 2",
                     "a = " + "[" * 5000 + "]" * 5000, "a = " + "{b = " * 3000 + "1" + "}" * 3000,
                     "a = 1979-13-45", "a = 99999999999999999999999", "a = inf\nb = nan"]),
    st.text(max_size=200),
)


@FUZZ
@given(text=broken_toml)
def test_parse_toml_text_never_crashes(text):
    with no_hang():
        try:
            result = parse_toml_text(text, "fuzz.toml")
            assert isinstance(result, dict)
        except BadInput as exc:
            assert_one_line(exc)


@FUZZ
@given(raw=st.binary(max_size=300), suffix=st.sampled_from([".json", ".toml"]))
def test_read_data_on_any_bytes(tmp_path, raw, suffix):
    path = tmp_path / f"doc{suffix}"
    path.write_bytes(raw)
    try:
        read_data(path)
    except BadInput as exc:
        assert_one_line(exc)
    if suffix == ".toml":
        with pytest.raises(BadInput) if _bad_toml(raw) else _noop():
            read_toml(path)


def _bad_toml(raw: bytes) -> bool:
    try:
        parse_toml_text(raw)
        return False
    except BadInput:
        return True


@contextmanager
def _noop():
    yield


# --- field checks ------------------------------------------------------------------------------


@FUZZ
@given(value=json_values, lo=st.integers(-5, 5), span=st.integers(0, 30))
def test_as_int_accepts_only_ints_in_range(value, lo, span):
    hi = lo + span
    ok = isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi
    if ok:
        assert as_int(value, "n", lo, hi) == value
    else:
        with pytest.raises(BadInput) as info:
            as_int(value, "n", lo, hi)
        assert_one_line(info.value)
        assert len(str(info.value)) < 200  # huge values are cut, not echoed whole


@FUZZ
@given(doc=json_values, kind=st.sampled_from([int, str, list, dict, (int, float)]))
def test_require_names_the_field(doc, kind):
    try:
        require(doc, "card", kind, "town.placements[0]")
    except BadInput as exc:
        assert_one_line(exc)
        assert "town.placements[0]" in str(exc)


def test_path_strings_in_messages(tmp_path):
    path = tmp_path / "we ird\nname.json"
    with pytest.raises(BadInput) as info:
        read_json(path)
    assert_one_line(info.value)


@pytest.fixture
def tmp_path(tmp_path_factory) -> Path:  # hypothesis-friendly (one folder per test, reused by examples)
    return tmp_path_factory.mktemp("fuzz")


# --- integers too long for Python's int/str conversion (4300 digits) ---------------------------


@pytest.mark.parametrize("literal", ["9" * 4301, "-" + "9" * 6000])
def test_toml_integer_beyond_4300_digits_is_bad_input(literal):
    """solver/io/ parse_toml_text lets tomllib's plain ValueError through (a traceback in the CLI)."""
    with pytest.raises(BadInput) as info:
        parse_toml_text(f"a = {literal}", "fuzz.toml")
    assert_one_line(info.value)


def test_as_int_on_a_huge_out_of_range_integer_is_bad_input():
    """as_int formats the value whole; past 4300 digits str() raises ValueError (TOML '0x' + 5000 'f')."""
    with pytest.raises(BadInput) as info:
        parse_toml_text("a = 0x" + "f" * 5000)  # refused by the reader itself now
    assert_one_line(info.value)
    with pytest.raises(BadInput) as info:
        as_int(int("f" * 4000, 16), "town.placements[0].x", 0, 20)
    assert_one_line(info.value)
    assert len(str(info.value)) < 200


# --- special files: endless devices and pipes must not hang or eat memory -----------------------

_READ_IN_CHILD = """
import sys
from solver.errors import BadInput
from solver.io.read import read_json
try:
    read_json(sys.argv[1])
except BadInput as exc:
    print("BadInput", exc)
"""


def _read_in_child(path: str) -> str:
    """read_json(path) in a child with a 10 s timeout and a 2 GiB address-space cap."""
    import resource
    import subprocess
    import sys

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    try:
        done = subprocess.run([sys.executable, "-c", _READ_IN_CHILD, path], capture_output=True, text=True,
                              timeout=10, preexec_fn=cap)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"read_json({path!r}) hangs") from None
    assert done.returncode == 0, done.stderr.strip().splitlines()[-1:]
    return done.stdout


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_an_endless_device_is_refused_not_read_forever():
    """solver/io/ _read_bytes trusts st_size (0 for a device) and then reads the whole stream."""
    assert _read_in_child("/dev/zero").startswith("BadInput /dev/zero:")


def test_a_named_pipe_without_writer_is_refused_not_waited_on(tmp_path):
    """solver/io/ _read_bytes opens a FIFO, which blocks until a writer appears (a hang)."""

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert _read_in_child(str(fifo)).startswith(f"BadInput {fifo}:")




# --- numbers typed as text: digits, exponent and magnitude bounded before converting (issue 16) ---

from solver.io.numbers import parse_float_text, parse_fraction_text, parse_int_text  # noqa: E402

_NUMBER_PIECES = ["1", "9" * 30, "9" * 45, "0", "-", "+", ".", "e", "E", "e999999999", "e-999999999", "/", "/0",
                  "_", " ", "nan", "inf", "0x", "1e30", "1e31", "\u0663", "²", "½"]
number_texts = st.one_of(st.lists(st.sampled_from(_NUMBER_PIECES), max_size=6).map("".join),
                         st.text(alphabet="0123456789eE+-./ _", max_size=60),
                         st.sampled_from(["1e999999999", "9" * 5000, "-1e999999999/3", "1/" + "9" * 5000,
                                          "0." + "0" * 100 + "1", "1e-999999999"]))


@FUZZ
@given(text=number_texts, parse=st.sampled_from([parse_int_text, parse_float_text, parse_fraction_text]))
def test_number_text_is_bounded_before_converting(text, parse):
    """Every text either converts to a number of modest size or is one BadInput line, never a hang."""
    with no_hang(int(HANG_GUARD)):  # a hang guard, not a speed claim
        try:
            value = parse(text, "n")
        except BadInput as exc:
            assert_one_line(exc)
            assert len(str(exc)) < 200
            value = None
    if value is not None:
        assert len(text.strip()) <= MAX_NUMBER_CHARS
        assert abs(value) < 10**41 and (isinstance(value, int) or value == 0 or abs(value) > 10**-62)


@pytest.mark.parametrize("text", ["1e999999999", "1e31", "9" * 41, "1/0", "nan", "inf", "-inf", "1_000", "0x10",
                                  "\u0663", "", " ", "true",
                                  "9" * 30 + "1e30", "0." + "0" * 30 + "1e-30"])  # 1e61 and 1e-61: found by the fuzzer
def test_hostile_number_texts_are_refused(text):
    for parse in (parse_int_text, parse_float_text, parse_fraction_text):
        with no_hang(5), pytest.raises(BadInput):
            parse(text, "n")


def test_number_texts_that_are_fine():
    from fractions import Fraction

    assert parse_fraction_text(" 1/3 ", "p") == Fraction(1, 3)
    assert parse_fraction_text("0.25", "p") == Fraction(1, 4)
    assert parse_fraction_text("2e-3", "p") == Fraction(1, 500)
    assert parse_float_text("1e30", "s") == 1e30
    assert parse_int_text("-12", "n") == -12
    with pytest.raises(BadInput, match="out of range"):
        parse_int_text("5", "n", 0, 4)


@pytest.mark.parametrize("text", ['{"a": 1, "a": 2}', '{"x": {"b": 1, "b": 1}}', '[{"rot": 0, "rot": 180}]'])
def test_duplicate_json_keys_are_refused_in_one_line(text):
    with pytest.raises(BadInput, match="appears twice") as info:
        parse_json_text(text, "town.json")
    assert_one_line(info.value)


@pytest.mark.parametrize("text", ["[NaN]", "[Infinity]", "[-Infinity]", "[1e999]", "[" + "1" * 41 + "]"])
def test_json_numbers_beyond_the_bounds_are_refused(text):
    with pytest.raises(BadInput) as info:
        parse_json_text(text, "doc.json")
    assert_one_line(info.value)


def test_messages_shorten_long_numbers():
    from solver.errors import MAX_MESSAGE

    exc = BadInput("--n: " + "9" * 4000 + " is out of range " + "x" * 5000)
    assert len(str(exc)) <= MAX_MESSAGE and "<4000 digits>" in str(exc)


def test_an_output_name_too_long_for_its_folder_is_refused_before_any_work(tmp_path):
    from solver.io.output import TEMP_NAME_EXTRA, _name_max, output_target

    most = _name_max(tmp_path) - TEMP_NAME_EXTRA
    assert output_target(tmp_path / ("a" * most)) == tmp_path / ("a" * most)
    with pytest.raises(BadInput, match=rf"^--line-out '.*: the file name is too long \(at most {most} bytes"):
        output_target(tmp_path / ("a" * (most + 1)), "--line-out")
    assert not list(tmp_path.iterdir())
