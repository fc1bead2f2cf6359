"""Resolving an action: :func:`outcomes` lists every way hidden information, chance and the
reactions can make it end; :func:`apply` picks one; :func:`step` samples one (random playouts).

The resolution is one pure function (:func:`resolve`) that asks a *decider* at each decision point:
a hidden character or token being revealed (``None`` in the position), a token drawn from the face-down
reserve (rule:O2), the sudden-death shuffle (rule:O11), the reactions of rule:O6 and rule:O7, and the
optional effects of rule:O16 (keeping a token, immobilizing the Bandit), which are a player's choice
and appear as separate outcomes (chooser named in the condition: "B saves ..."/"B does not save ...",
"A keeps the token"/"A puts the token back"). :func:`outcomes` walks every decision path.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from solver.contract import draw
from solver.errors import BadInput
from solver.outlaws.actions import Action, legal_actions
from solver.outlaws.rules import Rules
from solver.outlaws.state import (
    COLUMNS,
    EMPTY,
    Knowledge,
    PerSide,
    Position,
    _sorted_reserve,
    evolve,
    other,
    right_of,
    unknown_characters,
    unknown_token_pool,
)
from solver.outlaws.victory import apply_sudden_death, sudden_death_trigger


@dataclass(frozen=True)
class Outcome:
    """One way an action can end: ``condition`` names the hidden facts, draws and reactions that lead
    here; ``probability`` is the chance of the draws/hidden facts given the reactions chosen."""

    condition: str
    position: Position
    probability: Fraction = Fraction(1)


class Decider:
    """Chooses at decision points: ``choose(label, options, chance)`` with options [(text, weight, value)]."""

    def choose(self, label: str, options: list, chance: bool):  # pragma: no cover - interface
        raise NotImplementedError


class Scripted(Decider):
    """Answers by option index from ``prefix`` (0 past its end), recording each question's option count, the
    answers' words and the chance of the path (kept as an integer ratio: the searches walk millions of paths)."""

    def __init__(self, prefix: list[int]):
        self.prefix, self.k = prefix, 0
        self.sizes: list[int] = []
        self.labels: list[str] = []
        self._num, self._den = 1, 1

    @property
    def prob(self) -> Fraction:
        return Fraction(self._num, self._den)

    def choose(self, label, options, chance):
        idx = self.prefix[self.k] if self.k < len(self.prefix) else 0
        self.k += 1
        self.sizes.append(len(options))
        text, weight, value = options[idx]
        if not label:
            self.labels.append(text)
        else:
            self.labels.append(f"{label} {text}" if label.endswith(" is") else f"{label}: {text}")
        if chance:
            self._num *= weight
            self._den *= sum(w for _, w, _ in options)
        return value


class _Random(Decider):
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, label, options, chance):
        if len(options) == 1:
            return options[0][2]
        if chance:
            return options[draw([w for _, w, _ in options], self.rng)][2]
        return self.rng.choice(options)[2]


def outcomes(pos: Position, action: Action, rules: Rules = Rules(), check: bool = True) -> tuple[Outcome, ...]:
    """Every outcome of ``action`` in ``pos`` (one when nothing hidden, random or reactive is involved).
    ``check=False`` skips re-checking legality (for callers iterating :func:`legal_actions`)."""
    if check:
        _check_legal(pos, action, rules)
    found = [Outcome("; ".join(d.labels) or "certain", result, d.prob)
             for d, result in resolutions(pos, action, rules, Scripted)]
    found.sort(key=lambda o: o.condition)
    return tuple(found)


