"""Presentation only: Main Street drawn with a small SVG picture per character (a data-URI image) (no downloads,
no emoji font needed), the token row between the two streets, marks and the side to move.

Takes a position's JSON (contracts.md) as the engine produced it, possibly one player's view
(unknown characters and tokens are ``null``); decides nothing.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from html import escape
from typing import Any

# (background, picture drawn on a 40x40 canvas) per character
_PICTURES: dict[str, tuple[str, str]] = {
    "governor": ("#5e35b1", "<rect x='12' y='8' width='16' height='16' fill='#212121'/>"
                            "<rect x='7' y='24' width='26' height='4' fill='#212121'/>"
                            "<rect x='12' y='19' width='16' height='3' fill='#c62828'/>"),
    "hitman": ("#b71c1c", "<circle cx='20' cy='20' r='11' fill='none' stroke='#fff' stroke-width='3'/>"
                          "<line x1='20' y1='4' x2='20' y2='36' stroke='#fff' stroke-width='3'/>"
                          "<line x1='4' y1='20' x2='36' y2='20' stroke='#fff' stroke-width='3'/>"),
    "sheriff": ("#f9a825", "<polygon points='20,5 24,16 35,16 26,23 29,34 20,27 11,34 14,23 5,16 16,16' "
                           "fill='#fff' stroke='#5d4037' stroke-width='1.5'/>"),
    "indian": ("#2e7d32", "<path d='M20 4 C30 12 28 26 20 34 C12 26 10 12 20 4 Z' fill='#fff'/>"
                          "<line x1='20' y1='8' x2='20' y2='36' stroke='#1b5e20' stroke-width='2'/>"),
    "merchant": ("#00897b", "<circle cx='20' cy='20' r='13' fill='#ffd54f' stroke='#fff' stroke-width='2'/>"
                            "<text x='20' y='27' font-size='19' font-family='sans-serif' font-weight='bold' "
                            "text-anchor='middle' fill='#5d4037'>$</text>"),
    "dancer": ("#d81b60", "<circle cx='20' cy='9' r='5' fill='#fff'/>"
                          "<polygon points='20,14 31,34 9,34' fill='#fff'/>"),
    "journalist": ("#455a64", "<rect x='8' y='9' width='24' height='22' fill='#fff'/>"
                              "<rect x='11' y='12' width='18' height='5' fill='#455a64'/>"
                              "<line x1='11' y1='21' x2='29' y2='21' stroke='#455a64' stroke-width='2'/>"
                              "<line x1='11' y1='26' x2='29' y2='26' stroke='#455a64' stroke-width='2'/>"),
    "bandit": ("#424242", "<path d='M5 17 Q20 10 35 17 L33 25 Q20 29 7 25 Z' fill='#fff'/>"
                          "<ellipse cx='14' cy='20' rx='4' ry='2.5' fill='#424242'/>"
                          "<ellipse cx='26' cy='20' rx='4' ry='2.5' fill='#424242'/>"),
    "reverend": ("#6d4c41", "<rect x='17' y='6' width='6' height='28' fill='#fff'/>"
                            "<rect x='10' y='13' width='20' height='6' fill='#fff'/>"),
    "mayor": ("#1565c0", "<circle cx='20' cy='16' r='9' fill='#ffd54f' stroke='#fff' stroke-width='2'/>"
                         "<polygon points='14,23 11,35 17,31 20,35 20,24' fill='#c62828'/>"
                         "<polygon points='26,23 29,35 23,31 20,35 20,24' fill='#c62828'/>"),
}
_BACK = ("#8d6e63", "<text x='20' y='28' font-size='22' font-family='sans-serif' font-weight='bold' "
                    "text-anchor='middle' fill='#fff'>?</text>")
TOKEN_STYLE = {"vote": ("#1565c0", "#fff", "Vote"), "bullet": ("#b71c1c", "#fff", "Bullet"),
               "handcuffs": ("#455a64", "#fff", "Handcuffs"), "election": ("#f9a825", "#000", "Election"),
               "x": ("#212121", "#fff", "Bogus X"), "empty": ("#ffffff", "#777", "empty"),
               None: ("#bdbdbd", "#000", "face down")}


def picture(name: str | None, size: int = 40) -> str:
    """A character's picture as inline SVG (a card back with "?" when unknown)."""
    bg, body = _PICTURES.get(name or "", _BACK)
    title = escape(name.title()) if name else "face down (unknown to this viewer)"
    svg = (f"<svg xmlns='http://www.w3.org/2000/svg' width='{size}' height='{size}' viewBox='0 0 40 40'>"
           f"<rect x='1' y='1' width='38' height='38' rx='7' fill='{bg}'/>{body}</svg>")
    data = base64.b64encode(svg.encode()).decode()  # an <img> data URI: st.html keeps it, inline <svg> it strips
    return f"<img src='data:image/svg+xml;base64,{data}' width='{size}' height='{size}' alt='{title}' title='{title}'>"


