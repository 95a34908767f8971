"""Regenerate results/search/ (run from the repository root): the search players (`--play search`
and `search-uniform`, docs/players.md) against the heuristic and each other, and what the model
of play does to Mü's answers.

  head to head   every trick game with a search player, at every player count: the points a
      deal one `search` seat among `heuristic` ones gains over the same seat playing `heuristic`,
      one `search-uniform` seat likewise, and `search` over `search-uniform` (the same runs'
      difference), on the same deals, every seat taking the tested player in turn
      (musim.play.duplicate), at the default budget, with 95% intervals;
  model of play  Mü's chief success rate per bid level at 3-6 players under heuristic play,
      `search-uniform` and `search` at every seat on the same deals (the auction is the same
      heuristic's, so a level's deals are the same deals), with the paired differences, beside
      double-dummy play's published rates (results/balance_dd*, the first of the same deals).

Writes head_to_head.csv, model_of_play.csv and README.md.
"""

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from musim.analysis.stats import mean_interval, wilson
from musim.games import get_game
from musim.play.duplicate import game_simulate, interval, rotated_scores
from musim.play.search_budget import DEFAULT_WORLDS, SEARCH, UNIFORM

sys.path.insert(0, os.path.dirname(__file__))
from head_to_head import FEWEST, row  # a sibling script: one table format

OUT = "results/search"
GAMES = ("mu", "wimmueln", "panther", "mueckenstich")
DEALS = 1000  # deals a game and player count (every seat searches in turn)
COMPARED = ((SEARCH, "heuristic"), (UNIFORM, "heuristic"), (SEARCH, UNIFORM))  # (tested, against)
MODEL_DEALS = 1000  # deals a player count of the model-of-play table (every seat searches: the costly part)
DD_TABLES = {
    3: "results/balance_dd",
    4: "results/balance_dd_4p",
    5: "results/balance_dd_5p",
    6: "results/balance_dd_6p",
}


def head_to_head(games, seed, workers, scale):
    """Rows of COMPARED for every game and player count: each tested seat's points a deal over the
    same seat's as it plays the other, from one all-heuristic run and one run a seat and player."""
    for name in games:
        low, high = get_game(name).players
        simulate = game_simulate(name, workers)
        for players in range(low, high + 1):
            deals = max(2, round(DEALS * scale))
            t = time.perf_counter()
            seat = {"heuristic": simulate(players, seed, "heuristic", 0, deals)["scores"].mean(axis=1)}
            for policy in (SEARCH, UNIFORM):
                seat[policy] = rotated_scores(simulate, players, seed, deals, policy, "heuristic")
            seconds = (time.perf_counter() - t) / len(COMPARED)
            for strong, weak in COMPARED:
                mean, half = interval(seat[strong] - seat[weak])
                print(f"{name} {players}p {strong} over {weak}: {mean:+.3f} +- {half:.3f}", flush=True)
                figure = "seat's points a deal"
                yield row(name, players, strong, weak, figure, deals, mean, mean - half, mean + half, seconds)


MODELS = ("heuristic", "search_uniform", "search")  # model-of-play columns, in the policies' order
POLICIES = ("heuristic", UNIFORM, SEARCH)


def _level_rows(players, frames, dd):
    """One row per bid level (and `all`): each model's success rate with its Wilson interval, the
    paired differences of each search player - heuristic with their normal intervals, and dd's
    published rate."""
    if any(not (frames[0]["bid"].to_numpy() == f["bid"].to_numpy()).all() for f in frames[1:]):
        raise SystemExit("the heuristic and search runs bid differently: not the same auctions")
    played = frames[0]["outcome"] == "played"
    levels = sorted(frames[0].loc[played, "bid"].unique())
    for level in [*levels, "all"]:
        on = played if level == "all" else played & (frames[0]["bid"] == level)
        rates = [f.loc[on, "success"].astype(float).to_numpy() for f in frames]
        r = dict(players=players, bid=level, deals=int(on.sum()))
        for model, x in zip(MODELS, rates, strict=True):
            lo, hi = wilson(x.sum(), len(x))
            r |= {model: round(x.mean(), 4), f"{model}_low": round(float(lo), 4), f"{model}_high": round(float(hi), 4)}
        for model, x in zip(MODELS[1:], rates[1:], strict=True):
            d = mean_interval(x - rates[0]) if len(x) > 1 else (x.mean() - rates[0].mean(), np.nan, np.nan)
            r |= {f"{model}_minus_heuristic": round(float(d[0]), 4)}
            r |= {f"{model}_diff_low": round(float(d[1]), 4), f"{model}_diff_high": round(float(d[2]), 4)}
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
        runs = [simulate(players, seed, p, 0, deals) for p in POLICIES]
        frames = [pd.DataFrame({k: v for k, v in run.items() if k != "scores"}) for run in runs]
        print(f"mu {players}p model of play: {time.perf_counter() - t:.0f} s", flush=True)
        path = os.path.join(DD_TABLES[players], "balance.csv")
        dd = pd.read_csv(path) if os.path.exists(path) else None
        dd = dd if dd is None else dd[dd["players"] == players]
        yield from _level_rows(players, frames, dd)
        yield from dd_deal_rows(players, frames, dd)


def dd_deal_rows(players, frames, dd):
    """The overall rates of heuristic and the search players on double-dummy play's own deals
    (the first of the run's), beside dd's: the four models on exactly the same deals."""
    if dd is None:
        return []
    n = int(dd["deals"].sum())  # its played deals: the cautious auction ends in no eklat
    if n >= len(frames[0]):
        return []
    first = [f.iloc[:n] for f in frames]
    return [r | {"bid": f"all (first {n})"} for r in _level_rows(players, first, dd) if r["bid"] == "all"]


