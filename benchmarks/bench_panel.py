"""The ordering panel: each search of benchmarks/panel.csv with the current default ordering.

Each panel row is one null-window search can_reach(need) of a Mü position of the seed-1 sets
(select_panel.py chose them: costly searches of the binary search of 4:11, 5:10, 5:12 and 4:15
positions).  Each is run from the position's start on a fresh table generation
(ordering.search), so its nodes depend only on the ordering: per search its answer, nodes and
time.  --replay also runs it traced and replays it with its own cutting moves first (the replay,
what a perfect ordering would cost; it must answer alike), and reports the replay's nodes.
--csv OUT writes a row per search; --compare OLD.csv prints per search the node ratio new/old,
the geometric mean over the panel and the searches whose nodes moved (a different answer is a
bug: exit status 1).  --budget CARDS,FIRST,OTHER runs them under those move budgets (moves.py;
today 6,65536,1024), --order W.npy under that weight table of the ordering
(musim/solver/ordering.py; benchmarks/fit_ordering.py --out writes one); the replay keeps the
search's own.  It always prints the geometric mean of the nodes (and, with --replay, of the replay/today ratio).

The baseline benchmarks/baselines/panel_main.csv is today's ordering at main 0ea18a4 (the
commit this tool was written on), with --replay.

Usage: python benchmarks/bench_panel.py [--panel benchmarks/panel.csv] [--replay] [--csv OUT]
       [--compare benchmarks/baselines/panel_main.csv] [--node-limit 1e9] [--order W.npy]
       [--budget 6,262144,4096]
"""

import argparse
import contextlib
import csv
import math
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import prefaulted
from ordering import parse_budget, position, replay, search, solver_with

from musim.solver.ordering import DEFAULT_ORDER
from musim.solver.search import make_state
from musim.solver.tt import DEFAULT_MB, make_table

HERE = Path(__file__).resolve().parent
FIELDS = ["set", "seed", "index", "need", "reached", "nodes", "seconds", "replay_nodes", "replay_seconds"]
REPLAY_RECORDS = 12_000_000  # room in the replay's trace (ordering.replay keeps costlier nodes if short)
REPLAY_MIN_NODES = 2  # nodes settled at once by their first move need no hint (trace.make_trace)


def read_csv(path, required):
    """A panel or result file's rows (ints where they are), ValueError if it lacks a column."""
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    if not rows or any(f not in rows[0] for f in required):
        raise ValueError(f"{path} has no rows or lacks a column of {', '.join(required)}")
    for r in rows:
        for f in ("seed", "index", "need", "nodes", "replay_nodes", "reached"):
            if r.get(f) not in (None, ""):
                r[f] = int(r[f])
    return rows


def key(r):
    return r["set"], r["seed"], r["index"], r["need"]


def geo_mean(xs):
    return math.exp(sum(math.log(max(x, 1e-12)) for x in xs) / len(xs)) if xs else float("nan")


def run(panel, with_replay, limit, out, order=None, budget=None):
    """Run the panel's searches, writing rows to out (a csv writer, or None), under `order` (a
    weight table; None: the game's own) and `budget` (the move budgets, SearchState.budget; None:
    the search's own); returns the rows."""
    tt = prefaulted(make_table(DEFAULT_MB))
    normal = solver_with(tt, make_state())
    if budget is not None:
        normal.st.budget[:] = budget
    traced = solver_with(tt, make_state(tracing=REPLAY_RECORDS, min_nodes=REPLAY_MIN_NODES)) if with_replay else None
    warm = position("4:3", 1, 0)  # load the kernels untimed
    search(normal, warm, 1)
    if with_replay:
        replay(tt, traced, warm, 1)
    rows = []
    for p in panel:
        obj = position(p["set"], p["seed"], p["index"])
        reached, _, nodes, secs = search(normal, obj, p["need"], limit, order)
        row = {**{f: p[f] for f in ("set", "seed", "index", "need")}, "nodes": nodes, "seconds": round(secs, 3)}
        row["reached"] = "" if reached is None else int(reached)
        line = f"{p['set']} #{p['index']} need {p['need']}: {reached}, {nodes:,} nodes, {secs:.1f} s"
        if with_replay and reached is not None:
            first, again, kept_from = replay(tt, traced, obj, p["need"], limit)
            same = order is None and budget is None
            assert not same or first[2] == nodes, "the traced search took other nodes than the search"
            row.update(replay_nodes=again[2], replay_seconds=round(again[3], 3))
            line += f"; replay {again[2]:,} nodes ({nodes / max(again[2], 1):.1f}x)"
            line += f", knowing the nodes of {kept_from} nodes or more" if kept_from > REPLAY_MIN_NODES else ""
        print(line, flush=True)
        rows.append(row)
        if out:
            out.writerow(row)
    return rows


