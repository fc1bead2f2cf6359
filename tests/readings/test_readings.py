"""`ruleslinger readings impact|verdicts|options`: every verdict across the readings (solver/readings.py)."""

import json
from dataclasses import fields

import pytest

from solver import registry
from solver.cactus.verify import verdicts as cactus_verdicts
from solver.cli import main
from solver.errors import BadInput
from solver.readings import impact
from solver.readings import options as reading_options
from solver.readings import verdicts as verdict
from tests.support import readings as support_readings

pytest_plugins = ("pytester",)

GAMES = tuple(reading_options.GAMES)


def run_json(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else None), err


@pytest.mark.parametrize("game", GAMES)
def test_every_reading_has_listed_alternatives(game):
    """A field of a readings class without CHOICES, not a bool and not in NUMBERS cannot be chosen from a
    list (dashboard) nor swept (impact): it fails here, naming the field."""
    readings = reading_options.game_readings(game)
    assert [r.name for r in readings] == [f.name for f in fields(reading_options.readings_class(game))]
    for r in readings:
        assert len(r.values) >= 2 and r.default in r.values, f"{game}.{r.name}: no listed alternatives"
        assert r.probes and r.default not in r.probes and set(r.probes) <= set(r.values), r.name
        for other, value in r.together.items():
            reading_options.readings_with(game, {other: value, r.name: r.probes[0]})  # a valid combination


@pytest.mark.parametrize("game", GAMES)
def test_one_list_of_each_readings_choices(game):
    """``choices`` is the list the dashboard's boxes show: each reading's listed values, the default among them;
    a reading the game does not have is refused in one line."""
    for r in reading_options.game_readings(game):
        assert reading_options.choices(game, r.name) == r.values and r.default in r.values
    with pytest.raises(BadInput, match=f"{registry.game(game).title} has no reading 'no_such_reading'"):
        reading_options.choices(game, "no_such_reading")


@pytest.mark.parametrize("game", GAMES)
def test_every_reading_is_read_by_a_verdict_or_argued(game):
    """Options other helpers add are flagged here until a verdict reads them (the impact run then lists it as
    unread, with the verdicts' argument)."""
    vs = impact.verdicts(game)
    for r in reading_options.game_readings(game):
        readers = [v.id for v in vs if v.reads_reading(r.name)]
        assert readers, f"{game}.{r.name}: no verdict reads it"
    assert impact.unread(reading_options.game_readings(game), vs) == []


@pytest.mark.parametrize("game", GAMES)
def test_verdicts_name_real_readings_and_give_arguments(game):
    names = {r.name for r in reading_options.game_readings(game)}
    ids = [v.id for v in impact.verdicts(game)]
    assert len(ids) == len(set(ids)), "verdict ids are unique"
    for v in impact.verdicts(game):
        assert v.reads == verdict.ALL or set(v.reads) <= names, (v.id, set(v.reads) - names)
        assert set(v.skip) <= names, (v.id, set(v.skip) - names)
        for r in names:
            if not v.reads_reading(r):
                assert len(v.skip_reason(r)) > 20, f"{v.id}: skips {r} without an argument"


def test_solo_deck_verdicts_follow_c2():
    """Hand-worked from the solo schedule: 9 cards after round 6, one archived a round from round 7,
    so round 12 holds 3. No second shot (default): all 3 programmed, the marshal surely revealed by
    round 12; keeping a second shot delays the sure reveal to round 14 (1 card left); if archiving
    stops at 4 cards the marshal can be the second shot card every round: no bound."""
    res = impact.impact("cactus", ["solo-marshal-bound", "solo-deck-3-plus-1-after-round-11"])
    after, bound = res["verdicts"]  # in the game's verdict order
    assert bound["default"] == {"holds": True, "bound": [6, 12]}
    changed = {(d["reading"], d["value"]): d["result"] for d in bound["depends_on"]}
    assert changed == {("short_deck", "keep_second_shot"): {"holds": True, "bound": [6, 14]},
                       ("short_deck", "stop_archiving"): {"holds": False}}
    assert after["default"] == {"holds": False}
    assert [(d["reading"], d["value"], d["result"]) for d in after["depends_on"]] == \
        [("short_deck", "stop_archiving", {"holds": True})]
    skipped = {s["reading"] for s in bound["skipped"]}
    assert skipped == {r.name for r in reading_options.game_readings("cactus")} - {"short_deck"}
    assert not bound["holds_under_every_reading"]


