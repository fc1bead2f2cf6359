"""The Lone Cowboy section of the Verification page: its own options (scenarios, checks, a time limit, the rules broken
on purpose), a run with progress, holds/fails, and each counterexample drawn as towns with its rule passage
(:mod:`solver.wagons.verify.checks` decides every check; nothing is decided here). The navigation lists it with the
other games' sections (:data:`dashboard.nav.VERIFICATION_SECTIONS`)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard.shared import answers
from dashboard.shared.caching import all_checks_decided, cache_final
from dashboard.shared.readings import make_readings, readings_class
from dashboard.shared.runs import ProgressBox, run_with_progress
from dashboard.shared.words import counted
from dashboard.verification.results import KEPT, VERDICT, readings_from_key, readings_key
from solver.errors import BadInput
from solver.execution.progress import OnProgress

GAME = "wagons"
IMPACT_SECONDS = 150.0
"""A full run of this game's verdicts across the readings (docs/history/2026-12-01-readings-impact.md)."""
IMPACT_GAMES = True
"""Its verdicts play simulated games, so "Games per scenario" applies to them."""


def impact_cards() -> str:
    """The numbers the player settled on their goal cards (:func:`dashboard.wagons.cards.reading.cards_json`): the
    verdicts across readings score with them, as the sheet does."""
    from dashboard.wagons.cards.reading import cards_json

    return cards_json()


@cache_final(all_checks_decided, max_entries=16)
def _run(scenarios: tuple[str, ...], check_ids: tuple[str, ...], readings_json: str, mutations: tuple[str, ...],
                time_limit: float, cards: str = "{}", _progress: OnProgress | None = None) -> list[dict]:
    from dashboard.wagons.view import cards_data
    from solver.wagons.verify.checks import run_checks

    readings = readings_from_key(GAME, readings_json)
    out = run_checks(scenarios, check_ids, readings, frozenset(mutations), time_limit, progress=_progress,
                     data=cards_data(cards))  # the checks that read goal numbers: those of the player's cards
    return [c.to_json() for c in out]  # the JSON edge: plain data for the cache (no engine objects)


def _town(placements: list[dict] | None, caption: str, flagged: list[dict] = ()) -> None:
    from dashboard.wagons import view  # the optimizer behind it loads with this section, not with the navigation
    from solver.wagons.town import town_from_dict

    try:
        st.html(view.town_html(town_from_dict({"placements": placements or []}), caption, list(flagged)))
    except (BadInput, KeyError, TypeError, ValueError):
        st.caption(f"({caption}: cannot be drawn as a town)")


def _pile(pile: list[int] | None, caption: str) -> None:
    from dashboard.wagons import view

    if not pile:
        st.caption(f"{caption}: (empty)")
        return
    known = {c.id for c in view.cards()}
    html = "".join(view.card_preview(cid, title=f"#{cid}" + (" (top)" if n == len(pile) - 1 else ""))
                   for n, cid in enumerate(pile) if cid in known)
    st.markdown(f"**{caption}** (oldest first, the last is on top)")
    st.html(f"<div style='display:flex;flex-wrap:wrap'>{html}</div>")


def _game(game: dict, engine: dict | None) -> None:
    """A Z3 game: the deal, each turn, then both sides as the engine's replay left them."""
    st.markdown(f"**Deal** - circle `{game.get('circle')}`, preference deck (top first) `{game.get('deck')}`; "
                f"the player's drafts `{game.get('player_drafts')}`")
    rows = [{"turn": t["turn"], "round": t["round"], "who": t["who"], "circle": str(t["circle"]),
             "takes index": t["k"], "deck top": str(t.get("deck_top", "")), "pile top": str(t.get("pile_top", "")),
             "readings pick": str(t.get("readings_pick", "")), "text allows": str(t.get("text_allows", ""))}
            for t in game.get("turns", [])]
    if rows:
        st.dataframe(pl.DataFrame(rows), hide_index=True, width="stretch")
    if engine:
        verdict = "plays the same game" if engine.get("agrees") else f"differs: {engine.get('mismatch')}"
        st.markdown(f"**The engine** {verdict}.")
        _sides(engine.get("town"), engine.get("pile"))


def _sides(town: dict | None, pile: list[int] | None) -> None:
    left, right = st.columns(2)
    with left:
        _town((town or {}).get("placements"), "The player's town")
    with right:
        _pile(pile, "The opponent's pile")


def counterexample(check: dict) -> None:
    """A Lone Cowboy counterexample drawn as towns: a game (deal, turns, both sides), a placement,
    or a scored position; the raw JSON below."""
    cex = check.get("counterexample")
    if not isinstance(cex, dict):
        return
    if cex.get("why"):
        st.markdown(f"**Counterexample:** {cex['why']}")
    if isinstance(cex.get("game"), dict):
        _game(cex["game"], cex.get("engine"))
    elif "town_cells" in cex:
        eng = cex.get("engine") or {}
        town = eng.get("town") or {}
        _town(town.get("placements"), f"A legal town of {counted(cex.get('cards'), 'card')}"
                     + (" (the new card outlined in red)" if cex.get("new_card") else ""),
                     [cex["new_card"]] if cex.get("new_card") else [])
        if cex.get("new_card"):
            st.markdown(f"**New card** at ({cex['new_card']['x']}, {cex['new_card']['y']}): the engine says "
                        f"*{eng.get('engine_problem') or 'legal'}*")
    elif "pile" in cex or "town" in cex:
        st.markdown(f"Seed {cex.get('seed')}: player {cex.get('player')}, opponent {cex.get('opponent')}")
        _sides(cex.get("town"), cex.get("pile"))
    st.markdown("**Counterexample (JSON)**")
    st.json(cex, expanded=False)


