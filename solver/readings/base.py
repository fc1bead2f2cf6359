"""The one readings base: every game's frozen ``Readings`` dataclass inherits :class:`Readings`.

A *reading* is one field of a game's ``Readings``: its value is one named choice (``CHOICES``), a boolean, or a
number (``NUMBERS``: a whole number in a range, or an exact probability). The base gives every game the same:

- validation on construction (one-line ``BadInput`` naming ``readings.<field>``, rule:X-bad-input);
- JSON both ways: :meth:`Readings.to_json` (exact fractions as ``"p/q"``) and :meth:`Readings.from_json`
  (unknown fields refused, values checked);
- the command line: :meth:`Readings.add_arguments` adds one flag per reading (``--icon-source top``), generated
  from the choices, and the generic repeatable ``--rule NAME=VALUE``; :meth:`Readings.from_args` reads them back;
- :meth:`Readings.from_pairs` for ``NAME=VALUE`` text from anywhere (batches, the address).

Nothing here names a game; the games' own ``readings.py`` modules hold their readings and cite their rules.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Self

from solver.errors import BadInput
from solver.io.numbers import parse_fraction_text, parse_int_text, short_repr

TRUE, FALSE = ("true", "yes", "1", "on"), ("false", "no", "0", "off")


@dataclass(frozen=True)
class Number:
    """A numeric reading: whole numbers ``low..high`` (``kind=int``) or exact probabilities (``kind=Fraction``,
    0..1); ``listed`` are the values offered for choosing (default: every whole number in range), ``probes`` the
    alternatives the impact run tries (``ruleslinger readings impact``)."""

    kind: type
    low: Any
    high: Any
    probes: tuple = ()
    listed: tuple = ()

    def values(self) -> tuple:
        if self.listed:
            return self.listed
        return tuple(range(self.low, self.high + 1)) if self.kind is int else ()

    def check(self, value: Any, what: str) -> Any:
        """``value`` as this number, or BadInput naming ``what``."""
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
                raise BadInput(f"{what}: {short_repr(value)} is not a whole number {self.low}..{self.high}")
            return value
        if isinstance(value, bool) or not isinstance(value, (int, Fraction)) or not self.low <= value <= self.high:
            raise BadInput(f"{what}: {short_repr(value)} is not an exact probability {self.low}..{self.high}")
        return Fraction(value)

    def parse(self, text: Any, what: str) -> Any:
        """A value typed as text (or given as JSON): bounded before converting (rule:X-bad-input)."""
        if self.kind is int:
            return self.check(parse_int_text(text, what, self.low, self.high) if isinstance(text, str) else text,
                              what)
        if isinstance(text, str):
            return self.check(parse_fraction_text(text, what), what)
        if isinstance(text, bool) or not isinstance(text, (int, Fraction)):
            raise BadInput(f"{what}: {short_repr(text)} is not a fraction like 1/3 or 0.25")
        return self.check(text, what)


def canon(value: Any) -> Any:
    """A reading's value as JSON (exact fractions as "p/q")."""
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return value


