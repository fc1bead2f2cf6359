"""Helpers shared by the dashboard pages: inline errors, JSON upload/download, per-session rules
readings, and progress for long work.

Nothing here decides a rule: readings are edited as the engines' own ``Rules`` options and passed
back to them; uploads are validated by the solver's own loaders.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import threading
import time
import typing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import streamlit as st

from solver import readings as rd
from solver.cactus import rules as cactus_rules
from solver.errors import BadInput
from solver.io import MAX_BYTES, parse_json_text
from solver.outlaws import rules as outlaws_rules
from solver.registry import GAMES, titles
from solver.stopping import StopSignal, stopping
from solver.wagons import rules as wagons_rules

GAME_TITLES = titles()
"""{game id: title} (:mod:`solver.registry`)."""


# ----------------------------------------------------------------------------- words

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


# ----------------------------------------------------------------------------- errors

def show_bad_input(exc: BadInput, prefix: str = "") -> None:
    """An engine's one-line BadInput, shown inline where the input was entered."""
    st.error(f"{prefix}{exc}", icon=":material/error:")


@contextmanager
def guarded(prefix: str = "") -> Iterator[None]:
    """Run a block; a BadInput inside it becomes an inline error and the page goes on."""
    try:
        yield
    except BadInput as exc:
        show_bad_input(exc, prefix)


# ----------------------------------------------------------------------------- JSON files

