"""The Outlaws readings O11, O14-O17 and the knowledge of swapped face-up characters, on positions
worked out by hand from the rulebook text (italian-two-player-game, quoted per test), under the
default and under every alternative; and the CLI paths (--json, --rule NAME=VALUE).

Geometry (rule:O1): A's column i faces B's column i; "left" is from the owner's seat: for A, left of
column i is i-1; for B it is i+1.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import replace

import pytest

from solver.cli import main
from solver.outlaws.actions import Action, legal_actions
from solver.outlaws.apply import apply, outcomes
from solver.outlaws.position import Discard, PerSide, Supply, initial_position, view
from solver.outlaws.readings import CHOICES, OutlawsReadings, add_rule_option
from solver.outlaws.search.searches import is_dead, victory_left, win_possible
from solver.outlaws.victory import sudden_death_trigger
from tests.support.builders.outlaws import build, pos

DEFAULT = OutlawsReadings()


def conditions(p, a, readings=DEFAULT) -> dict:
    return {o.condition: o.position for o in outcomes(p, a, readings)}


def governor_columns(p, readings=DEFAULT) -> set:
    """The token columns the side to move's Governor may claim with his ability."""
    return {a.column if a.target is None else a.target
            for a in legal_actions(p, readings) if a.actor == "governor" and a.kind == "ability"}


# ---------------------------------------------------------------- O14: the Mayor extends the Governor

# A: Mayor at column 3, Governor at 4 (for A the Mayor is immediately to the Governor's left).
A_MAYOR_GOV = ["indian", "hitman", "sheriff", "mayor", "governor", "dancer", "journalist", "bandit"]
TOKENS_EL5 = ["vote", "x", "bullet", "vote", "x", "election", "handcuffs", "vote"]


def test_mayor_extends_the_governor_to_the_election_token_beside_him():
    """'Quando sveli un personaggio immediatamente alla destra del Sindaco per usare la sua abilità ...
    Le abilità dirette verso il personaggio di fronte possono ora essere dirette a quelli immediatamente
    adiacenti' -- only the Hitman, Dancer and Bandit are excluded, so the Governor's ability reaches the
    tokens at columns 3, 4 and 5."""
    p = pos(A=A_MAYOR_GOV, tokens=TOKENS_EL5, supply={"A": {"vote": 1}})
    assert governor_columns(p) == {3, 4, 5}
    assert governor_columns(p, OutlawsReadings(mayor_governor="not_extended")) == {4}
    a = Action("ability", "governor", 4, target=5, mayor=3)
    outs = outcomes(p, a)
    assert outs and all((o.position.winner, o.position.victory) == ("A", "good") for o in outs)
    q = outs[0].position
    assert q.supply.A.election == 1 and q.tokens[1:6] == tuple(TOKENS_EL5[0:5])  # the row slid toward 5
    assert {3, 4} <= q.knowledge.B.characters  # the Governor and the Mayor were revealed
    # the Take action is not an ability: no Mayor for it (the Governor takes only the token before him)
    assert {a.column for a in legal_actions(p) if a.kind == "take" and a.call == "election"} == {4}


def test_mayor_extended_governor_still_needs_more_votes_and_a_missed_token_stays():
    p = pos(A=A_MAYOR_GOV, tokens=TOKENS_EL5)  # Votes 0-0: "se la sua fazione ha più voti" (O5)
    assert governor_columns(p) == set()
    p = pos(A=A_MAYOR_GOV, tokens=TOKENS_EL5, supply={"A": {"vote": 1}})
    q = conditions(p, Action("ability", "governor", 4, target=3, mayor=3))["certain"]  # a Vote at 3
    assert q.winner is None and q.tokens == p.tokens and 3 in q.knowledge.A.tokens and 3 in q.knowledge.B.tokens


