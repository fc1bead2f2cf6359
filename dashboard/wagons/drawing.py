"""Presentation only: the one Lone Cowboy renderer. Every town, card and key the pages show is drawn here.

Terrain colours and icon badges (:data:`TERRAIN_COLOURS`, :data:`ICONS`) are defined once and used by every
drawing: the cards (fronts and backs as small HTML frames, :func:`card_html`, :func:`card_back_html`), the key to
them (:func:`legend_html`), the towns and the buttons of the town you build by tapping
(:mod:`dashboard.wagons.town_grid`).

A town is drawn as SVG at its natural size (62 x 44 pixels a square) on a wide screen and scaled down to the width
of its column on a narrow one (an SVG image at ``width: 100%``, ``max-width``: the natural width), so no town is
ever cut off or makes the page scroll sideways; each square shows its terrain's colour, its icon as a lettered
badge and the icon's and terrain's names whole, and the card it belongs to. The overlay draws the player's town
with the best layout's territory as an inset per square, the best layout's cards outlined (dashed blue) and the
squares where the two differ outlined in orange. The cells are the engine's visible grid
(:func:`dashboard.wagons.view.town_cells`), the cards' territories the engine's (:func:`dashboard.wagons.view.
card_preview`). Nothing here decides a rule.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

TERRAIN_COLOURS = {
    "Desert": "#f2d28b", "Forest": "#4f8f4a", "Mountains": "#9e9e9e", "Plains": "#c9e4a4",
    "Prairie": "#c9e4a4", "Snow": "#f7f9fc", "Water": "#67b7e8",
}
"""Each terrain's colour (Plains are the rulebook's Prairie)."""
TERRAIN_TEXT = {"Forest": "#ffffff", "Mountains": "#ffffff"}
"""Text on a dark terrain (dark text elsewhere)."""
ICONS = {"Beer": ("#c77800", "B"), "Cow": ("#5d4037", "C"), "Fort": ("#7b1fa2", "F"), "Gun": ("#263238", "G"),
         "Mine": ("#f9a825", "M"), "Wagon": ("#c62828", "W")}
"""Icons as coloured badges (no emoji font needed): (badge colour, letter)."""
UNKNOWN_ICON = ("#777", "?")

Cells = Mapping[tuple[int, int], Mapping[str, Any]]
AXIS = 18
"""Room for the row and column numbers (pixels)."""
FLAGGED = "#d32f2f"
DIFFERS = "#ef6c00"
BEST_EDGE = "#1565c0"


def _svg(width: int, height: int, body: str, label: str) -> str:
    """The drawing as an image that fits its column (never wider than drawn): ``st.html`` strips inline SVG but
    keeps an ``<img>`` whose source is the SVG itself (a data URI)."""
    svg = (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' width='{width}' "
           f"height='{height}' font-family='sans-serif'>{body}</svg>")
    data = base64.b64encode(svg.encode()).decode()
    return (f"<img class='wagons-town' src='data:image/svg+xml;base64,{data}' alt='{escape(label)}' "
            f"style='width:100%;max-width:{width}px;height:auto;display:block'>")


def _caption(caption: str) -> str:
    return f"<div style='font:bold 13px sans-serif;margin:2px 0'>{escape(caption)}</div>" if caption else ""


def _badge(icon: str | None, cx: float, cy: float) -> str:
    colour, letter = ICONS.get(icon or "", UNKNOWN_ICON)
    return (f"<circle cx='{cx}' cy='{cy}' r='7' fill='{colour}'/>"
            f"<text x='{cx}' y='{cy + 3.5}' font-size='10' font-weight='bold' fill='#fff' "
            f"text-anchor='middle'>{escape(letter)}</text>")


def _axes(xs: range, ys: range, w: int, h: int) -> str:
    out = [f"<text x='{AXIS + (x - xs.start) * w + w / 2}' y='12' font-size='10' fill='#777' "
           f"text-anchor='middle'>{x}</text>" for x in xs]
    out += [f"<text x='{AXIS - 4}' y='{AXIS + (y - ys.start) * h + h / 2 + 4}' font-size='10' fill='#777' "
            f"text-anchor='end'>{y}</text>" for y in ys]
    return "".join(out)


def _square(c: Mapping[str, Any] | None, px: float, py: float, w: int, h: int) -> str:
    """One square: its terrain's colour, the icon's badge and name, the terrain's name, the card's number."""
    if c is None:
        return (f"<rect x='{px + .5}' y='{py + .5}' width='{w - 1}' height='{h - 1}' fill='#fafafa' "
                "stroke='#ccc' stroke-dasharray='3 2'/>")
    fg = TERRAIN_TEXT.get(c["terrain"], "#222")
    return (f"<rect x='{px}' y='{py}' width='{w}' height='{h}' fill='{TERRAIN_COLOURS.get(c['terrain'], '#fafafa')}' "
            f"stroke='#5d4037'><title>{escape(str(c['terrain']))} / {escape(str(c.get('icon')))}"
            f" (card {escape(str(c.get('card', '?')))})</title></rect>"
            + _badge(c.get("icon"), px + 10, py + 10)
            + f"<text x='{px + 20}' y='{py + 14}' font-size='11' font-weight='bold' fill='{fg}'>"
              f"{escape(str(c.get('icon') or ''))}</text>"
            + f"<text x='{px + w / 2}' y='{py + 29}' font-size='9.5' fill='{fg}' text-anchor='middle'>"
              f"{escape(str(c['terrain']))}</text>"
            + f"<text x='{px + w - 3}' y='{py + h - 4}' font-size='8' fill='{fg}' opacity='.7' "
              f"text-anchor='end'>#{escape(str(c.get('card', '')))}</text>")


def town_svg(cells: Cells, flagged: Iterable[tuple[int, int]] = (), caption: str = "") -> str:
    """A town's visible territories on its grid; ``flagged`` squares (an illegal placement) outlined in red."""
    flagged = set(flagged)
    if not cells and not flagged:
        return _caption(caption) + "<div style='font:13px sans-serif;color:#777'>(empty town)</div>"
    every = set(cells) | flagged
    xs = range(min(x for x, _ in every), max(x for x, _ in every) + 1)
    ys = range(min(y for _, y in every), max(y for _, y in every) + 1)
    w, h = 62, 44
    body = [_axes(xs, ys, w, h)]
    for y in ys:
        for x in xs:
            px, py = AXIS + (x - xs.start) * w, AXIS + (y - ys.start) * h
            body.append(_square(cells.get((x, y)), px, py, w, h))
            if (x, y) in flagged:
                body.append(f"<rect class='flagged' x='{px + 1.5}' y='{py + 1.5}' width='{w - 3}' height='{h - 3}' "
                            f"fill='none' stroke='{FLAGGED}' stroke-width='3'/>")
    return _caption(caption) + _svg(AXIS + len(xs) * w, AXIS + len(ys) * h, "".join(body),
                                    f"{caption or 'Town'}: {_words(cells)}")