def resolutions(pos: Position, action: Action, rules: Rules, decider: Callable[[list[int]], Decider],
                keep: Callable[[Position], bool] | None = None):
    """Every path of ``action``'s resolution as ``(decider, position)``: ``decider(prefix)`` answers the
    questions of one path by option index from ``prefix`` (0 past its end) and records each question's
    option count in ``sizes``; the walk then visits every other answer, depth first (the one outcome walk
    of :func:`outcomes`, the search's expansion and the game's reaction plans). ``keep`` (the searches) sees
    each position the action's own effects lead to (:func:`act`); the paths after one it refuses are left out."""
    stack: list[list[int]] = [[]]
    acted: tuple | None = None  # the last action part run: (its answers, its questions, the position after it)
    while stack:
        prefix = stack.pop()
        d = decider(prefix)
        if acted is not None and _answers(prefix, len(acted[0])) == acted[0]:
            for question in acted[1]:  # the same answers: the same action part, asked again only for the record
                d.choose(*question)
            mid = acted[2]
        else:
            rec = _Recording(d)
            mid = act(pos, action, rules, rec)
            acted = (_answers(prefix, len(rec.asked)), tuple(rec.asked), mid)
            if keep is not None and not keep(mid):
                _push_other_answers(stack, prefix, d.sizes)
                continue
        result = finish(mid, rules, d)
        yield d, result
        _push_other_answers(stack, prefix, d.sizes)


def _push_other_answers(stack: list, prefix: list[int], sizes: list[int]) -> None:
    """Queue every path that answers one question after ``prefix`` otherwise (depth first, first answers first)."""
    path = prefix + [0] * (len(sizes) - len(prefix))
    for k in range(len(sizes) - 1, len(prefix) - 1, -1):
        for idx in range(sizes[k] - 1, 0, -1):
            stack.append(path[:k] + [idx])


def _answers(prefix: list[int], n: int) -> tuple:
    """The option indices a walk's decider gives the first ``n`` questions (0 past the prefix's end)."""
    return tuple(prefix[:n]) + (0,) * (n - len(prefix))


class _Recording(Decider):
    """Passes every question on to ``inner`` and keeps it, so the walk can ask it again (:func:`resolutions`:
    the paths that differ only after the action part, as the 560 sudden-death layouts do, run it once)."""

    def __init__(self, inner: Decider):
        self.inner, self.asked = inner, []

    def choose(self, label, options, chance):
        self.asked.append((label, options, chance))
        return self.inner.choose(label, options, chance)


def apply(pos: Position, action: Action, rules: Rules = Rules(), outcome: int = 0) -> Position:
    """The position after ``action`` with outcome number ``outcome`` of :func:`outcomes`."""
    outs = outcomes(pos, action, rules)
    if not 0 <= outcome < len(outs):
        raise BadInput(f"outcome {outcome} out of range: this action has {len(outs)} outcome(s)")
    return outs[outcome].position


def step(pos: Position, action: Action, rules: Rules, rng: random.Random) -> Position:
    """One sampled outcome: draws by their chance, reactions chosen uniformly (random playouts).
    Trusts that ``action`` came from :func:`legal_actions`."""
    return resolve(pos, action, rules, _Random(rng))


def _check_legal(pos: Position, action: Action, rules: Rules) -> None:
    if action not in legal_actions(pos, rules):
        raise BadInput(f"illegal action for {pos.to_move} in this position: {action.to_json()}")


# ---------------------------------------------------------------- small pure helpers


def _learn_char(pos: Position, learner: str, col: int) -> Position:
    """``learner`` now knows the opposing character at ``col`` (rule:O-knowledge)."""
    k = pos.knowledge[learner]
    if col in k.characters:
        return pos
    return evolve(pos, knowledge=pos.knowledge.set(learner, evolve(k, characters=k.characters | {col})))


def _forget_chars(pos: Position, learner: str, cols) -> Position:
    k = pos.knowledge[learner]
    return evolve(pos, knowledge=pos.knowledge.set(learner, evolve(k, characters=k.characters - set(cols))))


def _learn_token(pos: Position, learner: str, col: int) -> Position:
    k = pos.knowledge[learner]
    return evolve(pos, knowledge=pos.knowledge.set(learner, evolve(k, tokens=k.tokens | {col})))


def _map_tokens_knowledge(pos: Position, mapping: Callable[[int], int | None]) -> Position:
    """Move both players' token knowledge along with the tokens (``mapping``: old column -> new or None)."""
    ks = []
    for k in pos.knowledge:
        new = frozenset(m for m in (mapping(c) for c in k.tokens) if m is not None)
        ks.append(Knowledge(k.characters, new))
    return evolve(pos, knowledge=PerSide(*ks))


