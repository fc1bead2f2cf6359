"""Small helpers shared by the game CLIs: argparse with one-line errors, ``--json``, progress,
bounded number types for every option and checked output files (rule:X-bad-input).

Argparse (standard library) is enough for this command tree; its only flaw for the contract is
the multi-line usage dump on errors, which :class:`Parser` replaces with one line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from solver.errors import BadInput
from solver.execution.progress import Progress
from solver.io.numbers import MAX_SEED, parse_float_text, parse_int_text, seconds, short_repr
from solver.io.output import is_sink, output_target, write_atomically


class UsageError(Exception):
    """A command-line usage mistake (unknown option, missing argument): exit 2, one line."""


class Parser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one line (contracts.md) instead of usage + message."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message} (see --help)")


Handler = Callable[[argparse.Namespace], dict]
Renderer = Callable[[dict], str]


def add_command(
    subparsers: argparse._SubParsersAction,
    name: str,
    help: str,
    handler: Handler,
    render: Renderer | None = None,
    description: str | None = None,
) -> Parser:
    """Add a leaf command with ``--json``; returns its parser so the caller adds arguments."""
    p = subparsers.add_parser(name, help=help, description=description or help)
    p.add_argument("--json", action="store_true", help="print one JSON document on standard output")
    p.set_defaults(_handler=handler, _render=render, _parser=p)
    return p


def add_group(subparsers: argparse._SubParsersAction, name: str, help: str) -> argparse._SubParsersAction:
    """Add a command group (``ruleslinger wagons ...``) and return its subparsers."""
    p = subparsers.add_parser(name, help=help, description=help)
    sub = p.add_subparsers(dest=f"{name}_command", metavar="COMMAND", parser_class=Parser)
    sub.required = True
    return sub


def run(args: argparse.Namespace) -> int:
    handler = getattr(args, "_handler", None)
    if handler is None:
        raise UsageError("no command given (see --help)")
    check_output_files(args)
    result = handler(args)
    if getattr(args, "json", False):
        sys.stdout.write(json.dumps(result, sort_keys=False) + "\n")
    else:
        render = getattr(args, "_render", None) or render_plain
        sys.stdout.write(render(result).rstrip("\n") + "\n")
    return 0


def render_plain(result: Any, indent: int = 0) -> str:
    """A readable key: value listing of a JSON-like result (the default text output)."""
    pad = "  " * indent
    lines: list[str] = []
    if isinstance(result, dict):
        for key, value in result.items():
            if isinstance(value, (dict, list)) and value:
                lines.append(f"{pad}{key}:")
                lines.append(render_plain(value, indent + 1))
            else:
                lines.append(f"{pad}{key}: {_scalar(value)}")
    elif isinstance(result, list):
        for item in result:
            if isinstance(item, (dict, list)):
                lines.append(f"{pad}-")
                lines.append(render_plain(item, indent + 1))
            else:
                lines.append(f"{pad}- {_scalar(item)}")
    else:
        lines.append(f"{pad}{_scalar(result)}")
    return "\n".join(lines)


def _scalar(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return str(value)


def int_list(text: str, what: str = "list") -> list[int]:
    """Parse ``3,7,11`` into integers; a BadInput names the bad item."""
    items = [t.strip() for t in str(text).split(",") if t.strip() != ""]
    if len(items) > 1000:
        raise BadInput(f"{what}: {len(items)} items (at most 1000)")
    return [parse_int_text(t, what) for t in items]


class ProgressLines:
    """The command line's progress adapter, an :data:`~solver.execution.progress.OnProgress`: each report as a line
    ``[label] 3 of 12 checks, ... (1.2s)`` on standard error (so standard output stays the answer, one JSON document
    with ``--json``), at most one per ``every`` seconds unless it is the last of a count or a proven search; silent
    when ``quiet``. The time is the command's own clock."""

    def __init__(self, label: str, quiet: bool = False, every: float = 1.0):
        self.label, self.quiet, self.every = label, quiet, every
        self._last = 0.0
        self.start = time.monotonic()

    def __call__(self, report: Progress) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        last = report.done is not None and report.total is not None and report.done >= report.total
        if now - self._last < self.every and not (last or report.proven):
            return
        self._last = now
        text = report.text()
        print(f"[{self.label}] {text + ' ' if text else ''}({now - self.start:.1f}s)", file=sys.stderr, flush=True)


