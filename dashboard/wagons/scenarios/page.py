"""Lone Cowboy scenarios: simulated outcome distributions per scenario and player policy
(:func:`solver.wagons.simulate.simulate`), as Polars tables and Altair charts; the best-play table and the
difficulty atlas.

The page opens at once from stored rows (:mod:`dashboard.wagons.scenarios.rows`); other settings are simulated on
demand (**Simulate them**, with progress), never before the page has drawn. Its inputs and the last best-play table
are this browser's kept work (a reload, a closed tab, a restarted server keep them); numbers are typed and read as
typed (:mod:`dashboard.shared.boxes`), and a table never answers other inputs than those shown."""

from __future__ import annotations

import html

import altair as alt
import polars as pl
import streamlit as st

from dashboard.nav import page_header
from dashboard.shared.boxes import whole_box
from dashboard.shared.caching import cache_final, dumps, proven
from dashboard.shared.readings import make_readings, readings_class, readings_summary
from dashboard.shared.runs import ProgressBox, keep_stopped, run_with_progress
from dashboard.shared.widgets import guarded, kept
from dashboard.shared.work import store
from dashboard.wagons import view as wv
from dashboard.wagons.cards import reading as card_reading
from dashboard.wagons.scenarios import rows as rows
from solver.errors import BadInput
from solver.execution.progress import OnProgress, Progress
from solver.paths import SCENARIOS
from solver.stopping import StopSignal, stopped
from solver.wagons.optimizer import atlas
from solver.wagons.optimizer import bestplay as bp

page_header("wagons_scenarios")
cls = readings_class("wagons")
readings = make_readings("wagons", cls)
st.caption(readings_summary("wagons", cls))
scen = wv.scenarios()
SIM_GAMES, BEST_PLAY_SECONDS = 100, 60  # the defaults of `wagons simulate --games` and `wagons best-play --time-limit`


@cache_final(proven, max_entries=512)
def best_play_row_cached(scenario: str, seed: int, time_limit: float, readings_json: str) -> dict:
    """One deal's best play vs greedy (solver.wagons.optimizer.bestplay.best_play_row), cached per input."""
    import json

    from solver.wagons.optimizer.bestplay import best_play_row

    return best_play_row(scenario, seed, time_limit, json.loads(readings_json))


def best_play_rows(jobs: tuple, time_limit: float, readings_json: str,
                   progress: OnProgress | None = None) -> list[dict]:
    """:func:`best_play_row_cached` for each ``(scenario, seed)`` in turn, ``progress`` after each; asked to stop
    (the page's Stop), the rows so far."""
    done: list[dict] = []
    for s, sd in jobs:
        done.append(best_play_row_cached(s, sd, time_limit, readings_json))
        if progress is not None:
            progress(Progress(len(done), len(jobs), "deals"))
        if stopped():
            break
    return done


def show_simulations(df: pl.DataFrame) -> None:
    """The difficulty table, the win rates and margins, and what made the opponent's drafts, from game rows."""
    df = df.with_columns(pl.col("scenario").replace_strict({k: v["name"] for k, v in scen.items()},
                                                           default=pl.col("scenario")).alias("scenario name"))
    st.session_state.sc_games = df.height
    summary = (df.group_by(["scenario name", "policy"])
               .agg(pl.len().alias("games"), (pl.col("winner") == "player").mean().alias("player win rate"),
                    (pl.col("winner") == "tie").mean().alias("tie rate"),
                    pl.col("margin").mean().round(1).alias("mean margin"),
                    pl.col("margin").median().alias("median margin"),
                    pl.col("player_total").mean().round(1).alias("mean player score"),
                    pl.col("opponent_total").mean().round(1).alias("mean opponent score"))
               .sort(["player win rate", "mean margin"]))
    st.subheader("Difficulty table")
    st.caption("Hardest first: lowest player win rate, then lowest mean margin (player minus opponent).")
    st.dataframe(summary.with_columns(pl.col("player win rate").round(3), pl.col("tie rate").round(3)),
                 hide_index=True, width="stretch")
    left, right = st.columns(2)
    with left:
        st.altair_chart(win_chart(summary), width="stretch")
    with right:
        st.altair_chart(margin_chart(df))
    drafts_chart(df)
    with st.expander("All games (one row each)"):
        st.dataframe(df, hide_index=True, width="stretch")


