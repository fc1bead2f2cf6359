"""A line of play through the Outlaws game contract: a start :class:`~solver.outlaws.game.Game`, the
plays made and, for each, which of the contract's chance outcomes happened; replayed through
:func:`~solver.outlaws.game.outcomes` (the engine owns every rule: rule:O-actions, rule:O-turn).

Also the plain-words view of a play's outcomes for people: what chance decided (the engine's own
conditions: hidden characters and tokens revealed, reserve draws rule:O2, the sudden-death shuffle
rule:O11) and what follows from it (tokens gained, victories), and the answers a play gives to the
reaction questions (rule:O6, rule:O7).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.errors import BadInput
from solver.outlaws import apply as ap
from solver.outlaws import game as gm
from solver.outlaws.position import SIDES, Position
from solver.outlaws.victory_names import victory_words

__all__ = ["Step", "replay", "line_to_json", "line_from_json", "outcome_texts", "play_text",
           "FORMAT"]

FORMAT = "outlaws-line"
TOKEN_WORDS = {"vote": "a Vote", "bullet": "a Bullet", "handcuffs": "Handcuffs", "x": "a Bogus X",
               "election": "the Election token", "None": "an unknown token"}


@dataclass(frozen=True)
class Step:
    """One play and the index of the outcome that happened among ``outcomes(game, play)``."""

    play: gm.Play
    outcome: int = 0


def replay(start: gm.Game, steps: list[Step] | tuple[Step, ...]) -> list[gm.Game]:
    """The games along the line: ``[start, after step 1, ...]``; BadInput names the first bad step."""
    games = [start]
    for n, step in enumerate(steps, start=1):
        try:
            outs = gm.outcomes(games[-1], step.play)
        except BadInput as exc:
            raise BadInput(f"step {n}: {exc}") from None
        if not 0 <= step.outcome < len(outs):
            raise BadInput(f"step {n}: outcome {step.outcome} does not exist (this play has {len(outs)})")
        games.append(outs[step.outcome][1])
    return games


def line_to_json(start: gm.Game, steps: list[Step] | tuple[Step, ...]) -> dict:
    return {"format": FORMAT, "start": gm.state_to_json(start),
            "steps": [{"action": gm.action_to_json(s.play), "outcome": s.outcome} for s in steps]}


def line_from_json(doc: Any) -> tuple[gm.Game, list[Step], list[gm.Game]]:
    """(start, steps, games) from :func:`line_to_json`'s document, replayed through the engine."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BadInput(f"line: expected an object with \"format\": \"{FORMAT}\", \"start\" and \"steps\"")
    unknown = sorted(set(doc) - {"format", "start", "steps"})
    if unknown:
        raise BadInput(f"line: unknown key '{unknown[0]}'")
    start = gm.state_from_json(doc.get("start"))
    raw = doc.get("steps", [])
    if not isinstance(raw, list):
        raise BadInput("line.steps: expected a list")
    steps = []
    for n, item in enumerate(raw, start=1):
        if not isinstance(item, dict) or set(item) != {"action", "outcome"}:
            raise BadInput(f"step {n}: expected {{\"action\": ..., \"outcome\": n}}")
        k = item["outcome"]
        if not isinstance(k, int) or isinstance(k, bool):
            raise BadInput(f"step {n}: outcome must be a whole number")
        try:
            play = gm.action_from_json(item["action"])
        except (BadInput, TypeError) as exc:
            raise BadInput(f"step {n}: {exc}") from None
        steps.append(Step(play, k))
    return start, steps, replay(start, steps)


# ---------------------------------------------------------------- words for people


def _pretty(condition: str) -> str:
    """The engine's condition labels as a sentence: "B column 3 is sheriff" -> "B's column 3 is the Sheriff"."""
    out = []
    for part in condition.split("; "):
        m = re.fullmatch(r"([AB]) column (\d) is (\w+)", part)
        if m:
            out.append(f"{m[1]}'s column {m[2]} is the {m[3].title()}")
            continue
        m = re.fullmatch(r"token (\d) is (\w+)", part)
        if m:
            out.append(f"token {m[1]} is {TOKEN_WORDS.get(m[2], m[2])}")
            continue
        m = re.fullmatch(r"(reserve draw|which is|sudden death column (\d)): (.+)", part)
        if m:
            what = TOKEN_WORDS.get(m[3], m[3])
            out.append(f"the reserve gives {what}" if m[1] == "reserve draw" else
                       (f"it is {what}" if m[1] == "which is" else f"sudden death lays {what} on column {m[2]}"))
            continue
        out.append(part)
    return "; ".join(out)


