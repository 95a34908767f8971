"""What the search player's exact endgames (`--search-exact-tricks K`) buy and cost: for each K,
the duplicate gain of one `search` seat over the heuristic in the same seat, over the first
search player (`search-uniform`) and over `search` at K = 0 (no exact endgame), and deals a
second of the runs, in one game at one player count (`search-uniform` first, on its own row).

Every seat takes `search` in turn among heuristic seats (seats rotated, deals 0..N-1 of
--seed); a deal's gain is the mean over the rotations and the 95% interval is over deals, as in
musim.play.duplicate.  Against K = 0 the two are paired on the same deals and seats.  The rates
are of one thread, after a warm-up that compiles the kernels, with the load average beside them
(other jobs on the cores slow them down).  Used to choose search_budget.DEFAULT_EXACT_TRICKS.

Usage: python benchmarks/bench_exact_endgame.py [--game mu] [--players 4] [--deals 200]
       [--tricks 0,2,3,4,5] [--worlds 128] [--seed 2061]
(--game mu, wimmueln, panther or mueckenstich.)
"""

import argparse
import importlib
import os
import time

import numpy as np

GAMES = {name: f"musim.games.{name}.simulate" for name in ("mu", "wimmueln", "panther", "mueckenstich")}


def seat_scores(simulate, n, seed, deals, play, **options):
    """((deals, n) scores of each seat playing `play` among heuristic seats, seconds taken)."""
    out = np.zeros((deals, n))
    t = time.perf_counter()
    for seat in range(n):
        mix = ["heuristic"] * n
        mix[seat] = play
        out[:, seat] = simulate(n, seed, mix, 0, deals, **options)["scores"][:, seat]
    return out, time.perf_counter() - t


def interval(gain):
    """The mean of per-deal gains (rows: deals, columns: seats) ± the half-width of its 95% interval."""
    g = gain.mean(axis=1)
    return f"{g.mean():+.2f} ± {1.96 * g.std(ddof=1) / np.sqrt(len(g)):.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(GAMES), default="mu")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--tricks", default="0,2,3,4,5", help="Comma-separated K (0: no exact endgame).")
    ap.add_argument("--worlds", type=int, default=128)
    ap.add_argument("--seed", type=int, default=2061)
    args = ap.parse_args()
    simulate = importlib.import_module(GAMES[args.game]).simulate_deals
    n, seed, deals = args.players, args.seed, args.deals
    base = simulate(n, seed, "heuristic", 0, deals)["scores"][:, :n]
    print(f"{args.game}, {n} players, {deals} deals (seed {seed}), {args.worlds} worlds, one search seat rotated")
    print("player      gain over heuristic  over search-uniform  over K=0        deals/s  load")
    uniform = zero = None
    for k in [-1, *map(int, args.tricks.split(","))]:
        play, options = ("search-uniform", {}) if k < 0 else ("search", {"exact_tricks": k} if k else {})
        options["worlds"] = args.worlds
        warm = ",".join([play] + ["heuristic"] * (n - 1))
        simulate(n, seed, warm, deals, 2, **options)  # compiles, or loads the kernels from the cache
        scores, seconds = seat_scores(simulate, n, seed, deals, play, **options)
        uniform = scores if k < 0 else uniform
        zero = scores if k == 0 else zero
        gains = [interval(scores - other) if other is not None else "-" for other in (base, uniform, zero)]
        name = play if k < 0 else f"search K={k}"
        line = f"{name:14s}  {gains[0]:19s}  {gains[1]:19s}  {gains[2]:14s}"
        print(f"{line}  {n * deals / seconds:7.1f}  {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