def _reveal_char(pos: Position, side: str, col: int, d: Decider) -> tuple[Position, str]:
    """The identity of ``side``'s character at ``col``; a hidden one becomes a decision."""
    name = pos.street[side][col]
    if name is not None:
        return pos, name
    opts = [(c, 1, c) for c in unknown_characters(pos, side)]
    name = d.choose(f"{side} column {col} is", opts, True)
    row = list(pos.street[side])
    row[col] = name
    return evolve(pos, street=pos.street.set(side, tuple(row))), name


def _reveal_token(pos: Position, col: int, d: Decider) -> tuple[Position, str]:
    tok = pos.tokens[col]
    if tok is not None:
        return pos, tok
    pool = unknown_token_pool(pos)
    tok = d.choose(f"token {col} is", [(k, n, k) for k, n in pool.items()], True)
    toks = list(pos.tokens)
    toks[col] = tok
    return evolve(pos, tokens=tuple(toks)), tok


def _draw_reserve(pos: Position, d: Decider) -> tuple[Position, str]:
    """rule:O2: a random token from the face-down reserve (hidden entries resolved from the unknown pool)."""
    counts: dict = {}
    for t in pos.reserve:
        counts[t] = counts.get(t, 0) + 1
    opts = [(str(t) if t is not None else "an unknown token", n, t) for t, n in counts.items()]
    tok = d.choose("reserve draw", opts, True)
    rest = list(pos.reserve)
    rest.remove(tok)
    pos = evolve(pos, reserve=tuple(rest))
    if tok is None:
        pool = unknown_token_pool(pos)
        # the drawn token is no longer an unknown slot: the pool counts one slot fewer once placed
        tok = d.choose("which is", [(k, n, k) for k, n in pool.items()], True)
    return pos, tok


def _refill(pos: Position, k: int, rules: Rules, d: Decider) -> Position:
    """rule:O2: after the token at column k is taken, tokens 0..k-1 slide one column toward k and a
    reserve token fills column 0; empty reserve: column 0 stays empty (default) or the tokens beyond
    k slide toward it and column 7 stays empty (``refill_empty_reserve``)."""
    toks = list(pos.tokens)
    if not pos.reserve and rules.refill_empty_reserve == "slide_other_end":
        for j in range(k, COLUMNS - 1):
            toks[j] = toks[j + 1]
        toks[COLUMNS - 1] = EMPTY
        pos = evolve(pos, tokens=tuple(toks))
        return _map_tokens_knowledge(pos, lambda c: None if c == k else (c - 1 if c > k else c))
    for j in range(k, 0, -1):
        toks[j] = toks[j - 1]
    toks[0] = EMPTY
    pos = evolve(pos, tokens=tuple(toks))
    pos = _map_tokens_knowledge(pos, lambda c: None if c == k else (c + 1 if c < k else c))
    if pos.reserve:
        pos, new = _draw_reserve(pos, d)
        toks = list(pos.tokens)
        toks[0] = new
        pos = evolve(pos, tokens=tuple(toks))
    return pos


def _take(pos: Position, side: str, col: int, rules: Rules, d: Decider) -> Position:
    """A successful take: the token goes to the side's supply, then the row refills (rule:O2)."""
    kind = pos.tokens[col]
    pos = evolve(pos, supply=pos.supply.set(side, pos.supply[side].add(kind)))
    if kind == "election" and not pos.sudden_death:
        pos = evolve(pos, winner=side, victory="good")  # rule:O-victory-good
    return _refill(pos, col, rules, d)


def _stands(pos: Position, side: str, col: int, name: str, d: Decider) -> tuple[Position, bool]:
    """Whether ``side``'s ``name`` (not immobilized) stands at ``col``; a hidden column that could be
    him becomes a decision."""
    if not 0 <= col < COLUMNS or (side, name) in pos.immobilized:
        return pos, False
    if pos.street[side][col] is None and name in unknown_characters(pos, side):
        pos, _ = _reveal_char(pos, side, col, d)
    return pos, pos.street[side][col] == name


