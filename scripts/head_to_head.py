"""Regenerate results/head_to_head/: each game's policies against each other on duplicate deals
(run from the repository root).

  heuristic against random  every game that can be run, at every player count it allows: the
      points a deal (a game, for the games whose row is a game) one heuristic seat among random
      ones gains over the same seat playing random, on the same deals, every seat taking the
      heuristic in turn, with its 95% interval (musim.play.duplicate.duplicate_advantage);
  dd against heuristic      the trick games with exact play that is a seat's own (The Last
      Panther, Wimmüln, Mückenstich) at their smallest player count: one dd seat among heuristic
      ones against the same seat playing heuristic, seats rotated, on --dd-deals deals; and Mü at
      3 players, whose exact play is one solve of the whole table (dd at every seat or none,
      docs/players.md): the same deals under dd and heuristic card play (the auction, trumps and
      partner are the heuristic's under both, so the contracts are the same), the chief's team
      points and success paired by deal.

Writes head_to_head.csv (one row a comparison) and README.md (the tables, the model of play and
rules they rest on).  results/seat_games/advantage.csv is the other view of the same runs: each
seat position's advantage when every seat plays the default policy.
"""

import argparse
import dataclasses
import os
import time

import numpy as np
import pandas as pd

from musim.engine.spec import RunSpec, checked
from musim.games import all_games
from musim.play.duplicate import duplicate_advantage, game_simulate

OUT = "results/head_to_head"
DD_SEAT_GAMES = ("panther", "wimmueln", "mueckenstich")  # exact play by a seat of its own


def interval(values):
    """(mean, low, high) of the 95% interval of the mean of per-deal values."""
    mean, half = float(values.mean()), float(1.96 * values.std(ddof=1) / np.sqrt(len(values)))
    return mean, mean - half, mean + half


def row(game, players, strong, weak, figure, deals, mean, low, high, seconds):
    return dict(
        game=game,
        players=players,
        strong=strong,
        weak=weak,
        figure=figure,
        deals=deals,
        gain=round(mean, 3),
        low=round(low, 3),
        high=round(high, 3),
        seconds=round(seconds, 1),
    )


def figure(game, players):
    """What the gain counts: a seat's points a row, the row being what the game's summary says it
    is (a deal, or a whole game), and whether the lowest score wins."""
    spec = RunSpec(game.name, "deals", 1, players, game.policies[0], 0)
    checked(spec)
    summary = game.make_summary(dataclasses.asdict(spec))
    lower = " (lower wins)" if getattr(summary, "LOWER_WINS", False) else ""
    return f"seat's points a {getattr(summary, 'UNIT', 'deal')}{lower}"


def against_random(games, deals, seed, workers):
    for game in games:
        for players in range(game.players[0], game.players[1] + 1):
            t = time.perf_counter()
            mean, half = duplicate_advantage(game_simulate(game.name, workers), players, seed, deals)
            seconds = time.perf_counter() - t
            print(f"{game.name} {players}p heuristic vs random: {mean:+.3f} +- {half:.3f} ({seconds:.0f} s)")
            yield row(
                game.name,
                players,
                "heuristic",
                "random",
                figure(game, players),
                deals,
                mean,
                mean - half,
                mean + half,
                seconds,
            )


def against_dd(names, deals, seed, workers):
    for name in names:
        t = time.perf_counter()
        mean, half = duplicate_advantage(game_simulate(name, workers), 3, seed, deals, strong="dd", weak="heuristic")
        seconds = time.perf_counter() - t
        print(f"{name} 3p dd vs heuristic: {mean:+.3f} +- {half:.3f} ({seconds:.0f} s)")
        yield row(name, 3, "dd", "heuristic", "seat's points a deal", deals, mean, mean - half, mean + half, seconds)


