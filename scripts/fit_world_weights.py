"""Fit the parameters of a game's weighted worlds (docs/players.md "Search") on simulated deals
and write them as its musim/games/<game>/models/world_weights_v1.npz (musim/play/world_weights.py).

How is the game's (its beliefs module's HOOK.fit): in Mü, a coordinate search at each player
count for the parameters whose worlds give the best Brier score of the predicted chance that
each other seat holds each hidden card (musim/games/mu/beliefs.py); in Wimmüln, The Last Panther
and Mückenstich, a grid search at one player count on the log score of those predictions
(musim/play/beliefs.py), every grid row's scores written to <--results>/world_weights_<game>.csv.
Never fit on the evaluation seeds (2026, 2027, 2062 and above).

Usage: python scripts/fit_world_weights.py --game G --seed 61 [--players 4] [--deals 200]
       [--worlds 128] [--out FILE] [--results results/search]
"""

import argparse
import os
import sys
import time

from musim.games import beliefs_hook, get_game, weighted_games
from musim.play import world_weights

EVALUATION_SEEDS = (2026, 2027)  # and 2062 on


def player_counts(text, game, weights):
    """The --players text's counts (one where one row of parameters serves every count); by
    default each count the parameters have a row for, or the game's default player count."""
    low, high = weights.players or game.players
    first, last = weights.players or (game.default_players, game.default_players)
    counts = text.split(",") if text else range(first, last + 1)
    one_row = weights.players is None
    if not all(str(n).isdigit() and low <= int(n) <= high for n in counts) or (one_row and len(counts) != 1):
        sys.exit(f"--players {text}: {'counts' if weights.players else 'one count'} within {low}..{high}")
    return [int(n) for n in counts]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=weighted_games(), required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--players", default="", help="Player counts, comma-separated (default: see above).")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--worlds", type=int, default=128)
    ap.add_argument("--out", default="", help="The parameters file (default: the game's shipped file).")
    ap.add_argument("--results", default="results/search", help="Where a grid search writes its table.")
    args = ap.parse_args(argv)
    if args.seed in EVALUATION_SEEDS or args.seed >= 2062:
        sys.exit(f"--seed {args.seed}: an evaluation seed (2026, 2027, 2062 and above); fit on another")
    if args.deals < 1 or args.worlds < 1:
        sys.exit("--deals and --worlds must be at least 1")
    hook = beliefs_hook(args.game)
    started = time.perf_counter()
    players = player_counts(args.players, get_game(args.game), hook.weights)
    params, found, table = hook.fit(players, args.deals, args.seed, args.worlds)
    if table is not None:
        os.makedirs(args.results, exist_ok=True)
        path = os.path.join(args.results, f"world_weights_{args.game}.csv")
        table.to_csv(path, index=False, float_format="%.6g")
    meta = {"version": 1, "seed": args.seed, "deals": args.deals, "worlds": args.worlds}
    meta |= {"command": "python scripts/fit_world_weights.py " + " ".join(argv), **found}
    out = args.out or world_weights.path_of(hook.weights)
    world_weights.save(out, hook.weights, params, meta)
    print(f"wrote {out} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
