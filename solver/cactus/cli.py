"""`ruleslinger cactus ...` commands (contracts.md)."""

from solver import clikit


def register(games) -> None:
    clikit.add_group(games, "cactus", "Cactus Town: The Lone Ranger")
