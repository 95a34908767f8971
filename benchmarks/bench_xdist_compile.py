"""How often pytest-xdist's workers compile the same kernels, before and after a change.

Runs `python -m pytest -n WORKERS FILES` of each checkout given (side by side, at once, so that
both see the same load), each on its own empty NUMBA_CACHE_DIR, and prints its wall and CPU time
and the signatures numba compiled in each process (count_compiles.py): with every kernel compiled
once per session, the workers' sum is the count of one process running all the files.

Usage: python benchmarks/bench_xdist_compile.py --sources BEFORE AFTER [--workers 2]
       [--files tests/test_simulate.py tests/test_auction.py]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def start(source, files, workers, tmp):
    """The pytest process of `source`'s tests `files`, on the empty cache tmp/cache."""
    env = os.environ | {
        "NUMBA_CACHE_DIR": f"{tmp}/cache",
        "PYTHONPATH": f"{source}{os.pathsep}{HERE}",
        "COUNT_COMPILES_TO": f"{tmp}/counts",
    }
    args = [sys.executable, "-m", "pytest", "-p", "count_compiles", "-n", str(workers), "-q", "-p", "no:cacheprovider"]
    return subprocess.Popen([*args, *files], cwd=source, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sources", nargs="+", type=Path, required=True, help="checkouts to compare")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--files", nargs="+", default=["tests/test_simulate.py", "tests/test_auction.py"])
    opts = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} at the start; {' '.join(opts.files)} -n {opts.workers}", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench_xdist_") as tmp:
        runs = []
        for i, source in enumerate(opts.sources):
            os.makedirs(f"{tmp}/{i}")
            runs.append((source, f"{tmp}/{i}", start(source.resolve(), opts.files, opts.workers, f"{tmp}/{i}")))
        started = time.perf_counter()
        for source, folder, proc in runs:
            out = proc.stdout.read().decode().strip().splitlines()
            _, status, usage = os.wait4(proc.pid, 0)  # its CPU time, its workers' included
            proc.returncode = os.waitstatus_to_exitcode(status)
            wall = time.perf_counter() - started
            counts = [line.split() for line in Path(f"{folder}/counts").read_text().splitlines()]
            per = ", ".join(f"{c} in {s} s" for _, c, s in counts)
            total = sum(int(c) for _, c, _ in counts)
            cpu = usage.ru_utime + usage.ru_stime
            print(f"{source}: exit {proc.returncode}, done {wall:.0f} s after the start, {cpu:.0f} s CPU; {out[-1]}")
            print(f"    signatures compiled per process (workers, controller): {per}; {total} in all", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
