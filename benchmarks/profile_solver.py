"""Where the solver's time goes, function by function: perf over a warm search.

perf cannot name numba's compiled code, so this script maps it: it reads the
object code numba cached for `solve.solve` (the search and every helper it
did not inline), takes each function's offset from its symbol table, anchors
them at the address the process loaded `solve` at, and writes /tmp/perf-PID.map,
which `perf report` reads.  Positions as in bench_solver.py's sets; the table is warmed
by one pass, then perf samples the next two.

Needs Linux `perf` and `readelf`.  A child process first compiles the kernels into
a fresh numba cache directory; this process then loads them from there, so that the
cached object is the code it runs (freshly compiled code is laid out otherwise).

Usage: python benchmarks/profile_solver.py [--set 5:9:10] [--top 15] [--seed 1]
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", tempfile.mkdtemp(prefix="musim-profile-"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import numba
from common import positions

from musim.games.mu.solve import MuSolver
from musim.solver import solve
from musim.solver.tt import make_table


def short_name(symbol):
    """module.function of a numba-mangled symbol (its full name otherwise)."""
    m = re.search(r"(search|solve|moves|bounds|keys|trick|tt|bits|layout)\d+([A-Za-z_]\w*?)B\d+v\d+", symbol)
    return f"{m.group(1)}.{m.group(2)}" if m else symbol[:60]


def function_map():
    """(address, size, name) of every function compiled into the loaded `solve` overloads."""
    blobs = [
        Path(f).read_bytes()
        for f in glob.glob(os.path.join(numba.config.CACHE_DIR, "**", "solve.solve-*.nbc"), recursive=True)
    ]
    rows = []
    for cres in solve.solve.overloads.values():
        name = cres.fndesc.mangled_name
        blob = next(b for b in blobs if name.encode() in b)
        with tempfile.NamedTemporaryFile(suffix=".o") as obj:
            obj.write(blob[blob.find(b"\x7fELF") :])
            obj.flush()
            out = subprocess.run(["readelf", "-s", "-W", obj.name], capture_output=True, text=True, check=True).stdout
        syms = [
            (int(p[1], 16), int(p[2]), p[7])
            for p in (line.split() for line in out.splitlines())
            if len(p) >= 8 and p[3] == "FUNC" and int(p[2]) > 0
        ]
        base = cres.library.get_pointer_to_function(name) - next(v for v, _, n in syms if n == name)
        rows += [(base + v, size, short_name(n)) for v, size, n in syms]
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="5:9:10", help="GAME:TRICKS:COUNT as in bench_solver.py (Mü only)")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1, help="the heuristic run of an `auction` set")
    ap.add_argument("--compile-only", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    game, tricks, count = a.set.split(":")
    if a.compile_only:  # a one-trick position compiles the same code as any other
        MuSolver(make_table(1)).solve(positions(game, "1", 1, a.seed)[0])
        return
    objs = positions(game, tricks, int(count), a.seed)
    subprocess.run([sys.executable, __file__, "--set", a.set, "--seed", str(a.seed), "--compile-only"], check=True)
    solver = MuSolver(make_table(256))
    for obj in objs:
        solver.solve(obj)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as fh:
        for addr, size, name in function_map():
            fh.write(f"{addr:x} {size:x} {name}\n")
    data = os.path.join(tempfile.gettempdir(), f"musim-perf-{os.getpid()}.data")
    perf = subprocess.Popen(
        ["perf", "record", "-F", "4000", "-o", data, "-p", str(os.getpid())],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1)
    t = time.perf_counter()
    for _ in range(2):
        for obj in objs:
            solver.solve(obj)
    print(f"{a.set}: two passes in {time.perf_counter() - t:.2f} s")
    perf.send_signal(2)
    perf.wait()
    report = subprocess.run(
        ["perf", "report", "-i", data, "--no-children", "--sort", "symbol", "--stdio"], capture_output=True, text=True
    ).stdout
    rows = [line for line in report.splitlines() if line.strip() and not line.startswith("#")]
    print("\n".join(rows[: a.top]))


if __name__ == "__main__":
    main()
