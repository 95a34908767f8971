"""Where one solve's time goes: each null-window search of the binary search, with its nodes.

`solve` finds a position's value by boolean searches ("can the maximising team take
`need` points?") whose answers narrow [lo, hi] until they meet.  This runs the same
loop from Python on one full deal of bench_solver.py's sets (random contracts,
or a heuristic run's) and prints, per search, the need asked, the answer,
the bound it proved, the nodes it searched and its time, and the table's fill: the entries
it took in and those it gave up for them (tt.STORED, tt.LOST) of the table's capacity, so
that a slow deal shows which searches cost what; --tt-mb shows what a larger table changes.  (The first run
compiles the search on its own, some 30 s, before its first line.)

Usage: python benchmarks/trace_search.py --players 4 --deal 0 [--tt-mb 512] [--contracts auction]
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import full_tricks, positions, prefaulted

from musim.games.mu.solve import MuSolver
from musim.solver.search import available, can_reach, set_owners
from musim.solver.stats import S_NODES
from musim.solver.tt import DEFAULT_MB, LOST, STORED, make_table


def start_position(players, deal, contracts, seed):
    """Deal number `deal` of bench_solver.py's full deals (its set P:FULL or P:auction)."""
    tricks = "auction" if contracts == "auction" else str(full_tricks(players))
    return positions(str(players), tricks, deal + 1, seed)[deal]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, choices=[3, 4, 5, 6], default=4)
    ap.add_argument("--deal", type=int, default=0, help="which deal (0 = the first)")
    ap.add_argument("--contracts", choices=["random", "auction"], default="random")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tt-mb", type=int, default=DEFAULT_MB)
    a = ap.parse_args()
    if a.deal < 0 or a.tt_mb <= 0:
        ap.error("--deal must be 0 or more and --tt-mb positive")
    solver = MuSolver(prefaulted(make_table(a.tt_mb)))
    setup, _, leader, trick = solver.load(start_position(a.players, a.deal, a.contracts, a.seed))
    g, st, k = setup.game, solver.st, len(trick)
    avail = available(g, st.hands, st.line, k)
    set_owners(g, st)
    lo, hi = 0, avail
    meta = solver.tt.meta
    print(f"table: {a.tt_mb} MB, {solver.tt.stamp.shape[0]:,} entries", flush=True)
    start = time.perf_counter()
    while lo < hi:
        need = (lo + hi + 1) // 2
        st.stats[S_NODES] = 0
        t = time.perf_counter()
        stored, lost = meta[STORED], meta[LOST]
        reached, bound = can_reach(g, solver.tt, st, leader, k, need, avail, k)
        print(
            f"need {need:2d}: {'yes' if reached else 'no '} (bound {bound:2d}), {st.stats[S_NODES]:,} nodes, "
            f"{time.perf_counter() - t:.1f} s; {meta[STORED] - stored:,} entries stored, "
            f"{meta[LOST] - lost:,} given up",
            flush=True,
        )
        lo, hi = (bound, hi) if reached else (lo, bound)
    print(
        f"value {lo}, {time.perf_counter() - start:.1f} s in all; {meta[STORED]:,} entries stored, "
        f"{meta[LOST]:,} given up"
    )


if __name__ == "__main__":
    main()
