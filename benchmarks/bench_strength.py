"""Time of `musim balance --play dd`: its table's deals under each question, or its pure-strength view.

--view table (the default): the deals 0..N-1 of `musim run --players n --seed S --play dd`, which
`musim balance` tabulates, each played as balance plays it under --question value (the start
solve, then the cards played out by the solver) and under --question reach (one null-window
search at the target), one deal at a time with one table of --tt-mb per worker, the value
first.  Per question: nodes and time per deal (mean, median, 90th percentile, max), deals
left unresolved under --node-limit; then the ratio value / reach over the deals both resolved,
and whether the reach answer is (value >= target) on every one of them.

--view strength: every random deal's seats as chief with every trump and partner (no vice),
the highest level each reaches: samplers.strength, on one core with a 512 MB table.

Usage: python benchmarks/bench_strength.py [--view table|strength] [--players 3] [--deals 10]
       [--seed 1] [--node-limit N] [--tt-mb 512]
"""

import argparse
import random
import statistics
import time

import numpy as np

from musim.games.mu import simulate as sim
from musim.games.mu.analysis import samplers
from musim.games.mu.ddplay import QUESTIONS, UNRESOLVED, make_ddplay, worker_ddplay
from musim.games.mu.params import MuParams
from musim.games.mu.policies import DD
from musim.games.mu.run import simulate_deal_chunk
from musim.solver.stats import S_NODES


def spread(xs):
    """mean, median, 90th percentile and max of a list, as text."""
    xs = sorted(xs)
    p90 = xs[min(len(xs) - 1, int(0.9 * len(xs)))]
    return f"mean {statistics.mean(xs):,.0f}, median {xs[len(xs) // 2]:,.0f}, p90 {p90:,.0f}, max {xs[-1]:,.0f}"


def reached(row):
    """Did the reach question's search prove that the team reaches the target?"""
    return row[sim.DD_LOW] >= row[sim.TARGET]


def decided(row):
    """Did the reach question's search decide the target (not given up at the node limit)?"""
    return reached(row) or row[sim.DD_HIGH] < row[sim.TARGET]


def play_table_deal(n, seed, deal, tt_mb, limit, question):
    """(row, nodes, seconds) of one deal of the table under `question` (row None: an eklat)."""
    st = worker_ddplay(tt_mb).st
    nodes = int(st.stats[S_NODES])
    t = time.perf_counter()
    ch = simulate_deal_chunk(MuParams(n, "dd", node_limit=limit, question=question, tt_mb=tt_mb), seed, deal, 1)
    seconds = time.perf_counter() - t
    row = ch.res[0] if ch.res[0, sim.OUTCOME] == sim.PLAYED else None
    return row, int(st.stats[S_NODES]) - nodes, seconds


def table(a):
    for q in QUESTIONS:
        params = MuParams(a.players, "dd", node_limit=a.node_limit, question=q, tt_mb=a.tt_mb)
        simulate_deal_chunk(params, a.seed, 0, 0)  # compile (or load) untimed
    got = {q: [] for q in QUESTIONS}
    for deal in range(a.deals):
        for q in QUESTIONS:
            got[q].append(play_table_deal(a.players, a.seed, deal, a.tt_mb, a.node_limit, q))
    played = [i for i in range(a.deals) if got["value"][i][0] is not None]
    head = f"{a.players} players, deals 0..{a.deals - 1} of seed {a.seed} ({len(played)} played)"
    print(f"{head}, --tt-mb {a.tt_mb}, node limit {a.node_limit or 'none'}")
    resolved = {
        "value": [i for i in played if got["value"][i][0][sim.DD_VALUE] != UNRESOLVED],
        "reach": [i for i in played if decided(got["reach"][i][0])],
    }
    for q in QUESTIONS:
        nodes = [got[q][i][1] for i in played]
        ms = [got[q][i][2] * 1000 for i in played]
        print(
            f"  {q:5}: {sum(nodes):,} nodes, {sum(ms) / 1000:,.1f} s in all; "
            f"unresolved {len(played) - len(resolved[q])}"
        )
        print(f"         nodes a deal: {spread(nodes)}")
        print(f"         ms a deal:    {spread(ms)}")
    both = [i for i in resolved["value"] if i in resolved["reach"]]
    if not both:
        return
    ratio = lambda k: sum(got["value"][i][k] for i in both) / max(sum(got["reach"][i][k] for i in both), 1e-9)
    wrong = [i for i in both if reached(got["reach"][i][0]) != (got["value"][i][0][sim.SUCCESS] == 1)]
    per_deal = sorted(got["value"][i][1] / max(got["reach"][i][1], 1) for i in both)
    print(
        f"  value / reach over the {len(both)} deals both resolved: nodes {ratio(1):.1f}x, time {ratio(2):.1f}x "
        f"(per deal, nodes: median {per_deal[len(per_deal) // 2]:.1f}x); "
        f"reach answer != (value >= target): {len(wrong)}"
    )


def strength(a):
    n = a.players
    deck, size = (36, 12) if n == 3 else (60, 60 // n)
    rng = random.Random(a.seed)
    hands = np.zeros((a.deals, sim.MAX_PLAYERS), np.uint64)
    for i in range(a.deals):
        cards = rng.sample(range(deck), deck)
        for s in range(n):
            hands[i, s] = sum(1 << c for c in cards[size * s : size * (s + 1)])
    ws = sim.make_workspace(n, make_ddplay(a.tt_mb))
    tiny = np.zeros((1, sim.MAX_PLAYERS), np.uint64)
    tiny[0, :n] = [1 << s for s in range(n)]
    samplers.strength(n, tiny, DD, np.zeros((1, n), np.int64), ws)  # load the kernels
    best = np.zeros((a.deals, n), np.int64)
    times = []
    nodes = ws.dd.st.stats[S_NODES]
    for i in range(a.deals):
        t = time.perf_counter()
        samplers.strength(n, hands[i : i + 1], DD, best[i : i + 1], ws)
        times.append(time.perf_counter() - t)
    times.sort()
    print(
        f"{n} players, {a.deals} deals: {sum(times):.1f} s in all, median {times[len(times) // 2]:.2f} s, "
        f"max {times[-1]:.2f} s per deal; {ws.dd.st.stats[S_NODES] - nodes:,} nodes; mean level {best.mean():.2f}"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--view", choices=("table", "strength"), default="table")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--node-limit", type=float, default=0, help="table: nodes a start solve may take (0: none)")
    ap.add_argument("--tt-mb", type=int, default=512)
    a = ap.parse_args()
    a.node_limit = int(a.node_limit)
    table(a) if a.view == "table" else strength(a)


if __name__ == "__main__":
    main()