def _reverend_can_cancel(pos: Position, owner: str, target_col: int, sheriff_col: int, rules: Rules,
                         d: Decider) -> tuple[Position, int | None, int | None]:
    """rule:O7: ``owner``'s Reverend standing so that the arrested/immobilized character (default) or the
    arresting Sheriff (alternative) is immediately to his left; with ``mayor_reverend="extended"``
    (rule:O14-reverend) also two places to his left with his Mayor immediately to his left. Returns
    (position, the Reverend's column or None, the Mayor's column or None)."""
    anchor = target_col if rules.reverend_left_of == "target" else sheriff_col
    r = right_of(owner, anchor)
    pos, here = _stands(pos, owner, r, "reverend", d)
    if here or rules.mayor_reverend != "extended":
        return pos, (r if here else None), None
    r2 = right_of(owner, r)
    pos, far = _stands(pos, owner, r2, "reverend", d)
    if not far:
        return pos, None, None
    pos, mayor = _stands(pos, owner, r, "mayor", d)
    return pos, (r2 if mayor else None), (r if mayor else None)


def _cancel(pos: Position, learner: str, rev: int, mayor: int | None) -> Position:
    """The Reverend (and the Mayor extending him) are revealed to ``learner`` by the cancellation."""
    pos = _learn_char(pos, learner, rev)
    return pos if mayor is None else _learn_char(pos, learner, mayor)


def _react(d: Decider, side: str, yes: str, no: str) -> bool:
    return d.choose("", [(f"{side} {yes}", 1, True), (f"{side} {no}", 1, False)], False)


# ---------------------------------------------------------------- the resolution


def resolve(pos: Position, a: Action, rules: Rules, d: Decider) -> Position:
    """The position after ``a``, asking ``d`` at every hidden reveal, draw, reaction and optional
    effect (module docstring): the one resolution :func:`outcomes`, :func:`apply`, :func:`step` and the
    game and line modules share: the action's own effects (:func:`act`), then :func:`finish`."""
    return finish(act(pos, a, rules, d), rules, d)


def finish(pos: Position, rules: Rules, d: Decider) -> Position:
    """After an action's own effects: sudden death when its trigger holds (rule:O11), then the turn."""
    if pos.winner is None and sudden_death_trigger(pos, rules):  # rule:O11
        pos = _sudden_death(pos, d)
    return _next_turn(pos)


def act(pos: Position, a: Action, rules: Rules, d: Decider) -> Position:
    """The action's own effects (rule:O-actions), before sudden death and the turn (:func:`finish`)."""
    side = pos.to_move
    opp = other(side)
    if a.kind == "end_turn":  # rule:O17: nothing changes; with one action left, the turn passes
        pass
    elif a.kind == "move":
        pos = _move(pos, side, opp, a)
    else:
        pos = _learn_char(pos, opp, a.column)  # the actor is revealed to the opponent
        if a.mayor is not None:
            pos = _learn_char(pos, opp, a.mayor)  # rule:O8: the Mayor is revealed too
        if a.kind == "look":  # rule:O-look
            pos, _ = _reveal_token(pos, a.column, d)
            pos = _learn_token(pos, side, a.column)
        elif a.kind == "take":  # rule:O-take, rule:O3
            pos, tok = _reveal_token(pos, a.column, d)
            if tok == a.call and _keeps(d, side, rules):
                pos = _take(pos, side, a.column, rules, d)
            else:
                pos = _learn_token(_learn_token(pos, side, a.column), opp, a.column)
        else:
            pos = _ability(pos, side, opp, a, rules, d)
    return pos


def _keeps(d: Decider, side: str, rules: Rules) -> bool:
    """rule:O16: 'puoi tenere il gettone': keeping a correctly called token is the taker's choice
    (declined: it goes back face down in place, seen by both), or always ("always")."""
    return rules.optional_effects == "always" or _react(d, side, "keeps the token", "puts the token back")


def _next_turn(pos: Position) -> Position:
    """rule:O-turn, rule:O17: two actions per turn, then the other player (a turn ended after one
    action is the ``end_turn`` action)."""
    if pos.winner is not None:
        return pos
    if pos.actions_left > 1:
        return evolve(pos, actions_left=pos.actions_left - 1)
    return evolve(pos, to_move=other(pos.to_move), actions_left=2)


