"""The Lone Cowboy game table, drawn: the circle as a strip of cards to take, the card in hand, the town built
by tapping, the opponent's turn (played by itself unless the player turns that off) with its reason, the cards to
reveal in a followed game, live scores, undo/redo and the game file.

A turn is two taps: a circle card (**Take**), then a green square of the town (the card is placed there; turning
it first is one more tap, on the hand). A reveal is one tap on the card that turned up, the cards in number order,
each drawn in its terrains' colours with its number and icons, or its number typed. Every choice offered is one of
the engine's ``legal_actions`` of the game's one state (:mod:`dashboard.wagons.game`), and every tap applies it with
the engine's ``apply``; a tap drawn for an earlier step does nothing (:func:`do`). No rule is decided here.
"""

from __future__ import annotations

import streamlit as st

from dashboard.shared import games
from dashboard.shared.caching import dumps
from dashboard.shared.widgets import json_download, json_upload
from dashboard.shared.words import counted, readable, wrapped_table
from dashboard.shared.work.plaintext import plain
from dashboard.wagons import drawing, town_grid, what_if
from dashboard.wagons import game as wg
from dashboard.wagons import view as wv
from dashboard.wagons.cards import face as card_face
from dashboard.wagons.cards import reading as card_reading
from solver.errors import BadInput
from solver.register import register
from solver.wagons import game as gm

ERROR = "lc_error"
WAITING = {"player": "No card to place: take one from the circle.",
           "opponent": "No card to place: it is the opponent's turn.",
           "chance": "No card to place: a card is to be revealed first.",
           None: "The game is over: every card is drafted and placed."}
GRID = "lc_town"
UPLOADS = "lc_upload_version"
"""Session key: the upload box's generation; a new game gives a fresh box, so an old file's message goes."""


def cards(n: int) -> str:
    return counted(n, "card")


def do(action: gm.Action, stamp: int) -> None:
    """A button's callback: apply ``action``, then the opponent's turns when they play themselves; an engine
    refusal is shown inline and nothing changes. A tap drawn for another step than the game's (``stamp``) is a
    second tap that came late: it does nothing."""
    if wg.step() != stamp:
        return
    try:
        wg.act(action)
        wg.settle()
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
        return "**The game is over**: every card is drafted and placed; the final scores are below."
    who = {"player": "your turn", "opponent": "the opponent's turn", "chance": "a card is to be revealed"}
    doing = ""
    if state.to_move == "player":
        doing = f": place card {state.hand[0]}" if state.hand else ": take a card from the circle"
    return f"**Round {state.round}, turn {state.turn}**: {who.get(state.to_move, state.to_move)}{doing}."


def history_bar(state: gm.GameState) -> None:
    """Where the game stands, with undo and redo (past the opponent's own turns while they play themselves)."""
    g = wg.current()
    st.markdown(status_text(state))
    with st.container(horizontal=True, vertical_alignment="center", key="lc_history"):
        st.button("Undo", key="lc_undo", icon=":material/undo:", on_click=wg.undo, disabled=not wg.can_undo())
        st.button("Redo", key="lc_redo", icon=":material/redo:", on_click=wg.redo, disabled=not wg.can_redo())
        st.markdown(f"Action {g['at']} of {len(g['record']['actions'])}")
    if st.session_state.get(ERROR):
        st.error(plain(st.session_state.pop(ERROR)), icon=":material/error:")


# ----------------------------------------------------------------------------- the circle

STRIP_CSS = ("<style>.st-key-{k} [data-testid='stHorizontalBlock']{{flex-wrap:nowrap!important;overflow-x:auto;"
             "padding-bottom:6px}}.st-key-{k} [data-testid='stColumn']{{flex:0 0 auto!important;width:auto!important;"
             "min-width:0!important}}</style>")
"""A row of cards that stays one row and scrolls sideways inside itself (the circle on a phone)."""


def circle_view(state: gm.GameState, marks: dict[gm.Action, what_if.Mark] | None = None) -> None:
    """The circle's cards as one strip, the next one first, each with **Take** when the engine offers its draft,
    and under it (What if?, ``marks``) the draft's expected margin and win chance."""
    marks = marks or {}
    drafts = {a.index for a in gm.legal_actions(state) if isinstance(a, gm.Draft)}
    n = len(state.circle) + state.hidden_circle
    st.markdown(f"**The circle** ({cards(n)}, the next one first)")
    if not n:
        st.caption("The circle is empty.")
        return
    with st.container(key="lc_circle"):
        cols = st.columns(n, gap="xsmall")
        for k, cid in enumerate(state.circle):
            with cols[k]:
                st.html(wv.card_preview(cid, size=0.74, note="next" if k == 0 else f"skips {k}"))
                if k in drafts:
                    advised = marks[gm.Draft(k)].best if marks else k == 0  # What if?: the advised card
                    st.button(f"Take {cid}", key=f"lc_draft_{k}", on_click=do, args=(gm.Draft(k), wg.step()),
                              type="primary" if advised else "secondary", width="stretch",
                              help=f"Take card {cid}" + (f"; the {counted(k, 'card')} before it go to the "
                                                         "opponent's town" if k else ""))
                    if gm.Draft(k) in marks:
                        st.html(what_if.badge_html(marks[gm.Draft(k)]))
        for k in range(len(state.circle), n):
            cols[k].html(drawing.card_back_html(f"Circle {k + 1}", size=0.74, note="not revealed yet"))
    st.html(STRIP_CSS.format(k="lc_circle"))


