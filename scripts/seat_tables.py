"""Regenerate results/seat_games/: each playable game's seat advantage and scoring events, per
player count, under its default policy (run from the repository root).

For every registered game that can be run, at every player count it allows, one `musim run` of
`--deals` rows with a fixed seed; then
  results/seat_games/advantage.csv  each seat position's mean score and its advantage over the
                                    mean of the seats, with 95% intervals (from the rows'
                                    `dealer` and `score_<i>`, the columns every game has)
  results/seat_games/GAME.md        the run's summary (`musim summary`) per player count: the same
                                    advantages and the game's own scoring events
The games come from the registry, so a newly registered game joins without an edit here;
`--games NAME ...` makes only those games' files again and replaces only their rows of
advantage.csv (after a rule change of one game).
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from musim.analysis.stats import mean_interval_from_sums
from musim.games import all_games
from musim.games.summary_lines import by_position, seat_names

OUT = "results/seat_games"


def musim(*args):
    """Run the musim CLI of this interpreter; its stdout."""
    done = subprocess.run([sys.executable, "-m", "musim", *args], capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"musim {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def interval(n, total, total_sq):
    m, lo, hi = mean_interval_from_sums(n, total, total_sq)
    return round(m, 3), round(lo, 3), round(hi, 3)


def advantage_rows(game, players, path):
    """One row per seat position: mean score and advantage with their 95% intervals."""
    columns = ["dealer", *(f"score_{i}" for i in range(players))]
    table = pq.read_table(path, columns=columns).combine_chunks().to_batches()[0]
    scores = np.stack([table.column(f"score_{i}").to_numpy() for i in range(players)], axis=1)
    ordered, edge = by_position(table, scores)
    d = len(ordered)
    rows = []
    for k, name in enumerate(seat_names(players)):
        s, e = ordered[:, k], edge[:, k] / players
        row = dict(game=game, players=players, position=name, rows=d)
        row.update(zip(("mean", "mean_low", "mean_high"), interval(d, int(s.sum()), int((s * s).sum()))))
        row.update(zip(("advantage", "advantage_low", "advantage_high"), interval(d, e.sum(), (e * e).sum())))
        rows.append(row)
    return rows


def game_tables(game, rows, seed, work):
    """The summary text of each player count and the advantage rows of all of them."""
    texts, table = [], []
    for players in range(game.players[0], game.players[1] + 1):
        out = os.path.join(work, f"{game.name}-{players}.parquet")
        musim(
            "run",
            *("--game", game.name, "--players", str(players), "--deals", str(rows), "--seed", str(seed)),
            *("--out", out, "--overwrite", "--no-progress"),
        )
        texts.append(f"## {players} players\n\n```\n{musim('summary', out).rstrip()}\n```\n")
        table += advantage_rows(game.name, players, out)
    return texts, table


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000, help="rows (deals or games) per game and player count")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--games", nargs="+", metavar="NAME", help="only these games; the others' rows of advantage.csv stay"
    )
    args = parser.parse_args()
    runnable = [game for game in all_games() if game.job is not None]
    names = [game.name for game in runnable]
    unknown = [name for name in args.games or () if name not in names]
    if unknown:
        parser.error(f"--games: {', '.join(unknown)} not among the games that can be run ({', '.join(names)})")
    chosen = set(args.games or names)
    csv = os.path.join(OUT, "advantage.csv")
    old = pd.read_csv(csv) if args.games and os.path.exists(csv) else pd.DataFrame(columns=["game"])
    os.makedirs(OUT, exist_ok=True)
    everything = []
    with tempfile.TemporaryDirectory() as work:
        for game in runnable:
            if game.name not in chosen:
                everything += old[old["game"] == game.name].to_dict("records")
                continue
            texts, table = game_tables(game, args.rows, args.seed, work)
            title = f"# {game.title}: seat advantage and scoring events\n\n"
            how = f"`python scripts/seat_tables.py --rows {args.rows} --seed {args.seed}`, {game.policies[0]} play.\n\n"
            with open(os.path.join(OUT, f"{game.name}.md"), "w") as fh:
                fh.write(title + how + "\n".join(texts))
            everything += table
    pd.DataFrame(everything).to_csv(csv, index=False)


if __name__ == "__main__":
    main()
