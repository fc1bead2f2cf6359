"""Presentation: a Lone Cowboy town you build by clicking.

The grid is one Streamlit button per square (keyed by the square, so AppTest and a browser can press
it). The caller passes the legal placements of the card in hand, as the engine listed them
(:func:`solver.wagons.game.legal_actions` or :func:`solver.wagons.town.legal_placements`); this
module decides no rule. Green squares are the corners where the card's top-left territory can go; a
click previews the card there (blue, dashed), a second click on the same square places it by calling
``on_place(placement)``. Which way up the card lies is chosen beside the grid, among the rotations
the engine listed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import streamlit as st

from dashboard.shared import draw
from dashboard.wagons import view as wv
from solver.wagons.town import Placement, Town

ROTATION_NAMES = {0: "upright", 180: "turned 180 degrees"}
PREVIEW_BORDER = "3px dashed #0d47a1"
SPOT_BORDER = "3px solid #2e7d32"


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


def preview_key(key: str) -> str:
    return f"{key}_preview"


def rotation_key(key: str) -> str:
    return f"{key}_rot"


def _click(key: str, card: int, x: int, y: int, rots: tuple[int, ...],
           on_place: Callable[[Placement], None]) -> None:
    """First click on a square: preview there; a second click on the previewed square: place."""
    ss = st.session_state
    rot = ss.get(rotation_key(key), rots[0])
    rot = rot if rot in rots else rots[0]
    if ss.get(preview_key(key)) == (card, x, y):
        ss.pop(preview_key(key), None)
        on_place(Placement(card, x, y, rot))
    else:
        ss[preview_key(key)] = (card, x, y)


def _style(k: str, bg: str, fg: str, border: str, extra: str = "") -> str:
    return (f".st-key-{k} button{{background:{bg}!important;color:{fg}!important;border:{border}!important;"
            f"opacity:1!important;{extra}}}")


def _cell_css(k: str, top: dict | None, new: dict | None, spot: bool, corner: bool) -> str:
    """The look of one square: its top territory (or the previewed card's), a green outline on a
    legal corner, a blue dashed outline (striped) on the preview."""
    shown = new or top
    bg = draw.TERRAIN_COLOURS.get(shown["terrain"], "#fafafa") if shown else "#fafafa"
    fg = draw.TERRAIN_TEXT.get(shown["terrain"], "#222") if shown else "#2e7d32"
    if new:
        stripes = "background-image:repeating-linear-gradient(45deg,rgba(13,71,161,.18) 0 6px,transparent 6px 12px)!important;"
        weight = "box-shadow:inset 0 0 0 3px #0d47a1;" if corner else ""
        return _style(k, bg, fg, PREVIEW_BORDER, stripes + weight)
    if spot:
        big = "" if top else f".st-key-{k} button p{{font-size:20px!important;font-weight:bold}}"
        return _style(k, bg, fg, SPOT_BORDER) + big
    return _style(k, bg, fg, "1px solid #8d6e63" if top else "1px dashed #d7ccc8")


def _label(shown: dict | None, spot: bool) -> str:
    if shown:
        return f"{shown['icon']}\n{shown['terrain']}"
    return "+" if spot else "\u2002"


def _grid_css(key: str) -> str:
    return (f".st-key-{key}_grid{{gap:3px!important}}"
            f".st-key-{key}_grid button{{width:100%;min-height:3.1rem;height:3.1rem;padding:0 2px;border-radius:3px}}"
            f".st-key-{key}_grid button p{{font-size:11px;line-height:1.15;white-space:pre-line;margin:0}}"
            f".st-key-{key}_grid [data-testid='stColumn']{{min-width:0;flex:1 1 0!important;max-width:4.6rem}}"
            f".st-key-{key}_grid [data-testid='stHorizontalBlock']{{gap:2px;flex-wrap:nowrap;justify-content:flex-start}}"
            f".st-key-{key}_grid [data-testid='stHorizontalBlock']>[data-testid='stColumn']:first-child"
            f"{{flex:0 0 1.4rem!important;max-width:1.4rem}}"
            f".st-key-{key}_grid .town-axis{{font-size:11px;color:#6b6b6b;text-align:center;line-height:1.1}}"
            f".st-key-{key}_grid .town-axis-y{{line-height:3.1rem;text-align:right;padding-right:3px}}")


def _preview_cells(preview: Placement | None) -> dict[tuple[int, int], dict]:
    if preview is None:
        return {}
    return {xy: {"terrain": t.terrain, "icon": t.icon} for xy, t in preview.cells()}


def grid(town: Town, card: int | None, legal: Sequence[Placement], key: str,
         on_place: Callable[[Placement], None]) -> Placement | None:
    """Draw ``town`` as buttons; ``legal`` are the placements of ``card`` the engine allows.
    Returns the previewed placement (None when nothing is previewed)."""
    where = spots(legal)
    preview = current_preview(key, card, where)
    cells, new = wv.town_cells(town), _preview_cells(preview)
    xs, ys = bounds(cells, where)
    css = [_grid_css(key)]
    with st.container(key=f"{key}_grid"):
        axis = st.columns(len(xs) + 1, gap=None)  # the x coordinates over the columns
        for col, x in zip(axis[1:], xs):
            col.html(f"<div class='town-axis'>{x}</div>")
        for y in ys:
            cols = st.columns(len(xs) + 1, gap=None)
            cols[0].html(f"<div class='town-axis town-axis-y'>{y}</div>")  # the y coordinate of the row
            for col, x in zip(cols[1:], xs):
                k, spot = cell_key(key, x, y), (x, y) in where
                css.append(_cell_css(k, cells.get((x, y)), new.get((x, y)), spot,
                                     preview is not None and (x, y) == (preview.x, preview.y)))
                col.button(_label(new.get((x, y)) or cells.get((x, y)), spot), key=k, disabled=not spot,
                           help=_help(x, y, spot, preview), on_click=_click,
                           args=(key, card, x, y, where.get((x, y), (0,)), on_place), width="stretch")
    st.html("<style>" + "".join(css) + "</style>")
    return preview


def _help(x: int, y: int, spot: bool, preview: Placement | None) -> str:
    if not spot:
        return f"square ({x}, {y})"
    if preview is not None and (preview.x, preview.y) == (x, y):
        return f"({x}, {y}): click again to place the card here"
    return f"({x}, {y}): preview the card with its top-left corner here"


def current_preview(key: str, card: int | None, where: dict[tuple[int, int], tuple[int, ...]]) -> Placement | None:
    """The previewed placement, if it is still one of the legal spots of this card."""
    got = st.session_state.get(preview_key(key))
    if card is None or not got or got[0] != card or (got[1], got[2]) not in where:
        return None
    rots = where[(got[1], got[2])]
    rot = st.session_state.get(rotation_key(key), rots[0])
    return Placement(card, got[1], got[2], rot if rot in rots else rots[0])


def rotation_picker(card: int, legal: Sequence[Placement], key: str) -> None:
    """The card in hand drawn each way up the engine allows, with the choice between them."""
    rots = sorted({p.rot for p in legal}) or [0]
    cols = st.columns(len(rots))
    for col, r in zip(cols, rots):
        col.html(wv.card_preview(card, r))
    if len(rots) > 1:
        st.radio("Which way up", rots, key=rotation_key(key), horizontal=True,
                 format_func=lambda r: ROTATION_NAMES[r])
    else:
        st.caption("This card looks the same turned round: one way up.")


def help_line(card: int, preview: Placement | None) -> str:
    """What to click next, in words."""
    if preview is None:
        return (f"Click a green square to preview card {card} with its top-left corner there "
                "(a second click on the same square places it).")
    return (f"Preview: card {card} at ({preview.x}, {preview.y}), {ROTATION_NAMES[preview.rot]} (blue, dashed). "
            "Click the same square again to place it, or another green square to move it.")


def legend() -> None:
    """The key to the grid and the cards."""
    st.html(draw.wagons_legend_html() + "<div style='font:12px sans-serif;margin-top:4px'><b>Grid</b>: "
            f"<span style='border:{SPOT_BORDER};padding:0 6px'>+</span> a legal spot for the card's top-left corner; "
            f"<span style='border:{PREVIEW_BORDER};padding:0 6px'>preview</span> where the card would lie.</div>")