class Readings:
    """Base of a game's frozen ``Readings`` dataclass (see the module docstring). Subclasses set ``CHOICES`` (field ->
    its named values, the default first), ``NUMBERS`` (field -> :class:`Number`) and, for readings that only mean
    something with another one set, ``TOGETHER`` (field -> the other readings' values)."""

    CHOICES: ClassVar[dict[str, tuple]] = {}
    NUMBERS: ClassVar[dict[str, Number]] = {}
    TOGETHER: ClassVar[dict[str, dict]] = {}

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, self.check_value(f.name, getattr(self, f.name)))

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def check_value(cls, name: str, value: Any) -> Any:
        """``value`` for reading ``name``, checked (and normalised: an int probability becomes a Fraction)."""
        what = f"rules.{name}"
        if name in cls.CHOICES:
            if not isinstance(value, str) or value not in cls.CHOICES[name]:
                raise BadInput(f"{what}: {short_repr(value)} is not one of {', '.join(cls.CHOICES[name])}")
            return value
        if name in cls.NUMBERS:
            return cls.NUMBERS[name].check(value, what)
        if isinstance(getattr(cls, name, None), bool):
            if not isinstance(value, bool):
                raise BadInput(f"{what}: expected true or false, got {short_repr(value)}")
            return value
        return value

    @classmethod
    def parse_value(cls, name: str, text: Any) -> Any:
        """A value for reading ``name`` given as text (the command line, the address) or as JSON."""
        if name not in cls.names():
            raise BadInput(f"rules: unknown option {short_repr(name)} (known: {', '.join(cls.names())})")
        if name in cls.NUMBERS:
            return cls.NUMBERS[name].parse(text, f"rules.{name}")
        if isinstance(getattr(cls, name, None), bool) and isinstance(text, str):
            low = text.strip().lower()
            if low in TRUE or low in FALSE:
                return low in TRUE
        return cls.check_value(name, text)

    def to_json(self) -> dict[str, Any]:
        """Every reading as JSON (exact fractions as "p/q")."""
        return {f.name: canon(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_json(cls, doc: Any) -> Self:
        """Readings from (part of) :meth:`to_json`'s document; the others at their defaults."""
        if doc is None:
            return cls()
        if not isinstance(doc, dict):
            raise BadInput("rules: expected an object")
        return cls.from_values(doc)

    @classmethod
    def from_values(cls, values: dict[str, Any], text: bool = False) -> Self:
        """The defaults with ``values`` (field -> value) applied; unknown fields refused. Values are JSON (exact
        fractions may be "p/q" text), or with ``text`` typed text (the command line: "yes", "8", "1/2")."""
        names = cls.names()
        unknown = sorted(k for k in values if k not in names)
        if unknown:
            raise BadInput(f"rules: unknown option {short_repr(unknown[0])} (known: {', '.join(names)})")
        return cls(**{k: cls.parse_value(k, v) if text else cls.json_value(k, v) for k, v in values.items()})

    @classmethod
    def json_value(cls, name: str, value: Any) -> Any:
        """A reading's value in a JSON document: as JSON gives it, an exact fraction also as "p/q" text."""
        number = cls.NUMBERS.get(name)
        if number is not None and number.kind is not int:
            return number.parse(value, f"rules.{name}")
        return cls.check_value(name, value)

    @classmethod
    def from_pairs(cls, pairs: list[str] | tuple, what: str = "--rule") -> Self:
        """Readings from ``NAME=VALUE`` texts (repeated ``--rule``); a name given twice is refused."""
        return cls.from_values(cls.pair_values(pairs, what))

    @classmethod
    def pair_values(cls, pairs: list[str] | tuple, what: str = "--rule") -> dict[str, Any]:
        """``NAME=VALUE`` texts as {field: checked value}; an unknown name, a bad value or a name given twice is
        refused in one line."""
        values: dict[str, str] = {}
        for item in pairs or ():
            name, sep, value = str(item).partition("=")
            name = name.strip().replace("-", "_")
            if not sep:
                raise BadInput(f"{what} {short_repr(item)}: expected NAME=VALUE")
            if name not in cls.names():
                raise BadInput(f"{what}: unknown option {short_repr(name)} (known: {', '.join(cls.names())})")
            if name in values:
                raise BadInput(f"{what}: {name} is given twice")
            values[name] = value.strip()
        return {k: cls.parse_value(k, v) for k, v in values.items()}

    @classmethod
    def flag(cls, name: str) -> str:
        return "--" + name.replace("_", "-")

    @classmethod
    def choices_text(cls, name: str) -> str:
        """The values a reading takes, for a help line (its default marked)."""
        default = canon(getattr(cls, name))
        if name in cls.CHOICES:
            return "|".join(cls.CHOICES[name]) + f" (default {default})"
        if name in cls.NUMBERS:
            n = cls.NUMBERS[name]
            return f"{canon(n.low)}..{canon(n.high)} (default {default})"
        return f"true|false (default {str(default).lower()})"

    @classmethod
    def add_arguments(cls, parser: Any, title: str = "readings of the open questions (docs/open-questions.md)",
                      rule_ids: dict[str, str] | None = None) -> None:
        """One ``--<reading>`` flag per reading (generated from its choices; ``rule_ids`` gives each help line its rule,
        e.g. :func:`solver.register.option_help`) and the repeatable ``--rule NAME=VALUE`` (``--option`` is its older
        spelling, kept for scripts); read back with :meth:`from_args`."""
        group = parser.add_argument_group(title)
        for name in cls.names():
            rid = f"{rule_ids[name]}: " if rule_ids and name in rule_ids else ""
            group.add_argument(cls.flag(name), dest=f"reading_{name}", default=None, metavar="VALUE",
                               help=f"{rid}{cls.choices_text(name)}")
        group.add_argument("--rule", "--option", dest="reading_pairs", action="append", metavar="NAME=VALUE",
                           help="a reading as NAME=VALUE, repeatable (" + ", ".join(cls.names()) + ")")

    @classmethod
    def from_args(cls, args: Any) -> Self:
        """The readings given on the command line (:meth:`add_arguments`), the others at their defaults."""
        return cls.from_values(cls.given_values(args))

    @classmethod
    def given_values(cls, args: Any) -> dict[str, Any]:
        """{field: value} of the readings given on the command line: ``--rule`` pairs and the flags; a reading given
        both ways is refused."""
        pairs = list(getattr(args, "reading_pairs", None) or ())
        flags = {n: getattr(args, f"reading_{n}") for n in cls.names() if getattr(args, f"reading_{n}", None) is not None}
        both = [n for n in flags if any(str(p).partition("=")[0].strip().replace("-", "_") == n for p in pairs)]
        if both:
            raise BadInput(f"{cls.flag(both[0])} and --rule {both[0]}=... both given: give the reading once")
        return cls.pair_values(pairs + [f"{n}={v}" for n, v in flags.items()])
