"""Action icon sequences as the user types them from the lone ranger's card, and their resolution.

Syntax (case-insensitive; documented in ``docs/cactus.md``)::

    card      := sequence [ "|" sequence ]     left: with a visible target, right: without
    sequence  := element { " " element }      an uninterrupted sequence, carried out left to right
    element   := icon { "/" icon }             alternatives: the first possible one is carried out
    icon      := RUN | SNEAK | SPRINT | DUEL | CONFUSE | PASS | RUN ALL | SNEAK ALL
               | DOUBLE SNEAK | HORIZONTAL SNEAK | VERTICAL SNEAK | "[" any name "]"

Two-word icons may be typed with a space, ``-`` or ``_`` (``DOUBLE SNEAK``, ``double-sneak``);
``H-SNEAK`` and ``V-SNEAK`` are short forms. ``[NAME]`` is an icon this tool does not model (a
base-game icon printed on your card): it is always carried out, and you apply it yourself.

rule:C-icon-sequence: icons in a sequence are carried out left to right, impossible icons are
skipped, ``A/B`` does A if possible else B, and when nothing is possible the lone ranger passes.
rule:C9 picks the row of the card (visible target or not). rule:C-duel and rule:C-confuse need an
outlaw on his building.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from solver.cactus import town as tw
from solver.cactus.rules import CactusRules, frac_str
from solver.errors import BadInput

ICONS = ("RUN", "SNEAK", "SPRINT", "DUEL", "CONFUSE", "PASS", "RUN-ALL", "SNEAK-ALL",
         "DOUBLE-SNEAK", "HORIZONTAL-SNEAK", "VERTICAL-SNEAK")
ALIASES = {"H-SNEAK": "HORIZONTAL-SNEAK", "V-SNEAK": "VERTICAL-SNEAK", "HSNEAK": "HORIZONTAL-SNEAK",
           "VSNEAK": "VERTICAL-SNEAK", "RUNALL": "RUN-ALL", "SNEAKALL": "SNEAK-ALL"}
TWO_WORD = {("DOUBLE", "SNEAK"), ("HORIZONTAL", "SNEAK"), ("VERTICAL", "SNEAK"), ("RUN", "ALL"), ("SNEAK", "ALL")}
MAX_TEXT = 300
_TOKEN = re.compile(r"\[[^\[\]|/]*\]|[A-Za-z][A-Za-z_-]*|/|\||\S")


@dataclass(frozen=True)
class Icon:
    name: str  # canonical name, or the custom name for "[...]"
    custom: bool = False
    column: int = 1

    def text(self) -> str:
        return f"[{self.name}]" if self.custom else self.name


Element = tuple[Icon, ...]  # alternatives, first preferred
Sequence = tuple[Element, ...]


@dataclass(frozen=True)
class Card:
    visible: Sequence  # with a visible target
    no_visible: Sequence  # without one


def _tokens(text: str) -> list[tuple[str, int]]:
    return [(m.group(0), m.start() + 1) for m in _TOKEN.finditer(text)]


def _err(what: str, msg: str, tok: str, col: int, index: int) -> BadInput:
    return BadInput(f"{what}: {msg} '{tok}' at column {col} (token {index})")


def parse_sequence(text: str, what: str = "icon sequence", offset: int = 0) -> Sequence:
    """Parse one sequence (no ``|``); a BadInput names the bad token and its column (``offset``
    is added to the columns, for a row that starts later in the card text)."""
    if not isinstance(text, str):
        raise BadInput(f"{what}: expected text like 'DUEL/RUN SNEAK'")
    if len(text) > MAX_TEXT:
        raise BadInput(f"{what}: longer than {MAX_TEXT} characters")
    toks = [(t, c + offset) for t, c in _tokens(text)]
    if not toks:
        raise BadInput(f"{what}: empty (type PASS for a card row that does nothing)")
    elements: list[list[Icon]] = []
    expect_icon_after_slash = False
    i = 0
    while i < len(toks):
        tok, col = toks[i]
        index = i + 1
        if tok == "|":
            raise _err(what, "a card has at most two rows; unexpected", tok, col, index)
        if tok == "/":
            if not elements or expect_icon_after_slash:
                raise _err(what, "no icon before the slash", tok, col, index)
            expect_icon_after_slash = True
            i += 1
            continue
        if tok.startswith("["):
            name = tok[1:-1].strip()
            if not name:
                raise _err(what, "empty custom icon", tok, col, index)
            icon = Icon(name.upper(), True, col)
        else:
            word = tok.upper().replace("_", "-")
            if i + 1 < len(toks) and (word, toks[i + 1][0].upper()) in TWO_WORD:
                word = f"{word}-{toks[i + 1][0].upper()}"
                i += 1
            word = ALIASES.get(word, word)
            if word not in ICONS:
                if word in ("DOUBLE", "HORIZONTAL", "VERTICAL"):
                    raise BadInput(f"{what}: '{tok}' at column {col} (token {index}) must be followed by SNEAK")
                raise BadInput(f"{what}: unknown icon '{tok}' at column {col} (token {index}); known: "
                               f"{', '.join(ICONS)}, or [NAME] for an icon this tool does not model")
            icon = Icon(word, False, col)
        if expect_icon_after_slash:
            elements[-1].append(icon)
            expect_icon_after_slash = False
        else:
            elements.append([icon])
        i += 1
    if expect_icon_after_slash:
        tok, col = toks[-1]
        raise _err(what, "no icon after the slash", tok, col, len(toks))
    return tuple(tuple(e) for e in elements)


def parse_card(value, what: str = "card") -> Card:
    """A card as ``"VISIBLE | NO VISIBLE"`` text or ``{"visible": ..., "no_visible": ...}``."""
    if isinstance(value, dict):
        for key in value:
            if key not in ("visible", "no_visible"):
                raise BadInput(f"{what}: unknown key '{key}' (use 'visible' and 'no_visible')")
        if "visible" not in value or "no_visible" not in value:
            raise BadInput(f"{what}: needs both 'visible' and 'no_visible' rows")
        return Card(parse_sequence(value["visible"], f"{what}.visible"),
                    parse_sequence(value["no_visible"], f"{what}.no_visible"))
    if not isinstance(value, str):
        raise BadInput(f"{what}: expected 'VISIBLE ROW | NO-VISIBLE ROW' or an object")
    parts = value.split("|")
    if len(parts) != 2:
        col = [m.start() + 1 for m in re.finditer(r"\|", value)]
        if len(parts) > 2:
            raise BadInput(f"{what}: a second '|' at column {col[1]}; a card has two rows")
        raise BadInput(f"{what}: expected two rows separated by '|' (visible target | no visible target)")
    vis = parse_sequence(parts[0], f"{what} (visible row)")
    nov = parse_sequence(parts[1], f"{what} (no-visible row)", offset=len(parts[0]) + 1)
    return Card(vis, nov)


def sequence_text(seq: Sequence) -> str:
    return " ".join("/".join(i.text() for i in e) for e in seq)


# ------------------------------------------------------------------ resolution on a position

def icon_outcomes(town: tw.Town, icon: Icon, rules: CactusRules) -> tuple[tuple[Fraction, tw.Town, dict], ...]:
    """The outcomes of one icon, or ``()`` when it cannot be carried out."""
    if icon.custom:
        return ((Fraction(1), town, {"icon": icon.text(), "note": "not modelled: carry it out as printed"}),)
    name = icon.name
    if name == "PASS":
        return ((Fraction(1), town, {"icon": "PASS"}),)
    if name in ("DUEL", "CONFUSE"):  # rule:C-duel rule:C-confuse
        here = tw.sharing(town)
        if not here:
            return ()
        note = ("roll the duel (ruleslinger cactus duel); a win discards the next event, a loss pushes him"
                if name == "DUEL" else "look at the outlaws' target cards, archive one; they draw a new one")
        return tuple((Fraction(1, len(here)), town, {"icon": name, "with": o.name, "note": note}) for o in here)
    return tw.move_outcomes(town, name, rules)


def resolve_sequence(town: tw.Town, seq: Sequence, rules: CactusRules = CactusRules()) -> list[dict]:
    """rule:C-icon-sequence: all outcomes of carrying out ``seq`` with exact chances.

    Duels and confusion are listed, not rolled: later icons are resolved with him where he stands.
    """
    branches: list[tuple[Fraction, tw.Town, list]] = [(Fraction(1), town, [])]
    for element in seq:
        nxt = []
        for p, t, acts in branches:
            for icon in element:
                outs = icon_outcomes(t, icon, rules)
                if outs:
                    nxt.extend((p * q, t2, acts + [a]) for q, t2, a in outs)
                    break
            else:
                nxt.append((p, t, acts + [{"icon": "/".join(i.text() for i in element), "skipped": True}]))
        branches = nxt
    merged: dict[tuple, list] = {}
    for p, t, acts in branches:
        if all(a.get("skipped") for a in acts):
            acts = acts + [{"icon": "PASS", "note": "no icon could be carried out: he passes"}]
        key = (repr(acts), t.ranger)
        if key in merged:
            merged[key][0] += p
        else:
            merged[key] = [p, t, acts]
    return [{"p": frac_str(p), "actions": acts, "ranger": list(t.ranger),
             "revealed": [[x, y] for y in range(tw.SIZE) for x in range(tw.SIZE)
                          if t.grid[y][x] == tw.REVEALED_UNKNOWN and town.grid[y][x] == tw.HIDDEN]}
            for p, t, acts in sorted(merged.values(), key=lambda v: -v[0])]
