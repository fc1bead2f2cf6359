"""AppTest: every low-confidence goal card of the scenario is drawn as a card with the numbers it prints, and the
player reads them off their own card: one tap takes the numbers as listed, a box per number takes others (checked by
the engine, refused in words); the scores, the tags ("from your card") and the game under way follow, the answers
are remembered for the browser and export as the command line's ``--goals`` file."""

from __future__ import annotations

import tomllib

from dashboard.wagons import game as wg
from dashboard.wagons.cards import reading as card_reading
from solver.wagons.data import load_data
from solver.wagons.readings import WagonsReadings
from solver.wagons.record.game_record import game_record
from solver.wagons.scoring import final_scores
from solver.wagons.scoring.card_numbers import goals_file, with_cards
from solver.wagons.simulate import play_game
from solver.wagons.town import town_from_dict
from tests.support.dashboard.apptest import errors, open_page, texts
from tests.support.dashboard.kept import browser_of, same_browser
from tests.support.dashboard.wagons_table import boomtown_sheet, metric

CHARM = "wg_cards_smalltown_charm"






def score_items(at) -> list[str]:
    return [str(i) for t in at.table for i in t.value.index]


def test_the_headline_gives_the_score_under_each_reading_and_names_no_winner():
    state = boomtown_sheet()
    at = open_page("wagons_sheet", state=state)
    town, pile = town_from_dict({"placements": state["wg_rows"]}), tuple(state["wg_pile"])
    per_mine, flat = (final_scores(town, pile, "boomtown", WagonsReadings(boom_or_bust=v)) for v in ("per-mine", "flat"))
    assert (f"**Score: You {per_mine.player.total}, the opponent {per_mine.opponent.total}; or "
            f"{flat.player.total}-{flat.opponent.total} if your Boom or Bust card counts its points once.**") in texts(at)
    assert "The player wins" not in texts(at) and "The opponent wins" not in texts(at)
    assert "Your goal cards: 2 of them rest on one unofficial source" in " ".join(e.label for e in at.expander)


def test_one_tap_takes_the_cards_numbers_and_the_tags_say_from_your_card():
    state = boomtown_sheet()
    at = open_page("wagons_sheet", state=state)
    assert "goal: Smalltown Charm (low confidence, W11)" in score_items(at)
    at.button(key=f"{CHARM}_same").click().run()
    assert not at.exception and not errors(at)
    assert at.session_state[card_reading.NUMBERS] == {"Smalltown Charm": {"per_territory": 1}}
    assert "goal: Smalltown Charm (from your card)" in score_items(at)
    assert "goal: Smalltown Charm (low confidence, W11)" not in score_items(at)
    at.button(key="wg_card_say_boom_or_bust_flat").click().run()  # the reading, one tap: the whole card settled
    assert "goal: Boom or Bust (from your card)" in score_items(at)
    assert "(low confidence" not in " ".join(score_items(at)) and "Your goal cards (their numbers" in " ".join(
        e.label for e in at.expander)
    again = same_browser(browser_of(at), "wagons_sheet")  # remembered for the browser, used by a new session
    assert set(again.session_state[card_reading.NUMBERS]) == {"Smalltown Charm", "Boom or Bust"}
    assert "goal: Smalltown Charm (from your card)" in score_items(again)


def test_other_numbers_typed_off_the_card_score_as_the_engine_reads_them_and_export_as_a_goals_file():
    state = boomtown_sheet()
    at = open_page("wagons_sheet", state=state)
    at.text_input(key=f"{CHARM}_per_territory").set_value("x")
    at.button(key=f"FormSubmitter:{CHARM}_form-Use my card's numbers").click().run()
    assert any("Fix the box" in e for e in errors(at)) and not at.session_state[card_reading.NUMBERS]
    at.text_input(key=f"{CHARM}_per_territory").set_value("3")
    at.button(key=f"FormSubmitter:{CHARM}_form-Use my card's numbers").click().run()
    assert not at.exception and at.session_state[card_reading.NUMBERS] == {"Smalltown Charm": {"per_territory": 3}}
    town, pile = town_from_dict({"placements": state["wg_rows"]}), tuple(state["wg_pile"])
    want = final_scores(town, pile, "boomtown", WagonsReadings(), with_cards(load_data(), {"Smalltown Charm": {"per_territory": 3}}))
    assert metric(at, "Player total") == str(want.player.total)
    assert metric(at, "Opponent total") == str(want.opponent.total)
    text = goals_file(load_data(), {"Smalltown Charm": {"per_territory": 3}}, {})
    charm = next(g for g in tomllib.loads(text)["goal"] if g["name"] == "Smalltown Charm")
    assert charm["params"] == {"per_territory": 3} and charm["confidence"] == "card"


