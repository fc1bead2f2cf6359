"""Property tests (hypothesis): random towns and random typed text."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cactus import icons
from solver.cactus import town as tw
from solver.errors import BadInput

cells = st.tuples(st.integers(0, 4), st.integers(0, 4))
ICON_WORDS = ["RUN", "SNEAK", "SPRINT", "DUEL", "CONFUSE", "PASS", "DOUBLE-SNEAK", "H-SNEAK", "V-SNEAK", "[X:possible]", "[Y:not possible]"]


@st.composite
def towns(draw):
    n = draw(st.integers(1, 3))
    spots = draw(st.lists(cells, min_size=n, max_size=n))
    escaped = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    outlaws = tuple(tw.Outlaw(f"O{i}", None if e else c, 0, e) for i, (c, e) in enumerate(zip(spots, escaped)))
    grid = tuple(tuple("?" for _ in range(5)) for _ in range(5))
    return tw.Town(grid, draw(cells), outlaws)


@st.composite
def sequences(draw):
    elements = draw(st.lists(st.lists(st.sampled_from(ICON_WORDS), min_size=1, max_size=3), min_size=1, max_size=4))
    return " ".join("/".join(e) for e in elements)


@settings(max_examples=150, deadline=None)
@given(towns(), sequences())
def test_resolution_is_a_distribution_and_moves_only_close_in(town, text):
    outs = icons.resolve_sequence(town, icons.parse_sequence(text))
    assert sum(Fraction(o["p"]) for o in outs) == 1
    for o in outs:
        before = town.ranger
        for a in o["actions"]:
            steps = list(a.get("path") or ()) + ([a["pushed_to"]] if "pushed_to" in a else [])
            for cell in steps:  # every step (and a push after a lost duel, C11): one building, orthogonal
                assert abs(cell[0] - before[0]) + abs(cell[1] - before[1]) == 1
                before = tuple(cell)
        assert tuple(o["ranger"]) == before


@settings(max_examples=200, deadline=None)
@given(towns())
def test_every_step_shortens_the_distance_to_a_closest_outlaw(town):
    dist, tied = tw.closest_outlaws(town)
    for o in tw.step_options(town):  # "to" None: the drawn target has no step of this kind (C6)
        assert o["to"] is None or any(tw.distance(o["to"], t.at) == dist - 1 for t in tied)
    assert sum((o["p"] for o in tw.step_options(town)), Fraction(0)) in (0, 1)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_parser_raises_only_bad_input(text):
    try:
        icons.parse_card(text)
    except BadInput as exc:
        assert "\n" not in str(exc)
