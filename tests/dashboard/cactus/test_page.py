"""AppTest: the Cactus Town page against the engine's exact answers; the lone ranger's outcomes in words; boxes that
hold no number named and no answer shown from other numbers; the town kept for the browser."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from dashboard.cactus.words import chance_words, outcome_words
from dashboard.nav import page_file
from solver.cactus.duel import duel_odds
from solver.cactus.odds import marshal_odds
from solver.cactus.ranger import decide
from solver.cactus.readings import CactusReadings
from solver.errors import BadInput
from solver.io.read import read_json
from solver.paths import SCENARIOS
from tests.support.dashboard.apptest import charts, errors, open_page, texts
from tests.support.dashboard.kept import (  # noqa: F401 - private_store is a fixture
    browser_of,
    forget_process_cache,
    private_store,
    resume_from_my_games,
    same_browser,
)
from tests.support.limits import HANG_GUARD

TOWN, DUEL = "Lone ranger's turn", "Duel odds"
"""The tabs of the page a test opens: only the open tab is drawn."""


def on_tab(at, label: str):
    """``at`` with the page's tab ``label`` open (as a click on it: AppTest cannot click a tab, and a tab bar's
    value is not set from the session once drawn, so its state is dropped and the page's kept tab set)."""
    if "ct_tab" in at.session_state:
        del at.session_state["ct_tab"]
    at.session_state["ct_tab__kept"] = label
    return at.run()


def metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def odds_table(at):
    return next(d.value for d in at.dataframe if "exact" in d.value.columns and "round" in d.value.columns)


def test_marshal_odds_solo_and_players_are_the_exact_fractions():
    at = open_page("cactus")
    assert not at.exception and not errors(at)
    for mode, players in (("solo", None), (3, 3), (5, 5)):
        at.radio(key="ct_mode").set_value(mode).run()
        want = marshal_odds(players, CactusReadings())
        table = odds_table(at)
        assert dict(zip(table["round"].astype(str), table["exact"])) == want["rounds"]
        assert metric(at, "Earliest round") == str(want["earliest"])
        assert sum(Fraction(p) for p in table["exact"]) == 1 - Fraction(want["never"])
    titles = [c.get("title") for c in charts(at)]
    assert "Marshal's arrival: every game size" in titles
    chart = next(c for c in charts(at) if c.get("title") == "Marshal's arrival, 5 players")
    assert chart["title"] == "Marshal's arrival, 5 players"
    assert {layer["mark"]["type"] if isinstance(layer["mark"], dict) else layer["mark"] for layer in chart["layer"]} \
        == {"bar", "line"}
    # game sizes with identical odds are named (their lines coincide on the comparison chart)
    odds = {m: marshal_odds(m, CactusReadings())["rounds"] for m in (None, 2, 3, 4, 5)}
    same = [f"{m} players" for m in (3, 4, 5) if odds[m] == odds[3]]
    assert len(same) > 1  # under the default readings 3, 4 and 5 players share their odds
    assert same == ["3 players", "4 players", "5 players"]
    assert "3, 4 and 5 players have exactly the same odds: their lines lie on top of each other." in texts(at)


def test_an_open_reading_changes_the_odds_and_is_kept_for_the_session():
    at = open_page("cactus")
    at.selectbox(key="ct_opt_cactus_short_deck").set_value("keep_second_shot").run()
    assert at.session_state["readings"]["cactus"]["short_deck"] == "keep_second_shot"
    want = marshal_odds(None, CactusReadings(short_deck="keep_second_shot"))
    assert dict(zip(odds_table(at)["round"].astype(str), odds_table(at)["exact"])) == want["rounds"]
    assert "Solo deck short from round 12: keep second shot" in " ".join(c.value for c in at.caption)


def test_lone_ranger_turn_lists_the_engines_outcomes():
    at = open_page("cactus", state={"ct_tab": TOWN})
    example = read_json(SCENARIOS / "cactus" / "example-ranger-chase.json")
    want = decide({k: v for k, v in example.items() if k != "rules"}, CactusReadings())
    radio = at.radio(key="ct_outcome")
    assert radio.options == [f"{chance_words(o['p'])}: {outcome_words(o)}" for o in want["outcomes"]]
    assert radio.options[0].startswith(want["outcomes"][0]["p"] + " (")
    # a card row the parser refuses is an inline error, not a crash
    at.text_input(key="ct_card_0").set_value("DUEL/ | FLY").run()
    assert not at.exception
    assert any(e.startswith("Lone ranger:") for e in errors(at))