def test_mayor_side_b_geometry():
    """For B, left of column 3 is column 4: a Mayor at 4 extends B's Governor at 3; a Mayor at 2 stands
    to his right and extends nothing."""
    right = pos(B=["bandit", "reverend", "mayor", "governor", "hitman", "sheriff", "merchant", "dancer"],
                supply={"B": {"vote": 1}}, to_move="B")
    assert governor_columns(right) == {3}
    left = pos(B=["bandit", "reverend", "hitman", "governor", "mayor", "sheriff", "merchant", "dancer"],
               supply={"B": {"vote": 1}}, to_move="B")
    assert governor_columns(left) == {2, 3, 4}
    assert governor_columns(left, OutlawsReadings(mayor_governor="not_extended")) == {3}


# ---------------------------------------------------------------- O14: the Mayor extends the Reverend

# A: Bandit at 2, Mayor at 3, Reverend at 4 (left of 4 is 3, left of 3 is 2).
A_BAN_MAY_REV = ["governor", "hitman", "bandit", "mayor", "reverend", "dancer", "journalist", "sheriff"]


def test_mayor_extends_the_reverend_ability_two_places_left():
    """'se c'è un Bandito immobilizzato immediatamente alla sua sinistra, cancella l'effetto' -- with the
    Mayor immediately to his left the reach grows by one: the Bandit two places to his left."""
    p = pos(A=A_BAN_MAY_REV, immobilized=[["A", 2]])
    rev = [a for a in legal_actions(p) if a.actor == "reverend" and a.kind == "ability"]
    assert rev == [Action("ability", "reverend", 4, target=2, mayor=3)]
    q = conditions(p, rev[0])["certain"]
    assert not q.immobilized and {3, 4} <= q.knowledge.B.characters
    assert not [a for a in legal_actions(p, OutlawsReadings(mayor_reverend="not_extended")) if a.actor == "reverend"
                and a.kind == "ability"]


def test_mayor_extends_the_reverend_reaction():
    """'se il Bandito viene immobilizzato o il Sicario viene Arrestato ... immediatamente alla sinistra del
    Reverendo, puoi svelare il Reverendo e cancellare l'effetto': B's Sheriff (column 2) catches A's Bandit
    (2); A's Reverend (4) with A's Mayor (3) may cancel by default, not when the Mayor does not extend him."""
    p = pos(A=A_BAN_MAY_REV, B=["bandit", "reverend", "sheriff", "governor", "hitman", "mayor", "merchant", "dancer"],
            to_move="B")
    a = Action("ability", "sheriff", 2, call="bandit", target=2)
    outs = conditions(p, a)
    assert set(outs) == {"B immobilizes the Bandit; A cancels the immobilization with the Reverend",
                         "B immobilizes the Bandit; A does not cancel the immobilization", "B lets the Bandit go"}
    cancelled = outs["B immobilizes the Bandit; A cancels the immobilization with the Reverend"]
    assert not cancelled.immobilized and cancelled.discard.handcuffs == 1  # "Le Manette ... restano nello scarto"
    assert {3, 4} <= cancelled.knowledge.B.characters
    plain = conditions(p, a, OutlawsReadings(mayor_reverend="not_extended"))
    assert set(plain) == {"B immobilizes the Bandit", "B lets the Bandit go"}


def test_mayor_extended_reverend_cancels_an_arrest():
    p = pos(A=["governor", "bandit", "hitman", "mayor", "reverend", "dancer", "journalist", "sheriff"],
            B=["bandit", "reverend", "sheriff", "governor", "hitman", "mayor", "merchant", "dancer"], to_move="B")
    outs = conditions(p, Action("ability", "sheriff", 2, call="hitman", target=2))
    assert outs["A cancels the arrest with the Reverend"].winner is None
    assert outs["A does not cancel the arrest"].victory == "ugly"
    only = conditions(p, Action("ability", "sheriff", 2, call="hitman", target=2), OutlawsReadings(mayor_reverend="not_extended"))
    assert [q.victory for q in only.values()] == ["ugly"]


# ---------------------------------------------------------------- O15: aiming at an immobilized character

