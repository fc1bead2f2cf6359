"""What if? The expected result of every choice, on the Lone Cowboy table (rule:W-advice).

With the **What if?** switch on (remembered for the browser, :data:`dashboard.wagons.game.SETTINGS`), each of the
player's decisions is answered by :func:`solver.wagons.advice.advise` on what the player has seen
(:func:`solver.wagons.advice.information_state`: in a seeded game the deal's hidden cards are never read), with a
progress bar and **Stop** while it plays the choices out. The answer is drawn where the choice is made: under each
circle card its expected final margin and win chance on a coloured band, on each green square of the town the
same two figures and a shade (green for the best, red for the worst), the best choice outlined in gold. Every
figure says how it was made (exact, or N orders; one from fewer than 8 orders, too few for an interval, is marked
and edged dashed), and **Every choice** lists them all with their intervals. A figure shown above the gold one (a
run stopped early) is edged dotted gold and named in the line under the summary, which says it is within the gold
one's interval and about how many more orders would separate them (the solver's :attr:`Advice.note`). When a
card turning up moves the advice by :data:`SWING` points or more, one line names the card and the part of the
score that moved most (:func:`swing_line`). A stopped run shows what it had (marked), and **Compute again** asks
anew.

After the game, :func:`show_choice_review` lists the turns where the choice made cost the most expected margin
against the advised one, in the words of ``wagons replay --review`` (:func:`solver.wagons.advice.review_choices`).

This module asks and draws; every figure is the solver's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace

import streamlit as st

from dashboard.shared.caching import cache_final, dumps
from dashboard.shared.runs import ProgressBox, keep_stopped, run_with_progress
from dashboard.shared.widgets import kept
from dashboard.shared.words import readable, wrapped_table
from dashboard.wagons import game as wg
from dashboard.wagons import town_grid
from dashboard.wagons.cards import reading as card_reading
from dashboard.wagons.view import cards_data
from solver.execution.progress import OnProgress
from solver.stopping import StopSignal
from solver.wagons import game as gm
from solver.wagons.advice import DEFAULT_POLICY, DEFAULT_SAMPLES, advise, information_state, review_choices
from solver.wagons.advice.result import ActionAdvice, Advice
from solver.wagons.record.game_json import state_from_json, state_to_json

RESULT = "lc_what_if_result"
"""Session key: ``((the decision's key, the card numbers), its Advice)`` of the last decision answered (a stopped run's too)."""
AGAIN = "lc_what_if_again"
CHOICES = "lc_choices_result"
"""Session key (and kept work): ``(inputs, the choice review's dict)`` after the game."""
EXPECTED_SECONDS = 5.0
"""About the time of one decision at the default settings (bench/wagons/bench_wagons_advice.py)."""
REVIEW_LIMIT = 300
"""Seconds, the choice review's default time limit (as ``wagons replay --review``'s)."""
BEST_BORDER = "4px solid #f9a825"
ABOVE_BORDER = "4px dotted #f9a825"
"""A figure shown above the advised one (within its interval, named in the note)."""
FEW_BORDER = "3px dashed #5d4037"
"""A figure from too few orders for an interval."""
TRAIL = "lc_what_if_trail"
"""Session key: ``(the actions up to the last decision answered, its Advice)``, for the swing after a reveal."""
SWUNG = "lc_what_if_swing"
"""Session key: ``((the decision's key, the card numbers), the swing line or None)``."""
SWING = 10.0
"""Points of expected margin the advice must move by, with a card turned up, for the line that explains it."""
WORST, MIDDLE, BEST = (239, 154, 154), (255, 241, 118), (129, 199, 132)
"""Light red, yellow and green: the shades stay readable under dark text."""


# ----------------------------------------------------------------------------- the switch

def enabled() -> bool:
    """Whether What if? is on (off unless the player turned it on)."""
    return bool(wg.settings().get("what_if", False))


def _changed() -> None:
    st.session_state[wg.SETTINGS] = {**wg.settings(), "what_if": bool(st.session_state["lc_what_if"])}


def switch() -> None:
    """The switch, remembered for this browser."""
    st.session_state["lc_what_if"] = enabled()
    st.toggle("What if? Show each choice's expected result", key="lc_what_if", on_change=_changed,
              help="On: at each of your decisions the game is played out to its end on many orders of the cards "
                   "you have not seen (your later choices by the look-ahead policy, the opponent by its rules), and "
                   "each card in the circle and each green square shows its expected final margin (you minus the "
                   "opponent) and your chance to win. Only what you have seen is used. A few seconds a decision.")


# ----------------------------------------------------------------------------- one decision's advice

def decision_key(state: gm.GameState) -> str:
    """The decision as the player knows it (what the advice may read): equal for two deals that differ only in
    cards the player has not seen."""
    return dumps(state_to_json(information_state(state)))


@cache_final(lambda advice: advice.complete, max_entries=256)
def _advice(key: str, samples: int, policy: str, _progress: OnProgress | None = None, cards: str = "{}") -> Advice:
    """The advice at the decision ``key`` (cached for every session once complete; a stopped one is not), every
    game played out scored with the numbers the player settled on their goal cards (``cards``: the sheet's
    :func:`dashboard.wagons.cards.reading.cards_json`, the engine's goals override ``GameState.data``)."""
    state = replace(state_from_json(json.loads(key)), data=cards_data(cards))
    return advise(state, samples, policy, progress=_progress)


def advice_for(state: gm.GameState) -> Advice | None:
    """The advice at the player's decision in ``state`` when What if? is on (computed with a progress bar and Stop
    unless this decision's is kept), else None."""
    if not enabled() or state.to_move != "player":  # the player to move: not over, not a reveal, a choice to make
        return None
    key = decision_key(state)
    cards = card_reading.cards_json()  # a settled card number is another decision's figures
    kept_one = st.session_state.get(RESULT)
    again = st.session_state.pop(AGAIN, False)
    if kept_one and kept_one[0] == (key, cards) and not again:
        return kept_one[1]
    before = st.session_state.get(TRAIL)
    box = ProgressBox()
    advice = run_with_progress(
        _advice, key, DEFAULT_SAMPLES, DEFAULT_POLICY, box, cards, label="What if? Playing each choice out",
        expected_seconds=EXPECTED_SECONDS, box=box, cancel=StopSignal(),
        keep=keep_stopped(RESULT, shape=lambda value: ((key, cards), value)))
    st.session_state[RESULT] = ((key, cards), advice)
    st.session_state[SWUNG] = ((key, cards), swing_line(before, gm.actions_from_log(state), advice))
    if advice is not None and advice.complete:
        st.session_state[TRAIL] = (gm.actions_from_log(state), advice)
    return advice


PART_WORDS = {"territories": "your territory groups against the opponent's common points"}


def swing_line(before: tuple | None, actions: Sequence[gm.Action], advice: Advice | None) -> str | None:
    """One line when the advice moved by :data:`SWING` points or more since the last decision answered, with a
    card turned up in between: the card, the two figures (the choice then taken, the advised one now) and the part
    of the score that moved most. None otherwise (no earlier decision on this line of play, no card seen)."""
    if before is None or advice is None or advice.best is None:
        return None
    done, then = before
    n = len(done)
    if len(actions) <= n or tuple(actions[:n]) != tuple(done):
        return None
    taken = next((r for r in then.actions if r.action == actions[n] and r.samples), None)
    seen = sorted(set(then.unseen) - set(advice.unseen))
    now = advice.best
    if taken is None or not seen or abs(float(now.mean) - float(taken.mean)) < SWING:
        return None
    old, new = dict(taken.parts), dict(now.parts)
    part = max(new, key=lambda k: abs(new[k] - old.get(k, 0.0)), default=None)
    cards = ("Card " if len(seen) == 1 else "Cards ") + ", ".join(map(str, seen))
    where = "" if part is None else (f", most of it in {PART_WORDS.get(part, part)} ({old.get(part, 0.0):+.1f} to "
                                     f"{new[part]:+.1f})")
    return (f"{cards} turned up: the expected margin went from {float(taken.mean):+.1f} (your last choice) to "
            f"{float(now.mean):+.1f}{where}.")


def summary(advice: Advice | None) -> None:
    """One line over the table: the best choice, how the figures were made, a stopped run marked."""
    if advice is None:
        return
    best = advice.best
    if best is None:
        st.warning("What if? was stopped before any choice was played out.", icon=":material/stop_circle:")
    else:
        close = f", up to {advice.most} where choices were close" if advice.most > advice.samples else ""
        how = (f"exact over every order of the {len(advice.unseen)} unseen cards" if advice.every_order
               else f"{advice.samples} orders of the {len(advice.unseen)} unseen cards sampled{close}")
        bound = f"; proven: no play ends above {best.bound:+d}" if best.bound is not None else ""
        st.success(f"**What if?** Best: **{best.words}**, {figure_words(best)} ({how}, later choices by the "
                   f"{advice.policy} policy{bound}).", icon=":material/psychology:")
        if advice.note:
            st.warning(advice.note, icon=":material/balance:")
    swung, answered = st.session_state.get(SWUNG), st.session_state.get(RESULT)
    if swung and swung[1] and answered and answered[0] == swung[0]:
        st.info(swung[1], icon=":material/swap_vert:")
    if not advice.complete:
        st.caption(f"Stopped after {advice.elapsed:.0f} s: the figures are from the play-outs made by then.")
        st.button("Compute again", key="lc_what_if_again_button", icon=":material/refresh:",
                  on_click=st.session_state.__setitem__, args=(AGAIN, True))


def figure_words(a: ActionAdvice) -> str:
    """"+3.2 points expected (±1.1, 32 orders), 45% to win"; "(exact)"; "(2 orders, too few for an interval)"."""
    if not a.samples:
        return "not played out"
    spread = "" if a.interval is None or a.exact else f"±{(a.interval[1] - a.interval[0]) / 2:.1f}, "
    return f"{float(a.mean):+.1f} points expected ({spread}{a.how}), {float(a.win):.0%} to win"


def how_short(a: ActionAdvice) -> str:
    """How a figure was made, in a few letters for a band: "exact", "32 orders ±1.1", "2 orders: few"."""
    if a.exact:
        return "exact"
    if a.too_few:
        return f"{a.samples} orders: few"
    spread = "" if a.interval is None else f" ±{(a.interval[1] - a.interval[0]) / 2:.1f}"
    return f"{a.samples} orders{spread}"


# ----------------------------------------------------------------------------- figures where the choice is made

@dataclass(frozen=True)
class Mark:
    """How one choice is drawn: its two figures, its shade and whether it is the best."""

    label: str        # "+3.2" (the expected final margin)
    win: str          # "45%"
    colour: str       # rgb() of the shade
    best: bool
    words: str        # the whole sentence, for the pointer's title
    how: str = ""     # how it was made, short (:func:`how_short`)
    few: bool = False     # too few orders for an interval
    above: bool = False   # shown above the advised one (within its interval or worse on shared orders: the note)


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


def shade(value: float, low: float, high: float) -> str:
    """Red (worst) through yellow to green (best) by where ``value`` lies between ``low`` and ``high``."""
    t = 1.0 if high <= low else min(1.0, max(0.0, (value - low) / (high - low)))
    rgb = _mix(WORST, MIDDLE, t * 2) if t < 0.5 else _mix(MIDDLE, BEST, (t - 0.5) * 2)
    return f"rgb({rgb[0]},{rgb[1]},{rgb[2]})"


def marks(advice: Advice | None) -> dict[gm.Action, Mark]:
    """Each played-out action's :class:`Mark` (the actions the run never reached have none)."""
    if advice is None:
        return {}
    played = [a for a in advice.actions if a.samples]
    if not played:
        return {}
    means = [float(a.expected) for a in played]
    best = advice.best
    above = {a.action for a, s in zip(advice.actions, advice.standings) if s is not None and s.above}
    return {a.action: Mark(f"{float(a.expected):+.1f}", f"{float(a.win_chance):.0%}", shade(float(a.expected), min(means),
                                                                                max(means)),
                           best is not None and a.action == best.action, f"{a.words}: {figure_words(a)}",
                           how_short(a), a.too_few, a.action in above)
            for a in played}


def badge_html(mark: Mark) -> str:
    """The band under a circle card: expected margin and win chance on the choice's shade (gold edge: the best)."""
    edge = BEST_BORDER if mark.best else ABOVE_BORDER if mark.above else FEW_BORDER if mark.few else \
        "1px solid #8d6e63"
    star = "&#9733; best<br>" if mark.best else "&#8776; see note<br>" if mark.above else ""
    return (f"<div title='{mark.words}' class='lc-what-if-band' style='background:{mark.colour};border:{edge};"
            "border-radius:6px;font:12px sans-serif;text-align:center;padding:2px 4px;color:#111;margin-top:2px'>"
            f"{star}<b>{mark.label}</b> pts<br>{mark.win} win<br><span style='font-size:10px'>{mark.how}</span>"
            "</div>")


def square_figures(advice_marks: dict[gm.Action, Mark], rot: int) -> dict[tuple[int, int], tuple[str, str, bool]]:
    """The town grid's figures (:data:`dashboard.wagons.town_grid.Figure`: two-line label, shade, best) of the
    placements with the way up ``rot`` (the one shown in the hand), by square."""
    return {(a.placement.x, a.placement.y): (f"{m.label}\n{m.win}", m.colour, m.best) for a, m in advice_marks.items()
            if isinstance(a, gm.Place) and a.placement.rot == rot}


SQUARE_FIT = (".st-key-{g}_grid button [data-testid='stMarkdownContainer'],.st-key-{g}_grid button p"
              "{{font-size:clamp(8px,calc(var(--sq) / 4.6),10px)!important;letter-spacing:-.3px;"
              "line-height:1.05!important}}.st-key-{g}_grid button{{padding:0!important;overflow:hidden}}")
"""The figures inside their squares on a phone: the type shrinks with the square (``--sq``, the grid's width),
and the label's box keeps the figure's own line height (the label is an inline paragraph: the box around it
otherwise spaces its two lines by the page's taller line height, pushing the win chance past the square)."""


def squares_css(advice_marks: dict[gm.Action, Mark], rot: int, grid: str) -> str:
    """The grid's What if? styles: the figures sized to fit their squares, the edges of the figures shown above
    the advised one (dotted gold) and of those from too few orders (dashed)."""
    css = [SQUARE_FIT.format(g=grid)]
    for a, m in advice_marks.items():
        if isinstance(a, gm.Place) and a.placement.rot == rot and not m.best and (m.above or m.few):
            k = town_grid.cell_key(grid, a.placement.x, a.placement.y)
            css.append(f".st-key-{grid}_grid .st-key-{k} button{{border:{ABOVE_BORDER if m.above else FEW_BORDER}"
                       "!important}")
    return "<style>" + "".join(css) + "</style>"


def every_choice(advice: Advice | None) -> None:
    """Every choice's figures with how each was made and its interval, best first (the advised one first)."""
    if advice is None or advice.best is None:
        return
    rows = []
    for a, s in zip(advice.actions, advice.standings):
        if not a.samples:
            continue
        span = "" if a.interval is None or a.exact else f"{a.interval[0]:+.1f} to {a.interval[1]:+.1f}"
        rows.append({"choice": a.words, "expected margin": f"{float(a.expected):+.1f}", "95% interval": span,
                     "win chance": f"{float(a.win_chance):.0%}", "how": a.how,
                     "against the advised": "advised" if s is None else _against(s, a.too_few)})
    with st.expander("Every choice, with how its figures were made", icon=":material/table_rows:"):
        wrapped_table(readable(rows))


def _against(s, few: bool) -> str:
    """How a choice stands against the advised one, in words (:class:`~solver.wagons.advice.choice.Standing`)."""
    if s.worse_on_shared:
        return "worse on the orders both were played on"
    if not s.within:
        return "told apart"
    about = "at least" if few else "about"
    more = f"; {about} {s.more_orders} more orders would separate them" if s.more_orders else ""
    return ("above, " if s.above else "") + "within its interval" + more


def hand_note(advice: Advice | None, rots: Sequence[int], rot: int) -> None:
    """Under the hand, when the best placement lies the other way up than shown: say so (one tap turns it)."""
    best = advice.best if advice is not None else None
    if best is None or not isinstance(best.action, gm.Place) or len(rots) < 2:
        return
    if best.action.placement.rot != rot:
        st.caption("What if? The best placement is with the card **turned** (tap **Turn the card**): "
                   f"{best.words}, {figure_words(best)}.")


def legend() -> None:
    st.html("<div style='font:12px sans-serif;line-height:2'>What if? figures: the expected final margin (your points minus "
            "the opponent's) and your chance to win; "
            f"<span style='background:{shade(1, 0, 1)};padding:0 6px'>green</span> the best, "
            f"<span style='background:{shade(0.5, 0, 1)};padding:0 6px'>yellow</span> middling, "
            f"<span style='background:{shade(0, 0, 1)};padding:0 6px'>red</span> the worst; "
            f"<span style='border:{BEST_BORDER};padding:0 6px'>gold</span> the advised choice (the highest "
            f"expected margin); <span style='border:{ABOVE_BORDER};padding:0 6px'>dotted gold</span> shown above it "
            f"yet within its 95% interval (the note says so); <span style='border:{FEW_BORDER};padding:0 6px'>"
            "dashed</span> from fewer than 8 orders, too few for an interval.</div>")


# ----------------------------------------------------------------------------- after the game

def _review(record_text: str, samples: int, policy: str, time_limit: float, _progress: OnProgress | None = None,
            cards: str = "{}") -> dict:
    """The choice review of the game ``record_text`` (a game file) as a dict (``wagons replay --review --json``),
    scored with the numbers the player settled on their goal cards (``cards``)."""
    from solver.wagons.record.game_record import game_from_record

    state = game_from_record(json.loads(record_text), cards_data(cards))
    return review_choices(state, samples, policy, time_limit, _progress).to_dict()


def show_choice_review(record: dict) -> None:
    """After the game: the turns where the choice made cost the most expected margin against the advice, asked by
    a button (a few seconds per decision), kept with the game it reviewed."""
    st.subheader("After the game: your choices against the advice")
    st.caption("Each of your decisions is replayed and every choice played out on the same orders of the cards "
               "you had not seen then (as `wagons replay --review`); the turns where your choice lost the most "
               "expected margin against the advised one are listed.")
    limit = kept(st.slider, "lc_choices_limit", REVIEW_LIMIT, "Time limit for the review (seconds)", 10, 600,
                 help="As `wagons replay --review --time-limit`. When it runs out, the decisions reviewed by then "
                      "are shown.")
    inputs = (dumps(record), DEFAULT_SAMPLES, DEFAULT_POLICY)
    cards = card_reading.cards_json()
    if st.button("Review my choices", key="lc_choices_run", icon=":material/psychology:"):
        box = ProgressBox()
        result = run_with_progress(
            _review, *inputs, float(limit), box, cards, label="Reviewing your choices", expected_seconds=float(limit),
            box=box, cancel=StopSignal(),
            keep=keep_stopped(CHOICES, (*inputs, cards)))
        st.session_state[CHOICES] = ((*inputs, cards), result)
    last = st.session_state.get(CHOICES)
    if last and tuple(last[0]) == (*inputs, cards):
        choice_lines(last[1])


def choice_lines(result: dict) -> None:
    """The review's sentences (the same as ``wagons replay --review``), or why there are none."""
    done = f"{result['reviewed']} of {result['decisions']} decisions reviewed"
    if not result["complete"]:
        done += " (stopped before the end: " + ("you stopped it" if result.get("stopped_early") else
                                                "the time limit") + ")"
    if result["lines"]:
        st.markdown("\n".join(f"- {line}" for line in result["lines"]))
    else:
        st.success("No choice cost half a point or more of expected margin against the advice.",
                   icon=":material/thumb_up:")
    st.caption(f"{done}; {result['samples']} deal orders per choice, later choices by the {result['policy']} "
               f"policy, in {result['elapsed']:.0f} s.")
