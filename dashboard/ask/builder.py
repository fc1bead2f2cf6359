"""The question builder: the game, the domain and the quantifier (one tap each), the domain's parameters as widgets
(steppers for numbers, a card picker for cards, select boxes for choices), and conditions picked from the domain's
measures (each with its label and the rule passage it comes from), a comparison and a value, joined by and / or.

Generic over every game's registered domains (:attr:`solver.registry.Game.questions`): the widgets follow each
:class:`~solver.ask.model.Param`'s kind and each :class:`~solver.ask.model.Measure`'s. Each widget sets one value of
the draft (:mod:`dashboard.ask.draft`); a change of shape (a game, a domain, a condition added or removed) makes a
new draft generation (:func:`dashboard.ask.keep.replace`). Nothing here decides a rule: the measures, the domain's
words and every check are the game's own.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import streamlit as st

from dashboard.ask import draft as dr
from dashboard.ask import keep
from solver import registry
from solver.ask.model import Measure, Param
from solver.errors import BadInput

QUANTIFIER_LABELS = {"exists": "Is there …?", "forall": "For every …?", "max": "The most", "min": "The least",
                     "chance": "The chance"}
OP_SIGNS = {">=": "≥", "<=": "≤", "==": "=", "!=": "≠", ">": ">", "<": "<"}
MAX_PILLS = 60
"""A card picker offers one pill per card up to this many; beyond it, a select box of several."""


@st.cache_resource(show_spinner=False, max_entries=64)
def _domain(game: str, domain: str, params_text: str, readings_text: str) -> Any:
    """The domain the parameters make under the readings (:func:`dashboard.ask.draft.build`), cached."""
    return dr.build(game, domain, json.loads(params_text), json.loads(readings_text))


def session_readings(game: str) -> dict[str, Any]:
    """The readings chosen this session for ``game`` (on the Verification page) that differ from its defaults, as
    a question file writes them: a new question is asked under them."""
    from dashboard.shared.readings import make_readings, readings_class

    cls = readings_class(game)
    chosen, default = make_readings(game, cls).to_json(), cls().to_json()
    return {k: v for k, v in chosen.items() if default.get(k) != v}


def domain_of(d: dict) -> Any:
    """The draft's domain (cached per parameters and readings)."""
    return _domain(d["game"], d["domain"], keep.canonical(d["params"]), keep.canonical(d.get("readings") or {}))


def _k(name: str) -> str:
    return f"ask_{name}_{keep.gen()}"


def _restart(new_draft: dict) -> None:
    keep.replace(new_draft)
    st.rerun()


def _one(draw: Any, label: str, options: list, value: Any, name: str, **kw: Any) -> Any:
    """A single-choice segmented control that never ends up empty (a second tap on the chosen one keeps it)."""
    got = draw(label, options, default=value if value in options else None, key=_k(name), **kw)
    return value if got is None else got


def game_domain_quantifier(d: dict) -> None:
    """Three rows of one-tap choices: the game, the domain, the quantifier."""
    titles = {g.id: g.title for g in registry.GAMES}
    games = dr.games_with_questions()
    game = _one(st.segmented_control, "Game", games, d["game"], "game", format_func=titles.get)
    if game != d["game"]:
        _restart(dr.new(game, readings=session_readings(game)))
    kinds = {k.name: k for k in dr.kinds(d["game"])}
    domain = _one(st.segmented_control, "What it ranges over", list(kinds), d["domain"], "domain",
                  format_func=lambda n: kinds[n].label)
    if domain != d["domain"]:
        _restart(dr.with_domain(d, domain))
    kind = kinds[d["domain"]]
    if kind.help or kind.source:
        st.caption(" ".join(x for x in (kind.help, f"({kind.source})" if kind.source else "") if x))
    d["ask"] = _one(st.segmented_control, "What it asks", list(QUANTIFIER_LABELS), d["ask"], "ask",
                    format_func=QUANTIFIER_LABELS.get)


