"""Calibration of the search player's worlds in Mü (docs/players.md "Search"): on held-out deals,
at each card decision of an observer seat, the predicted chance that each other seat holds each
card hidden from it, by uniform worlds and by weighted ones (the shipped parameters), against
how often it does.  Writes calibration_mu.csv (musim.analysis.calibration's table, by trick),
calibration_mu.png and calibration_mu_brier.csv (uniform against weighted, by player count).

Usage: python scripts/calibrate_worlds.py --game mu --players 4 --deals 300 --seed 5061
       [--worlds 64] [--auction cautious] [--out results/search]
"""

import argparse
import sys
from pathlib import Path

import pandas as pd

from musim.analysis.calibration import brier, calibration_table, plot_calibration
from musim.games.mu import weights_file
from musim.games.mu.analysis.world_calibration import long_form, predictions


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=("mu",), default="mu")
    ap.add_argument("--players", default="4")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=5061)
    ap.add_argument("--worlds", type=int, default=64)
    ap.add_argument("--auction", default="cautious", help="The seats' auction model (cautious, bold or learned).")
    ap.add_argument("--out", default="results/search")
    args = ap.parse_args()
    ident, params = weights_file.resolve("")
    if args.seed == 61:
        sys.exit("calibrate_worlds.py: --seed 61 fitted the weights; choose held-out deals")
    frames = []
    for n in map(int, args.players.split(",")):
        frame = predictions(n, args.deals, args.seed, params[n - 3], args.worlds, args.auction)
        frames.append(long_form(frame, n))
    table_in = pd.concat(frames, ignore_index=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    table = calibration_table(table_in)
    table.to_csv(out / "calibration_mu.csv", index=False, float_format="%.6g")
    plot_calibration(table, out / "calibration_mu.png")
    scores = brier(table_in).assign(weights=ident, deals=args.deals, seed=args.seed, worlds_per_decision=args.worlds)
    scores.to_csv(out / "calibration_mu_brier.csv", index=False, float_format="%.6g")
    print(scores.to_string(index=False))


if __name__ == "__main__":
    main()
