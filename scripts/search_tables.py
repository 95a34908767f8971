"""Regenerate results/search/ (run from the repository root): the search player (`--play search`,
docs/players.md) against the heuristic, and what the model of play does to Mü's answers.

  head to head   every trick game with a search player, at every player count: the points a
      deal one `search` seat among `heuristic` ones gains over the same seat playing `heuristic`,
      on the same deals, every seat taking the search in turn (musim.play.duplicate), at 1x, 4x
      and 16x the default budget (--search-worlds), with 95% intervals;
  model of play  Mü's chief success rate per bid level at 3-6 players under heuristic play and
      search at every seat on the same deals (the auction, trumps and partner are the same
      heuristic's, so a level's deals are the same deals), with the paired difference, beside
      double-dummy play's published rates (results/balance_dd*, the first of the same deals).

Writes head_to_head.csv, model_of_play.csv and README.md.
"""

import argparse
import os
import sys
import time

import numpy as np
import pandas as pd

from musim.analysis.stats import mean_interval, wilson
from musim.games import get_game
from musim.play.duplicate import duplicate_advantage, game_simulate
from musim.play.search_budget import DEFAULT_WORLDS, SEARCH

sys.path.insert(0, os.path.dirname(__file__))
from head_to_head import FEWEST, row  # a sibling script: one table format

OUT = "results/search"
GAMES = ("mu", "wimmueln", "panther", "mueckenstich")
BUDGETS = (1, 4, 16)  # multiples of the default worlds
DEALS = {1: 400, 4: 150, 16: 50}  # deals a comparison, by budget (every seat searches in turn)
MODEL_DEALS = 2000  # deals a player count of the model-of-play table
DD_TABLES = {
    3: "results/balance_dd",
    4: "results/balance_dd_4p",
    5: "results/balance_dd_5p",
    6: "results/balance_dd_6p",
}


def searching(name, workers, worlds):
    """simulate(players, seed, policy, start, count) of game `name`: a policy with a search seat
    runs at `worlds` worlds, one without at the game's defaults (the option needs a search seat)."""
    with_search = game_simulate(name, workers, search_worlds=worlds)
    plain = game_simulate(name, workers)

    def simulate(players, seed, policy, start, count):
        texts = [policy] if isinstance(policy, str) else list(policy)
        return (with_search if SEARCH in texts else plain)(players, seed, policy, start, count)

    return simulate


def head_to_head(games, seed, workers, scale):
    for name in games:
        low, high = get_game(name).players
        for players in range(low, high + 1):
            for budget in BUDGETS:
                deals = max(2, round(DEALS[budget] * scale))
                t = time.perf_counter()
                simulate = searching(name, workers, budget * DEFAULT_WORLDS)
                mean, half = duplicate_advantage(simulate, players, seed, deals, strong=SEARCH, weak="heuristic")
                seconds = time.perf_counter() - t
                print(f"{name} {players}p search x{budget}: {mean:+.3f} +- {half:.3f} ({seconds:.0f} s)", flush=True)
                strong, figure = f"search x{budget}", "seat's points a deal"
                r = row(name, players, strong, "heuristic", figure, deals, mean, mean - half, mean + half, seconds)
                yield r | {"worlds": budget * DEFAULT_WORLDS}


def _level_rows(players, frames, dd):
    """One row per bid level (and `all`): each model's success rate with its Wilson interval, the
    paired difference search - heuristic with its normal interval, and dd's published rate."""
    heur, srch = frames
    if not (heur["bid"].to_numpy() == srch["bid"].to_numpy()).all():
        raise SystemExit("the heuristic and search runs bid differently: not the same auctions")
    played = heur["outcome"] == "played"
    levels = sorted(heur.loc[played, "bid"].unique())
    for level in [*levels, "all"]:
        on = played if level == "all" else played & (heur["bid"] == level)
        h, s = (f.loc[on, "success"].astype(float).to_numpy() for f in frames)
        r = dict(players=players, bid=level, deals=int(on.sum()))
        for model, x in (("heuristic", h), ("search", s)):
            lo, hi = wilson(x.sum(), len(x))
            r |= {model: round(x.mean(), 4), f"{model}_low": round(float(lo), 4), f"{model}_high": round(float(hi), 4)}
        d = mean_interval(s - h) if len(h) > 1 else (s.mean() - h.mean(), np.nan, np.nan)
        r |= {
            "search_minus_heuristic": round(float(d[0]), 4),
            "diff_low": round(float(d[1]), 4),
            "diff_high": round(float(d[2]), 4),
        }
        yield r | _dd(dd, level)


def _dd(dd, level):
    if dd is None:
        return {}
    if level == "all":
        k = (dd["p_made"] * dd["deals"]).sum()
        n = dd["deals"].sum()
        lo, hi = wilson(round(k), n)
        return {
            "dd_deals": int(n),
            "dd": round(k / n, 4),
            "dd_low": round(float(lo), 4),
            "dd_high": round(float(hi), 4),
        }
    at = dd[dd["bid"] == level]
    if at.empty:
        return {"dd_deals": 0}
    a = at.iloc[0]
    return {"dd_deals": int(a["deals"]), "dd": a["p_made"], "dd_low": a["p_made_low"], "dd_high": a["p_made_high"]}


def model_of_play(seed, workers, deals):
    simulate = game_simulate("mu", workers, columns=("outcome", "bid", "success"))
    for players in range(3, 7):
        t = time.perf_counter()
        runs = [simulate(players, seed, p, 0, deals) for p in ("heuristic", SEARCH)]
        frames = [pd.DataFrame({k: v for k, v in run.items() if k != "scores"}) for run in runs]
        print(f"mu {players}p model of play: {time.perf_counter() - t:.0f} s", flush=True)
        path = os.path.join(DD_TABLES[players], "balance.csv")
        dd = pd.read_csv(path) if os.path.exists(path) else None
        dd = dd if dd is None else dd[dd["players"] == players]
        yield from _level_rows(players, frames, dd)
        yield from dd_deal_rows(players, frames, dd)


