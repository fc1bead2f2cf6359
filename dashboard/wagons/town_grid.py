"""Presentation: a Lone Cowboy town you build by tapping.

The grid is one Streamlit button per square (keyed by the square, so AppTest and a browser can press
it). The caller passes the legal placements of the card in hand, as the engine listed them
(:func:`solver.wagons.game.legal_actions` or :func:`solver.wagons.town.legal_placements`); this
module decides no rule. Green squares are the corners where the card's top-left territory can go; ONE tap on
one places the card there (``on_place(placement)``), the way up shown in the hand (:func:`hand`: the card drawn
as it will lie, turned by one tap on **Turn the card** when the engine lists both ways). Pointing at a green
square (a mouse) previews the card there, drawn on the squares it would cover. A tap drawn for an earlier step
of the game (a quick second tap reaching the server after the first one's run) does nothing: each square's
button carries the step it was drawn for and the caller's ``now()`` says the step the game is at.

On a phone the squares keep a size a finger can hit and a label that is never split: the icon's name, with the
terrain's word added where the square is wide enough (the terrain's colour says it everywhere); a town wider
than the screen scrolls inside its own box, never the page.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

import streamlit as st

from dashboard.wagons import drawing
from dashboard.wagons import view as wv
from solver.wagons.town import Placement, Town

ROTATION_NAMES = {0: "upright", 180: "turned 180 degrees"}
PREVIEW_BORDER = "3px dashed #0d47a1"
SPOT_BORDER = "3px solid #2e7d32"
AXIS = 22
"""Width in pixels of the column of row numbers."""
SQUARE = (36, 74)
FIT_FONT = "clamp(8px, calc(var(--sq, 40px) * .24), 11px)"
"""A square's word ("Wagon") whole in the smallest square of a phone, 11 px in a laptop's."""
"""Smallest and largest width of a square in pixels (the smallest a fingertip still hits)."""
WORDS_FROM = 60
"""Squares at least this wide also name their terrain."""
DOUBLE_TAP = 0.8
"""Seconds within which a second tap on the square a card was just placed on is taken as part of a double tap."""
Figure = tuple[str, str, bool]
"""A legal square's What if? figure (:mod:`dashboard.wagons.what_if`): its label (two short lines), its shade
(a CSS colour) and whether it is the advised square."""


def spots(legal: Iterable[Placement]) -> dict[tuple[int, int], tuple[int, ...]]:
    """(x, y) of each legal top-left corner -> the rotations listed there."""
    out: dict[tuple[int, int], list[int]] = {}
    for p in legal:
        out.setdefault((p.x, p.y), []).append(p.rot)
    return {xy: tuple(r) for xy, r in out.items()}


def bounds(cells: Iterable[tuple[int, int]], corners: Iterable[tuple[int, int]]) -> tuple[range, range]:
    """The columns and rows to draw: every visible square and every square a legal card would cover."""
    pts = list(cells) + [(x + dx, y + dy) for x, y in corners for dx in (0, 1) for dy in (0, 1)]
    pts = pts or [(0, 0)]
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    return range(min(xs), max(xs) + 1), range(min(ys), max(ys) + 1)


def _n(v: int) -> str:
    return f"m{-v}" if v < 0 else str(v)


def cell_key(key: str, x: int, y: int) -> str:
    """The widget key of square (x, y) (its element carries the CSS class ``st-key-<key>``)."""
    return f"{key}_x{_n(x)}_y{_n(y)}"


def rotation_key(key: str) -> str:
    return f"{key}_rot"


def turn_key(key: str) -> str:
    return f"{key}_turn"


def rotations(legal: Sequence[Placement]) -> list[int]:
    """The ways up the engine lists for the card (one when it looks the same turned round)."""
    return sorted({p.rot for p in legal}) or [0]


def rotation(key: str, card: int | None, rots: Sequence[int]) -> int:
    """The way up chosen in the hand for ``card`` (upright, the first listed, until the player turns it; a new card
    starts upright again)."""
    got = st.session_state.get(rotation_key(key))
    rot = got[1] if isinstance(got, tuple) and len(got) == 2 and got[0] == card else rots[0]
    return rot if rot in rots else rots[0]


def _turn(key: str, card: int, rots: tuple[int, ...]) -> None:
    """**Turn the card**: the next way up the engine lists."""
    now = rotation(key, card, rots)
    st.session_state[rotation_key(key)] = (card, rots[(rots.index(now) + 1) % len(rots)])


def _click(key: str, card: int, x: int, y: int, rots: tuple[int, ...], stamp: int, now: Callable[[], int],
           on_place: Callable[[Placement], None]) -> None:
    """A tap on a green square: the card placed there, the way up shown in the hand, unless it is the second tap
    of a double tap: drawn for an earlier step than the game's (``now() != stamp``), or on the square just placed
    on within :data:`DOUBLE_TAP` seconds (it may reach the server after the page was drawn for the next card)."""
    last = st.session_state.get(f"{key}_last_tap")
    if now() != stamp or (last and last[:2] == (x, y) and time.monotonic() - last[2] < DOUBLE_TAP):
        return
    st.session_state[f"{key}_last_tap"] = (x, y, time.monotonic())
    on_place(Placement(card, x, y, rotation(key, card, rots)))


def _style(k: str, bg: str, fg: str, border: str, extra: str = "") -> str:
    return (f".st-key-{k} button{{background:{bg}!important;color:{fg}!important;border:{border}!important;"
            f"opacity:1!important;{extra}}}")


def _cell_css(k: str, top: dict | None, spot: bool) -> str:
    """The look of one square: its top territory, a green outline on a legal corner."""
    bg = drawing.TERRAIN_COLOURS.get(top["terrain"], "#fafafa") if top else "#fafafa"
    fg = drawing.TERRAIN_TEXT.get(top["terrain"], "#222") if top else "#2e7d32"
    if spot:
        big = "" if top else f".st-key-{k} button p{{font-size:20px!important;font-weight:bold}}"
        return _style(k, bg, fg, SPOT_BORDER) + big
    return _style(k, bg, fg, "1px solid #8d6e63" if top else "1px dashed #d7ccc8")


def _terrain_word(key: str, k: str, top: dict | None, wide: int) -> str:
    """The terrain's word under the icon, only where the squares are wide enough (a container query)."""
    if not top:
        return ""
    return (f"@container {key}-grid (min-width: {wide}px){{.st-key-{k} button p::after"
            f"{{content:'\\A {top['terrain']}';font-size:10px;opacity:.85}}}}")


