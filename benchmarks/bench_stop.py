"""What a stopped exact-play run keeps: start `musim run --play dd` in its own process, send it
SIGTERM after --after seconds, and report the stop message (rows kept, the --resume command)
and how long the stop took.  numba's cache is warmed by a one-deal run first, so the
seconds count playing, not compiling.

Usage: python benchmarks/bench_stop.py [--players 4] [--deals 200] [--after 120] [--seed 1]
"""

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time


def musim(*args):
    return [sys.executable, "-m", "musim", *map(str, args)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--after", type=float, default=120.0, help="seconds of playing before SIGTERM")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        warm = musim("run", "--players", args.players, "--play", "dd", "--deals", 1, "--seed", args.seed)
        subprocess.run([*warm, "--out", os.path.join(tmp, "warm"), "--no-progress"], check=True, capture_output=True)
        out = os.path.join(tmp, "run")
        command = musim("run", "--players", args.players, "--play", "dd", "--deals", args.deals, "--seed", args.seed)
        proc = subprocess.Popen([*command, "--out", out, "--no-progress"], stderr=subprocess.PIPE, text=True)
        time.sleep(args.after)
        t = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate()
        stop_s = time.perf_counter() - t
        said = [line for line in err.splitlines() if "stopped" in line]
        print(f"{args.players} players, --deals {args.deals}, SIGTERM after {args.after:.0f} s: exit {proc.returncode}")
        print(f"stop took {stop_s:.1f} s; musim said: {said[-1] if said else err.strip()[-300:]}")


if __name__ == "__main__":
    main()
