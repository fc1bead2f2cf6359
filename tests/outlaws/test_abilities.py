"""Every Outlaws action and ability on constructed positions: success, failure, each call, the Mayor,
edge columns 0 and 7, immobilized characters, reactions (rule:O6, rule:O7)."""

from __future__ import annotations

import pytest

from solver.errors import BadInput
from solver.outlaws.actions import Action, legal_actions
from solver.outlaws.apply import apply, outcomes
from solver.outlaws.position_json import position_to_json
from solver.outlaws.readings import OutlawsReadings
from tests.support.builders.outlaws import build, pos

A_MAYOR = ["governor", "mayor", "sheriff", "indian", "merchant", "dancer", "journalist", "bandit"]


def ability(p, readings=OutlawsReadings(), **kw):
    a = Action("ability", **kw)
    assert a in legal_actions(p, readings), f"{a} not legal"
    return a


def only(p, a, readings=OutlawsReadings()):
    outs = outcomes(p, a, readings)
    assert len(outs) == 1, [o.condition for o in outs]
    return outs[0].position


ALWAYS = OutlawsReadings(optional_effects="always")  # rule:O16 alternative: no declining


def kinds(p, actor, readings=OutlawsReadings()):
    return [a for a in legal_actions(p, readings) if a.actor == actor and a.kind == "ability"]


# ---------------------------------------------------------------- Hitman (rule:O-hitman, rule:O6, rule:O7)

B_GOV1 = ["bandit", "governor", "mayor", "reverend", "hitman", "sheriff", "merchant", "dancer"]


def test_hitman_kills_governor_bad_victory():
    p = pos(B=B_GOV1)
    q = only(p, ability(p, actor="hitman", column=1, target=1))
    assert (q.winner, q.victory) == ("A", "bad")
    assert q.supply.A.bullet == 0 and q.discard.bullet == 1


def test_hitman_fails_on_another_character():
    p = pos()
    q = only(p, ability(p, actor="hitman", column=1, target=1))
    assert q.winner is None and q.discard.bullet == 1 and q.supply.A.bullet == 0
    assert 1 in q.knowledge.A.characters  # A saw B's reverend
    assert 1 in q.knowledge.B.characters  # B saw A's hitman
    assert q.to_move == "A" and q.actions_left == 1


def test_hitman_needs_a_bullet():
    assert kinds(pos(supply={"A": {"bullet": 0}}, discard={"bullet": 1}), "hitman") == []


def test_sheriff_saves_governor_ugly_for_the_saver():
    p = pos(B=["sheriff", "governor", "mayor", "reverend", "hitman", "bandit", "merchant", "dancer"])
    outs = outcomes(p, ability(p, actor="hitman", column=1, target=1))
    by = {o.condition: o.position for o in outs}
    assert len(outs) == 2
    saved = by["B saves the Governor with the Sheriff"]
    assert (saved.winner, saved.victory) == ("B", "ugly")
    assert saved.supply.B.handcuffs == 0 and saved.discard.handcuffs == 1
    assert (by["B does not save the Governor"].winner, by["B does not save the Governor"].victory) == ("A", "bad")


def test_sheriff_save_only_stops_under_alternative():
    p = pos(B=["bandit", "governor", "sheriff", "reverend", "hitman", "mayor", "merchant", "dancer"])
    readings = OutlawsReadings(sheriff_save="stop")
    outs = outcomes(p, ability(p, readings, actor="hitman", column=1, target=1), readings)
    saved = [o.position for o in outs if "saves" in o.condition][0]
    assert saved.winner is None and saved.discard.handcuffs == 1


def test_no_save_without_handcuffs_or_adjacent_sheriff():
    far = pos(B=B_GOV1)  # B's sheriff at column 5, not adjacent
    assert len(outcomes(far, ability(far, actor="hitman", column=1, target=1))) == 1
    broke = pos(B=["sheriff", "governor", "mayor", "reverend", "hitman", "bandit", "merchant", "dancer"],
                supply={"B": {"handcuffs": 0}}, discard={"handcuffs": 1})
    assert len(outcomes(broke, ability(broke, actor="hitman", column=1, target=1))) == 1


def test_reverend_cancels_the_save_arrest():
    # A's Hitman at column 1 is immediately to the left of A's Reverend at column 2 (rule:O1, rule:O7)
    p = pos(A=["governor", "hitman", "reverend", "indian", "merchant", "dancer", "journalist", "bandit"],
            B=["sheriff", "governor", "mayor", "reverend", "hitman", "bandit", "merchant", "dancer"])
    outs = outcomes(p, ability(p, actor="hitman", column=1, target=1))
    conds = {o.condition: o.position for o in outs}
    assert len(outs) == 3
    cancelled = conds["B saves the Governor with the Sheriff; A cancels the arrest with the Reverend"]
    assert cancelled.winner is None and cancelled.discard.handcuffs == 1
    assert conds["B saves the Governor with the Sheriff; A does not cancel the arrest"].winner == "B"


