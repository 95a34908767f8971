"""Regenerate results/head_to_head/: each game's policies against each other on duplicate deals
(run from the repository root).

  heuristic against random  every game that can be run, at every player count it allows: the
      points a row (a deal, or a whole game) one heuristic seat among random ones gains over
      the same seat playing random, on the same deals, every seat taking the heuristic in turn,
      with its 95% interval (musim.play.duplicate.duplicate_advantage over game_simulate: the
      rows `musim run --play heuristic,random,...` writes);
  dd against heuristic      the trick games with exact play (Mü, The Last Panther, Wimmüln,
      Mückenstich) at 3 players: one dd seat among heuristic ones against the same seat playing
      heuristic, seats rotated, on a few minutes' worth of deals each (DD_DEALS, or --dd-deals).

Writes head_to_head.csv (one row a comparison) and README.md (the tables, and the model of play
and rules they rest on).  results/seat_games/advantage.csv is the other view: each seat
position's advantage when every seat plays the default policy.
"""

import argparse
import dataclasses
import os
import time

import pandas as pd

from musim.engine.spec import RunSpec, checked
from musim.games import all_games
from musim.play.duplicate import duplicate_advantage, game_simulate

OUT = "results/head_to_head"
FEWEST = 30  # deals below which a normal interval is not to be read (the table says so instead)
# the trick games with exact play, and the deals of their dd comparison at 3 players by default
# (as many as take a few minutes: a dd seat solves at each of its cards)
DD_DEALS = {"mu": 200, "panther": 5, "wimmueln": 100, "mueckenstich": 2}


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


def against_dd(dd_deals, deals, seed, workers):
    for name, default in dd_deals.items():
        deals_here = default if deals is None else deals
        t = time.perf_counter()
        simulate = game_simulate(name, workers)
        mean, half = duplicate_advantage(simulate, 3, seed, deals_here, strong="dd", weak="heuristic")
        seconds = time.perf_counter() - t
        print(f"{name} 3p dd vs heuristic: {mean:+.3f} +- {half:.3f} ({seconds:.0f} s)")
        yield row(
            name, 3, "dd", "heuristic", "seat's points a deal", deals_here, mean, mean - half, mean + half, seconds
        )


TEXT = """# Head to head: each game's policies on duplicate deals

`python scripts/head_to_head.py --deals {deals}{dd_option} --seed {seed}` ({minutes:.0f} min of
computing on {workers} workers, made in parts with `--games NAME ...` and `--no-dd`); rules as
printed (docs/rules.md, every game option at its default), the policies of docs/players.md.
Figures are a seat's mean gain with its 95% interval (over deals, which are independent);
`head_to_head.csv` holds them with the seconds each comparison took.

## Heuristic against random

One seat plays `heuristic`, the others `random`; its points are compared with the same seat's
when it plays `random` too, on the same deals (deal k of a seed is dealt before any policy
decides), and every seat takes the heuristic in turn (`--play heuristic,random,...`, rotated).
{deals:,} deals (games) a player count. A Mü seat's policy makes all its decisions: auction,
trumps, partner and cards. Reverse Safarü is won by the lowest score: there a better policy
gains less than 0. results/seat_games/advantage.csv gives the other view: each seat position's
advantage when every seat plays the default policy.

{random_table}

Mü's heuristic loses to random seats at 5 and 6 players: random bidders end most deals in an
eklat (81% and 94% of 20,000 deals with the heuristic at seat 0, seed 2026), and an eklat pays
each player tied on top but the provoker +5 a card of the top count (docs/rules.md §2.3); the
heuristic never ties, so it forgoes those points. It is built for a table of sensible bidders.

## Exact play against the heuristic

The trick games with exact play, at 3 players: one seat plays `dd` among `heuristic` seats,
against the same seat playing `heuristic`, seats rotated, on the deals given (as many as take a
few minutes: the dd seat solves at each of its cards). Its decisions other than its cards (the
pass, the lead without a trump, the discards, Mü's auction, trumps and partner) are the
heuristic's. The dd seat plays as if every hand were seen and every other seat played exactly
too: for its own points (The Last Panther, Wimmüln, Mückenstich), or for its side's card points
(Mü: the chief's team against the others, not the score), so the gain is what sight of every
hand and exact search give a seat against the heuristic, not what a better player without
them would gain.

{dd_table}
{dd_missing}"""


def table(rows):
    lines = ["| game | players | figure | deals | gain | 95% interval |", "|---|---:|---|---:|---:|---|"]
    for r in rows:
        interval = f"[{r['low']:+.3f}, {r['high']:+.3f}]" if r["deals"] >= FEWEST else f"too few deals (< {FEWEST})"
        lines.append(
            f"| {r['game']} | {r['players']} | {r['figure']} | {r['deals']:,} | {r['gain']:+.3f} | {interval} |"
        )
    return "\n".join(lines)


def _missing(rows):
    """The sentence naming the dd comparisons not yet made (each made alone with --games NAME)."""
    missing = [name for name in DD_DEALS if not any(r["game"] == name and r["strong"] == "dd" for r in rows)]
    if not missing:
        return ""
    names = ", ".join(missing)
    return (
        f"\nNot measured here: {names} (each made alone with `--games NAME`: Mückenstich's 2 deals took over 10 min).\n"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deals (games) a player count, heuristic vs random")
    parser.add_argument("--dd-deals", type=int, help="deals of each dd comparison (default: a few minutes' worth each)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--games", nargs="+", metavar="NAME", help="only these games; the others' rows stay")
    parser.add_argument("--no-dd", action="store_true", help="leave out the dd comparisons (their rows stay)")
    args = parser.parse_args()
    games = [g for g in all_games() if {"heuristic", "random"} <= set(g.policies)]
    names = [g.name for g in games]
    unknown = [name for name in args.games or () if name not in names]
    if unknown:
        parser.error(f"--games: {', '.join(unknown)} not among the games with both policies ({', '.join(names)})")
    chosen = set(args.games or names)
    csv = os.path.join(OUT, "head_to_head.csv")
    old = pd.read_csv(csv).to_dict("records") if (args.games or args.no_dd) and os.path.exists(csv) else []
    new = list(against_random([g for g in games if g.name in chosen], args.deals, args.seed, args.workers))
    if not args.no_dd:
        new += against_dd({n: d for n, d in DD_DEALS.items() if n in chosen}, args.dd_deals, args.seed, args.workers)
    done = {(r["game"], r["strong"]) for r in new}
    rows = new + [r for r in old if (r["game"], r["strong"]) not in done]
    order = {name: i for i, name in enumerate(names)}
    rows.sort(key=lambda r: (r["strong"], order[r["game"]], r["players"]))
    os.makedirs(OUT, exist_ok=True)
    pd.DataFrame(rows).to_csv(csv, index=False)
    text = TEXT.format(
        deals=args.deals,
        dd_option="" if args.dd_deals is None else f" --dd-deals {args.dd_deals}",
        seed=args.seed,
        workers=args.workers,
        minutes=sum(r["seconds"] for r in rows) / 60,
        random_table=table([r for r in rows if r["weak"] == "random"]),
        dd_table=table([r for r in rows if r["strong"] == "dd"]),
        dd_missing=_missing(rows),
    )
    with open(os.path.join(OUT, "README.md"), "w") as fh:
        fh.write(text)


if __name__ == "__main__":
    main()
