"""`ruleslinger outlaws ...` commands (contracts.md)."""

from solver import clikit


def register(games) -> None:
    clikit.add_group(games, "outlaws", "Outlaws: Last Man Standing")