def _words(cells: Cells) -> str:
    """The town in words (the image's text for screen readers and searches): each square's terrain, icon and card."""
    return "; ".join(f"({x}, {y}) {c['terrain']} {c.get('icon') or ''} #{c.get('card', '')}".replace("  ", " ")
                     for (x, y), c in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0])))


def _differs(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> bool:
    return (a is None) != (b is None) or (a is not None and (a["terrain"], a.get("icon")) != (b["terrain"],
                                                                                              b.get("icon")))


def _edges(best: Cells, x: int, y: int, px: float, py: float, w: int, h: int) -> str:
    """Dashed lines on the sides of (x, y) where the best layout's card changes (its cards' outlines)."""
    own = best[(x, y)].get("card")
    lines = {(x, y - 1): (px, py, px + w, py), (x + 1, y): (px + w, py, px + w, py + h),
             (x, y + 1): (px, py + h, px + w, py + h), (x - 1, y): (px, py, px, py + h)}
    return "".join(f"<line x1='{a}' y1='{b}' x2='{c}' y2='{d}' stroke='{BEST_EDGE}' stroke-width='3' "
                   "stroke-dasharray='5 3'/>" for n, (a, b, c, d) in lines.items()
                   if best.get(n) is None or best[n].get("card") != own)


def _inset(b: Mapping[str, Any], px: float, py: float, w: int, h: int) -> str:
    fg = TERRAIN_TEXT.get(b["terrain"], "#222")
    return (f"<rect x='{px + 3}' y='{py + h - 17}' width='{w - 6}' height='14' rx='3' "
            f"fill='{TERRAIN_COLOURS.get(b['terrain'], '#fafafa')}' stroke='{BEST_EDGE}'/>"
            f"<text class='best' x='{px + w / 2}' y='{py + h - 7}' font-size='8' fill='{fg}' text-anchor='middle'>"
            f"best: {escape(str(b['terrain']))} / {escape(str(b.get('icon')))}</text>")


def overlay_svg(mine: Cells, best: Cells, caption: str = "") -> str:
    """Two towns on one grid: the player's territory per square, the best layout's as an inset, the best layout's
    cards outlined (dashed blue), the squares where the two differ outlined in orange."""
    every = set(mine) | set(best)
    if not every:
        return _caption(caption) + "<div style='font:13px sans-serif;color:#777'>(empty town)</div>"
    xs = range(min(x for x, _ in every), max(x for x, _ in every) + 1)
    ys = range(min(y for _, y in every), max(y for _, y in every) + 1)
    w, h = 76, 56
    body = [_axes(xs, ys, w, h)]
    for y in ys:
        for x in xs:
            px, py = AXIS + (x - xs.start) * w, AXIS + (y - ys.start) * h
            a, b = mine.get((x, y)), best.get((x, y))
            body.append(_square(a, px, py, w, h))
            if b is not None:
                body.append(_inset(b, px, py, w, h) + _edges(best, x, y, px, py, w, h))
            if _differs(a, b):
                body.append(f"<rect class='differs' x='{px + 1.5}' y='{py + 1.5}' width='{w - 3}' height='{h - 3}' "
                            f"fill='none' stroke='{DIFFERS}' stroke-width='3'/>")
    return _caption(caption) + _svg(AXIS + len(xs) * w, AXIS + len(ys) * h, "".join(body), caption or "towns")


# ----------------------------------------------------------------------------- cards and the key

_CELL = ("width:{w}px;height:{h}px;border:1px solid #5d4037;text-align:center;vertical-align:middle;"
         "font:12px/1.2 sans-serif;padding:1px;")
_FRAME = ("display:inline-block;margin:3px;padding:4px;border:2px solid #6d4c41;border-radius:7px;"
          "background:#fffdf7;vertical-align:top")


def _cell_style(terrain: str | None, w: int, h: int) -> str:
    bg = TERRAIN_COLOURS.get(terrain or "", "#fafafa")
    fg = TERRAIN_TEXT.get(terrain or "", "#222222")
    return _CELL.format(w=w, h=h) + f"background:{bg};color:{fg};"


def icon_badge(icon: str | None) -> str:
    """An icon as a round coloured badge with its letter (HTML; the SVG drawings draw the same badge)."""
    colour, letter = ICONS.get(icon or "", UNKNOWN_ICON)
    return (f"<span style='display:inline-block;width:14px;height:14px;border-radius:7px;background:{colour};"
            f"color:#fff;font:bold 10px/14px sans-serif;text-align:center'>{letter}</span>")


def _note(note: str) -> str:
    return f"<div style='font:11px sans-serif;color:#555;margin-top:2px'>{escape(note)}</div>" if note else ""


def card_html(card_id: int, quadrants: Iterable[tuple[str, str]], title: str | None = None,
              size: float = 1.0, note: str = "") -> str:
    """One card front: its 4 territories (top left, top right, bottom left, bottom right) as a 2x2 coloured grid
    in a card frame; ``size`` scales it (0.8 for a pile), ``note`` is a line under it (e.g. "skipped")."""
    q = list(quadrants)
    w, h = round(54 * size), round(34 * size)
    rows = []
    for r in range(2):
        cells = "".join(f"<td style='{_cell_style(t, w, h)}' title='{escape(t)} / {escape(i)}'>"
                        f"{icon_badge(i)}<br><b>{escape(i or '')}</b></td>" for t, i in q[2 * r:2 * r + 2])
        rows.append(f"<tr>{cells}</tr>")
    head = f"<div style='font:bold 12px sans-serif;margin-bottom:2px'>{escape(title or f'Card {card_id}')}</div>"
    return (f"<div style='{_FRAME}'>{head}<table style='border-collapse:collapse'>{''.join(rows)}</table>"
            f"{_note(note)}</div>")


def card_back_html(title: str = "Face down", size: float = 1.0, note: str = "") -> str:
    """A card not seen yet: its back, the size of a drawn front."""
    w, h = round(108 * size) + 4, round(68 * size) + 4
    return (f"<div style='{_FRAME}'><div style='font:bold 12px sans-serif;margin-bottom:2px'>{escape(title)}</div>"
            f"<div style='width:{w}px;height:{h}px;border-radius:4px;background:"
            f"repeating-linear-gradient(135deg,#8d6e63 0 8px,#a1887f 8px 16px);color:#fff;"
            f"font:bold 22px/{h}px sans-serif;text-align:center'>?</div>{_note(note)}</div>")


def legend_html() -> str:
    """The key to the drawings: terrain colours and icon badges."""
    terrains = "".join(f"<span style='display:inline-block;margin:2px 8px 2px 0'><span style='display:inline-block;"
                       f"width:14px;height:14px;vertical-align:middle;border:1px solid #5d4037;background:{c}'></span> "
                       f"{escape(t)}</span>" for t, c in TERRAIN_COLOURS.items() if t != "Prairie")
    icons = "".join(f"<span style='display:inline-block;margin:2px 8px 2px 0'>{icon_badge(i)}"
                    f" {escape(i)}</span>" for i in ICONS)
    return (f"<div style='font:12px sans-serif'><b>Terrains</b> (Plains are the rulebook's Prairie): {terrains}"
            f"<br><b>Icons</b>: {icons}</div>")