def test_the_game_under_way_scores_with_the_cards_numbers():
    played = play_game("boomtown", "greedy", 3).state
    at = open_page("wagons_play")
    at.session_state[wg.KEY] = {"record": game_record(played), "at": len(game_record(played)["actions"])}
    at.run()
    at.text_input(key="lc_cards_smalltown_charm_per_territory").set_value("4")
    at.button(key="FormSubmitter:lc_cards_smalltown_charm_form-Use my card's numbers").click().run()
    assert not at.exception and not errors(at)
    want = final_scores(played.town, played.pile, "boomtown", WagonsReadings(),
                        with_cards(load_data(), {"Smalltown Charm": {"per_territory": 4}}))
    assert metric(at, "Your total") == str(want.player.total)
    assert metric(at, "Opponent total") == str(want.opponent.total)


def test_boom_or_bust_is_settled_from_its_card_in_one_tap():
    state = boomtown_sheet()
    at = open_page("wagons_sheet", state=state)
    at.button(key="wg_cards_boom_or_bust_says_flat").click().run()
    assert at.session_state["readings"]["wagons"]["boom_or_bust"] == "flat"
    assert at.session_state[card_reading.NUMBERS]["Boom or Bust"]["per_mine"] is False
    assert "goal: Boom or Bust (from your card)" in score_items(at) and "Score: You" not in texts(at)
    assert any("The points count: <b>once</b>" in h.proto.body for h in at.get("html"))  # on the card's face


def test_the_scenarios_page_simulates_with_the_cards_numbers_not_the_stored_rows():
    from dashboard.wagons.scenarios import rows

    at = open_page("wagons_scenarios", state={card_reading.NUMBERS: {"Smalltown Charm": {"per_territory": 2}}})
    assert not at.exception
    assert any("not simulated yet for these settings" in i.value for i in at.info)  # stored rows: the shipped numbers
    frame = rows.simulate_batch("boomtown", "random", 2, 0, {}, '{"Smalltown Charm":{"per_territory":2}}')
    want = [play_game("boomtown", "random", s, WagonsReadings(), with_cards(load_data(), {"Smalltown Charm": {"per_territory": 2}}))
            for s in (0, 1)]
    assert list(frame["player_total"]) == [g.scores.player.total for g in want]


def test_the_verification_checks_read_the_cards_numbers(monkeypatch):
    from dashboard.wagons import verification
    from solver.wagons.verify import checks as verify

    seen = []
    monkeypatch.setattr(verify, "run_checks", lambda *a, data=None, **k: seen.append(data) or [])
    verification._run(("boomtown",), ("x",), "{}", (), 1.0, '{"Smalltown Charm":{"per_territory":2}}')
    assert seen and seen[0].goal("Smalltown Charm").param("per_territory") == 2


def test_the_verdicts_across_readings_read_the_cards_numbers(monkeypatch):
    from dashboard.verification import impact as impact_page
    from solver.readings import impact
    from solver.readings.verdicts import Settings
    from solver.wagons.simulate import play_row

    cards = '{"Smalltown Charm":{"per_territory":4}}'
    seen = []
    monkeypatch.setattr(impact, "impact", lambda game, only, settings, *a, **k: seen.append(settings) or {})
    monkeypatch.setattr(card_reading, "cards_json", lambda: cards)
    assert impact_page.cards("wagons") == cards
    impact_page._run("wagons", (), 1.0, 2, {}, impact_page.cards("wagons"))
    assert seen[0].cards == cards
    # the verdict itself plays its games with those numbers
    greedy = next(v for v in impact.verdicts("wagons") if v.id == "greedy-wins/boomtown")
    data = with_cards(load_data(), {"Smalltown Charm": {"per_territory": 4}})
    rows = [play_row("boomtown", "greedy", s, WagonsReadings(), data) for s in (0, 1, 2)]
    shipped = [play_row("boomtown", "greedy", s, WagonsReadings()) for s in (0, 1, 2)]
    assert [r["winner"] for r in rows] != [r["winner"] for r in shipped]  # the number decides these games
    want = {"wins": sum(r["winner"] == "player" for r in rows), "ties": sum(r["winner"] == "tie" for r in rows),
            "games": 3}
    assert greedy.run(WagonsReadings(), Settings(games=3, cards=cards)) == want
    assert greedy.run(WagonsReadings(), Settings(games=3)) != want
