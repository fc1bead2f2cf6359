"""Build the three analysis notebooks from the cells below (reproducible: rerun after editing).

    .venv/bin/python notebooks/build.py        # writes notebooks/{wagons,cactus,outlaws}.ipynb

Each notebook uses the ``solver`` API directly (no dashboard), shows Polars tables and Altair
charts, and keeps every search short (time limits, small batches) so that
``tests/project/test_notebooks.py`` can execute it top to bottom in well under a minute.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

WAGONS = [
    ("md", """# Circle the Wagons: Lone Cowboy - scoring a town and its best layout

Uses `solver.wagons` directly. The town below is the rulebook's six-card scoring example
(docs/outside-facts.md), scored under the default readings of the open questions (W1-W10)."""),
    ("code", """import polars as pl
import altair as alt
from solver.wagons.readings import WagonsReadings
from solver.wagons.town import town_from_dict, visible_grid
from solver.wagons.scoring import final_scores

readings = WagonsReadings()
town = town_from_dict({"placements": [
    {"card": 13, "x": 1, "y": 1, "rot": 0}, {"card": 4, "x": 0, "y": 1, "rot": 0},
    {"card": 14, "x": 3, "y": 1, "rot": 0}, {"card": 0, "x": 4, "y": 0, "rot": 0},
    {"card": 2, "x": 0, "y": 3, "rot": 0}, {"card": 1, "x": 2, "y": 3, "rot": 0}]})
pile = (3, 7, 11)
result = final_scores(town, pile, "boomtown", readings)
groups = pl.DataFrame([{"terrain": t, "largest group": n} for t, n in result.player.groups.items()])
assert groups["largest group"].sum() == 20  # the rulebook's figure
groups"""),
    ("code", """breakdown = pl.DataFrame(
    [{"side": "player", "item": f"group {t}", "points": n} for t, n in result.player.groups.items()]
    + [{"side": "player", "item": g, "points": n} for g, n in result.player.goals.items()]
    + [{"side": "opponent", "item": "3 most common terrains", "points": result.opponent.common}]
    + [{"side": "opponent", "item": g, "points": n} for g, n in result.opponent.goals.items()])
print("winner:", result.winner, "| player", result.player.total, "| opponent", result.opponent.total)
alt.Chart(breakdown).mark_bar().encode(x="points:Q", y=alt.Y("side:N", title=None), color="item:N",
                                       tooltip=["side", "item", "points"]).properties(title="Score breakdown")"""),
    ("md", """## The best layout of the same cards

The optimizer places the same cards in the same order (each later card on top) to maximise the
player's score; the time limit is short here, so `proven_optimal` may be false."""),
    ("code", """from solver.wagons.optimizer.layout import best_layout

best = best_layout(list(town.card_ids), "boomtown", list(pile), readings=readings, time_limit=5.0).to_dict()
print("best score found:", best["score"], "proven optimal:", best["proven_optimal"], "| this town:", result.player.total)
assert best["score"] >= result.player.total
best_town = town_from_dict({"placements": best["placements"]})
cells = pl.DataFrame([{"x": x, "y": y, "terrain": t.terrain, "icon": t.icon} for (x, y), t in visible_grid(best_town).items()])
alt.Chart(cells).mark_rect().encode(x="x:O", y="y:O", color="terrain:N", tooltip=["x", "y", "terrain", "icon"]) \\
    .properties(title="Best layout found", width=300, height=250)"""),
    ("md", "## A small batch of simulated games per scenario"),
    ("code", """from solver.wagons.simulate import simulate
from solver.wagons.data import SCENARIO_IDS

games = pl.concat([simulate(5, s, "greedy", seed=0) for s in SCENARIO_IDS])
table = (games.group_by("scenario").agg(pl.len().alias("games"), (pl.col("winner") == "player").mean().alias("win rate"),
                                        pl.col("margin").mean().alias("mean margin")).sort("mean margin"))
table"""),
    ("code", """alt.Chart(games).mark_boxplot().encode(x="margin:Q", y=alt.Y("scenario:N", title=None)).properties(
    title="Margin (player - opponent), greedy player, 5 games each")"""),
    ("md", """## A rules question of your own

A question is data (`solver.ask`): the game, what it ranges over, what it asks and a condition over the game's
named measures. `ask(question)` answers it with its proof, the town that shows it and the readings it rests on;
`ruleslinger ask FILE.toml` and the dashboard's *Ask a rules question* page answer the same questions."""),
    ("code", """from solver.ask.engine import ask
from solver.ask.question import question_from_doc
from solver.io.read import parse_toml_text

question = question_from_doc(parse_toml_text('''
game = "wagons"
ask = "exists"
where = "player.icon.mine >= 1 and goal.claim-jumpers == 4 and opponent.goal.claim-jumpers == 5"
[domain]
kind = "towns"
cards = [1, 6]
scenario = "gold-rush"
pile = [10]
''', "question"))
answer = ask(question, time_limit=30)
print(answer.sentence)
print("answer:", answer.short(), "|", answer.method, "| proven:", answer.proven, f"| {answer.elapsed:.2f} s")
assert answer.verdict == "yes"
print("the town that shows it:", answer.witness["town"]["placements"])
pl.DataFrame([{"measure": name, "value": str(value)} for name, value in answer.witness_values.items()])"""),
]