def win_chart(summary: pl.DataFrame) -> alt.Chart:
    return alt.Chart(summary).mark_bar().encode(
        y=alt.Y("scenario name:N", title=None, sort="x", axis=alt.Axis(labelLimit=220)),
        x=alt.X("player win rate:Q", scale=alt.Scale(domain=[0, 1]), title="Player win rate",
                axis=alt.Axis(format="%")),
        color=alt.Color("policy:N", title="Player policy"), yOffset="policy:N",
        tooltip=["scenario name", "policy", "games", alt.Tooltip("player win rate:Q", format=".1%")]
    ).properties(title="Player win rate per scenario", height=320)


def margin_chart(df: pl.DataFrame) -> alt.FacetChart:
    return alt.Chart(df.select("scenario name", "policy", "margin")).mark_bar(opacity=0.7).encode(
        x=alt.X("margin:Q", bin=alt.Bin(maxbins=25), title="margin (player - opponent)"),
        y=alt.Y("count():Q", title="games", stack=None), color=alt.Color("policy:N", title="Player policy",
                                                                        legend=alt.Legend(orient="bottom")),
        tooltip=[alt.Tooltip("policy:N", title="Player policy"), alt.Tooltip("count():Q", title="games")]
    ).properties(height=80, width=250).facet(row=alt.Row("scenario name:N", title=None, header=alt.Header(
        labelAngle=0, labelAlign="left", labelOrient="top", labelFontWeight="bold"))).properties(
        title=alt.TitleParams(["Final margin (player minus opponent),", "per scenario"]),  # two lines: a phone
        padding={"left": 14, "top": 5, "right": 5, "bottom": 5},  # the "games" axis title whole on a phone
    ).resolve_scale(x="shared").resolve_axis(x="independent")  # every histogram with its x scale, the same one


def drafts_chart(df: pl.DataFrame) -> None:
    rule_cols = [c for c in df.columns if c.startswith("rule_")]
    if not rule_cols:
        return
    st.subheader("What made the opponent's drafts")
    used = (df.group_by("scenario name").agg([pl.col(c).sum() for c in rule_cols])
            .unpivot(index="scenario name", variable_name="rule", value_name="drafts")
            .filter(pl.col("drafts") > 0)
            .with_columns(pl.col("rule").str.strip_prefix("rule_").map_elements(wv.draft_reason,
                                                                               return_dtype=pl.String))
            .group_by(["scenario name", "rule"], maintain_order=True).agg(pl.col("drafts").sum()))
    reasons = [r for r in dict.fromkeys(wv.DRAFT_REASONS.values()) if r in set(used["rule"].to_list())]
    st.altair_chart(alt.Chart(used).mark_bar().encode(
        y=alt.Y("scenario name:N", title=None, axis=alt.Axis(labelLimit=220)),
        x=alt.X("drafts:Q", stack="normalize", title="share of the opponent's drafts", axis=alt.Axis(format="%")),
        color=alt.Color("rule:N", title="What made the draft", sort=list(wv.DRAFT_REASONS.values()),
                        scale=alt.Scale(domain=reasons, range=DRAFT_COLOURS[:len(reasons)]), legend=None),
        tooltip=[alt.Tooltip("scenario name:N", title="Scenario"), alt.Tooltip("rule:N", title="What made the draft"),
                 alt.Tooltip("drafts:Q", title="Drafts")]).properties(
        title=alt.TitleParams(["Share of the opponent's drafts", "by what made them, per scenario"]),
        height=alt.Step(30)), width="stretch")
    # the key below the chart as text that wraps (a chart's own legend is cut off on a phone)
    st.html("<div style='font:13px sans-serif'><b>What made the draft</b><br>" + "".join(
        f"<span style='display:inline-block;margin:2px 12px 2px 0'><span style='display:inline-block;width:12px;"
        f"height:12px;background:{c};vertical-align:middle'></span> {html.escape(r)}</span>"
        for r, c in zip(reasons, DRAFT_COLOURS)) + "</div>")


DRAFT_COLOURS = ["#1565c0", "#90caf9", "#e53935", "#f8a5a5", "#26a69a", "#8d6e63"]  # one per reason, in order
SECONDS_PER_GAME = {"greedy": 0.4, "random": 0.02}  # about, per game on this machine (the progress bar's estimate)


