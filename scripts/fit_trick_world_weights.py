"""Fit the parameters of a trick game's weighted worlds (docs/players.md "Search") by a grid
search on simulated deals: every seat plays the heuristic (the model the weights assume); at
each card decision the seat to move draws its worlds, and the grid row whose weighted worlds
give the best mean log score of the predicted chance that each other seat holds each hidden card
wins (the Brier score beside it).  Row 0 of the grid is the uniform worlds.

Writes the game's musim/games/<game>/models/world_weights_v1.npz (musim/play/world_weights.py)
and results/search/world_weights_<game>.csv (every grid row's scores).  Never fit on the
evaluation seeds (2062 and above, 2026, 2027).

Usage: python scripts/fit_trick_world_weights.py --game wimmueln --seed 61 [--deals 200] [--worlds 128]
"""

import argparse
import importlib
import itertools
import os
import sys
import time

import numpy as np
import pandas as pd

from musim.play import world_weights
from musim.play.beliefs import log_score

GAMES = ("wimmueln", "panther", "mueckenstich")
EVALUATION_SEEDS = (2026, 2027)


def fit(game, players, seed, deals, worlds):
    """(grid, log scores, Brier scores, seconds): every grid row scored on the same worlds."""
    module = importlib.import_module(f"musim.games.{game}.beliefs")
    grid = [[0.5] * len(module.NAMES)] + [list(row) for row in itertools.product(*module.GRID)]
    start = time.time()
    found = module.predictions(players, seed, 0, deals, worlds, grid)
    p = np.concatenate([f[1] for f in found], axis=1)
    held = np.concatenate([f[2] for f in found])
    return module, grid, log_score(p, held), ((p - held) ** 2).mean(axis=1), time.time() - start


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=GAMES, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--worlds", type=int, default=128)
    ap.add_argument("--out", default="results/search")
    args = ap.parse_args(argv)
    if args.seed in EVALUATION_SEEDS or args.seed >= 2062:
        sys.exit(f"--seed {args.seed}: an evaluation seed (2026, 2027, 2062 and above); fit on another")
    if args.deals < 1 or args.worlds < 1:
        sys.exit("--deals and --worlds must be at least 1")
    module, grid, logs, briers, seconds = fit(args.game, args.players, args.seed, args.deals, args.worlds)
    best = 1 + int(np.argmax(logs[1:]))
    table = pd.DataFrame(grid[1:], columns=list(module.NAMES)).assign(log_score=logs[1:], brier=briers[1:])
    table.loc[-1] = [np.nan] * len(module.NAMES) + [logs[0], briers[0]]  # the uniform worlds
    os.makedirs(args.out, exist_ok=True)
    table.sort_index().to_csv(
        os.path.join(args.out, f"world_weights_{args.game}.csv"), index=False, float_format="%.6g"
    )
    command = "python scripts/fit_trick_world_weights.py " + " ".join(argv if argv is not None else sys.argv[1:])
    meta = {"version": 1, "seed": args.seed, "players": args.players, "deals": args.deals, "worlds": args.worlds}
    meta |= {"command": command, "log_score": logs[best], "brier": briers[best]}
    meta |= {"uniform_log_score": logs[0], "uniform_brier": briers[0]}
    world_weights.save(world_weights.path_of(args.game), args.game, module.NAMES, grid[best], meta)
    size = f"{args.deals} deals, {args.worlds} worlds, seed {args.seed}"
    print(f"{args.game}, {args.players} players, {size} ({seconds:.0f} s)")
    print(f"uniform worlds: log score {logs[0]:.4f}, Brier {briers[0]:.4f}")
    chosen = ", ".join(f"{n} {v}" for n, v in zip(module.NAMES, grid[best]))
    print(f"best: {chosen}: log score {logs[best]:.4f}, Brier {briers[best]:.4f}")
    print(f"wrote {world_weights.path_of(args.game)} ({world_weights.shipped(args.game, module.NAMES)[1]})")


if __name__ == "__main__":
    main()
