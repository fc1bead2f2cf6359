"""Lone Cowboy page pieces: engine adapters (cached per input), town drawing from the engine's
visible grid, card previews and score tables. Scoring, legality and drafting are the engine's
(:mod:`solver.wagons`); this module only calls it and draws the answers."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import polars as pl
import streamlit as st

from dashboard.shared.caching import cache_final, proven
from dashboard.wagons import drawing
from solver.errors import BadInput
from solver.execution.progress import OnProgress
from solver.wagons.optimizer.layout import best_layout as optimize_best_layout

if TYPE_CHECKING:
    from solver.wagons.data import Card, WagonsData


def readings_from_json(readings_json: str):
    from solver.wagons.readings import WagonsReadings

    return WagonsReadings.from_json(json.loads(readings_json))


# ----------------------------------------------------------------------------- cards and scenarios

def cards() -> tuple[Card, ...]:
    """The 18 card fronts: the engine's card records (:class:`solver.wagons.data.Card`), index = id."""
    from solver.wagons.cards import load_cards

    return load_cards()


@st.cache_data(show_spinner=False)
def scenarios() -> dict[str, dict]:
    """Scenario id -> {name, goals, draft_text, scoring_text}."""
    from solver.wagons.data import load_data

    return {s.id: {"name": s.name, "goals": list(s.goals), "draft_text": s.draft_text,
                   "scoring_text": s.scoring_text} for s in load_data().scenarios}


def card_label(cid: int) -> str:
    """A card in a picker, short enough for a phone's box: its number and its four icons, top left first (the
    terrains show in its drawing)."""
    return f"{cid}: " + ", ".join(i for _t, i in cards()[cid].cells)


def icon_letters(cid: int) -> str:
    """The card's icons as letters, top left first (as the reveal buttons show them)."""
    return "".join(drawing.ICONS.get(i, ("", "?"))[1] for _, i in cards()[cid].cells)


def card_button_css(key: str, cid: int) -> str:
    """A button drawn as the card: its four territories' colours (top left, top right, bottom left, bottom right),
    the number (large) and icon letters on a white label."""
    quads = [drawing.TERRAIN_COLOURS.get(t, "#fafafa") for t, _ in cards()[cid].cells]
    return (f".st-key-{key} button{{background:linear-gradient(to right,{quads[0]} 50%,{quads[1]} 50%) top/100% 50% "
            f"no-repeat,linear-gradient(to right,{quads[2]} 50%,{quads[3]} 50%) bottom/100% 50% no-repeat!important;"
            "border:2px solid #6d4c41!important;min-height:3.6rem;width:4.2rem;padding:2px!important}"
            f".st-key-{key} button p{{background:rgba(255,255,255,.9);color:#222;border-radius:4px;padding:0 3px;"
            "font-size:10px;line-height:1.2;white-space:pre;word-break:keep-all;overflow:visible;text-overflow:clip}"
            f".st-key-{key} button strong{{font-size:18px}}")


def card_preview(cid: int, rot: int = 0, size: float = 1.0, note: str = "", title: str | None = None) -> str:
    """The card as it lies after turning by ``rot`` (0 or 180), via the engine's card_cells."""
    from solver.wagons.cards import card_by_id, card_cells

    quads = [(t.terrain, t.icon) for _xy, t in card_cells(card_by_id(cid), rot)]
    return drawing.card_html(cid, quads, title or (f"Card {cid}" + (" (turned 180)" if rot else "")),
                             size=size, note=note)


# ----------------------------------------------------------------------------- towns

def build_town(rows: list[dict]) -> tuple[Any, list[tuple[int, str]]]:
    """The engine's Town from the table rows in order; illegal rows are left out and reported as
    (row number, the engine's reason)."""
    from solver.wagons.town import Placement, Town, place

    town, problems = Town(), []
    for n, r in enumerate(rows, start=1):
        try:
            p = Placement(_int(r.get("card"), "card"), _int(r.get("x"), "x"), _int(r.get("y"), "y"),
                          _int(r.get("rot", 0), "rot"))
            town = place(town, p)
        except BadInput as exc:
            problems.append((n, str(exc)))
    return town, problems


def _int(v: Any, what: str) -> int:
    if v is None or (isinstance(v, float) and v != v):
        raise BadInput(f"{what} is empty")
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise BadInput(f"{what}: {v!r} is not a number") from None
    if f != int(f):
        raise BadInput(f"{what}: {v!r} is not a whole number")
    return int(f)


