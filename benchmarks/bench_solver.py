"""The solver benchmark: fixed, seeded sets of positions; each one's value, nodes and time.

Each set is GAME:TRICKS:COUNT[:LIMIT] (--sets, comma-separated): GAME a Mü player count (3-6)
or `bridge`; TRICKS the tricks left, with random cards and contract (a full deal is 12 tricks
at 3 and 5 players, 15 at 4, 10 at 6, 13 in bridge), or `auction`: full Mü deals with the
contracts of `musim run --play heuristic --seed S` (eklats skipped); COUNT positions (--deals N
takes the first N of every set); LIMIT the set's node limit (default --node-limit; 0: none).
Position i of a set is the same in every run, whatever the count (common.positions, --seed).
The default sets are the benchmark of issue 38: 100 full deals per player count with random
contracts and with auction contracts, deep endings at each player count, and bridge deals.

All positions are solved in this process with one table (--tt-mb), a new generation each, as
`musim run` does.  A Mü position is solved for its value (search.solve_bounds, its time alone);
past the node limit it is unresolved, and its bounds lo..hi are kept.  A bridge position is
solved for every card its leader holds, as `musim solve --all-moves` does (no node limit), and
DDS's SolveBoard with all solutions (endplay) solves it in the same run: each card DDS lists
must have the same value.  Per set it prints the count, the solved and the unresolved, and the
mean, median, 90th percentile and max of the nodes and of the time, unresolved positions ranked
above every solved one (`>` marks a figure they make a lower bound); for bridge also DDS's time
and the ratio.  Node counts do not depend on the machine or its load; times do.

--csv PATH writes a row per position as it is solved (set, seed, index, limit, tt_mb, value or
empty, lo, hi, nodes, tricks completed, null-window searches, seconds; for bridge the leads'
values and DDS's seconds and tricks completed).  --compare OLD.csv solves OLD's positions again
(its sets, counts, limits, seed and table size, unless given) and compares them position by
position; --compare OLD.csv NEW.csv compares two files.  A value that differs (bounds that
exclude the other run's value, a lead's value) is listed and the exit status is 1, as it is for
a disagreement with DDS; per set it prints the node ratio new/old over the positions both runs
solved (of the sums, and the median of the ratios).  --order W.npy solves the Mü sets under
that weight table of the move ordering (musim/solver/ordering.py; benchmarks/fit_ordering.py
--out writes one), --budget CARDS,FIRST,OTHER under those move budgets (musim/solver/moves.py).
--counts solves with the search that counts how each node was settled
(`musim solve --stats`'s counters; about 20% slower a node), per set
as shares of its nodes and per position in the CSV.  --uniform-points solves the Mü sets with
every card worth 1 point: what the search costs when points follow the tricks, as in bridge.

Usage: python benchmarks/bench_solver.py [--sets ...] [--deals N] [--node-limit 1e9] [--csv PATH]
       python benchmarks/bench_solver.py --sets 3:12:100:2e7,5:auction:30:2e7 --csv run.csv
       python benchmarks/bench_solver.py --compare base.csv --csv new.csv [--per-deal]
       python benchmarks/bench_solver.py --compare base.csv new.csv
       python benchmarks/bench_solver.py --sets 5:9:10,4:10:6 --uniform-points
       python benchmarks/bench_solver.py --sets 4:10:20,bridge:13:10 --counts
"""

import argparse
import contextlib
import csv
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from common import full_tricks, positions, prefaulted
from dds_reference import dds_solve
from ordering import parse_budget

from musim.games.bridge.solve import BridgeSolver
from musim.games.mu import solve as mu_solve
from musim.games.mu.solve import MuSolver
from musim.games.mu.solver_layout import MuSolverSetup
from musim.solver.layout import fill_point_masks
from musim.solver.ordering import DEFAULT_ORDER
from musim.solver.search import NO_DEADLINE
from musim.solver.solve import solve_bounds
from musim.solver.stats import COUNT_NAMES, S_NODES, S_SEARCHES, S_TRICKS, clear_stats, stats_record
from musim.solver.tt import DEFAULT_MB, make_table

