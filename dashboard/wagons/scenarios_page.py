"""Lone Cowboy scenarios: simulated outcome distributions per scenario and player policy
(:func:`solver.wagons.simulate.simulate`), as Polars tables and Altair charts."""

from __future__ import annotations

import altair as alt
import polars as pl
import streamlit as st

from dashboard.shared.caching import cache_final, dumps, proven
from dashboard.shared.readings import make_rules, rules_class, rules_summary
from dashboard.shared.widgets import guarded, kept, page_header
from dashboard.shared.work import keep_stopped, run_with_progress
from dashboard.wagons import view as wv
from solver.paths import SCENARIOS
from solver.stopping import StopSignal, stopped
from solver.wagons import simulate as sim
from solver.wagons.optimizer import bestplay as bp
from solver.wagons.review import atlas

page_header("wagons_scenarios")
cls = rules_class("wagons")
rules = make_rules("wagons", cls)
st.caption(rules_summary("wagons", cls))
scen = wv.scenarios()
SIM_GAMES, BEST_PLAY_SECONDS = 100, 60  # the defaults of `wagons simulate --games` and `wagons best-play --time-limit`


@st.cache_data(show_spinner=False, max_entries=256)
def batch(scenario: str, policy: str, n: int, seed: int, rules_json: str) -> pl.DataFrame:
    """``n`` games of one scenario and policy (game i uses seed ``seed + i``), cached per input."""
    import json

    return sim.simulate(n, scenario, policy, seed, json.loads(rules_json))


@cache_final(proven, max_entries=512)
def best_play_row_cached(scenario: str, seed: int, time_limit: float, rules_json: str) -> dict:
    """One deal's best play vs greedy (solver.wagons.optimizer.bestplay.best_play_row), cached per input."""
    import json

    from solver.wagons.optimizer.bestplay import best_play_row

    return best_play_row(scenario, seed, time_limit, json.loads(rules_json))


def best_play_rows(jobs: tuple, time_limit: float, rules_json: str, done: list) -> list[dict]:
    """:func:`best_play_row_cached` for each ``(scenario, seed)`` in turn, each row appended to ``done`` as it
    comes; asked to stop (the page's Stop), the rows so far."""
    for s, sd in jobs:
        done.append(best_play_row_cached(s, sd, time_limit, rules_json))
        if stopped():
            break
    return list(done)


c = st.columns([3, 2, 1, 1])
# each input keeps its value while another page is shown (common.kept)
chosen = kept(c[0].multiselect, "sc_scenarios", list(scen), "Scenarios", list(scen), format_func=lambda s: scen[s]["name"])
policies = kept(c[1].multiselect, "sc_policies", ["greedy", "random"], "Player policies", ["greedy", "random"],
                help="greedy: each placement maximises the current margin; random: any legal move")
n = int(kept(c[2].number_input, "sc_n", SIM_GAMES, "Games each", 1, 2000, step=5,
             help=f"As `wagons simulate --games` (default {SIM_GAMES})"))
seed = int(kept(c[3].number_input, "sc_seed", 0, "Seed", 0, 10**6, help="As `wagons simulate --seed` (default 0)"))

if not chosen or not policies:
    st.info("Pick at least one scenario and one policy.")
    st.stop()

jobs = [(s, p) for s in chosen for p in policies]
bar = st.progress(0.0, text="Simulating...")
frames = []
with guarded("Simulation: "):
    for i, (s, p) in enumerate(jobs):
        bar.progress(i / len(jobs), text=f"Simulating {scen[s]['name']} with the {p} policy ({i + 1}/{len(jobs)})")
        frames.append(batch(s, p, n, seed, dumps(rules.to_json())))
bar.empty()
if len(frames) != len(jobs):
    st.stop()
df = pl.concat(frames, how="diagonal_relaxed").with_columns(
    pl.col("scenario").replace_strict({k: v["name"] for k, v in scen.items()}, default=pl.col("scenario")).alias("scenario name"))
st.session_state.sc_games = df.height

summary = (df.group_by(["scenario name", "policy"])
           .agg(pl.len().alias("games"), (pl.col("winner") == "player").mean().alias("player win rate"),
                (pl.col("winner") == "tie").mean().alias("tie rate"),
                pl.col("margin").mean().round(1).alias("mean margin"), pl.col("margin").median().alias("median margin"),
                pl.col("player_total").mean().round(1).alias("mean player score"),
                pl.col("opponent_total").mean().round(1).alias("mean opponent score"))
           .sort(["player win rate", "mean margin"]))

st.subheader("Difficulty table")
st.caption("Hardest first: lowest player win rate, then lowest mean margin (player minus opponent).")
st.dataframe(summary.with_columns(pl.col("player win rate").round(3), pl.col("tie rate").round(3)),
             hide_index=True, width="stretch")

