"""AppTest: the Verification page (checks, register, per-session readings); failing checks explained in words
(an Outlaws counterexample's sentence and before/after drawings that differ, a Cactus FAIL), verdict values in
words with a summary that never contradicts itself, and the last answers kept for the browser."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from solver.cactus.verify.checks import verify
from solver.register import register
from tests.support.dashboard.apptest import APP, errors, open_page, texts
from tests.support.dashboard.kept import browser_of, forget_process_cache, private_store, same_browser  # noqa: F401

CHECKS, IMPACT, REGISTER = "Invariant checks", "Verdicts across readings", "Rules register and readings"
"""The page's tabs: only the open one is drawn."""


def on_tab(at, label: str):
    """``at`` with the tab ``label`` open (AppTest cannot click a tab: its state is dropped, the kept tab set)."""
    if "ver_tab" in at.session_state:
        del at.session_state["ver_tab"]
    at.session_state["ver_tab__kept"] = label
    return at.run()


def test_cactus_solo_checks_match_the_verifier():
    at = open_page("verification")
    at.multiselect(key="ver_cactus_players").set_value([]).run()
    at.button(key="run_cactus").click().run(timeout=120)
    assert not at.exception and not errors(at)
    want = verify(players=(), quick=True)["checks"]
    held = sum(c["holds"] is True for c in want)
    failed = sum(c["holds"] is False for c in want)
    assert f"**{held} of {len(want)} checks hold, {failed} fail" in texts(at)
    labels = [e.label for e in at.expander]
    for c in want:
        verdict = {True: "holds", False: "fails", None: "undecided"}[c["holds"]]
        assert f"{verdict} - {c['id']}" in labels
    assert failed and "Counterexample (JSON)" in labels
    # the FAIL in words, not only inside the JSON
    assert ("**Counterexample:** In round 12 the solo deck can hold only 3 cards (#7, #8 and the marshal's "
            "arrival), not 3 to program and a second shot.") in texts(at)


def test_outlaws_checks_catch_a_broken_rule_and_draw_the_counterexample():
    from solver.outlaws.verify.checks import CHECKS

    at = open_page("verification")
    at.slider(key="ver_outlaws_limit").set_value(2)
    at.multiselect(key="ver_outlaws_mutations").set_value(["governor_enters_saloon"]).run()
    at.button(key="run_outlaws").click().run(timeout=120)
    assert not at.exception and not errors(at)
    labels = [e.label for e in at.expander]
    for check_id in CHECKS:
        assert any(label.endswith(f"- {check_id}") for label in labels)
    assert "fails - governor-not-in-saloon" in labels
    assert f"of {len(CHECKS)} checks hold" in texts(at)
    sentence = next(m.value for m in at.markdown if m.value.startswith("**Counterexample:**"))
    assert sentence.startswith("**Counterexample:** In the position drawn first, A: the ") or \
        sentence.startswith("**Counterexample:** In the position drawn first, B: the ")
    assert " leaves the Saloon with columns " in sentence and sentence.endswith("'s Governor is in the Saloon.")
    assert not [m for m in at.markdown if '{"kind"' in m.value]  # the action is worded, never raw JSON
    drawn = [h.proto.body for h in at.get("html") if "Saloon A:" in h.proto.body]
    assert len(drawn) == 2  # before and after, as streets with the supplies counted
    before, after = drawn
    assert before != after and "Front Page markers" in before and "Votes" in after
    assert "outline:3px solid #ef6c00" in after and "outline:3px solid #ef6c00" not in before
    assert "Governor" in after.split("Saloon A:")[1].split("</span></span>")[0] or \
        "Governor" in after.split("Saloon B:")[1].split("</span></span>")[0]  # the Governor is in a Saloon


