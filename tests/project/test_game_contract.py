"""The game contract: the three game packages export one surface (``Readings``, ``initial_state``,
``legal_actions``, ``outcomes`` and, where nothing is left to chance, ``apply``, ``is_terminal``,
``winner``, ``to_json``/``from_json``, ``action_to_json``/``action_from_json``), and random games played
through it keep its promises at every step (as OpenSpiel's ``random_sim_test`` and pgx's ``api_test``):

- legal actions are non-empty exactly while the game is not over, and a winner exists only at the end;
- ``outcome`` (python-chess's ``Outcome``) is None exactly while the game is not over; at the end it names the
  winner ``winner`` names and what ended the game, each a ``StrEnum`` member equal to the files' string;
- ``outcomes`` is pure (its input is unchanged, with the same hash) and its exact probabilities are
  positive and sum to 1; Lone Cowboy's ``apply`` is its single certain outcome;
- ``to_json``/``from_json`` (through real JSON text) round-trips every state, and every action;
- games end within their bound (Lone Cowboy: 16 cards; Cactus Town: the decks); Outlaws has no bound
  (moves can repeat forever), so its walks are capped and some must end on a victory;
- chance is OpenSpiel's where a game has chance nodes (Lone Cowboy's followed games, whose deal is
  unknown): at a state where ``is_chance_node`` holds, the legal actions are the chance outcomes
  (``Reveal(card)``), ``chance_outcomes(state)`` gives each with its exact probability (positive
  Fractions summing to 1, the same actions in the same order as ``legal_actions``), the walk draws
  one with those probabilities, and ``outcomes(state, reveal)`` is its single certain result;
- seeded playthroughs are golden files (``tests/golden/playthroughs/``) that must not drift. After an
  intended change of behaviour, rewrite them with ``RULESLINGER_WRITE_GOLDEN=1`` and read the diff.

Exact oracles for the adapters: the Cactus Town game tree gives the same marshal distribution as the
closed-form solo odds and the event-deck chain; its solo deck contents match ``contents_outcomes``;
Outlaws plays with every reaction plan give back exactly the engine's outcomes.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from enum import StrEnum
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver.cactus
import solver.outlaws
import solver.wagons
from solver import registry
from solver.cactus import odds
from solver.cactus import solo_deck as sd
from solver.cactus.game import NextRound
from solver.cactus.readings import CactusReadings
from solver.contract import GameContract
from solver.errors import BadInput
from solver.outlaws.actions import Action
from solver.outlaws.apply import outcomes as engine_outcomes
from solver.outlaws.game import Game
from solver.outlaws.position_json import load_position
from solver.paths import SCENARIOS
from solver.wagons.data import SCENARIO_IDS
from tests.support import golden as golden_files
from tests.support.builders.outlaws import pos
from tests.support.paths import GOLDEN

PLAYTHROUGHS = GOLDEN / "playthroughs"
SURFACE = ("Readings", "State", "initial_state", "legal_actions", "outcomes", "is_terminal", "winner", "outcome",
           "to_json", "from_json", "action_to_json", "action_from_json")
OUTLAWS_CAP = 120


def _outlaws_from(name: str):
    return lambda seed: Game(load_position(SCENARIOS / "outlaws" / f"{name}.json"))


# (label, game module, state from a seed, step bound or None, seeds)
SETUPS = [
    *[(f"wagons-{s}", solver.wagons, lambda seed, s=s: solver.wagons.initial_state(seed, scenario=s), 40, (0, 1))
      for s in SCENARIO_IDS],
    ("wagons-followed-boomtown", solver.wagons, lambda seed: solver.wagons.new_followed_game("boomtown"),
     40 + 16, (0,)),
    ("wagons-later-edition", solver.wagons,
     lambda seed: solver.wagons.initial_state(seed, solver.wagons.Readings(edition="later", match_order="deck-first")),
     40, (2,)),
    ("cactus-solo", solver.cactus, lambda seed: solver.cactus.initial_state(seed), 12, (0, 1, 2)),
    ("cactus-solo-events", solver.cactus,
     lambda seed: solver.cactus.initial_state(seed, CactusReadings(solo_events=True, short_deck="keep_second_shot")),
     14, (0, 1)),
    ("cactus-solo-stop-archiving", solver.cactus,
     lambda seed: solver.cactus.initial_state(seed, CactusReadings(short_deck="stop_archiving")), None, (0,)),
    *[(f"cactus-{n}-players", solver.cactus, lambda seed, n=n: solver.cactus.initial_state(seed, players=n), 13,
       (0, 1, 2)) for n in (2, 3, 4, 5)],
    ("cactus-duels", solver.cactus,
     lambda seed: solver.cactus.initial_state(seed, CactusReadings(duel_win_chance=Fraction(1, 2),
                                                                marshal_discard="discarded"), players=4), 13, (0, 1)),
    ("outlaws-setup", solver.outlaws, lambda seed: solver.outlaws.initial_state(seed), None, (0, 1)),
    ("outlaws-sheriff-save", solver.outlaws, _outlaws_from("sheriff-save"), None, (0, 1, 2)),
    ("outlaws-view-of-a", solver.outlaws, _outlaws_from("view-of-A"), None, (0,)),
    ("outlaws-sudden-death-near", solver.outlaws, _outlaws_from("sudden-death-near"), None, (0,)),
    ("outlaws-governor-can-win", solver.outlaws, _outlaws_from("governor-can-win"), None, (0, 1)),
]
CASES = [(label, game, make, bound, seed) for label, game, make, bound, seeds in SETUPS for seed in seeds]


def _digest(doc: dict) -> str:
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]


def _check_state(game, state) -> dict:
    """The per-state promises; returns the state's JSON document."""
    legal = game.legal_actions(state)
    assert bool(legal) != game.is_terminal(state)
    assert (game.winner(state) is None) or game.is_terminal(state)
    _check_outcome(game, state)
    doc = game.to_json(state)
    back = game.from_json(json.loads(json.dumps(doc)))
    assert back == state and hash(back) == hash(state) and game.to_json(back) == doc
    return doc


