"""A question's condition: the domain's measures compared with numbers (or named values), joined by and / or / not.

Written as text in a question file (``where = "goal.gold-country >= 8 and winner == player"``) or built by the page
from lists; both give the same tree of :class:`Compare`, :class:`All`, :class:`Any_` and :class:`Not`. A bare yes/no
measure stands for ``measure == yes``. :func:`parse` reads the text (BadInput naming the bad part), :func:`text` writes
it back, :func:`words` says it in the measures' labels, and :func:`holds` evaluates it on an element's values.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from solver.ask.model import Measure, Value
from solver.errors import BadInput
from solver.io.numbers import short_repr

OPS = ("<=", ">=", "==", "!=", "<", ">")
OP_WORDS = {"<=": "at most", ">=": "at least", "==": "exactly", "!=": "not", "<": "less than", ">": "more than"}
MAX_TEXT = 2_000
"""The longest condition text read."""
MAX_NODES = 64
"""The most comparisons and joins in one condition."""


@dataclass(frozen=True)
class Compare:
    """``measure op value``."""

    measure: str
    op: str
    value: Value


@dataclass(frozen=True)
class All:
    """Every part holds (``and``)."""

    parts: tuple[Condition, ...]


@dataclass(frozen=True)
class Any_:
    """Some part holds (``or``)."""

    parts: tuple[Condition, ...]


@dataclass(frozen=True)
class Not:
    """The part does not hold."""

    part: Condition


Condition = Compare | All | Any_ | Not

_TOKEN = re.compile(r"\s*(?:(?P<op><=|>=|==|!=|<|>|=)|(?P<paren>[()])|(?P<num>-?\d+(?:/\d+)?)"
                    r"|(?P<word>[A-Za-z_][A-Za-z0-9_]*(?:[.\-][A-Za-z0-9_]+)*)|(?P<str>\"[^\"]*\"|'[^']*'))")
_JOINS = {"and", "or", "not"}
_TRUE, _FALSE = ("yes", "true"), ("no", "false")


def _tokens(source: str) -> list[tuple[str, str]]:
    out, at, s = [], 0, source.rstrip()
    while at < len(s):
        m = _TOKEN.match(s, at)
        if not m or m.end() == at:
            raise BadInput(f"condition: cannot read {short_repr(s[at:at + 20])} (at character {at + 1})")
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind)))
        at = m.end()
    return out


class _Parser:
    def __init__(self, source: str):
        self.toks = _tokens(source)
        self.at = 0
        self.nodes = 0

    def peek(self) -> tuple[str, str] | None:
        return self.toks[self.at] if self.at < len(self.toks) else None

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        if tok is None:
            raise BadInput("condition: it ends too soon (a comparison or a closing bracket is missing)")
        self.at += 1
        return tok

    def count(self) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise BadInput(f"condition: more than {MAX_NODES} parts")

    def joined(self, word: str, lower: Callable[[], Condition]) -> Condition:
        parts = [lower()]
        while self.peek() == ("word", word):
            self.take()
            self.count()
            parts.append(lower())
        if len(parts) == 1:
            return parts[0]
        return All(tuple(parts)) if word == "and" else Any_(tuple(parts))

    def any_(self) -> Condition:
        return self.joined("or", self.all_)

    def all_(self) -> Condition:
        return self.joined("and", self.not_)

    def not_(self) -> Condition:
        if self.peek() == ("word", "not"):
            self.take()
            self.count()
            return Not(self.not_())
        return self.atom()

    def atom(self) -> Condition:
        kind, tok = self.take()
        if (kind, tok) == ("paren", "("):
            inner = self.any_()
            if self.take() != ("paren", ")"):
                raise BadInput("condition: a bracket is not closed")
            return inner
        if kind != "word" or tok in _JOINS:
            raise BadInput(f"condition: expected a measure's name, found {short_repr(tok)}")
        self.count()
        nxt = self.peek()
        if nxt is None or nxt[0] != "op":
            return Compare(tok, "==", True)
        op = self.take()[1]
        return Compare(tok, "==" if op == "=" else op, _value(self.take()))


def _value(tok: tuple[str, str]) -> Value:
    kind, text = tok
    if kind == "num":
        value = Fraction(text)
        return int(value) if value.denominator == 1 else value
    if kind == "str":
        return text[1:-1]
    if kind == "word" and text not in _JOINS:
        return True if text in _TRUE else False if text in _FALSE else text
    raise BadInput(f"condition: expected a number or a name after the comparison, found {short_repr(text)}")


def parse(source: str) -> Condition:
    """The condition written in ``source``; BadInput naming the part that cannot be read."""
    if not isinstance(source, str) or not source.strip():
        raise BadInput("condition: expected text such as 'total >= 20 and winner == player'")
    if len(source) > MAX_TEXT:
        raise BadInput(f"condition: longer than {MAX_TEXT} characters")
    p = _Parser(source)
    tree = p.any_()
    if p.peek() is not None:
        raise BadInput(f"condition: unexpected {short_repr(p.toks[p.at][1])} (join parts with and / or)")
    return tree


def _value_text(value: Value) -> str:
    if value is True or value is False:
        return "yes" if value else "no"
    if isinstance(value, str):
        return value if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(?:[.\-][A-Za-z0-9_]+)*", value) and \
            value not in _JOINS else f'"{value}"'
    return str(value)


def text(cond: Condition, inner: bool = False) -> str:
    """The condition as :func:`parse` reads it."""
    if isinstance(cond, Compare):
        if cond.op == "==" and cond.value is True:
            return cond.measure
        return f"{cond.measure} {cond.op} {_value_text(cond.value)}"
    if isinstance(cond, Not):
        return "not " + text(cond.part, True)
    joiner = " and " if isinstance(cond, All) else " or "
    body = joiner.join(text(p, True) for p in cond.parts)
    return f"({body})" if inner else body


def measures_named(cond: Condition | None) -> frozenset[str]:
    """Every measure the condition names."""
    if cond is None:
        return frozenset()
    if isinstance(cond, Compare):
        return frozenset({cond.measure})
    if isinstance(cond, Not):
        return measures_named(cond.part)
    return frozenset().union(*(measures_named(p) for p in cond.parts))


def _compare_words(cond: Compare, measures: Mapping[str, Measure]) -> str:
    m = measures.get(cond.measure)
    label = m.label if m else cond.measure
    if m is not None and m.kind == "yes/no":
        yes = (cond.value is True) == (cond.op == "==")
        return label if yes else f"not ({label})"
    if m is not None and m.kind == "choice":
        return f"{label} is {'not ' if cond.op == '!=' else ''}{_value_text(cond.value)}"
    return f"{label} is {OP_WORDS[cond.op]} {_value_text(cond.value)}"


def words(cond: Condition, measures: Mapping[str, Measure], inner: bool = False) -> str:
    """The condition in the measures' labels ("Gold Country's points is at least 8 and the winner is player")."""
    if isinstance(cond, Compare):
        return _compare_words(cond, measures)
    if isinstance(cond, Not):
        return "not " + words(cond.part, measures, True)
    joiner = " and " if isinstance(cond, All) else " or "
    body = joiner.join(words(p, measures, True) for p in cond.parts)
    return f"({body})" if inner else body


