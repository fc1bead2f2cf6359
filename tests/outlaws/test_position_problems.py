"""Every problem of an Outlaws position document at once (python-chess's ``status()``; issue 31 "values, not
strings"): :func:`position_problems` lists them all, the loader refuses with one line naming them ("3 problems:
a; b; c"), and the command line prints that line with exit code 2.

A fault below breaks one part of a valid document (its ``part``); a fault whose check reads other parts
(``needs``: the token totals read every token place, a mark the street it names) can only be seen when those parts
are sound, so a set of faults is *independent* when no fault needs a part another one breaks. Each fault alone is
exactly one problem, and k independent faults are exactly k problems, each one's own line.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cli import main
from solver.errors import MAX_MESSAGE, BadInput
from solver.outlaws.position_json import position_from_json, position_problems, refusal
from tests.support.builders.outlaws import build

STREETS = frozenset({"street.A", "street.B", "saloon.A", "saloon.B"})
TOKEN_PLACES = frozenset({"tokens", "reserve", "supply.A", "supply.B", "discard"})


@dataclass(frozen=True)
class Fault:
    part: str  # the part of the document it breaks (one fault per part)
    change: Callable[[dict], None]
    says: str  # a fragment of its problem's line
    needs: frozenset = frozenset()  # the parts its check reads

    def __repr__(self) -> str:
        return self.part


def _set(*path_and_value):
    *path, key, value = path_and_value

    def change(doc: dict) -> None:
        for p in path:
            doc = doc.setdefault(p, {})
        doc[key] = value
    return change


def _col(side: str, col: int, value):
    return lambda doc: doc["street"][side].__setitem__(col, value)


FAULTS = (
    Fault("to_move", _set("to_move", "C"), "position.to_move: side must be"),
    Fault("actions_left", _set("actions_left", 0), "position.actions_left: 0 is out of range"),
    Fault("street.A", _col("A", 0, "cowboy"), "position.street.A[0]: unknown character 'cowboy'"),
    Fault("street.B", lambda d: d["street"]["B"].pop(), "position.street.B: Main Street has 8 columns, got 7"),
    Fault("saloon.A", lambda d: d["saloon"]["A"].__setitem__(1, 42), "position.saloon.A[1]: unknown character 42"),
    Fault("saloon.B", lambda d: d["saloon"]["B"].append("governor"), "position.saloon.B: the Saloon holds exactly 2"),
    Fault("tokens", lambda d: d["tokens"].__setitem__(1, "gold"), "position.tokens[1]: unknown token 'gold'"),
    Fault("reserve", lambda d: d["reserve"].__setitem__(0, "silver"), "position.reserve[0]: unknown token 'silver'"),
    Fault("supply.A", _set("supply", "A", "vote", -1), "position.supply.A.vote: -1 is out of range"),
    Fault("supply.B", _set("supply", "B", "front_page", 4), "position.supply.B.front_page: a player has at most 3"),
    Fault("immobilized", _set("immobilized", [["A", 0, 1]]), "position.immobilized[0]: expected a [side, column] pair"),
    Fault("front_page", _set("front_page", "all"), "position.front_page: expected a list"),
    Fault("discard", _set("discard", "bullet", "two"), "position.discard.bullet"),
    Fault("winner", lambda d: d.update(winner="C", victory="good"), "position.winner: side must be"),
    Fault("sudden_death", _set("sudden_death", "yes"), "position.sudden_death: expected true or false"),
    Fault("knowledge.A", _set("knowledge", "A", "tokens", [9]), "position.knowledge.A.tokens: 9 is out of range"),
    Fault("knowledge.B", _set("knowledge", "B", []), "position.knowledge.B: expected an object"),
    # faults seen only when the parts they read are sound
    Fault("twice", _col("A", 7, "governor"), "position: A has governor twice", frozenset({"street.A", "saloon.A"})),
    Fault("totals", _set("discard", "x", 1), "wrong token totals: 5 x tokens found", TOKEN_PLACES),
    Fault("immobilized", _set("immobilized", [["A", 1]]), "only a Bandit can be immobilized", STREETS),
    Fault("front_page", _set("front_page", [["B", 0], ["B", 1]]), "Front Page markers add up to 8, expected 6",
          STREETS | {"supply.A", "supply.B", "discard"}),
)


def independent(faults) -> list[Fault]:
    """The faults of ``faults`` kept in order while they stay independent of those kept before."""
    kept: list[Fault] = []
    for f in faults:
        parts = {k.part for k in kept}
        if f.part not in parts and not f.needs & parts and not any(k.needs & {f.part} for k in kept):
            kept.append(f)
    return kept


def broken(faults) -> dict:
    doc = json.loads(json.dumps(build()))
    for f in faults:
        f.change(doc)
    return doc


def test_the_base_document_is_sound_and_the_faults_are_distinct():
    assert position_problems(build()) == []
    assert len({f.says for f in FAULTS}) == len(FAULTS)


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f"{f.part}:{f.says[:30]}")
def test_each_fault_alone_is_one_problem_and_the_refusal_names_it(fault):
    problems = position_problems(broken([fault]))
    assert len(problems) == 1 and fault.says in problems[0], problems
    with pytest.raises(BadInput) as err:
        position_from_json(broken([fault]))
    assert str(err.value) == problems[0]


@settings(max_examples=120, deadline=None)
@given(order=st.permutations(FAULTS), k=st.integers(1, len(FAULTS)))
def test_k_independent_faults_are_k_problems(order, k):
    chosen = independent(order)[:k]
    problems = position_problems(broken(chosen))
    assert len(problems) == len(chosen), (chosen, problems)
    for f in chosen:
        assert sum(f.says in p for p in problems) == 1, (f, problems)
    with pytest.raises(BadInput) as err:
        position_from_json(broken(chosen))
    line = str(err.value)
    assert "\n" not in line and len(line) <= MAX_MESSAGE
    if len(chosen) > 1:
        assert line.startswith(f"{len(chosen)} problems: ")
        named = [f for f in chosen if f.says in line]
        assert named and (len(named) == len(chosen) or line.endswith(f"; and {len(chosen) - len(named)} more"))


def test_every_sound_part_is_checked_beside_the_broken_ones():
    """All the faults that need nothing, at once: one line each, in the order the fields are read."""
    leaves = [f for f in FAULTS if not f.needs]
    leaves = independent(leaves)
    problems = position_problems(broken(leaves))
    assert [next(f.part for f in leaves if f.says in p) for p in problems] == [f.part for f in leaves]


def test_the_refusal_is_one_line_that_counts_what_it_cannot_name():
    many = [f"position.reserve[{i}]: unknown token 'zz' (expected one of vote, bullet or null)" for i in range(5000)]
    line = refusal(many)
    assert line.startswith("5000 problems: position.reserve[0]") and len(line) <= MAX_MESSAGE
    shown = line.count("unknown token")
    assert line.endswith(f"; and {5000 - shown} more") and shown >= 5
    assert refusal(["just this"]) == "just this"
    assert refusal(["a", "b", "c"]) == "3 problems: a; b; c"


def test_more_front_page_markers_than_the_game_has_are_refused():
    """Six markers in all (rule:O-components): 3 + 3 in the supplies and 2 on characters are 8, whatever the
    discard's count (it was taken as -2 when not given)."""
    doc = broken([next(f for f in FAULTS if f.says.startswith("Front Page"))])
    assert "discard" in doc and "front_page" not in doc["discard"]
    assert position_problems(doc) == ["position: Front Page markers add up to 8, expected 6"]


def test_the_command_line_prints_every_problem_on_one_line(tmp_path, capsys):
    path = tmp_path / "bad.json"
    chosen = [f for f in FAULTS if f.part in ("to_move", "tokens", "knowledge.B")]
    path.write_text(json.dumps(broken(chosen)))
    assert main(["outlaws", "moves", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "3 problems: " in err
    assert all(f.says in err for f in chosen), err