def test_hitman_edge_column_0_save_only_from_column_1():
    p = pos(A=["hitman", "governor", "sheriff", "indian", "merchant", "dancer", "journalist", "bandit"],
            B=["governor", "sheriff", "mayor", "reverend", "hitman", "bandit", "merchant", "dancer"])
    assert len(outcomes(p, ability(p, actor="hitman", column=0, target=0))) == 2


# ---------------------------------------------------------------- Sheriff (rule:O-sheriff, rule:O7, rule:O8)

B_HIT2 = ["bandit", "mayor", "hitman", "governor", "reverend", "sheriff", "merchant", "dancer"]


def test_sheriff_arrests_hitman_ugly_victory():
    p = pos(B=B_HIT2)
    q = only(p, ability(p, actor="sheriff", column=2, call="hitman", target=2))
    assert (q.winner, q.victory) == ("A", "ugly") and q.discard.handcuffs == 1


def test_sheriff_wrong_call_fails():
    p = pos(B=B_HIT2)
    q = only(p, ability(p, actor="sheriff", column=2, call="bandit", target=2))
    assert q.winner is None and q.discard.handcuffs == 1 and q.supply.A.handcuffs == 0
    assert not q.immobilized


def test_sheriff_immobilizes_bandit_and_recovers_handcuffs():
    p = pos(B=["hitman", "mayor", "bandit", "governor", "reverend", "sheriff", "merchant", "dancer"])
    q = only(p, ability(p, actor="sheriff", column=2, call="bandit", target=2), ALWAYS)
    assert q.immobilized == {("B", "bandit")}
    assert q.supply.A.handcuffs == 1 and q.discard.handcuffs == 0
    assert position_to_json(q)["immobilized"] == [["B", 2]]


def test_reverend_cancels_immobilization_handcuffs_stay_discarded():
    # B's Bandit at column 2; left of B's column 1 is column 2 (rule:O1), so B's Reverend at 1 reacts
    p = pos(B=["hitman", "reverend", "bandit", "governor", "mayor", "sheriff", "merchant", "dancer"])
    outs = {o.condition: o.position for o in outcomes(p, ability(p, actor="sheriff", column=2, call="bandit", target=2),
                                                      ALWAYS)}
    cancelled = outs["B cancels the immobilization with the Reverend"]
    assert not cancelled.immobilized and cancelled.discard.handcuffs == 1 and cancelled.supply.A.handcuffs == 0
    kept = outs["B does not cancel the immobilization"]
    assert kept.immobilized == {("B", "bandit")}


def test_reverend_cancels_arrest_no_victory():
    p = pos(B=["bandit", "reverend", "hitman", "governor", "mayor", "sheriff", "merchant", "dancer"])
    outs = {o.condition: o.position for o in outcomes(p, ability(p, actor="sheriff", column=2, call="hitman", target=2))}
    assert outs["B cancels the arrest with the Reverend"].winner is None
    assert outs["B does not cancel the arrest"].victory == "ugly"


def test_reverend_reading_alternative_uses_the_sheriff_column():
    # A's Mayor (1) extends A's Sheriff (2) to B's column 3 (B's Hitman). Default: B's Reverend must be
    # at right_of(B, 3) = 2 (a Mayor stands there: no reaction); alternative: at right_of(B, 2) = 1.
    p = pos(A=A_MAYOR, B=["bandit", "reverend", "mayor", "hitman", "governor", "sheriff", "merchant", "dancer"])
    a = ability(p, actor="sheriff", column=2, call="hitman", target=3, mayor=1)
    plain = OutlawsReadings(mayor_reverend="not_extended")
    assert len(outcomes(p, a, plain)) == 1
    assert len(outcomes(p, a, OutlawsReadings(reverend_left_of="sheriff", mayor_reverend="not_extended"))) == 2


def test_sheriff_mayor_extension_targets():
    p = pos(A=A_MAYOR)
    acts = kinds(p, "sheriff")
    assert {(a.target, a.mayor, a.call) for a in acts} == {
        (t, m, c) for t, m in ((2, None), (1, 1), (3, 1)) for c in ("hitman", "bandit")}
    q = only(p, ability(p, actor="sheriff", column=2, call="hitman", target=3, mayor=1))  # B's governor
    assert q.winner is None and 1 in q.knowledge.B.characters  # the Mayor was revealed


