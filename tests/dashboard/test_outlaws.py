"""AppTest: the Outlaws page (editor, validation, legal actions, banners) against the engine."""

from __future__ import annotations

import json
from collections import Counter

from dashboard.nav import page_file
from solver.outlaws.actions import legal_actions
from solver.outlaws.rules import Rules
from solver.outlaws.state import initial_position, position_from_json, position_to_json
from tests.support.apptest import errors, open_page, texts


def start_doc(seed=1):
    return position_to_json(initial_position(seed=seed, rules=Rules()))


def apply_json(at, doc):
    at.text_area(key=f"ol_json_{at.session_state['ol_ver']}").set_value(json.dumps(doc))
    at.button(key="ol_apply_json").click().run()


def action_counts(doc):
    return Counter(a.kind for a in legal_actions(position_from_json(doc), Rules()))


def test_legal_actions_are_grouped_and_counted_like_the_engine():
    at = open_page("outlaws")
    assert not at.exception and not errors(at)
    counts = action_counts(start_doc(1))
    head = f"**{sum(counts.values())} legal actions**: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    assert head in texts(at)
    assert [t.label for t in at.tabs if "(" in t.label] == [f"{k} ({n})" for k, n in sorted(counts.items())]
    # a new set-up from another seed
    at.number_input(key="ol_seed").set_value(7)
    at.button(key="ol_new").click().run()
    counts = action_counts(start_doc(7))
    assert f"**{sum(counts.values())} legal actions**" in texts(at)


def test_bad_edits_are_refused_inline_and_change_nothing():
    at = open_page("outlaws")
    before = at.session_state["ol_pos"]
    doc = json.loads(json.dumps(before))
    doc["saloon"]["A"][0] = "governor"
    apply_json(at, doc)
    assert any("Position not changed" in e and "Governor" in e for e in errors(at))
    assert at.session_state["ol_pos"] == before
    at.get("file_uploader")[0].upload("p.json", b'{"to_move": "C"}', "application/json").run()
    assert any("was not loaded" in e for e in errors(at))
    assert at.session_state["ol_pos"] == before


def test_a_json_string_is_never_read_as_a_server_file(tmp_path):
    """Issue 16: an upload or an "Edit as JSON" text holding a JSON *string* was taken for a path, so
    any position file on the server loaded and the message told whether other paths existed."""
    from solver.paths import SCENARIOS

    secret = tmp_path / "secret.json"
    secret.write_text('{"token": "s3cret-value"}')
    at = open_page("outlaws")
    before = at.session_state["ol_pos"]
    targets = [str(SCENARIOS / "outlaws" / "won-ugly.json"), str(secret), "/etc/passwd", str(tmp_path), "/nosuch"]
    for n, target in enumerate(targets):
        at.get("file_uploader")[0].upload(f"p{n}.json", json.dumps(target).encode(), "application/json").run()
        apply_json(at, target)
        shown = " ".join(errors(at))
        assert at.session_state["ol_pos"] == before, target
        assert "expected a JSON object, got a string" in shown, shown
        for leak in ("s3cret", "no such file", "directory", "regular file", "bytes", "root:", "token"):
            assert leak not in shown.lower(), (target, shown)


def test_form_editor_changes_the_position():
    at = open_page("outlaws")
    at.radio(key="ol0_to_move").set_value("B")
    at.radio(key="ol0_al").set_value(1)
    at.button(key="FormSubmitter:ol_form_0-Apply edits").click().run()
    assert not at.exception and not errors(at)
    assert at.session_state["ol_pos"]["to_move"] == "B" and at.session_state["ol_pos"]["actions_left"] == 1
    doc = start_doc(1) | {"to_move": "B", "actions_left": 1}
    assert f"**{sum(action_counts(doc).values())} legal actions**" in texts(at)


def test_victory_and_sudden_death_banners():
    at = open_page("outlaws")
    won = start_doc(1) | {"winner": "B", "victory": "ugly"}
    apply_json(at, won)
    assert not errors(at)
    assert ("**B has won** Con le Cattive (the Ugly way): the Sheriff arrests the opposing Hitman."
            in [s.value for s in at.success])
    # both sides on 3 Votes with every Bullet and Handcuffs discarded: the O11 trigger
    trig = start_doc(1)
    trig["supply"] = {s: {"vote": 3, "bullet": 0, "handcuffs": 0, "front_page": 3, "election": 0} for s in "AB"}
    trig["discard"] = {"bullet": 3, "handcuffs": 3}
    trig["tokens"] = ["x", "x", "x", "x", "election", "empty", "empty", "empty"]
    trig["reserve"] = []
    apply_json(at, trig)
    assert not errors(at), errors(at)
    assert any("Sudden death" in w.value and "triggered" in w.value
               and "only Con le Brutte (the Bad way) and Con le Cattive (the Ugly way) count" in w.value
               for w in at.warning)