CACTUS = [
    ("md", """# Cactus Town: The Lone Ranger - marshal odds and an invariant check

Uses `solver.cactus` directly, default readings of C1-C15. Exact probabilities are fractions."""),
    ("code", """from fractions import Fraction
import polars as pl
import altair as alt
from solver.cactus.odds import marshal_odds
from solver.cactus.readings import CactusReadings

rows = []
for players in (None, 2, 3, 4, 5):
    result = marshal_odds(players, CactusReadings())
    for rnd, p in result["rounds"].items():
        rows.append({"game": "solo" if players is None else f"{players} players", "round": int(rnd),
                     "exact": p, "probability": float(Fraction(p))})
odds = pl.DataFrame(rows)
assert odds.group_by("game").agg(pl.col("probability").sum())["probability"].min() > 0.999
odds.filter(pl.col("game") == "solo")"""),
    ("code", """alt.Chart(odds).mark_line(point=True).encode(x="round:O", y="probability:Q", color="game:N",
                                            tooltip=["game", "round", "exact"]).properties(
    title="Round in which the marshal's arrival ends the game")"""),
    ("md", "### One open reading changes the answer: C2 (what happens from round 12 in solo)"),
    ("code", """compare = pl.DataFrame([{"short_deck": sd, "expected round": float(Fraction(marshal_odds(None, CactusReadings(short_deck=sd))["expected_round"] or "0"))}
                        for sd in ("no_second_shot", "keep_second_shot", "stop_archiving")])
compare"""),
    ("md", "## Invariant checks (Z3): the solo deck checks and one event-deck check"),
    ("code", """from solver.cactus.verify import checks as cv

checks = list(cv.verify(players=(), quick=True)["checks"]) + [cv.check_marshal_last_three(2).to_json()]
table = pl.DataFrame([{"id": c["id"], "holds": c["holds"], "status": c["status"], "elapsed": c["elapsed"]}
                      for c in checks])
assert table.filter(pl.col("id") == "event-marshal-last-3/p2")["holds"].item() is True
table"""),
    ("md", "## Duel odds"),
    ("code", """from solver.cactus.duel import duel_odds

duels = pl.DataFrame([{"initiator shot": a, "defender shot": 2, "win": float(Fraction(duel_odds(a, 2)["win"]))}
                      for a in range(0, 7)])
alt.Chart(duels).mark_bar().encode(x="initiator shot:O", y=alt.Y("win:Q", scale=alt.Scale(domain=[0, 1]))).properties(
    title="Initiator's chance to win against a second shot of 2")"""),
]

OUTLAWS = [
    ("md", """# Outlaws: Last Man Standing - legal actions and a win search

Uses `solver.outlaws` directly on a fully known set-up (seed 1), default readings of O1-O13."""),
    ("code", """import polars as pl
import altair as alt
from solver.outlaws.readings import OutlawsReadings
from solver.outlaws.position import initial_position
from solver.outlaws.position_json import position_to_json
from solver.outlaws.actions import legal_actions

readings = OutlawsReadings()
pos = initial_position(seed=1, readings=readings)
actions = [a.to_json() for a in legal_actions(pos, readings)]
by_kind = pl.DataFrame(actions, infer_schema_length=None).group_by("kind").len().sort("kind")
assert by_kind["len"].sum() == len(actions) > 0
by_kind"""),
    ("code", """alt.Chart(by_kind).mark_bar().encode(x="kind:N", y=alt.Y("len:Q", title="legal actions")).properties(
    title=f"{pos.to_move} to move: {len(actions)} legal actions")"""),
    ("md", "## Can either side still win? (bounded search, short time limit)"),
    ("code", """from solver.outlaws.actions import Action
from solver.outlaws.search.searches import win_possible

result = win_possible(pos, readings, max_depth=12, time_limit=5.0)
print("A can win:", result.A, "| B can win:", result.B, "| both answers proven:", result.proven)
print(result.reason)
line = result.line_A or result.line_B or ()
pl.DataFrame([{"step": i + 1, "side": e["side"], "action": Action.from_json(e["action"]).describe(),
               "hidden outcome": e["condition"]} for i, e in enumerate(line)])"""),
    ("md", "## Random playouts from fresh set-ups (short cap on the game length)"),
    ("code", """from solver.outlaws.search.playout import playouts, summary

games = playouts(10, seed=0, readings=readings, max_actions=300)
print(summary(games))
games.group_by(["finished", "victory"]).len().sort("len", descending=True)"""),
    ("code", """alt.Chart(games).mark_bar().encode(x=alt.X("length:Q", bin=alt.Bin(maxbins=20)), y="count():Q",
                                    color="victory:N").properties(title="Length of 10 random games (capped at 300 actions)")"""),
]


def build(cells, name: str = "nb") -> nbformat.NotebookNode:
    nb = new_notebook(cells=[new_markdown_cell(src) if kind == "md" else new_code_cell(src) for kind, src in cells])
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"{name}-{i:02d}"  # stable ids: rebuilding gives the same file
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    return nb


NOTEBOOKS = {"wagons": WAGONS, "cactus": CACTUS, "outlaws": OUTLAWS}


def main() -> None:
    for name, cells in NOTEBOOKS.items():
        path = HERE / f"{name}.ipynb"
        nbformat.write(build(cells, name), path)
        print(f"wrote {path.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