def test_sheriff_needs_handcuffs():
    assert kinds(pos(supply={"A": {"handcuffs": 0}}, discard={"handcuffs": 1}), "sheriff") == []


# ---------------------------------------------------------------- Indian (rule:O-indian) and edges


def test_indian_reveals_only():
    p = pos()
    q = only(p, ability(p, actor="indian", column=3, target=3))
    assert q.knowledge.A.characters == {3} and q.knowledge.B.characters == {3}
    assert q.street == p.street and q.tokens == p.tokens and q.supply == p.supply


def test_mayor_at_column_7_edge_for_A():
    p = pos(A=["governor", "hitman", "sheriff", "bandit", "merchant", "dancer", "mayor", "indian"])
    assert {(a.target, a.mayor) for a in kinds(p, "indian")} == {(7, None), (6, 6)}


def test_no_mayor_at_column_0_for_A_and_mayor_for_B_at_column_0():
    p = pos(A=["indian", "mayor", "sheriff", "governor", "merchant", "dancer", "journalist", "bandit"])
    assert {(a.target, a.mayor) for a in kinds(p, "indian")} == {(0, None)}
    # for B, right of column 1 is column 0 (rule:O1): B's Mayor at 1 extends B's Indian at 0 to A's column 1
    q = pos(B=["indian", "mayor", "bandit", "governor", "hitman", "sheriff", "merchant", "dancer"], to_move="B")
    assert {(a.target, a.mayor) for a in kinds(q, "indian")} == {(0, None), (1, 1)}


def test_mayor_not_with_hitman_dancer_bandit():
    p = pos(A=["governor", "mayor", "hitman", "indian", "merchant", "dancer", "journalist", "bandit"])
    assert all(a.mayor is None for a in kinds(p, "hitman"))
    p = pos(A=["governor", "hitman", "mayor", "dancer", "merchant", "sheriff", "journalist", "bandit"])
    assert all(a.mayor is None for a in kinds(p, "dancer"))


# ---------------------------------------------------------------- Merchant (rule:O-merchant)


def test_merchant_swaps_and_reserve():
    p = pos()
    acts = kinds(p, "merchant")
    assert {(a.token_columns, a.reserve) for a in acts} == {
        ((3, 4), False), ((3, 5), False), ((4, 5), False), ((3,), True), ((4,), True), ((5,), True)}
    q = only(p, ability(p, actor="merchant", column=4, token_columns=(3, 4)))
    assert q.tokens[3] == "election" and q.tokens[4] == "vote"


def test_merchant_swap_keeps_token_knowledge_with_the_token():
    p = pos()
    q = only(p, Action("look", "merchant", 4))
    assert q.knowledge.A.tokens == {4}
    r = only(q, Action("ability", "merchant", 4, token_columns=(4, 5)))
    assert r.knowledge.A.tokens == {5} and r.tokens[5] == "election"


def test_merchant_reserve_swap_outcomes():
    p = pos()
    outs = outcomes(p, ability(p, actor="merchant", column=4, token_columns=(4,), reserve=True))
    assert {o.condition: str(o.probability) for o in outs} == {"reserve draw: vote": "3/5", "reserve draw: x": "2/5"}
    for o in outs:
        assert "election" in o.position.reserve and len(o.position.reserve) == 5


def test_merchant_with_mayor_five_tokens():
    p = pos(A=["governor", "hitman", "sheriff", "mayor", "merchant", "dancer", "journalist", "bandit"])
    ext = {(a.token_columns, a.reserve) for a in kinds(p, "merchant") if a.mayor == 3}
    assert ext == {((2, 3), False), ((2, 4), False), ((2, 5), False), ((2, 6), False), ((3, 6), False),
                   ((4, 6), False), ((5, 6), False), ((2,), True), ((6,), True)}
    q = only(p, ability(p, actor="merchant", column=4, mayor=3, token_columns=(2, 6)))
    assert q.tokens[2] == "handcuffs" and q.tokens[6] == "bullet"


def test_merchant_edge_columns():
    p = pos(A=["merchant", "hitman", "sheriff", "governor", "indian", "dancer", "journalist", "bandit"])
    assert {(a.token_columns, a.reserve) for a in kinds(p, "merchant")} == {((0, 1), False), ((0,), True), ((1,), True)}
    p = pos(A=["governor", "hitman", "sheriff", "indian", "bandit", "dancer", "mayor", "merchant"])
    ext = {(a.token_columns, a.reserve) for a in kinds(p, "merchant") if a.mayor == 6}
    assert ext == {((5, 6), False), ((5, 7), False), ((5,), True)}


