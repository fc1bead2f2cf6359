"""Ask a rules question: build a question of your own over any game's domains (:mod:`dashboard.ask.builder`), see
it as a sentence, ask it (a time limit, progress and Stop), and see the answer with its witness drawn
(:mod:`dashboard.ask.answer_view`); the shipped examples are one tap each. The question and its answer are kept as
you go, in the address and in My games (:mod:`dashboard.ask.keep`). Every answer is :func:`solver.ask.ask`'s."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard.ask import answer_view, builder, keep
from dashboard.ask import draft as dr
from dashboard.nav import page_header
from dashboard.shared import fit, games
from dashboard.shared.runs import ProgressBox, keep_stopped, run_with_progress
from dashboard.shared.widgets import kept, show_bad_input
from solver.ask.answer import answer_to_json
from solver.ask.engine import ask
from solver.ask.examples import Example
from solver.ask.impact import impact
from solver.ask.question import Question, sentence
from solver.errors import BadInput
from solver.stopping import StopSignal

STOPPED = "ask_stopped"  # session key: a stopped run's answer for the next run ((question text, answer JSON))
LAST = "ask_last_answer"  # session key: the last Answer as the engine gave it ((question text, Answer))
RUN = "ask_run"  # session key: what the next run does for the question on the page ("ask" after an example's tap)


def _answer(q: Question, limit: float) -> None:
    """Ask ``q`` under the work runner (progress, Stop); keep the answer (a stopped run's comes in the next run)."""
    doc = dr.doc_of(q)
    text = keep.canonical(doc)
    box = ProgressBox()
    result = run_with_progress(
        ask, q, limit, box, label="Answering", expected_seconds=limit, box=box,
        cancel=StopSignal(), keep=keep_stopped(STOPPED, shape=lambda a: (text, answer_to_json(a, q.game) | {
            "stopped_early": True})))
    st.session_state[LAST] = (text, result)
    keep.answered(doc, answer_to_json(result, q.game))


def _impact(q: Question, limit: float) -> None:
    doc = dr.doc_of(q)
    text = keep.canonical(doc)
    last = st.session_state.get(LAST)

    def work() -> Any:
        base = last[1] if last and last[0] == text else ask(q, limit, box)
        return impact(q, base, limit, box)

    box = ProgressBox()
    result = run_with_progress(work, label="Asking again under each alternative reading",
                               expected_seconds=limit, box=box, cancel=StopSignal())
    st.session_state[LAST] = (text, result)
    keep.answered(doc, answer_to_json(result, q.game))


def _take_stopped() -> None:
    handed = st.session_state.pop(STOPPED, None)
    if handed is not None:
        text, answer = handed
        if text == keep.canonical(dr.to_doc(keep.current())) or not keep.work().get("answer"):
            keep.work().update(answer=answer, asked=text)


def _example(ex: Example) -> None:
    keep.replace(dr.from_question(ex.question))
    st.session_state[RUN] = "ask"


def examples_section(game: str) -> None:
    """Every shipped question, the game on the page first, one tap each (fills the builder and answers it)."""
    from solver import registry

    st.subheader("Shipped questions")
    problem = dr.shipped_problem()
    if problem:
        st.error(problem, icon=":material/error:")
    st.caption("One tap fills the builder with the question and answers it.")
    order = [game] + [g for g in registry.ids() if g != game]
    for g in order:
        mine = [e for e in dr.shipped() if e.question.game == g]
        if not mine:
            continue
        st.markdown(f"**{registry.game(g).title}**")
        for e in mine:
            st.button(e.question.title or e.name, key=f"ask_ex_{e.name}", on_click=_example, args=(e,),
                      icon=":material/help:", width="stretch")


def _short(text: str, most: int = 100) -> str:
    """``text`` cut at a word to at most ``most`` characters (a saved item's name)."""
    return text if len(text) <= most else text[:most - 1].rsplit(" ", 1)[0] + "…"


def _sentence(q: Question, domain: Any) -> str:
    return sentence(q, domain.description, domain.measures())


def ask_section(q: Question, domain: Any) -> None:
    """The sentence, the time limit and Ask, the answer and the readings button."""
    st.markdown(f"### {_sentence(q, domain)}")
    limit = float(kept(st.number_input, "ask_limit", 60, "Time limit (seconds)", min_value=1, max_value=600,
                       step=10, help="As `ruleslinger ask --time-limit`; the best so far is given when it runs out."))
    run = st.session_state.pop(RUN, None)
    if st.button("Ask", key="ask_go", type="primary", icon=":material/psychology_alt:") or run == "ask":
        with st.container():
            try:
                _answer(q, limit)
            except BadInput as exc:
                show_bad_input(exc)
    doc = dr.doc_of(q)
    answer = keep.answer_for(doc)
    if answer is None:
        return
    answer_view.show(q.game, answer, domain.measures(), domain.noun)
    if answer.get("changed_by") is None and st.button("Which readings change it?", key="ask_impact",
                                                      icon=":material/alt_route:"):
        try:
            _impact(q, limit)
            st.rerun()
        except BadInput as exc:
            show_bad_input(exc)
    games.save_form(keep.SAVED_KIND, keep.work(), key="ask_save", default_name=_short(q.title or _sentence(q, domain)))


def main() -> None:
    page_header("ask")
    fit.narrow_page()
    offered = dr.games_with_questions()
    if not offered:
        st.info("No game offers questions yet.")
        return
    keep.init(offered[0], builder.session_readings(offered[0]))
    note = st.session_state.pop(keep.NOTE, None)
    if note:
        st.error(note, icon=":material/error:")
    _take_stopped()
    d = keep.current()
    if d["game"] not in offered:
        keep.replace(dr.new(offered[0], readings=builder.session_readings(offered[0])))
        d = keep.current()
    domain = builder.render(d)
    q = None
    if domain is not None:
        try:
            q = dr.question(d)
        except BadInput as exc:
            show_bad_input(exc, "Question: ")
    if q is not None:
        ask_section(q, domain)
    examples_section(d["game"])
    keep.finish(dr.doc_of(q) if q is not None else None)


main()
