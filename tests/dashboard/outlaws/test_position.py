"""AppTest: the Outlaws page (editor, validation, legal actions, banners) against the engine; its position, seed
and last answers kept for the browser (a reload elsewhere, a restart) and in the address; boxes that hold no
number named, never read as another number."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.nav import page_file
from dashboard.outlaws import position_work as work
from dashboard.shared.caching import dumps
from dashboard.shared.work import browser
from solver.outlaws.actions import legal_actions
from solver.outlaws.position import initial_position
from solver.outlaws.position_json import position_from_json, position_to_json
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.victory_names import WAYS_TO_WIN
from tests.support.dashboard.apptest import (
    APP,
    apply_outlaws_json,
    errors,
    open_editor,
    open_page,
    outlaws_position,
    outlaws_start_doc,
    reloaded,
    texts,
)
from tests.support.dashboard.kept import (  # noqa: F401 - private_store is a fixture
    browser_of,
    forget_process_cache,
    private_store,
    resume_from_my_games,
    same_browser,
)


def action_counts(doc):
    return Counter(a.kind for a in legal_actions(position_from_json(doc), OutlawsReadings()))


def test_legal_actions_are_grouped_and_counted_like_the_engine():
    at = open_page("outlaws")
    assert not at.exception and not errors(at)
    counts = action_counts(outlaws_start_doc(1))
    head = f"**{sum(counts.values())} legal actions**: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    assert head in texts(at)
    assert [t.label for t in at.tabs if "(" in t.label] == [f"{k} ({n})" for k, n in sorted(counts.items())]
    # a new set-up from another seed
    at.text_input(key="ol_seed").input("7")
    at.button(key="ol_new").click().run()
    counts = action_counts(outlaws_start_doc(7))
    assert f"**{sum(counts.values())} legal actions**" in texts(at)


def test_bad_edits_are_refused_inline_and_change_nothing():
    at = open_page("outlaws")
    before = outlaws_position(at)
    doc = json.loads(json.dumps(before))
    doc["saloon"]["A"][0] = "governor"
    apply_outlaws_json(at, doc)
    assert any("Position not changed" in e and "Governor" in e for e in errors(at))
    assert outlaws_position(at) == before
    at.get("file_uploader")[0].upload("p.json", b'{"to_move": "C"}', "application/json").run()
    assert any("was not loaded" in e for e in errors(at))
    assert outlaws_position(at) == before


def test_a_json_string_is_never_read_as_a_server_file(tmp_path):
    """Issue 16: an upload or an "Edit as JSON" text holding a JSON *string* was taken for a path, so
    any position file on the server loaded and the message told whether other paths existed."""
    from solver.paths import SCENARIOS

    secret = tmp_path / "secret.json"
    secret.write_text('{"token": "s3cret-value"}')
    at = open_page("outlaws")
    before = outlaws_position(at)
    targets = [str(SCENARIOS / "outlaws" / "won-ugly.json"), str(secret), "/etc/passwd", str(tmp_path), "/nosuch"]
    for n, target in enumerate(targets):
        at.get("file_uploader")[0].upload(f"p{n}.json", json.dumps(target).encode(), "application/json").run()
        apply_outlaws_json(at, target)
        shown = " ".join(errors(at))
        assert outlaws_position(at) == before, target
        assert "expected a JSON object, got a string" in shown, shown
        for leak in ("s3cret", "no such file", "directory", "regular file", "bytes", "root:", "token"):
            assert leak not in shown.lower(), (target, shown)


def test_form_editor_changes_the_position():
    at = open_page("outlaws")
    open_editor(at)
    at.radio(key="ol0_to_move").set_value("B")
    at.radio(key="ol0_al").set_value(1)
    at.button(key="FormSubmitter:ol_form_0-Apply edits").click().run()
    assert not at.exception and not errors(at)
    assert outlaws_position(at)["to_move"] == "B" and outlaws_position(at)["actions_left"] == 1
    doc = outlaws_start_doc(1) | {"to_move": "B", "actions_left": 1}
    assert f"**{sum(action_counts(doc).values())} legal actions**" in texts(at)


def test_victory_and_sudden_death_banners():
    at = open_page("outlaws")
    won = outlaws_start_doc(1) | {"winner": "B", "victory": "ugly"}
    apply_outlaws_json(at, won)
    assert not errors(at)
    assert ("**B has won** Con le Cattive (the Ugly way): the Sheriff arrests the opposing Hitman."
            in [s.value for s in at.success])
    # both sides on 3 Votes with every Bullet and Handcuffs discarded: the O11 trigger
    trig = outlaws_start_doc(1)
    trig["supply"] = {s: {"vote": 3, "bullet": 0, "handcuffs": 0, "front_page": 3, "election": 0} for s in "AB"}
    trig["discard"] = {"bullet": 3, "handcuffs": 3}
    trig["tokens"] = ["x", "x", "x", "x", "election", "empty", "empty", "empty"]
    trig["reserve"] = []
    apply_outlaws_json(at, trig)
    assert not errors(at), errors(at)
    assert any("Sudden death" in w.value and "triggered" in w.value
               and "only Con le Brutte (the Bad way) and Con le Cattive (the Ugly way) count" in w.value
               for w in at.warning)


def test_playout_statistics_come_from_the_engine():
    from solver.outlaws.search.playout import playouts
    from tests.support.dashboard.apptest import charts

    at = open_page("outlaws")
    at.text_input(key="ol_playouts").input("3")
    at.text_input(key="ol_playout_cap").input("150")
    at.button(key="ol_run_playouts").click().run(timeout=120)
    assert not at.exception and not errors(at)
    want = playouts(3, seed=0, readings=OutlawsReadings(), max_actions=150)
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
    from solver.outlaws.search.searches import win_possible

    at = open_page("outlaws")
    at.slider(key="ol_search_limit").set_value(5)
    at.button(key="ol_search").click().run(timeout=120)
    assert not at.exception and not errors(at)
    want = win_possible(initial_position(seed=1, readings=OutlawsReadings()), OutlawsReadings(), max_depth=12, time_limit=5.0)
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
    kept = at.session_state[work.ANSWERS]["ol_dead"]
    assert json.loads(kept["inputs"]) == [dumps(outlaws_position(at)), dumps(OutlawsReadings().to_json()), 1, 60]
    result = kept["answer"]
    assert result["depth_bound"] == 60
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
    at.text_input(key="ol_seed").input("7")
    at.button(key="ol_new").click().run()
    at.button(key="ol_play_forward").click().run()
    assert not at.exception and not errors(at)
    start, steps, _games = ln.line_from_json(at.session_state["outlaws_line"]["line"])
    assert position_to_json(start.position) == outlaws_start_doc(7) and steps == []
    assert f"{len({p.action for p in gm.legal_actions(start)})} legal actions for A" in texts(at)


def test_the_pages_inputs_outlive_a_visit_to_another_page():
    at = open_page("outlaws")
    at.text_input(key="ol_seed").input("7")
    at.slider(key="ol_search_limit").set_value(2)
    at.text_input(key="ol_playouts").input("5").run()
    at.switch_page(page_file("home")).run()
    at.switch_page(page_file("outlaws")).run()
    assert not at.exception
    assert at.text_input(key="ol_seed").value == "7" and at.slider(key="ol_search_limit").value == 2
    assert at.text_input(key="ol_playouts").value == "5"


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


def test_a_box_that_holds_no_number_is_named_and_nothing_is_read_from_it():
    at = open_page("outlaws")
    before = outlaws_position(at)
    at.text_input(key="ol_seed").input("1e9").run()
    assert errors(at) == ["Fix the box 'Set-up seed': expected a whole number, got '1e9' (a whole number from 0 to "
                          "1000000)."]
    assert at.button(key="ol_new").disabled and outlaws_position(at) == before
    at.text_input(key="ol_playouts").input("99999999").run()
    assert "Fix the box 'Random games': 99999999 is out of range 1..2000 (a whole number from 1 to 2000)." in errors(at)
    assert not [b for b in at.button if b.key == "ol_run_playouts"]  # no playouts from another number
    assert any("No playouts until the box 'Random games' holds a number in range." in i.value for i in at.info)


def test_an_editor_box_that_holds_no_number_refuses_the_edit_naming_it():
    at = open_page("outlaws")
    open_editor(at)
    before = outlaws_position(at)
    at.text_input(key="ol0_sup_A_vote").input("3.5")
    at.button(key="FormSubmitter:ol_form_0-Apply edits").click().run()
    assert errors(at) == ["Position not changed: the box 'A's supply: Votes': expected a whole number, got '3.5'"]
    assert outlaws_position(at) == before


@pytest.mark.usefixtures("private_store")
def test_the_position_seed_and_last_answers_are_kept_across_a_reload_elsewhere_and_a_restart():
    at = open_page("outlaws")
    at.text_input(key="ol_seed").input("5")
    at.button(key="ol_new").click().run()
    at.text_input(key="ol_playouts").input("2")
    at.text_input(key="ol_playout_cap").input("60")
    at.button(key="ol_run_playouts").click().run(timeout=120)
    finished = next(m.value for m in at.markdown if m.value.startswith("Finished games"))
    assert outlaws_position(at) == outlaws_start_doc(5)
    ident = browser_of(at)
    forget_process_cache()
    again = same_browser(ident, "outlaws", via="outlaws_table")  # reloaded on the table, then back
    assert outlaws_position(again) == outlaws_start_doc(5) and again.text_input(key="ol_seed").value == "5"
    assert finished in texts(again) and not errors(again)
    assert outlaws_position(same_browser(browser.new_id(), "outlaws")) == outlaws_start_doc(1)  # another browser: the default


def test_the_address_holds_the_position_and_a_damaged_one_is_one_line():
    at = open_page("outlaws")
    at.text_input(key="ol_seed").input("9")
    at.button(key="ol_new").click().run()
    assert at.query_params[work.QUERY]
    assert outlaws_position(reloaded(at, "outlaws")) == outlaws_start_doc(9)  # a bookmark or a shared address
    bad = AppTest.from_file(APP, default_timeout=60)
    bad.query_params[work.QUERY] = "damaged"
    bad.run()
    bad.switch_page(page_file("outlaws")).run()
    assert [e for e in errors(bad) if e.startswith("The position in the address was not loaded:")]
    assert outlaws_position(bad) == outlaws_start_doc(1) and not bad.exception


@pytest.mark.usefixtures("private_store")
def test_a_position_saved_to_my_games_is_resumed():
    at = open_page("outlaws")
    at.text_input(key="ol_seed").input("4")
    at.button(key="ol_new").click().run()
    at.text_input(key="ol_save_name").input("Seed four").run()
    at.button(key="ol_save_save").click().run()
    assert "Saved 'Seed four' to My games." in [s.value for s in at.success]
    at.text_input(key="ol_seed").input("6")
    at.button(key="ol_new").click().run()
    ident = browser_of(at)
    resume_from_my_games(ident, "outlaws-position")
    again = same_browser(ident, "outlaws")
    assert outlaws_position(again) == outlaws_start_doc(4) and again.text_input(key="ol_seed").value == "4"


def test_one_street_drawing_one_token_palette_and_the_solvers_character_list():
    """Issue 31: the characters were copied into the dashboard, the token palette and Main Street drawn twice
    (a shared drawing kit and outlaws/street.py). Now one of each, in dashboard/outlaws/street.py."""
    import re

    from dashboard.outlaws import street, view
    from solver.outlaws import position
    from tests.support.paths import ROOT

    assert set(street._PICTURES) == set(position.CHARACTERS) and set(position.TOKEN_TYPES) <= set(street.TOKEN_STYLE)
    assert view.CHARACTERS is position.CHARACTERS and view.TOKEN_TYPES is position.TOKEN_TYPES
    for path in (ROOT / "dashboard" / "shared").rglob("*.py"):  # no game's drawing in the shared room
        for name in ("outlaws_position_html", "TOKEN_STYLE", "cactus_town_html", "PIECE_STYLE"):
            assert name not in path.read_text(), (path, name)
    listing = re.compile(r"\(\s*\"governor\",\s*\"hitman\"")  # a copy of the character list
    for path in (ROOT / "dashboard").rglob("*.py"):
        text = path.read_text()
        assert not listing.search(text), path
        if path.name != "street.py":
            assert "TOKEN_STYLE =" not in text and "def street_html" not in text, path


def test_the_street_wraps_on_a_phone_and_an_after_picture_shows_what_changed():
    from dashboard.outlaws import street

    doc = outlaws_start_doc(1)
    plain = street.street_html(doc)
    assert "container-type:inline-size" in plain and "@container (max-width: 880px)" in plain
    assert plain.count("class='stack'") == 8 and "class='stack lab2'" in plain  # 8 columns, labels again after 3
    after = json.loads(json.dumps(doc))
    after["supply"]["A"]["vote"] = 1
    after["tokens"][0] = "empty"
    drawn = street.street_html(after, "After", before=doc, counts=True)
    assert drawn.count("outline:3px solid #ef6c00") == 2  # the token taken and A's Votes
    assert "was Vote" in drawn and "<b>1</b> <span class='was'>was 0</span>" in drawn
    assert street.street_html(doc, counts=True).count("#ef6c00;outline-offset") == 0


def test_the_playout_table_names_each_victory():
    at = open_page("outlaws")
    at.text_input(key="ol_playouts").input("6")
    at.text_input(key="ol_playout_cap").input("3000")
    at.button(key="ol_run_playouts").click().run(timeout=180)
    table = next(d.value for d in at.dataframe if "winner" in d.value.columns)
    names = {v.name for v in WAYS_TO_WIN}
    assert set(table["victory"]) - {"", None} <= names and set(table["victory"]) & names  # seeds 0-5 win twice Bad