def add_quiet(parser: argparse.ArgumentParser) -> None:
    """``--quiet`` for a command that shows :class:`ProgressLines`: its lines go to standard error, with ``--json`` too
    (standard output stays one JSON document), unless ``--quiet``."""
    parser.add_argument("--quiet", action="store_true", help="no progress lines on standard error (they are shown "
                        "with --json too)")


def _argument_type(parse, text: str, *bounds):
    try:
        return parse(text, "value", *bounds)
    except BadInput as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("value: ")) from None


def seed_int(text: str) -> int:
    """argparse ``type=`` for a seed: a whole number 0..2**63-1 (else a one-line usage error)."""
    return _argument_type(parse_int_text, text, 0, MAX_SEED)


def whole_number(text: str) -> int:
    """argparse ``type=`` for every integer option: at most 40 characters, within the 64-bit range."""
    return _argument_type(parse_int_text, text)


def real_number(text: str) -> float:
    """argparse ``type=`` for every decimal option: bounded text, finite (no nan/inf)."""
    return _argument_type(parse_float_text, text)


def time_limit(text: str) -> float:
    """argparse ``type=`` of every ``--time-limit``: seconds in (0, 86400] (:func:`solver.io.numbers.seconds`)."""
    try:
        return seconds(text, "time limit")
    except BadInput as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def bound_numbers(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Give every ``type=int`` / ``type=float`` option of the command tree the bounded parsers of
    :mod:`solver.io`, and every ``--time-limit`` the one time-limit parser (one parsing layer for every command,
    present and future)."""
    for action in parser._actions:
        if action.dest == "time_limit" and action.type in (None, float, str):
            action.type = time_limit
        elif action.type is int:
            action.type = whole_number
        elif action.type is float:
            action.type = real_number
        if isinstance(action, argparse._SubParsersAction):
            for child in set(action.choices.values()):
                bound_numbers(child)
    return parser


def is_output(dest: str) -> bool:
    """The one rule that names a command's output files: an option ``--out`` or ``--SOMETHING-out`` (its
    ``dest`` ``out`` or ``*_out``). :func:`run` checks each before the command starts."""
    return dest == "out" or dest.endswith("_out")


def output_file(path: str, flag: str = "--out") -> Path:
    """Check an output path before anything runs (:func:`solver.io.output.output_target`): the file it writes."""
    return output_target(path, flag)


def check_output_files(args: argparse.Namespace) -> None:
    """Every output file of a command (:func:`is_output`) checked before anything runs (rule:X-bad-input: a
    folder that takes no file, a device, a missing folder: refused at once, not after the run), and none
    of them a file the command reads or writes twice: each is compared with every other argument of the
    command that names an existing file (the same file by any path: a link, a hard link, ``./``), so no
    command writes over its own input."""
    arguments = _arguments(args)
    seen: dict[Path, str] = {}
    for flag, value in arguments:
        if not flag.startswith("--") or not is_output(flag[2:].replace("-", "_")) or not isinstance(value, str):
            continue
        target = output_file(value, flag)
        if is_sink(target):
            continue
        for other, text in arguments:
            if other != flag and isinstance(text, str) and _same_file(text, target):
                raise BadInput(f"{flag} {short_repr(value)}: is also read by this command ({other}); "
                               "write to another file")
        if target in seen:
            raise BadInput(f"{flag} {short_repr(value)}: is also written by {seen[target]}; give each its own file")
        seen[target] = flag


def _arguments(args: argparse.Namespace) -> list[tuple[str, Any]]:
    """(name, value) of each value given to the command's own arguments (its parser's, :func:`add_command`): an
    option by its long name, a positional argument by its metavar; a repeated option once per value."""
    parser = getattr(args, "_parser", None)
    actions = [a for a in getattr(parser, "_actions", ()) if a.dest != argparse.SUPPRESS]
    out = []
    for action in actions:
        value = getattr(args, action.dest, None)
        name = action.option_strings[-1] if action.option_strings else str(action.metavar or action.dest)
        out += [(name, v) for v in (value if isinstance(value, list) else [value]) if v is not None]
    return out


def _same_file(text: str, target: Path) -> bool:
    try:
        return os.path.exists(target) and os.path.exists(text) and os.path.samefile(text, target)
    except (OSError, ValueError):  # a NUL character, a name too long: not a file this command reads
        return False


def write_table(frame, path: str) -> None:
    """Write a Polars frame as Parquet (``.parquet``) or CSV, atomically: all or nothing."""
    parquet = Path(path).suffix == ".parquet"
    write_atomically(path, lambda tmp: frame.write_parquet(tmp) if parquet else frame.write_csv(tmp))
