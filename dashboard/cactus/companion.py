"""Cactus Town round companion: follow a real game round by round (the "Follow a game" tab).

The user sets up a game (solo, or 2-5 players for the event deck) and records each round's revealed
cards; every figure is :func:`solver.cactus.companion.report`'s (exact, conditioned on the history),
the lone ranger's turn is :func:`solver.cactus.ranger.decide`'s, in words (:mod:`dashboard.cactus.words`).
The game (mode, marked cards, rounds) is this browser's kept work ``cactus_record``
(:mod:`dashboard.shared.work.store`: a page switch, a reload on any page, a closed tab or a server restart finds it;
"My games" saves it as the kind ``cactus-game``) and lives in the browser's address (query parameter
``cactus``), so a bookmark or a shared address resumes it.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import altair as alt
import polars as pl
import streamlit as st

from dashboard.cactus import addresses as cactus_addresses
from dashboard.cactus.words import chance_words, outcome_words
from dashboard.shared import games
from dashboard.shared.caching import dumps
from dashboard.shared.readings import make_readings, readings_class
from dashboard.shared.widgets import show_bad_input
from dashboard.shared.words import counted
from dashboard.shared.work import store, urldoc
from dashboard.shared.work.plaintext import plain
from solver.cactus import companion as cp
from solver.cactus import events as ev
from solver.cactus import solo_deck as sd
from solver.cactus.game import initial_state
from solver.cactus.readings import CactusReadings
from solver.errors import BadInput

QUERY = "cactus"
KEY = "cactus_record"
"""Session key and work key (``games.KINDS["cactus-game"]``): {"players", "marked", "history"}."""
SOLO_CARDS = list(sd.NUMBERED) + [sd.MARSHAL]
NOT_SEEN = "(not seen)"


def card_name(c: Any) -> str:
    return "the marshal's arrival" if c == sd.MARSHAL else f"#{c}"


def event_name(key: str | None) -> str:
    return "no event card" if key is None else ev.table().get(key).name


# ----------------------------------------------------------------------------- state

def new_game(players: int | None, marked: list[int]) -> dict:
    return {"players": players, "marked": sorted(marked), "history": []}


def check_game(doc: Any) -> dict:
    """A companion game document (from the address), checked by the engine's record parser."""
    if not isinstance(doc, dict) or set(doc) != {"players", "marked", "history"}:
        raise BadInput("expected a game with players, marked and history")
    if doc["players"] is not None:
        ev.deck_size(doc["players"])
    initial_state(marked=doc["marked"])  # the engine checks the 4 marked cards
    if not isinstance(doc["history"], list):
        raise BadInput("history: expected a list of rounds")
    for n, r in enumerate(doc["history"], start=1):
        cp.record_from_json(r, n)
    return doc


def _from_address() -> None:
    ss = st.session_state
    text = st.query_params.get(QUERY)
    if text:
        try:
            ss[KEY] = check_game(urldoc.decode(text, cactus_addresses.CACTUS))
        except BadInput as exc:
            ss.ctc_url_error = f"The game in the address was not loaded: {exc}"


def init() -> None:
    """The game kept in the session, else from the address (a bookmark), this browser's store (a reload
    elsewhere, a closed tab, a restarted server), or a new solo game."""
    ss = st.session_state
    if KEY not in ss:
        _from_address()
    store.sync(KEY, load=check_game)
    if KEY not in ss:
        ss[KEY] = new_game(None, list(sd.DEFAULT_MARKED))


def _keep() -> None:
    """End of the run: the game to this browser's store (when it changed) and to the address."""
    store.persist(KEY)
    urldoc.put(st.query_params, QUERY, st.session_state[KEY])


@st.cache_data(show_spinner="Computing the exact odds given the cards seen...", max_entries=64)
def report_cached(game_text: str, readings_text: str) -> dict:
    game = json.loads(game_text)
    history = [cp.record_from_json(r, n) for n, r in enumerate(game["history"], start=1)]
    return cp.report(game["players"], CactusReadings.from_json(json.loads(readings_text)), history, tuple(game["marked"]))


def _readings_text() -> str:
    return dumps(make_readings("cactus", readings_class("cactus")).to_json())


# ----------------------------------------------------------------------------- widgets