def deck_view(state: gm.GameState) -> None:
    """The preference deck: its top card face up once it is known (the round-1 opponent matches it)."""
    left = len(state.deck) + state.hidden_deck
    if state.deck:
        st.html(wv.card_preview(state.deck[0], size=0.7, title=f"Preference deck top: card {state.deck[0]}",
                                note=f"{cards(left)} in the deck"))
    elif left:
        st.html(drawing.card_back_html("Preference deck", size=0.7, note=f"{cards(left)}, top not seen yet"))


# ----------------------------------------------------------------------------- chance: what was revealed

def reveal_target(state: gm.GameState) -> str:
    """Which card the table is waiting to see (the engine's next reveal, rule W-reveal)."""
    if state.hidden_circle:
        return f"circle card {len(state.circle) + 1} of {len(state.circle) + state.hidden_circle}"
    return "the preference deck's top card"


_card_face_css = wv.card_button_css
_icon_letters = wv.icon_letters


def _typed(stamp: int, unseen: tuple[int, ...]) -> None:
    """The number typed in the reveal box: that card revealed, or one line saying why not."""
    text = str(st.session_state.get("lc_reveal_typed", "")).strip()
    st.session_state["lc_reveal_typed"] = ""
    if not text:
        return
    if not text.isdigit() or int(text) not in unseen:
        st.session_state[ERROR] = (f"Not revealed: '{text[:12]}' is not the number of a card not seen yet "
                                   f"({', '.join(map(str, unseen))}).")
        return
    do(gm.Reveal(int(text)), stamp)


def reveal_view(state: gm.GameState) -> None:
    """At a chance node: one tap on the card just revealed at the table, among the cards not seen yet, in
    number order and drawn in their colours; or its number typed."""
    reveals = sorted((a for a in gm.legal_actions(state) if isinstance(a, gm.Reveal)), key=lambda a: a.card)
    stamp = wg.step()
    with st.container(border=True, key="lc_reveals"):
        st.markdown(f"**Reveal {reveal_target(state)}**: tap the card that turned up "
                    f"({cards(len(reveals))} not seen yet, in number order; letters: the icons, top left first).")
        css = []
        with st.container(horizontal=True, gap="xsmall"):  # as many a row as fit, the rest on the next rows
            for a in reveals:
                key = f"lc_reveal_{a.card}"
                st.button(f"**{a.card}**\n{_icon_letters(a.card)}", key=key, on_click=do, args=(a, stamp),
                          help=f"Card {a.card} is {reveal_target(state)}: "
                          + ", ".join(f"{t} {i}" for t, i in wv.cards()[a.card].cells))
                css.append(_card_face_css(key, a.card))
        st.text_input("Or type its number and press Enter", key="lc_reveal_typed", max_chars=4,
                      on_change=_typed, args=(stamp, tuple(a.card for a in reveals)))
    st.html("<style>" + "".join(css) + "</style>")


# ----------------------------------------------------------------------------- the opponent

def last_opponent_draft(state: gm.GameState) -> gm.LogEntry | None:
    return next((e for e in reversed(state.log) if e.what == "opponent-draft"), None)


def opponent_line(state: gm.GameState) -> None:
    """What the opponent did last, and the rule that made it (shown at the top: it happens after the player's
    tap, by itself); its turn's button when it waits for one."""
    e = last_opponent_draft(state)
    if e is not None:
        msg = f"Turn {e.turn}: the opponent took **card {e.card}**"
        if e.skipped:
            msg += f", skipping {', '.join(map(str, e.skipped))} (they come to you, to place in circle order)"
        if e.deck_card is not None:
            msg += f", and the deck's top card **{e.deck_card}**"
        st.info(msg + f". Rule **{rule_text(e.rule)}**.", icon=":material/smart_toy:")
    if state.to_move == "opponent":
        st.button("Opponent's turn", key="lc_opponent", type="primary", icon=":material/smart_toy:",
                  on_click=do, args=(gm.OpponentTurn(), wg.step()))


def _autoplay_changed() -> None:
    wg.set_autoplay(st.session_state["lc_autoplay"])


def autoplay_switch() -> None:
    """The setting: the opponent's turns play themselves (remembered for this browser)."""
    st.session_state["lc_autoplay"] = wg.autoplay()
    st.toggle("Play the opponent's turns by themselves", key="lc_autoplay", on_change=_autoplay_changed,
              help="On: after your placement the opponent drafts at once, by its rules, and the page says what it "
                   "took and why. Off: an **Opponent's turn** button plays each of its turns. Remembered in this "
                   "browser.")


