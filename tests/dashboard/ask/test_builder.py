"""The "Ask a rules question" page (dashboard/ask/): a question built from its widgets is the question its file
states, the answer and its witness are drawn, the question survives a reload (address) and a restart (the store, My
games), a damaged address is one line, and every shipped example is one tap that answers it as recorded.

The builder's own tests run on a made-up domain (tests/support/dashboard/ask_fake.py: every widget kind), so they
test the page and not a game's domains; the examples' test runs every game's shipped questions."""

from __future__ import annotations

import json

import pytest

from dashboard.ask import draft as dr
from dashboard.ask import keep
from solver.ask import condition as cond_mod
from solver.ask.examples import examples, matches
from solver.ask.question import question_from_doc
from solver.io.read import parse_toml_text
from tests.support.dashboard.apptest import errors, open_page, reloaded, texts
from tests.support.dashboard.ask_fake import registered
from tests.support.dashboard.kept import (  # noqa: F401
    browser_of,
    forget_process_cache,
    private_store,
    resume_from_my_games,
    same_browser,
)

GAME = "cactus"
"""The game the made-up domain stands in for during the builder's tests."""

THREE = f"""
game = "{GAME}"
ask = "exists"
where = "pair.sum >= 7 and pair.double and pair.parity == even"
[domain]
kind = "pairs"
faces = 5
banned = [2, 1]
weighting = "count"
"""
"""A three-condition question over the made-up domain, as its file states it."""


def same(a, b) -> bool:
    """Two questions alike as documents (JSON has lists, not tuples: a default ``()`` comes back as ``[]``)."""
    return keep.canonical(dr.doc_of(a)) == keep.canonical(dr.doc_of(b))


@pytest.fixture
def fake():
    with registered(GAME):
        yield


def _k(at, name: str) -> str:
    return f"ask_{name}_{at.session_state[keep.GEN]}"


def _build_three(at):
    """The question of :data:`THREE`, widget by widget (each call one widget, as a tap or a stepper's taps)."""
    if at.session_state[keep.KEY]["draft"]["game"] != GAME:
        at.button_group(key=_k(at, "game")).set_value(GAME).run()
    at.button_group(key=_k(at, "domain")).set_value("pairs").run()
    at.number_input(key=_k(at, "p_faces")).set_value(5).run()
    at.button_group(key=_k(at, "p_banned")).set_value([2]).run()
    at.button_group(key=_k(at, "p_banned")).set_value([1, 2]).run()  # tapped second: after 2 in the town's order
    at.selectbox(key=_k(at, "p_weighting")).select("count").run()
    for name in ("pair.sum", "pair.double", "pair.parity"):
        at.selectbox(key=_k(at, "add")).select(name).run()
    at.number_input(key=_k(at, "v0")).set_value(7).run()
    return at


def test_a_condition_is_added_by_the_run_its_choice_starts(fake, monkeypatch):
    """"Add a condition" takes its choice in the box's own callback: the run the choice starts draws the condition and
    empties the box, with no second run asked for (a choice whose runs were cut short could stay in the box without
    its condition, and choosing it again changed nothing)."""
    import streamlit

    at = open_page("ask")
    if at.session_state[keep.KEY]["draft"]["game"] != GAME:
        at.button_group(key=_k(at, "game")).set_value(GAME).run()
    at.button_group(key=_k(at, "domain")).set_value("pairs").run()
    asked, rerun = [], streamlit.rerun
    monkeypatch.setattr(streamlit, "rerun", lambda *a, **k: (asked.append(a), rerun(*a, **k)))
    at.selectbox(key=_k(at, "add")).select("pair.sum").run()
    assert not asked and not at.exception
    assert [c["measure"] for c in at.session_state[keep.KEY]["draft"]["conds"]] == ["pair.sum"]
    assert at.selectbox(key=_k(at, "add")).value is None


def test_a_question_built_from_the_widgets_is_the_one_its_file_states(fake):
    at = _build_three(open_page("ask"))
    assert not errors(at) and not at.exception
    built = dr.question(at.session_state[keep.KEY]["draft"])
    assert built == question_from_doc(parse_toml_text(THREE, "question"))
    assert isinstance(built.condition, cond_mod.All) and len(built.condition.parts) == 3
    assert "Is there pairs of faces 1 to 5 where the sum of the two faces is at least 7 and the two faces are the " \
           "same and the sum's parity is even?" in texts(at)


