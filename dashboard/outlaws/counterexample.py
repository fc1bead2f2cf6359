"""An Outlaws counterexample of the Verification page in words.

:func:`solver.outlaws.verify.checks.check_invariant` returns a failing check's counterexample as the position
before, the action of its Z3 model (kind, side and the model's own parameters: column ``c``, ``call`` as an index
into the model's character or token list, ...) and the position after. This module says it in one plain sentence:
the action worded as the Outlaws table words an action (:meth:`solver.outlaws.actions.Action.describe` where the
model's parameters name an engine action; an ability in its character's own words, ``model_words`` of its module in
:mod:`solver.outlaws.characters`), then what is wrong afterwards, counted from
the two positions (the tokens, the Saloons, the immobilized characters, the Votes at sudden death, the Front Page
markers). Presentation only: every fact is read off the counterexample.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from solver.outlaws.actions import Action
from solver.outlaws.characters import TABLE
from solver.outlaws.line import TOKEN_WORDS
from solver.outlaws.position import FRONT_PAGE_TOTAL, TOKEN_TOTALS
from solver.outlaws.verify.symbolic import TOKS

Position = Mapping[str, Any]


def _token(code: Any) -> str:
    return TOKS[code] if isinstance(code, int) and 0 <= code < len(TOKS) else str(code)


def _at(pos: Position, side: str, col: Any) -> str | None:
    row = list((pos.get("street") or {}).get(side) or [])
    return row[col] if isinstance(col, int) and 0 <= col < len(row) else None


def _take(a: Mapping[str, Any], before: Position, side: str) -> str:
    act = Action("take", _at(before, side, a.get("c")), a.get("c"), _token(a.get("call")))
    text = act.describe(side)
    if a.get("keep") is not None:
        text += "; " + (f"{side} keeps the token" if a["keep"] else f"{side} puts the token back")
    if isinstance(a.get("draw"), int) and a["draw"] > 0:
        text += f"; the reserve gives {TOKEN_WORDS.get(_token(a['draw']), _token(a['draw']))}"
    return text


def _saloon_exit(a: Mapping[str, Any], before: Position, side: str) -> str:
    """rule:O-saloon as the model lays it: the Saloon character of ``slot`` and the characters at ``i`` and ``j``,
    rearranged by ``perm`` (one back into the Saloon, the other two onto columns i and j)."""
    i, j, perm = a.get("i"), a.get("j"), a.get("perm")
    saloon = list((before.get("saloon") or {}).get(side) or [])
    slot = a.get("slot")
    three = [saloon[slot] if isinstance(slot, int) and slot < len(saloon) else None,
             _at(before, side, i), _at(before, side, j)]
    orders = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    if not isinstance(perm, int) or not 0 <= perm < len(orders) or None in three:
        return f"{side}: a character leaves the Saloon with columns {i} and {j}"
    o = orders[perm]
    act = Action("move", columns=(i, j), from_saloon=three[0], saloon=three[o[0]],
                 placement=(three[o[1]], three[o[2]]), swap=True)
    return act.describe(side)


def _ability(a: Mapping[str, Any], side: str) -> str:
    """An ability of the model in its character's own words (``Character.model_words``, the character's module)."""
    kind = a["kind"]
    who = TABLE.get(kind)
    words = who.model_words(a, side) if who is not None and who.model_words is not None else f"uses the {kind}'s ability"
    return f"{side}: the {kind} (column {a.get('c')}) {words}"


def action_words(action: Mapping[str, Any], before: Position) -> str:
    """The counterexample's action as the Outlaws table words one ("A: the indian (column 0) takes token 0,
    calling vote")."""
    kind, side = action.get("kind"), str(action.get("side", ""))
    if kind == "move":
        i, j = action.get("i"), action.get("j")
        return Action("move", columns=(i, j), swap=i != j).describe(side)
    if kind == "saloon_exit":
        return _saloon_exit(action, before, side)
    if kind == "look":
        c = action.get("c")
        return Action("look", _at(before, side, c), c).describe(side)
    if kind == "take":
        return _take(action, before, side)
    if kind == "sudden_death":
        return "sudden death begins (the Bullets, Handcuffs and Bogus X are laid face down again, rule O11)"
    if kind == "end_turn":
        return Action("end_turn").describe(side)
    return _ability(action, side)


# ----------------------------------------------------------------------------- what is wrong afterwards


def token_totals(pos: Position) -> Counter:
    """Each token type on the table: on the street, in the reserve, in both supplies and in the discard."""
    out: Counter = Counter()
    for t in list(pos.get("tokens") or []) + list(pos.get("reserve") or []):
        if t in TOKEN_TOTALS:
            out[t] += 1
    for side in ("A", "B"):
        for t in TOKEN_TOTALS:
            out[t] += int(((pos.get("supply") or {}).get(side) or {}).get(t, 0) or 0)
    for t in TOKEN_TOTALS:
        out[t] += int((pos.get("discard") or {}).get(t, 0) or 0)
    return out


