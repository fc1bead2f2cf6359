"""User text shown as plain text: a name, anything else a user typed, or a message echoing it is escaped so that
Streamlit's Markdown shows its characters and never reads them as markup (an image link would make the browser fetch
its address, and a game travels to other browsers by its address). Presentation only; no Streamlit import."""

from __future__ import annotations

import re

from solver.errors import printable

_MARKUP = re.compile(r"[\\`*~<\[\]$]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|:(?=[\w/+-])|&(?=[#A-Za-z])")
"""The characters Streamlit's Markdown could read as markup in one line of text: emphasis, code, strike-through,
links and images (``[``), HTML tags and autolinks, LaTeX, entities, and ``:icon:`` / ``:color[...]`` directives. An
underscore inside a word, a colon before a space and the like are left as they are (CommonMark reads them as text)."""
_LEADING = re.compile(r"^(\s*)(?:([-+>#])|(\d+)([.)]))")
"""What only the start of a line makes markup: a list item, a quote, a heading."""


def plain(text: object) -> str:
    """``text`` (a name or anything else a user typed, or a message echoing it) escaped so that Streamlit shows it
    as plain text, never Markdown or HTML: each markup character gets a backslash, so a name holding an image link,
    a link or a tag shows its characters and makes the browser fetch nothing. Made printable and one line first
    (:func:`solver.errors.printable`)."""
    line = _MARKUP.sub(lambda m: "\\" + m.group(), " ".join(printable(text).split()))
    return _LEADING.sub(lambda m: m.group(1) + ("\\" + m.group(2) if m.group(2) else m.group(3) + "\\" + m.group(4)),
                        line)
