"""Calibration of the search player's worlds on held-out deals (docs/players.md "Search"): at
each card decision of an observer, for each other seat and each card hidden from the observer,
the predicted chance that the seat holds the card, by uniform worlds and by worlds weighted by
the game's shipped parameters, against how often it does.  The game's beliefs module says who
observes (its HOOK.calibration): in Mü seat 0, playing search-uniform, among heuristic seats
bidding by --auction; in Wimmüln, The Last Panther and Mückenstich every seat, each playing the
heuristic, its uniform and weighted worlds the same draws.

Writes <--out>/calibration_<game>.csv (musim.analysis.calibration's table, by trick),
calibration_<game>.png and calibration_<game>_brier.csv (the Brier score, and in the trick games
the log score, uniform beside weighted).  Refuses the seed the parameters were fitted on.

Usage: python scripts/calibrate_worlds.py --game G --players 4 --deals 300 --seed 6101
       [--worlds 128] [--out results/search] [Mü: --auction cautious]
"""

import argparse
import sys
from pathlib import Path

from musim.analysis.calibration import KEYS, calibration_table, plot_calibration, scores
from musim.games import beliefs_hook, get_game, weighted_games
from musim.play import world_weights


def arguments(argv):
    """(the parsed arguments, the game's own calibration options {name: (default, help)})."""
    probe = argparse.ArgumentParser(add_help=False)
    probe.add_argument("--game", choices=weighted_games())
    game = probe.parse_known_args(argv)[0].game
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=weighted_games(), required=True)
    ap.add_argument("--players", default="4", help="Player counts, comma-separated.")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--worlds", type=int, default=128)
    ap.add_argument("--out", default="results/search")
    options = beliefs_hook(game).options if game else {}
    for name, (default, text) in options.items():
        ap.add_argument("--" + name, default=default, help=text)
    return ap.parse_args(argv), options


def main(argv=None):
    args, options = arguments(sys.argv[1:] if argv is None else argv)
    if args.deals < 1 or args.worlds < 1:
        sys.exit("--deals and --worlds must be at least 1")
    hook = beliefs_hook(args.game)
    params, meta = world_weights.read(world_weights.path_of(hook.weights), hook.weights)
    if args.seed == meta["seed"]:
        sys.exit(f"--seed {args.seed} fitted the parameters; choose held-out deals")
    low, high = hook.weights.players or get_game(args.game).players
    try:
        players = [int(n) for n in args.players.split(",")]
    except ValueError:
        players = []
    if not players or not all(low <= n <= high for n in players):
        sys.exit(f"--players {args.players}: counts within {low}..{high}")
    own = {name: getattr(args, name) for name in options}
    predictions = hook.calibration(players, args.deals, args.seed, args.worlds, params, **own)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"calibration_{args.game}"
    table = calibration_table(predictions)
    table.to_csv(f"{stem}.csv", index=False, float_format="%.6g")
    plot_calibration(table, f"{stem}.png")
    ident = world_weights.resolve(hook.weights, "")[0]  # the column `weights` in Mü's table, `params` in the others'
    run = {"weights": ident, "params": ident, "deals": args.deals, "seed": args.seed}
    run["worlds_per_decision"] = args.worlds
    summary = scores(predictions).assign(**run)[[*KEYS[:-1], *hook.scores]]
    summary.to_csv(f"{stem}_brier.csv", index=False, float_format="%.6g")
    print(summary.to_string(index=False))
    print(f"wrote {stem}.csv, {stem}.png, {stem}_brier.csv")


if __name__ == "__main__":
    main()