DEFAULT_SETS = ",".join(
    [f"{n}:{full_tricks(n)}:100" for n in (3, 4, 5, 6)]
    + [f"{n}:auction:100" for n in (3, 4, 5, 6)]
    + ["3:11:100", "4:10:100", "5:10:100", "6:9:100", "bridge:13:100"]
)
FIELDS = ["set", "seed", "index", "limit", "tt_mb", "value", "lo", "hi", "nodes", "tricks", "searches", "seconds"]
FIELDS += ["moves", "dds_seconds", "dds_tricks"]  # bridge only
FIELDS += list(COUNT_NAMES)  # --counts only
INTS = ["seed", "index", "limit", "tt_mb", "lo", "hi", "nodes", "tricks", "searches", "dds_tricks"]
UNIFORM = "+uniform"


class UniformPointsSetup(MuSolverSetup):
    """A Mü contract whose cards are all worth 1 point (the solver's game shares these arrays)."""

    def __init__(self, *args):
        super().__init__(*args)
        lay = self.layout
        lay.points[lay.klass >= 0] = 1
        fill_point_masks(lay.klass, lay.points, lay.point_mask)


def parse_count(text):
    """A whole number >= 0, plainly or as 2e7."""
    x = float(text)
    if not 0 <= x < 1e15 or x != int(x):
        raise ValueError
    return int(x)


def parse_set(spec, node_limit):
    """(game, tricks, count, limit) of GAME:TRICKS:COUNT[:LIMIT], as text, text, int, int."""
    parts = spec.split(":")
    if len(parts) not in (3, 4):
        raise ValueError
    game, tricks, count = parts[0], parts[1], parse_count(parts[2])
    limit = parse_count(parts[3]) if len(parts) == 4 else node_limit
    if game == "bridge":
        if not 1 <= int(tricks) <= 13:
            raise ValueError
    elif int(game) not in range(3, 7) or (tricks != "auction" and not 1 <= int(tricks) <= full_tricks(int(game))):
        raise ValueError
    if count < 1:
        raise ValueError
    return game, tricks, count, limit


def set_label(game, tricks, uniform):
    return f"{game}:{tricks}" + (UNIFORM if uniform and game != "bridge" else "")


def describe(label):
    """What a set holds, in a few words."""
    game, tricks = label.removesuffix(UNIFORM).split(":")
    if game == "bridge":
        what = "bridge full deals" if tricks == "13" else f"bridge {tricks} tricks"
        return what + ", all leads"
    if tricks == "auction":
        what = f"{game}p full deals, auction"
    else:
        what = f"{game}p {'full deals' if int(tricks) == full_tricks(int(game)) else tricks + ' tricks'}, random"
    return what + (", 1 point a card" if label.endswith(UNIFORM) else "")


def counters(st):
    """The row's counters: nodes, tricks, searches, and with --counts how the nodes were settled."""
    row = {"nodes": int(st.stats[S_NODES]), "tricks": int(st.stats[S_TRICKS]), "searches": int(st.stats[S_SEARCHES])}
    return row | {k: v for k, v in stats_record(st).items() if k in COUNT_NAMES}


def counts_line(rows):
    """With --counts: each kind's share of the set's nodes (musim solve --stats names them)."""
    nodes = max(sum(r["nodes"] for r in rows), 1)
    return "  counts: " + ", ".join(f"{k} {sum(r[k] for r in rows) / nodes:.1%}" for k in COUNT_NAMES)


def solve_mu(solver, obj, limit, order=None):
    """The row of a Mü position: its value, or its bounds past `limit` nodes; order: a weight
    table of the move ordering (musim/solver/ordering.py), if not the game's own."""
    setup, _, leader, trick = solver.load(obj)
    g = setup.game if order is None else setup.game._replace(order=order)
    st = solver.st
    clear_stats(st)
    st.limit[0] = limit if limit > 0 else NO_DEADLINE
    t = time.perf_counter()
    lo, hi = solve_bounds(g, solver.tt, st, leader, len(trick), 0)
    secs = time.perf_counter() - t
    st.limit[0] = NO_DEADLINE
    return {"value": lo if lo == hi else "", "lo": lo, "hi": hi, **counters(st), "seconds": secs}