def summary(rows):
    done = [r for r in rows if r["reached"] != ""]
    mean = geo_mean([r["nodes"] for r in done])
    print(f"\n{len(done)} of {len(rows)} searches finished; geometric mean of nodes {mean:,.0f}")
    pairs = [(r["nodes"], r["replay_nodes"]) for r in done if r.get("replay_nodes") not in (None, "")]
    if pairs:
        print(f"replay/today node ratio: geometric mean {geo_mean([b / a for a, b in pairs]):.4f}", end="")
        print(f" (today/replay {1 / geo_mean([b / a for a, b in pairs]):.1f}x)")


def compare(old_rows, new_rows):
    """Per search node ratio new/old, their geometric mean, the moved ones; returns the number of
    searches whose answers differ."""
    old = {key(r): r for r in old_rows}
    ratios, moved, bad = [], [], 0
    print("\ncompared with the old run (node ratio new/old):")
    for r in new_rows:
        o = old.get(key(r))
        if o is None or r["reached"] == "" or o["reached"] == "":
            continue
        if r["reached"] != o["reached"]:
            bad += 1
            print(f"  DISAGREE {r['set']} #{r['index']} need {r['need']}: old {o['reached']}, new {r['reached']}")
        ratio = r["nodes"] / max(o["nodes"], 1)
        ratios.append(ratio)
        if r["nodes"] != o["nodes"]:
            moved.append(f"  {r['set']} #{r['index']} need {r['need']}: {o['nodes']:,} -> {r['nodes']:,} ({ratio:.3f})")
    print("\n".join(moved) if moved else "  no search's nodes moved")
    print(f"{len(ratios)} searches compared, {len(moved)} moved; geometric mean of new/old {geo_mean(ratios):.4f}")
    print(f"{bad} disagreements in answers")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--panel", default=str(HERE / "panel.csv"))
    ap.add_argument("--replay", action="store_true", help="also the replay-ordered search's nodes")
    ap.add_argument("--csv", help="write a row per search to this file")
    ap.add_argument("--compare", help="an earlier run's CSV: node ratios per search and their geometric mean")
    ap.add_argument("--node-limit", type=float, default=1e9, help="nodes a search may take before it gives up")
    ap.add_argument("--order", help="a weight table of the ordering (.npy) to search under")
    ap.add_argument("--budget", help="CARDS,FIRST,OTHER: the move budgets (moves.py) to search under")
    a = ap.parse_args()
    try:
        panel = read_csv(a.panel, ["set", "seed", "index", "need"])
        old = read_csv(a.compare, FIELDS[:6]) if a.compare else None
        order = np.load(a.order) if a.order else None
        budget = parse_budget(a.budget) if a.budget else None
        if order is not None and order.shape != DEFAULT_ORDER.shape:
            raise ValueError(f"{a.order}: a weight table is {DEFAULT_ORDER.shape}, not {order.shape}")
    except (OSError, ValueError) as exc:
        ap.error(str(exc))
    tmp = a.csv + ".tmp" if a.csv else None
    if tmp:
        try:
            open(tmp, "w").close()
        except OSError as exc:
            ap.error(f"--csv: {exc}")
    with open(tmp, "w", newline="") if tmp else contextlib.nullcontext() as fh:
        writer = csv.DictWriter(fh, FIELDS) if fh else None
        if writer:
            writer.writeheader()
        rows = run(panel, a.replay, int(a.node_limit), writer, order, budget)
    if tmp:
        os.replace(tmp, a.csv)
    summary(rows)
    sys.exit(1 if old is not None and compare(old, rows) else 0)


if __name__ == "__main__":
    main()