def _listed(p: Param, chosen: list) -> list:
    """A list without a known set of values (rounds already seen, cards by number): kept as the question gives it
    (said in words), or numbers separated by commas; BadInput for a part that is not one."""
    if any(isinstance(c, (dict, list)) for c in chosen):
        st.markdown(f"{p.label}: " + "; ".join(_said(c) for c in chosen))
        if st.button(f"Clear {p.label}", key=_k(f"clear_{p.name}")):
            return []
        return chosen
    text = st.text_input(p.label, ", ".join(str(c) for c in chosen), key=_k(f"p_{p.name}"),
                         help=(p.help + " " if p.help else "") + "Numbers separated by commas.")
    out = []
    for t in (t.strip() for t in text.split(",")):
        if t:
            if not t.lstrip("-").isdigit():
                raise BadInput(f"{p.label}: {t[:20]!r} is not a number")
            out.append(int(t))
    return out


def _said(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_said(v)}" for k, v in value.items() if v not in (None, [], ""))
    if isinstance(value, list):
        return " ".join(_said(v) for v in value)
    return str(value)


def _cards(p: Param, value: Any) -> list:
    """A card picker: one pill per card (one tap each, in the order tapped), or a select box of several."""
    chosen = list(value or [])
    if p.choices:
        options: list = list(p.choices)
    elif p.low is not None and p.high is not None:
        options = list(range(p.low, p.high + 1))
    else:
        return _listed(p, chosen)
    default, key = [c for c in chosen if c in options], _k(f"p_{p.name}")
    if len(options) <= MAX_PILLS:
        got = st.pills(p.label, options, selection_mode="multi", default=default, key=key, help=p.help or None)
    else:
        got = st.multiselect(p.label, options, default=default, key=key, help=p.help or None)
    kept = [c for c in chosen if c in got]
    return kept + [c for c in got if c not in kept]  # the order tapped (a town's cards arrive in order)


def _param(p: Param, value: Any) -> Any:
    key, help_ = _k(f"p_{p.name}"), p.help or None
    if p.kind == "int":
        return int(st.number_input(p.label, min_value=p.low, max_value=p.high, value=int(value or 0), step=1,
                                   key=key, help=help_))
    if p.kind == "choice":
        options = list(p.choices)
        return st.selectbox(p.label, options, index=options.index(value) if value in options else 0, key=key,
                            help=help_)
    if p.kind in ("cards", "cards-seen"):
        return _cards(p, value)
    if isinstance(value, (dict, list)):  # a document the question gives (a position): kept whole, said so
        st.markdown(f"{p.label}: given by the question ({_said(value)[:120]} …)")
        if st.button(f"Replace {p.label}", key=_k(f"clear_{p.name}")):
            return dr.param_default(p)
        return value
    if p.choices:  # a text with named values (an example position): one of them, or one's own (a file's path)
        options = list(dict.fromkeys([*p.choices, *([str(value)] if value not in (None, "") else [])]))
        return st.selectbox(p.label, options, index=options.index(str(value)) if str(value) in options else 0,
                            key=key, help=help_, accept_new_options=True)
    return st.text_input(p.label, "" if value is None else str(value), key=key, help=help_)


def parameters(d: dict) -> None:
    """The domain's parameters, each as its kind's widget."""
    kind = next(k for k in dr.kinds(d["game"]) if k.name == d["domain"])
    for p in kind.params:
        try:
            d["params"][p.name] = _param(p, d["params"].get(p.name, dr.param_default(p)))
        except BadInput as exc:
            st.error(str(exc), icon=":material/error:")


def measure_option(m: Measure) -> str:
    return f"{m.label} ({m.source})" if m.source else m.label