def test_merchant_skips_empty_columns_and_empty_reserve():
    p = pos(tokens=["vote", "x", "bullet", "empty", "election", "vote", "handcuffs", "x"], reserve=[],
            supply={"A": {"vote": 4}}, discard={"x": 2})
    assert {a.token_columns for a in kinds(p, "merchant")} == {(4, 5)}


# ---------------------------------------------------------------- Dancer (rule:O9)


def test_dancer_pulls_and_shifts():
    p = pos()
    q = only(p, ability(p, actor="dancer", column=5, target=3))
    assert q.street.B == ("bandit", "reverend", "mayor", "hitman", "sheriff", "governor", "merchant", "dancer")
    q = only(p, ability(p, actor="dancer", column=5, target=7))
    assert q.street.B == ("bandit", "reverend", "mayor", "governor", "hitman", "dancer", "sheriff", "merchant")


def test_dancer_knowledge_follows_the_shift():
    p = pos()
    q = only(p, Action("ability", "indian", 3, target=3))  # A knows B's governor at 3
    r = only(q, Action("ability", "dancer", 5, target=3))
    assert r.knowledge.A.characters == {5} and r.street.B[5] == "governor"


def test_dancer_edges_and_immobilized():
    p = pos(A=["dancer", "hitman", "sheriff", "indian", "merchant", "governor", "journalist", "bandit"])
    assert {a.target for a in kinds(p, "dancer")} == {1, 2}
    p = pos(A=["governor", "hitman", "sheriff", "indian", "merchant", "bandit", "journalist", "dancer"])
    assert {a.target for a in kinds(p, "dancer")} == {5, 6}
    p = pos(B=["hitman", "reverend", "mayor", "governor", "bandit", "sheriff", "merchant", "dancer"],
            immobilized=[["B", 4]])
    assert {a.target for a in kinds(p, "dancer")} == {6, 7}


# ---------------------------------------------------------------- Journalist (rule:O-journalist)


def test_journalist_right_call_marks():
    p = pos()
    acts = kinds(p, "journalist")
    assert len(acts) == 9 and all(a.call != "governor" for a in acts)
    q = only(p, ability(p, actor="journalist", column=6, call="merchant", target=6))
    assert q.front_page == {("B", "merchant")} and q.supply.A.front_page == 2
    assert position_to_json(q)["front_page"] == [["B", 6]]
    assert not [a for a in kinds(q, "journalist") if a.target == 6]  # already marked


def test_journalist_wrong_call_discards_marker():
    p = pos()
    q = only(p, ability(p, actor="journalist", column=6, call="hitman", target=6))
    assert not q.front_page and q.supply.A.front_page == 2 and q.discard.front_page == 1


def test_journalist_needs_markers_and_mayor_extends():
    assert kinds(pos(supply={"A": {"front_page": 0}}), "journalist") == []
    p = pos(A=["governor", "hitman", "sheriff", "indian", "merchant", "mayor", "journalist", "bandit"])
    assert {a.target for a in kinds(p, "journalist") if a.mayor == 5} == {5, 7}


def test_marked_character_follows_moves():
    p = pos(front_page=[["A", 3]], supply={"B": {"front_page": 2}})  # B's Journalist marked him: 6 markers in all
    q = only(p, Action("move", columns=(3, 4), swap=True))
    assert position_to_json(q)["front_page"] == [["A", 4]]


# ---------------------------------------------------------------- Bandit (rule:O-bandit, rule:O10)

B_HIT7 = ["bandit", "reverend", "mayor", "governor", "dancer", "sheriff", "merchant", "hitman"]


def test_bandit_right_call_steals():
    p = pos(B=B_HIT7)
    q = only(p, ability(p, actor="bandit", column=7, call="hitman", target=7))
    assert q.supply.A.bullet == 2 and q.supply.B.bullet == 0


def test_bandit_wrong_call_no_effect():
    p = pos(B=B_HIT7)
    q = only(p, ability(p, actor="bandit", column=7, call="sheriff", target=7))
    assert q.supply == p.supply


def test_bandit_empty_supply_readings():
    p = pos(B=B_HIT7, supply={"B": {"bullet": 0}}, discard={"bullet": 1})
    q = only(p, ability(p, actor="bandit", column=7, call="hitman", target=7))
    assert q.supply == p.supply
    forbidden = OutlawsReadings(bandit_empty_supply="forbidden")
    assert {a.call for a in kinds(p, "bandit", forbidden)} == {"sheriff"}


