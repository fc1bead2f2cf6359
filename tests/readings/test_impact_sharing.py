"""The work the Lone Cowboy verdicts share in ``readings impact wagons`` (solver/wagons/verify/shared.py): one Z3 game
for the game checks, one set of greedy games, one bound per bound model; the tasks that group them; the readings
card-conservation is argued not to read."""

import inspect
import json
from dataclasses import replace

import z3

from solver.readings import impact
from solver.readings import options as reading_options
from solver.readings.verdicts import Settings
from solver.wagons.readings import WagonsReadings
from solver.wagons.simulate import play_game
from solver.wagons.verify import checks, scores, shared
from solver.wagons.verify.model import GameModel


def _holds(check, scenario, readings, mutations=frozenset()):
    return check(scenario, readings, frozenset(mutations), 120.0).holds


def test_the_game_checks_share_one_z3_game_and_answer_as_fresh_builds(monkeypatch):
    """Inside the sweep the automaton and termination checks of one scenario and readings build the Z3 game once,
    and each answers as on a fresh build: a mutation that breaks the first check leaves nothing behind for the
    second (each asks in its own push/pop scope)."""
    readings, mutations = WagonsReadings(round1_pick="last"), frozenset({"two-picks"})
    fresh = [_holds(c, "cattle-drive", readings, mutations) for c in (checks.check_automaton, checks.check_termination)]
    assert fresh == [False, True]
    built = []
    real_init = GameModel.__init__

    def counting(self, *a, **kw):
        built.append(a[1])
        real_init(self, *a, **kw)
    monkeypatch.setattr(GameModel, "__init__", counting)
    shared.clear()
    with shared.sharing():
        kept = [_holds(c, "cattle-drive", readings, mutations) for c in (checks.check_automaton, checks.check_termination)]
        assert kept == fresh and built == ["cattle-drive"]
        assert _holds(checks.check_termination, "cattle-drive", WagonsReadings(), mutations) is True  # other readings: built
        assert len(built) == 2
    shared.clear()
    _holds(checks.check_termination, "cattle-drive", readings)  # outside the sweep every check builds its own
    assert len(built) == 3 and len(shared.MODELS) == 0


def test_kept_games_are_keyed_by_every_reading_and_the_goal_numbers():
    """A kept engine game is the game a fresh play gives, under the same readings and goal numbers only."""
    shared.clear()
    assert shared.played("boomtown", "greedy", 3, WagonsReadings()) is not shared.played("boomtown", "greedy", 3, WagonsReadings())
    with shared.sharing():
        first = shared.played("boomtown", "greedy", 3, WagonsReadings())
        assert shared.played("boomtown", "greedy", 3, WagonsReadings()) is first
        other = shared.played("boomtown", "greedy", 3, WagonsReadings(match_order="deck-first"))
        assert other is not first and other.state.readings.match_order == "deck-first"
    fresh = play_game("boomtown", "greedy", 3, WagonsReadings())
    assert (first.scores.to_dict(), first.state.log) == (fresh.scores.to_dict(), fresh.state.log)
    with shared.sharing():  # the settings' goal numbers are one object per process: found again, never mixed up
        from solver.wagons.verify.verdicts import card_data

        cards = Settings(cards=json.dumps({"Smalltown Charm": {"per_territory": 2}}))
        data = card_data(cards)
        assert data is card_data(cards) and data is not None and card_data(Settings()) is None
        assert shared.played("boomtown", "greedy", 3, WagonsReadings(), data) is not first
    shared.clear()


def test_the_bound_model_reads_only_its_bound_readings():
    """Under every alternative reading the bound model of each scenario is the one built with only its
    :data:`scores.BOUND_READINGS` set (the key its kept bound is found by): the same Z3 assertions and
    objectives."""
    built_for: dict = {}

    def assertions(readings, scenario):
        """The bound model's assertions and objectives, built once per readings and scenario (a probe's key is often
        the probe itself)."""
        if (readings, scenario) not in built_for:
            bm = scores.BoundModel(z3.Context(), scenario, readings)
            built_for[readings, scenario] = bm.opt.sexpr(), bm.player_total.sexpr(), bm.opp_total.sexpr()
        return built_for[readings, scenario]

    changes = set()
    scenarios = ("boomtown", "through-the-desert", "cattle-drive")
    default = {scenario: assertions(WagonsReadings(), scenario) for scenario in scenarios}
    for reading in reading_options.game_readings("wagons"):
        for value in reading.probes:
            readings = replace(WagonsReadings(), **{**reading.together, reading.name: value})
            key = scores.bound_readings(readings)
            for scenario in scenarios:
                built = assertions(readings, scenario)
                assert built == (default[scenario] if key == WagonsReadings() else assertions(key, scenario)), \
                    (reading.name, value, scenario)
                if built != default[scenario]:
                    changes.add(reading.name)
            assert (key == WagonsReadings()) == (reading.name not in scores.BOUND_READINGS)
    assert changes <= set(scores.BOUND_READINGS) and {"boomtown_mines", "edition", "boom_or_bust"} <= changes