def test_the_shipped_position_with_an_escaped_outlaw_loads_and_is_decided():
    """scenarios/cactus/example-ranger-sharing.json has an escaped outlaw (no square): its empty cells made the
    table's x and y floats, and the engine refused 3.0 (browser walk, 2026-12-02). Now: the engine's answer."""
    path = SCENARIOS / "cactus" / "example-ranger-sharing.json"
    example = read_json(path)
    assert any(o.get("escaped") for o in example["outlaws"])
    at = open_page("cactus", state={"ct_tab": TOWN})
    at.get("file_uploader")[0].upload(path.name, path.read_bytes(), "application/json").run()
    assert not at.exception and not errors(at)
    want = decide({k: v for k, v in example.items() if k != "rules"}, CactusReadings())
    radio = at.radio(key="ct_outcome")
    assert [o.split(":")[0] for o in radio.options] == [chance_words(o["p"]) for o in want["outcomes"]]


def test_bad_position_upload_changes_nothing():
    at = open_page("cactus", state={"ct_tab": TOWN})
    before = json.dumps(at.session_state["ct_pos"], sort_keys=True)
    bad = json.dumps({"town": [["?"] * 5] * 4, "outlaws": [], "card": "RUN"}).encode()
    at.get("file_uploader")[0].upload("pos.json", bad, "application/json").run()
    assert any("was not loaded" in e and "expected 5 rows" in e for e in errors(at))
    assert json.dumps(at.session_state["ct_pos"], sort_keys=True) == before


def test_duel_odds_are_the_engines():
    at = open_page("cactus", state={"ct_tab": DUEL})
    at.text_input(key="ct_duel_a").input("4")
    at.text_input(key="ct_duel_d").input("1")
    at.multiselect(key="ct_duel_events").set_value(["fast-draw"]).run()
    want = duel_odds(4, 1, ("fast-draw",), 0, 0, False, CactusReadings())
    assert metric(at, "Initiator wins") == want["win"]
    assert metric(at, "Initiator loses") == want["lose"]
    assert want["dice_per_roll"] == 2
    # the engine's note reads as a sentence, and a win is drawn green, a loss red
    note = want.get("note", "")
    assert note and any(c.value.endswith(note[:1].upper() + note[1:]) for c in at.caption)
    duel_chart = next(c for c in charts(at) if c.get("title") == "Duel outcome for the initiator")
    scale = duel_chart["encoding"]["color"]["scale"]
    assert dict(zip(scale["domain"], scale["range"]))["win"] == "#2e7d32"


_EXAMPLE = read_json(SCENARIOS / "cactus" / "example-ranger-chase.json")
_UPLOADS = {
    "no ranger": {k: v for k, v in _EXAMPLE.items() if k != "ranger"},
    "unknown event": dict(_EXAMPLE, event="nosuch-event"),
    "unknown key": dict(_EXAMPLE, colour="red"),
    "card object": dict(_EXAMPLE, card={"visible": "DUEL/RUN SNEAK", "no_visible": "SPRINT"}),
    "bad card object": dict(_EXAMPLE, card={"visible": 5}),
    "bad rules": dict(_EXAMPLE, rules={"duel_win_chance": "1e999999999"}),
    "a string": str(SCENARIOS / "cactus" / "example-ranger-sharing.json"),
}


def _cli_accepts(doc, tmp_path) -> bool:
    from solver import cli

    path = tmp_path / "upload.json"
    path.write_text(json.dumps(doc))
    return cli.main(["cactus", "ranger", str(path), "--json"]) == 0