# ---------------------------------------------------------------- Reverend, immobilized (rule:O-reverend)

A_REV = ["governor", "hitman", "sheriff", "indian", "merchant", "bandit", "reverend", "journalist"]


def test_reverend_frees_bandit_to_his_left():
    p = pos(A=A_REV, immobilized=[["A", 5]])
    q = only(p, ability(p, actor="reverend", column=6, target=5))
    assert not q.immobilized
    assert kinds(pos(A=A_REV), "reverend") == []


def test_immobilized_never_moves_nor_acts():
    p = pos(A=A_REV, immobilized=[["A", 5]])
    acts = legal_actions(p)
    assert all(5 not in a.columns for a in acts if a.kind == "move")
    assert all(a.actor != "bandit" for a in acts)


def test_immobilized_cannot_be_targeted_under_the_alternative():
    p = pos(A=["hitman", "governor", "sheriff", "indian", "merchant", "dancer", "journalist", "bandit"],
            immobilized=[["B", 0]])
    assert kinds(p, "hitman", OutlawsReadings(target_immobilized="forbidden")) == []
    assert kinds(p, "hitman") == [Action("ability", "hitman", 0, target=0)]  # rule:O15 default


# ---------------------------------------------------------------- Governor (rule:O5, rule:O-governor)

A_GOV4 = ["indian", "hitman", "sheriff", "merchant", "governor", "dancer", "journalist", "bandit"]


def test_governor_needs_more_votes():
    p = pos(A=A_GOV4)
    assert not [a for a in legal_actions(p) if a.actor == "governor" and a.kind != "look"]
    p = pos(A=A_GOV4, supply={"A": {"vote": 1}})
    got = {(a.kind, a.call) for a in legal_actions(p) if a.actor == "governor"}
    assert got == {("look", None), ("take", "election"), ("ability", None)}


def test_governor_takes_election_good_victory():
    p = pos(A=A_GOV4, supply={"A": {"vote": 1}})
    for a in (Action("take", "governor", 4, call="election"), Action("ability", "governor", 4)):
        for o in outcomes(p, a, ALWAYS):
            assert (o.position.winner, o.position.victory) == ("A", "good")
            assert o.position.supply.A.election == 1
    # the ability "per prendere il gettone Elezione" has no choice; the Take's "puoi tenere" has (rule:O16)
    assert all(o.position.victory == "good" for o in outcomes(p, Action("ability", "governor", 4)))
    take = outcomes(p, Action("take", "governor", 4, call="election"))
    assert all(o.position.victory == "good" for o in take if o.condition.startswith("A keeps the token"))
    back = [o.position for o in take if o.condition == "A puts the token back"]
    assert len(back) == 1 and back[0].winner is None and back[0].tokens == p.tokens


def test_governor_ability_fails_on_other_token():
    p = pos(A=A_GOV4, supply={"A": {"vote": 1}}, tokens=["vote", "x", "bullet", "election", "vote", "vote", "handcuffs", "x"])
    q = only(p, Action("ability", "governor", 4))
    assert q.winner is None and q.tokens == p.tokens and 4 in q.knowledge.A.tokens and 4 in q.knowledge.B.tokens


def test_illegal_action_is_bad_input():
    with pytest.raises(BadInput):
        apply(pos(), Action("ability", "hitman", 1, target=2))
    with pytest.raises(BadInput):
        apply(pos(), Action("look", "indian", 3), outcome=5)


def test_unknown_target_enumerates_identities():
    data = build(B=["bandit", "reverend", "mayor", None, "hitman", "sheriff", "merchant", None],
                 saloon={"A": ["reverend", "mayor"], "B": ["indian", "journalist"]})
    from solver.outlaws.position_json import load_position
    p = load_position(data)
    outs = outcomes(p, Action("ability", "indian", 3, target=3))
    assert sorted(o.condition for o in outs) == ["B column 3 is dancer", "B column 3 is governor"]
    assert {o.position.street.B[3] for o in outs} == {"dancer", "governor"}


def test_every_action_has_a_description():
    for p in (pos(), pos(A=A_MAYOR), pos(A=A_REV, immobilized=[["A", 5]])):
        texts = [a.describe("A") for a in legal_actions(p)]
        assert all(t.startswith("A: ") and len(t) > 10 for t in texts)
    a = Action("ability", "sheriff", 2, call="hitman", target=3, mayor=1)
    assert a.describe() == "the sheriff (column 2) reveals the opposing column 3 calling hitman, extended by the mayor (column 1)"