def test_register_lists_open_questions_and_readings_change_per_session():
    at = open_page("verification", state={"ver_tab": REGISTER})
    at.radio(key="reg_game").set_value("outlaws").run()
    table = next(d.value for d in at.dataframe if "id" in d.value.columns)
    assert set(table["id"]) == {r.id for r in register().for_game("outlaws")}
    at.selectbox(key="opt_outlaws_sheriff_save").set_value("stop").run()
    assert at.session_state["readings"]["outlaws"]["sheriff_save"] == "stop"
    at.button(key="reset_outlaws").click().run()
    assert at.session_state["readings"]["outlaws"] == {}
    from solver.outlaws.readings import OutlawsReadings

    assert at.selectbox(key="opt_outlaws_sheriff_save").value == OutlawsReadings().sheriff_save  # the box follows


def test_each_italian_passage_of_the_register_shows_its_english_beside_it():
    at = open_page("verification", state={"ver_tab": REGISTER})
    at.radio(key="reg_game").set_value("outlaws").run()
    assert not at.exception
    table = next(d.value for d in at.dataframe if "id" in d.value.columns)
    columns = list(table.columns)
    assert columns.index("source in English") == columns.index("source") + 1  # beside the Italian
    english = dict(zip(table["id"], table["source in English"]))
    want = {r.id: r.english for r in register().for_game("outlaws")}
    assert english == want and sum(bool(e) for e in english.values()) >= 30
    assert "Your Governor reveals himself and takes the Election token" in english["O-victory-good"]
    at.selectbox(key="reg_passage_outlaws").set_value("O5").run()  # one passage read whole, side by side
    shown = [m.value for m in at.markdown]
    assert "**As printed (Italian)**  \n" + register().get("O5").source in shown
    assert "**In English**  \n" + register().get("O5").english in shown
    at.radio(key="reg_game").set_value("wagons").run()  # no Italian: no empty English column
    table = next(d.value for d in at.dataframe if "id" in d.value.columns)
    assert "source in English" not in table.columns


def test_the_verification_page_names_the_readings_in_force_at_its_top():
    """Like every page, it says which readings differ from the defaults (browser walk, 2026-12-02: it did not)."""
    at = open_page("verification", state={"readings": {"outlaws": {"sheriff_save": "stop"}}})
    line = next(c.value for c in at.caption if c.value.startswith("Readings used by every page this session:"))
    assert "Outlaws: Last Man Standing: Sheriff saving the Governor: stop" in line
    assert "Circle the Wagons: Lone Cowboy: the defaults" in line and "Cactus Town: The Lone Ranger: the defaults" in line


def test_impact_table_matches_the_solver_and_readings_are_chosen_from_lists():
    """The 'Verdicts across readings' tab runs solver.readings.impact and shows its verdicts; the
    readings on the register tab are select boxes over listed values, each with a description."""
    from solver.readings import impact

    at = open_page("verification", state={"ver_tab": IMPACT})
    at.radio(key="imp_game").set_value("cactus").run()
    chosen = ["solo-marshal-bound", "marshal-odds/p2"]
    at.multiselect(key="imp_verdicts_cactus").set_value(chosen).run()
    at.button(key="imp_run_cactus").click().run(timeout=120)
    assert not at.exception and not errors(at)
    want = impact.impact("cactus", chosen)
    table = next(d.value for d in at.dataframe if "verdict" in d.value.columns)
    assert list(table["verdict"]) == [v["id"] for v in want["verdicts"]]
    bound = table[table["verdict"] == "solo-marshal-bound"].iloc[0]
    assert bound["under the default readings"] == "holds (rounds 6 to 12)"
    assert "Solo deck short from round 12: keep second shot: holds (rounds 6 to 14)" in bound["readings that change it"]
    assert "Solo deck short from round 12: stop archiving: fails" in bound["readings that change it"]
    odds = table[table["verdict"] == "marshal-odds/p2"].iloc[0]
    assert odds["under the default readings"] == "the marshal arrives in round 6 to 11; in round 6 with chance 19/204"
    assert "**0 of 2 verdicts the same under every reading; 2 changed by a reading**" in texts(at)
    # readings: select boxes over the listed values, never free text
    on_tab(at, REGISTER)
    at.radio(key="reg_game").set_value("cactus").run()
    box = at.selectbox(key="opt_cactus_duel_win_chance")
    assert [str(o).split(" ")[0] for o in box.options][:3] == ["0", "1/6", "1/3"]
    assert box.label.startswith("A duel win discarding") and "duel_win_chance" not in box.label  # words only
    assert all(len(str(o)) < 40 for o in box.options)  # short: the closed box shows the choice whole
    from dashboard.shared.readings import choice_line

    assert box.help and all(choice_line("cactus", "duel_win_chance", v) in box.help for v in
                            [__import__("fractions").Fraction(0), __import__("fractions").Fraction(1, 6)])
    assert not [t for t in at.text_input if t.key and t.key.startswith("opt_")]
    box.set_value(__import__("fractions").Fraction(1, 2)).run()
    assert at.session_state["readings"]["cactus"]["duel_win_chance"] == __import__("fractions").Fraction(1, 2)


