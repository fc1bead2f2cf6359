"""The names of the three Outlaws victories, in one place (rule:O-victory-good, rule:O-victory-bad,
rule:O-victory-ugly): the value a position and ``outlaws status --json`` carry (docs/contracts.md), the Italian
rulebook's name, the English edition's name, the literal sense of the Italian, and what wins it. Every text
that names a victory to a player (the CLI, the line's outcome texts, the search's reasons, the dashboard) reads
:data:`WAYS_TO_WIN`; docs/outlaws.md explains the names.

The Italian text ("Vincere la partita"): "Con le Buone Il tuo Governatore si rivela e prende il gettone
Elezione." "Con le Brutte Il tuo Sicario riesce ad assassinare il Governatore dell'avversario." "Con le
Cattive Il tuo Sceriffo riesce ad arrestare il Sicario dell'avversario." Literally brutte is ugly and cattive
is bad; the English edition names the Hitman's victory the Bad way and the Sheriff's the Ugly way (its
publisher's campaign page and the game's English descriptions, register O-victory-bad / O-victory-ugly), and
the values follow the English edition's names.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Way", "Victory", "WAYS_TO_WIN", "VICTORY_BY_VALUE", "VICTORY_VALUES", "victory_name",
           "victory_words", "sudden_death_victories", "WHY_THE_NAMES"]


class Way(StrEnum):
    """The value of a victory, as a position's ``victory`` and the contracts' JSON carry it ("good", "bad", "ugly":
    the English edition's names in lower case); a ``Way`` is equal to its string value."""

    GOOD = "good"
    BAD = "bad"
    UGLY = "ugly"


@dataclass(frozen=True)
class Victory:
    """One way to win. ``value``: the position's ``victory`` and the contracts' JSON value; ``italian``: the
    Italian rulebook's name ("Vincere la partita"); ``english``: the English edition's name ("the Good Way,
    the Bad Way or the Ugly Way", the publisher's campaign page; register O-victory-*), which for the
    Hitman's and the Sheriff's victories is not the literal translation (``literal``); ``how``: what wins it;
    ``after_sudden_death``: it can still be won once sudden death has begun (rule:O11)."""

    value: Way
    italian: str
    english: str
    literal: str
    how: str
    rule: str
    after_sudden_death: bool
    passage: str = ""  # the Italian rulebook's sentence ("Vincere la partita")
    passage_english: str = ""  # that sentence in English, word for word

    @property
    def name(self) -> str:
        """The name shown to a player: "Con le Brutte (the Bad way)"."""
        return f"{self.italian} (the {self.english} way)"

    @property
    def words(self) -> str:
        """The name and what won it: "Con le Brutte (the Bad way): the Hitman assassinates the Governor"."""
        return f"{self.name}: {self.how}"


WAYS_TO_WIN = (
    Victory(Way.GOOD, "Con le Buone", "Good", "with the good (means)", "the Governor takes the Election token",
            "O-victory-good", False, "Con le Buone Il tuo Governatore si rivela e prende il gettone Elezione.",
            "With the good (means): your Governor reveals himself and takes the Election token."),
    Victory(Way.BAD, "Con le Brutte", "Bad", "with the ugly (means)", "the Hitman assassinates the opposing Governor",
            "O-victory-bad", True, "Con le Brutte Il tuo Sicario riesce ad assassinare il Governatore dell'avversario.",
            "With the ugly (means): your Hitman succeeds in assassinating your opponent's Governor."),
    Victory(Way.UGLY, "Con le Cattive", "Ugly", "with the bad (means)", "the Sheriff arrests the opposing Hitman",
            "O-victory-ugly", True, "Con le Cattive Il tuo Sceriffo riesce ad arrestare il Sicario dell'avversario.",
            "With the bad (means): your Sheriff succeeds in arresting your opponent's Hitman."),
)
"""The three victories (rule:O-victory-good, rule:O-victory-bad, rule:O-victory-ugly), in the rulebook's order.
The values are the English edition's names, lower case; the Italian text names the Hitman's victory "Con le
Brutte" (brutte: ugly) and the Sheriff's "Con le Cattive" (cattive: bad), the English edition "Bad" and "Ugly"."""

VICTORY_BY_VALUE = {v.value: v for v in WAYS_TO_WIN}
VICTORY_VALUES = tuple(v.value for v in WAYS_TO_WIN)
"""The values a position's ``victory`` may take ("good", "bad", "ugly")."""


def victory_name(value: str | None) -> str:
    """The player-facing name of a victory value ("bad" -> "Con le Brutte (the Bad way)"); None: "no victory"."""
    if value is None:
        return "no victory"
    v = VICTORY_BY_VALUE.get(value)
    return v.name if v is not None else str(value)


def victory_words(value: str | None) -> str:
    """The name and what won it ("Con le Brutte (the Bad way): the Hitman assassinates the opposing Governor")."""
    v = VICTORY_BY_VALUE.get(value) if value is not None else None
    return v.words if v is not None else victory_name(value)


WHY_THE_NAMES = ("Literally *brutte* is \"ugly\" and *cattive* \"bad\": the Italian edition uses the idiom \"con le "
                 "buone o con le cattive\" (by fair means or foul), while the English edition names the three "
                 "victories in the film title's order, Good, Bad, Ugly, for the election, the assassination and the "
                 "arrest (its publisher's campaign page: \"Undo your rivals the Good Way, the Bad Way or the Ugly "
                 "Way!\", then the election, the Hitman's shot and the Sheriff's arrest in that order). So Con le "
                 "Brutte, the Hitman's victory, is the Bad way, and Con le Cattive, the Sheriff's, the Ugly way.")
"""Why the Hitman's victory is the Bad way and the Sheriff's the Ugly way (rule:O-victory-bad, rule:O-victory-ugly;
docs/outlaws.md, "The three victories")."""


def sudden_death_victories() -> str:
    """The victories sudden death leaves (rule:O11): "Con le Brutte (the Bad way) and Con le Cattive (the Ugly way)"."""
    return " and ".join(v.name for v in WAYS_TO_WIN if v.after_sudden_death)