def test_or_and_most_are_one_tap_each_and_the_answer_is_drawn(fake):
    at = _build_three(open_page("ask"))
    at.button_group(key=_k(at, "join")).set_value("or").run()
    at.button_group(key=_k(at, "ask")).set_value("max").run()
    at.selectbox(key=_k(at, "measure")).select("pair.first").run()
    q = dr.question(at.session_state[keep.KEY]["draft"])
    assert (q.quantifier, q.measure, type(q.condition)) == ("max", "pair.first", cond_mod.Any_)
    at.button(key="ask_go").click().run()
    assert not errors(at) and not at.exception
    assert "Value: 5" in texts(at)  # faces 3..5 (1 and 2 left out): a first face of 5 with a sum of 7 or more
    assert "A pair that reaches it" in texts(at)
    assert at.dataframe, "the witness's values and its rounds are drawn as tables"


def test_the_question_survives_a_reload_by_its_address_and_a_bad_address_is_one_line(fake):
    at = _build_three(open_page("ask"))
    again = reloaded(at, "ask")
    assert same(dr.question(again.session_state[keep.KEY]["draft"]), dr.question(at.session_state[keep.KEY]["draft"]))
    bad = open_page("home")
    bad.query_params["ask"] = "eNoLdQ"
    bad.run()
    bad.switch_page("ask/page.py").run()
    assert any("The question in the address was not opened" in e for e in errors(bad))
    assert not bad.exception


def test_a_saved_question_and_its_answer_come_back_from_my_games_after_a_restart(fake, private_store):  # noqa: F811
    at = _build_three(open_page("ask"))
    at.button(key="ask_go").click().run()
    answer = at.session_state[keep.KEY]["answer"]
    assert answer["verdict"] == "yes"
    at.button(key="ask_save_save").click().run()
    assert any("Saved" in s.value for s in at.success)
    resume_from_my_games(browser_of(at), keep.SAVED_KIND)
    forget_process_cache()  # the server restarted
    again = same_browser(browser_of(at), "ask")
    work = again.session_state[keep.KEY]
    assert same(dr.question(work["draft"]), dr.question(at.session_state[keep.KEY]["draft"]))
    assert work["answer"]["verdict"] == "yes" and "The pair that shows it" in texts(again)


def _one_tap_cases() -> list:
    """Every shipped example; the default run taps each game's first, ``--deep`` all of them (every example's
    recorded answer is checked through the command line in every run, in tests/ask/<game>/)."""
    seen: set[str] = set()
    cases = []
    for e in examples():
        first = e.question.game not in seen
        seen.add(e.question.game)
        cases.append(pytest.param(e, id=e.name, marks=() if first else pytest.mark.deep))
    return cases


@pytest.mark.slow
@pytest.mark.parametrize("example", _one_tap_cases())
def test_each_shipped_example_is_one_tap_and_answers_as_recorded(example):
    at = open_page("ask", timeout=180)
    at.button(key=f"ask_ex_{example.name}").click().run()  # the one tap
    assert not errors(at) and not at.exception
    work = at.session_state[keep.KEY]
    assert same(dr.question(work["draft"]), example.question)
    assert matches(example.expected, work["answer"]), work["answer"]
    again = reloaded(at, "ask")  # and shared by its address
    assert same(dr.question(again.session_state[keep.KEY]["draft"]), example.question) and not errors(again)


@pytest.mark.parametrize("where", ["pair.sum >= 1/2", "pair.double", "not pair.double", "pair.parity != odd",
                                   "pair.sum < 4 or pair.first == 2", "pair.sum > 3 and (pair.double or pair.first < 2)"])
def test_a_question_goes_to_the_builder_and_back_unchanged(fake, where):
    q = question_from_doc({"game": GAME, "ask": "forall", "where": where, "domain": {"kind": "pairs"},
                           "readings": {"short_deck": "no_second_shot"}, "title": "t"})
    d = dr.from_question(q)
    assert dr.question(d) == q
    back = dr.question(keep.load_work(json.loads(json.dumps({"draft": d})))["draft"])  # as the store gives it back
    assert same(back, q)


def test_which_readings_change_it_names_the_reading_that_does():
    at = open_page("ask", timeout=180)
    at.button(key="ask_ex_wagons-happy-cows-corner").click().run()
    at.button(key="ask_impact").click().run()
    assert not errors(at) and not at.exception
    changed = at.session_state[keep.KEY]["answer"]["changed_by"]
    assert [(c["reading"], c["value"], c["verdict"]) for c in changed] == [("happy_cows_snow", "corner", "no")]
    assert "Readings that change it" in texts(at)


def test_a_new_question_is_asked_under_the_readings_chosen_this_session():
    at = open_page("ask", state={"readings": {"wagons": {"happy_cows_snow": "corner"}}})
    d = at.session_state[keep.KEY]["draft"]
    assert d["game"] == "wagons" and d["readings"] == {"happy_cows_snow": "corner"}
    assert dr.question(d).chosen_readings().happy_cows_snow == "corner"
