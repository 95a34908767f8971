"""Deal throughput of The Last Panther, Wimmüln and Mückenstich, and how much the heuristic beats random.

Prints, per game and player count:
  * kernel throughput on one thread (deals/s, best of 5 chunks of 32768 deals), random and heuristic;
  * with --duplicate N: the points a deal one heuristic seat gains over the same seat playing
    random, the others random, on N duplicate deals with the seats rotated, and its 95% interval
    (musim.duplicate.duplicate_advantage).

Usage: python benchmarks/bench_tricks.py [--duplicate 100000] [--seed 2026] [--games panther ...]
"""

import argparse
import time

from musim.duplicate import duplicate_advantage
from musim.games.mueckenstich import simulate as mueckenstich
from musim.games.panther import simulate as panther
from musim.games.wimmueln import simulate as wimmueln

GAMES = {
    "panther": (panther, range(3, 9)),
    "wimmueln": (wimmueln, range(3, 7)),
    "mueckenstich": (mueckenstich, range(3, 7)),
}
CHUNK = 1 << 15


def rate(sim, players, policy, ws):
    """Best deals/s over 5 chunks (the first call compiles or loads the kernels beforehand)."""
    sim.simulate_deals(players, 1, policy, 0, 10, ws)
    best = float("inf")
    for k in range(5):
        t = time.perf_counter()
        sim.simulate_deals(players, 1, policy, k * CHUNK, CHUNK, ws)
        best = min(best, time.perf_counter() - t)
    return CHUNK / best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duplicate", type=int, default=0, help="duplicate deals per player count (0: skip)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--games", nargs="+", choices=sorted(GAMES), default=list(GAMES))
    a = ap.parse_args()
    header = "game          players  random deals/s  heuristic deals/s"
    print(header + ("  heuristic gain a deal" if a.duplicate else ""))
    for name in a.games:
        sim, seats = GAMES[name]
        ws = sim.make_workspace()
        for n in seats:
            line = f"{name:13s} {n:7d}  {rate(sim, n, 'random', ws):14,.0f}  {rate(sim, n, 'heuristic', ws):17,.0f}"
            if a.duplicate:
                mean, half = duplicate_advantage(sim.simulate_deals, n, a.seed, a.duplicate)
                line += f"  {mean:+8.2f} +- {half:.2f}"
            print(line)


if __name__ == "__main__":
    main()