def test_uploads_go_through_the_cli_loader_and_a_refused_file_changes_nothing(tmp_path, capsys):
    """Issue 16: the upload accepted files the CLI refuses, and one of them broke the page on every rerun."""
    at = open_page("cactus", state={"ct_tab": TOWN})
    for name, doc in _UPLOADS.items():
        before = json.dumps(at.session_state["ct_pos"], sort_keys=True)
        at.get("file_uploader")[0].upload(f"{name}.json", json.dumps(doc).encode(), "application/json").run()
        at.run()  # the rerun that used to break
        assert not at.exception, (name, at.exception)
        refused = any("was not loaded" in e for e in errors(at))
        assert refused == (not _cli_accepts(doc, tmp_path)), name
        if refused:
            assert json.dumps(at.session_state["ct_pos"], sort_keys=True) == before, name
        else:
            assert isinstance(at.session_state["ct_pos"]["card"], str) and at.session_state["ct_pos"]["ranger"]
    capsys.readouterr()


def test_the_duel_win_chance_is_chosen_never_typed_and_typed_numbers_are_bounded():
    """'1e999999999' typed for duel_win_chance once made Fraction(text) build a billion-digit number
    and froze the server: the reading is now a select box over its listed values (no text reaches a
    Fraction), and every number typed as text anywhere goes through the bounded parser first."""
    import time
    from fractions import Fraction

    from solver.io.numbers import parse_fraction_text

    at = open_page("cactus")
    assert not [t for t in at.text_input if t.key and "duel_win_chance" in t.key]
    box = at.selectbox(key="ct_opt_cactus_duel_win_chance")
    box.set_value(Fraction(1, 2)).run()
    assert not at.exception
    assert at.session_state["readings"]["cactus"]["duel_win_chance"] == Fraction(1, 2)
    for text in ("1e999999999", "9" * 5000, "1/" + "9" * 5000, "nan"):
        started = time.perf_counter()
        with pytest.raises(BadInput) as refused:
            parse_fraction_text(text, "duel_win_chance")
        assert time.perf_counter() - started < HANG_GUARD  # a hang guard, not a speed claim
        assert "duel_win_chance" in str(refused.value) and len(str(refused.value)) < 300


def test_the_position_and_duel_inputs_outlive_a_visit_to_another_page():
    """Streamlit drops an undrawn widget's value: the lone ranger's square, the action card and the duel's
    numbers came back at the example's values after another page was shown. Now they come back as entered."""
    at = open_page("cactus", state={"ct_tab": TOWN})
    at.text_input(key="ct_rx_0").input("4")
    at.text_input(key="ct_card_0").set_value("SPRINT | SPRINT").run()
    entered = at.session_state["ct_position_live"]
    on_tab(at, DUEL)  # the town's boxes are not drawn now: they must come back as entered
    at.text_input(key="ct_duel_a").input("5")
    at.multiselect(key="ct_duel_events").set_value(["fast-draw"]).run()
    assert entered["ranger"][0] == 4 and entered["card"] == "SPRINT | SPRINT"
    at.switch_page(page_file("home")).run()
    at.switch_page(page_file("cactus")).run()
    assert not at.exception and not errors(at)
    assert at.text_input(key="ct_duel_a").value == "5" and at.multiselect(key="ct_duel_events").value == ["fast-draw"]
    duel_win = metric(at, "Initiator wins")
    on_tab(at, TOWN)
    assert at.text_input(key="ct_rx_0").value == "4" and at.text_input(key="ct_card_0").value == "SPRINT | SPRINT"
    assert at.session_state["ct_position_live"] == entered
    assert duel_win == duel_odds(5, 2, ("fast-draw",), 0, 0, False, CactusReadings())["win"]


def _upload(at, doc: dict, name: str = "town.json") -> None:
    at.get("file_uploader")[0].upload(name, json.dumps(doc).encode(), "application/json").run()


def test_every_outcome_says_in_words_whether_the_duel_was_won_and_where_he_was_pushed():
    """Three lost duels read "1/6: DUEL then SNEAK to [0, 1]" alike (issue 32): now each says where the lone
    ranger was pushed, and a won duel says so."""
    doc = dict(_EXAMPLE, ranger=[0, 1], card="DUEL SNEAK | DUEL SNEAK")
    at = open_page("cactus", state={"ct_tab": TOWN})
    _upload(at, doc)
    want = decide({k: v for k, v in doc.items() if k != "rules"}, CactusReadings())
    options = at.radio(key="ct_outcome").options
    assert len(options) == len(set(options)) == len(want["outcomes"]) == 4
    pushed = sorted(o.split("pushed to ")[1].split(",")[0] for o in options if "loses" in o)
    assert pushed == sorted(f"x{o['actions'][0]['pushed_to'][0]} y{o['actions'][0]['pushed_to'][1]}"
                            for o in want["outcomes"] if o["actions"][0].get("result") == "lost")
    assert options[0] == ("1/2 (50%): He duels outlaw 1 and wins: the next event card is discarded, then cannot "
                          "SNEAK (skipped); he ends on x0 y1.")