def render_setup() -> None:
    ss = st.session_state
    game = ss[KEY]
    with st.expander("Set up a new game", expanded=not game["history"], icon=":material/settings:"):
        c = st.columns([2, 2, 1])
        mode = c[0].radio("Game", ["solo", 2, 3, 4, 5], horizontal=True, key="ctc_mode",
                          index=["solo", 2, 3, 4, 5].index(game["players"] or "solo"),
                          format_func=lambda m: "Solo" if m == "solo" else f"{m} players")
        marked = c[1].multiselect("Solo: the 4 marked cards (round 1's deck)", list(sd.NUMBERED),
                                  default=game["marked"], key="ctc_marked", disabled=mode != "solo",
                                  help="Which numbers are marked is not printed in the text; 1-4 by default")
        if c[2].button("Start this game", key="ctc_start", type="primary"):
            try:
                initial_state(marked=marked)
            except BadInput as exc:
                show_bad_input(exc, "Game not started: ")
            else:
                ss[KEY] = new_game(None if mode == "solo" else int(mode), marked)
                st.rerun()


def render_record_form(game: dict, readings, rnd: int) -> None:
    """The cards seen in round ``rnd``; recording is refused inline when the engine says it cannot happen."""
    has_events = game["players"] is not None or readings.solo_events
    solo = game["players"] is None
    keys = [e.key for e in ev.table().events]
    k = f"ctc_r{rnd}"
    with st.form(f"ctc_form_{rnd}", border=True):
        st.markdown(f"**Round {rnd}: the cards seen**")
        rec: dict = {"event": None, "train_discard": None, "duel_discards": [], "programmed": [], "second_shot": None}
        if has_events:
            c = st.columns(3)
            rec["event"] = c[0].selectbox("Event card drawn", [None] + keys, key=f"{k}_event", format_func=event_name)
            t = c[1].selectbox("If the Train: the card it discarded", [NOT_SEEN] + keys, key=f"{k}_train",
                               format_func=lambda x: x if x == NOT_SEEN else event_name(x))
            rec["train_discard"] = None if t == NOT_SEEN else t
            duels = c[2].multiselect("Cards discarded by the lone ranger's duel wins (in order)", keys,
                                     key=f"{k}_duels", format_func=event_name)
            rec["duel_discards"] = duels
        if solo:
            s = st.columns(4)
            for i in range(3):
                v = s[i].selectbox(f"Programmed card {i + 1}", [NOT_SEEN] + SOLO_CARDS, key=f"{k}_p{i}",
                                   format_func=lambda x: x if x == NOT_SEEN else card_name(x))
                if v != NOT_SEEN:
                    rec["programmed"].append(v)
            shot = s[3].selectbox("Second shot card", [NOT_SEEN] + SOLO_CARDS, key=f"{k}_shot",
                                  format_func=lambda x: x if x == NOT_SEEN else card_name(x))
            rec["second_shot"] = None if shot == NOT_SEEN else shot
        if not st.form_submit_button(f"Record round {rnd}", type="primary"):
            return
    try:
        trial = {**game, "history": game["history"] + [rec]}
        report_cached(dumps(trial), _readings_text())
    except BadInput as exc:
        st.session_state.ctc_error = f"Round {rnd} not recorded: {refused_cards(game, rec, rnd)}{exc}"
    else:
        st.session_state[KEY] = trial
    st.rerun()


def _seen_cards(rec: dict) -> list[tuple[str, str, Any]]:
    """Each card a round's record names: (its words, the record's field, the card)."""
    out = [(event_name(rec["event"]) + " (the event drawn)", "event", rec["event"])] if rec["event"] else []
    if rec["train_discard"]:
        out.append((f"{event_name(rec['train_discard'])} (discarded by the Train)", "train_discard", rec["train_discard"]))
    out += [(f"{event_name(d)} (discarded by a duel win)", "duel_discards", d) for d in rec["duel_discards"]]
    out += [(f"{card_name(c)} (programmed)", "programmed", c) for c in rec["programmed"]]
    if rec["second_shot"] is not None:
        out.append((f"{card_name(rec['second_shot'])} (the second shot)", "second_shot", rec["second_shot"]))
    return out


def _without(rec: dict, field: str, card: Any) -> dict:
    if field in ("programmed", "duel_discards"):
        rest = list(rec[field])
        rest.remove(card)
        return {**rec, field: rest}
    return {**rec, field: None}


def refused_cards(game: dict, rec: dict, rnd: int) -> str:
    """The cards of a refused round that the engine accepts the round without, named ("#5 (programmed) cannot
    have been seen in round 1: "), so the player knows which card to check; "" when no single card is to blame.
    Each trial is the engine's own record check (solver.cactus.companion)."""
    blamed = []
    for words, field, card in _seen_cards(rec):
        try:
            report_cached(dumps({**game, "history": game["history"] + [_without(rec, field, card)]}), _readings_text())
        except BadInput:
            continue
        blamed.append(words)
    if not blamed or len(blamed) == len(_seen_cards(rec)):
        return ""
    return f"{' or '.join(blamed)} cannot have been seen in round {rnd}; the engine says: "


