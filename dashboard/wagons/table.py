"""The Lone Cowboy game table, drawn: the circle, the card in hand, the town built by clicking, the
opponent's pile and turn, live scores, undo/redo and the game file.

Every choice offered is one of the engine's ``legal_actions`` of the game's one state
(:mod:`dashboard.wagons.game`), and every click applies it with the engine's ``apply``; the page
draws the state it gets back. No rule is decided here.
"""

from __future__ import annotations

import streamlit as st

from dashboard.shared import draw
from dashboard.shared.widgets import json_download, json_upload
from dashboard.shared.words import counted, readable, wrapped_table
from dashboard.wagons import game as wg
from dashboard.wagons import town_grid
from dashboard.wagons import view as wv
from solver.errors import BadInput
from solver.register import register
from solver.wagons import game as gm

ERROR = "lc_error"
WAITING = {"player": "No card to place: draft one from the circle.",
           "opponent": "No card to place: it is the opponent's turn.",
           "chance": "No card to place: a card is to be revealed first.",
           None: "The game is over: every card is drafted and placed."}
GRID = "lc_town"


def cards(n: int) -> str:
    return counted(n, "card")


def do(action: gm.Action) -> None:
    """Button callback: apply ``action``; an engine refusal is shown inline, nothing changes."""
    try:
        wg.act(action)
    except BadInput as exc:
        st.session_state[ERROR] = f"Not done: {exc}"


def rule_text(rule_id: str) -> str:
    """The rule's id and title from the register."""
    try:
        return f"{rule_id} ({register().get(rule_id).title})"
    except BadInput:
        return rule_id


def status_text(state: gm.GameState) -> str:
    if gm.is_over(state):
        return "**The game is over.**"
    who = {"player": "your turn", "opponent": "the opponent's turn", "chance": "a card is to be revealed"}
    doing = ""
    if state.to_move == "player":
        doing = f": place card {state.hand[0]}" if state.hand else ": draft a card from the circle"
    return f"**Round {state.round}, turn {state.turn}**: {who.get(state.to_move, state.to_move)}{doing}."


def history_bar(state: gm.GameState) -> None:
    """Where the game stands, with undo and redo of every action."""
    g = wg.current()
    cols = st.columns([5, 1, 1, 2], vertical_alignment="center")
    cols[0].markdown(status_text(state))
    cols[1].button("Undo", key="lc_undo", icon=":material/undo:", on_click=wg.undo, disabled=not wg.can_undo(),
                   width="stretch")
    cols[2].button("Redo", key="lc_redo", icon=":material/redo:", on_click=wg.redo, disabled=not wg.can_redo(),
                   width="stretch")
    cols[3].markdown(f"Action {g['at']} of {len(g['record']['actions'])}")
    if st.session_state.get(ERROR):
        st.error(st.session_state.pop(ERROR), icon=":material/error:")


# ----------------------------------------------------------------------------- the circle

def circle_view(state: gm.GameState) -> None:
    """The circle's cards, the next one first, each with its draft when the engine offers it."""
    drafts = {a.index for a in gm.legal_actions(state) if isinstance(a, gm.Draft)}
    st.markdown(f"**The circle** ({cards(len(state.circle) + state.hidden_circle)}, the next one first)")
    n = len(state.circle) + state.hidden_circle
    if not n:
        st.caption("The circle is empty.")
        return
    cols = st.columns(max(n, 8), gap="xsmall")
    for k, cid in enumerate(state.circle):
        with cols[k]:
            st.html(wv.card_preview(cid, size=0.82, note="next" if k == 0 else f"skips {k}"))
            if k in drafts:
                st.button("Draft", key=f"lc_draft_{k}", on_click=do, args=(gm.Draft(k),), width="stretch",
                          help=f"Take card {cid}" + (f"; the {k} card(s) before it go to the opponent's town"
                                                     if k else ""))
    for k in range(len(state.circle), n):
        cols[k].html(draw.wagons_card_back_html(f"Circle {k + 1}", size=0.82, note="not revealed yet"))


def deck_view(state: gm.GameState) -> None:
    """The preference deck: its top card face up once it is known (the round-1 opponent matches it)."""
    left = len(state.deck) + state.hidden_deck
    if state.deck:
        st.html(wv.card_preview(state.deck[0], size=0.7, title=f"Preference deck top: card {state.deck[0]}",
                                note=f"{left} cards in the deck"))
    elif left:
        st.html(draw.wagons_card_back_html("Preference deck", size=0.7, note=f"{left} cards, top not seen yet"))


# ----------------------------------------------------------------------------- chance: what was revealed

def reveal_target(state: gm.GameState) -> str:
    """Which card the table is waiting to see (the engine's next reveal, rule W-reveal)."""
    if state.hidden_circle:
        return f"circle card {len(state.circle) + 1} of {len(state.circle) + state.hidden_circle}"
    return "the preference deck's top card"