A_INDIAN0 = ["indian", "dancer", "sheriff", "governor", "merchant", "hitman", "journalist", "bandit"]


def test_an_immobilized_bandit_can_be_revealed_by_an_indian():
    """'Un personaggio immobilizzato non si può muovere, non può essere spostato, attivato o utilizzare
    le proprie abilità': nothing forbids aiming at him. B's immobilized Bandit at column 0 faces A's Indian."""
    p = pos(A=A_INDIAN0, immobilized=[["B", 0]])
    a = Action("ability", "indian", 0, target=0)
    assert a in legal_actions(p)
    q = conditions(p, a)["certain"]
    assert 0 in q.knowledge.A.characters and q.immobilized == {("B", "bandit")}
    assert a not in legal_actions(p, OutlawsReadings(target_immobilized="forbidden"))


def test_an_immobilized_character_is_never_moved_under_either_reading():
    """'non può essere spostato': A's Dancer (1) may not pull B's columns 0 (immobilized) or shift him."""
    p = pos(A=A_INDIAN0, immobilized=[["B", 0]])
    for readings in (DEFAULT, OutlawsReadings(target_immobilized="forbidden")):
        dancer = {a.target for a in legal_actions(p, readings) if a.actor == "dancer" and a.kind == "ability"}
        assert dancer == {2, 3}


def test_the_journalist_may_mark_an_immobilized_bandit():
    p = pos(A=["journalist", "dancer", "sheriff", "governor", "merchant", "hitman", "indian", "bandit"],
            immobilized=[["B", 0]])
    a = Action("ability", "journalist", 0, call="bandit", target=0)
    assert a in legal_actions(p) and a not in legal_actions(p, OutlawsReadings(target_immobilized="forbidden"))
    q = conditions(p, a)["certain"]
    assert ("B", "bandit") in q.front_page and q.supply.A.front_page == 2


# ---------------------------------------------------------------- Knowledge: a swapped face-up character


def test_a_swapped_marked_character_stays_known_where_it_goes():
    """'Per il resto del gioco il personaggio deve restare scoperto': B's Hitman (column 4) is marked;
    B swaps columns 4 and 5 'senza mostrarli', yet the Hitman is face up: A knows he is now at 5, and
    no longer knows column 4."""
    p = pos(front_page=[["B", 4]], supply={"A": {"front_page": 2}}, to_move="B",
            knowledge={"A": {"characters": [4], "tokens": []}, "B": {"characters": [], "tokens": []}})
    q = conditions(p, Action("move", columns=(4, 5), swap=True))["certain"]
    assert q.street.B[5] == "hitman" and q.knowledge.A.characters == {5}
    seen = view(q, "A").street.B
    assert seen[5] == "hitman" and seen[4] is None
    fake = conditions(p, Action("move", columns=(4, 5), swap=False))["certain"]
    assert fake.knowledge.A.characters == {4}


# ---------------------------------------------------------------- O16: optional effects


def test_declining_to_keep_a_correctly_called_token():
    """'Se corrisponde al tipo chiamato, puoi tenere il gettone': A's Indian (3) calls the Vote at 3
    correctly and may keep it (the row refills) or put it back (nothing moves, both saw it)."""
    p = pos()
    outs = conditions(p, Action("take", "indian", 3, call="vote"))
    back = outs["A puts the token back"]
    assert back.tokens == p.tokens and back.supply == p.supply and back.reserve == p.reserve
    assert 3 in back.knowledge.A.tokens and 3 in back.knowledge.B.tokens
    kept = [q for c, q in outs.items() if c.startswith("A keeps the token")]
    assert len(kept) == 2 and all(q.supply.A.vote == 1 for q in kept)
    always = conditions(p, Action("take", "indian", 3, call="vote"), OutlawsReadings(optional_effects="always"))
    assert all(q.supply.A.vote == 1 for q in always.values()) and len(always) == 2