def _hover_css(key: str, card: int, where: dict, rot_chosen: int) -> str:
    """Pointing at a green square draws the card on the squares it would cover (blue, dashed)."""
    out = []
    for (x, y), rots in where.items():
        p = Placement(card, x, y, rot_chosen if rot_chosen in rots else rots[0])
        hovered = f".st-key-{key}_grid:has(.st-key-{cell_key(key, x, y)} button:hover)"
        for (cx, cy), t in p.cells():
            k = cell_key(key, cx, cy)
            bg = drawing.TERRAIN_COLOURS.get(t.terrain, "#fafafa")
            fg = drawing.TERRAIN_TEXT.get(t.terrain, "#222")
            out.append(f"{hovered} .st-key-{k} button{{background:{bg}!important;color:{fg}!important;"
                       f"outline:{PREVIEW_BORDER};outline-offset:-4px}}"
                       f"{hovered} .st-key-{k} button p{{font-size:0!important}}"
                       f"{hovered} .st-key-{k} button p::before{{content:'{t.icon}';font-size:{FIT_FONT}}}")
    return "".join(out)


def _grid_css(key: str, columns: int) -> str:
    """Squares sized to fit the box (between :data:`SQUARE` widths), the box scrolling when they cannot fit."""
    lo, hi = SQUARE
    sq = f"clamp({lo}px, calc((100cqw - {AXIS + 2}px) / {columns} - 2px), {hi}px)"
    g = f".st-key-{key}_grid"
    return (f"{g}{{container-type:inline-size;container-name:{key}-grid;overflow-x:auto;gap:2px!important}}"
            f"{g} [data-testid='stHorizontalBlock']{{--sq:{sq};gap:2px!important;flex-wrap:nowrap!important;"
            f"width:max-content;justify-content:flex-start}}"
            f"{g} [data-testid='stColumn']{{flex:0 0 var(--sq)!important;width:var(--sq)!important;"
            f"min-width:var(--sq)!important;max-width:var(--sq)!important}}"
            f"{g} [data-testid='stHorizontalBlock']>[data-testid='stColumn']:first-child"
            f"{{flex:0 0 {AXIS}px!important;width:{AXIS}px!important;min-width:{AXIS}px!important;"
            f"max-width:{AXIS}px!important}}"
            f"{g} button{{width:100%;min-width:0;min-height:calc(var(--sq) * .8);height:calc(var(--sq) * .8);"
            f"padding:0 1px;border-radius:3px}}"
            f"{g} button p{{font-size:{FIT_FONT};letter-spacing:-.2px;line-height:1.1;white-space:pre;"
            f"overflow:visible;text-overflow:clip;margin:0;"  # "Wagon" whole in a phone's smallest square
            f"word-break:keep-all;overflow-wrap:normal;hyphens:none}}"
            f"{g} button [data-testid='stMarkdownContainer']{{overflow:visible!important;text-overflow:clip!important;"
            f"word-break:keep-all;overflow-wrap:normal;hyphens:none}}"
            f"{g} .town-axis{{font-size:11px;color:#6b6b6b;text-align:center;line-height:1.1}}"
            f"{g} .town-axis-x{{--sq:{sq};display:flex;gap:2px;font-size:11px;color:#6b6b6b}}"
            f"{g} .town-axis-x span{{flex:0 0 var(--sq);text-align:center}}"
            f"{g} .town-axis-x span:first-child{{flex:0 0 {AXIS}px}}"
            f"{g} .town-axis-y{{line-height:calc(var(--sq) * .8);text-align:right;padding-right:3px}}")