def _compare(value: Value, op: str, target: Value) -> bool:
    if op == "==":
        return value == target
    if op == "!=":
        return value != target
    if isinstance(value, str) or isinstance(target, str):
        raise BadInput(f"condition: {op} compares numbers, not {short_repr(target)}")
    a, b = Fraction(value), Fraction(target)
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def holds(cond: Condition | None, values: Mapping[str, Value]) -> bool:
    """Whether the condition holds on an element with these measure values (None: always)."""
    if cond is None:
        return True
    if isinstance(cond, Compare):
        return _compare(values[cond.measure], cond.op, cond.value)
    if isinstance(cond, Not):
        return not holds(cond.part, values)
    if isinstance(cond, All):
        return all(holds(p, values) for p in cond.parts)
    return any(holds(p, values) for p in cond.parts)


def check(cond: Condition | None, measures: Mapping[str, Measure]) -> None:
    """BadInput for a measure the domain does not have (naming the nearest names) or a value of the wrong type."""
    import difflib

    for name in sorted(measures_named(cond)):
        if name not in measures:
            near = difflib.get_close_matches(name, list(measures), n=3, cutoff=0.5)
            hint = f" (nearest: {', '.join(near)})" if near else f" ({len(measures)} measures: see ask --measures)"
            raise BadInput(f"condition: unknown measure {short_repr(name)}{hint}")
    _check_types(cond, measures)


def _check_types(cond: Condition | None, measures: Mapping[str, Measure]) -> None:
    if cond is None:
        return
    if isinstance(cond, Not):
        _check_types(cond.part, measures)
        return
    if isinstance(cond, (All, Any_)):
        for p in cond.parts:
            _check_types(p, measures)
        return
    m = measures[cond.measure]
    v = cond.value
    if m.kind == "number" and (isinstance(v, (bool, str))):
        raise BadInput(f"condition: {m.name} is a number; {short_repr(_value_text(v))} is not")
    if m.kind == "yes/no" and (not isinstance(v, bool) or cond.op not in ("==", "!=")):
        raise BadInput(f"condition: {m.name} is yes or no; compare it with == yes or == no")
    if m.kind == "choice":
        if cond.op not in ("==", "!="):
            raise BadInput(f"condition: {m.name} is one of {', '.join(m.choices)}; compare it with == or !=")
        if str(v) not in m.choices:
            raise BadInput(f"condition: {m.name} is one of {', '.join(m.choices)}, not {short_repr(_value_text(v))}")