def test_ranger_example_depends_only_on_the_tie_readings():
    """The chase example: the two closest outlaws are tied and both steps toward each shorten the
    distance, so the step-tie reading (C6) changes where he can end; keeping or redrawing the tied
    target (C6-tie-target) is run too and gives the same ends; nothing is visible only when escaped,
    no icon there is a directional SNEAK, and he shares no building (no duel, push or C13 stay)."""
    res = impact.impact("cactus", ["ranger/example-ranger-chase"])
    (v,) = res["verdicts"]
    assert {d["reading"] for d in v["depends_on"]} == {"step_tie"}
    assert sum(__import__("fractions").Fraction(p) for p in v["default"]["ends"].values()) == 1
    assert {"step_tie", "tie_target", "directional_sneak", "escaped_visible", "no_move"} <= {c["reading"] for c in v["checked"]}


def _with_verdicts(game: str, verdicts):
    """The registry's entry of ``game`` with other verdicts (monkeypatched into ``registry.BY_ID``)."""
    import dataclasses

    return dataclasses.replace(registry.BY_ID[game], verdicts=verdicts)


def _fake(game, run, reads=verdict.ALL, skip=None):
    return verdict.Verdict("fake", "a verdict reading one option", run, reads, "its code reads only tie_break",
                      skip or {})


def test_impact_reports_the_changed_value_and_skips_with_the_argument(monkeypatch):
    calls = []

    def run(readings, settings):
        calls.append(readings)
        return {"tie_break": readings.tie_break}
    monkeypatch.setitem(registry.BY_ID, "wagons", _with_verdicts("wagons", lambda: [_fake("wagons", run, ("tie_break",))]))
    impact.clear_cache()
    res = impact.impact("wagons")
    (v,) = res["verdicts"]
    assert v["default"] == {"tie_break": "tie"}
    assert v["depends_on"] == [{"reading": "tie_break", "value": "guns", "result": {"tie_break": "guns"},
                                "words": '{"tie_break": "guns"}'}]
    assert {s["reading"] for s in v["skipped"]} == {r.name for r in reading_options.game_readings("wagons")} - {"tie_break"}
    assert all(s["why"] == "its code reads only tie_break" for s in v["skipped"])
    assert len(calls) == 2
    impact.impact("wagons")
    assert len(calls) == 2, "decided results are cached per rules"


def test_undecided_is_reported_apart_and_never_cached(monkeypatch):
    calls = []

    def run(readings, settings):
        calls.append(readings)
        return {"holds": None, "undecided": "time limit"} if readings.edition == "later" else {"holds": True}
    monkeypatch.setitem(registry.BY_ID, "wagons", _with_verdicts("wagons", lambda: [_fake("wagons", run, ("edition", "difficulty"))]))
    impact.clear_cache()
    (v,) = impact.impact("wagons")["verdicts"]
    assert v["depends_on"] == []
    assert {(u["reading"], u["value"]) for u in v["undecided"]} == {("edition", "later"), ("difficulty", "newcomer"),
                                                                   ("difficulty", "legend")}
    assert not v["holds_under_every_reading"]
    n = len(calls)
    impact.impact("wagons")
    assert len(calls) > n, "an undecided result is computed again"


def test_a_reading_that_needs_another_is_compared_with_it_set(monkeypatch):
    """difficulty only means something with edition = later: its alternatives are compared with
    edition = later at the default difficulty, not with the original edition."""
    def run(readings, settings):
        return {"edition": readings.edition}  # ignores the difficulty
    monkeypatch.setitem(registry.BY_ID, "wagons", _with_verdicts("wagons", lambda: [_fake("wagons", run, ("edition", "difficulty"))]))
    impact.clear_cache()
    (v,) = impact.impact("wagons")["verdicts"]
    assert [(d["reading"], d["value"]) for d in v["depends_on"]] == [("edition", "later")]
    diff = [c for c in v["checked"] if c["reading"] == "difficulty"]
    assert diff and all(c["with"] == {"edition": "later"} and c["compared_with"] == {"edition": "later"} for c in diff)


def test_the_sweep_is_marked_while_it_builds_rules(monkeypatch):
    seen = []
    monkeypatch.setitem(registry.BY_ID, "outlaws", _with_verdicts("outlaws",
                        lambda: [_fake("outlaws", lambda r, s: seen.append(reading_options.SWEEP.get()) or {}, ("sheriff_save",))]))
    impact.clear_cache()
    impact.impact("outlaws")
    assert seen == [True, True] and reading_options.SWEEP.get() is False


