"""AppTest: the Verification page (checks, register, per-session readings)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from solver.cactus.verify.checks import verify
from solver.register import register
from tests.support.apptest import APP, errors, open_page, texts


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
        verdict = {True: "holds", False: "FAILS", None: "undecided"}[c["holds"]]
        assert f"{verdict} - {c['id']}" in labels
    if failed:
        assert "Counterexample (JSON)" in labels


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
    assert "FAILS - governor-not-in-saloon" in labels
    assert f"of {len(CHECKS)} checks hold" in texts(at)
    drawn = [h.proto.body for h in at.get("html")]
    assert len(drawn) >= 2 and all("Saloon A:" in body for body in drawn)  # before and after, as streets
    assert any("Governor" in body.split("Saloon A:")[1] for body in drawn)  # the Governor is in a Saloon


def test_register_lists_open_questions_and_readings_change_per_session():
    at = open_page("verification")
    at.radio(key="reg_game").set_value("outlaws").run()
    table = next(d.value for d in at.dataframe if "id" in d.value.columns)
    assert set(table["id"]) == {r.id for r in register().for_game("outlaws")}
    at.selectbox(key="opt_outlaws_sheriff_save").set_value("stop").run()
    assert at.session_state["readings"]["outlaws"]["sheriff_save"] == "stop"
    at.button(key="reset_outlaws").click().run()
    assert at.session_state["readings"]["outlaws"] == {}
    from solver.outlaws.rules import Rules as OutlawsRules

    assert at.selectbox(key="opt_outlaws_sheriff_save").value == OutlawsRules().sheriff_save  # the box follows


def test_the_verification_page_names_the_readings_in_force_at_its_top():
    """Like every page, it says which readings differ from the defaults (browser walk, 2026-12-02: it did not)."""
    at = open_page("verification", state={"readings": {"outlaws": {"sheriff_save": "stop"}}})
    line = next(c.value for c in at.caption if c.value.startswith("Readings used by every page this session:"))
    assert "Outlaws: Last Man Standing: sheriff_save=stop" in line
    assert "Circle the Wagons: Lone Cowboy: the defaults" in line and "Cactus Town: The Lone Ranger: the defaults" in line


def test_impact_table_matches_the_solver_and_readings_are_chosen_from_lists():
    """The 'Verdicts across readings' tab runs solver.readings.impact and shows its verdicts; the
    readings on the register tab are select boxes over listed values, each with a description."""
    from solver.readings import impact

    at = open_page("verification")
    at.radio(key="imp_game").set_value("cactus").run()
    chosen = ["solo-marshal-bound", "marshal-odds/p2"]
    at.multiselect(key="imp_verdicts_cactus").set_value(chosen).run()
    at.button(key="imp_run_cactus").click().run(timeout=120)
    assert not at.exception and not errors(at)
    want = impact.impact("cactus", chosen)
    table = next(d.value for d in at.dataframe if "verdict" in d.value.columns)
    assert list(table["verdict"]) == [v["id"] for v in want["verdicts"]]
    bound = table[table["verdict"] == "solo-marshal-bound"].iloc[0]
    assert bound["default readings"] == "holds (bound [6, 12])"
    assert "short_deck=keep_second_shot: holds (bound [6, 14])" in bound["readings that change it"]
    assert "short_deck=stop_archiving: FAILS" in bound["readings that change it"]
    assert "0 of 2 verdicts hold under every reading; 2 change under some reading" in texts(at)
    # readings: select boxes over the listed values, never free text
    at.radio(key="reg_game").set_value("cactus").run()
    box = at.selectbox(key="opt_cactus_duel_win_chance")
    assert [str(o).split(" ")[0] for o in box.options][:3] == ["0", "1/6", "1/3"]
    assert "`duel_win_chance`" in box.label and not box.label.startswith("`")  # the rule's title first
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
    assert "FAILS - playability/cattle-drive" in labels and "FAILS - winnability/cattle-drive" in labels
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

    from dashboard.shared import addresses, urlstate
    from tests.support.apptest import reloaded

    at = open_page("verification")
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
    assert "boom_or_bust=flat" in texts(again) and "duel_win_chance=1/2" in texts(again)
    again.button(key="reset_wagons").click().run()
    again.run()
    assert urlstate.decode(again.query_params["readings"][0] if isinstance(again.query_params["readings"], list)
                           else again.query_params["readings"], addresses.READINGS) == {"cactus": {"duel_win_chance": "1/2"}}


def test_damaged_or_refused_readings_in_the_address_are_one_line_and_the_defaults_stay():
    from dashboard.shared import urlstate

    for text, why in (("not-readings", "damaged"),
                      (urlstate.encode({"wagons": {"boom_or_bust": "sometimes"}}), "boom_or_bust"),
                      (urlstate.encode({"chess": {}}), "unknown game")):
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params["readings"] = text
        at.run()
        assert not at.exception
        (err,) = errors(at)
        assert err.startswith("The readings in the address were not used") and why in err
        assert at.session_state["readings"] == {} or all(not v for v in at.session_state["readings"].values())