def town_cells(town) -> dict[tuple[int, int], dict]:
    """(x, y) -> {terrain, icon, card} of each visible territory (the engine's visible_grid; the
    card label is the last placement covering the square)."""
    from solver.wagons.town import visible_grid

    owner: dict[tuple[int, int], int] = {}
    for p in town.placements:
        for xy, _t in p.cells():
            owner[xy] = p.card
    return {xy: {"terrain": t.terrain, "icon": t.icon, "card": owner.get(xy)} for xy, t in visible_grid(town).items()}


def town_html(town, caption: str = "", illegal_rows: list[dict] = ()) -> str:
    """The town drawn; the squares an illegal row would cover are outlined in red."""
    cells = town_cells(town)
    xs, ys = [x for x, _ in cells] or [0], [y for _, y in cells] or [0]
    flagged = set()
    for r in illegal_rows:
        try:
            x, y = _int(r.get("x"), "x"), _int(r.get("y"), "y")
        except BadInput:
            continue
        square = {(x + dx, y + dy) for dx in (0, 1) for dy in (0, 1)}
        # only near the town (a far-away row would blow the drawing up; its error message says where)
        if all(min(xs) - 4 <= a <= max(xs) + 4 and min(ys) - 4 <= b <= max(ys) + 4 for a, b in square):
            flagged |= square
    return drawing.town_svg(cells, flagged=flagged, caption=caption)


def load_town_doc(doc: Any) -> dict:
    """An uploaded town file checked by the engine's loader (every placement legal, in order)."""
    from solver.wagons.town import town_from_dict

    return town_json(town_from_dict(doc, "uploaded town"))


def town_json(town) -> dict:
    from solver.wagons.town import town_to_json

    return town_to_json(town)


# ----------------------------------------------------------------------------- scoring

def cards_data(cards_json: str) -> WagonsData | None:
    """The wagons data with the numbers the player read off their cards (``{card: {number: value}}`` as JSON;
    :func:`solver.wagons.scoring.card_numbers.with_cards`), None for none (the engines' own data)."""
    from solver.wagons.data import load_data
    from solver.wagons.scoring.card_numbers import with_cards

    answers = json.loads(cards_json or "{}")
    return with_cards(load_data(), answers) if answers else None


@st.cache_data(show_spinner=False, max_entries=512)
def score(town_json_text: str, pile: tuple[int, ...], scenario: str, readings_json: str, cards_json: str = "{}") -> dict:
    """Both sides' scores and the winner (the engine's final_scores), cached per input; ``from_card``: the goal
    cards scored with numbers the player read off their card (``cards_json``)."""
    from solver.wagons.data import load_data
    from solver.wagons.scoring import final_scores
    from solver.wagons.scoring.card_numbers import from_card
    from solver.wagons.town import town_from_dict

    town, data = town_from_dict(json.loads(town_json_text)), cards_data(cards_json)
    out = final_scores(town, tuple(pile), scenario, readings_from_json(readings_json), data).to_dict()
    return {**out, "from_card": list(from_card(scenario, data or load_data()))}


LOW_MARK = "(low confidence, W11)"
"""The marker of a goal card scored with a low-confidence number (solver's ``low_confidence``)."""
CARD_MARK = "(from your card)"
"""The marker of a goal card scored with the numbers the player read off their own card."""


