"""The ``ruleslinger`` command (contracts.md): one subcommand group per game.

Each game's ``solver/<game>/cli.py`` exposes ``add_commands(subparsers)`` and adds its leaf commands
with :func:`solver.clikit.add_command`. A leaf handler takes the parsed arguments and returns a
JSON-serialisable dict; ``--json`` prints it as one JSON document, otherwise the leaf's text
renderer (or a plain key: value listing) is used. Bad input -> one line on stderr, exit 2.
"""

from __future__ import annotations

import functools
import sys

from solver import clikit, deps
from solver.errors import BadInput, one_line


def build_parser() -> clikit.Parser:
    from solver import register as rules_register
    from solver import registry

    parser = clikit.Parser(
        prog="ruleslinger",
        description="Rules verification and scoring for Circle the Wagons: Lone Cowboy, "
        "Cactus Town: The Lone Ranger and Outlaws: Last Man Standing.",
    )
    parser.add_argument("--version", action="version", version=f"ruleslinger {_version()}")
    games = parser.add_subparsers(dest="game", metavar="GAME", parser_class=clikit.Parser)
    games.required = True
    for game in registry.GAMES:  # each game's own group (its registration's add_commands)
        game.add_commands(games)
    rules_register.add_commands(games)
    from solver.readings import cli as readings_cli  # ruleslinger readings impact|verdicts|options GAME
    readings_cli.add_commands(games)
    from solver.execution import batches  # ruleslinger batch KIND (solver/execution/batches.py)
    batches.add_commands(games)
    from solver.ask import cli as ask_cli  # ruleslinger ask QUESTION.toml (solver/ask/cli.py)
    ask_cli.add_commands(games)
    return clikit.bound_numbers(parser)


def _version() -> str:
    from solver import __version__

    return __version__


@functools.lru_cache(maxsize=1)
def _parser() -> clikit.Parser:
    """The command tree, built once per process: parsing does not change it, and the in-process callers (the
    notebooks, the tests' fuzzers) call :func:`main` thousands of times."""
    return build_parser()


def main(argv: list[str] | None = None) -> int:
    try:
        deps.check()
        args = _parser().parse_args(argv)
        return clikit.run(args)
    except clikit.UsageError as exc:
        print(f"ruleslinger: error: {one_line(exc)}", file=sys.stderr)
        return 2
    except BadInput as exc:
        print(f"ruleslinger: error: {exc}", file=sys.stderr)
        return 2
    except deps.MissingDependency as exc:
        print(f"ruleslinger: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("ruleslinger: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