def simulations(chosen: list, policies: list, n: int, seed: int) -> None:
    """The simulated games of the chosen scenarios and policies: from the stored rows or this server's earlier
    runs at once; a batch neither holds is simulated only when asked (**Simulate**), with progress."""
    jobs = [(s, p) for s in chosen for p in policies]
    cards = card_reading.cards_json()  # the numbers read off the player's cards, if any
    frames = {job: rows.known_batch(*job, n, seed, readings_doc, cards) for job in jobs}
    missing = [job for job, frame in frames.items() if frame is None]
    if missing:
        games = n * len(missing)
        seconds = sum(n * SECONDS_PER_GAME.get(p, 0.4) for _, p in missing)
        st.info(f"{rows_words(missing, jobs)} not simulated yet for these settings ({games:,} games, about "
                f"{seconds:,.0f} s). The stored rows cover {rows.STORED_GAMES} games each from seed "
                f"{rows.STORED_SEED}, under the default readings or Boom or Bust read flat.", icon=":material/bolt:")
        if not st.button("Simulate them", key="sc_simulate", type="primary", icon=":material/play_arrow:"):
            return
        box = ProgressBox()
        with guarded("Simulation: "):
            run_with_progress(rows.simulate_missing, missing, n, seed, readings_doc, box, cards, label="Simulating",
                              expected_seconds=max(seconds, 1.0), box=box, cancel=StopSignal())
        st.rerun()
    stored_all = all(rows.stored_batch(*job, n, seed, readings_doc, cards) is not None for job in jobs)
    st.caption(f"{n:,} games per scenario and policy from seed {seed:,}: "
               + ("stored rows (`scenarios/wagons/simulations.md`), the engine's own games."
                  if stored_all else "simulated by the engine on this server."))
    show_simulations(pl.concat(list(frames.values()), how="diagonal_relaxed"))


def rows_words(missing: list, jobs: list) -> str:
    return ("Every scenario and policy is" if len(missing) == len(jobs)
            else f"{len(missing)} of the {len(jobs)} scenario and policy pairs are")


INPUTS = "wagons_scenarios"  # session key and kept work: the page's inputs {widget key: value}
BOXES = ("sc_scenarios", "sc_policies", "sc_n", "sc_seed", "sc_bp_deals", "sc_bp_limit", "sc_bp_seed")


def load_inputs(doc) -> dict:
    """Kept inputs: the scenarios and policies the page lists, the boxes' texts (checked when read, as typed)."""
    if not isinstance(doc, dict) or not set(doc) <= set(BOXES):
        raise BadInput("the kept Scenarios inputs are not this page's")
    lists = {"sc_scenarios": list(scen), "sc_policies": ["greedy", "random"]}
    for key, allowed in lists.items():
        if key in doc and not (isinstance(doc[key], list) and set(doc[key]) <= set(allowed)):
            raise BadInput("the kept Scenarios inputs name a scenario or policy this page does not list")
    if not all(isinstance(doc[k], str) for k in doc if k not in lists):
        raise BadInput("the kept Scenarios inputs hold a box that is not text")
    return doc


if INPUTS not in st.session_state:
    store.sync(INPUTS, load=load_inputs)
    for box, value in st.session_state.get(INPUTS, {}).items():  # before the widgets are drawn
        st.session_state[box] = st.session_state[f"{box}__kept"] = value
readings_doc = readings.to_json()
c = st.columns([3, 2, 1, 1])
# each input keeps its value while another page is shown (common.kept)
chosen = kept(c[0].multiselect, "sc_scenarios", list(scen), "Scenarios", list(scen), format_func=lambda s: scen[s]["name"])
policies = kept(c[1].multiselect, "sc_policies", ["greedy", "random"], "Player policies", ["greedy", "random"],
                help="greedy: each placement maximises the current margin; random: any legal move")
n = whole_box("Games each", "sc_n", SIM_GAMES, 1, 2000, where=c[2], help=f"As `wagons simulate --games` (default {SIM_GAMES})")
seed = whole_box("Seed", "sc_seed", 0, 0, 10**6, where=c[3], help="As `wagons simulate --seed` (default 0)")

if not chosen or not policies:
    st.info("Pick at least one scenario and one policy.")
elif n is None or seed is None:
    st.info("The simulated tables are hidden until the box above is fixed.", icon=":material/block:")
