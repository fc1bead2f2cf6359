"""Low-confidence goal-card numbers as readings (rule:W11) and the Boomtown readings (rule:W5-boomtown,
rule:W6), and goal numbers outside what the encodings support (issue 16).

Hand-worked from the card fronts (scenarios/wagons/cards.json) and the rulebook's example town
(docs/outside-facts.md), never from the engine's output:

* The example's first five placements, (13, 1, 1), (4, 0, 1), (14, 3, 1), (0, 4, 0), (2, 0, 3),
  show two Mine icons: card 0's bottom-left Plains/Mine at (4, 1) (card 0 lies on card 14 there)
  and card 2's top-left Water/Mine at (0, 3). Boom or Bust: per Mine 2 x 5 = 10; flat 5.
* The whole six-card example shows three Mines (card 1 adds (3, 3)): the 3-6 band, 0 either way.
* Boomtown opponent pile 15, 6, 12, 11, 1: Mine icons 3 + 2 + 1 + 1 + 1 = 8; Mountains territories
  1 (card 15) + 3 (card 1) = 4, one of them (card 1's top right) with a Mine. Mountains counted as
  Mines: "both" 8 + 4 = 12 Mines, "either" 8 + 4 - 1 = 11, "mountains" 4. Per Mine: 12 x 8 = 96,
  11 x 8 = 88, 4 -> band 3-6 = 0; flat: 8, 8, 0.
"""

import itertools
import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from solver import cli
from solver.errors import BadInput
from solver.paths import SCENARIOS
from solver.wagons.data import load_data, parse_goals
from solver.wagons.optimizer.layout import best_layout
from solver.wagons.optimizer.oracle import exhaustive_best
from solver.wagons.readings import BOOM_OR_BUST, WagonsReadings
from solver.wagons.scoring import final_scores, score_player
from solver.wagons.scoring.reference import reference_score_player
from solver.wagons.town import Placement, Town, legal_placements

EXAMPLE = (Placement(13, 1, 1), Placement(4, 0, 1), Placement(14, 3, 1), Placement(0, 4, 0), Placement(2, 0, 3),
           Placement(1, 2, 3))
FIVE = Town(EXAMPLE[:5])
PILE = (15, 6, 12, 11, 1)


@pytest.mark.parametrize("reading,five,six", [("per-mine", 10, 0), ("flat", 5, 0)])
def test_player_boom_or_bust_under_each_reading(reading, five, six):
    readings = WagonsReadings(boom_or_bust=reading)
    assert score_player(FIVE, "boomtown", (), readings).goals["Boom or Bust"] == five
    assert score_player(Town(EXAMPLE), "boomtown", (), readings).goals["Boom or Bust"] == six
    assert reference_score_player(FIVE, "boomtown", (), readings=readings)["goals"]["Boom or Bust"] == five


@pytest.mark.parametrize("reading,mines,want", [
    ("per-mine", "both", 96), ("per-mine", "either", 88), ("per-mine", "mountains", 0),
    ("flat", "both", 8), ("flat", "either", 8), ("flat", "mountains", 0)])
def test_boomtown_opponent_counts_mountains_as_mines(reading, mines, want):
    res = final_scores(FIVE, PILE, "boomtown", WagonsReadings(boom_or_bust=reading, boomtown_mines=mines))
    assert res.opponent.goals["Boom or Bust"] == want
    assert res.low_confidence == ("Smalltown Charm", "Boom or Bust")