def _marks(pos: Mapping[str, Any]) -> dict[tuple[str, int], list[str]]:
    street = pos.get("street", {})
    out: dict[tuple[str, int], list[str]] = {}
    for key, text in (("immobilized", "immobilized"), ("front_page", "Front Page")):
        for side, col in pos.get(key, []) or []:
            if isinstance(col, str) and col in (street.get(side) or []):
                col = list(street[side]).index(col)
            if isinstance(col, int):
                out.setdefault((side, col), []).append(text)
    return out


def _cell(name: str | None, marks: list[str], known_here: bool) -> str:
    label = escape(name.title()) if name else "<i>face down</i>"
    badges = "".join(f"<div style='font:bold 10px sans-serif;color:#b71c1c'>{escape(m)}</div>" for m in marks)
    seen = "<div style='font:10px sans-serif;color:#2e7d32'>known to the opponent</div>" if known_here else ""
    return (f"<td style='width:104px;height:78px;border:1px solid #6d4c41;background:#fff8e1;text-align:center;"
            f"vertical-align:top;padding:3px;font:12px sans-serif'>{picture(name)}<div>{label}</div>{badges}{seen}</td>")


def _token(t: str | None) -> str:
    bg, fg, label = TOKEN_STYLE.get(t, ("#9e9e9e", "#fff", str(t)))
    return (f"<td style='text-align:center;padding:4px'><span style='display:inline-block;min-width:70px;"
            f"border-radius:12px;padding:3px 6px;background:{bg};color:{fg};border:1px solid #555;"
            f"font:11px sans-serif'>{escape(label)}</span></td>")


def street_html(pos: Mapping[str, Any], caption: str = "") -> str:
    """Main Street as player A sits: B's row on top, the tokens between, A's row below (rule O1
    geometry); the side to move is marked; "known to the opponent" marks what the other side has seen."""
    street, tokens = pos.get("street", {}), list(pos.get("tokens", []))
    marks = _marks(pos)
    knowledge = pos.get("knowledge") or {}
    mover = pos.get("to_move")

    def row(side: str) -> str:
        seen_by_other = set((knowledge.get("B" if side == "A" else "A") or {}).get("characters", []))
        names = list(street.get(side, []))
        cells = "".join(_cell(names[i], marks.get((side, i), []), i in seen_by_other) for i in range(len(names)))
        arrow = " &#9654; to move" if side == mover and not pos.get("winner") else ""
        return (f"<tr><th style='font:bold 12px sans-serif;padding-right:6px;white-space:nowrap'>"
                f"{side}{arrow}</th>{cells}</tr>")

    head = "".join(f"<th style='font:10px sans-serif;color:#777'>column {i}</th>" for i in range(len(tokens)))
    saloon = pos.get("saloon", {})
    sal = " &nbsp; ".join(
        f"<b>Saloon {s}:</b> " + " ".join(f"<span title='{escape(str(c))}'>{picture(c, 22)} {escape(str(c).title())}</span>"
                                         for c in saloon.get(s, [])) for s in ("A", "B"))
    cap = f"<div style='font:bold 13px sans-serif;margin-bottom:4px'>{escape(caption)}</div>" if caption else ""
    return (f"<div style='overflow-x:auto'>{cap}<table style='border-collapse:collapse'><tr><th></th>{head}</tr>"
            f"{row('B')}<tr><th style='font:11px sans-serif'>tokens</th>{''.join(_token(t) for t in tokens)}</tr>"
            f"{row('A')}</table><div style='font:12px sans-serif;margin-top:6px'>{sal}</div></div>")