def _sudden_death(pos: Position, d: Decider) -> Position:
    """rule:O11: the 3 Bullets, 3 Handcuffs and 2 Bogus are shuffled face down onto the 8 columns."""
    left = (3, 3, 2)  # Bullets, Handcuffs, Bogus still to lay
    order = []
    for col in range(COLUMNS):
        options, after = _lay_options(left)
        tok = d.choose(_LAY_LABELS[col], options, True)
        left = after[tok]
        order.append(tok)
    return apply_sudden_death(pos, order)


_LAID = ("bullet", "handcuffs", "x")
_LAY_LABELS = tuple(f"sudden death column {col}" for col in range(COLUMNS))


@cache
def _lay_options(left: tuple) -> tuple[list, dict]:
    """The tokens still to lay at sudden death, each weighted by how many are left, and what is left after
    laying each (shared, never changed)."""
    options = [(k, n, k) for k, n in zip(_LAID, left) if n > 0]
    return options, {k: tuple(n - (j == k) for j, n in zip(_LAID, left)) for k, _, _ in options}


def _move(pos: Position, side: str, opp: str, a: Action) -> Position:
    """rule:O-move, rule:O-saloon: swap (or not) two own street characters, or leave the Saloon."""
    i, j = a.columns
    row = list(pos.street[side])
    if a.from_saloon is not None:
        row[i], row[j] = a.placement
        saloon = tuple(sorted([n for n in pos.saloon[side] if n != a.from_saloon] + [a.saloon]))
        pos = evolve(pos, saloon=pos.saloon.set(side, saloon))
    elif a.swap:
        row[i], row[j] = row[j], row[i]
    pos = evolve(pos, street=pos.street.set(side, tuple(row)))
    pos = _forget_chars(pos, opp, (i, j))
    for col in (i, j):  # rule:O-knowledge: a face-up (marked) character stays known where it goes
        if pos.face_up(side, row[col]):
            pos = _learn_char(pos, opp, col)
    return pos


def _ability(pos: Position, side: str, opp: str, a: Action, rules: Rules, d: Decider) -> Position:
    c, t = a.column, a.target
    actor = a.actor
    if actor == "governor":  # rule:O-governor, rule:O5; the Mayor: the token at column t (rule:O14)
        k = c if t is None else t
        pos, tok = _reveal_token(pos, k, d)
        if tok == "election":
            return _take(pos, side, k, rules, d)
        return _learn_token(_learn_token(pos, side, k), opp, k)
    if actor == "merchant":  # rule:O-merchant
        return _merchant(pos, a, d)
    if actor == "dancer":  # rule:O9
        return _dancer(pos, side, opp, c, t)
    if actor == "reverend":  # rule:O-reverend
        pos = evolve(pos, immobilized=pos.immobilized - {(side, "bandit")})
        return _learn_char(pos, opp, t)  # face down again, but the opponent saw where
    if actor == "hitman":  # rule:O-hitman
        pos = _spend(pos, side, "bullet")
    elif actor == "sheriff":  # rule:O-sheriff
        pos = _spend(pos, side, "handcuffs")
    pos, name = _reveal_char(pos, opp, t, d)
    pos = _learn_char(pos, side, t)
    if actor == "hitman":
        return _hitman_hits(pos, side, opp, c, t, name, rules, d) if name == "governor" else pos
    if actor == "sheriff":
        return _sheriff(pos, side, opp, c, t, name, a.call, rules, d)
    if actor == "journalist":  # rule:O-journalist
        sup = pos.supply[side]
        pos = evolve(pos, supply=pos.supply.set(side, sup.add("front_page", -1)))
        if name == a.call:
            return evolve(pos, front_page=pos.front_page | {(opp, name)})
        return evolve(pos, discard=pos.discard.add("front_page"))
    if actor == "bandit":  # rule:O-bandit, rule:O10
        token = {"hitman": "bullet", "sheriff": "handcuffs"}[a.call]
        if name == a.call and getattr(pos.supply[opp], token) > 0:
            sup = pos.supply.set(opp, pos.supply[opp].add(token, -1))
            pos = evolve(pos, supply=sup.set(side, sup[side].add(token)))
        return pos
    return pos  # Indian (rule:O-indian): the reveal is the whole effect


def _spend(pos: Position, side: str, token: str) -> Position:
    return evolve(pos, supply=pos.supply.set(side, pos.supply[side].add(token, -1)),
                   discard=pos.discard.add(token))