def test_score_json_says_which_goal_cards_rest_on_low_confidence_numbers(tmp_path, capsys):
    town, opp = tmp_path / "t.json", tmp_path / "o.json"
    town.write_text(json.dumps({"placements": [p.to_dict() for p in FIVE.placements]}))
    opp.write_text(json.dumps({"pile": list(PILE)}))
    outs = {}
    for reading in BOOM_OR_BUST:
        assert cli.main(["wagons", "score", str(town), "--scenario", "boomtown", "--opponent", str(opp),
                         "--boom-or-bust", reading, "--json"]) == 0
        outs[reading] = json.loads(capsys.readouterr().out)
    assert outs["per-mine"]["player"]["goals"]["Boom or Bust"] == 10 and outs["flat"]["player"]["goals"]["Boom or Bust"] == 5
    assert outs["per-mine"]["opponent"]["goals"]["Boom or Bust"] == 96
    assert outs["flat"]["rules"]["boom_or_bust"] == "flat"
    assert outs["flat"]["low_confidence"] == ["Smalltown Charm", "Boom or Bust"]
    cattle = tmp_path / "c.json"
    cattle.write_text(json.dumps({"pile": [3]}))
    assert cli.main(["wagons", "score", str(town), "--scenario", "out-drink-the-competition", "--opponent",
                     str(cattle), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["low_confidence"] == []  # Bootleggers, One Too Many: medium
    assert cli.main(["wagons", "score", str(town), "--scenario", "boomtown", "--opponent", str(opp)]) == 0
    assert "low-confidence number" in capsys.readouterr().out


# ---------------------------------------------------------------- every backend, both readings

def _towns(cards):
    """Every legal town of ``cards`` in order (plain enumeration through legal_placements)."""
    layer = [Town()]
    for c in cards:
        layer = [Town(t.placements + (p,)) for t in layer for p in legal_placements(t, c)]
    return layer


def _plain_best(cards, scenario, pile, readings):
    return max(reference_score_player(t, scenario, pile, readings=readings)["total"] for t in _towns(cards))


CARDS = (12, 11, 0)  # one Mine each: covering one leaves 2 Mines (per Mine 10, flat 5), all 3 visible: 0


@pytest.fixture(scope="module")
def plain_best():
    return {r: _plain_best(CARDS, "boomtown", (), WagonsReadings(boom_or_bust=r)) for r in BOOM_OR_BUST}


def test_the_readings_change_the_best_town(plain_best):
    assert plain_best["per-mine"] != plain_best["flat"]


@pytest.mark.parametrize("reading", BOOM_OR_BUST)
def test_compiled_walk_under_each_reading(plain_best, reading):
    readings = WagonsReadings(boom_or_bust=reading)
    assert exhaustive_best(CARDS, "boomtown", (), readings, fast=True).value == plain_best[reading]
    assert exhaustive_best(CARDS, "boomtown", (), readings, fast=False).value == plain_best[reading]


@pytest.mark.parametrize("method", ["cpsat", "cpsat-core", "cpsat-bound", "incremental", "oracle", "bnb"])
@pytest.mark.parametrize("reading", BOOM_OR_BUST)
def test_optimizers_under_each_reading(plain_best, reading, method):
    """CP-SAT (both proofs), the Z3 loop and the exhaustive oracle, each against the plain scorer."""
    res = best_layout(CARDS, "boomtown", (), WagonsReadings(boom_or_bust=reading), time_limit=60, method=method)
    assert res.proven_optimal and res.score == plain_best[reading]
    town = Town(res.placements)
    assert reference_score_player(town, "boomtown", (), readings=WagonsReadings(boom_or_bust=reading))["total"] == res.score


@pytest.mark.parametrize("count,skips", [("visible", False), ("cards", True)])
def test_boomtown_count_reading_decides_the_round_two_skip(count, skips):
    """Round 1 ends with the player's cards 12 at (0, 0) and 11 at (1, 0) (11 covers 12's right
    column): 6 visible territories, 8 counted per card; the opponent's 2 cards count 8. Visible:
    the opponent (8) is ahead, no skip; per card: tied (8, 8), it skips a card every round-2 draft."""
    from dataclasses import replace

    from solver.wagons.game import OpponentTurn, _end_turn, apply, new_game
    start = new_game("boomtown", 0, WagonsReadings(boomtown_count=count))
    end1 = replace(start, circle=(), deck=(0, 2, 6), round=1, to_move="player", drafted=True,
                   town=Town((Placement(12, 0, 0), Placement(11, 1, 0))), pile=(3, 5))
    s = _end_turn(end1)
    assert s.round == 2 and s.after_round_1 == ((8 if count == "cards" else 6), 8) and s.to_move == "opponent"
    d = apply(s, OpponentTurn()).log[-1]
    assert (d.rule == "W5-boomtown") is skips
    assert d.card == (2 if skips else d.card) and (d.skipped == (0,)) is skips


# ---------------------------------------------------------------- goal numbers outside the encodings

SHIPPED = (SCENARIOS / "wagons" / "goals.toml").read_text()


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return str(v)


def _with_params(goal: str, params: dict) -> str:
    blocks = SHIPPED.split("[[goal]]")
    for i, b in enumerate(blocks):
        if f'name = "{goal}"\n' in b:
            lines = [ln for ln in b.splitlines() if not ln.startswith(("params =", "param_confidence ="))]
            inline = ", ".join(f"{k} = {_toml(v)}" for k, v in params.items())
            blocks[i] = "\n".join(lines) + f"\nparams = {{ {inline} }}\n\n"
    return "[[goal]]".join(blocks)


NUMBER = st.one_of(st.integers(-3, 12), st.integers(-2000, 2000), st.just(2 ** 62), st.just(-(2 ** 63)),
                   st.booleans())
BANDS = st.one_of(
    st.lists(st.tuples(st.integers(-1, 9), st.integers(-1, 9), NUMBER).map(list), min_size=0, max_size=4),
    st.lists(st.lists(NUMBER, max_size=4), max_size=3), NUMBER)
PARAMS = st.one_of(
    st.builds(lambda b: ("Boom or Bust", "boomtown", {"bands": b}), BANDS),
    st.builds(lambda n: ("Smalltown Charm", "boomtown", {"per_territory": n}), NUMBER),
    st.builds(lambda n: ("The Herd", "water-the-herd", {"per_cow": n}), NUMBER),
    st.builds(lambda a, b: ("Claim Jumpers", "gold-rush", {"points": a, "taken_by_more_guns": b}), NUMBER, NUMBER),
    st.builds(lambda t: ("Wagon Train", "through-the-desert", {"run_points": t}),
              st.one_of(st.lists(NUMBER, max_size=8), st.lists(st.integers(-5, 12), min_size=3, max_size=8)
                        .map(lambda t: [0] + t))),
    st.builds(lambda a, b: ("Prairie Life", "cattle-drive", {"per_symbol": a, "divisor": b}), NUMBER, NUMBER),
)
_COUNTER = itertools.count()
TWO = {"boomtown": (12, 0), "water-the-herd": (13, 14), "gold-rush": (1, 15), "through-the-desert": (16, 13),
       "cattle-drive": (14, 10)}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=PARAMS)
def test_every_command_answers_like_the_plain_scorer_or_refuses_in_one_line(tmp_path, capsys, case):
    goal, scenario, params = case
    path = tmp_path / f"goals-{next(_COUNTER)}.toml"  # load_data caches per path: a new file each example
    path.write_text(_with_params(goal, params))
    town, opp = tmp_path / "town.json", tmp_path / "opp.json"
    town.write_text(json.dumps({"placements": [p.to_dict() for p in EXAMPLE]}))
    opp.write_text(json.dumps({"pile": []}))
    from solver.io.read import read_data
    try:
        data = load_data(goals_path=str(path))
    except BadInput as exc:  # refused where the file enters: one line naming the card and the field
        event("refused")
        msg = str(exc)
        assert "\n" not in msg and f"'{goal}'" in msg and any(k in msg for k in params), msg
        for argv in (["wagons", "simulate", "--scenario", scenario, "--policy", "greedy", "--games", "1"],
                     ["wagons", "best-layout", "--cards", ",".join(map(str, TWO[scenario])), "--scenario", scenario,
                      "--quiet"],
                     ["wagons", "score", str(town), "--scenario", scenario, "--opponent", str(opp)]):
            assert cli.main([*argv, "--goals", str(path), "--json"]) == 2
            err = capsys.readouterr().err.strip()
            assert len(err.splitlines()) == 1 and f"'{goal}'" in err
        with pytest.raises(BadInput):
            parse_goals(read_data(path))
        return
    event("accepted")
    cards = TWO[scenario]
    want = _plain_best_data(cards, scenario, data)
    for method in ("cpsat", "incremental"):
        res = best_layout(cards, scenario, (), WagonsReadings(), time_limit=60, method=method, data=data)
        assert res.proven_optimal and res.score == want, (method, params)
    assert exhaustive_best(cards, scenario, (), data=data, fast=True).value == want
    assert cli.main(["wagons", "simulate", "--scenario", scenario, "--policy", "greedy", "--games", "1",
                     "--goals", str(path), "--json"]) == 0
    capsys.readouterr()
    assert cli.main(["wagons", "score", str(town), "--scenario", scenario, "--opponent", str(opp),
                     "--goals", str(path), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)["player"]
    plain = reference_score_player(Town(EXAMPLE), scenario, (), data=data)
    assert got["goals"] == plain["goals"] and got["total"] == plain["total"]


def _plain_best_data(cards, scenario, data):
    return max(reference_score_player(t, scenario, (), data=data)["total"] for t in _towns(cards))