def mu_dd(deals, seed, workers):
    """Mü at 3 players: dd card play at every seat against the heuristic's, on the same contracts."""
    t = time.perf_counter()
    columns = ("outcome", "team_points", "success")
    got = {p: game_simulate("mu", workers, columns)(3, seed, p, 0, deals) for p in ("dd", "heuristic")}
    seconds = time.perf_counter() - t
    played = got["heuristic"]["outcome"] == "played"
    assert (played == (got["dd"]["outcome"] == "played")).all()  # the same auctions
    for figure, column in (("chief's team points a played deal", "team_points"), ("success rate", "success")):
        diff = got["dd"][column][played].astype(float) - got["heuristic"][column][played].astype(float)
        yield row("mu", 3, "dd", "heuristic", figure, int(played.sum()), *interval(diff), seconds)
    print(f"mu 3p dd vs heuristic card play: {seconds:.0f} s")


TEXT = """# Head to head: each game's policies on duplicate deals

`python scripts/head_to_head.py --deals {deals} --dd-deals {dd_deals} --seed {seed}` ({minutes:.0f} min on
{workers} workers); rules as printed (docs/rules.md, every game option at its default), the
policies of docs/players.md. Figures are the mean gain with its 95% interval; `head_to_head.csv`
holds them with the seconds the dd comparisons took.

## Heuristic against random

One seat plays `heuristic`, the others `random`; its points are compared with the same seat's
when it plays `random` too, on the same deals (deal k of a seed is dealt before any policy
decides), and every seat takes the heuristic in turn (`--play heuristic,random,...`, rotated).
{deals} deals a player count. A Mü seat's policy makes all its decisions: auction, trumps,
partner and cards. Reverse Safarü is won by the lowest score: there a better policy gains less
than 0. results/seat_games/advantage.csv gives the other view: each seat position's advantage
when every seat plays the default policy.

{random_table}

## Exact play against the heuristic

The Last Panther, Wimmüln and Mückenstich at 3 players: one seat plays `dd` (exact
double-dummy play for its own seat, every hand seen) among `heuristic` seats, against the same
seat playing `heuristic`, seats rotated, on {dd_deals} deals (the dd seat's decisions other
than its cards, such as the pass, are the heuristic's). Mü at 3 players: exact play is one
solve for the whole table (the chief against the others), so it is dd at every seat against
heuristic at every seat on the same {dd_deals} deals; both bid, name trumps and choose partners
by the heuristic, so the contracts are the same and only the card play differs: the difference
in the chief's points and success is what the heuristic's card play gives away on balance
(both sides play better under dd).

{dd_table}
"""


def table(rows):
    lines = ["| game | players | figure | deals | gain | 95% interval |", "|---|---:|---|---:|---:|---|"]
    for r in rows:
        lines.append(
            f"| {r['game']} | {r['players']} | {r['figure']} | {r['deals']:,} | {r['gain']:+.3f} "
            f"| [{r['low']:+.3f}, {r['high']:+.3f}] |"
        )
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deals (games) a player count, heuristic vs random")
    parser.add_argument("--dd-deals", type=int, default=20, help="deals of each dd comparison")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    t = time.perf_counter()
    games = [g for g in all_games() if {"heuristic", "random"} <= set(g.policies)]
    random_rows = list(against_random(games, args.deals, args.seed, args.workers))
    dd_rows = list(against_dd(DD_SEAT_GAMES, args.dd_deals, args.seed, args.workers))
    dd_rows += list(mu_dd(args.dd_deals, args.seed, args.workers))
    os.makedirs(OUT, exist_ok=True)
    pd.DataFrame(random_rows + dd_rows).to_csv(os.path.join(OUT, "head_to_head.csv"), index=False)
    text = TEXT.format(
        deals=args.deals,
        dd_deals=args.dd_deals,
        seed=args.seed,
        workers=args.workers,
        minutes=(time.perf_counter() - t) / 60,
        random_table=table(random_rows),
        dd_table=table(dd_rows),
    )
    with open(os.path.join(OUT, "README.md"), "w") as fh:
        fh.write(text)


if __name__ == "__main__":
    main()