def dd_deal_rows(players, frames, dd):
    """The overall rates of heuristic and search on double-dummy play's own deals (the first of
    the run's), beside dd's: the three models on exactly the same deals."""
    if dd is None:
        return []
    n = int(dd["deals"].sum())  # its played deals: the cautious auction ends in no eklat
    if n >= len(frames[0]):
        return []
    first = [f.iloc[:n] for f in frames]
    return [r | {"bid": f"all (first {n})"} for r in _level_rows(players, first, dd) if r["bid"] == "all"]


TEXT = """# The search player: strength and what it does to Mü's answers

`python scripts/search_tables.py --seed {seed}` ({minutes:.0f} min of computing on {workers} workers).
Rules: the rulebook's (docs/rules.md, every game option at its default; Mü's targets of §2.11's
table, the cautious auction). Policies: docs/players.md; `search` draws {worlds} worlds a card
decision by default (`--search-worlds`), exactly uniform among the deals consistent with what the
seat has seen (not weighted by what the auction says), and plays each legal card out by the
heuristic in every world. Every figure comes with its 95% interval.

## Search against the heuristic, duplicate deals

One seat plays `search`, the others `heuristic`; its points a deal are compared with the same
seat's when it plays `heuristic` too, on the same deals, every seat taking the search in turn
(`--play search,heuristic,...`, rotated). Its decisions other than its cards (Mü's auction, trumps
and partner; the pass, the lead without a trump, the estimates, the discards) are the heuristic's.
Mü's search seat plays for its side's score, the others' for their own. Speeds:
docs/performance.md (`benchmarks/bench_search.py`).

{h2h_table}

## The model of play and Mü's success rates

The chief's success rate per bid level, the same {model_deals:,} deals (seed {seed}) a player count
played by `heuristic` and by `search` at every seat (auction, trumps and partner the heuristic's
in both, so a level holds the same deals), the paired difference search - heuristic, and the
published double-dummy rates of results/balance_dd* (`dd`: every hand seen; the first 1,000 of
the same deals, 100 at 4 players; at 4-6 players the reach question under a node limit: a
level's interval as published spans its few undecided deals, the `all` rows count them as
published). The rows `all (first N)` compare the three on dd's own deals.

{model_table}
"""


def h2h_table(rows):
    lines = [
        "| game | players | budget (worlds) | deals | gain | 95% interval |",
        "|---|---:|---|---:|---:|---|",
    ]
    for r in rows:
        interval = f"[{r['low']:+.3f}, {r['high']:+.3f}]" if r["deals"] >= FEWEST else f"too few deals (< {FEWEST})"
        lines.append(
            f"| {r['game']} | {r['players']} | {r['strong'].split()[1]} ({r['worlds']}) | {r['deals']:,} | "
            f"{r['gain']:+.3f} | {interval} |"
        )
    return "\n".join(lines)


def _rate(r, model):
    if pd.isna(r.get(model)):
        return ""
    return f"{100 * r[model]:.1f}% [{100 * r[model + '_low']:.1f}, {100 * r[model + '_high']:.1f}]"


def model_table(rows):
    lines = [
        "| players | bid | deals | heuristic | search | search - heuristic | dd deals | dd |",
        "|---:|---|---:|---|---|---|---:|---|",
    ]
    for r in rows:
        diff = f"{100 * r['search_minus_heuristic']:+.1f} [{100 * r['diff_low']:+.1f}, {100 * r['diff_high']:+.1f}]"
        if r["deals"] < FEWEST:
            diff = f"too few deals (< {FEWEST})"
        lines.append(
            f"| {r['players']} | {r['bid']} | {r['deals']:,} | {_rate(r, 'heuristic')} | {_rate(r, 'search')} | "
            f"{diff} | {r.get('dd_deals', '')} | {_rate(r, 'dd')} |"
        )
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--games", nargs="+", choices=GAMES, help="head to head of these games only; the others' rows stay"
    )
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the head-to-head deal counts")
    parser.add_argument("--no-model", action="store_true", help="leave out the model-of-play table (its rows stay)")
    parser.add_argument("--no-head", action="store_true", help="leave out the head to head (its rows stay)")
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    h2h_csv, model_csv = os.path.join(OUT, "head_to_head.csv"), os.path.join(OUT, "model_of_play.csv")
    old = pd.read_csv(h2h_csv).to_dict("records") if os.path.exists(h2h_csv) else []
    new = [] if args.no_head else list(head_to_head(args.games or GAMES, args.seed, args.workers, args.scale))
    done = {r["game"] for r in new}
    rows = new + [r for r in old if r["game"] not in done]
    rows.sort(key=lambda r: (GAMES.index(r["game"]), r["players"], r["worlds"]))
    pd.DataFrame(rows).to_csv(h2h_csv, index=False)
    if args.no_model:
        model = pd.read_csv(model_csv).to_dict("records") if os.path.exists(model_csv) else []
    else:
        model = list(model_of_play(args.seed, args.workers, MODEL_DEALS))
        pd.DataFrame(model).to_csv(model_csv, index=False)
    with open(os.path.join(OUT, "README.md"), "w") as fh:
        fh.write(
            TEXT.format(
                seed=args.seed,
                workers=args.workers,
                minutes=sum(r["seconds"] for r in rows) / 60,
                worlds=DEFAULT_WORLDS,
                h2h_table=h2h_table(rows),
                model_deals=MODEL_DEALS,
                model_table=model_table(model),
            )
        )


if __name__ == "__main__":
    main()
