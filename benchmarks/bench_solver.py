"""Double-dummy solve times for Mü (issue: median/p90/max per player count, nodes per second).

Each sample is the starting position of a random full deal (random hands, chief,
partner, vice and trumps, the chief leading), solved on one core by a worker
process that keeps its transposition table across deals (a new generation each, as
in `musim run`); a solve that exceeds --timeout seconds is reported as over the
limit.  --endings T instead solves positions with T tricks left (random cards), to
show how the time grows with the depth.  --contracts auction takes the contracts
of `musim run --play heuristic --seed S` instead (deals 0, 1, ...; eklats skipped):
real auctions give the chief long, strong trumps, which random contracts rarely do.

Usage: python benchmarks/bench_solver.py [--players 3,4,5,6] [--deals 20] [--timeout 60]
       python benchmarks/bench_solver.py --players 5 --endings 6,7,8,9 --deals 20
       python benchmarks/bench_solver.py --players 3 --contracts auction --deals 30
       (--per-deal adds a line per deal: value, time, nodes)
"""

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import TimedWorker, fmt_seconds, percentiles, prefaulted

from musim.cards import CARD_TEXT, N_CARDS, mask_cards, type_text
from musim.games.mu import simulate as sim
from musim.games.mu.run import simulate_deals
from musim.games.mu.solve import MuSolver
from musim.solver.stats import S_NODES
from musim.solver.tt import DEFAULT_MB, make_table

SOLVER = None
TT_MB = DEFAULT_MB


def random_position(rng, n, tricks):
    deck = list(range(36 if n == 3 else N_CARDS))
    cards = rng.sample(deck, n * tricks)
    seats = rng.sample(range(n), n)
    chief_trump = rng.randrange(-1, 15)
    vice_trump = rng.choice([t for t in range(15) if t != chief_trump]) if n >= 4 else -1
    return {
        "game": "mu",
        "players": n,
        "hands": [[CARD_TEXT[c] for c in cards[s * tricks : (s + 1) * tricks]] for s in range(n)],
        "leader": seats[0],
        "trick": [],
        "chief": seats[0],
        "partner": seats[1] if n >= 4 else None,
        "vice": seats[2] if n >= 4 else None,
        "chief_trump": type_text(chief_trump),
        "vice_trump": None if vice_trump < 0 else type_text(vice_trump),
    }


def auction_positions(n, seed):
    """Start positions of the played deals of a heuristic run, in deal order."""
    deal = 0
    while True:
        ch = simulate_deals(n, seed, "heuristic", deal, 1)
        deal += 1
        r = ch.res[0]
        if r[sim.OUTCOME] != sim.PLAYED:
            continue
        opt = lambda s: None if s < 0 else int(s)
        yield {
            "game": "mu",
            "players": n,
            "hands": [mask_cards(h) for h in ch.hands[0][:n]],
            "leader": int(r[sim.CHIEF]),
            "trick": [],
            "chief": int(r[sim.CHIEF]),
            "partner": opt(r[sim.PARTNER]),
            "vice": opt(r[sim.VICE]),
            "chief_trump": type_text(r[sim.CHIEF_TRUMP]),
            "vice_trump": None if r[sim.VICE_TRUMP] < 0 else type_text(r[sim.VICE_TRUMP]),
        }


def solve_one(obj):
    """Solve in the worker process, with a table of its own made there: pages copied on
    write from the parent would otherwise dominate the time."""
    global SOLVER
    if SOLVER is None:
        SOLVER = MuSolver(prefaulted(make_table(TT_MB)))
    SOLVER.st.stats[S_NODES] = 0
    value = SOLVER.solve(obj)["value"]
    return value, int(SOLVER.st.stats[S_NODES])


def main():
    global TT_MB
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="3,4,5,6")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--endings", default="", help="comma-separated trick counts (default: full deals)")
    ap.add_argument(
        "--contracts",
        choices=["random", "auction"],
        default="random",
        help="full deals: random contracts, or those of a heuristic run's auctions",
    )
    ap.add_argument("--tt-mb", type=int, default=DEFAULT_MB)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--per-deal",
        action="store_true",
        help="also print each deal's value, time and nodes (to pair two versions deal by deal)",
    )
    a = ap.parse_args()
    TT_MB = a.tt_mb
    MuSolver(make_table(1)).solve(random_position(random.Random(0), 4, 2))  # load kernels before forking
    solve_timed = TimedWorker(solve_one, a.timeout)
    solve_timed(random_position(random.Random(0), 4, 2))  # the worker makes its table
    for n in (int(x) for x in a.players.split(",")):
        full = 12 if n in (3, 5) else 60 // n
        for tricks in [int(t) for t in a.endings.split(",")] if a.endings else [full]:
            rng = random.Random(a.seed * 1000 + n * 20 + tricks)
            dealt = auction_positions(n, a.seed) if a.contracts == "auction" and not a.endings else None
            times, nodes, node_time = [], 0, 0.0
            for deal in range(a.deals):
                obj = next(dealt) if dealt else random_position(rng, n, tricks)
                secs, out = solve_timed(obj)
                times.append(secs)
                if secs is not None:
                    nodes += out[1]
                    node_time += secs
                if a.per_deal:
                    print(
                        f"  deal {deal:3d}: "
                        + (
                            "over the limit"
                            if secs is None
                            else f"value {out[0]:2d}, {fmt_seconds(secs)}, {out[1]:,} nodes"
                        ),
                        flush=True,
                    )
            med, p90, mx = percentiles(times)
            over = sum(t is None for t in times)
            rate = f"{nodes / node_time:,.0f} nodes/s" if node_time else "-"
            label = " (auction contracts)" if dealt else ""
            print(
                f"{n} players, {tricks:2d} tricks, {a.deals} deals{label}: median {fmt_seconds(med)}, "
                f"p90 {fmt_seconds(p90)}, max {fmt_seconds(mx)}, over {a.timeout:g} s: {over}, {rate}",
                flush=True,
            )


if __name__ == "__main__":
    main()