def test_declining_to_immobilize_the_bandit():
    """'Se Chiami correttamente il Bandito, allora lo puoi immobilizzare e recuperare le Manette'."""
    p = pos(B=["hitman", "mayor", "bandit", "governor", "reverend", "sheriff", "merchant", "dancer"])
    a = Action("ability", "sheriff", 2, call="bandit", target=2)
    outs = conditions(p, a)
    caught, free = outs["A immobilizes the Bandit"], outs["A lets the Bandit go"]
    assert caught.immobilized == {("B", "bandit")} and caught.supply.A.handcuffs == 1 and caught.discard.handcuffs == 0
    assert not free.immobilized and free.supply.A.handcuffs == 0 and free.discard.handcuffs == 1
    assert list(conditions(p, a, OutlawsReadings(optional_effects="always"))) == ["certain"]


# ---------------------------------------------------------------- O17: actions per turn


def test_exactly_two_actions_by_default_and_end_turn_under_the_alternative():
    """'ciascun giocatore può eseguire due azioni prima di passare la mano': by default a turn has two
    actions (the fake swap passes); with "one_or_two" the turn may end after one."""
    one_left = pos(actions_left=1)
    assert not [a for a in legal_actions(one_left) if a.kind == "end_turn"]
    alt = OutlawsReadings(actions_per_turn="one_or_two")
    assert Action("end_turn") in legal_actions(one_left, alt)
    assert Action("end_turn") not in legal_actions(pos(), alt)  # two left: the first action is not optional
    q = apply(one_left, Action("end_turn"), alt)
    assert (q.to_move, q.actions_left) == ("B", 2) and q.tokens == one_left.tokens and q.street == one_left.street
    fake = Action("move", columns=(0, 1), swap=False)
    r = apply(one_left, fake)
    assert (r.to_move, r.actions_left, r.street) == ("B", 2, one_left.street)


# ---------------------------------------------------------------- O11: sudden death, every time


def after_second_use(a_handcuffs: int = 0):
    """After a first sudden death, Votes 3-3, every Bullet and Handcuffs used up again (``a_handcuffs``:
    that many Handcuffs still in A's supply instead of the discard)."""
    return pos(tokens=["x", "x", "empty", "empty", "empty", "empty", "empty", "empty"], reserve=[],
               supply={"A": {"vote": 3, "bullet": 0, "handcuffs": a_handcuffs},
                       "B": {"vote": 3, "bullet": 0, "handcuffs": 0}},
               discard={"bullet": 3, "handcuffs": 3 - a_handcuffs, "x": 2, "election": 1}, sudden_death=True)


def test_second_sudden_death_trigger_and_its_dead_position_under_once():
    """'Non appena l'ultimo di questi gettoni sia stato reclamato/utilizzato': the condition holds again,
    so by default the reset comes again; "once" leaves a game nobody can win (the O12 gap)."""
    p = after_second_use()
    once = OutlawsReadings(sudden_death_repeats="once")
    assert sudden_death_trigger(p) and not sudden_death_trigger(p, once)
    assert not is_dead(p) and is_dead(p, once)
    assert victory_left(p, "A")["bad"] and not any(victory_left(p, "A", once).values())
    res = win_possible(p, once, max_depth=4, time_limit=5)
    assert (res.A, res.B, res.proven) == (False, False, True)


def test_second_sudden_death_triggered_by_the_last_handcuffs():
    """A's Sheriff (2) spends the last Handcuffs on B's Mayor (a wrong call): the 6th token is used."""
    p = after_second_use(a_handcuffs=1)
    assert not sudden_death_trigger(p)
    outs = outcomes(p, Action("ability", "sheriff", 2, call="hitman", target=2))
    assert len(outs) == 560 and all(o.position.sudden_death and o.position.discard.handcuffs == 0 for o in outs)
    once = outcomes(p, Action("ability", "sheriff", 2, call="hitman", target=2), OutlawsReadings(sudden_death_repeats="once"))
    assert len(once) == 1 and once[0].position.discard.handcuffs == 3 and once[0].position.tokens == p.tokens


