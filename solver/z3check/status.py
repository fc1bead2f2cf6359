"""A check's status: proved, refuted by a counterexample, or unknown (its time limit ran out first)."""

from __future__ import annotations

from enum import StrEnum

import z3


class Status(StrEnum):
    """What Z3 settled about a check's claim."""

    PROVED = "proved"
    COUNTEREXAMPLE = "counterexample"
    UNKNOWN = "unknown"

    @property
    def holds(self) -> bool | None:
        """The claim holds (True), fails (False), or is undecided (None)."""
        return {Status.PROVED: True, Status.COUNTEREXAMPLE: False, Status.UNKNOWN: None}[self]

    @classmethod
    def of_holds(cls, holds: bool | None) -> Status:
        """The status of a claim that ``holds`` (True / False / None)."""
        return cls.UNKNOWN if holds is None else cls.PROVED if holds else cls.COUNTEREXAMPLE

    @classmethod
    def of_search(cls, answer: z3.CheckSatResult) -> Status:
        """The status of a claim whose counterexample search answered ``answer`` (sat: one exists)."""
        if answer == z3.sat:
            return cls.COUNTEREXAMPLE
        return cls.PROVED if answer == z3.unsat else cls.UNKNOWN
