"""Presentation only: the one drawing of an Outlaws position (Main Street, the token row, the Saloons, and the
supplies, reserve and discard as counts), and its token palette and character pictures.

Takes a position's JSON (contracts.md) as the engine produced it, possibly one player's view (unknown characters
and tokens are ``null``); decides nothing. Main Street is laid out as eight column stacks (B's character, the
token, A's character: rule O1's geometry, as player A sits) that wrap after column 3 when the page is narrower
than the street (a phone): nothing is cut off and nothing scrolls sideways. Given the position ``before`` an
action, every square, mark and count that differs is outlined in orange with what it was (a counterexample's
"after" picture).
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

TOKEN_STYLE: dict[str | None, tuple[str, str, str]] = {
    "vote": ("#1565c0", "#fff", "Vote"), "bullet": ("#b71c1c", "#fff", "Bullet"),
    "handcuffs": ("#455a64", "#fff", "Handcuffs"), "election": ("#f9a825", "#000", "Election"),
    "x": ("#212121", "#fff", "Bogus X"), "empty": ("#ffffff", "#777", "empty"), None: ("#bdbdbd", "#000", "face down")}
"""Token -> (background, text colour, name as a player says it); None: a token this viewer has not seen."""

SUPPLY = (("vote", "Votes"), ("bullet", "Bullets"), ("handcuffs", "Handcuffs"), ("front_page", "Front Page markers"),
          ("election", "Election"))
"""A side's supply as the drawing counts it (the keys of a position's ``supply``)."""
CHANGED = "#ef6c00"
"""The outline of what an action changed."""

_CSS = """<style>
.olst{container-type:inline-size;font:12px sans-serif;margin-bottom:6px}
.olst .cap{font:bold 13px sans-serif;margin-bottom:4px}
.olst .street{display:flex;flex-wrap:wrap;row-gap:8px}
.olst .stack{flex:0 0 96px;display:flex;flex-direction:column;gap:3px;min-width:0}
.olst .lab{flex:0 0 76px}.olst .lab2{display:none}
.olst .head{font:10px sans-serif;color:#777;text-align:center;height:14px}
.olst .ch{height:80px;border:1px solid #6d4c41;background:#fff8e1;text-align:center;padding:2px;
 overflow:hidden;box-sizing:border-box}
.olst .ch img{display:block;margin:0 auto;max-width:100%;height:auto}
.olst .tk{height:28px;display:flex;align-items:center;justify-content:center}
.olst .tk span{display:inline-block;max-width:100%;box-sizing:border-box;border-radius:12px;padding:3px 5px;
 border:1px solid #555;font:11px sans-serif;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.olst .side{font:bold 12px sans-serif;display:flex;align-items:center;height:80px}
.olst .side.t{height:28px;font-weight:normal}
.olst .mk{font:bold 10px sans-serif;color:#b71c1c}.olst .kn{font:10px sans-serif;color:#2e7d32}
.olst .was{font:10px sans-serif;color:#e65100}
.olst .counts{display:flex;flex-wrap:wrap;gap:4px 16px;margin-top:6px}
.olst .counts table{border-collapse:collapse}.olst .counts td,.olst .counts th{padding:1px 6px;text-align:left;
 border-bottom:1px solid #eee;font:12px sans-serif}
@container (max-width: 880px){
 .olst .stack{flex-basis:calc((100% - 53px) / 4)}.olst .lab,.olst .lab2{flex-basis:52px}.olst .lab2{display:flex}
}
</style>"""


def picture(name: str | None, size: int = 40) -> str:
    """A character's picture as inline SVG (a card back with "?" when unknown)."""
    bg, body = _PICTURES.get(name or "", _BACK)
    title = escape(name.title()) if name else "face down (unknown to this viewer)"
    svg = (f"<svg xmlns='http://www.w3.org/2000/svg' width='{size}' height='{size}' viewBox='0 0 40 40'>"
           f"<rect x='1' y='1' width='38' height='38' rx='7' fill='{bg}'/>{body}</svg>")
    data = base64.b64encode(svg.encode()).decode()  # an <img> data URI: st.html keeps it, inline <svg> it strips
    return f"<img src='data:image/svg+xml;base64,{data}' width='{size}' height='{size}' alt='{title}' title='{title}'>"


def token_name(token: str | None) -> str:
    """A token as a player names it ("Bogus X", "face down")."""
    return TOKEN_STYLE.get(token, ("", "", str(token)))[2]


def _marks(pos: Mapping[str, Any]) -> dict[tuple[str, int], list[str]]:
    """(side, column) -> its marks ("immobilized", "Front Page"); marks given by character name are placed."""
    street = pos.get("street", {})
    out: dict[tuple[str, int], list[str]] = {}
    for key, text in (("immobilized", "immobilized"), ("front_page", "Front Page")):
        for side, col in pos.get(key, []) or []:
            if isinstance(col, str) and col in (street.get(side) or []):
                col = list(street[side]).index(col)
            if isinstance(col, int):
                out.setdefault((side, col), []).append(text)
    return out


def _outline(changed: bool) -> str:
    return f"outline:3px solid {CHANGED};outline-offset:-3px;" if changed else ""


def _was(text: str | None) -> str:
    return f"<div class='was'>was {escape(text)}</div>" if text is not None else ""


def _character(name: str | None, marks: list[str], known: bool, was: str | None) -> str:
    label = escape(name.title()) if name else "<i>face down</i>"
    badges = "".join(f"<div class='mk'>{escape(m)}</div>" for m in marks)
    seen = "<div class='kn'>known to the opponent</div>" if known else ""
    return (f"<div class='ch' style='{_outline(was is not None)}'>{picture(name, 34)}<div>{label}</div>{badges}{seen}"
            f"{_was(was)}</div>")


def _token(token: str | None, was: str | None) -> str:
    bg, fg, label = TOKEN_STYLE.get(token, ("#9e9e9e", "#fff", str(token)))
    tip = f" title='was {escape(was)}'" if was is not None else ""
    return (f"<div class='tk'><span style='background:{bg};color:{fg};{_outline(was is not None)}'{tip}>"
            f"{escape(label)}{' *' if was is not None else ''}</span></div>")


def _cell_look(pos: Mapping[str, Any], marks: dict, side: str, col: int) -> tuple:
    names = list((pos.get("street") or {}).get(side, []))
    return (names[col] if col < len(names) else None, tuple(marks.get((side, col), [])))


def _described(state: tuple) -> str:
    name, marks = state
    return ((name.title() if name else "face down") + "".join(f", {m}" for m in marks))


def _stack(pos: Mapping[str, Any], before: Mapping[str, Any] | None, col: int) -> str:
    """Column ``col``: its number, B's character, the token, A's character (each compared with ``before``)."""
    marks, then = _marks(pos), _marks(before) if before is not None else {}
    knowledge = pos.get("knowledge") or {}
    parts = [f"<div class='head'>column {col}</div>"]
    for side in ("B", None, "A"):
        if side is None:
            tokens = list(pos.get("tokens", []))
            token = tokens[col] if col < len(tokens) else "empty"
            old = (list(before.get("tokens", [])) + ["empty"] * 8)[col] if before is not None else token
            parts.append(_token(token, token_name(old) if old != token else None))
            continue
        now = _cell_look(pos, marks, side, col)
        old = _cell_look(before, then, side, col) if before is not None else now
        other = "B" if side == "A" else "A"
        known = col in set((knowledge.get(other) or {}).get("characters", []))
        parts.append(_character(now[0], list(now[1]), known, _described(old) if old != now else None))
    return f"<div class='stack'>{''.join(parts)}</div>"


def _labels(pos: Mapping[str, Any], second: bool) -> str:
    mover = pos.get("to_move") if not pos.get("winner") else None
    rows = "".join(f"<div class='side'>{side}{' &#9654; to move' if side == mover else ''}</div>"
                   if side else "<div class='side t'>tokens</div>" for side in ("B", None, "A"))
    return f"<div class='stack {'lab2' if second else 'lab'}'><div class='head'></div>{rows}</div>"


def _saloons(pos: Mapping[str, Any], before: Mapping[str, Any] | None) -> str:
    saloon = pos.get("saloon", {})
    out = []
    for side in ("A", "B"):
        now = list(saloon.get(side, []))
        old = list((before.get("saloon", {}) if before is not None else saloon).get(side, []))
        names = " ".join(f"<span title='{escape(str(c))}'>{picture(c, 22)} {escape(str(c).title() if c else 'face down')}"
                         "</span>" for c in now)
        was = "" if sorted(map(str, old)) == sorted(map(str, now)) else \
            f" <span class='was'>was {escape(', '.join(str(c).title() for c in old))}</span>"
        out.append(f"<span style='{_outline(bool(was))}'><b>Saloon {side}:</b> {names or '-'}{was}</span>")
    return "<div style='margin-top:6px;display:flex;flex-wrap:wrap;gap:4px 16px'>" + "".join(out) + "</div>"


def _count(now: Any, old: Any) -> str:
    if old == now:
        return f"<td>{escape(str(now))}</td>"
    return f"<td style='{_outline(True)}'><b>{escape(str(now))}</b> <span class='was'>was {escape(str(old))}</span></td>"


def _piles(pos: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The reserve and the discard as counts per token ("face down" for tokens this viewer has not seen)."""
    reserve: dict[str, Any] = {}
    for t in pos.get("reserve", []) or []:
        reserve[token_name(t)] = reserve.get(token_name(t), 0) + 1
    discard = {token_name(k) if k != "front_page" else "Front Page markers": n
               for k, n in (pos.get("discard") or {}).items() if n}
    return {"Reserve": reserve, "Discard": discard}


def counts_html(pos: Mapping[str, Any], before: Mapping[str, Any] | None = None) -> str:
    """Each side's supply (Votes, Bullets, Handcuffs, Front Page markers, Election), then the reserve and the
    discard; with ``before``, what changed is outlined with the count it had."""
    sup, old_sup = pos.get("supply") or {}, (before.get("supply") or {}) if before is not None else None
    head = "".join(f"<th>{escape(label)}</th>" for _, label in SUPPLY)
    rows = "".join(
        f"<tr><th>{side}</th>" + "".join(_count((sup.get(side) or {}).get(k, 0),
                                                ((old_sup or sup).get(side) or {}).get(k, 0)) for k, _ in SUPPLY)
        + "</tr>" for side in ("A", "B"))
    piles, old_piles = _piles(pos), _piles(before) if before is not None else None
    pile_rows = []
    for name, now in piles.items():
        old = (old_piles or piles)[name]
        keys = sorted(set(now) | set(old))
        cells = ", ".join(f"{k} {now.get(k, 0)}" + (f" (was {old.get(k, 0)})" if now.get(k, 0) != old.get(k, 0) else "")
                          for k in keys) or "none"
        pile_rows.append(f"<tr><th>{name}</th><td style='{_outline(now != old)}'>{escape(cells)}</td></tr>")
    return (f"<div class='counts'><table><tr><th>supply</th>{head}</tr>{rows}</table>"
            f"<table>{''.join(pile_rows)}</table></div>")


def street_html(pos: Mapping[str, Any], caption: str = "", *, before: Mapping[str, Any] | None = None,
                counts: bool = False) -> str:
    """Main Street as player A sits: B's row on top, the tokens between, A's row below (rule O1 geometry), the
    side to move marked, "known to the opponent" under what the other side has seen, the Saloons below; with
    ``counts`` the supplies, reserve and discard too; with ``before`` what differs from it is outlined."""
    n = max(len((pos.get("street") or {}).get("A", [])), len(pos.get("tokens", [])), 1)
    stacks = [_labels(pos, False)]
    for col in range(n):
        if col == n // 2:
            stacks.append(_labels(pos, True))  # shown only when the street wraps (a narrow page)
        stacks.append(_stack(pos, before, col))
    cap = f"<div class='cap'>{escape(caption)}</div>" if caption else ""
    extra = counts_html(pos, before) if counts else ""
    return (f"{_CSS}<div class='olst'>{cap}<div class='street'>{''.join(stacks)}</div>"
            f"{_saloons(pos, before)}{extra}</div>")