def test_no_dead_position_when_sudden_death_repeats():
    """Token-economy lemma under "repeats": over every reachable class of Vote split, Bullets/Handcuffs
    left and the Election's place, some side can still win (or the trigger holds). Under "once" the
    class 'after sudden death, nothing left' is dead."""
    base = after_second_use()
    once = OutlawsReadings(sudden_death_repeats="once")
    dead_once = []
    for sd in (False, True):
        for a in range(7):
            for b in range(7 - a):
                if sd and (a, b) != (3, 3):
                    continue  # sudden death needs 3-3, and Votes never move afterwards
                for left in ((0, 0), (1, 0), (0, 1)):
                    table = 6 - a - b
                    tokens = (["vote"] * table + (["election"] if not sd else []) + ["bullet"] * left[0]
                              + ["handcuffs"] * left[1])
                    tokens += ["x"] * (8 - len(tokens))
                    p = replace(base, tokens=tuple(tokens), reserve=(), sudden_death=sd,
                                supply=PerSide(Supply(vote=a, bullet=0, handcuffs=0), Supply(vote=b, bullet=0, handcuffs=0)),
                                discard=Discard(bullet=3 - left[0], handcuffs=3 - left[1], election=1 if sd else 0))
                    assert not is_dead(p), (sd, a, b, left)
                    if is_dead(p, once):
                        dead_once.append((sd, a, b, left))
    assert dead_once == [(True, 3, 3, (0, 0))]


# ---------------------------------------------------------------- first player (O13), all options listed


def test_first_player_random_draws_either_side():
    sides = {initial_position(seed, OutlawsReadings(first_player="random")).to_move for seed in range(12)}
    assert sides == {"A", "B"}
    assert initial_position(0, OutlawsReadings(first_player="B")).to_move == "B"


def test_rule_help_lists_every_option_and_value():
    import argparse

    parser = argparse.ArgumentParser()
    add_rule_option(parser)
    flags = {a.dest: a for a in parser._actions}
    for name, values in CHOICES.items():
        assert "|".join(values) in flags[f"reading_{name}"].help and "--" + name.replace("_", "-") in \
            flags[f"reading_{name}"].option_strings
    assert OutlawsReadings.from_args(parser.parse_args(["--sheriff-save", "stop", "--rule", "first_player=B"])) == \
        OutlawsReadings(sheriff_save="stop", first_player="B")
    assert [f.name for f in dataclasses.fields(OutlawsReadings)] == list(CHOICES)
    assert OutlawsReadings() == OutlawsReadings(**{k: v[0] for k, v in CHOICES.items()})  # the first value is the default


