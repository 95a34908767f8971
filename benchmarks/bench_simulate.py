"""Speed and memory of `musim run --game mu` (issue: deals/s, compile time, peak memory).

Prints a table:
  * kernel throughput per core (deals/s, best of 5 chunks of 32768 deals), random and heuristic;
  * end-to-end `musim run` wall time and deals/s with Parquet output, 1 and 2 workers;
  * numba compile time, cold (empty cache) and cached (first call in a fresh process);
  * peak resident memory of `musim run --deals 1e5` and `--deals 1e6`.
With --auction learned instead: the learned auction's kernel throughput beside the cautious one's
(heuristic play, chunks of the two interleaved in one process, best of 5 each: the ratio survives
a loaded machine better than the rates), and `musim run` of each end to end on one worker.

Usage: python benchmarks/bench_simulate.py [--deals 1e6] [--players 4] [--auction learned]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

FIRST_CALL = (
    "import time; t = time.perf_counter(); from musim.games.mu.params import MuParams; "
    "from musim.games.mu.run import simulate_deal_chunk; "
    "[simulate_deal_chunk(MuParams({n}, p), 1, 0, 10) for p in ('random', 'heuristic')]; "
    "print(time.perf_counter() - t)"
)


def first_call_seconds(players, env):
    """Seconds to the kernels' first results in a fresh process (FIRST_CALL)."""
    cmd = [sys.executable, "-c", FIRST_CALL.format(n=players)]
    return float(subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout)


def kernel_rate(players, play):
    from musim.games.mu import simulate as sim
    from musim.games.mu.policies import NAMES
    from musim.games.mu.run import DealChunk

    count = 1 << 15
    ch = DealChunk(players, 0, count)
    ws = sim.make_workspace(players)
    best = float("inf")
    for rep in range(6):
        t = time.perf_counter()
        ch.start = rep * count
        ch.play(7, *NAMES[play], ws)
        if rep:
            best = min(best, time.perf_counter() - t)
    return count / best


def auction_rates(players, auctions):
    """{auction: kernel deals/s, 1 core, heuristic play}: chunks of the auctions interleaved, best of 5."""
    from musim.games.mu import simulate as sim
    from musim.games.mu.params import MuParams
    from musim.games.mu.run import DealChunk

    count = 1 << 15
    ch = DealChunk(players, 0, count)
    runs = {}
    for auction in auctions:
        params = MuParams(players, auction=auction)
        runs[auction] = (sim.run_policy(*sim.policy_codes(params)), sim.workspace_of(params))
    best = dict.fromkeys(auctions, float("inf"))
    for rep in range(6):
        for auction, (policy, ws) in runs.items():
            t = time.perf_counter()
            ch.start = rep * count
            ch.play(7, policy, ws)
            if rep:
                best[auction] = min(best[auction], time.perf_counter() - t)
    return {auction: count / seconds for auction, seconds in best.items()}


def learned_bench(players, deals):
    """The learned auction against the cautious one (module doc)."""
    rates = auction_rates(players, ("cautious", "learned"))
    for auction, rate in rates.items():
        print(f"kernel, 1 core, {players} players, heuristic play, --auction {auction:8s}: {rate:>10,.0f} deals/s")
    print(f"learned / cautious: {rates['learned'] / rates['cautious']:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.parquet")
        for auction in ("cautious", "learned"):
            args = ["--deals", str(deals), "--players", str(players), "--auction", auction, "--workers", "1"]
            run_cli(["--deals", "1000", "--auction", auction, "--out", out, "--overwrite"])  # warm the cache
            wall, _ = run_cli([*args, "--seed", "1", "--out", out, "--overwrite"])
            print(f"musim run --deals {deals:.0e} --auction {auction:8s} --workers 1: {deals / wall:>10,.0f} deals/s")


def run_cli(args, env=None):
    """Wall time and peak RSS (MiB) of one `musim run` in a fresh process."""
    probe = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); "
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, "musim", "run", *args], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    wall, rss_kib, rc = float(out[0]), int(out[1]), int(out[2])
    if rc != 0:
        raise SystemExit(f"musim run {' '.join(args)} failed with exit code {rc}")
    return wall, rss_kib / 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="1e6")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--auction", choices=["learned"], help="the learned auction against the cautious one")
    a = ap.parse_args()
    deals = int(float(a.deals))
    if a.auction:
        learned_bench(a.players, deals)
        return

    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cold = first_call_seconds(a.players, env)  # compiles into the empty cache
        cached = first_call_seconds(a.players, env)  # loads from it
    print(f"compile (first call, random+heuristic): cold {cold:.1f} s, cached {cached:.2f} s")

    for play in ("random", "heuristic"):
        print(f"kernel, 1 core, {a.players} players, {play:9s}: {kernel_rate(a.players, play):>10,.0f} deals/s")

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.parquet")
        run_cli(["--deals", "1000", "--play", "heuristic", "--out", out, "--overwrite"])  # warm the cache
        for play in ("random", "heuristic"):
            for workers in (1, 2):
                wall, rss = run_cli(
                    [
                        "--deals",
                        str(deals),
                        "--players",
                        str(a.players),
                        "--play",
                        play,
                        "--workers",
                        str(workers),
                        "--seed",
                        "1",
                        "--out",
                        out,
                        "--overwrite",
                    ]
                )
                print(
                    f"musim run --deals {deals:.0e} --play {play:9s} --workers {workers}: "
                    f"{wall:6.2f} s wall, {deals / wall:>10,.0f} deals/s, peak RSS {rss:,.0f} MiB"
                )
        peaks = {}
        for n in (100_000, 1_000_000):
            wall, rss = run_cli(
                [
                    "--deals",
                    str(n),
                    "--players",
                    str(a.players),
                    "--play",
                    "heuristic",
                    "--seed",
                    "1",
                    "--out",
                    out,
                    "--overwrite",
                ]
            )
            peaks[n] = rss
            print(f"peak RSS at --deals {n:.0e} (heuristic, all cores): {rss:,.0f} MiB ({wall:.2f} s)")
        print(f"memory growth 1e5 -> 1e6: {peaks[1_000_000] / peaks[100_000] - 1:+.1%}")


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
