"""Golden outputs of the Lone Cowboy engine, recorded before the optimizer and scoring restructure.

Every case runs a ``ruleslinger wagons ...`` command with ``--json`` (or one API call) and compares
the answer, without elapsed times, with ``tests/golden/wagons/<group>.json``. A difference means the
behaviour drifted: the same inputs must give the same answers (scores, towns, drafts, proofs).

Regenerate them only on purpose (a rule change), and say so in the commit: the suite's one golden switch,
``RULESLINGER_WRITE_GOLDEN=1`` (:mod:`tests.support.golden`), rewrites every group before comparing.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path

import pytest

from tests.support import golden as golden_files
from tests.support.paths import ROOT

GOLDEN = ROOT / "tests" / "golden" / "wagons"
EXAMPLES = ROOT / "scenarios" / "wagons" / "examples"
SCENARIOS = ("boomtown", "gold-rush", "through-the-desert", "out-drink-the-competition", "water-the-herd",
             "cattle-drive")
TIMES = ("elapsed", "solves")
"""Effort, not answers: seconds, and the layout solves a deal search ran (a faster search runs fewer)."""


def _strip(doc):
    """The answer without elapsed times and solve counts (the only parts allowed to differ between runs)."""
    if isinstance(doc, dict):
        return {k: _strip(v) for k, v in doc.items() if k not in TIMES}
    if isinstance(doc, list):
        return [_strip(v) for v in doc]
    return doc


def _cli(*argv: str) -> dict:
    from solver import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(["wagons", *argv, "--json"])
    if rc != 0:
        return {"exit": rc, "error": err.getvalue().strip()}
    return _strip(json.loads(out.getvalue()))


# ---------------------------------------------------------------- the cases, by group

def _score_cases():
    town, opp = str(EXAMPLES / "rulebook-town.json"), str(EXAMPLES / "opponent.json")
    for s in SCENARIOS:
        yield f"score {s}", ("score", town, "--scenario", s, "--opponent", opp)
        yield f"score {s} later legend", ("score", town, "--scenario", s, "--opponent", opp, "--edition", "later",
                                          "--difficulty", "legend")
        yield f"score {s} guns", ("score", town, "--scenario", s, "--opponent", opp, "--tie-break", "guns")


def _play_cases():
    for s in SCENARIOS:
        for seed in (0, 1, 7):
            for policy in ("random", "greedy"):
                yield f"play {s} {seed} {policy}", ("play", "--scenario", s, "--seed", str(seed), "--policy", policy)
    yield "play boomtown 3 greedy town-icons deck-first", ("play", "--scenario", "boomtown", "--seed", "3", "--policy",
                                                           "greedy", "--icon-source", "town", "--match-order",
                                                           "deck-first")
    yield "play gold-rush 4 greedy later newcomer", ("play", "--scenario", "gold-rush", "--seed", "4", "--policy",
                                                     "greedy", "--edition", "later", "--difficulty", "newcomer")


def _draft_cases():
    yield "draft boomtown r1", ("opponent-draft", "--scenario", "boomtown", "--round", "1", "--circle", "3,7,11,2",
                                "--deck-top", "5")
    yield "draft boomtown r1 deck-first", ("opponent-draft", "--scenario", "boomtown", "--round", "1", "--circle",
                                           "4,8,1", "--deck-top", "6", "--match-order", "deck-first")
    yield "draft boomtown r2 behind", ("opponent-draft", "--scenario", "boomtown", "--round", "2", "--circle",
                                       "3,7,11,2,9", "--pile", "5,6", "--after-round-1", "12,8")
    yield "draft boomtown r2 ahead", ("opponent-draft", "--scenario", "boomtown", "--round", "2", "--circle",
                                      "3,7,11,2,9", "--pile", "5,6", "--after-round-1", "8,12")
    for s in SCENARIOS[1:]:
        yield f"draft {s} r1", ("opponent-draft", "--scenario", s, "--round", "1", "--circle", "0,10,13,15",
                                "--deck-top", "12")
        yield f"draft {s} r2", ("opponent-draft", "--scenario", s, "--round", "2", "--circle", "1,4,14,17",
                                "--pile", "0,12,16")
        yield f"draft {s} r2 town-icons", ("opponent-draft", "--scenario", s, "--round", "2", "--circle",
                                           "1,4,14,17", "--pile", "0,12,16", "--icon-source", "town")


def _simulate_cases():
    for s in SCENARIOS:
        yield f"simulate {s} greedy", ("simulate", "--scenario", s, "--policy", "greedy", "--games", "8", "--seed", "5")
        yield f"simulate {s} random", ("simulate", "--scenario", s, "--policy", "random", "--games", "12")


def _layout_instance(seed: int, n: int):
    rng = random.Random(seed)
    deck = rng.sample(range(18), 18)
    return deck[:n], deck[n:n + rng.randint(0, 6)], SCENARIOS[seed % 6]


LAYOUTS = [(0, 4, "score"), (1, 4, "margin"), (2, 4, "score"), (3, 5, "score"), (4, 4, "margin"), (5, 4, "score"),
           (10, 5, "margin")]


def _layout_cases():
    for seed, n, objective in LAYOUTS:
        cards, pile, s = _layout_instance(seed, n)
        methods = ("cpsat", "cpsat-core", "incremental") if n == 4 and seed != 2 else ("cpsat", "cpsat-core")
        for method in methods:
            yield (f"best-layout {seed} {n} {objective} {method}",
                   ("best-layout", "--cards", ",".join(map(str, cards)), "--scenario", s, "--objective", objective,
                    "--method", method, "--quiet", "--time-limit", "120", "--opponent", f"PILE:{','.join(map(str, pile))}"))


def _play_deal_cases():
    yield "best-play boomtown 3+2", ("best-play", "--scenario", "boomtown", "--circle", "5,3,2", "--deck", "1,0",
                                     "--quiet", "--time-limit", "120")
    yield "best-play water-the-herd 3+2", ("best-play", "--scenario", "water-the-herd", "--circle", "4,3,2",
                                           "--deck", "1,0", "--quiet", "--time-limit", "120")
    yield "best-play gold-rush 3+1", ("best-play", "--scenario", "gold-rush", "--circle", "3,2,1", "--deck", "0",
                                      "--quiet", "--time-limit", "120")


def _random_town(rng: random.Random, n: int):
    from solver.wagons.town import Town, legal_placements

    town = Town()
    for cid in rng.sample(range(18), n):
        town = Town(town.placements + (rng.choice(legal_placements(town, cid)),))
    return town


def _api_cases():
    """Scoring breakdowns of random legal towns (final scores, both editions, the reference scorer,
    the greedy margin scorer), the exhaustive oracle and the greedy layout."""
    for k in range(24):
        yield f"api town {k}", ("api-town", k)
    for seed, n, objective in LAYOUTS:
        if n == 4:  # the 5-card walks take ~10 s each: the 4-card ones check the oracle
            yield f"api oracle {seed} {n} {objective}", ("api-oracle", seed, n, objective)


def _api(kind: str, *args):
    from solver.wagons.readings import WagonsReadings

    if kind == "api-town":
        from solver.wagons.scoring import final_scores, margin_of, town_features
        from solver.wagons.scoring.reference import reference_score_player
        from tests.support.builders.walk import compiled_score

        k = args[0]
        rng = random.Random(1000 + k)
        town = _random_town(rng, 3 + k % 8)
        pile = tuple(rng.sample([c for c in range(18) if c not in town.card_ids], k % 7))
        s = SCENARIOS[k % 6]
        later = WagonsReadings(edition="later", difficulty=("local", "newcomer", "legend")[k % 3], tie_break="guns")
        out = {"town": [p.to_dict() for p in town.placements], "pile": list(pile), "scenario": s,
               "original": final_scores(town, pile, s).to_dict(),
               "later": final_scores(town, pile, s, later).to_dict(),
               "margin_of": margin_of(town_features(town), pile, s),
               "compiled": [compiled_score(town, s, pile, objective=o) for o in ("score", "margin")]}
        try:
            out["reference"] = reference_score_player(town, s, pile)
        except Exception as exc:  # noqa: BLE001 - the reference may refuse a comparing card: record what it says
            out["reference"] = f"{type(exc).__name__}: {exc}"
        return json.loads(json.dumps(out, default=_jsonable))
    if kind == "api-oracle":
        from solver.wagons.optimizer.oracle import exhaustive_best
        from solver.wagons.optimizer.problem import greedy_layout

        seed, n, objective = args
        cards, pile, s = _layout_instance(seed, n)
        res = exhaustive_best(cards, s, pile, objective=objective)
        town, value = greedy_layout(cards, s, pile, objective=objective)
        return {"value": res.value, "placements": [p.to_dict() for p in res.placements], "towns": res.towns,
                "greedy": {"value": value, "placements": [p.to_dict() for p in town.placements]}}
    raise ValueError(kind)


def _jsonable(v):
    if hasattr(v, "to_dict"):
        return v.to_dict()
    if hasattr(v, "_asdict"):
        return v._asdict()
    if hasattr(v, "__dataclass_fields__"):
        import dataclasses

        return dataclasses.asdict(v)
    raise TypeError(type(v).__name__)


GROUPS = {"score": _score_cases, "play": _play_cases, "opponent-draft": _draft_cases, "simulate": _simulate_cases,
          "best-layout": _layout_cases, "best-play": _play_deal_cases, "api": _api_cases}


def _run(case, tmp: Path):
    if case[0].startswith("api-"):
        return _api(*case)
    argv = list(case)
    for i, a in enumerate(argv):
        if a.startswith("PILE:"):
            path = tmp / f"pile{i}.json"
            path.write_text(json.dumps({"pile": [int(c) for c in a[5:].split(",") if c]}))
            argv[i] = str(path)
    return _cli(*argv)


def _params():
    return [pytest.param(group, name, case, id=f"{group}:{name}") for group, cases in GROUPS.items()
            for name, case in cases()]


def _warm_up() -> None:
    """Compile the numba walk first: a first compile inside a timed local search (a share of the time
    limit) could end that search early on a loaded machine and change which optimal town is found."""
    from solver.wagons.optimizer.oracle import exhaustive_best

    exhaustive_best([0, 1], "boomtown")


@pytest.fixture(scope="module")
def golden():
    if golden_files.WRITE:
        _write(GROUPS)
    _warm_up()
    return {g: json.loads((GOLDEN / f"{g}.json").read_text()) for g in GROUPS}


@pytest.mark.parametrize("group,name,case", _params())
def test_golden(golden, group, name, case, tmp_path):
    assert name in golden[group], f"no golden output for {name!r}: regenerate {group} on purpose"
    assert _run(case, tmp_path) == golden[group][name]


def test_every_golden_output_has_a_case(golden):
    for group, cases in GROUPS.items():
        assert set(golden[group]) == {name for name, _ in cases()}, group


def _write(groups) -> None:
    import tempfile

    _warm_up()
    with tempfile.TemporaryDirectory() as tmp:
        for g in groups:
            golden_files.write(GOLDEN / f"{g}.json", {name: _run(case, Path(tmp)) for name, case in GROUPS[g]()})