def _value(m: Measure | None, c: dict, i: int) -> Any:
    if m is not None and m.kind == "yes/no":
        return _one(st.segmented_control, "Value", [True, False], bool(c["value"]), f"v{i}",
                    format_func=lambda v: "yes" if v else "no", label_visibility="collapsed")
    if m is not None and m.kind == "choice":
        options = list(m.choices)
        return st.selectbox("Value", options, index=options.index(c["value"]) if c["value"] in options else 0,
                            key=_k(f"v{i}"), label_visibility="collapsed")
    kept = dr.value_of(c["value"])
    if m is not None and m.low is not None and m.high is not None and m.high - m.low <= 1:  # a chance: 0 to 1
        shown = float(kept) if isinstance(kept, (int, Fraction)) else 0.0
        got = st.number_input("Value", min_value=float(m.low), max_value=float(m.high), value=shown, step=0.05,
                              format="%.4f", key=_k(f"v{i}"), label_visibility="collapsed")
        return c["value"] if abs(got - shown) < 1e-9 else dr.number(got)  # an untouched 1/3 stays exact
    value = kept if isinstance(kept, int) and not isinstance(kept, bool) else 0
    return int(st.number_input("Value", min_value=m.low if m else None, max_value=m.high if m else None,
                               value=value, step=1, key=_k(f"v{i}"), label_visibility="collapsed"))


def _condition_row(d: dict, i: int, c: dict, measures: dict[str, Measure]) -> None:
    m = measures.get(c["measure"])
    with st.container(border=True, key=f"ask_cond_{i}"):
        st.markdown(f"**{m.label if m else c['measure']}**")
        if m is not None and (m.source or m.help):
            st.caption(" ".join(x for x in (m.help, m.source) if x))
        ops = list(dr.CHOICE_OPS) if m is not None and m.kind in ("yes/no", "choice") else list(dr.NUMBER_OPS)
        with st.container(horizontal=True, vertical_alignment="bottom"):
            if m is None or m.kind != "yes/no":
                c["op"] = _one(st.segmented_control, "Comparison", ops, c["op"], f"op{i}",
                               format_func=OP_SIGNS.get, label_visibility="collapsed")
            c["value"] = dr.typed(m, _value(m, c, i))
            if st.button("", key=_k(f"rm{i}"), icon=":material/close:", help="Remove this condition"):
                _restart({**d, "conds": [x for j, x in enumerate(d["conds"]) if j != i]})


def conditions(d: dict, measures: dict[str, Measure]) -> None:
    """The conditions: each a row (its measure, a comparison, a value), the join, and a list to add another."""
    if d.get("where"):
        st.markdown(f"Condition, as the question file writes it: `{d['where']}`")
        if st.button("Start the conditions over", key=_k("where_clear")):
            _restart({**d, "where": None})
        return
    for i, c in enumerate(d["conds"]):
        _condition_row(d, i, c, measures)
    if len(d["conds"]) > 1:
        d["join"] = _one(st.segmented_control, "Joined by", list(dr.JOINS), d.get("join", "and"), "join")
    key = _k("add")
    st.selectbox("Add a condition", list(measures), index=None, key=key, format_func=lambda n:
                 measure_option(measures[n]), placeholder="Pick a measure to add a condition …",
                 on_change=_add_condition, args=(key, measures))


def _add_condition(key: str, measures: dict[str, Measure]) -> None:
    """The "Add a condition" box's change (a callback, before the run it starts): the measure's condition added to the
    question, so the one run that follows draws it. Taken in the run itself instead, it took a second run
    (``st.rerun``), and a choice whose runs were cut short could be left in the box without its condition, where
    choosing it again changed nothing."""
    pick = st.session_state.get(key)
    if pick in measures:
        d = keep.current()
        keep.replace({**d, "conds": [*d["conds"], dr.starting_condition(measures[pick])]})


def objective(d: dict, measures: dict[str, Measure]) -> None:
    """For most / least: the measure asked about (number measures only)."""
    numbers = [n for n, m in measures.items() if m.kind == "number"]
    if d["ask"] not in ("max", "min") or not numbers:
        return
    if d.get("measure") not in numbers:
        d["measure"] = numbers[0]
    d["measure"] = st.selectbox(f"The {d['ask']} of", numbers, index=numbers.index(d["measure"]),
                                key=_k("measure"), format_func=lambda n: measure_option(measures[n]))


def render(d: dict) -> Any:
    """The whole builder; the domain it makes (None when its parameters are refused, said inline)."""
    game_domain_quantifier(d)
    parameters(d)
    try:
        domain = domain_of(d)
    except BadInput as exc:
        st.error(f"Domain: {exc}", icon=":material/error:")
        return None
    measures = dict(domain.measures())
    objective(d, measures)
    conditions(d, measures)
    return domain
