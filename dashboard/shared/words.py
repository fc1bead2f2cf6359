"""Words and tables for people: counts in the right number, readable tables of rows, static tables whose cells wrap, escaped cell text, number cells as the engine reads them. Presentation only."""

from __future__ import annotations

from typing import Any

import streamlit as st


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and ``word`` in the right number: "1 card", "3 cards", "1 entry", "2 entries"."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def readable(rows: list[dict], drop: tuple[str, ...] = ()) -> Any:
    """Rows as a table for people: columns empty in every row (and ``drop``) left out, headers in words
    (``token_columns`` -> "token columns", ``votes_A`` -> "votes A"), an empty cell blank rather than "None"."""
    import polars as pl

    df = pl.DataFrame(rows, infer_schema_length=None)
    keep = [c for c in df.columns if c not in drop and df[c].null_count() < df.height
            and not (df[c].dtype == pl.Boolean and not df[c].any())]  # nor a flag no row sets
    df = df.select(keep)
    blanks = [c for c in df.columns if df[c].null_count()]
    df = df.with_columns(pl.col(c).cast(pl.String).fill_null("") for c in blanks)
    return df.rename({c: c.replace("_", " ") for c in df.columns})


TABLE_SCROLL_AFTER, TABLE_HEIGHT = 12, 440
"""A wrapped table longer than this many rows scrolls in this many pixels (its headers stay)."""


def as_text(value: Any) -> Any:
    """A cell's text with Markdown's marks escaped (a static table renders Markdown: a ``*`` or ``_`` in an
    engine's sentence would turn into emphasis); numbers and blanks as they are."""
    if not isinstance(value, str):
        return value
    return "".join("\\" + c if c in "\\`*_[]<>|~$#" else c for c in value)


def wrapped_table(df: Any) -> None:
    """A table (polars) of sentences, static so that its cells wrap (a data grid cut them at 1366 px), its text
    escaped (:func:`as_text`); past :data:`TABLE_SCROLL_AFTER` rows it scrolls."""
    import polars as pl

    texts = [c for c, t in df.schema.items() if t == pl.String]
    df = df.with_columns(pl.col(c).map_elements(as_text, return_dtype=pl.String) for c in texts)
    st.table(df, hide_index=True, border="horizontal", height=table_height(df.height))


def table_height(rows: int) -> int | str:
    """A static table's height: all its rows, or :data:`TABLE_HEIGHT` pixels (scrolling) past
    :data:`TABLE_SCROLL_AFTER` rows."""
    return TABLE_HEIGHT if rows > TABLE_SCROLL_AFTER else "content"


def whole(value: Any, empty: Any = None) -> Any:
    """A number cell of an edited table as the engine reads it: an empty cell (None, NaN) is ``empty``, 3.0 is 3
    (the table turns a column holding an empty cell into floats); anything else goes to the engine's check."""
    if value is None or (isinstance(value, float) and value != value):  # None or NaN
        return empty
    return int(value) if isinstance(value, float) and value.is_integer() else value


def sentence(text: str) -> str:
    """``text`` starting with a capital, as after a full stop ("a lone ranger who..." -> "A lone ranger who...")."""
    return text[:1].upper() + text[1:]