def show_scores(result: dict, player_label: str = "Player", winner_problem: str | None = None,
                total_label: str | None = None) -> None:
    """Metric row, winner banner and both breakdown tables. ``winner_problem``: why the towns are not
    the result of a finished game (an illegal row left out, a card in both towns, cards still to play;
    solver.wagons.record.finished.completeness_problem): then no winner is named, the reason is."""
    p, o = result["player"], result["opponent"]
    with st.container(horizontal=True, gap="medium"):  # one row, on a phone too
        st.metric(total_label or f"{player_label} total", p["total"], width="content")
        st.metric("Opponent total", o["total"], width="content")
        st.metric("Margin", result.get("margin", p["total"] - o["total"]), width="content")
    winner = result["winner"]
    how = " (tie broken by most Guns, rule W8)" if result.get("decided_by") == "guns" else ""
    if winner_problem:
        st.info(f"**No winner shown**: {winner_problem}. The totals score the towns as they stand.",
                icon=":material/hourglass_top:")
    elif winner == "player":
        st.success(f"**The player wins** {p['total']} to {o['total']}{how}.", icon=":material/emoji_events:")
    elif winner == "opponent":
        st.error(f"**The opponent wins** {o['total']} to {p['total']}{how}.", icon=":material/sentiment_dissatisfied:")
    else:
        st.info(f"**Tie** at {p['total']} (rule W8).", icon=":material/balance:")
    low, card = set(result.get("low_confidence", ())), set(result.get("from_card", ()))
    goal = lambda g: f"goal: {g}" + (f" {LOW_MARK}" if g in low else f" {CARD_MARK}" if g in card else "")
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{player_label}**")
        rows = [{"item": f"largest {t} group", "points": n} for t, n in p["groups"].items()]
        rows += [{"item": goal(g), "points": n} for g, n in p["goals"].items()]
        st.table(pl.DataFrame(rows + [{"item": "total", "points": p["total"]}]).to_pandas().set_index("item"))
    with right:
        st.markdown("**Opponent**")
        rule = o.get("common_rule", "W-common")
        first = "3 most common terrains" if rule == "W-common" else "per card, by its terrains (later edition)"
        rows = [{"item": first, "points": o["common"]}]
        rows += [{"item": goal(g), "points": n} for g, n in o["goals"].items()]
        st.table(pl.DataFrame(rows + [{"item": "total", "points": o["total"]}]).to_pandas().set_index("item"))
    if low:
        st.caption(low_confidence_note(low))


def low_confidence_note(low) -> str:
    """The footnote on low-confidence goal cards; the Boom or Bust reading is named only where that card scores."""
    cards = sorted(low)
    which = "the card's numbers come from" if len(cards) == 1 else "these cards' numbers come from"
    choice = "; Boom or Bust per Mine or flat is selectable" if "Boom or Bust" in cards else ""
    return (f"{LOW_MARK} {', '.join(cards)}: {which} one unofficial source, so these points are a reading "
            f"(rule W11{choice}).")



DRAFT_REASONS = {"W1": "Round 1: matches the deck's top card",
                 "W1-next": "Round 1: no match, the next card",
                 "W5": "Round 2: the scenario's draft rule",
                 "W4": "Round 2: matches an icon of its town",
                 "W4-next": "Round 2: nothing applies, the next card",
                 "W4-later": "Round 2 (later edition): the next card"}
"""What made an opponent's draft, in plain words, per rule id (solver.wagons.opponent; the scenarios' own
round-2 rules W5-<scenario> share one line: each scenario has only its own)."""


def draft_reason(rule_id: str) -> str:
    """The plain-English line of the rule that made an opponent's draft (BadInput for an unknown id)."""
    key = "W5" if rule_id.startswith("W5-") else rule_id
    if key not in DRAFT_REASONS:
        raise BadInput(f"no plain-English line for the opponent's draft rule {rule_id!r}")
    return DRAFT_REASONS[key]


# ----------------------------------------------------------------------------- optimizer

@cache_final(proven, max_entries=64)
def best_layout(card_ids: tuple[int, ...], scenario: str, pile: tuple[int, ...], readings_json: str,
                time_limit: float, _progress: OnProgress | None = None, cards_json: str = "{}") -> dict:
    """The optimizer's best legal layout of these cards in this order, as a plain dict.

    ``_progress`` (not part of the cache key) receives the optimizer's progress (the page's
    :class:`~dashboard.shared.work.ProgressBox`).
    """
    return optimize_best_layout(list(card_ids), scenario, list(pile), readings=readings_from_json(readings_json),
                                time_limit=time_limit, progress=_progress, data=cards_data(cards_json)).to_dict()


def bound_line(best: int, bound: int | None) -> str:
    """What an unproven best layout still proves: no layout of the cards scores more than ``bound`` (None: the
    time limit came before any bound was proven, which the page says rather than showing nothing)."""
    if bound is None:
        return ("No upper bound was proven in the time the search ran, so how far the best found is from the best "
                "possible is not known: a longer time limit may prove one.")
    gap = bound - best
    return (f"Proven bound: no layout of these cards scores more than **{bound}**, so the best found is at most "
            f"{gap} point{'s' if gap != 1 else ''} short of the best possible.")


SHEET_FIELDS = ("card", "x", "y", "rot")


