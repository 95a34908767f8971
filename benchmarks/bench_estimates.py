"""The figures behind musim's run-time estimates (musim/engine/progress.py), and how well they hold.

The times are CPU seconds of the process (the machine is shared: its wall times swing with the
load; on a quiet core they are the wall times of a worker).

dd-sample: the time of each deal of `musim run --players P --play dd --seed S`, deals 0..N-1
(eklats included: they are rows too), one at a time on one worker with the default table, each
stopped at --node-limit nodes (about 3 million a second): its median and 90th percentile, what the
start warning of an exact run at 4-6 players quotes (a deal stopped at the limit counts as its
time so far, so a percentile at or above the limit's time is a lower bound).

dd-check: `musim run --players P --play dd --deals D --seed S --workers W` run as a user runs it
(cache filled first by `musim compile --game mu --solver`), stopped by SIGTERM after --stop-after
seconds if given (which keeps every finished deal): its start warning, then the deals finished,
the wall and CPU time, and the pace projected to the whole run, against the warning's estimate.

calibrate: the seconds an item of each kind of work takes one worker (mu/estimates.py COSTS), on
seed 2026 (not the README's seeds), and the fixed costs: a Python start that loads the cached
kernels, and `musim balance`'s tables and plots.  Prints them as mu/estimates.py holds them.

readme: each of the README's commands run as it is (warm compile cache), its wall time and its
CPU time over the workers (what the wall time would be on quiet cores) against musim's estimate
of it (mu/estimates.py).

slicing: what the progress bar's slices cost: the CPU time of --chunks chunks of 2^15 heuristic
deals at 4 players (the Job of `musim run`: kernel and Arrow batch), computed with a listener
(slices of 1, 2, 4, ... deals, progress.slices) and without (one call a chunk), alternately.

Usage: python benchmarks/bench_estimates.py dd-sample [--players 4 5 6] [--deals 15] [--seed 2026]
       [--node-limit 5e7]
       python benchmarks/bench_estimates.py dd-check [--players 4] [--deals 50] [--seed 3] [--workers 2]
       [--stop-after SECONDS]
       python benchmarks/bench_estimates.py calibrate
       python benchmarks/bench_estimates.py readme
       python benchmarks/bench_estimates.py slicing [--chunks 10]
"""

import argparse
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from musim.core.cards import CARD_TEXT
from musim.games.mu import simulate as sim
from musim.games.mu.ddplay import UNRESOLVED
from musim.games.mu.params import MuParams
from musim.games.mu.run import simulate_deal_chunk


def dd_sample(players, deals, seed, node_limit):
    for n in players:
        simulate_deal_chunk(MuParams(n, "dd"), seed, 0, 0)  # compiles (or loads) the kernels first
        times, stopped = [], 0
        for deal in range(deals):
            t = time.process_time()
            ch = simulate_deal_chunk(MuParams(n, "dd", node_limit=node_limit), seed, deal, 1)
            times.append(time.process_time() - t)
            print(f"  {n} players, deal {deal}: {times[-1]:.2f} s", flush=True)
            stopped += int(ch.res[0, sim.OUTCOME] == sim.PLAYED and ch.res[0, sim.DD_VALUE] == UNRESOLVED)
        ordered = sorted(times)
        p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        print(
            f"{n} players, {deals} deals of seed {seed}, node limit {node_limit:.0e}: "
            f"median {statistics.median(times):.2f} s, p90 {p90:.2f} s, max {ordered[-1]:.2f} s, "
            f"mean {statistics.mean(times):.2f} s, {stopped} stopped at the limit; "
            f"each: {' '.join(f'{t:.2f}' for t in times)}",
            flush=True,
        )


SEED = 2026
README = {
    "run": "run --game mu --deals 1e6",
    "run-dd": "run --players 3 --play dd --deals 100 --seed 7",
    "bid": 'bid --players 5 --hand "R9 R8 R7 R7 R6 G9 G7 B1 K0 K3 Y2 Y5" --seed 1',
    "balance": "balance --players 3,4,5,6 --deals 2e4 --seed 2026 --out runs/balance",
}


