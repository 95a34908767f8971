"""Choose the ordering panel (benchmarks/panel.csv): costly single searches of the seed-1 sets.

The rule: for each set GAME:TRICKS:COUNT (--sets, seed 1: the sets bench_solver.py's figures
name), run the binary search over the need of each of its first COUNT positions as
trace_search.py does (ordering.needs: from 0..avail, each search on a fresh table generation,
today's ordering), each search stopped at --node-limit nodes; a position whose search is stopped
keeps the searches before it and runs no more (the panel compares exact node counts, so only
finished searches qualify).  Of a set's finished searches of --min-nodes nodes or more, keep the
--per-set costliest, at most --per-position of one position (so that a set's panel is not one
deal's).  The CSV lists set, seed, index, need, reached and today's nodes (for reference:
bench_panel.py measures them again), costliest first within a set.

Usage: python benchmarks/select_panel.py [--sets 4:11:6,5:10:6,5:12:4,4:15:6] [--node-limit 2e7]
       [--per-set 6] [--per-position 2] [--min-nodes 1e5] [--out benchmarks/panel.csv]
"""

import argparse
import csv
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ordering import needs, parse_sets, position, solver_with

from musim.solver.search import make_state
from musim.solver.tt import DEFAULT_MB, make_table

PANEL_FIELDS = ["set", "seed", "index", "need", "reached", "nodes"]


def choose(found, per_set, per_position, min_nodes):
    """The rule of the module's docstring over one set's finished searches (dicts)."""
    kept, per = [], {}
    for row in sorted(found, key=lambda r: -r["nodes"]):
        if len(kept) < per_set and row["nodes"] >= min_nodes and per.get(row["index"], 0) < per_position:
            kept.append(row)
            per[row["index"]] = per.get(row["index"], 0) + 1
    return kept


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="4:11:6,5:10:6,5:12:4,4:15:6")
    ap.add_argument("--node-limit", type=float, default=2e7, help="nodes a search may take before it is dropped")
    ap.add_argument("--per-set", type=int, default=6)
    ap.add_argument("--per-position", type=int, default=2)
    ap.add_argument("--min-nodes", type=float, default=1e5)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "panel.csv"))
    a = ap.parse_args()
    try:
        sets = parse_sets(a.sets)
    except ValueError as exc:
        ap.error(f"--sets: {exc}")
    if a.node_limit < 1 or a.per_set < 1 or a.per_position < 1:
        ap.error("--node-limit, --per-set and --per-position must be positive")
    solver = solver_with(make_table(DEFAULT_MB), make_state())
    panel = []
    for label, count in sets:
        found = []
        for index in range(count):
            for need, reached, _, nodes, secs in needs(solver, position(label, 1, index), int(a.node_limit)):
                print(f"{label} #{index} need {need}: {reached}, {nodes:,} nodes, {secs:.1f} s", flush=True)
                if reached is not None:
                    found.append({"set": label, "seed": 1, "index": index, "need": need, "reached": int(reached)})
                    found[-1]["nodes"] = nodes
        panel += choose(found, a.per_set, a.per_position, a.min_nodes)
    tmp = a.out + ".tmp"
    with open(tmp, "w", newline="") as fh:
        writer = csv.DictWriter(fh, PANEL_FIELDS)
        writer.writeheader()
        writer.writerows(panel)
    os.replace(tmp, a.out)
    print(f"{len(panel)} searches written to {a.out}")


if __name__ == "__main__":
    main()
