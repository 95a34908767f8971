"""Speed of the search player (`--play search`, or `--play search-uniform`): deals a second on
one core at a budget.

For the game and each --worlds budget: one search seat (seat 0, the heuristic at the others)
and every seat searching, the deals of `musim run` (seed 1) played on one thread after a
warm-up that compiles the kernels; `--exact-tricks K` gives `search` exact endgames (Mü, Wimmüln,
Panther, Mückenstich).  The machine's load average is printed with the
figures: other jobs on the cores slow them down.  Strength is not measured here (duplicate
deals: docs/performance.md).

Usage: python benchmarks/bench_search.py [--game mu] [--players 4] [--worlds 32,128] [--deals 400]
       [--play search] [--exact-tricks K]
"""

import argparse
import importlib
import os
import time


def game_deals(module):
    """deals(players, play, start, count, **options): plays deals of a run of seed 1 by the
    game's simulate_deals in `module` (options: worlds, exact_tricks)."""

    def deals(players, play, start, count, **options):
        importlib.import_module(module).simulate_deals(players, 1, play, start, count, **options)

    return deals


GAMES = {name: game_deals(f"musim.games.{name}.simulate") for name in ("mu", "wimmueln", "panther", "mueckenstich")}


def rate(deals, players, play, count, **options):
    """Deals a second of one thread playing `count` deals of `play` under `options`."""
    deals(players, play, 0, 2, **options)  # compiles, or loads the kernels from the cache
    t = time.perf_counter()
    deals(players, play, 2, count, **options)
    return count / (time.perf_counter() - t)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(GAMES), default="mu")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--worlds", default="32", help="Comma-separated budgets (worlds a decision).")
    ap.add_argument("--deals", type=int, default=400, help="Deals timed with one search seat.")
    ap.add_argument("--all-deals", type=int, default=100, help="Deals timed with every seat searching.")
    ap.add_argument("--play", choices=("search", "search-uniform"), default="search")
    ap.add_argument(
        "--exact-tricks", type=int, default=None, help="search's exact endgames (Mü, Wimmüln, Panther, Mückenstich)."
    )
    args = ap.parse_args()
    deals, n = GAMES[args.game], args.players
    one = ",".join([args.play] + ["heuristic"] * (n - 1))
    exact = {} if args.exact_tricks is None else {"exact_tricks": args.exact_tricks}
    print(f"{args.game}, {n} players, --play {args.play} {exact or ''}")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print("worlds  one search seat (deals/s)  every seat (deals/s)")
    for worlds in map(int, args.worlds.split(",")):
        single = rate(deals, n, one, args.deals, worlds=worlds, **exact)
        every = rate(deals, n, args.play, args.all_deals, worlds=worlds, **exact)
        print(f"{worlds:6d}  {single:25.1f}  {every:20.1f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