left, right = st.columns(2)
with left:
    win = alt.Chart(summary).mark_bar().encode(
        y=alt.Y("scenario name:N", title=None, sort="x", axis=alt.Axis(labelLimit=220)),
        x=alt.X("player win rate:Q", scale=alt.Scale(domain=[0, 1]), title="Player win rate",
                axis=alt.Axis(format="%")),
        color=alt.Color("policy:N", title="Player policy"), yOffset="policy:N",
        tooltip=["scenario name", "policy", "games", alt.Tooltip("player win rate:Q", format=".1%")]
    ).properties(title="Player win rate per scenario", height=320)
    st.altair_chart(win, width="stretch")
with right:
    hist = alt.Chart(df.select("scenario name", "policy", "margin")).mark_bar(opacity=0.7).encode(
        x=alt.X("margin:Q", bin=alt.Bin(maxbins=25), title="margin (player - opponent)"),
        y=alt.Y("count():Q", title="games", stack=None), color=alt.Color("policy:N", title="Player policy"),
        tooltip=[alt.Tooltip("policy:N", title="Player policy"), alt.Tooltip("count():Q", title="games")]
    ).properties(height=80, width=300).facet(row=alt.Row("scenario name:N", title=None, header=alt.Header(
        labelAngle=0, labelAlign="left", labelOrient="top", labelFontWeight="bold"))).properties(
        title="Final margin (player minus opponent), per scenario")
    st.altair_chart(hist)

rule_cols = [c for c in df.columns if c.startswith("rule_")]
if rule_cols:
    st.subheader("What made the opponent's drafts")
    used = (df.group_by("scenario name").agg([pl.col(c).sum() for c in rule_cols])
            .unpivot(index="scenario name", variable_name="rule", value_name="drafts")
            .filter(pl.col("drafts") > 0)
            .with_columns(pl.col("rule").str.strip_prefix("rule_").map_elements(wv.draft_reason, return_dtype=pl.String))
            .group_by(["scenario name", "rule"], maintain_order=True).agg(pl.col("drafts").sum()))
    st.altair_chart(alt.Chart(used).mark_bar().encode(
        y=alt.Y("scenario name:N", title=None, axis=alt.Axis(labelLimit=220)),
        x=alt.X("drafts:Q", stack="normalize", title="share of the opponent's drafts", axis=alt.Axis(format="%")),
        color=alt.Color("rule:N", title="What made the draft", sort=list(wv.DRAFT_REASONS.values()),
                        legend=alt.Legend(labelLimit=420, orient="bottom", direction="vertical")),
        tooltip=[alt.Tooltip("scenario name:N", title="Scenario"), alt.Tooltip("rule:N", title="What made the draft"),
                 alt.Tooltip("drafts:Q", title="Drafts")]).properties(
        title="Share of the opponent's drafts by what made them, per scenario", height=alt.Step(30)), width="stretch")

st.subheader("Difficulty with best play")
st.caption("For each deal, the optimizer searches the player's best drafts and placements against the "
           "rules-following opponent and compares the best margin with the greedy policy's. "
           "Each deal gets its own time limit; an unproven answer is a lower bound.")
dc = st.columns(3)
deals = int(kept(dc[0].number_input, "sc_bp_deals", 1, "Deals per scenario", 1, 50))
limit = float(kept(dc[1].number_input, "sc_bp_limit", BEST_PLAY_SECONDS, "Seconds per deal", 1, 120,
                   help=f"As `wagons best-play --time-limit` (default {BEST_PLAY_SECONDS}); "
                        "a deal proven sooner stops sooner"))
bseed = int(kept(dc[2].number_input, "sc_bp_seed", 0, "First deal seed", 0, 10**6))
if st.button("Compute the best-play difficulty table", key="sc_bp_run"):
    jobs = tuple((s, bseed + i) for s in chosen for i in range(deals))
    done: list = []
    with guarded("Best play: "):
        st.session_state.sc_bp_result = (jobs, limit, run_with_progress(
            best_play_rows, jobs, limit, dumps(rules.to_json()), done, label="Best play",
            expected_seconds=limit * len(jobs), fraction=lambda: len(done) / len(jobs),
            detail=lambda: (f"{len(done)} of {len(jobs)} deals" if len(done) < len(jobs) else ""),
            cancel=StopSignal(), keep=keep_stopped("sc_bp_result", shape=lambda rows: (jobs, limit, rows, True))),
            False)
res = st.session_state.get("sc_bp_result")
if res and res[3]:
    st.caption(f"You stopped this run: {len(res[2])} of {len(res[0])} deals are in the table, the last of them "
               "searched only until you stopped it.")
if res and res[2]:
    table = pl.DataFrame(res[2])
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
               "`bench/bench_wagons_canwin.py`, seeds "
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
    ).properties(title="Deals won: perfect play vs the greedy policy", height=360), width="stretch")
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

with st.expander("All games (one row each)"):
    st.dataframe(df, hide_index=True, width="stretch")