@pytest.mark.parametrize("command", ["moves", "status", "apply", "playouts", "verify", "dead-positions"])
def test_every_outlaws_command_help_lists_every_option(command, capsys):
    with pytest.raises(SystemExit):
        main(["outlaws", command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name, values in CHOICES.items():
        assert "--" + name.replace("_", "-") in text and "|".join(values) in text, (command, name)


# ---------------------------------------------------------------- CLI paths (contracts.md formats)


def _file(tmp_path, data, name="p.json"):
    f = tmp_path / name
    f.write_text(json.dumps(data))
    return str(f)


def test_cli_status_honours_the_sudden_death_reading(capsys):
    from solver.outlaws.position_json import read_position
    from solver.paths import SCENARIOS

    f = str(SCENARIOS / "outlaws" / "sudden-death-again.json")
    assert read_position(f) == after_second_use()  # the scenario is this hand-built position
    assert main(["outlaws", "status", f, "--json", "--max-depth", "2", "--time-limit", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sudden_death_trigger"] is True and out["winner"] is None
    assert out["win_possible"]["A"] is not False  # the reset brings the Bullets back
    assert main(["outlaws", "status", f, "--json", "--rule", "sudden_death_repeats=once", "--max-depth", "2",
                 "--time-limit", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sudden_death_trigger"] is False and out["win_possible"] == {"A": False, "B": False}
    assert out["rules"]["sudden_death_repeats"] == "once"


def test_cli_end_turn_moves_and_apply(tmp_path, capsys):
    f = _file(tmp_path, build(actions_left=1))
    assert main(["outlaws", "moves", f, "--json"]) == 0
    assert {"kind": "end_turn"} not in json.loads(capsys.readouterr().out)["actions"]
    assert main(["outlaws", "moves", f, "--json", "--rule", "actions_per_turn=one_or_two"]) == 0
    assert {"kind": "end_turn"} in json.loads(capsys.readouterr().out)["actions"]
    end = json.dumps({"kind": "end_turn"})
    assert main(["outlaws", "apply", f, "--action", end, "--json", "--rule", "actions_per_turn=one_or_two"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["position"]["to_move"] == "B" and out["position"]["actions_left"] == 2
    assert main(["outlaws", "apply", f, "--action", end]) == 2  # illegal under the default reading
    assert capsys.readouterr().err.count("\n") == 1


def test_cli_mayor_governor_and_declining(tmp_path, capsys):
    f = _file(tmp_path, build(A=A_MAYOR_GOV, tokens=TOKENS_EL5, supply={"A": {"vote": 1}}))
    assert main(["outlaws", "moves", f, "--json"]) == 0
    acts = json.loads(capsys.readouterr().out)["actions"]
    assert {"kind": "ability", "actor": "governor", "column": 4, "target": 5, "mayor": 3} in acts
    assert main(["outlaws", "moves", f, "--json", "--rule", "mayor_governor=not_extended"]) == 0
    acts = json.loads(capsys.readouterr().out)["actions"]
    assert not [a for a in acts if a.get("actor") == "governor" and a.get("mayor") is not None]
    take = json.dumps({"kind": "take", "actor": "indian", "column": 0, "call": "vote"})
    assert main(["outlaws", "apply", f, "--action", take, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcomes"][-1] == {"condition": "A puts the token back", "probability": "1/1"}
    assert main(["outlaws", "apply", f, "--action", take, "--json", "--rule", "optional_effects=always"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert all("keeps" not in o["condition"] for o in out["outcomes"]) and out["position"]["supply"]["A"]["vote"] == 2


def test_cli_immobilized_target(tmp_path, capsys):
    f = _file(tmp_path, build(A=A_INDIAN0, immobilized=[["B", 0]]))
    indian = {"kind": "ability", "actor": "indian", "column": 0, "target": 0}
    assert main(["outlaws", "moves", f, "--json"]) == 0
    assert indian in json.loads(capsys.readouterr().out)["actions"]
    assert main(["outlaws", "moves", f, "--json", "--rule", "target_immobilized=forbidden"]) == 0
    assert indian not in json.loads(capsys.readouterr().out)["actions"]


# every alternative value of every option -> a test above (or elsewhere) that exercises it
ALTERNATIVES_EXERCISED = {
    ("first_player", "B"): "test_first_player_random_draws_either_side",
    ("first_player", "random"): "test_first_player_random_draws_either_side",
    ("refill_empty_reserve", "slide_other_end"): "test_engine.py::test_refill_with_empty_reserve_both_readings",
    ("sheriff_save", "stop"): "test_outlaws_abilities.py::test_sheriff_save_only_stops_under_alternative",
    ("reverend_left_of", "sheriff"): "test_outlaws_abilities.py::test_reverend_reading_alternative_uses_the_sheriff_column",
    ("bandit_empty_supply", "forbidden"): "test_outlaws_abilities.py (forbidden = OutlawsReadings(bandit_empty_supply=...))",
    ("sudden_death_repeats", "once"): "test_second_sudden_death_trigger_and_its_dead_position_under_once",
    ("mayor_governor", "not_extended"): "test_mayor_extends_the_governor_to_the_election_token_beside_him",
    ("mayor_reverend", "not_extended"): "test_mayor_extends_the_reverend_reaction",
    ("target_immobilized", "forbidden"): "test_an_immobilized_bandit_can_be_revealed_by_an_indian",
    ("optional_effects", "always"): "test_declining_to_immobilize_the_bandit",
    ("actions_per_turn", "one_or_two"): "test_exactly_two_actions_by_default_and_end_turn_under_the_alternative",
}


def test_every_alternative_is_named_with_a_test():
    """A new option (or value) fails here until a test exercising it is named."""
    wanted = {(k, v) for k, vals in CHOICES.items() for v in vals[1:]}
    assert set(ALTERNATIVES_EXERCISED) == wanted
    for target in ALTERNATIVES_EXERCISED.values():
        if "::" not in target and "(" not in target:
            assert target in globals(), target


def test_every_option_has_its_register_entry_and_every_inferred_entry_an_option():
    """Register (docs/register/outlaws.toml): each option names its entry, each alternative value is
    listed there, inferred entries are options, and nothing cites a file a user does not have."""
    import re

    from solver.outlaws.readings import RULE_IDS
    from solver.register import load_register

    reg = load_register()
    assert set(RULE_IDS) == set(CHOICES)
    for name, values in CHOICES.items():
        entry = reg.get(RULE_IDS[name])
        assert entry.option == name and entry.status == "implemented", name
        listed = {alt.split(":")[0].strip() for alt in entry.alternatives}
        assert set(values[1:]) <= listed, (name, listed)
    for entry in reg.for_game("outlaws"):
        assert not entry.inferred or entry.option, f"{entry.id} is inferred but offers no option"
        text = " ".join([entry.source, entry.default, entry.notes, *entry.alternatives])
        assert "(not offered)" not in text and "outside-facts" not in text and "rules/" not in text, entry.id
        assert not re.search(r"(?<!docs/)open-questions\.md", text), entry.id


def test_mayor_governor_scenario_keeps_its_promise():
    from solver.outlaws.position_json import read_position
    from solver.paths import SCENARIOS

    p = read_position(SCENARIOS / "outlaws" / "mayor-governor.json")
    claim = Action("ability", "governor", 4, target=5, mayor=3)
    assert claim in legal_actions(p) and claim not in legal_actions(p, OutlawsReadings(mayor_governor="not_extended"))
    assert all(o.position.victory == "good" for o in outcomes(p, claim))


def test_the_dead_position_verdict_is_decided_by_the_lemma_and_depends_on_o11():
    """Issue 33: the lemma's proof that no dead position exists is a decided answer, not "undecided", so
    ``readings impact outlaws`` shows the dead-position verdict depending on O11 (sudden_death_repeats=once)."""
    from solver.outlaws.search.searches import dead_position_answer, find_dead_positions
    from solver.readings.impact import impact
    from solver.readings.verdicts import Settings

    assert dead_position_answer(find_dead_positions(None, OutlawsReadings())) == {"found": False, "proven_by": "lemma"}
    row = impact("outlaws", ["dead-positions"], Settings(time_limit=60))["verdicts"][0]
    assert row["default"] == {"found": False, "proven_by": "lemma"} and row["undecided"] == []
    assert [(d["reading"], d["value"], d["result"]) for d in row["depends_on"]] == [
        ("sudden_death_repeats", "once", {"found": True})]


def test_the_status_verdict_reads_the_sudden_death_reading():
    """The status verdict's sudden-death trigger follows the reading it runs under (O11 "once": no second time)."""
    from solver.readings.impact import verdicts
    from solver.readings.verdicts import Settings

    verdict = next(v for v in verdicts("outlaws") if v.id == "status/sudden-death-again")
    once = verdict.run(OutlawsReadings(sudden_death_repeats="once"), Settings(time_limit=60))
    assert once["sudden_death_trigger"] is False and once["win_possible"] == {"A": False, "B": False}
