"""Fit the parameters of Mü's weighted worlds (world_weights.py) on simulated deals and write
them as musim/games/mu/models/world_weights_v1.npz (weights_file.py).

Criterion: the Brier score of the weighted worlds' predicted chance that each other seat holds
each card hidden from an observer, at each card decision of the observer (seat 0, playing
`search-uniform`, whose worlds the probe records: analysis/world_calibration.py), on `--deals`
deals of `--seed` (never the evaluation seeds 2026, 2027, 2062+).  The other seats play the
heuristic and bid cautious, learned and bold in turn (every parameter then has actions to
explain).  Coordinate search: from START (the weakest weights of the grids), each parameter in
turn over its grid, the others held, twice round; ties keep the earlier value.  Each player count is fitted on its own.

Usage: python scripts/fit_world_weights.py --seed 61 [--players 3,4,5,6] [--deals 150] [--worlds 32]
"""

import argparse
import sys
import time

import numpy as np

from musim.games.mu import weights_file
from musim.games.mu.analysis.world_calibration import brier, predictions

GRIDS = (
    (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0),  # tau (Q in points of a deal score)
    (0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9),  # eps_auction: the chance of a uniform choice
    (0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9),  # eps_setup
    (0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9),  # eps_play
)
START = (64.0, 0.9, 0.9, 0.9)  # the weak end: each parameter sharpens only where that pays
ROUNDS = 2
FORBIDDEN = {2026, 2027}  # and 2062 on: the evaluation seeds


def auction(players):
    """The fit's auction models: the observer cautious, the others learned, cautious, bold in turn."""
    cycle = ("learned", "cautious", "bold")
    return ",".join(["cautious"] + [cycle[i % 3] for i in range(players - 1)])


def fit(players, deals, seed, worlds):
    """(params row, uniform Brier, weighted Brier) of one player count."""
    score = lambda row: brier(predictions(players, deals, seed, row, worlds, auction(players)), "weighted")
    best = np.array(START, np.float64)
    frame = predictions(players, deals, seed, best, worlds, auction(players))
    uniform, best_score = brier(frame, "uniform"), brier(frame, "weighted")
    for _ in range(ROUNDS):
        for i, grid in enumerate(GRIDS):
            for v in grid:
                if v == best[i]:
                    continue
                trial = best.copy()
                trial[i] = v
                s = score(trial)
                if s < best_score:
                    best, best_score = trial, s
            print(f"  {players} players: {weights_file.NAMES[i]} = {best[i]:g}, Brier {best_score:.5f}", flush=True)
    return best, uniform, best_score


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--players", default="3,4,5,6")
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--worlds", type=int, default=32)
    ap.add_argument("--out", default=str(weights_file.MODELS / weights_file.SHIPPED["v1"]))
    args = ap.parse_args()
    if args.seed in FORBIDDEN or args.seed >= 2062:
        sys.exit(f"fit_world_weights.py: --seed {args.seed} is an evaluation seed (2026, 2027, 2062+)")
    params = np.array([START] * weights_file.SHAPE[0], np.float64)
    scores = {}
    started = time.perf_counter()
    for n in map(int, args.players.split(",")):
        row, uniform, weighted = fit(n, args.deals, args.seed, args.worlds)
        params[n - 3] = row
        scores[str(n)] = {"brier_uniform": round(uniform, 6), "brier_weighted": round(weighted, 6)}
        print(f"{n} players: {dict(zip(weights_file.NAMES, row.tolist()))}, Brier {uniform:.5f} -> {weighted:.5f}")
    meta = {
        "version": 1,
        "seed": args.seed,
        "command": "python scripts/fit_world_weights.py " + " ".join(sys.argv[1:]),
        "criterion": "Brier score of the weighted worlds' chance that each other seat holds each hidden card "
        "(analysis/world_calibration.py), coordinate search over GRIDS",
        "deals": args.deals,
        "worlds": args.worlds,
        "scores": scores,
    }
    weights_file.save(args.out, params, meta)
    print(f"wrote {args.out} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
