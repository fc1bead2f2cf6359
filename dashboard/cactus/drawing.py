"""Presentation only: the Cactus Town 5x5 town drawn as an HTML table that fits its column (a phone's 390 px
included: the squares share the width, their text wraps), the pieces on each square and the lone ranger's path.

Takes plain data the engine produced (the town's building names, the pieces per square); decides nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape

PIECE_STYLE = {"ranger": ("#0d47a1", "Lone ranger"), "outlaw": ("#6d4c41", "Outlaw"),
               "plunder": ("#f9a825", "plunder"), "target": ("#2e7d32", "revealed target"),
               "office": ("#9e9e9e", "Sheriff's Office")}
"""A piece on a square -> (badge colour, its name)."""


def square_name(x: int, y: int) -> str:
    """A square as the page names it everywhere: column x, row y ("x2 y1")."""
    return f"x{x} y{y}"


def _building(names: list[list[str]] | None, r: int, c: int) -> str:
    if not names:
        return ""
    name = names[r][c]
    return "" if name == "?" else name


def town_html(size: int, pieces: Mapping[tuple[int, int], list[str]], highlight: Iterable[tuple[int, int]] = (),
              path: Iterable[tuple[int, int]] = (), names: list[list[str]] | None = None) -> str:
    """The town, ``pieces`` keyed by (row, column): each square lists its pieces; ``path`` squares are numbered in
    order (the lone ranger's moves), ``highlight`` squares are outlined in red."""
    hl = set(highlight)
    steps: dict[tuple[int, int], list[int]] = {}
    for k, sq in enumerate(path, start=1):
        steps.setdefault(tuple(sq), []).append(k)
    rows = []
    for r in range(size):
        tds = []
        for c in range(size):
            badges = "".join(
                f"<div style='margin:1px 0;padding:1px 3px;border-radius:6px;background:"
                f"{PIECE_STYLE.get(p, ('#555', p))[0]};color:#fff;font-size:10px;overflow-wrap:anywhere'>"
                f"{escape(PIECE_STYLE.get(p, ('', p))[1])}</div>" for p in pieces.get((r, c), []))
            step = "".join(f"<span style='font:bold 11px sans-serif;color:#0d47a1'>&#8594;{k} </span>"
                           for k in steps.get((r, c), []))
            border = "3px solid #d32f2f" if (r, c) in hl else "1px solid #8d6e63"
            tds.append(f"<td style='height:64px;border:{border};background:#fbe9d0;vertical-align:top;padding:2px;"
                       f"font:10px sans-serif;overflow-wrap:anywhere'><div style='color:#8d6e63'>"
                       f"{square_name(c, r)} {escape(_building(names, r, c))}</div>{badges}{step}</td>")
        rows.append(f"<tr>{''.join(tds)}</tr>")
    return ("<table style='border-collapse:collapse;table-layout:fixed;width:100%;max-width:520px'>"
            f"{''.join(rows)}</table>")