def solve_bridge(solver, obj):
    """The row of a bridge position (every lead's value, and DDS's time), and the cards on
    which DDS's value differs."""
    st = solver.st
    clear_stats(st)
    t = time.perf_counter()
    out = solver.solve(obj, all_moves=True)
    secs = time.perf_counter() - t
    t = time.perf_counter()
    ref, dds_tricks = dds_solve(obj["pbn"], obj["trump"], obj["leader"])
    dds_secs = time.perf_counter() - t
    wrong = [f"{c}: DDS {v}, musim {out['moves'][c]}" for c, v in ref.items() if out["moves"][c] != v]
    row = {"value": out["value"], "lo": out["value"], "hi": out["value"], **counters(st), "seconds": secs}
    row.update(moves=" ".join(f"{c}={v}" for c, v in out["moves"].items()), dds_seconds=dds_secs, dds_tricks=dds_tricks)
    return row, wrong


def resolved(row):
    return row["lo"] == row["hi"]


def fmt_nodes(x):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.3g}{unit}"
    return f"{x:.0f}"


def fmt_secs(x):
    return f"{x * 1000:.3g} ms" if x < 1 else f"{x:.3g} s"


def stats_cells(rows, field, fmt):
    """mean, median, p90 and max of a field, unresolved rows ranked above the solved ones."""
    ranked = sorted(rows, key=lambda r: (not resolved(r), r[field]))
    n = len(ranked)
    mean = sum(r[field] for r in rows) / n
    cells = [(">" if not all(map(resolved, rows)) else "") + fmt(mean)]
    for r in (ranked[n // 2], ranked[min(n - 1, int(0.9 * n))], ranked[-1]):
        cells.append(("" if resolved(r) else ">") + fmt(r[field]))
    return cells


# the summary table's columns: heading and width (negative: left-aligned)
COLUMNS = [("set", -16), ("", -26), ("limit", 5), ("count", 5), ("solved", 6), ("unres", 5)]
COLUMNS += [("nodes mean", 11), ("median", 8), ("p90", 8), ("max", 8)]
COLUMNS += [("time mean", 11), ("median", 9), ("p90", 9), ("max", 9), ("Mnodes/s", 9)]


def table_row(cells):
    return " ".join(f"{c:<{-w}}" if w < 0 else f"{c:>{w}}" for c, (_, w) in zip(cells, COLUMNS, strict=True))


def summary_line(label, rows):
    n_solved = sum(map(resolved, rows))
    limit = fmt_nodes(rows[0]["limit"]) if rows[0]["limit"] else "-"
    rate = sum(r["nodes"] for r in rows) / max(sum(r["seconds"] for r in rows), 1e-9) / 1e6
    return table_row(
        [label, describe(label), limit, len(rows), n_solved, len(rows) - n_solved]
        + stats_cells(rows, "nodes", fmt_nodes)
        + stats_cells(rows, "seconds", fmt_secs)
        + [f"{rate:.2f}"]
    )


def dds_line(rows, disagreements):
    t_musim, t_dds = sum(r["seconds"] for r in rows), sum(r["dds_seconds"] for r in rows)
    tr_musim, tr_dds = sum(r["tricks"] for r in rows), sum(r["dds_tricks"] for r in rows)
    med = lambda f: fmt_secs(statistics.median(r[f] for r in rows))
    return (
        f"  against DDS's SolveBoard with all solutions: {len(rows) - disagreements} agree on every card, "
        f"{disagreements} disagree; time musim/DDS {t_musim / t_dds:.2f}x ({t_musim:.2f} s / {t_dds:.2f} s; "
        f"medians {med('seconds')} / {med('dds_seconds')}); tricks completed {tr_musim / max(tr_dds, 1):.2f}x "
        f"({tr_musim:,} / {tr_dds:,})"
    )


def run(specs, seed, tt_mb, uniform, out, per_deal, counting, order=None, budget=None):
    """Solve the sets, writing the rows to `out` (a file, or None); returns (rows, disagreements with DDS).
    counting: the search that keeps its detailed counters (about 20% slower a node); budget: the
    move budgets (SearchState.budget) if not the search's own."""
    if uniform:
        mu_solve.MuSolverSetup = UniformPointsSetup
    tt = prefaulted(make_table(tt_mb))
    mu, bridge = MuSolver(tt, counting), BridgeSolver(tt, counting)
    if budget is not None:
        mu.st.budget[:] = bridge.st.budget[:] = budget
    solve_mu(mu, positions("4", "1", 1, seed)[0], 1000)  # load the kernels untimed
    solve_bridge(bridge, positions("bridge", "1", 1, seed)[0])
    writer = csv.DictWriter(out, FIELDS) if out else None
    if writer:
        writer.writeheader()
    rows, bad = [], 0
    print(table_row([h for h, _ in COLUMNS]), flush=True)
    for game, tricks, count, limit in specs:
        label, limit = set_label(game, tricks, uniform), 0 if game == "bridge" else limit
        set_rows, set_bad = [], 0
        for i, obj in enumerate(positions(game, tricks, count, seed)):
            if game == "bridge":
                row, wrong = solve_bridge(bridge, obj)
                for w in wrong:
                    print(f"DISAGREE with DDS: {label} #{i} {obj['pbn']} {obj['trump']} {obj['leader']}: {w}")
                set_bad += bool(wrong)
            else:
                row = solve_mu(mu, obj, limit, order)
            row.update({"set": label, "seed": seed, "index": i, "limit": limit, "tt_mb": tt_mb})
            set_rows.append(row)
            if writer:
                writer.writerow(row)
                out.flush()
            if per_deal:
                value = row["value"] if resolved(row) else f"{row['lo']}..{row['hi']}"
                print(f"  {label} #{i}: value {value}, {row['nodes']:,} nodes, {fmt_secs(row['seconds'])}", flush=True)
        print(summary_line(label, set_rows), flush=True)
        if counting:
            print(counts_line(set_rows), flush=True)
        if game == "bridge":
            print(dds_line(set_rows, set_bad), flush=True)
        rows += set_rows
        bad += set_bad
    return rows, bad


def read_rows(path):
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        for f in INTS:
            r[f] = int(r[f]) if r.get(f) else 0
        r["value"] = int(r["value"]) if r["value"] else ""
        r["seconds"] = float(r["seconds"])
    return rows


def specs_of(rows):
    """(sets, seed, table size, uniform points) that solve a file's positions again."""
    sets = {}
    for r in rows:
        sets.setdefault(r["set"], []).append(r)
    seeds = {r["seed"] for r in rows}
    if len(seeds) != 1 or len({r["tt_mb"] for r in rows}) != 1 or len({UNIFORM in s for s in sets}) != 1:
        raise ValueError("the file mixes seeds, table sizes or point rules")
    specs = [(*s.removesuffix(UNIFORM).split(":"), len(rs), rs[0]["limit"]) for s, rs in sets.items()]
    return specs, seeds.pop(), rows[0]["tt_mb"], UNIFORM in next(iter(sets))


def differ(o, n):
    """Do two rows of one position disagree: bounds that exclude each other, or a lead's value?"""
    return max(o["lo"], n["lo"]) > min(o["hi"], n["hi"]) or (o["moves"] and n["moves"] and o["moves"] != n["moves"])


def compare(old_rows, new_rows):
    """Print the per-set comparison and the positions whose values differ; their count."""
    old = {(r["set"], r["seed"], r["index"]): r for r in old_rows}
    sets = {}
    for r in new_rows:
        key = (r["set"], r["seed"], r["index"])
        if key in old:
            sets.setdefault(r["set"], []).append((old[key], r))
    print("\ncompared with the old run, position by position (node and time ratios new/old over those both solved):")
    bad = []
    for label, pairs in sets.items():
        bad += [(label, o, n) for o, n in pairs if differ(o, n)]
        both = [(o, n) for o, n in pairs if resolved(o) and resolved(n)]
        line = (
            f"{label:<16} {len(pairs):>4} positions, solved old {sum(resolved(o) for o, _ in pairs)}, "
            f"new {sum(resolved(n) for _, n in pairs)}"
        )
        if both:
            ratio = sum(n["nodes"] for _, n in both) / max(sum(o["nodes"] for o, _ in both), 1)
            median = statistics.median(max(n["nodes"], 1) / max(o["nodes"], 1) for o, n in both)
            t_ratio = sum(n["seconds"] for _, n in both) / max(sum(o["seconds"] for o, _ in both), 1e-9)
            line += f"; nodes {ratio:.3f} (median of ratios {median:.3f}), time {t_ratio:.3f}"
        print(line)
    print(f"{len(bad)} disagreements in values")
    for label, o, n in bad:
        show = lambda r: (r["value"] if resolved(r) else f"{r['lo']}..{r['hi']}", r["moves"])
        print(f"  DISAGREE {label} #{o['index']}: old {show(o)}, new {show(n)}")
    return len(bad)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", help=f"GAME:TRICKS:COUNT[:LIMIT],... (default {DEFAULT_SETS})")
    ap.add_argument("--deals", type=int, help="the first N positions of every set")
    ap.add_argument("--node-limit", default="1e9", help="nodes per Mü position before it is left unresolved (0: none)")
    ap.add_argument("--seed", type=int, help="seed of the random sets and of the auction sets' run (default 1)")
    ap.add_argument("--tt-mb", type=int, help=f"transposition table size (default {DEFAULT_MB})")
    ap.add_argument("--uniform-points", action="store_true", help="every Mü card worth 1 point")
    ap.add_argument("--csv", help="write a row per position to this file")
    ap.add_argument(
        "--compare",
        nargs="+",
        metavar="CSV",
        help="OLD.csv: solve its positions again and compare; OLD.csv NEW.csv: compare two files",
    )
    ap.add_argument("--per-deal", action="store_true", help="print a line per position")
    ap.add_argument("--counts", action="store_true", help="how the nodes were settled (a slower, counting search)")
    ap.add_argument("--order", help="solve the Mü sets under this weight table of the move ordering (.npy)")
    ap.add_argument("--budget", help="CARDS,FIRST,OTHER: solve under these move budgets (musim/solver/moves.py)")
    a = ap.parse_args()
    if (a.deals is not None and a.deals < 1) or (a.tt_mb is not None and a.tt_mb <= 0):
        ap.error("--deals and --tt-mb must be positive")
    try:
        node_limit = parse_count(a.node_limit)
    except ValueError:
        ap.error(f"--node-limit: {a.node_limit!r} is not a whole number of 0 or more")
    old = None
    if a.compare:
        if len(a.compare) > 2:
            ap.error("--compare takes OLD.csv, or OLD.csv NEW.csv")
        try:
            old = read_rows(a.compare[0])
            if len(a.compare) == 2:
                sys.exit(1 if compare(old, read_rows(a.compare[1])) else 0)
            old_specs, old_seed, old_mb, old_uniform = specs_of(old)
        except (OSError, ValueError, KeyError) as exc:
            ap.error(f"--compare: {exc}")
    if a.sets or old is None:
        specs = []
        for spec in (a.sets or DEFAULT_SETS).split(","):
            try:
                specs.append(parse_set(spec, node_limit))
            except ValueError:
                ap.error(
                    f"--sets: {spec!r} is not GAME:TRICKS:COUNT[:LIMIT] (GAME 3..6 or bridge; TRICKS 1 to a full "
                    "deal, or auction for Mü; COUNT 1 or more; LIMIT nodes, 0 for none)"
                )
        seed, tt_mb, uniform = 1, DEFAULT_MB, a.uniform_points
    else:
        specs, seed, tt_mb, uniform = old_specs, old_seed, old_mb, old_uniform or a.uniform_points
    if a.deals:
        specs = [(g, t, a.deals, lim) for g, t, _, lim in specs]
    seed = a.seed if a.seed is not None else seed
    tt_mb = a.tt_mb or tt_mb
    try:
        order = np.load(a.order) if a.order else None
    except (OSError, ValueError) as exc:
        ap.error(f"--order: {exc}")
    if order is not None and order.shape != DEFAULT_ORDER.shape:
        ap.error(f"--order: a weight table is {DEFAULT_ORDER.shape}, not {order.shape}")
    try:
        budget = parse_budget(a.budget) if a.budget else None
    except ValueError as exc:
        ap.error(str(exc))
    if a.csv:
        try:
            open(a.csv, "w").close()
        except OSError as exc:
            ap.error(f"--csv: {exc}")
    with open(a.csv, "w", newline="") if a.csv else contextlib.nullcontext() as out:
        rows, bad = run(specs, seed, tt_mb, uniform, out, a.per_deal, a.counts, order, budget)
    if old is not None:
        bad += compare(old, rows)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