def test_a_kept_bound_is_the_bound_a_fresh_solve_gives():
    """The score-bounds check's bound is solved once for the draft readings of one bound model in the sweep,
    and is the one a fresh solve gives; a bound the time limit left open is not kept."""
    shared.clear()
    fresh = scores._bound("cattle-drive", WagonsReadings(round1_window=1), frozenset(), None, "player", 60.0)
    with shared.sharing():
        first = scores._bound("cattle-drive", WagonsReadings(), frozenset(), None, "player", 60.0)
        again = scores._bound("cattle-drive", WagonsReadings(round1_window=1), frozenset(), None, "player", 60.0)
        assert len(shared.BOUNDS) == 1
        scores._bound("cattle-drive", WagonsReadings(happy_cows_snow="corner"), frozenset(), None, "player", 60.0)
        assert len(shared.BOUNDS) == 2
    assert first == again == fresh and fresh["bound"] is not None and fresh["proven"]
    shared.clear()


def test_a_bound_left_open_is_tried_twice_then_kept_open(monkeypatch):
    """A bound the time limit leaves open is tried again in the next run of the same bound model (a busy machine may
    have cut the first try short), and kept open after the second try: the runs after it do not solve the same Z3
    problem under the same limit a third time; a try the process did not get the CPU for is not counted. Outside the
    sweep every call solves."""
    solved = []
    real = scores._maximise

    def counting(run, model, objective):
        solved.append(model.scenario)
        return real(run, model, objective)
    monkeypatch.setattr(scores, "_maximise", counting)
    draft = [WagonsReadings(), WagonsReadings(round1_window=1), WagonsReadings(match_order="deck-first"),
             WagonsReadings(icon_source="town")]
    shared.clear()
    with shared.sharing():
        cut = [scores._bound("boomtown", r, frozenset(), None, "opponent", 0.01) for r in draft]
        assert all(c["bound"] is None and not c["proven"] for c in cut)
        assert len(solved) == scores.OPEN_BOUND_TRIES == 2
        other = scores._bound("boomtown", WagonsReadings(boomtown_mines="either"), frozenset(), None, "opponent", 0.01)
        assert other["bound"] is None and len(solved) == 3  # another bound model: its own tries
    shared.clear()
    scores._bound("boomtown", WagonsReadings(), frozenset(), None, "opponent", 0.01)
    scores._bound("boomtown", WagonsReadings(), frozenset(), None, "opponent", 0.01)
    scores._bound("boomtown", WagonsReadings(), frozenset(), None, "opponent", 0.01)
    assert len(solved) == 6 and len(shared.BOUNDS) == 0
    monkeypatch.setattr(scores.time, "process_time", lambda: 0.0)  # tries without their CPU (a busy machine)
    with shared.sharing():
        for r in draft:
            scores._bound("boomtown", r, frozenset(), None, "opponent", 0.01)
    assert len(solved) == 6 + len(draft)  # not counted: each run tries again
    shared.clear()


def test_conservation_is_argued_not_to_read_the_draft_readings():
    """card-conservation skips the draft readings with its argument; the argument's premise (the slots' bookkeeping
    reads no reading) is the code's, and the widest round-1 window, which lets the opponent take an index no default
    game takes, keeps the default answer."""
    by_id = {v.id: v for v in impact.verdicts("wagons")}
    conservation = by_id["wagons-verify/card-conservation"]
    draft = ("icon_source", "match_order", "edition", "round1_window", "round1_pick", "boomtown_count")
    assert not any(conservation.reads_reading(n) for n in draft)
    assert all(by_id["wagons-verify/termination"].reads_reading(n) for n in draft)
    assert "_route_slots" in conservation.skip_reason("round1_window")
    assert "rules" not in inspect.getsource(GameModel._route_slots)
    assert _holds(checks.check_conservation, "gold-rush", WagonsReadings(round1_window=4)) is True


def test_tasks_group_the_shared_runs_biggest_first():
    """Every run is in exactly one task; the runs of a task share one key; the tasks go biggest first."""
    settings, readings = Settings(), reading_options.game_readings("wagons")
    chosen = impact.verdicts("wagons")
    jobs = list(dict.fromkeys(j for v in chosen for j in impact.jobs_of("wagons", v, readings, settings)))
    tasks = impact.tasks_of(jobs)
    grouped = [j for t in tasks for j in t]
    assert len(grouped) == len(set(grouped)) == len(jobs) and set(grouped) == set(jobs) and len(tasks) < len(jobs)
    by_id = {v.id: v for v in chosen}

    def key(job):
        return by_id[job.verdict].share_key(job.part, WagonsReadings.from_json(json.loads(job.overrides)))
    for task in tasks:
        assert len({key(j) for j in task}) == 1 and (len(task) == 1 or key(task[0]))
    sizes = [sum(by_id[j.verdict].cost for j in t) for t in tasks]
    assert sizes == sorted(sizes, reverse=True)
    game = [t for t in tasks if t[0].verdict == "wagons-verify/card-conservation" and t[0].part == "boomtown"]
    assert [j.verdict.split("/")[-1] for j in game[0]] == ["card-conservation", "termination", "automaton"]


