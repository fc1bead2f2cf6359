"""My games: this browser's saved games and towns, listed to resume, rename and delete.

A page offers :func:`save_form` to save its work as a named item of its kind; :func:`show` is the My games page
(``dashboard/shared/my_games.py``). Resuming an item makes its document the owning page's kept work
(:func:`dashboard.shared.work.store.replace_work`) and switches to that page, which restores it with
:func:`dashboard.shared.work.store.sync` like any kept work: an item's document is the page's work document.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import streamlit as st

from dashboard.nav import all_pages
from dashboard.shared.work import store
from dashboard.shared.work.plaintext import plain
from solver.errors import BadInput

DASHBOARD = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Kind:
    """What a saved item is, for people (``label``), and where it resumes: the page file (as given to
    ``st.Page``) and the work key that page mirrors with :func:`dashboard.shared.work.store.sync`."""

    label: str
    page: Path
    work_key: str


KINDS: dict[str, Kind] = {kind: Kind(label, DASHBOARD / p.file, work_key)
                          for p in all_pages() for kind, label, work_key in p.saves}
"""Kind of item -> how My games shows and resumes it, from the pages' ``saves`` (:mod:`dashboard.nav`): a page that
saves a new kind names it there."""

UNDER_WAY = ("-game", "-line")
"""How the kinds that are games played along end (a game, a line of play): My games lists the one under way as soon
as it starts."""

_NOTE = "_my_games_note"
"""Session key of the line a rename or delete leaves for the next run (callbacks run before the page)."""


def _when(stamp: float) -> str:
    """A time in the browser's own time zone (UTC when it did not say), as a player reads it."""
    try:
        zone = ZoneInfo(st.context.timezone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = UTC
    when = datetime.fromtimestamp(stamp, zone)
    return f"{when.day} {when:%b %Y, %H:%M}"


def save_form(kind: str, doc: Any, *, key: str, default_name: str = "") -> store.Item | None:
    """A name box and **Save to My games**, saving ``doc`` as a new item of ``kind``; the item, in the run it was
    saved. Nothing is drawn while saving is off (the app's first line says why)."""
    handle = store.current()
    if handle is None:
        return None
    ss, shown = st.session_state, f"{key}_name_default"
    if ss.get(f"{key}_name") in (None, ss.get(shown)):  # not typed by the player: it follows the work's own name
        ss[f"{key}_name"] = default_name
    ss[shown] = default_name
    name = st.text_input("Name to save it under", key=f"{key}_name", max_chars=store.MAX_NAME)
    if not st.button("Save to My games", key=f"{key}_save", icon=":material/bookmark_add:"):
        return None
    try:
        item = handle.save_item(kind, name, doc)
    except BadInput as exc:
        st.error(f"Not saved: {plain(exc)}", icon=":material/error:")
        return None
    st.success(f"Saved '{plain(item.name)}' to My games.", icon=":material/bookmark_added:")
    return item


def _rename(handle: store.Handle, item: store.Item) -> None:
    try:
        handle.rename_item(item.id, st.session_state.get(f"mg_name_{item.id}", ""))
        st.session_state[_NOTE] = ("success", f"Renamed '{plain(item.name)}'.")
    except BadInput as exc:
        st.session_state[_NOTE] = ("error", f"Not renamed: {plain(exc)}")


def _delete(handle: store.Handle, item: store.Item) -> None:
    try:
        handle.delete_item(item.id)
        st.session_state[_NOTE] = ("success", f"Deleted '{plain(item.name)}'.")
    except BadInput as exc:
        st.session_state[_NOTE] = ("error", f"Not deleted: {plain(exc)}")


def _resume(handle: store.Handle, item: store.Item, kind: Kind) -> None:
    """Make the item's document the owning page's work, then open that page (which restores it)."""
    try:
        full = handle.get_item(item.id)
        if full is None:
            raise BadInput("that saved game is not in this browser's list (deleted in another tab?)")
        store.replace_work(kind.work_key, full.doc)
    except BadInput as exc:
        st.error(f"Not resumed: {plain(exc)}", icon=":material/error:")
        return
    st.switch_page(kind.page)


def _item(handle: store.Handle, item: store.Item, kind: Kind | None) -> None:
    """One saved item: its name, kind and time, then Resume, Rename and Delete in one row."""
    with st.container(border=True, key=f"mg_item_{item.id}"):
        label = kind.label if kind else item.kind
        st.markdown(f"**{plain(item.name)}**  \n{plain(label)} · saved {_when(item.updated)}")
        with st.container(horizontal=True):
            if kind is not None and st.button("Resume", key=f"mg_resume_{item.id}", type="primary",
                                              icon=":material/play_arrow:"):
                _resume(handle, item, kind)
            with st.popover("Rename"):
                st.text_input("New name", value=item.name, key=f"mg_name_{item.id}", max_chars=store.MAX_NAME)
                st.button("Save the name", key=f"mg_rename_{item.id}", on_click=_rename, args=(handle, item))
            with st.popover("Delete"):
                st.button(f"Delete '{plain(item.name)}' for good", key=f"mg_delete_{item.id}", on_click=_delete,
                          args=(handle, item))
        if kind is None:
            st.caption("This app has no page that opens this kind of item.")


def show(kinds: dict[str, Kind] | None = None) -> None:
    """The My games page: this browser's saved items, the latest first, each with Resume (to the page of its kind
    in ``kinds``, default :data:`KINDS`), Rename and Delete."""
    kinds = KINDS if kinds is None else kinds
    from dashboard.shared.fit import whole_titles

    whole_titles()
    st.title("My games")
    st.caption("The games and towns saved in this browser, the latest first. Only this browser sees them.")
    note = st.session_state.pop(_NOTE, None)
    if note:
        (st.success if note[0] == "success" else st.error)(note[1])
    handle = store.current()
    if handle is None:
        st.info("Saving is off, so there is nothing to list.", icon=":material/cloud_off:")
        return
    try:
        items = handle.list_items()
    except BadInput as exc:
        st.error(f"The list cannot be read: {plain(exc)}", icon=":material/error:")
        return
    kept_now = _kept_now(handle, kinds)
    if not items and not kept_now:
        st.info("Nothing saved in this browser yet: pages offer **Save to My games** under their work.",
                icon=":material/bookmarks:")
    for item in _page(items):
        _item(handle, item, kinds.get(item.kind))


PAGE_SIZE = 20
"""Saved items drawn at a time: a page of them, so the page stays quick however many a browser keeps."""


def _page(items: list[store.Item]) -> list[store.Item]:
    """The items of the page chosen below the list (the first page when there is one, or the chosen one is gone)."""
    pages = max(1, -(-len(items) // PAGE_SIZE))
    if pages == 1:
        return items
    if not 1 <= st.session_state.get("mg_page", 1) <= pages:  # items deleted since: the last page left
        st.session_state["mg_page"] = pages
    number = st.number_input(f"Page (of {pages}, {PAGE_SIZE} items each)", min_value=1, max_value=pages, value=1,
                             step=1, key="mg_page")
    start = (int(number) - 1) * PAGE_SIZE
    return items[start:start + PAGE_SIZE]


def _kept_now(handle: store.Handle, kinds: dict[str, Kind]) -> int:
    """The work each page keeps as the player goes (a game under way is kept from its first move, before any Save):
    one box per page that holds some, with **Open** (to that page, which restores it); how many there are."""
    seen: set[str] = set()
    shown = 0
    for name, kind in kinds.items():
        if not name.endswith(UNDER_WAY) or kind.work_key in seen:
            continue
        seen.add(kind.work_key)
        try:
            doc = handle.load_work(kind.work_key)
        except BadInput:
            continue
        if doc is None:
            continue
        shown += 1
        with st.container(border=True, key=f"mg_kept_{kind.work_key}"):
            st.markdown(f"**{kind.label}, under way**  \nkept as you play (no Save needed); save it to keep a named "
                        "copy")
            if st.button("Open", key=f"mg_open_{kind.work_key}", type="primary", icon=":material/play_arrow:"):
                st.switch_page(kind.page)
    return shown

