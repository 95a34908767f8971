"""Collect move-ordering labels: the trace records (musim/solver/trace.py) of the searches of the
binary search of each position of some seeded Mü sets, into one .npz.

For each seed (--seeds; never 1: seed 1's sets hold the evaluation panel, benchmarks/panel.csv)
and each set GAME:TRICKS:COUNT (--sets), each of the first COUNT positions is solved by the
binary search over the need (ordering.needs: every search on a fresh table generation, stopped
at --node-limit nodes; a stopped search's records stand, each of its recorded nodes having been
settled, and the position's binary search ends there).  Each search keeps at most --cap records
of nodes of --min-nodes nodes or more (2 leaves out the nodes whose first move settled them at
once, where no ordering can do better).  Of a search's records it keeps every one of a node of
--keep-nodes nodes or more (the costly nodes, few) and a uniform random sample of --per-search of
the others (seeded: the same run keeps the same records), each sampled record weighing for the
records it stands for (`weight`; 1 for the kept ones): a search records about two thirds of its
nodes, too many to keep.

The .npz holds `rec` (a row per record, columns `fields`: trace.R_NAMES), `hands` (the node's
hands, a row of MAX_SEATS words), and per record `weight`, `set` (an index into `sets`), `seed`, `index`
(the position in its set) and `root_need` (the need of the search it came from); and per search
`searches` (set, seed, index, need, reached (-1: stopped), nodes, records dropped).
ordering.load_cut loads a record into a search state.  It is a working artifact: keep it out of
git.

Usage: python benchmarks/collect_cuts.py --sets 4:11:N,5:10:N,5:12:N,4:15:N --seeds 2,3 --out /tmp/cuts.npz
       [--node-limit 2e6] [--cap 2e6] [--min-nodes 2] [--keep-nodes 1000] [--per-search 20000]
"""

import argparse
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ordering import needs, parse_sets, position, solver_with

from musim.solver.search import make_state
from musim.solver.trace import R_NAMES, R_NODES, records
from musim.solver.tt import DEFAULT_MB, make_table


def sample(rec, keep_nodes, per_search, rng):
    """(rows kept, their weights): every row of a node of keep_nodes nodes or more, a uniform sample
    of per_search of the others, each weighing for the others it stands for."""
    big = rec[:, R_NODES] >= keep_nodes
    rest = np.flatnonzero(~big)
    picked = rng.choice(rest, per_search, replace=False) if len(rest) > per_search else rest
    rows = np.concatenate([np.flatnonzero(big), np.sort(picked)])
    weights = np.concatenate([np.ones(big.sum()), np.full(len(picked), len(rest) / max(len(picked), 1))])
    return rows, weights


def collect(sets, seeds, limit, cap, min_nodes, keep_nodes, per_search):
    """(arrays of the .npz but `sets` and `fields`), printing a line per search."""
    solver = solver_with(make_table(DEFAULT_MB), make_state(tracing=cap, min_nodes=min_nodes))
    rng = np.random.default_rng(0)
    recs, hands, weights, meta, searches = [], [], [], [], []
    for seed in seeds:
        for s, (label, count) in enumerate(sets):
            for index in range(count):
                for need, reached, _, nodes, _ in needs(solver, position(label, seed, index), limit):
                    rec, h = records(solver.st.trace)
                    rows, w = sample(rec, keep_nodes, per_search, rng)
                    recs.append(rec[rows])
                    hands.append(h[rows])
                    weights.append(w)
                    meta.append(np.tile([s, seed, index, need], (len(rows), 1)))
                    dropped = int(solver.st.trace.count[1])
                    searches.append([s, seed, index, need, -1 if reached is None else int(reached), nodes, dropped])
                    where = f"seed {seed} {label} #{index} need {need}"
                    print(f"{where}: {nodes:,} nodes, {len(rec):,} records, {len(rows):,} kept", flush=True)
    meta = np.concatenate(meta) if meta else np.zeros((0, 4), np.int64)
    return {
        "rec": np.concatenate(recs) if recs else np.zeros((0, len(R_NAMES)), np.int64),
        "hands": np.concatenate(hands) if hands else np.zeros((0, 8), np.uint64),
        "weight": np.concatenate(weights) if weights else np.zeros(0),
        "set": meta[:, 0],
        "seed": meta[:, 1],
        "index": meta[:, 2],
        "root_need": meta[:, 3],
        "searches": np.array(searches, np.int64).reshape(-1, 7),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", required=True, help="GAME:TRICKS:COUNT,... (Mü sets of benchmarks/common.positions)")
    ap.add_argument("--seeds", required=True, help="comma-separated seeds, never 1 (the panel's)")
    ap.add_argument("--out", required=True, help="the .npz to write")
    ap.add_argument("--node-limit", type=float, default=2e6, help="nodes a search may take")
    ap.add_argument("--cap", type=float, default=2e6, help="records kept per search")
    ap.add_argument("--min-nodes", type=int, default=2, help="record only nodes of this many nodes or more")
    ap.add_argument("--keep-nodes", type=float, default=1000, help="keep every record of a node this costly")
    ap.add_argument("--per-search", type=int, default=20000, help="a sample of this many of the others")
    a = ap.parse_args()
    try:
        sets = parse_sets(a.sets)
    except ValueError as exc:
        ap.error(f"--sets: {exc}")
    try:
        seeds = [int(x) for x in a.seeds.split(",")]
    except ValueError:
        ap.error(f"--seeds: {a.seeds!r} is not a comma-separated list of whole numbers")
    if 1 in seeds:
        ap.error("--seeds: seed 1 holds the evaluation panel (benchmarks/panel.csv): collect labels from other seeds")
    if min(a.node_limit, a.cap, a.min_nodes, a.keep_nodes, a.per_search) < 1:
        ap.error("--node-limit, --cap, --min-nodes, --keep-nodes and --per-search must be positive")
    arrays = collect(sets, seeds, int(a.node_limit), int(a.cap), a.min_nodes, a.keep_nodes, a.per_search)
    tmp = a.out + ".tmp"
    try:
        with open(tmp, "wb") as fh:
            np.savez(fh, sets=np.array([label for label, _ in sets]), fields=np.array(R_NAMES), **arrays)
        os.replace(tmp, a.out)
    except OSError as exc:
        ap.error(f"--out: {exc}")
    print(f"{len(arrays['rec']):,} records of {len(arrays['searches'])} searches written to {a.out}")


if __name__ == "__main__":
    main()