def test_wagons_checks_run_and_draw_a_counterexample_as_towns():
    at = open_page("verification")
    at.multiselect(key="ver_wagons_scenarios").set_value(["cattle-drive"])
    at.multiselect(key="ver_wagons_checks").set_value(["playability", "winnability"])
    at.slider(key="ver_wagons_limit").set_value(20)
    at.multiselect(key="ver_wagons_mutations").set_value(["corner-placement", "player-scores-nothing"]).run()
    at.button(key="run_wagons").click().run(timeout=180)
    assert not at.exception and not errors(at)
    labels = [e.label for e in at.expander]
    assert "fails - playability/cattle-drive" in labels and "fails - winnability/cattle-drive" in labels
    assert "**0 of 2 checks hold, 2 fail** (with the rules broken on purpose" in texts(at)
    drawn = [h.proto.body for h in at.get("html")]
    assert any("#0" in body for body in drawn)  # the town's card drawn on its grid
    assert any("(top)" in body for body in drawn)  # the opponent's pile drawn as cards
    assert "Corner-only contact is illegal" in texts(at)  # the rule passage in English


def test_wagons_checks_hold_without_mutations():
    at = open_page("verification")
    at.multiselect(key="ver_wagons_checks").set_value(["playability"]).run()
    at.button(key="run_wagons").click().run(timeout=120)
    assert not at.exception and not errors(at)
    assert "holds - playability/cattle-drive" in [e.label for e in at.expander]


def test_readings_survive_a_reload_through_the_address():
    """A reload started the session at the default readings again (browser walk, 2026-12-02): the chosen
    readings are kept in the address (?readings=), checked by each engine when read back."""
    from fractions import Fraction

    from dashboard.shared.work import addresses, urldoc
    from tests.support.dashboard.apptest import reloaded

    at = open_page("verification", state={"ver_tab": REGISTER})
    assert "readings" not in at.query_params  # nothing while every reading is at its default
    at.radio(key="reg_game").set_value("cactus").run()
    at.selectbox(key="opt_cactus_duel_win_chance").set_value(Fraction(1, 2)).run()
    at.radio(key="reg_game").set_value("wagons").run()
    at.selectbox(key="opt_wagons_boom_or_bust").set_value("flat").run()
    at.run()
    again = reloaded(at, "verification")
    assert not again.exception and not errors(again)
    assert {g: r for g, r in again.session_state["readings"].items() if r} == {
        "cactus": {"duel_win_chance": Fraction(1, 2)}, "wagons": {"boom_or_bust": "flat"}}
    assert "Low-confidence goal-card numbers are readings: flat" in texts(again)
    assert "duel win chance: 1/2" in texts(again)
    again.button(key="reset_wagons").click().run()
    again.run()
    assert urldoc.decode(again.query_params["readings"][0] if isinstance(again.query_params["readings"], list)
                           else again.query_params["readings"], addresses.READINGS) == {"cactus": {"duel_win_chance": "1/2"}}