def _check_outcome(game, state) -> None:
    """None until the end; then the winner ``winner`` names (None: nobody) and what ended the game, as values."""
    out = game.outcome(state)
    assert (out is None) != game.is_terminal(state)
    if out is not None:
        assert out.winner == game.winner(state) and isinstance(out.termination, StrEnum)
        assert out.winner is None or isinstance(out.winner, StrEnum)
        assert tuple(out) == (out.winner, out.termination)


def _check_step(game, state, action, doc: dict) -> list:
    before = hash(state)
    assert game.action_from_json(json.loads(json.dumps(game.action_to_json(action)))) == action
    outs = game.outcomes(state, action)
    assert hash(state) == before and game.to_json(state) == doc  # pure: the input is unchanged
    assert outs and all(isinstance(p, Fraction) and p > 0 for p, _ in outs)
    assert sum(p for p, _ in outs) == 1
    assert len({s for _, s in outs}) == len(outs)  # equal states are merged
    if "apply" in game.__all__:  # no chance left: apply is the one certain outcome
        assert outs == [(Fraction(1), game.apply(state, action))]
        assert hash(state) == before
    return outs


def _chance_action(game, state, rng: random.Random):
    """At a chance node, an outcome drawn with the exact chances of ``chance_outcomes``."""
    chances = game.chance_outcomes(state)
    assert all(isinstance(p, Fraction) and p > 0 for p, _ in chances) and sum(p for p, _ in chances) == 1
    assert tuple(a for _, a in chances) == tuple(game.legal_actions(state))
    return chances[_pick(chances, rng)][1]


def _pick(outs: list, rng: random.Random) -> int:
    x, acc = Fraction(rng.random()), Fraction(0)
    for i, (p, _) in enumerate(outs):
        acc += p
        if x < acc:
            return i
    return len(outs) - 1