def reveal_view(state: gm.GameState) -> None:
    """At a chance node: pick the card just revealed at the table from the cards not seen yet."""
    reveals = [a for a in gm.legal_actions(state) if isinstance(a, gm.Reveal)]
    with st.container(border=True):
        st.markdown(f"**Reveal {reveal_target(state)}**: click the card that turned up "
                    f"({cards(len(reveals))} not seen yet).")
        per_row = 8
        for start in range(0, len(reveals), per_row):
            cols = st.columns(per_row, gap="xsmall")
            for col, a in zip(cols, reveals[start:start + per_row]):
                col.html(wv.card_preview(a.card, size=0.82))
                col.button(f"Card {a.card}", key=f"lc_reveal_{a.card}", on_click=do, args=(a,), width="stretch",
                           help=f"Card {a.card} is {reveal_target(state)}")


# ----------------------------------------------------------------------------- the opponent

def last_opponent_draft(state: gm.GameState) -> gm.LogEntry | None:
    return next((e for e in reversed(state.log) if e.what == "opponent-draft"), None)


def opponent_view(state: gm.GameState) -> None:
    """The opponent's turn (one click), what it took and the rule that made it, and its pile."""
    st.subheader("The opponent")
    if state.to_move == "opponent":
        st.button("Opponent's turn", key="lc_opponent", type="primary", icon=":material/smart_toy:",
                  on_click=do, args=(gm.OpponentTurn(),))
    e = last_opponent_draft(state)
    if e is not None:
        msg = f"Turn {e.turn}: the opponent took **card {e.card}**"
        if e.skipped:
            msg += f", skipping {', '.join(map(str, e.skipped))} (they come to you, to place in circle order)"
        if e.deck_card is not None:
            msg += f", and the deck's top card **{e.deck_card}**"
        st.info(msg + f". Rule **{rule_text(e.rule)}**.", icon=":material/smart_toy:")
    deck_view(state)
    st.markdown(f"**Opponent's town** ({cards(len(state.pile))}, oldest first; the last is on top)")
    if state.pile:
        st.html("".join(wv.card_preview(c, size=0.7) for c in state.pile))
    else:
        st.caption("No cards yet.")


# ----------------------------------------------------------------------------- the player's town

def hand_view(state: gm.GameState) -> list:
    """The card in hand, each way up the engine allows, and what to click; returns its legal placements."""
    legal = [a.placement for a in gm.legal_actions(state) if isinstance(a, gm.Place)]
    st.subheader("Your hand")
    if not legal:
        st.caption(WAITING.get(state.to_move, "No card to place now."))
        return legal
    card, queued = state.hand[0], state.hand[1:]
    st.markdown(f"**Card to place: {card}**" + (f" (then {', '.join(map(str, queued))}: the cards the opponent "
                                                 "skipped, in circle order)" if queued else ""))
    town_grid.rotation_picker(card, legal, GRID)
    st.caption(town_grid.help_line(card, town_grid.current_preview(GRID, card, town_grid.spots(legal))))
    return legal


def town_view(state: gm.GameState, legal: list) -> None:
    """The town grid with the legal spots of the card in hand."""
    st.subheader(f"Your town ({cards(len(state.town.placements))})")
    card = state.hand[0] if legal else None
    if not state.town.placements and card is None:
        st.caption("Your first card can go anywhere; it is placed once you have drafted it.")
        return
    town_grid.grid(state.town, card, legal, GRID, lambda p: do(gm.Place(p)))


# ----------------------------------------------------------------------------- scores, files, log

def scores_view(state: gm.GameState) -> None:
    over = gm.is_over(state)
    st.subheader("Final scores" if over else "Scores so far")
    wv.show_scores(gm.scores(state).to_dict(), player_label="You", total_label="Your total",
                   winner_problem=None if over else "the game is not over yet (cards are still to draft and place)")


def files_view() -> None:
    """Download the game file, and upload one right beside it."""
    left, right = st.columns(2)
    with left:
        json_download("Download the game file", wg.applied_record(), "lone-cowboy-game.json", "lc_download")
        st.caption("The game is also kept in this page's address: a reload or a bookmark resumes it.")
    with right:
        rec = json_upload("Upload a game file", "lc_upload", wg.load_record)
        if rec is not None:
            wg.start(rec)
            st.rerun()


def log_view(state: gm.GameState) -> None:
    with st.expander(f"Game log ({counted(len(state.log), 'entry', 'entries')})", icon=":material/list:"):
        rows = [{"turn": e.turn, "round": e.round, "who": e.who, "what": e.what, "card": e.card,
                 "rule": rule_text(e.rule), "note": e.note} for e in state.log]
        wrapped_table(readable(rows))  # the opponent's reasons (the notes) whole