def test_playout_statistics_come_from_the_engine():
    from solver.outlaws.playout import playouts
    from tests.support.apptest import charts

    at = open_page("outlaws")
    at.number_input(key="ol_playouts").set_value(3)
    at.number_input(key="ol_playout_cap").set_value(150)
    at.button(key="ol_run_playouts").click().run(timeout=120)
    assert not at.exception and not errors(at)
    want = playouts(3, seed=0, rules=Rules(), max_actions=150)
    assert (f"Finished games: **{int(want['finished'].sum())} of 3**; sudden death reached in "
            f"**{int(want['sudden_death'].sum())}**.") in texts(at)
    specs = {c["title"]: c for c in charts(at)}
    assert specs["Who wins, and how"]["mark"]["type"] == "bar"
    assert specs["Game length"]["encoding"]["x"]["field"] == "length"


def test_the_playout_chart_names_each_victory():
    """The chart's legend names each victory as the rulebook does, the English edition's name beside it."""
    import polars as pl

    from dashboard.outlaws.view import victory_counts

    df = pl.DataFrame({"winner": ["A", "B", None, "A"], "victory": ["bad", "ugly", None, "bad"]})
    assert victory_counts(df).rows() == [("A", "Con le Brutte (the Bad way)", 2),
                                         ("B", "Con le Cattive (the Ugly way)", 1), ("none", "none", 1)]
    unfinished = pl.DataFrame({"winner": [None, None], "victory": [None, None]})  # a column of nulls only
    assert victory_counts(unfinished).rows() == [("none", "none", 2)]


def test_win_search_shows_the_witnessing_lines():
    from solver.outlaws.search import win_possible

    at = open_page("outlaws")
    at.slider(key="ol_search_limit").set_value(5)
    at.button(key="ol_search").click().run(timeout=120)
    assert not at.exception and not errors(at)
    want = win_possible(initial_position(seed=1, rules=Rules()), Rules(), max_depth=12, time_limit=5.0)
    shown = " ".join(s.value for s in at.success) + " ".join(e.value for e in at.error)
    for side in "AB":
        answer = getattr(want, side)
        if answer is True:
            assert f"**{side} can still win**" in shown
            line = getattr(want, f"line_{side}")
            assert any(len(d.value) == len(line) and "hidden outcome" in d.value.columns for d in at.table)
        elif answer is False:
            assert f"**{side} cannot win from here**" in shown


def test_dead_position_search_reports_its_bound():
    at = open_page("outlaws")
    at.slider(key="ol_dead_limit").set_value(1)
    at.button(key="ol_dead").click().run(timeout=120)
    assert not at.exception
    assert all(e.startswith("**Dead position found**") for e in errors(at))  # a finding, not a failure
    shown = " ".join(w.value for w in at.warning) + " ".join(s.value for s in at.success) + \
        " ".join(e.value for e in at.error)
    key, result = at.session_state["ol_dead_result"]
    assert key[2:] == (1, 60) and result["depth_bound"] == 60
    if result["found"]:
        assert "Dead position found" in shown and len(at.get("html")) >= 2  # the street and the dead position
    else:
        assert result["bound"] in shown


def test_play_it_forward_opens_the_table_on_the_position_shown():
    """The link opened the table on its own line, another position (browser walk, 2026-12-02): the button
    now starts the table's line from the page's position."""
    from solver.outlaws import game as gm
    from solver.outlaws import line as ln

    at = open_page("outlaws")
    at.number_input(key="ol_seed").set_value(7)
    at.button(key="ol_new").click().run()
    at.button(key="ol_play_forward").click().run()
    assert not at.exception and not errors(at)
    start, steps, _games = ln.line_from_json(at.session_state["olp_line"])
    assert position_to_json(start.position) == start_doc(7) and steps == []
    buttons = [b for b in at.button if b.key and b.key.startswith("olp_act_")]
    assert len(buttons) == len(gm.legal_actions(gm.Game(initial_position(seed=7, rules=Rules()), Rules())))


def test_the_pages_inputs_outlive_a_visit_to_another_page():
    at = open_page("outlaws")
    at.number_input(key="ol_seed").set_value(7)
    at.slider(key="ol_search_limit").set_value(2)
    at.number_input(key="ol_playouts").set_value(5).run()
    at.switch_page(page_file("home")).run()
    at.switch_page(page_file("outlaws")).run()
    assert not at.exception
    assert at.number_input(key="ol_seed").value == 7 and at.slider(key="ol_search_limit").value == 2
    assert at.number_input(key="ol_playouts").value == 5


def test_tables_are_for_people_no_empty_columns_no_code_headers_no_none():
    """The legal-action tables showed columns empty in every row, "None" cells and headers like
    ``token_columns`` (browser walk, 2026-12-02)."""
    from dashboard.shared.words import readable

    df = readable([{"kind": "x", "call": None, "token_columns": "[4, 5]", "target": 1},
                   {"kind": "x", "call": None, "token_columns": None, "target": 2}], drop=("kind",))
    assert df.columns == ["token columns", "target"] and df["token columns"].to_list() == ["[4, 5]", ""]
    at = open_page("outlaws")
    tables = [d.value for d in at.dataframe if "description" in d.value.columns]
    assert tables and all("kind" not in t.columns and not any("_" in c for c in t.columns) for t in tables)
    assert all(t[c].isna().sum() < len(t) for t in tables for c in t.columns)
