"""Action icon sequences as the user types them from the lone ranger's card, and their resolution.

Syntax (case-insensitive; documented in ``docs/cactus.md``)::

    card      := sequence [ "|" sequence ]     left: with a visible target, right: without
    sequence  := element { " " element }      an uninterrupted sequence, carried out left to right
    element   := icon { "/" icon }             alternatives: the first possible one is carried out
    icon      := RUN | SNEAK | SPRINT | DUEL | CONFUSE | PASS | RUN ALL | SNEAK ALL
               | DOUBLE SNEAK | HORIZONTAL SNEAK | VERTICAL SNEAK | "[" any name "]"

Two-word icons may be typed with a space, ``-`` or ``_`` (``DOUBLE SNEAK``, ``double-sneak``);
``H-SNEAK`` and ``V-SNEAK`` are short forms. ``[NAME:possible]`` / ``[NAME:not possible]`` is a
base-game icon this tool does not model, printed on your card, with the outcome the base game gives
it in this position (rule:C15): you type whether it can be carried out; no default is assumed, so a
bare ``[NAME]`` is bad input. You apply its effect yourself.

rule:C-icon-sequence: icons in a sequence are carried out left to right, impossible icons are
skipped, ``A/B`` does A if possible else B, and when none of a slash is possible he passes his
turn (rule:C14: nothing more of the row by default, or only that group). An explicit PASS icon
passes the same way. rule:C9 picks the row of the card (visible target or not). rule:C-duel and
rule:C-confuse need an outlaw on his building (rule:C12 whom, when several); a duel branches into
win / loss (/ tie) with the position's duel chances, a lost duel pushes him (rule:C11).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from solver.cactus import town as tw
from solver.cactus.readings import CactusReadings, frac_str
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
    possible: bool | None = None  # custom icons only: the outcome the user typed (rule:C15)

    def text(self) -> str:
        if not self.custom:
            return self.name
        return f"[{self.name}:{'possible' if self.possible else 'not possible'}]"


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


OUTCOMES = {"possible": True, "yes": True, "not possible": False, "not-possible": False, "impossible": False,
            "no": False}


def _custom(tok: str, col: int, index: int, what: str) -> Icon:
    """rule:C15 ``[NAME:possible]`` or ``[NAME:not possible]``: the user says what the base game
    gives the icon here; a missing outcome is bad input (no outcome is invented)."""
    inner = tok[1:-1].strip()
    name, _, outcome = inner.partition(":")
    name = name.strip().upper()
    if not name:
        raise _err(what, "empty custom icon", tok, col, index)
    key = " ".join(outcome.split()).lower()
    if key not in OUTCOMES:
        raise BadInput(f"{what}: custom icon '{tok}' at column {col} (token {index}) needs the outcome the base game "
                       f"gives it here: type [{name}:possible] or [{name}:not possible] (no default is assumed)")
    return Icon(name, True, col, OUTCOMES[key])


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
            icon = _custom(tok, col, index, what)
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

class DuelResult(StrEnum):
    """How a duel the lone ranger starts ends for him (rule:C-duel), equal to the action's ``"result"`` string: won,
    lost (he is pushed, rule:C11), or a tie that stands (rule:C8)."""

    WON = "won"
    LOST = "lost"
    TIE = "tie"


@dataclass(frozen=True)
class Turn:
    """What a turn needs beyond the town: the chances of a duel he starts (rule:C-duel, from
    ``duel.py``; ties only under ``duel_ties`` ``tie``) and the building he entered his own from
    (rule:C11 ``came_from``; None when unknown)."""

    win: Fraction = Fraction(1, 2)
    lose: Fraction = Fraction(1, 2)
    came_from: tw.Cell | None = None

    @property
    def tie(self) -> Fraction:
        return 1 - self.win - self.lose


Outcome = tuple[Fraction, tw.Town, dict, "tw.Cell | None"]  # chance, town after, action, came_from after


def opponents(town: tw.Town, readings: CactusReadings) -> tuple[tuple[Fraction, tw.Outlaw], ...]:
    """rule:C12 whom he duels or confuses among the outlaws on his building: ``random`` (each
    equally likely) or ``most_plunder`` (those carrying the most plunder, equally likely)."""
    here = tw.sharing(town)
    if here and readings.sharing_pick == "most_plunder":
        most = max(o.plunder for o in here)
        here = tuple(o for o in here if o.plunder == most)
    return tuple((Fraction(1, len(here)), o) for o in here)


def _duel(town: tw.Town, readings: CactusReadings, turn: Turn, came: tw.Cell | None) -> list[Outcome]:
    """rule:C-duel a duel he starts, won / lost / tied with the turn's chances; rule:C11 the loser
    is pushed off the building, so later movement icons are possible again."""
    out: list[Outcome] = []
    for p, o in opponents(town, readings):
        base = {"icon": "DUEL", "with": o.name}
        if turn.win:
            out.append((p * turn.win, town, {**base, "result": DuelResult.WON, "note": "the next event card is discarded "
                        "(rule C10: every duel he starts and wins); the outlaw's loss follows the base game"}, came))
        if turn.lose:
            for q, pushed in tw.push_outcomes(town, came, readings):
                out.append((p * turn.lose * q, pushed, {**base, "result": DuelResult.LOST, "pushed_to": list(pushed.ranger),
                                                        "note": "a losing lone ranger is pushed (rule C11)"},
                            town.ranger))
        if turn.tie:
            out.append((p * turn.tie, town, {**base, "result": DuelResult.TIE}, came))
    return out


def icon_outcomes(town: tw.Town, icon: Icon, readings: CactusReadings, turn: Turn = Turn(),
                  came: tw.Cell | None = None, target: str | None = None) -> tuple[Outcome, ...]:
    """The outcomes of one icon, or ``()`` when it cannot be carried out (an action marked
    ``not_possible`` when it cannot on one draw of the target, rule:C6; ``target`` the outlaw
    drawn earlier this turn)."""
    if icon.custom:  # rule:C15: as the user typed it
        note = "carry it out as the base game says (not modelled)"
        return ((Fraction(1), town, {"icon": icon.text(), "note": note}, came),) if icon.possible else ()
    name = icon.name
    if name == "PASS":
        return ((Fraction(1), town, {"icon": "PASS", "pass_turn": True}, came),)
    if name == "DUEL":
        return tuple(_duel(town, readings, turn, came))
    if name == "CONFUSE":  # rule:C-confuse
        note = "look at the outlaws' target cards, archive one; they draw a new one"
        return tuple((p, town, {"icon": name, "with": o.name, "note": note}, came) for p, o in opponents(town, readings))
    out = []
    for p, t, act in tw.move_outcomes(town, name, readings, target):
        path = act.get("path") or []
        before = ([town.ranger] + [tuple(c) for c in path])[-2] if path else came
        out.append((p, t, act, before))
    return tuple(out)


Branch = tuple[Fraction, tw.Town, list, "tw.Cell | None", bool, "str | None"]  # ..., row ended (rule:C14), target


def _aim(act: dict, target: str | None) -> str | None:
    """The outlaw he heads for after ``act`` (rule:C6 the drawn target)."""
    return act["toward"][-1] if act.get("toward") else target


def _element(branch: Branch, element: Element, readings: CactusReadings, turn: Turn) -> list[Branch]:
    """One slash group on one branch: the first possible icon; none possible -> he passes his turn
    (rule:C14), a lone impossible icon is skipped (rule:C-icon-sequence)."""
    p0, t0, acts0, came0, _, aim0 = branch
    pending = [(p0, t0, acts0, came0, aim0)]
    done: list[Branch] = []
    for icon in element:
        still = []
        for p, t, acts, came, aim in pending:
            outs = icon_outcomes(t, icon, readings, turn, came, aim)
            if not outs:
                still.append((p, t, acts, came, aim))
            for q, t2, a, came2 in outs:
                if a.get("not_possible"):
                    still.append((p * q, t, acts + [a], came, _aim(a, aim)))
                else:
                    ends = bool(a.get("pass_turn")) and readings.pass_turn == "ends_row"
                    done.append((p * q, t2, acts + [a], came2, ends, _aim(a, aim)))
        pending = still
    label = "/".join(i.text() for i in element)
    for p, t, acts, came, aim in pending:
        if len(element) > 1:
            note = ("none possible: he passes his turn, " + ("nothing more of this row (rule C14)"
                    if readings.pass_turn == "ends_row" else "the row goes on (rule C14 icon_only)"))
            done.append((p, t, acts + [{"icon": label, "skipped": True, "pass_turn": True, "note": note}], came,
                         readings.pass_turn == "ends_row", aim))
        elif len(acts) > len(acts0) and acts[-1].get("not_possible"):  # not possible on this draw (rule:C6)
            done.append((p, t, acts[:-1] + [{**acts[-1], "skipped": True}], came, False, aim))
        else:
            done.append((p, t, acts + [{"icon": label, "skipped": True}], came, False, aim))
    return done


def _idle(a: dict) -> bool:
    return bool(a.get("skipped") or a.get("not_possible"))


def resolve_sequence(town: tw.Town, seq: Sequence, readings: CactusReadings = CactusReadings(),
                     turn: Turn = Turn()) -> list[dict]:
    """rule:C-icon-sequence: all outcomes of carrying out ``seq`` with exact chances."""
    branches: list[Branch] = [(Fraction(1), town, [], turn.came_from, False, None)]
    for element in seq:
        branches = [nb for b in branches for nb in ([b] if b[4] else _element(b, element, readings, turn))]
    merged: dict[tuple, list] = {}
    for p, t, acts, _, ended, _ in branches:
        if all(_idle(a) for a in acts) and not any(a.get("pass_turn") for a in acts):
            acts = acts + [{"icon": "PASS", "note": "no icon could be carried out: he passes"}]
        key = (repr(acts), t.ranger, ended)
        if key in merged:
            merged[key][0] += p
        else:
            merged[key] = [p, t, acts, ended]
    return [{"p": frac_str(p), "actions": acts, "ranger": list(t.ranger), "row_ended_by_pass": ended,
             "revealed": [[x, y] for y in range(tw.SIZE) for x in range(tw.SIZE)
                          if t.grid[y][x] == tw.REVEALED_UNKNOWN and town.grid[y][x] == tw.HIDDEN]}
            for p, t, acts, ended in sorted(merged.values(), key=lambda v: -v[0])]
