"""The Verification page's adapters: run each game's invariant checks in :mod:`solver` and draw
their results (holds / fails, counterexample, rule passage). No check is decided here."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import polars as pl
import streamlit as st

from dashboard.checks import cactus_words, outlaws_cex
from dashboard.outlaws import street
from dashboard.shared import answers, draw
from dashboard.shared.caching import all_checks_decided, cache_final, dumps
from dashboard.shared.readings import rules_doc, rules_from_doc
from dashboard.shared.words import counted
from solver import registry
from solver.errors import BadInput


def rules_key(rules: Any) -> str:
    """A Rules options object as canonical JSON (the cache key of a check run)."""
    return dumps(rules_doc(rules))


def _rules_from_key(game: str, rules_json: str) -> Any:
    return rules_from_doc(game, json.loads(rules_json))


@dataclass(frozen=True)
class Runner:
    """How to run one game's checks (its room's ``verify``, :data:`solver.registry.GAMES`) and how long it usually
    takes."""

    game: str
    expected_seconds: float = 20.0

    def run(self, game: str, rules_json: str, options_json: str = "{}") -> list[dict]:
        return _run_cached(game, rules_json, options_json)


@cache_final(all_checks_decided, max_entries=32)
def _run_cached(game: str, rules_json: str, options_json: str) -> list[dict]:
    return registry.game(game).verify(_rules_from_key(game, rules_json), json.loads(options_json))["checks"]


KEPT = "checks_answers"
"""Work key of the Verification page's last answers (:mod:`dashboard.shared.answers`; the impact table's too)."""

RUNNERS: dict[str, Runner] = {
    "cactus": Runner("cactus", 60.0),
    "outlaws": Runner("outlaws", 60.0),
}
"""The runners of the Cactus Town and Outlaws Z3 checks; Lone Cowboy's checks have their own section
(:func:`wagons_section`: scenarios, mutations, counterexamples drawn as towns)."""


def _rule_passage(rule: str | None) -> str:
    """The register's source passage for a rule id, else the check's own text."""
    if not rule:
        return ""
    from solver.register import register

    for token in str(rule).replace(",", " ").split():
        rid = token.removeprefix("rule:")
        try:
            r = register().get(rid)
        except BadInput:
            continue
        return f"**{r.id}** {r.title}: {r.source}"
    return str(rule)


def draw_counterexample(game: str, check: dict) -> None:
    """A counterexample in words, drawn where it is a position (an Outlaws one before and after its action, what
    changed outlined), then its raw JSON for the curious."""
    cex = check.get("counterexample")
    if cex is None:
        return
    if game == "outlaws" and isinstance(cex, dict) and isinstance(cex.get("before"), dict):
        st.markdown(f"**Counterexample:** {outlaws_cex.sentence(str(check['id']), cex)}")
        _safe_position(cex["before"], "Before the action")
        if isinstance(cex.get("after"), dict):
            _safe_position(cex["after"], "After it (what changed is outlined in orange, with what it was)",
                           before=cex["before"])
    elif game == "cactus":
        words = cactus_words.fails_in_words(check)
        if words:
            st.markdown(f"**{'Counterexample' if check.get('holds') is False else 'Witness'}:** {words}")
    with st.expander("Counterexample (JSON)", expanded=False):
        st.json(cex)


VERDICT = {True: "holds", False: "fails", None: "undecided"}


def _safe_position(pos: dict, caption: str, before: dict | None = None) -> None:
    try:
        st.html(street.street_html(pos, caption, before=before, counts=True))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        st.caption(f"({caption}: this counterexample cannot be drawn as a street)")


def show(game: str, checks: list[dict]) -> None:
    """A holds/fails table, then one expander per check with its rule passage and counterexample."""
    if not checks:
        st.info("The verifier returned no checks.")
        return
    held = sum(c["holds"] is True for c in checks)
    failed = sum(c["holds"] is False for c in checks)
    st.markdown(f"**{held} of {len(checks)} checks hold, {failed} fail"
                + (f", {len(checks) - held - failed} undecided within the time limit" if held + failed < len(checks) else "")
                + ".**")
    st.dataframe(pl.DataFrame([{"check": str(c["id"]), "result": VERDICT[c["holds"]],
                                "rule": str(c.get("rule") or ""),
                                "detail": str(c.get("title") or c.get("detail") or c.get("description") or "")}
                               for c in checks]), hide_index=True, width="stretch")
    for c in checks:
        mark = {True: ":material/check_circle:", False: ":material/cancel:", None: ":material/help:"}[c["holds"]]
        with st.expander(f"{VERDICT[c['holds']]} - {c['id']}", icon=mark, expanded=c["holds"] is False):
            passage = _rule_passage(c.get("rule"))
            if passage:
                st.markdown(passage)
            if c.get("counterexample") is not None:
                draw_counterexample(game, c)
            extra = {k: v for k, v in c.items() if k not in ("id", "holds", "counterexample", "rule")}
            if extra:
                with st.expander("The check's details (JSON)"):
                    st.json(extra, expanded=False)


# ----------------------------------------------------------------------------- Lone Cowboy

@cache_final(all_checks_decided, max_entries=16)
def _wagons_run(scenarios: tuple[str, ...], check_ids: tuple[str, ...], rules_json: str, mutations: tuple[str, ...],
                time_limit: float) -> list[dict]:
    from solver.wagons.verify.checks import run_checks

    rules = _rules_from_key("wagons", rules_json)
    out = run_checks(scenarios, check_ids, rules, frozenset(mutations), time_limit)
    return json.loads(dumps(out))  # plain data for the cache (no engine objects)


def _wagons_town(placements: list[dict] | None, caption: str, flagged: list[dict] = ()) -> None:
    from dashboard.wagons import view as wagons_view
    from solver.wagons.town import town_from_dict

    try:
        st.html(wagons_view.town_html(town_from_dict({"placements": placements or []}), caption, list(flagged)))
    except (BadInput, KeyError, TypeError, ValueError):
        st.caption(f"({caption}: cannot be drawn as a town)")


def _wagons_pile(pile: list[int] | None, caption: str) -> None:
    from dashboard.wagons import view as wagons_view

    if not pile:
        st.caption(f"{caption}: (empty)")
        return
    by_id = {c["id"]: c for c in wagons_view.cards()}
    html = "".join(draw.wagons_card_html(cid, [tuple(q) for q in by_id[cid]["quads"]],
                                         f"#{cid}" + (" (top)" if n == len(pile) - 1 else ""))
                   for n, cid in enumerate(pile) if cid in by_id)
    st.markdown(f"**{caption}** (oldest first, the last is on top)")
    st.html(f"<div style='display:flex;flex-wrap:wrap'>{html}</div>")


def _wagons_game(game: dict, engine: dict | None) -> None:
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
        _wagons_sides(engine.get("town"), engine.get("pile"))


def _wagons_sides(town: dict | None, pile: list[int] | None) -> None:
    left, right = st.columns(2)
    with left:
        _wagons_town((town or {}).get("placements"), "The player's town")
    with right:
        _wagons_pile(pile, "The opponent's pile")


def wagons_counterexample(check: dict) -> None:
    """A Lone Cowboy counterexample drawn as towns: a game (deal, turns, both sides), a placement,
    or a scored position; the raw JSON below."""
    cex = check.get("counterexample")
    if not isinstance(cex, dict):
        return
    if cex.get("why"):
        st.markdown(f"**Counterexample:** {cex['why']}")
    if isinstance(cex.get("game"), dict):
        _wagons_game(cex["game"], cex.get("engine"))
    elif "town_cells" in cex:
        eng = cex.get("engine") or {}
        town = eng.get("town") or {}
        _wagons_town(town.get("placements"), f"A legal town of {counted(cex.get('cards'), 'card')}"
                     + (" (the new card outlined in red)" if cex.get("new_card") else ""),
                     [cex["new_card"]] if cex.get("new_card") else [])
        if cex.get("new_card"):
            st.markdown(f"**New card** at ({cex['new_card']['x']}, {cex['new_card']['y']}): the engine says "
                        f"*{eng.get('engine_problem') or 'legal'}*")
    elif "pile" in cex or "town" in cex:
        st.markdown(f"Seed {cex.get('seed')}: player {cex.get('player')}, opponent {cex.get('opponent')}")
        _wagons_sides(cex.get("town"), cex.get("pile"))
    st.markdown("**Counterexample (JSON)**")
    st.json(cex, expanded=False)


def _wagons_details(check: dict) -> None:
    d = check.get("details") or {}
    fam = check.get("check")
    if fam == "termination" and d.get("witness"):
        st.markdown(f"Longest game: **{d.get('longest_game_turns')} turns** (bound {d.get('bound_turns')}); "
                    "a deal that reaches it:")
        _wagons_game(d["witness"], d.get("engine"))
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
            _wagons_sides(w.get("town"), w.get("pile"))
    if fam == "winnability":
        for row in d.get("readings", []):
            win, lose = row.get("win"), row.get("unwinnable_deal")
            st.markdown(f"Reading `{row['reading']}`: " + (
                f"won deal seed {win['seed']} ({win['player']} to {win['opponent']}; replay: `{win['replay']}`)"
                if win else "no won deal found within the limit") + "; " + (
                f"deal seed {lose['seed']} cannot be won ({lose['proof']})" if lose else
                f"no deal proven unwinnable among {row.get('deals_tried_for_a_loss')} tried"))
            if win:
                _wagons_sides(win.get("town"), win.get("pile"))


def wagons_section(title: str) -> None:
    """The Lone Cowboy checks: options, a run with progress and a time limit, holds/fails, and
    each counterexample drawn as towns with its rule passage (``solver.wagons.verify.checks``)."""
    from dashboard.shared.readings import make_rules, rules_class
    from dashboard.shared.work import run_with_progress
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
    rules_json = rules_key(make_rules("wagons", rules_class("wagons")))
    inputs = ["wagons", scen, which, rules_json, muts, limit]
    if st.button(f"Run the {title} checks", key="run_wagons"):
        try:
            answers.remember(KEPT, "wagons", inputs, run_with_progress(
                _wagons_run, tuple(scen), tuple(which), rules_json, tuple(muts), limit, label=f"Checking {title}",
                expected_seconds=limit * len(scen) * len(which)))
        except BadInput as exc:
            st.error(str(exc), icon=":material/error:")
        except Exception as exc:  # noqa: BLE001 - a verifier's failure is reported, never a traceback
            st.error(f"The {title} verifier failed: {type(exc).__name__}: {exc}", icon=":material/error:")
    results = answers.recall(KEPT, "wagons", inputs)
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
            _wagons_details(c)
            wagons_counterexample(c)