def load_sheet(doc: Any) -> dict:
    """The score sheet kept in the page's address: ``{"scenario", "rows", "pile"}``, the rows as the table
    holds them (each cell a whole number or empty; legality is the engine's, shown per row as usual)."""
    from solver.io.read import as_int

    if not isinstance(doc, dict) or set(doc) != {"scenario", "rows", "pile"}:
        raise BadInput("the score sheet in the address is not a saved sheet")
    if doc["scenario"] not in scenarios():
        raise BadInput(f"the score sheet in the address names an unknown scenario {str(doc['scenario'])[:40]!r}")
    rows = doc["rows"]
    if not isinstance(rows, list) or len(rows) > 40 or not all(isinstance(r, dict) and set(r) <= set(SHEET_FIELDS)
                                                               for r in rows):
        raise BadInput("the score sheet in the address has bad placement rows")
    clean = [{k: None if r.get(k) is None else as_int(r[k], f"sheet row {n} {k}", -1000, 1000) for k in SHEET_FIELDS}
             for n, r in enumerate(rows, start=1)]
    return {"scenario": doc["scenario"], "rows": clean, "pile": load_pile({"pile": doc["pile"]})}


def load_pile(doc: Any) -> list[int]:
    """An opponent file ``{"pile": [ids]}`` (contracts.md), checked with the solver's validators."""
    from solver.io.read import as_int, require
    from solver.wagons.cards import check_pile

    ids = [as_int(v, f"opponent.pile[{i}]", 0, len(cards()) - 1)
           for i, v in enumerate(require(doc, "pile", list, "opponent"))]
    return list(check_pile(ids))


def breakdown_rows(mine: dict | None, best: dict) -> list[dict]:
    """Your layout's and the best layout's points per scoring part (the engine's final_scores of each town)."""
    def parts(side: dict) -> dict[str, int]:
        out = {f"largest {t} group": n for t, n in side["groups"].items()}
        out.update({f"goal: {g}": n for g, n in side["goals"].items()})
        return out

    ours, theirs = parts(mine["player"]) if mine else {}, parts(best["player"])
    rows = [{"scoring part": k, "your layout": ours.get(k), "best layout": v} for k, v in theirs.items()]
    rows.append({"scoring part": "total", "your layout": mine["player"]["total"] if mine else None,
                 "best layout": best["player"]["total"]})
    return rows


def placement_rows(placements: list[dict]) -> list[dict]:
    """The best layout's placements in the order the cards arrive, in words."""
    return [{"order": n, "card": p["card"], "top-left square": f"({p['x']}, {p['y']})",
             "way up": "turned 180 degrees" if p.get("rot") else "upright"} for n, p in enumerate(placements, start=1)]


def show_best_layout(town, res: dict, mine: dict | None, pile, scenario: str, readings_json: str,
                     cards_json: str = "{}") -> None:
    """The optimizer's answer on the sheet: both towns, the score line, what an unproven answer still proves, the
    breakdown per scoring part of both layouts, the placement order, and the layout as a file."""
    from dashboard.shared.caching import dumps
    from dashboard.shared.widgets import json_download

    best_town, _ = build_town(res["placements"])
    proven_ = res.get("proven_optimal")
    left, right = st.columns(2)
    left.html(town_html(town, caption="Your layout"))
    right.html(town_html(best_town, caption=f"Best layout found: {res['score']} points"
                         + (" (proven optimal)" if proven_ else " (not proven optimal)")))
    if mine is not None:
        st.markdown(f"Your layout scores **{mine['player']['total']}**; the best found scores **{res['score']}**"
                    + (", proven optimal." if proven_ else " (optimality not proven in the time the search ran)."))
    if not proven_:
        st.markdown(bound_line(res["score"], res.get("bound")))
    best_scores = score(dumps(town_json(best_town)), tuple(pile), scenario, readings_json, cards_json)
    parts, order = st.columns([3, 2])
    with parts:
        st.markdown("**Breakdown: where the points come from**")
        st.dataframe(pl.DataFrame(breakdown_rows(mine, best_scores)), hide_index=True, width="stretch")
    with order:
        st.markdown("**Placement order of the best layout** (the cards as they arrive)")
        st.dataframe(pl.DataFrame(placement_rows(res["placements"])), hide_index=True, width="stretch")
    json_download("Download the best layout", {"placements": res["placements"]}, "best-town.json", "wg_best_down")