def play(game, state, seed: int, cap: int) -> dict:
    """A random game through the contract, checking every step; the playthrough as a document."""
    rng = random.Random(seed)
    record: dict = {"actions": [], "outcomes": [], "digests": []}
    for _ in range(cap):
        doc = _check_state(game, state)
        record["digests"].append(_digest(doc))
        if game.is_terminal(state):
            break
        if hasattr(game, "is_chance_node") and game.is_chance_node(state):
            action = _chance_action(game, state, rng)
        else:
            action = rng.choice(game.legal_actions(state))
        outs = _check_step(game, state, action, doc)
        k = _pick(outs, rng)
        record["actions"].append(game.action_to_json(action))
        record["outcomes"].append(k)
        state = outs[k][1]
    record["terminal"] = game.is_terminal(state)
    record["winner"] = game.winner(state)
    record["final"] = game.to_json(state)
    return record


@pytest.mark.parametrize("registered", registry.GAMES, ids=lambda g: g.id)
def test_every_registered_game_exports_the_contract(registered):
    game = registered.engine
    assert all(hasattr(game, name) for name in SURFACE), [n for n in SURFACE if not hasattr(game, n)]
    assert set(SURFACE) <= set(game.__all__)
    assert isinstance(game, GameContract)


@pytest.mark.parametrize("registered", registry.GAMES, ids=lambda g: g.id)
def test_every_registered_game_plays_from_its_default_setup_and_has_golden_walks(registered):
    """A random game from the default set-up keeps the contract (OpenSpiel's ``random_sim_test``), whatever the game;
    and every registered game has seeded playthroughs among the golden cases."""
    game = registered.engine
    play(game, game.initial_state(0), 0, 60)
    assert any(g is game for _label, g, _make, _bound, _seed in CASES), f"{registered.id}: no golden playthrough"


@pytest.mark.parametrize(("label", "game", "make", "bound", "seed"), CASES,
                         ids=[f"{c[0]}-{c[4]}" for c in CASES])
def test_random_playthrough(label, game, make, bound, seed):
    record = play(game, make(seed), seed, (bound or OUTLAWS_CAP if game is solver.outlaws else 400) + 1)
    if bound is not None or game is not solver.outlaws:
        assert record["terminal"], f"{label}: not over after {len(record['actions'])} actions"
    if bound is not None:
        assert len(record["actions"]) <= bound
    path = PLAYTHROUGHS / f"{label}-seed{seed}.json"
    if golden_files.WRITE:
        golden_files.write(path, record)
    assert path.exists(), f"missing golden playthrough {path.name} (RULESLINGER_WRITE_GOLDEN=1 writes it)"
    assert json.loads(path.read_text()) == record, f"{path.name}: the playthrough drifted"


@pytest.mark.parametrize("scenario", SCENARIO_IDS)
@pytest.mark.parametrize("seed", [1, 2])
def test_followed_lone_cowboy_games_keep_the_contract(scenario, seed):
    """Followed games (their deal unknown, rule:W-reveal) played at random through the surface, the
    chance nodes drawn from ``chance_outcomes``: every promise holds and every card is revealed."""
    game = solver.wagons
    record = play(game, game.new_followed_game(scenario, game.Readings(round1_pick="last")), seed, 40 + 16 + 1)
    assert record["terminal"] and len(record["actions"]) <= 40 + 16
    assert sum("reveal" in a for a in record["actions"]) == 16
    assert record["final"]["seed"] is None and "hidden_circle" not in record["final"]


def test_some_outlaws_walks_end_on_a_victory():
    ends = [play(solver.outlaws, _outlaws_from("governor-can-win")(0), seed, OUTLAWS_CAP)["winner"]
            for seed in range(3)]
    assert any(w in ("A", "B") for w in ends), ends


def test_terminal_states_refuse_actions():
    over = solver.cactus.initial_state(0)
    while not solver.cactus.is_terminal(over):
        over = solver.cactus.outcomes(over, NextRound())[-1][1]
    with pytest.raises(BadInput):
        solver.cactus.outcomes(over, NextRound())
    won = Game(load_position(SCENARIOS / "outlaws" / "won-ugly.json"))
    assert solver.outlaws.is_terminal(won) and solver.outlaws.legal_actions(won) == ()
    assert solver.outlaws.winner(won) in ("A", "B")