PLURAL = {"vote": ("Vote", "Votes"), "bullet": ("Bullet", "Bullets"), "handcuffs": ("Handcuffs", "Handcuffs"),
          "x": ("Bogus X", "Bogus X"), "election": ("Election token", "Election tokens")}


def tokens(n: int, token: str) -> str:
    """``n`` tokens of a type in words ("7 Votes", "1 Election token")."""
    one, many = PLURAL.get(token, (token, token))
    return f"{n} {one if n == 1 else many}"


def _token_totals(before: Position, after: Position) -> str:
    now, then = token_totals(after), token_totals(before)
    wrong = [f"{tokens(now[t], t)} (the game has {n}{f'; {then[t]} before' if then[t] != now[t] else ''})"
             for t, n in TOKEN_TOTALS.items() if now[t] != n]
    return "afterwards the table holds " + "; ".join(wrong) if wrong else "the tokens no longer add up"


def _characters(pos: Position, side: str) -> list[str]:
    return [c for c in list((pos.get("street") or {}).get(side) or []) + list((pos.get("saloon") or {}).get(side) or [])
            if c]


def _saloon_two(before: Position, after: Position) -> str:
    for side in ("A", "B"):
        twice = sorted(c for c, n in Counter(_characters(after, side)).items() if n > 1)
        if twice:
            return (f"afterwards {side}'s {', '.join(c.title() for c in twice)} "
                    f"{'is' if len(twice) == 1 else 'are'} both in the Saloon and on Main Street")
    return "afterwards a Saloon no longer holds exactly two characters"


def _governor(before: Position, after: Position) -> str:
    sides = [s for s in ("A", "B") if "governor" in ((after.get("saloon") or {}).get(s) or [])]
    return f"afterwards {' and '.join(sides) or 'a side'}'s Governor is in the Saloon" if sides else \
        "afterwards a Governor is in the Saloon"


def _immobilized(before: Position, after: Position) -> str:
    for side, name in before.get("immobilized") or []:
        row_b = list((before.get("street") or {}).get(side) or [])
        row_a = list((after.get("street") or {}).get(side) or [])
        if name in row_b and (name not in row_a or row_a.index(name) != row_b.index(name)):
            to = f"column {row_a.index(name)}" if name in row_a else "off Main Street"
            return f"{side}'s {str(name).title()}, immobilized, moved from column {row_b.index(name)} to {to}"
    return "an immobilized character moved"


def _sudden_death(before: Position, after: Position) -> str:
    sup = after.get("supply") or {}
    votes = [int((sup.get(s) or {}).get("vote", 0) or 0) for s in ("A", "B")]
    return f"although the Votes are A {votes[0]} / B {votes[1]} (the rule needs 3 and 3)"


def front_page_total(pos: Position) -> int:
    """The Front Page markers: both supplies, the discard and the characters marked."""
    sup = pos.get("supply") or {}
    return (sum(int((sup.get(s) or {}).get("front_page", 0) or 0) for s in ("A", "B"))
            + int((pos.get("discard") or {}).get("front_page", 0) or 0) + len(pos.get("front_page") or []))


def _well_formed(before: Position, after: Position) -> str:
    marked = [m for m in after.get("front_page") or [] if m not in (before.get("front_page") or [])]
    total = front_page_total(after)
    if total != FRONT_PAGE_TOTAL:
        who = ", ".join(f"{s}'s {str(n).title()}" for s, n in marked)
        return (f"afterwards the Front Page markers count {total} (the game has {FRONT_PAGE_TOTAL})"
                + (f": {who} marked without a marker spent" if who else ""))
    return "afterwards the position is not one the rules allow (see the passage above)"


AFTERWARDS: dict[str, Callable[[Position, Position], str]] = {
    "token-totals": _token_totals, "saloon-two": _saloon_two, "governor-not-in-saloon": _governor,
    "immobilized-stay": _immobilized, "sudden-death-3-3": _sudden_death, "well-formed": _well_formed,
}
"""Check id (solver.outlaws.verify.checks.CHECKS) -> what is wrong after the action, in words."""


def sentence(check_id: str, cex: Mapping[str, Any]) -> str:
    """The counterexample in one sentence: where it starts, the action, what is wrong afterwards."""
    before, after, action = cex.get("before") or {}, cex.get("after") or {}, cex.get("action") or {}
    wrong = AFTERWARDS.get(check_id, lambda b, a: "afterwards the rule checked no longer holds")(before, after)
    then = " (and sudden death began)" if cex.get("sudden_death_fired") and check_id != "sudden-death-3-3" else ""
    joint = " " if wrong.startswith("although") else ": "
    return f"In the position drawn first, {action_words(action, before)}{then}{joint}{wrong}."
