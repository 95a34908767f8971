"""What a user's first commands cost on a cold compile cache (docs/performance.md "Compilation").

Each of the README's first commands runs as a fresh process on its own empty NUMBA_CACHE_DIR,
as on a new machine: its wall time, its CPU time, and when each line of its stderr came (the
compile notice, the default output's name).  `--again` runs each a second time on the cache the
first filled (the warm start).  `--after-compile` runs them all on one cache that `musim compile
--game mu --solver --search` filled first: none should compile.  `--source DIR` runs the musim of
another checkout (a `git worktree` or `git archive` of an older commit), to compare before and
after side by side.

Usage: python benchmarks/bench_compile.py [--commands run solve dd search] [--again | --after-compile]
       [--source DIR]
"""

import argparse
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {  # the README's first commands (a seed and --out added, so that reruns are alike)
    "run": "run --game mu --deals 1e6 --seed 7 --out {tmp}/run --overwrite",
    "solve": "solve {source}/docs/examples/mu-positions.jsonl",
    "dd": "run --players 3 --play dd --deals 100 --seed 7 --out {tmp}/dd --overwrite",
    "search": "run --game mu --play search,heuristic,heuristic,heuristic --deals 1000 --seed 1 --out {tmp}/search"
    " --overwrite",
    "compile": "compile --game mu --solver --search",
}


def timed(args, env, cwd):
    """(wall seconds, CPU seconds, [(seconds, stderr line)]) of `python -m musim ARGS`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "musim", *args], env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    lines = []
    reader = threading.Thread(
        target=lambda: lines.extend((time.perf_counter() - started, raw.decode().rstrip()) for raw in proc.stderr)
    )
    reader.start()
    proc.wait()
    reader.join()
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        sys.exit(f"bench_compile: musim {shlex.join(args)} exited {proc.returncode}: {lines[-1:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), lines


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commands", nargs="+", choices=sorted(COMMANDS), default=["run", "solve", "dd", "search"])
    parser.add_argument("--again", action="store_true", help="also run each on the cache it filled")
    parser.add_argument("--after-compile", action="store_true", help="all on one cache `musim compile` filled")
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout whose musim runs (default: this one)")
    opts = parser.parse_args()
    source = opts.source.resolve()
    if not (source / "musim" / "__init__.py").is_file():
        sys.exit(f"bench_compile: --source {source}: no musim package there")
    print(f"musim of {source}; load average {os.getloadavg()[0]:.2f} at the start", flush=True)
    names = ["compile", *opts.commands] if opts.after_compile else opts.commands
    with tempfile.TemporaryDirectory(prefix="bench_compile_") as shared:
        for name in names:
            with tempfile.TemporaryDirectory(prefix="bench_compile_") as tmp:
                cache = f"{shared if opts.after_compile else tmp}/cache"
                env = os.environ | {"NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(source)}
                args = shlex.split(COMMANDS[name].format(tmp=tmp, source=source))
                first = "after compile" if opts.after_compile and name != "compile" else "cold"
                for run in (first, "warm") if opts.again else (first,):
                    wall, cpu, lines = timed(args, env, tmp)
                    print(f"{name} ({run}): {wall:.1f} s wall, {cpu:.1f} s CPU: musim {shlex.join(args)}", flush=True)
                    for at, line in lines:
                        print(f"    {at:6.1f} s  {line[:160]}", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