else:
    simulations(chosen, policies, n, seed)

def load_best_play(doc) -> tuple:
    """A kept best-play answer: (deals as (scenario, seed) pairs, seconds per deal, rows, stopped)."""
    if not isinstance(doc, list) or len(doc) != 4 or not isinstance(doc[2], list):
        raise BadInput("the kept best-play table is not one this page wrote")
    return tuple(tuple(j) for j in doc[0]), float(doc[1]), doc[2], bool(doc[3])


def show_best_play(found: list) -> None:
    table = pl.DataFrame(found)
    summary_bp = bp.difficulty_summary(table).with_columns(
        pl.col("scenario").replace_strict({k: v["name"] for k, v in scen.items()}, default=pl.col("scenario")))
    st.dataframe(summary_bp, hide_index=True, width="stretch")
    points = table.with_columns(
        pl.col("scenario").replace_strict({k: v["name"] for k, v in scen.items()}, default=pl.col("scenario")),
        pl.when(pl.col("proven")).then(pl.lit("proven optimal")).otherwise(pl.lit("best found, not proven"))
        .alias("best play"))
    st.altair_chart(alt.Chart(points).mark_circle(size=80).encode(
        x=alt.X("greedy_margin:Q", title="Greedy policy's margin"), y=alt.Y("best_margin:Q", title="Best play's margin"),
        color=alt.Color("scenario:N", title="Scenario"), shape=alt.Shape("best play:N", title="Best play"),
        tooltip=[alt.Tooltip("scenario:N", title="Scenario"), alt.Tooltip("seed:Q", title="Deal seed"),
                 alt.Tooltip("greedy_margin:Q", title="Greedy margin"), alt.Tooltip("best_margin:Q", title="Best margin"),
                 alt.Tooltip("best play:N", title="Best play")]
    ).properties(title="Best play vs greedy, per deal", height=280), width="stretch")


st.subheader("Difficulty with best play")
st.caption("For each deal, the optimizer searches the player's best drafts and placements against the "
           "rules-following opponent and compares the best margin with the greedy policy's. "
           "Each deal gets its own time limit; an unproven answer is a lower bound.")
dc = st.columns(3)
deals = whole_box("Deals per scenario", "sc_bp_deals", 1, 1, 50, where=dc[0])
limit = whole_box("Seconds per deal", "sc_bp_limit", BEST_PLAY_SECONDS, 1, 120, where=dc[1],
                  help=f"As `wagons best-play --time-limit` (default {BEST_PLAY_SECONDS}); a deal proven sooner stops sooner")
bseed = whole_box("First deal seed", "sc_bp_seed", 0, 0, 10**6, where=dc[2])
store.sync("sc_bp_result", load=load_best_play)
asked = None if None in (deals, limit, bseed) or not chosen else (
    tuple((s, bseed + i) for s in chosen for i in range(deals)), float(limit))
if asked is None:
    st.info("Fix the box above (and pick a scenario) to ask for the best-play table.", icon=":material/block:")
elif st.button("Compute the best-play difficulty table", key="sc_bp_run"):
    jobs, seconds = asked
    box = ProgressBox()
    with guarded("Best play: "):
        st.session_state.sc_bp_result = (jobs, seconds, run_with_progress(
            best_play_rows, jobs, seconds, dumps(readings.to_json()), box, label="Best play",
            expected_seconds=seconds * len(jobs), box=box, cancel=StopSignal(), keep=keep_stopped("sc_bp_result", shape=lambda rows: (jobs, seconds, rows, True))),
            False)
res = st.session_state.get("sc_bp_result")
if res and (asked is None or (res[0], res[1]) != asked):
    st.caption("The last best-play table answered other scenarios, deals or seconds: ask again for these.")
elif res and res[3]:
    st.caption(f"You stopped this run: {len(res[2])} of {len(res[0])} deals are in the table, the last of them "
               "searched only until you stopped it.")
if res and res[2] and asked is not None and (res[0], res[1]) == asked:
    show_best_play(res[2])
store.persist("sc_bp_result")

st.subheader("Difficulty atlas: can each deal be won with perfect play?")
ATLAS = SCENARIOS / "wagons" / "atlas.parquet"