TEXT = """# The search players: strength and what they do to Mü's answers

`python scripts/search_tables.py --seed {seed}` ({minutes:.0f} min of computing on {workers} workers).
Rules: the rulebook's (docs/rules.md, every game option at its default; Mü's targets of §2.11's
table, the cautious auction). Policies: docs/players.md "Search". Both search players draw
{worlds} worlds a card decision (`--search-worlds`) and play each legal card out by the heuristic
in every world. `search-uniform` draws its worlds exactly uniformly among the deals consistent
with what the seat has seen; `search` weights them by how likely the public actions are in them,
solves the last tricks where `--search-exact-tricks` says so (default 0: never) and, in Mü,
searches the vice's and the chief's trump and the chief's partner too. Every figure comes with
its 95% interval.

## Duplicate deals: each search player against the heuristic and against each other

One seat plays the tested player, the others `heuristic`; its points a deal are compared with the
same seat's when it plays the other (`heuristic`, or `search-uniform`), on the same deals, every
seat taking the tested player in turn (`--play search,heuristic,...`, rotated). Decisions a search
player does not search are the heuristic's (the auction, and the trick games' set-up decisions
unless docs/players.md says otherwise). Mü's search seat plays for its side's score, the others'
for their own. Speeds: docs/performance.md (`benchmarks/bench_search.py`).

{h2h_table}

## The model of play and Mü's success rates

The chief's success rate per bid level, the same {model_deals:,} deals (seed {seed}) a player count
played by `heuristic`, by `search-uniform` and by `search` at every seat (the auction the
heuristic's in all three, so a level holds the same deals; `search` names its own trumps and
partner), the paired differences against the heuristic, and the published double-dummy rates
of results/balance_dd* (`dd`: every hand seen; the first 1,000 of the same deals, 100 at 4
players; at 4-6 players the reach question under a node limit: a level's interval as published
spans its few undecided deals, the `all` rows count them as published). The rows `all (first N)`
compare the four on dd's own deals.

{model_table}

## Do the weighted worlds believe the table? Calibration on held-out deals

At each card decision of an observer seat, the chance its worlds give that another seat holds a
hidden card, against whether it does, binned (calibration_<game>.csv and .png, by trick), and
the Brier score of those predictions (lower is better; calibration_<game>_brier.csv), uniform
worlds beside weighted ones on the same decisions. Written by `python scripts/calibrate_worlds.py
--game mu --players 3,4,5,6 --deals 300 --seed 5061 --worlds 128` and `python
scripts/calibrate_worlds.py --game G --players 4 --deals 300 --seed 6101` (seeds used in no
fit); the weights are each game's shipped parameters (docs/players.md "Search").

{calibration_table}
"""


def calibration_table():
    """The Brier scores of every calibration_<game>_brier.csv, uniform beside weighted."""
    lines = ["| game | players | deals | seed | uniform worlds | weighted worlds |", "|---|---:|---:|---:|---:|---:|"]
    for path in sorted(Path(OUT).glob("calibration_*_brier.csv")):
        frame = pd.read_csv(path)
        for (game, players), part in frame.groupby(["game", "players"], sort=False):
            brier = dict(zip(part["worlds"], part["brier"], strict=True))
            first = part.iloc[0]
            lines.append(
                f"| {game} | {players} | {first['deals']:,} | {first['seed']} | {brier['uniform']:.4f} | "
                f"{brier['weighted']:.4f} |"
            )
    return "\n".join(lines)


def h2h_table(rows):
    lines = [
        "| game | players | tested | against | deals | gain | 95% interval |",
        "|---|---:|---|---|---:|---:|---|",
    ]
    for r in rows:
        interval = f"[{r['low']:+.3f}, {r['high']:+.3f}]" if r["deals"] >= FEWEST else f"too few deals (< {FEWEST})"
        lines.append(
            f"| {r['game']} | {r['players']} | {r['strong']} | {r['weak']} | {r['deals']:,} | "
            f"{r['gain']:+.3f} | {interval} |"
        )
    return "\n".join(lines)


def _rate(r, model):
    if pd.isna(r.get(model)):
        return ""
    return f"{100 * r[model]:.1f}% [{100 * r[model + '_low']:.1f}, {100 * r[model + '_high']:.1f}]"


def _diff(r, model):
    if r["deals"] < FEWEST:
        return f"too few deals (< {FEWEST})"
    lo, hi = r[f"{model}_diff_low"], r[f"{model}_diff_high"]
    return f"{100 * r[f'{model}_minus_heuristic']:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def model_table(rows):
    lines = [
        "| players | bid | deals | heuristic | search-uniform | search | search-uniform - heuristic "
        "| search - heuristic | dd deals | dd |",
        "|---:|---|---:|---|---|---|---|---|---:|---|",
    ]
    for r in rows:
        rates = " | ".join(_rate(r, m) for m in MODELS)
        diffs = f"{_diff(r, 'search_uniform')} | {_diff(r, 'search')}"
        dd = f"{r.get('dd_deals', '')} | {_rate(r, 'dd')}"
        lines.append(f"| {r['players']} | {r['bid']} | {r['deals']:,} | {rates} | {diffs} | {dd} |")
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
    old = [r for r in old if (r["strong"], r["weak"]) in COMPARED]  # rows of this table's comparisons only
    new = [] if args.no_head else list(head_to_head(args.games or GAMES, args.seed, args.workers, args.scale))
    done = {r["game"] for r in new}
    rows = new + [r for r in old if r["game"] not in done]
    rows.sort(key=lambda r: (GAMES.index(r["game"]), r["players"], COMPARED.index((r["strong"], r["weak"]))))
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
                calibration_table=calibration_table(),
            )
        )


if __name__ == "__main__":
    main()