def _label(top: dict | None, spot: bool, figure: Figure | None = None) -> str:
    if figure is not None:
        return figure[0]
    if top:
        return top["icon"]
    return "+" if spot else "\u2002"


def _figure_css(k: str, figure: Figure) -> str:
    """The shade laid over the square's own colour (its terrain still shows through), the advised one in gold."""
    label, colour, best = figure
    tint = colour.replace("rgb(", "rgba(").replace(")", ",.72)")
    edge = "4px solid #f9a825" if best else SPOT_BORDER
    return (f".st-key-{k} button{{background-image:linear-gradient({tint},{tint})!important;color:#111!important;"
            f"border:{edge}!important}}.st-key-{k} button p{{font-size:10px!important;font-weight:bold;"
            "line-height:1.05!important}")


def grid(town: Town, card: int | None, legal: Sequence[Placement], key: str,
         on_place: Callable[[Placement], None], stamp: int = 0, now: Callable[[], int] = lambda: 0,
         figures: dict[tuple[int, int], Figure] | None = None) -> None:
    """Draw ``town`` as buttons; ``legal`` are the placements of ``card`` the engine allows; one tap on a legal
    corner calls ``on_place`` with the placement (the way up chosen in the hand), when ``now()`` still equals
    ``stamp`` (the step the grid was drawn for). ``figures`` (What if?) label and shade legal squares. With no
    card to place, the town is drawn as a picture (nothing to tap, and a page of a hundred buttons is slow to
    draw on a phone)."""
    figures = figures or {}
    where = spots(legal)
    cells = wv.town_cells(town)
    if card is None or not where:
        st.html(wv.town_html(town))
        return
    xs, ys = bounds(cells, where)
    wide = AXIS + len(xs) * (WORDS_FROM + 2)
    css = [_grid_css(key, len(xs))]
    with st.container(key=f"{key}_grid"):
        st.html("<div class='town-axis-x'><span></span>" + "".join(f"<span>{x}</span>" for x in xs) + "</div>")
        for y in ys:
            cols = st.columns(len(xs) + 1, gap=None)
            cols[0].html(f"<div class='town-axis town-axis-y'>{y}</div>")  # the y coordinate of the row
            for col, x in zip(cols[1:], xs):
                k, spot, top = cell_key(key, x, y), (x, y) in where, cells.get((x, y))
                fig = figures.get((x, y)) if spot else None
                css.append(_cell_css(k, top, spot) + (_figure_css(k, fig) if fig else _terrain_word(key, k, top, wide)))
                col.button(_label(top, spot, fig), key=k, disabled=not spot,
                           on_click=_click, args=(key, card, x, y, where.get((x, y), (0,)), stamp, now, on_place),
                           width="stretch")
    css.append(_hover_css(key, card, where, rotation(key, card, rotations(legal))))
    st.html("<style>" + "".join(css) + "</style>")


def hand(card: int, legal: Sequence[Placement], key: str) -> int:
    """The card in hand drawn as it will lie, with **Turn the card** (one tap) when the engine lists both ways;
    returns the way up chosen."""
    rots = tuple(rotations(legal))
    rot = rotation(key, card, rots)
    st.html(wv.card_preview(card, rot, note=ROTATION_NAMES[rot]))
    if len(rots) > 1:
        st.button("Turn the card", key=turn_key(key), icon=":material/rotate_right:", on_click=_turn,
                  args=(key, card, rots), help="The other way up (turned 180 degrees)")
    else:
        st.caption("This card looks the same turned round: one way up.")
    return rot


def help_line(card: int) -> str:
    """What to tap next, in words."""
    return (f"Tap a green square to place card {card} there with its top-left corner on it (with a mouse, point "
            "at a square to see the card there first).")


def legend() -> None:
    """The key to the grid and the cards."""
    st.html(drawing.legend_html() + "<div style='font:12px sans-serif;margin-top:4px'><b>Grid</b>: "
            f"<span style='border:{SPOT_BORDER};padding:0 6px'>+</span> a legal spot for the card's top-left corner "
            f"(one tap places the card); <span style='border:{PREVIEW_BORDER};padding:0 6px'>dashed</span> where "
            "it would lie (pointing at a square).</div>")