def live_frame(rep: dict) -> pl.DataFrame:
    """Per recorded step: the exact chance the marshal arrives in the next round."""
    rows = []
    for s in rep["steps"]:
        nxt = s["after_round"] + 1
        rows.append({"round": nxt, "chance": float(Fraction(s["next_round"])), "exact": s["next_round"],
                     "series": "Given the cards seen"})
    before = rep["steps"][0]["rounds"]
    for s in rep["steps"]:
        nxt = str(s["after_round"] + 1)
        p = before.get(nxt, "0")
        rows.append({"round": int(nxt), "chance": float(Fraction(p)), "exact": p,
                     "series": "Before the game"})
    return pl.DataFrame(rows)


def forecast_frame(rep: dict) -> pl.DataFrame:
    now = rep["steps"][-1]
    k = now["after_round"]
    rows = []
    for label, step in ((f"Now (after round {k})" if k else "Now (no round recorded yet)", now),
                        ("Before the game", rep["steps"][0])):
        for r, p in step["rounds"].items():
            if int(r) > k:
                rows.append({"round": int(r), "chance": float(Fraction(p)), "exact": p, "series": label})
    return pl.DataFrame(rows, schema={"round": pl.Int64, "chance": pl.Float64, "exact": pl.String, "series": pl.String})


