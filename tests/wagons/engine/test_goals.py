"""One goals source through every command (issue 16): a corrected goals file (``--goals FILE``)
changes what `wagons score`, `play`, `simulate`, `best-layout`, `best-play` and `verify` answer, by the amount
the changed number implies, and every printed line of play replays with `wagons play --policy
scripted` to the margin it was printed with.

The expected numbers are worked by hand from the rulebook's six-card example town
(docs/outside-facts.md, rebuilt in placement order (13, 1, 1), (4, 0, 1), (14, 3, 1), (0, 4, 0),
(2, 0, 3), (1, 2, 3)): its visible Cows are at (4, 0), (0, 2), (2, 2) and (3, 2), so the largest
edge-connected group of Cows is (2, 2)-(3, 2), 2 Cows; The Herd scores per_cow x 2.
"""

import json
import re
from pathlib import Path

import pytest

from solver import cli
from solver.paths import SCENARIOS

EXAMPLE = [{"card": 13, "x": 1, "y": 1, "rot": 0}, {"card": 4, "x": 0, "y": 1, "rot": 0},
           {"card": 14, "x": 3, "y": 1, "rot": 0}, {"card": 0, "x": 4, "y": 0, "rot": 0},
           {"card": 2, "x": 0, "y": 3, "rot": 0}, {"card": 1, "x": 2, "y": 3, "rot": 0}]
HERD_COWS = 2  # the example's largest group of Cows, by hand (module docstring)


def corrected_goals(tmp_path: Path, goal: str, old: str, new: str) -> Path:
    """A copy of the shipped goals.toml with one goal's ``old`` text replaced by ``new``."""
    blocks = (SCENARIOS / "wagons" / "goals.toml").read_text().split("[[goal]]")
    hit = [i for i, b in enumerate(blocks) if re.search(rf'^name = "{re.escape(goal)}"$', b, re.M)]
    assert len(hit) == 1 and old in blocks[hit[0]], (goal, old)
    blocks[hit[0]] = blocks[hit[0]].replace(old, new)
    path = tmp_path / "goals.toml"
    path.write_text("[[goal]]".join(blocks))
    return path


