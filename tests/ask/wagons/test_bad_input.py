"""A bad Lone Cowboy question gets one line naming its bad part (exit code 2), never a traceback."""

from __future__ import annotations

import pytest

from solver.cli import main

BASE = 'game = "wagons"\n'


def _ask(tmp_path, capsys, body: str) -> str:
    path = tmp_path / "q.toml"
    path.write_text(BASE + body)
    assert main(["ask", str(path), "--quiet", "--time-limit", "20"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ruleslinger: error:") and "\n" not in err and "Traceback" not in err
    return err


TOWNS = '[domain]\nkind = "towns"\ncards = [3, 7]\nscenario = "gold-rush"\n'


def test_an_unknown_measure_names_the_nearest(tmp_path, capsys):
    err = _ask(tmp_path, capsys, 'ask = "exists"\nwhere = "goal.gold-contry >= 2"\n' + TOWNS)
    assert "unknown measure" in err and "goal.gold-country" in err


@pytest.mark.parametrize("where", ["winner >= 2", "goal.gold-country == yes", "card.3 == somewhere"])
def test_a_value_of_the_wrong_type_is_named(tmp_path, capsys, where):
    err = _ask(tmp_path, capsys, f'ask = "exists"\nwhere = "{where}"\n' + TOWNS)
    assert where.split()[0] in err


def test_five_cards_are_refused_with_their_number_of_towns(tmp_path, capsys):
    """The town model states no comparison with a fraction, and the 16 million towns of 5 cards cannot be listed."""
    body = 'ask = "exists"\nwhere = "margin >= 1/2"\n[domain]\nkind = "towns"\ncards = [1, 2, 3, 4, 5]\n' \
           'scenario = "gold-rush"\n'
    err = _ask(tmp_path, capsys, body)
    assert "16,083,088 towns are too many" in err and "ask for a chance" in err


def test_eight_cards_are_refused_even_before_counting(tmp_path, capsys):
    body = 'ask = "chance"\nwhere = "winner == player"\n[domain]\nkind = "towns"\ncards = [1, 2, 3, 4, 5, 6, 7, 9]\n' \
           'scenario = "gold-rush"\n'
    assert "far too many" in _ask(tmp_path, capsys, body)


def test_four_cards_of_any_kind_are_refused(tmp_path, capsys):
    body = 'ask = "exists"\nwhere = "winner == player"\n[domain]\nkind = "any-cards"\nk = 4\nscenario = "gold-rush"\n'
    assert "k must be a whole number 1..3" in _ask(tmp_path, capsys, body)


def test_three_cards_of_any_kind_are_too_many_to_decide_but_a_chance_is_offered(tmp_path, capsys):
    body = 'ask = "exists"\nwhere = "winner == player"\n[domain]\nkind = "any-cards"\nk = 3\nscenario = "gold-rush"\n'
    err = _ask(tmp_path, capsys, body)
    assert "towns are too many" in err and "ask for a chance" in err


def test_every_deal_cannot_be_listed(tmp_path, capsys):
    body = 'ask = "exists"\nwhere = "margin >= 30"\n[domain]\nkind = "games"\nscenario = "gold-rush"\n'
    err = _ask(tmp_path, capsys, body)
    assert "20,922,789,888,000 games are too many" in err


def test_a_deal_answers_only_what_its_search_decides(tmp_path, capsys):
    body = 'ask = "forall"\nwhere = "margin >= 0"\n[domain]\nkind = "deal"\nscenario = "gold-rush"\nseed = 3\n'
    assert "lines of play of a deal cannot be listed" in _ask(tmp_path, capsys, body)


@pytest.mark.parametrize("domain, said", [
    ('kind = "towns"\ncards = [3, 3]\nscenario = "gold-rush"', "listed twice"),
    ('kind = "towns"\ncards = [3, 7]\nscenario = "gold-rush"\npile = [7]', "also among the player's cards"),
    ('kind = "towns"\ncards = [3, 7]\nscenario = "boom"', "unknown scenario"),
    ('kind = "games"\nscenario = "gold-rush"\npolicy = "clever"', "policy must be one of"),
    ('kind = "any-cards"\nk = 2\nscenario = "gold-rush"\npile = [5]', "set aside"),
])
def test_bad_parameters_are_named(tmp_path, capsys, domain, said):
    assert said in _ask(tmp_path, capsys, f'ask = "chance"\nwhere = "winner == player"\n[domain]\n{domain}\n')