def json_upload(label: str, key: str, loader: Callable[[Any], Any], help: str | None = None) -> Any | None:
    """A JSON file uploader validated by ``loader`` (one of the solver's loaders).

    Returns the loaded object exactly once per newly uploaded file; the caller stores it. A file
    that is too large, not JSON, or refused by the loader gives an inline error and returns None,
    so nothing on the page changes.
    """
    up = st.file_uploader(label, type=["json"], key=f"{key}__uploader", help=help)
    err_key, seen_key, done_key = f"{key}__error", f"{key}__seen", f"{key}__loaded"
    if up is None:
        for k in (err_key, seen_key, done_key):
            st.session_state.pop(k, None)
        return None
    token = f"{up.file_id}:{up.size}"
    if st.session_state.get(seen_key) == token:
        # the same file on a later run (callers often rerun after a load): its message stays in view
        if st.session_state.get(err_key):
            st.error(st.session_state[err_key], icon=":material/error:")
        elif st.session_state.get(done_key):
            st.success(st.session_state[done_key], icon=":material/check:")
        return None
    st.session_state[seen_key] = token
    try:
        if up.size > MAX_BYTES:
            raise BadInput(f"file too large ({up.size} bytes; limit {MAX_BYTES})")
        obj = loader(parse_json_text(up.getvalue(), up.name))
    except (BadInput, TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
        # anything a loader refuses, or trips over, is a refused file: one line, nothing changes
        msg = f"{up.name} was not loaded: {exc}"
        st.session_state.pop(done_key, None)
        st.session_state[err_key] = msg
        st.error(msg, icon=":material/error:")
        return None
    st.session_state.pop(err_key, None)
    st.session_state[done_key] = f"Loaded {up.name}."
    st.success(st.session_state[done_key], icon=":material/check:")
    return obj


def kept(draw: Callable[..., Any], key: str, default: Any, *args: Any, **kwargs: Any) -> Any:
    """``draw(*args, key=key, **kwargs)`` (a widget function, given no default of its own) showing its last
    value in this session, else ``default``; returns the value. Streamlit forgets a widget's value after a
    run that does not draw it (another page, a panel hidden for a step), and the widget would come back at
    its default: the value is also kept under ``key + "__kept"``."""
    if key not in st.session_state:
        st.session_state[key] = st.session_state.get(f"{key}__kept", default)
    draw(*args, key=key, **kwargs)
    st.session_state[f"{key}__kept"] = st.session_state[key]
    return st.session_state[key]


def kept_tabs(labels: list[str], key: str, query: str = "tab") -> Any:
    """``st.tabs`` whose open tab survives a reload (the address holds it, ``?<query>=label``) and a visit to
    another page (kept like :func:`kept`); the first tab leaves the address clean. ``key`` is the page's own
    (the session is shared by every page), ``query`` the address's name (each page has its own address)."""
    ss = st.session_state
    # the tab open now: the one clicked, else kept in the session (a page visit), else the address (a reload);
    # passed as the default every run, so the widget never falls back to the first tab on its own
    open_tab = ss.get(key) or ss.get(f"{key}__kept") or st.query_params.get(query)
    open_tab = open_tab if open_tab in labels else labels[0]
    tabs = st.tabs(labels, key=key, on_change="rerun", default=open_tab)
    ss[f"{key}__kept"] = open_tab
    if open_tab in labels[1:]:  # kept by hand, not bound: a bound one was dropped when other parameters changed
        if st.query_params.get(query) != open_tab:
            st.query_params[query] = open_tab
    elif query in st.query_params:
        del st.query_params[query]
    return tabs


def json_download(label: str, data: Any, file_name: str, key: str) -> None:
    """A download button for a contracts.md JSON document."""
    st.download_button(label, json.dumps(data, indent=1), file_name=file_name,
                       mime="application/json", key=key, icon=":material/download:")


def dumps(data: Any) -> str:
    """Canonical JSON text: the cache key of an input."""
    return json.dumps(data, sort_keys=True, default=_default)


def _default(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj):
        return dataclasses.asdict(obj)
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    return str(obj)


# ----------------------------------------------------------------------------- rules readings

def readings(game: str) -> dict[str, Any]:
    """This session's chosen readings for ``game``: {Rules field name: value} (empty = defaults)."""
    return st.session_state.setdefault("readings", {}).setdefault(game, {})


def rules_doc(rules: Any) -> dict:
    """A game's ``Rules`` options as the engine writes them in JSON."""
    return rules.to_json() if isinstance(rules, outlaws_rules.Rules) else rules.to_dict()


def rules_from_doc(game: str, doc: dict) -> Any:
    """A game's ``Rules`` options from (part of) :func:`rules_doc`'s JSON, checked by the engine (BadInput)."""
    if not isinstance(doc, dict):
        raise BadInput("rules: expected an object")
    if game == "wagons":
        return wagons_rules.Rules.from_dict(doc)
    return cactus_rules.rules_from(doc) if game == "cactus" else outlaws_rules.Rules.from_json(doc)


READINGS_QUERY = "readings"


def readings_to_address() -> None:
    """The readings chosen this session (those not at their default) kept in the page's address, so a reload
    or a bookmark keeps them (``?readings=``, :mod:`dashboard.shared.urlstate`); nothing when all are defaults."""
    from dashboard.shared import urlstate

    doc = {}
    for game, cls in RULES.items():
        if readings(game):
            full, default = rules_doc(make_rules(game, cls)), rules_doc(cls())
            diff = {k: v for k, v in full.items() if v != default.get(k)}
            if diff:
                doc[game] = diff
    text = urlstate.encode(doc) if doc else None
    if text is None:
        if READINGS_QUERY in st.query_params:
            del st.query_params[READINGS_QUERY]
    elif st.query_params.get(READINGS_QUERY) != text:
        st.query_params[READINGS_QUERY] = text


def readings_from_address() -> str | None:
    """On a new session, the readings kept in the address (each game's checked by its engine); the
    one-line reason when they cannot be used (the session then starts at the defaults)."""
    from dashboard.shared import urlstate

    text = st.query_params.get(READINGS_QUERY)
    if "readings" in st.session_state or not text:
        return None
    try:
        doc = urlstate.decode(text, "the readings in the address")
        chosen = {}
        for game, part in doc.items():
            if game not in RULES:
                raise BadInput(f"the readings in the address name an unknown game '{game}'")
            rules = rules_from_doc(game, part)
            chosen[game] = {k: getattr(rules, k) for k in part}
    except (BadInput, TypeError, ValueError) as exc:
        return f"The readings in the address were not used: {exc}"
    st.session_state["readings"] = chosen
    return None


def make_rules(game: str, rules_cls: type) -> Any:
    """The engine's ``Rules`` options with this session's readings applied (defaults otherwise)."""
    names = {f.name for f in dataclasses.fields(rules_cls)}
    chosen = {k: v for k, v in readings(game).items() if k in names}
    try:
        return rules_cls(**chosen)
    except (TypeError, ValueError, BadInput):
        return rules_cls()


def option_choices(rules_cls: type, name: str) -> list[Any] | None:
    """The values a ``Rules`` field can take, read from its type (bool, Enum, Literal), else None."""
    try:
        tp = typing.get_type_hints(rules_cls).get(name)
    except Exception:  # unresolvable annotation: no known choices
        return None
    if tp is bool:
        return [False, True]
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return list(tp)
    if typing.get_origin(tp) is typing.Literal:
        return list(typing.get_args(tp))
    return None


def describe_choice(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


def changed_readings(game: str, rules_cls: type) -> list[str]:
    """``name=value`` of each reading in force this session that differs from the default."""
    current, default = make_rules(game, rules_cls), rules_cls()
    return [f"{f.name}={describe_choice(getattr(current, f.name))}" for f in dataclasses.fields(rules_cls)
            if getattr(current, f.name) != getattr(default, f.name)]


def rules_summary(game: str, rules_cls: type) -> str:
    """One line naming the readings in force that differ from the defaults."""
    diff = changed_readings(game, rules_cls)
    return ("Readings changed for this session (the Verification page lists them all): " + ", ".join(diff) + ".") if diff \
        else "Default readings of every open question (change them on the Verification page)."


# ----------------------------------------------------------------------------- long work

STOP_GRACE_SECONDS = 5.0
"""How long a stopped run may take to hand over its best so far (the optimizer ends within a second)."""


class Stopped(Exception):
    """Raised inside a run's own progress callback once the page asked it to stop (:func:`run_with_progress`)."""


def run_with_progress(fn: Callable[..., Any], *args: Any, label: str, expected_seconds: float,
                      detail: Callable[[], str] | None = None, fraction: Callable[[], float | None] | None = None,
                      cancel: StopSignal | None = None, keep: Keeper | None = None,
                      **kwargs: Any) -> Any:
    """Run ``fn`` in a worker thread while a progress bar counts toward ``expected_seconds``.

    The page keeps drawing while the work runs; exceptions (BadInput included) are re-raised
    here. ``fn`` may be an ``st.cache_data`` function: the worker carries the script's context,
    so a cached input returns at once. ``detail()`` (if given) adds the work's own progress report
    (e.g. the best score so far) to the bar's text; it must only read plain data. ``fraction()`` (if
    given) is the share done, which then drives the bar and an estimate of the time left.

    With ``cancel`` (a fresh :class:`~solver.stopping.StopSignal`), a **Stop** button is
    shown, the work runs under it (``stopping``), and it is set when the page's run ends before the work
    does: Stop pressed, another widget used, the session closed. So nothing keeps computing for a page no
    one is looking at: the optimizer ends as at its time limit, other work reads ``stopped()`` in its own
    progress callback and raises :class:`Stopped`. With ``keep`` as well (a :class:`Keeper`,
    from :func:`keep_stopped`), the work gets :data:`STOP_GRACE_SECONDS` to end and what it returned (the
    optimizer's best so far) is handed to the page's next run, which waits for it.
    """
    from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx

    box: dict[str, Any] = {}

    def work() -> None:
        try:
            with stopping(cancel):
                box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # re-raised in the page's thread
            box["error"] = exc

    worker = threading.Thread(target=work, daemon=True)
    ctx = get_script_run_ctx()
    if ctx is not None:
        add_script_run_ctx(worker, ctx)
    worker.start()
    bar = st.progress(0.0, text=label)
    stop = st.empty()
    if cancel is not None:
        stop.button("Stop", key=f"stop_{label}", icon=":material/stop_circle:",
                    help="Stop this run and show the best found so far" if keep is not None
                    else "Stop this run (what it found so far is not kept)")
    start = time.monotonic()
    if keep is not None:
        keep.begin()  # from here the session's next run waits for this one's hand-over (Handover.take)
    handed: list = []
    try:
        while worker.is_alive():
            worker.join(0.15)
            bar.progress(*_progress(label, time.monotonic() - start, expected_seconds, detail, fraction))
    finally:  # the page's run ended first (Stop, another widget, the session closed): ask the work to stop
        if cancel is not None and worker.is_alive():
            cancel.set()
            if keep is not None:
                worker.join(STOP_GRACE_SECONDS)
                if not worker.is_alive() and "value" in box:
                    handed.append(box["value"])
        if keep is not None:
            keep.end(*handed)
    bar.empty()
    stop.empty()
    if "error" in box:
        raise box["error"]
    return box.get("value")


STOPPED_INBOX = "_stopped_results"
"""Session key of the session's :class:`Handover`."""


class Handover:
    """The results of a session's stopped runs, for its next run.

    When a page's run is stopped, Streamlit refuses every ``st`` call in it (writing ``st.session_state``
    included) and may start the next run at once, on another thread, while the stopped one still waits for
    its work's best so far. So a run that may hand over a result says so first (:meth:`Keeper.begin`), puts
    the result in this plain object, and the next run waits for it (:meth:`take`, from
    :func:`deliver_stopped`)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._pending = 0
        self._results: dict[str, Any] = {}

    def keeper(self, name: str, shape: Callable[[Any], Any]) -> Keeper:
        return Keeper(self, name, shape)

    def _begin(self) -> None:
        with self._cond:
            self._pending += 1

    def _end(self, name: str, value: tuple) -> None:
        """A run that began a hand-over is over; ``value`` is ``(result,)`` when it hands one over under ``name``."""
        with self._cond:
            if value:
                self._results[name] = value[0]
            self._pending -= 1
            self._cond.notify_all()

    def take(self, timeout: float) -> dict[str, Any]:
        """The results handed over, once no run is still handing one over (at most ``timeout`` s)."""
        with self._cond:
            self._cond.wait_for(lambda: self._pending == 0, timeout)
            out, self._results = self._results, {}
            return out


@dataclasses.dataclass(frozen=True)
class Keeper:
    """``keep`` of :func:`run_with_progress`: one run's hand-over of its result under ``name`` (as ``shape(value)``)."""

    handover: Handover
    name: str
    shape: Callable[[Any], Any]

    def begin(self) -> None:
        self.handover._begin()

    def end(self, *value: Any) -> None:
        """The run is over: with ``value``, it was stopped and this is what its work returned."""
        self.handover._end(self.name, tuple(self.shape(v) for v in value))


def keep_stopped(name: str, inputs: Any = None, shape: Callable[[Any], Any] | None = None) -> Keeper:
    """``keep`` for :func:`run_with_progress`: a stopped run's result (a dict, marked ``stopped_early``) to be
    ``st.session_state[name] = (inputs, result)`` from the next run on, where the page keeps a finished run's
    (``shape(result)`` instead, when given); it travels through the session's :class:`Handover`."""
    handover = st.session_state.setdefault(STOPPED_INBOX, Handover())
    return handover.keeper(name, shape or (lambda value: (inputs, {**value, "stopped_early": True}
                                                          if isinstance(value, dict) else value)))


def deliver_stopped() -> None:
    """Put the results of runs stopped in an earlier run where their pages read them (app.py, every run)."""
    handover = st.session_state.get(STOPPED_INBOX)
    if handover is not None:
        for name, value in handover.take(STOP_GRACE_SECONDS + 1.0).items():
            st.session_state[name] = value


def stopped_note(result: dict) -> None:
    """The line under a result the user stopped (:func:`keep_stopped`), else nothing."""
    if result.get("stopped_early"):
        st.caption(f"You stopped this search after {result.get('elapsed', 0):.0f} s: this is what it had found by "
                   "then.")


def _progress(label: str, elapsed: float, expected: float, detail, fraction) -> tuple[float, str]:
    """The bar's share and text: the work's own share done and time left when it reports one, else the
    time against the expected time (and plainly so once the run takes longer than expected)."""
    extra = f" - {detail()}" if detail is not None and detail() else ""
    done = fraction() if fraction is not None else None
    if done:
        left = elapsed * (1 - done) / done
        return min(0.99, done), f"{label} ({elapsed:.0f} s, about {left:.0f} s left){extra}"
    if fraction is not None:  # the work reports its share, just not yet: no promise from a fixed guess
        return 0.0, f"{label} ({elapsed:.1f} s){extra}"
    if elapsed > expected:
        return 0.99, f"{label} ({elapsed:.0f} s, longer than the ~{expected:.0f} s expected){extra}"
    return min(0.99, elapsed / max(expected, 0.1)), f"{label} ({elapsed:.1f} s of at most ~{expected:.0f} s){extra}"


def page_header(name: str) -> None:
    """Title and one-line purpose of the page ``name`` (from :data:`dashboard.nav.PAGES`)."""
    from dashboard.nav import page

    info = page(name)
    st.title(info.title)
    st.caption(info.what)


# ----------------------------------------------------------------------------- Rules classes

RULES: dict[str, type] = {g.id: g.rules for g in GAMES}
"""Each game's frozen readings dataclass (its ``Rules``)."""

def rules_class(game: str) -> type:
    """The engine's frozen ``Rules`` options dataclass for ``game``."""
    return RULES[game]


def field_choices(rules_cls: type, name: str) -> list[Any] | None:
    """Allowed values of a ``Rules`` field: the readings' listed values (``solver.readings``: the
    engine's ``CHOICES``, both booleans, a numeric parameter's list), else from its type."""
    for game, cls in RULES.items():
        if cls is rules_cls:
            for r in rd.game_readings(game):
                if r.name == name and r.values:
                    return list(r.values)
    return option_choices(rules_cls, name)


def choice_description(game: str, name: str, value: Any) -> str:
    """The register's one line on ``name = value`` (solver.readings.describe), or empty."""
    try:
        return rd.describe(game, name, value, limit=600)
    except (BadInput, AttributeError, KeyError):
        return ""


def option_widget(game: str, rules_cls: type, name: str, key_prefix: str, label: str | None = None,
                  describe: bool = True) -> None:
    """One select box for one ``Rules`` field, over its listed values, each with the register's one-line
    description (readings are chosen, never typed); a valid change is stored in this session's
    readings (shared by every page), an invalid combination is refused inline by the engine.

    The box follows the readings: when they changed elsewhere (another box for the same reading, a reset),
    its value is set before it is drawn, since the browser would send back its old value otherwise."""
    current = make_rules(game, rules_cls)
    value, default = getattr(current, name), getattr(rules_cls(), name)
    choices = field_choices(rules_cls, name)
    label = label or reading_label(game, name)
    key = f"{key_prefix}_{game}_{name}"
    if not choices:
        st.error(f"{name}: this reading has no listed alternatives to choose from", icon=":material/error:")
        return

    def fmt(v: Any) -> str:  # short, so the closed box shows it whole; the lines are below and in the help
        return describe_choice(v) + (" (default)" if v == default else "")

    shown = value if value in choices else choices[0]
    if st.session_state.get(key) != shown:
        st.session_state[key] = shown
    st.selectbox(label, choices, format_func=fmt, key=key, on_change=_choose_reading,
                 args=(game, rules_cls, name, key),
                 help="  \n".join(f"**{fmt(v)}**: {choice_line(game, name, v)}" for v in choices))
    line = choice_line(game, name, st.session_state[key]) if describe else ""
    if line:
        st.caption(line)
    refused = st.session_state.pop(f"{key}__refused", None)
    if refused:
        st.error(refused, icon=":material/error:")


def choice_line(game: str, name: str, value: Any) -> str:
    """The register's line on one choice, without the value repeated in front of it."""
    line = choice_description(game, name, value)
    head = f"{describe_choice(value)}:"  # (the register's whole sentence: choice_description reads it uncut)
    line = line[len(head):].strip() if line.startswith(head) else line
    return "" if line == name else line  # the register says nothing on it: no line rather than the bare name


def reading_label(game: str, name: str) -> str:
    """A reading's box label in words: the register's title of the rule the option belongs to
    (:func:`solver.readings.option_rules`) and its id, then the option's name as the CLI spells it."""
    from solver.readings import option_rules

    own = option_rules(game, name)
    title = f"{own[0].title} ({own[0].id})" if own else name.replace("_", " ").capitalize()
    return f"{title} · `{name}`"


def _choose_reading(game: str, rules_cls: type, name: str, key: str) -> None:
    """The select box's change (a callback, before the rerun): stored in the readings when the engine
    accepts the combination; otherwise refused inline and the box put back on the reading in force."""
    new = st.session_state[key]
    names = {f.name for f in dataclasses.fields(rules_cls)}
    trial = {k: v for k, v in (dict(readings(game)) | {name: new}).items() if k in names}
    try:
        rules_cls(**trial)
    except (BadInput, TypeError, ValueError) as exc:
        st.session_state[f"{key}__refused"] = f"{name}: {exc}"
        st.session_state[key] = getattr(make_rules(game, rules_cls), name)
        return
    readings(game)[name] = new
