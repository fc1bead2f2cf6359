"""Presentation only: Lone Cowboy towns and cards drawn as small HTML tables.

Every function takes plain data the engine produced (visible territories) and returns an HTML string for
``st.html``; nothing here decides a rule. The Outlaws street is drawn in ``dashboard/outlaws/street.py``, the
Cactus Town town in ``dashboard/cactus/drawing.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

TERRAIN_COLOURS = {
    "Desert": "#f2d28b", "Forest": "#4f8f4a", "Mountains": "#9e9e9e", "Plains": "#c9e4a4",
    "Prairie": "#c9e4a4", "Snow": "#f7f9fc", "Water": "#67b7e8",
}
TERRAIN_TEXT = {"Forest": "#ffffff", "Mountains": "#ffffff"}
# Icons as coloured badges (no emoji font needed): (badge colour, letter).
ICONS = {"Beer": ("#c77800", "B"), "Cow": ("#5d4037", "C"), "Fort": ("#7b1fa2", "F"), "Gun": ("#263238", "G"),
         "Mine": ("#f9a825", "M"), "Wagon": ("#c62828", "W")}

_CELL = ("width:{w}px;height:{h}px;border:1px solid #5d4037;text-align:center;vertical-align:middle;"
         "font:12px/1.2 sans-serif;padding:1px;")


def _cell_style(terrain: str | None, w: int, h: int, extra: str = "") -> str:
    bg = TERRAIN_COLOURS.get(terrain or "", "#fafafa")
    fg = TERRAIN_TEXT.get(terrain or "", "#222222")
    return _CELL.format(w=w, h=h) + f"background:{bg};color:{fg};{extra}"


def icon_badge(icon: str | None) -> str:
    """An icon as a round coloured badge with its letter (no emoji font needed)."""
    colour, letter = ICONS.get(icon or "", ("#777", "?"))
    return (f"<span style='display:inline-block;width:14px;height:14px;border-radius:7px;background:{colour};"
            f"color:#fff;font:bold 10px/14px sans-serif;text-align:center'>{letter}</span>")


def territory_label(terrain: str, icon: str | None, small: bool = False) -> str:
    mark = icon_badge(icon)
    if small:
        return f"{mark}<br><b>{escape(icon or '')}</b>"
    return f"{mark} <b>{escape(icon or '')}</b><br><span style='font-size:10px'>{escape(terrain)}</span>"


def wagons_card_html(card_id: int, quadrants: Iterable[tuple[str, str]], title: str | None = None,
                     size: float = 1.0, note: str = "") -> str:
    """One Circle the Wagons card front: 4 territories (tl, tr, bl, br) as a 2x2 coloured grid in a
    card frame; ``size`` scales it (0.8 for a pile), ``note`` is a line under it (e.g. "skipped")."""
    q = list(quadrants)
    w, h = round(54 * size), round(34 * size)
    rows = []
    for r in range(2):
        cells = "".join(f"<td style='{_cell_style(t, w, h)}' title='{escape(t)} / {escape(i)}'>"
                        f"{territory_label(t, i, small=True)}</td>" for t, i in q[2 * r:2 * r + 2])
        rows.append(f"<tr>{cells}</tr>")
    head = f"<div style='font:bold 12px sans-serif;margin-bottom:2px'>{escape(title or f'Card {card_id}')}</div>"
    foot = f"<div style='font:11px sans-serif;color:#555;margin-top:2px'>{escape(note)}</div>" if note else ""
    return (f"<div style='display:inline-block;margin:3px;padding:4px;border:2px solid #6d4c41;border-radius:7px;"
            f"background:#fffdf7;vertical-align:top'>{head}"
            f"<table style='border-collapse:collapse'>{''.join(rows)}</table>{foot}</div>")


def wagons_card_back_html(title: str = "Face down", size: float = 1.0, note: str = "") -> str:
    """A card not seen yet: its back, the size of a drawn front."""
    w, h = round(108 * size) + 4, round(68 * size) + 4
    foot = f"<div style='font:11px sans-serif;color:#555;margin-top:2px'>{escape(note)}</div>" if note else ""
    return (f"<div style='display:inline-block;margin:3px;padding:4px;border:2px solid #6d4c41;border-radius:7px;"
            f"background:#fffdf7;vertical-align:top'><div style='font:bold 12px sans-serif;margin-bottom:2px'>"
            f"{escape(title)}</div><div style='width:{w}px;height:{h}px;border-radius:4px;background:"
            f"repeating-linear-gradient(135deg,#8d6e63 0 8px,#a1887f 8px 16px);color:#fff;"
            f"font:bold 22px/{h}px sans-serif;text-align:center'>?</div>{foot}</div>")


def wagons_legend_html() -> str:
    """The key to the drawings: terrain colours and icon badges."""
    terrains = "".join(f"<span style='display:inline-block;margin:2px 8px 2px 0'><span style='display:inline-block;"
                       f"width:14px;height:14px;vertical-align:middle;border:1px solid #5d4037;background:{c}'></span> "
                       f"{escape(t)}</span>" for t, c in TERRAIN_COLOURS.items() if t != "Prairie")
    icons = "".join(f"<span style='display:inline-block;margin:2px 8px 2px 0'>{icon_badge(i)}"
                    f" {escape(i)}</span>" for i in ICONS)
    return (f"<div style='font:12px sans-serif'><b>Terrains</b> (Plains are the rulebook's Prairie): {terrains}"
            f"<br><b>Icons</b>: {icons}</div>")


def _card_edges(cells: Mapping[tuple[int, int], Mapping[str, Any]], xy: tuple[int, int], style: str) -> str:
    """Borders on the sides of ``xy`` where the visible card changes (a card's outline)."""
    x, y = xy
    own = cells[xy].get("card")
    out = []
    for side, n in (("top", (x, y - 1)), ("right", (x + 1, y)), ("bottom", (x, y + 1)), ("left", (x - 1, y))):
        other = cells.get(n)
        if other is None or other.get("card") != own:
            out.append(f"border-{side}:{style};")
    return "".join(out)