def test_cli_contract_and_progress(capsys):
    code, res, err = run_json(capsys, "readings", "impact", "cactus", "--verdict", "marshal-odds/p2", "--json",
                              "--quiet")
    assert code == 0 and err == ""  # --quiet: no progress on standard error
    (v,) = res["verdicts"]
    assert {"id", "title", "default", "depends_on"} <= set(v)
    assert v["default"]["rounds"]["6"] == "19/204"
    assert {d["reading"] for d in v["depends_on"]} == {"stagecoach_short", "duel_win_chance"}
    assert all({"reading", "value", "result"} <= set(d) for d in v["depends_on"])
    code = main(["readings", "impact", "cactus", "--verdict", "marshal-odds/p2"])
    out, err = capsys.readouterr()
    assert code == 0 and "changed by stagecoach_short=none" in out


@pytest.mark.parametrize("argv, needle", [
    (["readings", "impact", "cactus", "--verdict", "nope"], "not a cactus verdict"),
    (["readings", "impact", "chess"], "invalid choice"),
    (["readings", "impact", "wagons", "--games", "0"], "games 0"),
    (["readings", "impact", "outlaws", "--time-limit", "-1"], "time limit"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, needle):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and needle in err and err.count("\n") == 1


def test_verdicts_and_options_commands(capsys):
    code, res, _ = run_json(capsys, "readings", "verdicts", "outlaws", "--json")
    assert code == 0
    ids = [v["id"] for v in res["verdicts"]]
    assert "dead-positions" in ids and "verify/token-totals" in ids and "status/governor-can-win" in ids
    code, res, _ = run_json(capsys, "readings", "options", "wagons", "--json")
    tie = next(r for r in res["readings"] if r["reading"] == "tie_break")
    assert [v["value"] for v in tie["values"]] == ["tie", "guns"]
    assert all(v["description"] for r in res["readings"] for v in r["values"])


def test_a_reading_typed_as_text_is_parsed_by_its_kind():
    from fractions import Fraction

    from solver.cactus.readings import CactusReadings

    assert CactusReadings.parse_value("duel_win_chance", "1/2") == Fraction(1, 2)
    assert CactusReadings.parse_value("solo_events", "yes") is True and CactusReadings.parse_value("die_sides", "8") == 8
    with pytest.raises(BadInput, match="not an exact probability"):
        CactusReadings.parse_value("duel_win_chance", "7/5")
    with pytest.raises(BadInput, match="not one of"):
        CactusReadings.parse_value("short_deck", "sometimes")


@pytest.mark.slow
def test_outlaws_status_examples_across_readings():
    """The won-ugly example stays won by B under every reading (a finished game); the search honours
    the rules it is given (first_player is skipped: a position names the side to move)."""
    res = impact.impact("outlaws", ["status/won-ugly"], verdict.Settings(time_limit=5))
    (v,) = res["verdicts"]
    assert v["default"]["winner"] == "B" and v["default"]["win_possible"] == {"A": False, "B": True}
    assert v["depends_on"] == [] and [s["reading"] for s in v["skipped"]] == ["first_player"]


def _all_seen():
    seen = set()
    for game in reading_options.GAMES:
        for r in reading_options.game_readings(game):
            seen |= {(game, r.name, reading_options.value_key(v)) for v in r.values}
    return seen


def test_unexercised_names_each_missing_alternative():
    """The session-end check of tests/conftest.py: every listed value of a named reading, and one
    value other than the default of a numeric parameter, must have been built by some test."""
    seen = _all_seen()
    assert support_readings.unexercised(seen) == []
    assert support_readings.unexercised(seen - {("outlaws", "sheriff_save", reading_options.value_key("stop"))}) == ["outlaws.sheriff_save=stop"]
    dies = {k for k in seen if k[:2] == ("cactus", "die_sides")}
    assert support_readings.unexercised((seen - dies) | {("cactus", "die_sides", reading_options.value_key(6))}) == \
        ["cactus.die_sides=<any value but 6>"]
    assert support_readings.unexercised((seen - dies) | {("cactus", "die_sides", reading_options.value_key(8))}) == []


def test_building_rules_is_recorded_outside_a_sweep():
    """tests/conftest.py wraps each readings class: a rules object a test builds is recorded, one the
    impact sweep builds is not."""
    from tests import conftest

    conftest.SEEN.discard(("cactus", "die_sides", reading_options.value_key(17)))
    token = reading_options.SWEEP.set(True)
    try:
        reading_options.readings_with("cactus", {"die_sides": 17})
    finally:
        reading_options.SWEEP.reset(token)
    assert ("cactus", "die_sides", reading_options.value_key(17)) not in conftest.SEEN
    reading_options.readings_with("cactus", {"die_sides": 17})
    assert ("cactus", "die_sides", reading_options.value_key(17)) in conftest.SEEN


def test_cactus_checks_take_the_readings_they_are_said_to_read(monkeypatch):
    """A deck check run under an alternative must receive it (else the impact run would call it with
    the defaults and report 'unchanged'): verify.run_check hands each check the readings READS names."""
    from solver.cactus.readings import CactusReadings
    from solver.cactus.verify import checks as cv

    assert set(cv.READS) == set(cactus_verdicts.EVENT_FAMILIES) | set(cactus_verdicts.SOLO_FAMILIES)
    got = {}
    monkeypatch.setattr(cv, "check_duel_bound", lambda *a: got.setdefault("duel", a) and {})
    monkeypatch.setattr(cv, "check_event_bound", lambda *a: got.setdefault("bound", a) and {})
    monkeypatch.setattr(cv, "check_solo_marshal_bound", lambda *a: got.setdefault("solo", a) and {})
    r = CactusReadings.from_json({"marshal_discard": "discarded", "duel_discards": "one_per_round", "max_duels_per_round": 2,
                    "stagecoach_short": "none", "short_deck": "stop_archiving"})
    cv.run_check("event-end-bound-with-duels", r, 3)
    cv.run_check("event-end-bound", r, 2)
    cv.run_check("solo-marshal-bound", r)
    assert got == {"duel": (3, "discarded", "one_per_round", 2, "none"), "bound": (2, "none"),
                   "solo": ("stop_archiving",)}
    with pytest.raises(BadInput):
        cv.run_check("event-end-bound", r, 7)



def test_the_time_limit_reaches_the_cactus_deck_checks():
    """--time-limit bounds each Z3 solve of the deck checks too: a limit too short to decide leaves the
    verdict undecided (reported, not cached), never a wrong holds/fails. (The verifier's own cache of
    proven results, shared by the deck sizes, is cleared first: a proven answer needs no new solve.)"""
    from solver.cactus.verify import checks as cv

    impact.clear_cache()
    cv.clear_cache()
    res = impact.impact("cactus", ["event-end-bound/p5"], verdict.Settings(time_limit=0.001))
    (v,) = res["verdicts"]
    assert v["default"] == {"holds": None, "undecided": "time limit"}
    assert not v["holds_under_every_reading"] and v["depends_on"] == []
    assert not any(k.verdict == "event-end-bound/p5" for k in impact._CACHE)


def test_the_session_check_fails_a_whole_run_that_leaves_a_reading_untested(pytester, monkeypatch):
    """tests/conftest.py in a suite of one test that builds one alternative: the whole run fails and
    names the alternatives no test built; a run narrowed by -k is not judged. The inner run imports
    ``tests.support`` as the outer one does, so the repository root goes on its PYTHONPATH."""
    import os
    from pathlib import Path

    from tests import conftest

    root = str(Path(conftest.__file__).resolve().parents[1])
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    pytester.makeconftest(Path(conftest.__file__).read_text(encoding="utf-8"))
    pytester.makepyfile(test_one="""
        from solver.outlaws.readings import OutlawsReadings

        def test_builds_one():
            assert OutlawsReadings(sheriff_save="stop").sheriff_save == "stop"
    """)
    whole = pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:xdist")
    assert whole.ret == 1
    text = whole.stdout.str()
    assert "readings no test exercises" in text and "outlaws.bandit_empty_supply=forbidden" in text
    assert "outlaws.sheriff_save=stop" not in text
    narrowed = pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:xdist", "-k", "builds")
    assert narrowed.ret == 0 and "readings no test exercises" not in narrowed.stdout.str()


def test_a_lone_cowboy_check_cut_by_its_time_limit_is_undecided(monkeypatch):
    """A scenario the time limit left open makes the verdict undecided, never 'holds'; the
    playability check takes no reading, the game checks no scoring reading (stated arguments)."""
    from solver.wagons.verify import checks as wv
    from solver.z3check import CheckResult, Finding, Outcome

    def termination(sid, *a, **kw) -> CheckResult:
        finding = Finding(None if sid == "gold-rush" else True)
        return CheckResult(f"termination/{sid}", "termination", "rule", Outcome.of(finding, 0.0))

    fake = {"termination": termination}
    monkeypatch.setattr(wv, "check_families", lambda: fake)
    by_id = {v.id: v for v in impact.verdicts("wagons")}
    readings, settings = reading_options.readings_with("wagons", {}), verdict.Settings(time_limit=1)
    value = by_id["wagons-verify/termination"].run(readings, settings)
    assert value["undecided"] == "time limit" and value["termination/boomtown"] is True
    parts = [by_id["wagons-verify/termination"].run_part(sid, readings, settings) for sid in ("boomtown", "gold-rush")]
    assert parts[0] == {"termination/boomtown": True} and verdict.merge_parts(parts) == {
        "undecided": "time limit", "termination/boomtown": True, "termination/gold-rush": None}
    assert not by_id["wagons-verify/playability"].reads_reading("icon_source")
    assert not by_id["wagons-verify/termination"].reads_reading("boom_or_bust")
    assert by_id["wagons-verify/termination"].reads_reading("match_order")
    assert by_id["wagons-verify/winnability"].reads_reading("boom_or_bust")


def test_a_scenario_shares_the_runs_of_the_readings_it_cannot_read():
    """A reading only one scenario reads (Boom or Bust's points, Badlands, Happy Cows, Boomtown's count) is
    skipped, with its argument, by another scenario's verdict, and a per-scenario check runs its other scenarios
    once for the default and that reading together."""
    readings, settings = reading_options.game_readings("wagons"), verdict.Settings()
    by_id = {v.id: v for v in impact.verdicts("wagons")}
    gold = by_id["greedy-wins/gold-rush"]
    assert not gold.reads_reading("boom_or_bust") and "Boomtown alone" in gold.skip_reason("boom_or_bust")
    assert by_id["greedy-wins/boomtown"].reads_reading("boom_or_bust")
    check = by_id["wagons-verify/termination"]
    assert check.part_reads("boomtown", "boomtown_count") and not check.part_reads("gold-rush", "boomtown_count")
    default = impact.jobs_for("wagons", check, {}, settings)
    counted = impact.jobs_for("wagons", check, {"boomtown_count": "cards"}, settings)
    assert len(default) == len(counted) == 6 and len(set(default) & set(counted)) == 5
    assert len(impact.jobs_of("wagons", check, readings, settings)) == 6 * (1 + len(impact.plan("wagons", check, readings))) - 5


def test_impact_runs_on_worker_processes_with_the_same_answer():
    """issue 33: `readings impact` runs its verdicts on the available cores through the executor; the answer is the
    one the serial run gives."""
    only = ["marshal-odds/solo", "marshal-odds/p3"]
    impact.clear_cache()
    serial = impact.impact("cactus", only, executor="serial")
    impact.clear_cache()
    local = impact.impact("cactus", only, executor="local", workers=2)
    strip = lambda res: [{k: v for k, v in row.items() if k not in ("elapsed", "seconds")} for row in res["verdicts"]]
    assert strip(local) == strip(serial) and local["runs"]["computed"] == serial["runs"]["total"] > 2


def test_decided_results_are_kept_on_disk_between_runs(tmp_path, monkeypatch):
    """issue 33: decided results are kept between runs (a new process finds them); a changed code fingerprint or an
    undecided result is computed again."""
    from solver.readings import stored

    monkeypatch.setenv("RULESLINGER_CACHE", str(tmp_path))
    calls = []

    def run(readings, settings):
        calls.append(readings.tie_break)
        return {"undecided": "time limit"} if readings.tie_break == "guns" else {"wins": 1}
    monkeypatch.setitem(registry.BY_ID, "wagons", _with_verdicts("wagons", lambda: [_fake("wagons", run, ("tie_break",))]))
    impact.clear_cache()
    first = impact.impact("wagons", stored=True)
    assert calls == ["tie", "guns"] and first["runs"] == {"total": 2, "computed": 2, "kept": 0}
    impact.clear_cache()  # as a new process would start
    again = impact.impact("wagons", stored=True)
    assert calls == ["tie", "guns", "guns"] and again["runs"] == {"total": 2, "computed": 1, "kept": 1}
    assert again["verdicts"][0]["default"] == first["verdicts"][0]["default"] == {"wins": 1}
    impact.clear_cache()
    monkeypatch.setattr(stored, "fingerprint", lambda: "other code")
    impact.impact("wagons", stored=True)
    assert calls[3:] == ["tie", "guns"]


@pytest.mark.parametrize(("quiet", "shown"), [((), True), (("--quiet",), False)])
def test_impact_shows_its_progress_on_stderr_with_json_unless_quiet(capsys, quiet, shown):
    """As ``advise`` does: a long run with ``--json`` keeps its progress lines on standard error (its answer alone
    on standard output); ``--quiet`` silences them."""
    impact.clear_cache()
    code, res, err = run_json(capsys, "readings", "impact", "cactus", "--verdict", "solo-marshal-bound", "--json",
                              "--executor", "serial", "--fresh", *quiet)
    assert code == 0 and res["verdicts"][0]["id"] == "solo-marshal-bound"
    lines = err.strip().splitlines()
    assert bool(lines) == shown and all(li.startswith("[readings impact cactus] ") for li in lines), lines