def _ends(game, state) -> set:
    """Every end ``state`` can reach (the whole tree; small games only)."""
    front, ends = {state}, set()
    while front:
        ends |= {s for s in front if game.is_terminal(s)}
        front = {t for s in front if not game.is_terminal(s) for _, t in game.outcomes(s, game.legal_actions(s)[0])}
    return ends


def test_each_game_names_how_it_ended():
    """How a game ended is one value (issue 31 "values, not strings"; python-chess's ``Outcome``): who won and
    what ended it, each equal to the string the files carry."""
    from solver.cactus.events import EndCause
    from solver.cactus.game import LONE_RANGER
    from solver.contract import Outcome
    from solver.outlaws.position import Side
    from solver.outlaws.victory_names import Way
    from solver.wagons.game import scores
    from solver.wagons.scoring import DecidedBy, Winner

    won = Game(load_position(SCENARIOS / "outlaws" / "won-ugly.json"))
    assert solver.outlaws.outcome(won) == Outcome(Side.B, Way.UGLY) == ("B", "ugly")
    assert solver.outlaws.outcome(solver.outlaws.initial_state(0)) is None
    state = solver.wagons.initial_state(0)
    while not solver.wagons.is_terminal(state):
        state = solver.wagons.apply(state, solver.wagons.legal_actions(state)[0])
    margin = scores(state).margin
    assert solver.wagons.outcome(state) == (
        (Winner.TIE, DecidedBy.TIE) if margin == 0 else (Winner.PLAYER if margin > 0 else Winner.OPPONENT,
                                                          DecidedBy.TOTAL))
    solo = {solver.cactus.outcome(s) for s in _ends(solver.cactus, solver.cactus.initial_state(0))}
    assert solo == {Outcome(LONE_RANGER, EndCause.SOLO_DECK)} and LONE_RANGER == "lone ranger"
    readings = CactusReadings(duel_win_chance=Fraction(1, 2), marshal_discard="discarded")
    duels = {solver.cactus.outcome(s) for s in _ends(solver.cactus, solver.cactus.initial_state(0, readings, players=2))}
    assert Outcome(None, EndCause.DECK_USED_UP) in duels and Outcome(LONE_RANGER, EndCause.DUEL) not in duels
    assert {o.termination for o in duels} <= {EndCause.EVENT, EndCause.TRAIN, EndCause.DECK_USED_UP}


# ---------------------------------------------------------------- exact oracles for the adapters


def _end_rounds(game, state, horizon: int = odds.SOLO_HORIZON) -> dict:
    """Round -> chance the game ends then (None: not by ``horizon``), by walking the whole tree."""
    frontier, out = Counter({state: Fraction(1)}), Counter()
    while frontier:
        nxt: Counter = Counter()
        for s, p in frontier.items():
            if game.is_terminal(s) or s.round >= horizon:
                out[s.round if s.end_cause else None] += p
                continue
            for q, t in game.outcomes(s, NextRound()):
                nxt[t] += p * q
        frontier = nxt
    return dict(out)


@pytest.mark.parametrize("readings", [CactusReadings(), CactusReadings(short_deck="keep_second_shot"),
                                   CactusReadings(short_deck="stop_archiving"), CactusReadings(added_card="lowest_number")],
                         ids=["default", "keep-second-shot", "stop-archiving", "lowest-number"])
def test_cactus_solo_tree_matches_the_closed_form_odds(readings):
    assert _end_rounds(solver.cactus, solver.cactus.initial_state(0, readings)) == odds.solo_deck_distribution(readings)


@pytest.mark.parametrize("seed", [0, 5])
def test_cactus_event_tree_matches_the_event_chain(seed):
    readings = CactusReadings(duel_win_chance=Fraction(1, 3), marshal_discard="discarded")
    start = solver.cactus.initial_state(seed, readings, players=3)
    assert _end_rounds(solver.cactus, start) == dict(odds._end_from(start.events, readings))