def per_item(items, fn, *args):
    """Seconds fn(*args) takes per item of its `items`."""
    started = time.process_time()
    fn(*args)
    return (time.process_time() - started) / items


def musim_seconds(args, cwd):
    """(wall, CPU) seconds of `python -m musim ARGS` in `cwd` (the checkout's code)."""
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    cpu = _children_cpu()
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "musim", *args], cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - started, _children_cpu() - cpu


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def calibrate():
    from musim.engine.spec import RunSpec, checked
    from musim.games.mu.analysis.balance import _strength_arrays
    from musim.games.mu.analysis.bid import bid_strength

    costs = {}
    for n in (3, 4, 5, 6):
        for play, deals in (("heuristic", 1 << 15), ("random", 1 << 15), ("dd", 40 if n == 3 else 0)):
            if not deals:
                continue
            spec = RunSpec("mu", "deals", deals, n, play, seed=SEED, workers=1)
            job = checked(spec).job(spec)
            job.to_batch(job.simulate(0, 1))  # compiles (or loads) first
            costs["deal", n, play] = per_item(deals, lambda j, k: j.to_batch(j.simulate(0, k)), job, deals)
            costs["table", n, play] = per_item(deals, simulate_deal_chunk, MuParams(n, play), SEED, 0, deals)
        hands = simulate_deal_chunk(MuParams(n, "heuristic"), SEED, 0, 2000).hands
        _strength_arrays(MuParams(n), 0, 1, hands[:1])
        costs["strength", n, "heuristic"] = per_item(2000, _strength_arrays, MuParams(n), 0, 2000, hands)
        hand = " ".join(CARD_TEXT[c] for c in range(64) if int(hands[0, 0]) >> c & 1)
        for play, samples in (("heuristic", 200), ("dd", 20 if n == 3 else 0)):
            if not samples:
                continue
            plays = []
            bid_strength(MuParams(n, play), hand, 1, SEED, started=plays.append)
            costs["bid", n, play] = per_item(samples * plays[0], bid_strength, n, hand, samples, SEED, play)
    for key, seconds in costs.items():
        print(f"    {key!r}: {seconds:.3g},", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        one = ["run", "--deals", "1", "--players", "3", "--seed", "1", "--no-progress", "--overwrite"]
        musim_seconds(one, tmp)  # warm
        startup = musim_seconds(one, tmp)[1]
        args = ["balance", "--players", "3", "--deals", "100", "--seed", "1", "--out", "b", "--no-progress"]
        report = musim_seconds(args, tmp)[1] - startup
    print(f"STARTUP_S = {startup:.1f}\nREPORT_S = {report:.1f}")


def readme():
    from musim.engine.spec import RunSpec, checked
    from musim.games.mu.analysis.bid import bid_strength
    from musim.games.mu.estimates import balance_seconds, bid_seconds, run_seconds

    workers = os.cpu_count() or 1

    def run_estimate(players, play, deals):
        spec = RunSpec("mu", "deals", deals, players, play, workers=workers)
        checked(spec)
        return run_seconds(spec)

    plays = []
    bid_strength(MuParams(5), "R9 R8 R7 R7 R6 G9 G7 B1 K0 K3 Y2 Y5", 1, 1, started=plays.append)
    estimates = {
        "run": run_estimate(4, "heuristic", 10**6),
        "run-dd": run_estimate(3, "dd", 100),
        "bid": bid_seconds(5, 1068, plays[0], "heuristic", workers),
        "balance": balance_seconds([3, 4, 5, 6], 20_000, 20_000, "heuristic", 0, workers),
    }
    with tempfile.TemporaryDirectory() as tmp:
        musim_seconds(["run", "--deals", "1", "--players", "3", "--seed", "1", "--no-progress"], tmp)  # warm
        for name, command in README.items():
            import shlex

            wall, cpu = musim_seconds([*shlex.split(command), "--no-progress"], tmp)
            estimate, quiet = estimates[name], cpu / workers
            print(
                f"musim {command}: estimated {estimate:.1f} s; measured {wall:.1f} s wall, {cpu:.1f} s CPU "
                f"({quiet:.1f} s over {workers} workers); estimate / CPU over workers {estimate / quiet:.2f}",
                flush=True,
            )


def slicing(chunks):
    from musim.engine.progress import reporting
    from musim.engine.spec import RunSpec, checked

    spec = RunSpec("mu", "deals", chunks << 15, 4, "heuristic", seed=SEED, workers=1)
    job = checked(spec).job(spec)
    job.to_batch(job.simulate(0, 1))  # compiles (or loads) first
    chunk = lambda i: job.to_batch(job.simulate(i << 15, 1 << 15))
    plain, sliced = 0.0, 0.0
    for i in range(chunks):
        plain += per_item(1, chunk, i)
        with reporting(lambda count: None):
            sliced += per_item(1, chunk, i)
    print(f"{chunks} chunks of 2^15 deals: {plain:.2f} s CPU in one call each, {sliced:.2f} s in slices")


def dd_check(players, deals, seed, workers, stop_after):
    from musim.games.mu import estimates

    mean = estimates.DD_DEAL_SECONDS[players][2]
    announced = deals * mean / workers
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    subprocess.run([sys.executable, "-m", "musim", "compile", "--game", "mu", "--solver"], env=env, check=True)
    with tempfile.TemporaryDirectory() as tmp:
        args = ["run", "--players", players, "--play", "dd", "--deals", deals, "--seed", seed, "--workers", workers]
        args = [sys.executable, "-m", "musim", *map(str, args), "--out", f"{tmp}/run", "--no-progress"]
        cpu, started = _children_cpu(), time.perf_counter()
        proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            out, err = proc.communicate(timeout=stop_after or None)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate()
        wall, cpu = time.perf_counter() - started, _children_cpu() - cpu
    warning = next((line for line in err.splitlines() if "warning:" in line), "(no warning)")
    stopped = re.search(r"stopped: ([\d,]+) of", err)
    done = int(stopped.group(1).replace(",", "")) if stopped else deals if proc.returncode == 0 else 0
    print(f"the warning: {warning}")
    print(f"announced: {announced:.0f} s or more on {workers} worker(s) (the mean deal {mean} s or more)")
    print(
        f"measured: {done} of {deals} deals finished in {wall:.0f} s wall, {cpu:.0f} s CPU "
        f"({cpu / max(done, 1):.0f} s CPU a finished deal; load {os.getloadavg()[0]:.1f} at the end)"
    )
    if done:
        print(f"projected to {deals} deals at that pace: {wall * deals / done:.0f} s wall; {out.splitlines()[-1:]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("dd-sample")
    p.add_argument("--players", type=int, nargs="+", default=[4, 5, 6])
    p.add_argument("--deals", type=int, default=15)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--node-limit", type=float, default=5e7)
    p = sub.add_parser("dd-check")
    p.add_argument("--players", type=int, default=4, choices=[4, 5, 6])
    p.add_argument("--deals", type=int, default=50)
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--stop-after", type=float, default=0, help="seconds; 0: run to the end")
    sub.add_parser("calibrate")
    sub.add_parser("readme")
    sub.add_parser("slicing").add_argument("--chunks", type=int, default=10)
    args = parser.parse_args()
    if args.what == "dd-sample":
        dd_sample(args.players, args.deals, args.seed, int(args.node_limit))
    elif args.what == "dd-check":
        dd_check(args.players, args.deals, args.seed, args.workers, args.stop_after)
    elif args.what == "slicing":
        slicing(args.chunks)
    else:
        {"calibrate": calibrate, "readme": readme}[args.what]()


if __name__ == "__main__":
    main()