def _chart(df: pl.DataFrame, title: str, subtitle: str, y_title: str) -> alt.Chart:
    """A line chart of chances per round; its title short with a subtitle and its legend one entry a line, so that
    nothing is cut at a phone's 390 px."""
    return alt.Chart(df).mark_line(point=True).encode(
        x=alt.X("round:O", title="Round", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("chance:Q", title=y_title, axis=alt.Axis(format=".0%")),
        color=alt.Color("series:N", title="Odds", legend=alt.Legend(orient="top", direction="vertical",
                                                                          labelLimit=0)),
        tooltip=[alt.Tooltip("round:O", title="Round"), alt.Tooltip("exact:N", title="exact chance"),
                 alt.Tooltip("chance:Q", title="chance", format=".2%"), alt.Tooltip("series:N", title="odds")],
    ).properties(title=alt.TitleParams(title, subtitle=subtitle, anchor="start"))


def render_odds(rep: dict) -> None:
    now = rep["steps"][-1]
    k = now["after_round"]
    ended = Fraction(now["ended"])
    if ended == 1:
        st.success(f"**The marshal has arrived in round {k}: the lone ranger wins.**", icon=":material/emoji_events:")
        return
    if ended:
        st.info(f"The game may already be over (chance {now['ended']}): the Train or a duel may have discarded "
                "the marshal's arrival unseen. Recording another round means it was not.")
    c = st.columns(3)
    p = Fraction(now["next_round"])
    c[0].metric(f"Marshal arrives in round {k + 1}", now["next_round"], help=f"{float(p):.2%}, exact, given the cards seen")
    by = [(int(r), v) for r, v in now["by_round"].items() if int(r) >= k + 3]
    if by:
        c[1].metric(f"Arrived by round {by[0][0]}", by[0][1], help=f"{float(Fraction(by[0][1])):.2%}")
    live = [(int(r), Fraction(v)) for r, v in now["rounds"].items() if int(r) > k]
    if live:
        exp = sum(r * q for r, q in live) / sum(q for _, q in live)
        c[2].metric("Expected round of arrival", f"{float(exp):.2f}", help=f"exact: {exp} (among the rounds he can arrive)")
    if Fraction(now["never"]):
        st.caption(f"Chance he never arrives (the event deck runs out without him, or beyond round {cp.HORIZON}): "
                   f"{now['never']}.")
    left, right = st.columns(2)
    left.altair_chart(_chart(live_frame(rep), "Live odds", "the marshal arrives next round",
                             "Chance he arrives"), width="stretch", height=320)
    right.altair_chart(_chart(forecast_frame(rep), "When will he arrive?", "now and before the game",
                              "Chance he arrives"), width="stretch", height=320)


def render_decks(rep: dict) -> None:
    now = rep["steps"][-1]
    deck = now.get("solo_deck")
    if deck:
        st.markdown(f"**The solo deck for round {now['after_round'] + 1}** ({deck['size']} cards): the chance each "
                    "card is in it, given the cards seen (rule C3: rounds 2-5 add a random card).")
        st.dataframe(pl.DataFrame([{"card": card_name(c if c == sd.MARSHAL else int(c)), "chance it is in the deck": p}
                                   for c, p in deck["card_chance"].items()]).transpose(include_header=True,
                                                                                      header_name="",
                                                                                      column_names="card"),
                     hide_index=True, width="stretch")
    events = now.get("events")
    if events:
        left = ", ".join(f"{x['n']} (chance {x['p']})" for x in events["cards_left"])
        st.markdown(f"**The event deck**: cards left {left}; chance the marshal's arrival is still in it: "
                    f"**{events['marshal_in_deck']}**.")


def render_history(rep: dict) -> None:
    rows = []
    for n, (r, step) in enumerate(zip(rep["history"], rep["steps"]), start=1):
        seen = []
        if r["event"]:
            seen.append(event_name(r["event"]))
        if r["train_discard"]:
            seen.append(f"the Train discarded {event_name(r['train_discard'])}")
        seen += [f"a duel win discarded {event_name(d) if d else 'an unseen card'}" for d in r["duel_discards"]]
        if r["programmed"]:
            seen.append("programmed " + ", ".join(card_name(c) for c in r["programmed"]))
        if r["second_shot"] is not None:
            seen.append(f"second shot {card_name(r['second_shot'])}")
        rows.append({"round": n, "cards seen": "; ".join(seen) or "nothing recorded",
                     "chance he arrived this round (before it)": step["next_round"]})
    if rows:
        st.dataframe(pl.DataFrame(rows), hide_index=True, width="stretch")


def render_ranger(readings, last_event: str | None) -> None:
    """The lone ranger's turn for the card row typed here, on the town of the "Lone ranger's turn" tab."""
    from solver.cactus.ranger import decide

    st.markdown("**The lone ranger's turn**: type the action card he reveals, as printed; the town is the one "
                "on the *Lone ranger's turn* tab.")
    card = st.text_input("Action card (`with visible target | without`, e.g. `DUEL/RUN SNEAK | SPRINT`)",
                         key="ctc_card")
    ss = st.session_state
    town = ss.get("ct_position_live") or ss.get("ct_pos")  # the tab's boxes as last drawn, else the kept town
    if not card.strip():
        return
    if town is None:
        st.info("Open the *Lone ranger's turn* tab once to set up the town.")
        return
    town = {k: v for k, v in town.items() if k in ("town", "ranger", "outlaws", "targets", "duel", "came_from")}
    try:
        res = decide({**town, "card": card, "event": None if last_event == ev.MARSHAL else last_event}, readings)
    except BadInput as exc:
        show_bad_input(exc, "Lone ranger: ")
        return
    st.markdown(f"He follows the **{'with visible target' if res['visible_target'] else 'no visible target'}** "
                f"row: `{res['sequence']}`; closest outlaw(s): {', '.join(res['closest']['outlaws']) or '-'}.")
    for o in res["outcomes"]:
        st.markdown(f"- **{chance_words(o['p'])}**: {outcome_words(o)}")


def render() -> None:
    init()
    ss = st.session_state
    render_setup()
    game = ss[KEY]
    readings = make_readings("cactus", readings_class("cactus"))
    mode = "Solo" if game["players"] is None else f"{game['players']} players"
    st.markdown(f"**Following a {mode} game**" + (f" (marked solo cards {', '.join(map(str, game['marked']))})"
                                                  if game["players"] is None else "")
                + f": {counted(len(game['history']), 'round')} recorded.")
    try:
        rep = report_cached(dumps(game), _readings_text())
    except BadInput as exc:  # the readings changed under a recorded game
        show_bad_input(exc, "This game does not fit the readings in force: ")
        return
    if ss.get("ctc_error"):
        st.error(plain(ss.pop("ctc_error")), icon=":material/error:")
    over = Fraction(rep["steps"][-1]["ended"]) == 1
    if not over:
        render_record_form(game, readings, len(game["history"]) + 1)
    if game["history"] and st.button("Undo the last round", key="ctc_undo", icon=":material/undo:"):
        ss[KEY] = {**game, "history": game["history"][:-1]}
        st.rerun()
    render_odds(rep)
    if not over:  # after the marshal's arrival there is no next round, so no deck for it
        render_decks(rep)
    render_history(rep)
    if not over:
        render_ranger(readings, game["history"][-1]["event"] if game["history"] else None)
    with st.expander("Save this game to My games", icon=":material/bookmark_add:"):
        games.save_form("cactus-game", game, key="ctc_save", default_name=f"Cactus Town, {mode.lower()} game")
    _keep()