def test_damaged_or_refused_readings_in_the_address_are_one_line_and_the_defaults_stay():
    from dashboard.shared.work import urldoc

    for text, why in (("not-readings", "damaged"),
                      (urldoc.encode({"wagons": {"boom_or_bust": "sometimes"}}), "boom_or_bust"),
                      (urldoc.encode({"chess": {}}), "unknown game")):
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params["readings"] = text
        at.run()
        assert not at.exception
        (err,) = errors(at)
        assert err.startswith("The readings in the address were not used") and why in err
        assert at.session_state["readings"] == {} or all(not v for v in at.session_state["readings"].values())


# ----------------------------------------------------------------------------- words


def test_a_cactus_deal_that_fails_is_said_in_words_with_its_end_round():
    from dashboard.cactus.check_words import fails_in_words
    from solver.cactus.readings import CactusReadings
    from solver.cactus.verify import checks as cv

    check = cv.run_check("event-last-3-rounds", CactusReadings(), 2).to_json()  # the page reads the JSON
    assert check["holds"] is False
    words = fails_in_words(check)
    cex = check["counterexample"]
    assert words.startswith("A deal where it fails: the event deck, top first, is ")
    assert words.endswith(f"the game ends in round {cex['ends_in_round']}.")
    assert "{" not in words and "other events" in words
    c5 = cv.run_check("c5-reading-changes-end", CactusReadings(), 2).to_json()
    assert fails_in_words(c5).startswith(
        f"On the same deal the game ends in round {c5['counterexample']['as_many']['ends_in_round']} under C5 "
        f"'as_many' and in round {c5['counterexample']['none']['ends_in_round']} under C5 'none': ")
    stop = cv.run_check("solo-marshal-bound", CactusReadings(short_deck="stop_archiving")).to_json()
    assert fails_in_words(stop).startswith("The marshal's arrival can stay unrevealed through round 14: ")


def _cex(action: dict, before: dict, after: dict, fired: bool = False) -> dict:
    return {"before": before, "action": action, "after": after, "sudden_death_fired": fired}


def test_an_outlaws_counterexample_is_one_sentence_with_the_action_worded_as_on_the_table():
    from dashboard.outlaws.counterexample import action_words, sentence
    from solver.outlaws.actions import Action
    from tests.support.builders.outlaws import build

    before = build()
    after = json.loads(json.dumps(before))
    after["supply"]["A"]["vote"] += 1  # a Take that copies the token: a seventh Vote
    take = {"kind": "take", "side": "A", "c": 2, "call": 1, "draw": 0, "ext": 0, "keep": True}
    assert action_words(take, before) == Action("take", "sheriff", 2, "vote").describe("A") + "; A keeps the token"
    assert sentence("token-totals", _cex(take, before, after)) == (
        "In the position drawn first, A: the sheriff (column 2) takes token 2, calling vote; A keeps the token: "
        "afterwards the table holds 7 Votes (the game has 6; 6 before).")
    moved = json.loads(json.dumps(before))
    moved["street"]["B"][4], moved["street"]["B"][5] = moved["street"]["B"][5], moved["street"]["B"][4]
    frozen = dict(before, immobilized=[["B", "hitman"]])
    dancer = {"kind": "dancer", "side": "A", "c": 5, "t": 4}
    assert sentence("immobilized-stay", _cex(dancer, frozen, dict(moved, immobilized=[["B", "hitman"]]))) == (
        "In the position drawn first, A: the dancer (column 5) pulls the opposing column 4 in front of her: B's "
        "Hitman, immobilized, moved from column 4 to column 5.")
    votes = dict(before, sudden_death=True)
    assert sentence("sudden-death-3-3", _cex({"kind": "sudden_death", "side": "A"}, before, votes, True)) == (
        "In the position drawn first, sudden death begins (the Bullets, Handcuffs and Bogus X are laid face down "
        "again, rule O11) although the Votes are A 0 / B 0 (the rule needs 3 and 3).")


