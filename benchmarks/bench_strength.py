"""Time of the pure-strength view under double-dummy play (`musim balance --play dd`).

For each random deal, every seat is chief with every trump it could name and every
partner (no vice), and the highest level it reaches is kept: contracts.strength, the
kernel `musim balance` runs, on one core with a 512 MB table.

Usage: python benchmarks/bench_strength.py [--players 3] [--deals 10] [--seed 1]
"""

import argparse
import random
import time

import numpy as np

from musim.analysis import contracts
from musim.games.mu import simulate as sim
from musim.games.mu.ddplay import make_ddplay
from musim.games.mu.policies import DD
from musim.solver.stats import S_NODES


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    n = a.players
    deck, size = (36, 12) if n == 3 else (60, 60 // n)
    rng = random.Random(a.seed)
    hands = np.zeros((a.deals, sim.MAX_PLAYERS), np.uint64)
    for i in range(a.deals):
        cards = rng.sample(range(deck), deck)
        for s in range(n):
            hands[i, s] = sum(1 << c for c in cards[size * s : size * (s + 1)])
    ws = sim.make_workspace(n, make_ddplay(512))
    tiny = np.zeros((1, sim.MAX_PLAYERS), np.uint64)
    tiny[0, :n] = [1 << s for s in range(n)]
    contracts.strength(n, tiny, DD, np.zeros((1, n), np.int64), ws)  # load the kernels
    best = np.zeros((a.deals, n), np.int64)
    times = []
    nodes = ws.dd.st.stats[S_NODES]
    for i in range(a.deals):
        t = time.perf_counter()
        contracts.strength(n, hands[i : i + 1], DD, best[i : i + 1], ws)
        times.append(time.perf_counter() - t)
    times.sort()
    print(
        f"{n} players, {a.deals} deals: {sum(times):.1f} s in all, median {times[len(times) // 2]:.2f} s, "
        f"max {times[-1]:.2f} s per deal; {ws.dd.st.stats[S_NODES] - nodes:,} nodes; mean level {best.mean():.2f}"
    )


if __name__ == "__main__":
    main()