@st.cache_data(show_spinner=False)
def atlas_rows(path: str) -> pl.DataFrame:
    """The measured atlas rows shipped with the project (provenance: scenarios/wagons/atlas.md)."""
    return pl.read_parquet(path)


with guarded("Atlas: "):
    arows = atlas_rows(str(ATLAS)).with_columns(
        pl.col("scenario").replace_strict({k: v["name"] for k, v in scen.items()}, default=pl.col("scenario"))
        .alias("scenario name"),
        pl.col("reading").map_elements(atlas.reading_title, return_dtype=pl.Utf8).alias("reading title"))
    st.session_state.sc_atlas_rows = arows.height
    st.caption(f"Measured, not computed on this page: {arows.height} rows (deal x reading) from "
               "`bench/wagons/bench_wagons_canwin.py`, seeds "
               f"{arows['seed'].min()} to {arows['seed'].max()} per scenario; how they were made: "
               "`scenarios/wagons/atlas.md`. A deal is winnable when some line of drafts and placements beats the "
               "rules-following opponent (a replayed win), not winnable when every draft line is proven below a "
               "win; undecided deals ran out of time. Boomtown is shown under both readings of Boom or Bust "
               "(its numbers come from one unofficial source, W11).")
    summary_atlas = atlas.atlas_table(arows.drop("scenario name", "reading title")).with_columns(
        pl.col("scenario").replace_strict({k: v["name"] for k, v in scen.items()}, default=pl.col("scenario")),
        pl.col("reading").map_elements(atlas.reading_title, return_dtype=pl.Utf8))
    st.dataframe(summary_atlas.select(
        pl.col("scenario"), pl.col("reading"), pl.col("deals"), pl.col("decided"), pl.col("undecided"),
        pl.col("winnable_share").round(3).alias("winnable with perfect play"),
        pl.col("greedy_win_share").round(3).alias("greedy wins (same deals)"),
        pl.col("best_margin_median").alias("median best margin"),
        pl.col("best_margin_min").alias("lowest best margin"), pl.col("best_margin_max").alias("highest best margin"),
        pl.col("best_proven").alias("best margin proven")), hide_index=True, width="stretch")
    shares = (summary_atlas.with_columns((pl.col("scenario") + " · " + pl.col("reading")).alias("scenario and reading"))
              .select("scenario and reading", pl.col("winnable_share").alias("perfect play"),
                      pl.col("greedy_win_share").alias("greedy policy"))
              .unpivot(index="scenario and reading", variable_name="player", value_name="share of decided deals won"))
    st.altair_chart(alt.Chart(shares).mark_bar().encode(
        y=alt.Y("scenario and reading:N", title=None, axis=alt.Axis(labelLimit=360)),
        x=alt.X("share of decided deals won:Q", title="share of decided deals won", scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        color=alt.Color("player:N", title="who plays"), yOffset="player:N",
        tooltip=["scenario and reading", "player", alt.Tooltip("share of decided deals won:Q", format=".0%")]
    ).properties(title=["Deals won:", "perfect play vs the greedy policy"], height=360), width="stretch")  # two lines: whole on a phone
    margins = (arows.with_columns((pl.col("scenario name") + " · " + pl.col("reading title")).alias("scenario and reading"))
               .select("scenario and reading", "seed", pl.col("best_margin").alias("best margin"),
                       pl.col("greedy_margin").alias("greedy margin"),
                       pl.when(pl.col("best_proven")).then(pl.lit("proven best")).otherwise(pl.lit("best found"))
                       .alias("best margin is")))
    base = alt.Chart(margins).encode(y=alt.Y("scenario and reading:N", title=None, axis=alt.Axis(labelLimit=360)))
    st.altair_chart((base.mark_rule(color="#999").encode(x=alt.X("min(best margin):Q", title="best margin per deal (player - opponent); 0 = a tie"), x2="max(best margin):Q")
                     + base.mark_circle(size=90, opacity=0.8).encode(
                         x=alt.X("best margin:Q", title="best margin per deal (player - opponent); 0 = a tie"),
                         color=alt.Color("best margin is:N", title="the best margin is"),
                         tooltip=["scenario and reading", "seed", "best margin", "greedy margin", "best margin is"]))
                    .properties(title="Best margin per deal with perfect play", height=360), width="stretch")

st.session_state[INPUTS] = {box: st.session_state[box] for box in BOXES if box in st.session_state}
store.persist(INPUTS)
