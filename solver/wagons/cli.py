"""`ruleslinger wagons ...` commands (contracts.md)."""

from solver import clikit


def register(games) -> None:
    clikit.add_group(games, "wagons", "Circle the Wagons: Lone Cowboy")
