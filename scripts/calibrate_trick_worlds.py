"""Calibration of a trick game's sampled worlds on held-out deals (docs/players.md "Search"):
at each card decision of every seat (every seat plays the heuristic), for each other seat and
each card hidden from the seat to move, p = the share of its worlds in which that seat holds the
card, in uniform worlds and in worlds weighted by the shipped parameters (the same worlds).

Writes results/search/calibration_<game>.csv (musim.analysis.calibration.calibration_table, by
trick), calibration_<game>.png and calibration_<game>_brier.csv (the Brier and log scores).

Usage: python scripts/calibrate_trick_worlds.py --game wimmueln --players 4 --deals 300 --seed 6101
"""

import argparse
import importlib
import os
import sys

import numpy as np
import pandas as pd

from musim.analysis.calibration import brier, calibration_table, plot_calibration
from musim.play import world_weights
from musim.play.beliefs import log_score

GAMES = ("wimmueln", "panther", "mueckenstich")


def frame(game, players, found):
    """The predictions as calibration_table's rows: both worlds kinds, trick counted from 1."""
    parts = []
    for kind, g in (("uniform", 0), ("weighted", 1)):
        for trick, p, held in found:
            parts.append(pd.DataFrame({"worlds": kind, "trick": trick + 1, "p": p[g], "held": held}))
    return pd.concat(parts, ignore_index=True).assign(game=game, players=players)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=GAMES, required=True)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--worlds", type=int, default=128)
    ap.add_argument("--out", default="results/search")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.worlds < 1:
        sys.exit("--deals and --worlds must be at least 1")
    module = importlib.import_module(f"musim.games.{args.game}.beliefs")
    params, ident = world_weights.shipped(args.game, module.NAMES)
    grid = [[0.5] * len(params), list(params)]
    found = module.predictions(args.players, args.seed, 0, args.deals, args.worlds, grid)
    predictions = frame(args.game, args.players, found)
    os.makedirs(args.out, exist_ok=True)
    stem = os.path.join(args.out, f"calibration_{args.game}")
    table = calibration_table(predictions)
    table.to_csv(stem + ".csv", index=False, float_format="%.6g")
    plot_calibration(table, stem + ".png")
    scores = brier(predictions)
    p = np.concatenate([f[1] for f in found], axis=1)
    held = np.concatenate([f[2] for f in found])
    scores["log_score"] = log_score(p, held)  # rows: uniform, weighted, as brier's order
    scores = scores.assign(params=ident, deals=args.deals, worlds_per_decision=args.worlds, seed=args.seed)
    scores.to_csv(stem + "_brier.csv", index=False, float_format="%.6g")
    print(scores.to_string(index=False))
    print(f"wrote {stem}.csv, {stem}.png, {stem}_brier.csv")


if __name__ == "__main__":
    main()