def _hitman_hits(pos, side, opp, c, t, name, rules, d) -> Position:
    """The Hitman found the opposing Governor: Bad victory (rule:O-victory-bad) unless the owner's
    Sheriff next to the Governor saves him (rule:O6), which the Reverend may cancel (rule:O7)."""
    sheriff_col = None
    if pos.supply[opp].handcuffs > 0 and (opp, "sheriff") not in pos.immobilized:
        for s in (t - 1, t + 1):
            if not 0 <= s < COLUMNS:
                continue
            if pos.street[opp][s] is None and "sheriff" in unknown_characters(pos, opp):
                pos, _ = _reveal_char(pos, opp, s, d)
            if pos.street[opp][s] == "sheriff":
                sheriff_col = s
                break
    if sheriff_col is not None and _react(d, opp, "saves the Governor with the Sheriff", "does not save the Governor"):
        pos = _spend(pos, opp, "handcuffs")
        pos = _learn_char(pos, side, sheriff_col)
        if rules.sheriff_save == "stop":
            return pos
        pos, rev, mayor = _reverend_can_cancel(pos, side, c, sheriff_col, rules, d)
        if rev is not None and _react(d, side, "cancels the arrest with the Reverend", "does not cancel the arrest"):
            return _cancel(pos, opp, rev, mayor)
        return evolve(pos, winner=opp, victory="ugly")
    return evolve(pos, winner=side, victory="bad")


def _sheriff(pos, side, opp, c, t, name, call, rules, d) -> Position:
    """Correct call: arrest the Hitman (rule:O-victory-ugly) or immobilize the Bandit and recover the
    Handcuffs (rule:O-immobilized), which the Sheriff's player may decline ('lo puoi immobilizzare',
    rule:O16); the target's Reverend may cancel either (rule:O7)."""
    if name != call:
        return pos
    if call == "bandit" and rules.optional_effects == "choice" and not _react(
            d, side, "immobilizes the Bandit", "lets the Bandit go"):
        return pos
    pos, rev, mayor = _reverend_can_cancel(pos, opp, t, c, rules, d)
    what = "arrest" if call == "hitman" else "immobilization"
    if rev is not None and _react(d, opp, f"cancels the {what} with the Reverend", f"does not cancel the {what}"):
        return _cancel(pos, side, rev, mayor)
    if call == "hitman":
        return evolve(pos, winner=side, victory="ugly")
    pos = evolve(pos, immobilized=pos.immobilized | {(opp, "bandit")})
    return evolve(pos, discard=pos.discard.add("handcuffs", -1),
                   supply=pos.supply.set(side, pos.supply[side].add("handcuffs")))


def _merchant(pos: Position, a: Action, d: Decider) -> Position:
    """rule:O-merchant: swap two tokens within reach, or one with a reserve token (unseen by both after)."""
    toks = list(pos.tokens)
    if not a.reserve:
        i, j = a.token_columns
        toks[i], toks[j] = toks[j], toks[i]
        pos = evolve(pos, tokens=tuple(toks))
        return _map_tokens_knowledge(pos, lambda col: j if col == i else (i if col == j else col))
    (i,) = a.token_columns
    pos, new = _draw_reserve(pos, d)
    old = toks[i]
    toks[i] = new
    pos = evolve(pos, tokens=tuple(toks), reserve=_sorted_reserve(pos.reserve + (old,)))
    return _map_tokens_knowledge(pos, lambda col: None if col == i else col)


def _dancer(pos: Position, side: str, opp: str, c: int, j: int) -> Position:
    """rule:O9: the opposing character at j moves in front of the Dancer (column c); those between shift."""
    row = list(pos.street[opp])
    name = row.pop(j)
    row.insert(c, name)
    lo, hi = min(c, j), max(c, j)

    def new_col(col: int) -> int:
        if col == j:
            return c
        if lo <= col <= hi:
            return col + 1 if j > c else col - 1
        return col

    k = pos.knowledge[side]
    knowledge = pos.knowledge.set(side, evolve(k, characters=frozenset(new_col(x) for x in k.characters)))
    return evolve(pos, street=pos.street.set(opp, tuple(row)), knowledge=knowledge)
