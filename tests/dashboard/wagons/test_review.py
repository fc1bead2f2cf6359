"""AppTest: dashboard.wagons.review.show_review on finished seeded games, against the solver's own
review (solver.wagons.review.town) and BG Stats play (solver.wagons.record.bgstats)."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlparse

from streamlit.testing.v1 import AppTest

from solver.wagons.review.town import review
from solver.wagons.scoring import final_scores
from solver.wagons.simulate import play_game
from solver.wagons.town import visible_grid
from tests.support.dashboard.apptest import charts, errors, texts
from tests.support.dashboard.kept import svg_text

GAME = ("cattle-drive", "random", 2)
"""A finished 4-card game whose best layout is proven in well under a second (7 points better)."""


def review_app(scenario: str, policy: str, seed: int, finished: bool = True) -> None:
    """The script AppTest runs: one seeded game, played to the end (or not), then the review."""
    from dashboard.wagons.review import show_review
    from solver.wagons.game import new_game
    from solver.wagons.simulate import play_game

    show_review(play_game(scenario, policy, seed).state if finished else new_game(scenario, seed))


def opened(*game, limit: int = 20, finished: bool = True) -> AppTest:
    at = AppTest.from_function(review_app, args=(*game, finished), default_timeout=120)
    at.session_state["wr_limit"] = limit
    at.run()
    assert not at.exception
    return at


def test_the_review_shows_the_solvers_best_layout_breakdown_and_chart():
    at = opened(*GAME)
    assert not at.get("metric")  # nothing is searched before the player asks
    at.button(key="wr_run").click().run()
    assert not at.exception and not errors(at)
    want = review(play_game(*GAME).state, time_limit=20)
    assert want.proven and want.gap > 0
    metrics = {m.label: m.value for m in at.metric}
    assert metrics == {"Your town": str(want.mine.player.total), "Best layout": str(want.best.player.total),
                       "Points left on the table": str(want.gap)}
    assert want.headline() in "\n".join(s.value for s in at.success)  # proven: said so
    page = texts(at)
    for part in want.parts:
        if part.gap:
            assert part.explanation in page
    (frame,) = [d.value for d in at.dataframe if "part" in d.value.columns]
    assert list(frame.columns) == ["part", "yours", "best", "gap"]
    assert list(frame["part"])[-1] == "total" and list(frame["gap"])[-1] == want.gap
    assert sum(list(frame["gap"])[:-1]) == want.gap
    (spec,) = charts(at)
    text = json.dumps(spec)
    assert spec["title"]["text"] == ["Where the points were lost,", "per scoring part"]
    assert spec["encoding"]["x"]["title"] == ["Points: the best layout", "minus your town"]
    assert spec["encoding"]["y"]["title"] == "Scoring part"
    assert spec["encoding"]["color"]["title"] == "Difference"
    assert "Lost here: the best layout scores more" in text and spec["height"] == {"step": 26}
    assert "Lost here: the best layout scores more" in " ".join(h.proto.body for h in at.get("html"))  # the key
    assert not re.search(r"\bW-?[0-9A-Za-z]+-", text) and "rule" not in text.lower()  # no raw rule ids


def test_show_me_lays_the_best_layout_over_the_players_town():
    at = opened(*GAME)
    at.button(key="wr_run").click().run()
    bodies = [h.proto.body for h in at.get("html") if "wagons-town" in h.proto.body]  # the drawings
    assert len(bodies) == 2 and "Your town:" in bodies[0] and "Best layout:" in bodies[1]
    at.toggle(key="wr_show_me").set_value(True).run()
    assert not at.exception
    (overlay,) = [svg_text(h.proto.body) for h in at.get("html") if "wagons-town" in h.proto.body]
    want = review(play_game(*GAME).state, time_limit=20)
    mine, best = visible_grid(want.town), visible_grid(want.best_town)
    differ = sum(mine.get(xy) != best.get(xy) for xy in set(mine) | set(best))
    assert differ > 0
    assert overlay.count("class='differs'") == differ
    assert overlay.count("best: ") == len(best)
    assert "stroke-dasharray='5 3'" in overlay  # the best layout's cards outlined, dashed
    at.toggle(key="wr_show_me").set_value(False).run()
    assert len([h for h in at.get("html") if "wagons-town" in h.proto.body]) == 2


def test_the_bg_stats_export_needs_a_name_then_links_the_engines_scores():
    at = opened(*GAME)
    at.button(key="wr_run").click().run()
    assert any("Enter your name" in i.value for i in at.info)
    assert not at.get("link_button")
    at.text_input(key="wr_bg_name").input("Ann").run()
    at.number_input(key="wr_bg_minutes").set_value(30).run()
    assert not at.exception and not errors(at)
    (link,) = at.get("link_button")
    play = json.loads(parse_qs(urlparse(link.proto.url).query)["data"][0])
    state = play_game(*GAME).state
    final = final_scores(state.town, state.pile, state.scenario, state.readings)
    assert [(p["name"], p["score"], p["winner"]) for p in play["players"]] == [
        ("Ann", final.player.total, final.winner == "player"),
        ("Lone Cowboy automated opponent", final.opponent.total, final.winner == "opponent")]
    assert play["durationMin"] == 30 and play["board"] == "Cattle Drive"
    assert at.get("download_button")
    at.text_input(key="wr_bg_name").input("Ann\u202e").run()
    assert any("BG Stats: player name" in e for e in errors(at))


def unproven_app(scenario: str, policy: str, seed: int) -> None:
    """A review whose search is marked cut short (as a time limit leaves it), drawn by the page."""
    from dataclasses import replace

    from dashboard.wagons.review import _show_result
    from solver.wagons.review.town import review
    from solver.wagons.simulate import play_game

    _show_result(replace(review(play_game(scenario, policy, seed).state, time_limit=20), proven=False,
                         bound=None).to_dict(), "wr")


def test_an_unfinished_game_waits_and_an_unproven_result_says_so():
    at = opened("boomtown", "greedy", 0, finished=False)
    assert any("once the game is over" in i.value for i in at.info) and not at.get("button")
    at = AppTest.from_function(unproven_app, args=GAME, default_timeout=120)
    at.run()
    assert not at.exception and not at.success
    warned = "\n".join(w.value for w in at.warning)
    assert "not proven optimal" in warned and "A longer time limit might find more." in warned
    assert "(best found, not proven)" in "".join(h.proto.body for h in at.get("html"))


def test_a_short_time_limit_is_honoured_and_the_page_says_what_the_search_proved():
    at = opened("gold-rush", "random", 0, limit=1)
    at.button(key="wr_run").click().run()
    assert not at.exception and not errors(at)
    (status,) = at.get("status")
    if "not proven" in status.label:
        assert "not proven optimal" in "\n".join(w.value for w in at.warning) and not at.success
    else:
        assert "proven optimal" in status.label and "proven optimal" in "\n".join(s.value for s in at.success)


def switching_app() -> None:
    """The review of the game the session names (``game``: scenario, policy, seed; ``over``: played out)."""
    import streamlit as st

    from dashboard.wagons.review import show_review
    from solver.wagons.game import new_game
    from solver.wagons.simulate import play_game

    scenario, policy, seed = st.session_state.get("game", ("cattle-drive", "random", 2))  # GAME
    show_review(play_game(scenario, policy, seed).state if st.session_state.get("over", True)
                else new_game(scenario, seed))


def test_a_review_runs_only_when_asked_and_its_limit_outlives_a_hidden_panel():
    """Pressing "Review my game" once does not review every later game: another game shows nothing until
    asked, the first one's review comes back with it (browser walk, 2026-12-02: a later game's step re-ran a
    60 s search unasked); the limit slider keeps its value while the game is not over and it is hidden."""
    at = AppTest.from_function(switching_app, default_timeout=120)
    at.run()
    at.slider(key="wr_limit").set_value(7).run()
    at.button(key="wr_run").click().run()
    assert [m.value for m in at.metric if m.label == "Your town"]
    at.session_state["game"] = ("cattle-drive", "random", 3)
    at.run()
    assert not at.exception and not at.get("metric")  # another game: nothing searched, nothing stale shown
    at.session_state["game"] = GAME
    at.run()
    assert [m.value for m in at.metric if m.label == "Your town"]  # the first game's review, kept
    at.session_state["over"] = False
    at.run()
    assert not at.get("slider")
    at.session_state["over"] = True
    at.run()
    assert at.slider(key="wr_limit").value == 7