def test_an_outlaws_ability_in_a_counterexample_is_worded_by_its_character_module(monkeypatch):
    import dataclasses

    from dashboard.outlaws.counterexample import action_words
    from solver.outlaws.characters import TABLE
    from tests.support.builders.outlaws import build

    before = build()
    sheriff = {"kind": "sheriff", "side": "B", "c": 3, "call": 0, "ext": 1, "cancel": True}
    assert action_words(sheriff, before) == ("B: the sheriff (column 3) reveals the opposing column 4 calling governor, "
                                             "extended by the mayor; the Reverend cancels it")
    hitman = {"kind": "hitman", "side": "A", "c": 2, "save": True}
    assert action_words(hitman, before) == "A: the hitman (column 2) shoots the opposing column 2; B's Sheriff saves his Governor"
    said = dataclasses.replace(TABLE["indian"], model_words=lambda p, side: f"waves at column {p['c']} for {side}")
    monkeypatch.setitem(TABLE, "indian", said)
    assert action_words({"kind": "indian", "side": "A", "c": 5, "ext": 0}, before) == (
        "A: the indian (column 5) waves at column 5 for A")


def test_the_summary_never_says_holds_of_a_verdict_that_fails_under_every_reading():
    from dashboard.verification import impact

    verdict = {"id": "event-last-3-rounds/p2", "default": {"holds": False}, "words": "fails", "depends_on": [],
               "undecided": [], "checked": [{"reading": "stagecoach_short", "value": "none", "result": {"holds": False},
                                              "words": "fails"}],
               "skipped": [], "holds_under_every_reading": True}
    report = {"verdicts": [verdict], "seconds": 1.0}
    (row,) = impact.rows(report)
    assert row["under the default readings"] == "fails"
    assert row["across the readings"] == "the same under every reading"
    assert "holds" not in " ".join(str(v) for v in row.values())
    assert impact.summary(report) == ("**1 of 1 verdict the same under every reading; 0 changed by a reading** "
                                      "(1.0 s).")


@pytest.mark.usefixtures("private_store")
def test_the_last_checks_and_verdicts_are_kept_with_their_settings_across_a_reload_elsewhere_and_a_restart():
    at = open_page("verification")
    at.toggle(key="ver_cactus_quick").set_value(False).run()  # not the default: the kept answer brings it back
    at.button(key="run_cactus").click().run(timeout=120)
    labels = [e.label for e in at.expander if " - solo" in e.label]
    assert "fails - solo-marshal-bound/stop_archiving" in labels  # a check only the slow run has
    on_tab(at, IMPACT)
    at.radio(key="imp_game").set_value("cactus").run()
    at.multiselect(key="imp_verdicts_cactus").set_value(["solo-marshal-bound"]).run()
    at.button(key="imp_run_cactus").click().run(timeout=120)
    table = next(d.value for d in at.dataframe if "verdict" in d.value.columns)
    ident = browser_of(at)
    forget_process_cache()
    again = same_browser(ident, "verification", via="cactus")
    assert [e.label for e in again.expander if " - solo" in e.label] == labels and not errors(again)
    assert again.toggle(key="ver_cactus_quick").value is False
    on_tab(again, IMPACT)
    assert again.radio(key="imp_game").value == "cactus"
    assert next(d.value for d in again.dataframe if "verdict" in d.value.columns).equals(table)


@pytest.mark.parametrize("game", ("wagons", "cactus", "outlaws"))
def test_each_readings_box_offers_exactly_the_solvers_list(game):
    """The register tab's select boxes show the values the solver lists for each reading
    (:func:`solver.readings.options.choices`), in its order: the dashboard keeps no list of its own."""
    from solver.readings.options import choices, game_readings

    at = open_page("verification", state={"ver_tab": REGISTER})
    at.radio(key="reg_game").set_value(game).run()
    assert not at.exception and not errors(at)
    for r in game_readings(game):
        box = at.selectbox(key=f"opt_{game}_{r.name}")
        assert list(box.options) == [box.format_func(v) for v in choices(game, r.name)], r.name