def test_a_task_s_runs_are_reported_as_soon_as_it_ends(monkeypatch):
    """Progress follows the tasks as they end, not the order they were given in: the runs of a later task are
    reported while the first task (the biggest, started first) is still running, and it is reported when it ends."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from solver.execution import executor as ex

    class Threads:
        """The local pool's interface on threads (the same futures), so the test can hold a task back."""

        def __init__(self):
            self.pool = ThreadPoolExecutor(2)

        def submit(self, fn, *args):
            return self.pool.submit(fn, *args)

        def close(self, cancel=False):
            self.pool.shutdown(wait=True, cancel_futures=cancel)

    monkeypatch.setattr(ex, "_open", lambda spec, timeout, say=None: Threads())
    jobs = [impact.Job("wagons", f"greedy-wins/{sid}", "{}", Settings()) for sid in ("boomtown", "gold-rush")]
    tasks = impact.tasks_of(jobs)
    assert len(tasks) == 2
    first, later = tasks[0][0], tasks[1][0]
    later_reported = threading.Event()

    def run_task(task):
        if task[0] == first:  # held until the later task's run is reported (the wait's limit only stops a hang)
            return [({"released": later_reported.wait(120)}, 0.0)]
        return [({"released": True}, 0.0)]
    labels = []

    def progress(p):
        labels.append(p.what)
        if p.what == impact._label(later):
            later_reported.set()
    monkeypatch.setattr(impact, "run_task", run_task)
    try:
        out = impact._results(jobs, progress, "local", 2, False)
    finally:
        impact.clear_cache()
    assert labels[1:] == [impact._label(later), impact._label(first)]
    assert out[first][0] == {"released": True} and out[later][0] == {"released": True}


def test_the_sweep_makes_only_the_solve_that_decides_holds(monkeypatch):
    """A verdict keeps a check's ``holds`` alone: in the sweep the game checks make their first solve, which decides
    it, and leave out the findings beside it (the random games pinned on the Z3 game, the longest game, the text's
    gaps: verdicts.REPORT_ONLY); ``wagons verify`` still makes them."""
    from solver.wagons.verify import verdicts as wagons_verdicts

    solves = []
    real = checks._sat

    def counting(model, *conds):
        solves.append(len(conds))
        return real(model, *conds)
    monkeypatch.setattr(checks, "_sat", counting)
    shared.clear()
    game_checks = ("card-conservation", "termination", "automaton")
    settings = Settings(time_limit=600)  # a busy machine does not cut the first solve short
    values = [wagons_verdicts._check_part(c, "cattle-drive", WagonsReadings(), settings) for c in game_checks]
    assert values == [{f"{c}/cattle-drive": True} for c in game_checks] and len(solves) == 3
    shared.clear()
    full = checks.check_termination("cattle-drive", WagonsReadings(), frozenset(), 120.0)
    assert full.holds is True and full.details["longest_game_turns"] and full.details["random_games"]["games"] == 3
    assert len(solves) > 3 + 1 + 3


def test_a_witness_town_s_layout_is_searched_once_across_the_draft_readings(monkeypatch):
    """The score-bounds check's optimizer layout of its best witness town is searched once for the runs of the draft
    readings (they change which cards a game deals, never how a town scores: the premise, checked on engine towns),
    again for other scoring readings, and every time outside the sweep; the kept layout is the one the search gave."""
    from solver.wagons.data import load_data
    from solver.wagons.optimizer import layout
    from solver.wagons.optimizer.problem import objective_value

    game = play_game("boomtown", "greedy", 0, WagonsReadings())
    cards, pile = [p.card for p in game.state.town.placements], list(game.state.pile)
    draft = [replace(WagonsReadings(), **{r.name: r.probes[0]}) for r in reading_options.game_readings("wagons")
             if r.name in scores.DRAFT_READINGS]
    assert len(draft) == len(scores.DRAFT_READINGS)
    for readings in draft:  # the premise: the player's score of a town does not read the draft readings
        data = load_data().for_readings(readings)
        assert objective_value(game.state.town, "boomtown", pile, readings, "score", data) == game.scores.player.total
    searched = []
    real = layout.best_layout

    def counting(*a, **kw):
        searched.append(a[3])
        return real(*a, **kw)
    monkeypatch.setattr(layout, "best_layout", counting)
    shared.clear()
    with shared.sharing():
        kept = [scores.best_town_score(cards, "boomtown", pile, r, 1.0) for r in [WagonsReadings(), *draft]]
        assert len(searched) == 1 and all(k == kept[0] for k in kept) and kept[0]["score"] >= game.scores.player.total
        scores.best_town_score(cards, "boomtown", pile, WagonsReadings(boom_or_bust="flat"), 1.0)
        assert len(searched) == 2
    shared.clear()
    scores.best_town_score(cards, "boomtown", pile, WagonsReadings(), 1.0)
    scores.best_town_score(cards, "boomtown", pile, WagonsReadings(), 1.0)
    assert len(searched) == 4
