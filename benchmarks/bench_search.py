"""Speed of the search player (`--play search`): deals a second on one core at a budget.

For each game of GAMES and each --worlds budget: one search seat (seat 0, the heuristic at
the others) and every seat searching, the deals of `musim run` (seed 1) played on one thread
after a warm-up that compiles the kernels.  The machine's load average is printed with the
figures: other jobs on the cores slow them down.  Strength is not measured here (duplicate
deals: docs/performance.md).

Usage: python benchmarks/bench_search.py [--game mu] [--players 4] [--worlds 32,128] [--deals 400]
"""

import argparse
import importlib
import os
import time


def game_deals(module):
    """deals(players, play, worlds, start, count): plays deals of a run of seed 1 by the game's
    simulate_deals in `module`."""

    def deals(players, play, worlds, start, count):
        importlib.import_module(module).simulate_deals(players, 1, play, start, count, worlds=worlds)

    return deals


GAMES = {
    "mu": game_deals("musim.games.mu.run"),
    **{name: game_deals(f"musim.games.{name}.simulate") for name in ("wimmueln", "panther", "mueckenstich")},
}


def rate(deals, players, play, worlds, count):
    """Deals a second of one thread playing `count` deals of `play` at `worlds`."""
    deals(players, play, worlds, 0, 2)  # compiles, or loads the kernels from the cache
    t = time.perf_counter()
    deals(players, play, worlds, 2, count)
    return count / (time.perf_counter() - t)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(GAMES), default="mu")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--worlds", default="32", help="Comma-separated budgets (worlds a decision).")
    ap.add_argument("--deals", type=int, default=400, help="Deals timed with one search seat.")
    ap.add_argument("--all-deals", type=int, default=100, help="Deals timed with every seat searching.")
    args = ap.parse_args()
    deals, n = GAMES[args.game], args.players
    one = ",".join(["search"] + ["heuristic"] * (n - 1))
    print(f"{args.game}, {n} players, load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print("worlds  one search seat (deals/s)  every seat (deals/s)")
    for worlds in map(int, args.worlds.split(",")):
        single = rate(deals, n, one, worlds, args.deals)
        every = rate(deals, n, "search", worlds, args.all_deals)
        print(f"{worlds:6d}  {single:25.1f}  {every:20.1f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
