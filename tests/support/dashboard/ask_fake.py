"""A small made-up question domain for the page's own tests: pairs of dice faces, with their sum, whether they are a
double and the sum's parity. Registered for a test by :func:`registered` (added to the game's ``questions`` for the
test's duration), so the page's builder is tested on every widget kind without depending on a game's own domains."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

from solver import registry
from solver.ask.model import DomainKind, Measure, Param
from solver.errors import BadInput

MEASURES = {m.name: m for m in (
    Measure("pair.sum", "the sum of the two faces", "number", "rule:X-bad-input", low=2, high=12),
    Measure("pair.double", "the two faces are the same", "yes/no", "rule:X-bad-input"),
    Measure("pair.parity", "the sum's parity", "choice", "rule:X-bad-input", choices=("even", "odd")),
    Measure("pair.first", "the first face", "number", "rule:X-bad-input", low=1, high=6),
)}


@dataclasses.dataclass(frozen=True)
class Pairs:
    """Every ordered pair of faces 1..``faces``, leaving out the ``banned`` faces; chance when ``weighting`` is
    ``fair``."""

    faces: int
    banned: tuple[int, ...]
    weighting: str
    noun: str = "pair"

    @property
    def chance(self) -> bool:
        return self.weighting == "fair"

    @property
    def description(self) -> str:
        return f"pairs of faces 1 to {self.faces}"

    def _faces(self) -> list[int]:
        return [f for f in range(1, self.faces + 1) if f not in self.banned]

    def size(self) -> int:
        return len(self._faces()) ** 2

    def measures(self) -> Mapping[str, Measure]:
        return MEASURES

    def elements(self) -> Iterator[tuple[Fraction, Any]]:
        faces = self._faces()
        w = Fraction(1, len(faces) ** 2) if self.chance else Fraction(1)
        for a in faces:
            for b in faces:
                yield w, (a, b)

    def values(self, element: Any, names: frozenset[str]) -> Mapping[str, Any]:
        a, b = element
        return {"pair.sum": a + b, "pair.double": a == b, "pair.parity": "even" if (a + b) % 2 == 0 else "odd",
                "pair.first": a}

    def witness(self, element: Any) -> dict:
        return {"rounds": [{"card": element[0]}, {"card": element[1]}]}


def _build(params: Mapping[str, Any], _readings: Any) -> Pairs:
    faces = params["faces"]
    if not isinstance(faces, int) or not 1 <= faces <= 6:
        raise BadInput("faces: expected 1 to 6")
    return Pairs(faces, tuple(params.get("banned") or ()), str(params.get("weighting") or "fair"))


PAIRS = DomainKind("pairs", "Pairs of faces", (
    Param("faces", "Faces on the die", "int", 6, low=1, high=6),
    Param("banned", "Faces left out", "cards", (), low=1, high=6),
    Param("weighting", "Weighting", "choice", "fair", choices=("fair", "count")),
), _build, source="rule:X-bad-input")


def install(game: str) -> None:
    """``game`` offers the made-up domain after its own from now on (a test app's server process)."""
    before = registry.BY_ID[game]
    fake = dataclasses.replace(before, questions=(*[k for k in before.questions if k.name != PAIRS.name], PAIRS))
    registry.BY_ID[game] = fake
    registry.GAMES = tuple(fake if g.id == game else g for g in registry.GAMES)


@contextlib.contextmanager
def registered(game: str) -> Iterator[None]:
    """``game`` offers the made-up domain (after its own) while the block runs."""
    before, games = registry.BY_ID[game], registry.GAMES
    install(game)
    try:
        yield
    finally:
        registry.BY_ID[game] = before
        registry.GAMES = games