def run_json(capsys, *argv) -> dict:
    code = cli.main([*map(str, argv), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def herd5(tmp_path):
    return corrected_goals(tmp_path, "The Herd", "params = { per_cow = 2 }", "params = { per_cow = 5 }")


def test_score_reads_the_corrected_goals(tmp_path, capsys, herd5):
    town, opp = tmp_path / "town.json", tmp_path / "opp.json"
    town.write_text(json.dumps({"placements": EXAMPLE}))
    opp.write_text(json.dumps({"pile": [3]}))
    shipped = run_json(capsys, "wagons", "score", town, "--scenario", "water-the-herd", "--opponent", opp)
    fixed = run_json(capsys, "wagons", "score", town, "--scenario", "water-the-herd", "--opponent", opp,
                     "--goals", herd5)
    assert shipped["player"]["goals"]["The Herd"] == 2 * HERD_COWS
    assert fixed["player"]["goals"]["The Herd"] == 5 * HERD_COWS
    assert fixed["player"]["total"] - shipped["player"]["total"] == 3 * HERD_COWS
    assert fixed["opponent"] == shipped["opponent"]  # the opponent's 2 per Cow is the scenario's, not the card's


def _herd_of(result: dict) -> int:
    return result["player"]["goals"]["The Herd"]


def test_play_and_simulate_read_the_corrected_goals(tmp_path, capsys, herd5):
    """A random game's draws do not depend on the goals: the same seeds give the same towns, and
    the corrected file scales The Herd from 2 to 5 per Cow in `play` and in `simulate` alike."""
    rows = {}
    for which, extra in (("shipped", []), ("fixed", ["--goals", herd5])):
        out = tmp_path / f"{which}.csv"
        run_json(capsys, "wagons", "simulate", "--scenario", "water-the-herd", "--policy", "random", "--games", 3,
                 "--seed", 10, "--out", out, *extra)
        import polars as pl
        rows[which] = pl.read_csv(out).to_dicts()
    changed = 0
    for i in range(3):
        shipped = run_json(capsys, "wagons", "play", "--scenario", "water-the-herd", "--seed", 10 + i,
                           "--policy", "random")
        fixed = run_json(capsys, "wagons", "play", "--scenario", "water-the-herd", "--seed", 10 + i,
                         "--policy", "random", "--goals", herd5)
        assert fixed["town"] == shipped["town"]
        cows = _herd_of(shipped) // 2
        assert _herd_of(fixed) == 5 * cows
        assert fixed["player"]["total"] == shipped["player"]["total"] + 3 * cows
        assert rows["shipped"][i]["player_total"] == shipped["player"]["total"]
        assert rows["fixed"][i]["player_total"] == fixed["player"]["total"]
        changed += cows > 0
    assert changed, "no game of the sample had a Cow: pick other seeds"


def test_best_layout_reads_the_corrected_goals(capsys, herd5):
    """Cards 13 then 14 (Mountains/Cow at bottom right of 13, Forest/Cow and Mountains/Cow on 14):
    the best town puts Cows side by side; the corrected card scores 5 per Cow of the group."""
    shipped = run_json(capsys, "wagons", "best-layout", "--cards", "13,14", "--scenario", "water-the-herd", "--quiet")
    fixed = run_json(capsys, "wagons", "best-layout", "--cards", "13,14", "--scenario", "water-the-herd", "--quiet",
                     "--goals", herd5)
    assert shipped["proven_optimal"] and fixed["proven_optimal"]
    assert fixed["goals"]["The Herd"] % 5 == 0 and shipped["goals"]["The Herd"] % 2 == 0
    assert fixed["goals"]["The Herd"] // 5 >= shipped["goals"]["The Herd"] // 2


def _replay(capsys, tmp_path, scenario, deal, actions, *extra) -> dict:
    script = tmp_path / "line.json"
    script.write_text(json.dumps({"actions": actions}))
    return run_json(capsys, "wagons", "play", "--scenario", scenario, *deal, "--policy", "scripted",
                    "--script", script, *extra)


@pytest.mark.parametrize("scenario,deal", [
    ("water-the-herd", ["--circle", "14,10,13", "--deck", "0,17"]),
    ("boomtown", ["--circle", "0,1,2", "--deck", "3,5"]),
    ("gold-rush", ["--circle", "13,14,3", "--deck", "1"]),
    ("cattle-drive", ["--circle", "5,3", "--deck", "2,0"]),
])
def test_best_play_lines_replay_with_wagons_play(tmp_path, capsys, scenario, deal):
    """best-play -> its actions in a file -> `wagons play --policy scripted` gives the same margin."""
    res = run_json(capsys, "wagons", "best-play", "--scenario", scenario, *deal, "--quiet", "--time-limit", 60)
    assert res["proven_optimal"]
    replay = _replay(capsys, tmp_path, scenario, deal, res["actions"])
    assert replay["margin"] == res["margin"] == res["final"]["margin"]
    assert replay["town"]["placements"] == [a["place"] for a in res["actions"] if "place" in a]


def test_best_play_with_seed_replays(tmp_path, capsys):
    res = run_json(capsys, "wagons", "best-play", "--scenario", "cattle-drive", "--seed", 4, "--quiet",
                   "--time-limit", 2)
    replay = _replay(capsys, tmp_path, "cattle-drive", ["--seed", "4"], res["actions"])
    assert replay["margin"] == res["margin"]


def test_best_play_reads_the_corrected_goals(tmp_path, capsys, herd5):
    """With the corrected card the search, its replay, the greedy baseline and `wagons play` agree;
    the shipped-goals replay of the same line differs by 3 points per Cow of the largest group."""
    scenario, deal = "water-the-herd", ["--circle", "14,10,13", "--deck", "0,17"]
    res = run_json(capsys, "wagons", "best-play", "--scenario", scenario, *deal, "--quiet", "--goals", herd5)
    assert res["proven_optimal"]
    fixed = _replay(capsys, tmp_path, scenario, deal, res["actions"], "--goals", herd5)
    assert fixed["margin"] == res["margin"]
    shipped = _replay(capsys, tmp_path, scenario, deal, res["actions"])
    cows = _herd_of(fixed) // 5
    assert cows > 0 and _herd_of(shipped) == 2 * cows
    assert fixed["margin"] - shipped["margin"] == 3 * cows
    greedy = run_json(capsys, "wagons", "play", "--scenario", scenario, *deal, "--policy", "greedy", "--goals", herd5)
    assert res["greedy_margin"] == greedy["margin"]
    # the shipped optimum, rescored with the corrected card, cannot beat the corrected optimum
    best_shipped = run_json(capsys, "wagons", "best-play", "--scenario", scenario, *deal, "--quiet")
    rescored = _replay(capsys, tmp_path, scenario, deal, best_shipped["actions"], "--goals", herd5)
    assert rescored["margin"] <= res["margin"]


def test_verify_checks_the_corrected_goals(tmp_path, capsys, herd5):
    """`wagons verify --goals`: the score bound and its engine witnesses both read the corrected card, so
    the proven player bound rises by 3 points per Cow of the bound's Herd and still holds over the games
    played with it; the answer names the goals file it rests on."""
    argv = ["wagons", "verify", "--scenario", "water-the-herd", "--check", "score-bounds", "--time-limit", "20"]
    shipped = run_json(capsys, *argv)
    fixed = run_json(capsys, *argv, "--goals", herd5)
    assert shipped["goals"] is None and fixed["goals"] == str(herd5)
    (a,), (b,) = shipped["checks"], fixed["checks"]
    assert a["holds"] is True and b["holds"] is True
    rise = b["details"]["player"]["bound"] - a["details"]["player"]["bound"]
    assert rise > 0 and rise % 3 == 0
    witness = b["details"]["player"]["witness"]
    assert witness["total"] <= b["details"]["player"]["bound"]
    town, pile = tmp_path / "town.json", tmp_path / "pile.json"
    town.write_text(json.dumps({"placements": witness["town"]["placements"]}))
    pile.write_text(json.dumps({"pile": witness["pile"]}))
    replay = run_json(capsys, "wagons", "score", "--scenario", "water-the-herd", town, "--opponent", pile,
                      "--goals", herd5)
    assert replay["player"]["total"] == witness["total"]


def test_a_draft_note_that_does_not_fit_the_deal_is_refused(tmp_path, capsys):
    script = tmp_path / "bad.json"
    script.write_text(json.dumps({"actions": [{"draft": 0, "card": 7, "skipped": []}]}))
    code = cli.main(["wagons", "play", "--scenario", "cattle-drive", "--circle", "5,3", "--deck", "2,0",
                     "--policy", "scripted", "--script", str(script), "--json"])
    err = capsys.readouterr().err
    assert code == 2 and "drafts card 7, but card 5" in err and len(err.strip().splitlines()) == 1
    code = cli.main(["wagons", "play", "--scenario", "cattle-drive", "--deck", "2,0", "--policy", "random"])
    assert code == 2 and "--deck needs --circle" in capsys.readouterr().err


def test_a_goals_path_that_cannot_be_resolved_is_one_line(tmp_path, capsys):
    loop = tmp_path / "loop.toml"
    loop.symlink_to(loop)
    for argv in (["simulate", "--policy", "random", "--games", "1"], ["play", "--seed", "1", "--policy", "random"]):
        code = cli.main(["wagons", *argv, "--scenario", "boomtown", "--goals", str(loop), "--json"])
        err = capsys.readouterr().err
        assert code == 2 and "--goals" in err and len(err.strip().splitlines()) == 1


def test_every_scored_output_names_its_low_confidence_goal_cards(capsys):
    """Water the Herd: The Herd is known from one unofficial source (low), Cool Water is high."""
    want = ["The Herd"]
    play = run_json(capsys, "wagons", "play", "--scenario", "water-the-herd", "--seed", 1, "--policy", "random")
    layout = run_json(capsys, "wagons", "best-layout", "--cards", "13,14", "--scenario", "water-the-herd", "--quiet")
    best = run_json(capsys, "wagons", "best-play", "--scenario", "water-the-herd", "--circle", "14,10", "--deck", "0",
                    "--quiet")
    sim = run_json(capsys, "wagons", "simulate", "--scenario", "water-the-herd", "--policy", "random", "--games", 1)
    assert play["low_confidence"] == layout["low_confidence"] == best["low_confidence"] == want
    assert best["final"]["low_confidence"] == sim["low_confidence"] == want