def opponent_view(state: gm.GameState) -> None:
    """The preference deck and the opponent's town."""
    st.subheader("The opponent")
    deck_view(state)
    st.markdown(f"**Opponent's town** ({cards(len(state.pile))}, oldest first; the last is on top)")
    if state.pile:
        st.html("".join(wv.card_preview(c, size=0.7) for c in state.pile))
    else:
        st.caption("No cards yet.")


# ----------------------------------------------------------------------------- the player's town

def hand_view(state: gm.GameState, advice=None) -> list:
    """The card in hand as it will lie, **Turn the card** when it has two ways up (and, What if?, a word when
    the advised placement lies the other way up); returns its legal placements."""
    legal = [a.placement for a in gm.legal_actions(state) if isinstance(a, gm.Place)]
    st.markdown("**Your hand**")
    if not legal:
        st.caption(WAITING.get(state.to_move, "No card to place now."))
        return legal
    card, queued = state.hand[0], state.hand[1:]
    st.markdown(f"Card to place: **{card}**" + (f" (then {', '.join(map(str, queued))}: the cards the opponent "
                                                "skipped, in circle order)" if queued else ""))
    rot = town_grid.hand(card, legal, GRID)
    what_if.hand_note(advice, town_grid.rotations(legal), rot)
    return legal


def town_view(state: gm.GameState, legal: list, marks: dict[gm.Action, what_if.Mark] | None = None) -> None:
    """The town grid with the legal spots of the card in hand: one tap places it; What if? (``marks``) labels
    and shades each spot with its expected margin and win chance for the way up shown in the hand."""
    st.markdown(f"**Your town** ({cards(len(state.town.placements))})")
    card = state.hand[0] if legal else None
    if card is not None:
        st.caption(town_grid.help_line(card))
    if not state.town.placements and card is None:
        st.caption("Your town is empty: once you have taken a card, tap the green square to place it there (the "
                   "first card can go anywhere; the town grows from it).")
        return
    figures = None
    if marks and card is not None:
        rot = town_grid.rotation(GRID, card, town_grid.rotations(legal))
        figures = what_if.square_figures(marks, rot)
    town_grid.grid(state.town, card, legal, GRID, lambda p: do(gm.Place(p), wg.step()), stamp=wg.step(),
                   now=wg.step, figures=figures)
    if figures and marks:  # figures come only with marks
        st.html(what_if.squares_css(marks, rot, GRID))


# ----------------------------------------------------------------------------- files, log

def new_uploads() -> None:
    """A fresh upload box (a new game): the last file's message goes with the old box."""
    st.session_state[UPLOADS] = st.session_state.get(UPLOADS, 0) + 1


def files_view() -> None:
    """Save the game to My games, download the game file, and upload one right beside it."""
    left, right = st.columns(2)
    with left:
        games.save_form("wagons-game", dict(wg.current()), key="lc_my_games", default_name=_game_name())
        json_download("Download the game file", wg.applied_record(), "lone-cowboy-game.json", "lc_download")
        st.caption("The game is also kept in this page's address and in this browser: a reload, a closed tab or "
                   "a bookmark resumes it.")
    with right:
        rec = json_upload("Upload a game file", f"lc_upload_{st.session_state.get(UPLOADS, 0)}", wg.load_record)
        if rec is not None:
            wg.start(rec)
            st.rerun()


def _game_name() -> str:
    record = wg.current()["record"]
    name = wv.scenarios().get(record["scenario"], {}).get("name", record["scenario"])
    return f"{name}, deal {record['seed']}" if record.get("seed") is not None else f"{name}, followed game"


def log_view(state: gm.GameState) -> None:
    with st.expander(f"Game log ({counted(len(state.log), 'entry', 'entries')})", icon=":material/list:"):
        rows = [{"turn": e.turn, "round": e.round, "who": e.who, "what": e.what, "card": e.card,
                 "rule": rule_text(e.rule), "note": e.note} for e in state.log]
        wrapped_table(readable(rows))  # the opponent's reasons (the notes) whole


def scores_view(state: gm.GameState) -> None:
    """The scores (final once the game is over), under each reading of a low-confidence number until the
    player's card settles it (:mod:`dashboard.wagons.cards.reading`)."""
    over = gm.is_over(state)
    st.subheader("Final scores" if over else "Scores so far")
    by = card_reading.by_reading(dumps(wv.town_json(state.town)), tuple(state.pile), state.scenario,
                                 dumps(state.readings.to_json()), card_reading.cards_json())
    card_face.cards_panel(state.scenario, "lc_cards", also=wg.set_game_reading, open_=over)
    depends = card_reading.panel(by, "lc_card", over, also=wg.set_game_reading)
    not_over = None if over else "the game is not over yet (cards are still to draft and place)"
    from solver.wagons.scoring.card_numbers import from_card

    wv.show_scores({**gm.scores(state).to_dict(), "from_card": list(from_card(state.scenario, card_reading.card_data()))},
                   player_label="You", total_label="Your total", winner_problem=not_over or depends)