def _details(check: dict) -> None:
    d = check.get("details") or {}
    fam = check.get("check")
    if fam == "termination" and d.get("witness"):
        st.markdown(f"Longest game: **{counted(d.get('longest_game_turns') or 0, 'turn')}** (bound {d.get('bound_turns')}); "
                    "a deal that reaches it:")
        _game(d["witness"], d.get("engine"))
    if fam == "automaton" and d.get("text_gaps"):
        st.markdown("**Where the text alone leaves the opponent's choice open** (each settled by a reading):")
        st.dataframe(pl.DataFrame([{"reading": g["rule"], "situation": g["situation"],
                                    "reachable": {True: "yes", False: "no", None: "undecided"}[g["reachable"]],
                                    "engine replay": "" if not g.get("engine") else
                                    ("agrees" if g["engine"]["agrees"] else "differs")}
                                   for g in d["text_gaps"]]), hide_index=True, width="stretch")
    if fam == "score-bounds":
        rows = [{"side": side, "proven bound": v.get("bound"), "best witness": (v.get("witness") or {}).get("total"),
                 "gap": v.get("gap")} for side, v in d.items() if isinstance(v, dict)]
        st.dataframe(pl.DataFrame(rows), hide_index=True)
        w = (d.get("player") or {}).get("witness")
        if w:
            _sides(w.get("town"), w.get("pile"))
    if fam == "winnability":
        for row in d.get("readings", []):
            win, lose = row.get("win"), row.get("unwinnable_deal")
            st.markdown(f"Reading `{row['reading']}`: " + (
                f"won deal seed {win['seed']} ({win['player']} to {win['opponent']}; replay: `{win['replay']}`)"
                if win else "no won deal found within the limit") + "; " + (
                f"deal seed {lose['seed']} cannot be won ({lose['proof']})" if lose else
                f"no deal proven unwinnable among {row.get('deals_tried_for_a_loss')} tried"))
            if win:
                _sides(win.get("town"), win.get("pile"))


def section(title: str) -> None:
    """The Lone Cowboy checks: options, a run with progress and a time limit, holds/fails, and
    each counterexample drawn as towns with its rule passage (``solver.wagons.verify.checks``)."""
    from solver.wagons.data import SCENARIO_IDS, load_data
    from solver.wagons.verify.checks import CHECK_IDS, mutation_names

    names = mutation_names()
    c1, c2 = st.columns(2)
    titles = {s.id: s.name for s in load_data().scenarios}
    scen = c1.multiselect("Scenarios", list(SCENARIO_IDS), default=["cattle-drive"], key="ver_wagons_scenarios",
                          format_func=lambda s: titles.get(s, s))
    which = c2.multiselect("Checks", list(CHECK_IDS), default=["playability", "winnability"], key="ver_wagons_checks",
                           help="Each game check (conservation, termination, automaton) takes up to a minute or "
                                "two per scenario.")
    limit = float(st.slider("Time limit per check (seconds)", 5, 300, 60, key="ver_wagons_limit"))
    muts = st.multiselect("Break a rule on purpose, to see the verifier catch it with a counterexample", sorted(names),
                          format_func=lambda m: f"{m}: {names[m]}", key="ver_wagons_mutations")
    if not scen or not which:
        st.info("Choose at least one scenario and one check.")
        return
    from dashboard.wagons.cards.reading import cards_json

    readings_json, cards = readings_key(make_readings(GAME, readings_class(GAME))), cards_json()
    inputs = [GAME, scen, which, readings_json, muts, limit] + ([cards] if cards != "{}" else [])
    if st.button(f"Run the {title} checks", key="run_wagons"):
        box = ProgressBox()
        try:
            answers.remember(KEPT, GAME, inputs, run_with_progress(
                _run, tuple(scen), tuple(which), readings_json, tuple(muts), limit, cards, box, label=f"Checking {title}",
                expected_seconds=limit * len(scen) * len(which), box=box))
        except BadInput as exc:
            st.error(str(exc), icon=":material/error:")
        except Exception as exc:  # noqa: BLE001 - a verifier's failure is reported, never a traceback
            st.error(f"The {title} verifier failed: {type(exc).__name__}: {exc}", icon=":material/error:")
    results = answers.recall(KEPT, GAME, inputs)
    if results is None:
        return
    held, failed = sum(c["holds"] is True for c in results), sum(c["holds"] is False for c in results)
    st.markdown(f"**{held} of {len(results)} checks hold, {failed} fail**" + (" (with the rules broken on purpose: "
                + ", ".join(muts) + ")" if muts else "") + ".")
    st.dataframe(pl.DataFrame([{"check": c["id"], "result": VERDICT[c["holds"]], "proven": bool(c.get("proven")),
                                "seconds": c.get("elapsed")} for c in results]), hide_index=True, width="stretch")
    for c in results:
        mark = {True: ":material/check_circle:", False: ":material/cancel:", None: ":material/help:"}[c["holds"]]
        with st.expander(f"{VERDICT[c['holds']]} - {c['id']}", icon=mark, expanded=c["holds"] is False):
            st.markdown(f"{c['title']}.  \n*Rulebook:* {c['rule']}")
            _details(c)
            counterexample(c)