@pytest.mark.parametrize("readings", [CactusReadings(), CactusReadings(added_card="lowest_number")], ids=["uniform", "lowest"])
def test_cactus_solo_deck_contents_match_the_schedule(readings):
    frontier = Counter({solver.cactus.initial_state(0, readings): Fraction(1)})
    for rnd in range(1, 10):
        alive = {s: p for s, p in frontier.items() if not solver.cactus.is_terminal(s)}
        total = sum(alive.values())
        seen: Counter = Counter()
        for s, p in alive.items():
            seen[frozenset(s.solo_deck)] += p / total
        assert dict(seen) == {deck: p for p, deck in sd.contents_outcomes(rnd, readings)}
        frontier = Counter()
        for s, p in alive.items():
            for q, t in solver.cactus.outcomes(s, NextRound()):
                frontier[t] += p * q


def _engine_vs_contract(p):
    readings = solver.outlaws.Readings()
    game = Game(p, readings)
    plays = solver.outlaws.legal_actions(game)
    assert {play.action for play in plays} == set(solver.outlaws.game.ac.legal_actions(p, readings))
    for action in {play.action for play in plays}:
        engine = Counter()
        for o in engine_outcomes(p, action, readings):
            engine[o.position] += o.probability
        contract = Counter()
        for play in (q for q in plays if q.action == action):
            for prob, g in solver.outlaws.outcomes(game, play):
                contract[g.position] += prob
        assert contract == engine, action


def test_outlaws_reaction_plans():
    # A's Hitman (column 1) next to A's Reverend (column 2); B's Sheriff guards B's Governor (rule:O6, rule:O7)
    p = pos(A=["governor", "hitman", "reverend", "indian", "merchant", "dancer", "journalist", "bandit"],
            B=["sheriff", "governor", "mayor", "reverend", "hitman", "bandit", "merchant", "dancer"])
    game = Game(p)
    shot = Action("ability", actor="hitman", column=1, target=1)
    plans = sorted(play.reactions for play in solver.outlaws.legal_actions(game) if play.action == shot)
    assert plans == [(False,), (True, False), (True, True)]
    won = {r: solver.outlaws.winner(solver.outlaws.outcomes(game, solver.outlaws.game.Play(shot, r))[0][1])
           for r in plans}
    assert won == {(False,): "A", (True, False): "B", (True, True): None}
    with pytest.raises(BadInput):
        solver.outlaws.outcomes(game, solver.outlaws.game.Play(shot, (True,)))
    _engine_vs_contract(p)


@pytest.mark.parametrize("name", ["sheriff-save", "view-of-A", "sudden-death-near", "immobilized-bandit"])
def test_outlaws_contract_gives_back_the_engine_outcomes(name):
    _engine_vs_contract(load_position(SCENARIOS / "outlaws" / f"{name}.json"))


# ---------------------------------------------------------------- hostile documents


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 20) | st.text(max_size=6),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                     max_leaves=6)
def _followed_doc() -> dict:
    """A followed Lone Cowboy game at a chance node in round 1 (every field of a followed game set)."""
    state = solver.wagons.new_followed_game("boomtown")
    for _ in range(5):
        state = solver.wagons.apply(state, solver.wagons.legal_actions(state)[0])
    assert state.hidden_circle and state.resume == "player"
    return solver.wagons.to_json(state)


_DOCS = {"wagons": solver.wagons.to_json(solver.wagons.initial_state(0)), "wagons-followed": _followed_doc(),
         "cactus": solver.cactus.to_json(solver.cactus.initial_state(0, players=2)),
         "outlaws": solver.outlaws.to_json(solver.outlaws.initial_state(0))}
_GAMES = {"wagons": solver.wagons, "wagons-followed": solver.wagons, "cactus": solver.cactus, "outlaws": solver.outlaws}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(_DOCS)), data=st.data(), value=_JSON)
def test_from_json_refuses_a_broken_document_with_one_line(name, data, value):
    doc = json.loads(json.dumps(_DOCS[name]))
    key = data.draw(st.sampled_from(sorted(doc) + ["extra"]))
    if isinstance(doc.get(key), dict) and data.draw(st.booleans()):
        doc[key][data.draw(st.sampled_from(sorted(doc[key]) or ["x"]))] = value
    else:
        doc[key] = value
    game = _GAMES[name]
    try:
        state = game.from_json(doc)
    except BadInput as exc:
        assert "\n" not in str(exc) and str(exc)
        return
    assert game.from_json(game.to_json(state)) == state