def _consequences(before: Position, after: Position) -> list[str]:
    """What changed that a player counts: supplies, marks, immobilizations, sudden death, the winner."""
    out = []
    for side in SIDES:
        b, a = before.supply[side], after.supply[side]
        for key, word in (("vote", "Vote"), ("bullet", "Bullet"), ("handcuffs", "Handcuffs"),
                          ("election", "Election token")):
            d = getattr(a, key) - getattr(b, key)
            if d:
                out.append(f"{side} {'gains' if d > 0 else 'loses'} {abs(d)} {word}{'s' if abs(d) > 1 and key != 'handcuffs' else ''}")
    for side, name in sorted(after.front_page - before.front_page):
        out.append(f"{side}'s {name.title()} is marked on the Front Page")
    if after.supply[before.to_move].front_page < before.supply[before.to_move].front_page \
            and after.front_page == before.front_page:
        out.append(f"{before.to_move}'s Front Page call misses (the marker is discarded)")
    for side, name in sorted(after.immobilized - before.immobilized):
        out.append(f"{side}'s {name.title()} is immobilized")
    for side, name in sorted(before.immobilized - after.immobilized):
        out.append(f"{side}'s {name.title()} is freed")
    if after.sudden_death and not before.sudden_death:
        out.append("sudden death begins")
    if after.winner and not before.winner:
        out.append(f"{after.winner} wins {victory_words(after.victory)}")
    return out


def outcome_texts(game: gm.Game, play: gm.Play) -> list[tuple[Fraction, gm.Game, str]]:
    """The contract's outcomes of ``play`` with a plain sentence each: the chance facts that lead
    there (the engine's conditions, merged where they end alike), then what follows from them."""
    outs = gm.outcomes(game, play)
    conditions: dict[Position, list[str]] = {}
    for o in ap.outcomes(game.position, play.action, game.readings, check=False):
        conditions.setdefault(o.position, []).append(o.condition)
    texts = []
    for p, g in outs:
        conds = [c for c in dict.fromkeys(conditions.get(g.position, [])) if c != "certain"]
        chance = " or ".join(_pretty(c) for c in conds)
        after = _consequences(game.position, g.position)
        words = "; ".join(x for x in (chance, ", ".join(after)) if x) or "nothing hidden: certain"
        texts.append((p, g, words[0].upper() + words[1:]))
    return texts


def play_text(game: gm.Game, play: gm.Play) -> str:
    """The engine's sentence for the action, with the reaction answers when it has any."""
    side = game.position.to_move
    text = play.action.describe(side)
    if play.action.kind == "move" and play.action.columns and not play.action.from_saloon:
        row = game.position.street[side]
        text += " (" + ", ".join(f"{(row[c] or 'face down').title()} at {c}" for c in play.action.columns) + ")"
    extra = _reaction_plan_text(game, play)
    return f"{text} ({extra})" if extra else text


def _reaction_plan_text(game: gm.Game, play: gm.Play) -> str:
    """The answers this plan gives, in the order the questions arise ("reaction: B saves ...")."""
    if not play.reactions:
        return ""
    d = _Questions(play.reactions)
    ap.resolve(game.position, play.action, game.readings, d)
    return "; ".join(f"reaction: {answer}" for answer in d.answers)


class _Questions(ap.Decider):
    """Follows one plan through the engine's resolution (first chance option each time), noting the
    answer it gives to each reaction question in the engine's own words."""

    def __init__(self, reactions: tuple[bool, ...]):
        self.reactions, self.answers = reactions, []

    def choose(self, label, options, chance):
        if chance:
            return options[0][2]
        value = self.reactions[len(self.answers)] if len(self.answers) < len(self.reactions) else options[0][2]
        self.answers.append(next(t for t, _, v in options if v == value))
        return value