def test_the_outcome_words_cover_every_kind_of_action():
    from dashboard.cactus.words import action_words

    assert action_words({"icon": "DUEL", "with": "outlaw 2", "result": "lost", "pushed_to": [3, 4]}) == \
        "duels outlaw 2 and loses: he is pushed to x3 y4"
    assert action_words({"icon": "DUEL", "with": "outlaw 2", "result": "tie"}) == "duels outlaw 2: a tie, nobody moves"
    assert action_words({"icon": "SPRINT", "to": [1, 1], "toward": ["outlaw 1"], "reveals": None}) == \
        "sprints to x1 y1 toward outlaw 1"
    assert action_words({"icon": "DUEL/RUN", "skipped": True, "pass_turn": True}) == \
        "can do none of DUEL/RUN: he passes his turn"
    assert action_words({"icon": "CONFUSE", "with": "outlaw 3"}) == "confuses outlaw 3"
    assert chance_words("1") == "certain" and chance_words("1/8") == "1/8 (12.5%)"


def test_a_duel_box_out_of_range_hides_the_odds_and_names_the_box():
    at = open_page("cactus", state={"ct_tab": DUEL})
    at.text_input(key="ct_duel_a").input("25").run()
    assert "Fix the box 'Initiator's second shot': 25 is out of range 0..20 (a whole number from 0 to 20)." \
        in errors(at)
    assert not [m for m in at.metric if m.label == "Initiator wins"]  # no odds from the last good numbers
    assert any("No duel odds until the box 'Initiator's second shot' holds a number in range." in i.value
               for i in at.info)
    at.text_input(key="ct_duel_ab").input("1e9").run()
    assert any("'Initiator's token/building bonus': expected a whole number, got '1e9'" in e for e in errors(at))
    at.text_input(key="ct_duel_a").input("2")
    at.text_input(key="ct_duel_ab").input("1").run()
    assert not errors(at) and metric(at, "Initiator wins") == duel_odds(2, 2, (), 1, 0, False, CactusReadings())["win"]


def test_the_lone_rangers_square_out_of_range_hides_his_turn():
    at = open_page("cactus", state={"ct_tab": TOWN})
    at.text_input(key="ct_rx_0").input("7").run()
    assert "Fix the box 'Lone ranger x (column)': 7 is out of range 0..4 (a whole number from 0 to 4)." in errors(at)
    assert not [r for r in at.radio if r.key == "ct_outcome"]
    assert any(i.value.startswith("No turn until the lone ranger's square holds numbers") for i in at.info)


@pytest.mark.usefixtures("private_store")
def test_the_lone_rangers_town_is_kept_across_a_reload_elsewhere_and_resumed_from_my_games():
    at = open_page("cactus", state={"ct_tab": TOWN})
    at.text_input(key="ct_rx_0").input("4")
    at.text_input(key="ct_card_0").set_value("SPRINT | SPRINT").run()
    kept = at.session_state["cactus_town"]
    assert kept["ranger"] == [4, 2] and kept["card"] == "SPRINT | SPRINT"
    at.text_input(key="ct_save_name").input("Chase at the bank").run()
    at.button(key="ct_save_save").click().run()
    at.text_input(key="ct_card_0").set_value("RUN | RUN").run()
    ident = browser_of(at)
    forget_process_cache()
    again = on_tab(same_browser(ident, "cactus", via="outlaws"), TOWN)
    assert again.text_input(key=f"ct_card_{again.session_state['ct_ver']}").value == "RUN | RUN"
    assert again.session_state["ct_position_live"]["ranger"] == [4, 2] and not errors(again)
    resume_from_my_games(ident, "cactus-town")
    resumed = on_tab(same_browser(ident, "cactus"), TOWN)
    assert resumed.session_state["ct_position_live"]["card"] == "SPRINT | SPRINT"
