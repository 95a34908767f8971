"""musim's solver against DDS (endplay) on bridge: agreement and the time ratio.

Random deals of --tricks cards per hand (13 = full deals), each solved for its
value by DDS's SolveBoard (one optimal card: target -1, solutions 1) and by musim,
in the strain and with the leader rotating over the deals.  Prints the agreements
and disagreements, both solvers' total and median times and the ratio musim/DDS,
and the tricks each search completed (DDS's node count), which compares the sizes
of the two searches.  A musim solve over --timeout seconds counts as a timeout
(neither agreement nor disagreement).

Usage: python benchmarks/bench_bridge.py [--deals 1000] [--tricks 13] [--timeout 60]
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import TimedWorker, percentiles, prefaulted
from endplay.dds import solve_board
from endplay.dds.solve import SolveMode
from endplay.types import Deal, Denom, Player

from musim.games.bridge import SEATS, STRAINS, BridgeSolver, random_pbn
from musim.solver.stats import S_TRICKS
from musim.solver.tt import DEFAULT_MB, make_table

DENOMS = [Denom.spades, Denom.hearts, Denom.diamonds, Denom.clubs, Denom.nt]
PLAYERS = [Player.north, Player.east, Player.south, Player.west]
SOLVER = None
TT_MB = DEFAULT_MB


def musim_solve(obj):
    global SOLVER
    if SOLVER is None:
        SOLVER = BridgeSolver(prefaulted(make_table(TT_MB)))
    SOLVER.st.stats[S_TRICKS] = 0
    return SOLVER.solve(obj)["value"], int(SOLVER.st.stats[S_TRICKS])


def main():
    global TT_MB
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--tricks", type=int, default=13)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--tt-mb", type=int, default=DEFAULT_MB)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    TT_MB = a.tt_mb
    rng = random.Random(a.seed)
    BridgeSolver(make_table(1)).solve({"pbn": "N:A... .A.. ..A. ...A", "trump": "NT", "leader": "N"})
    musim_timed = TimedWorker(musim_solve, a.timeout)
    musim_timed({"pbn": "N:A... .A.. ..A. ...A", "trump": "NT", "leader": "N"})  # the worker makes its table
    agree = disagree = timeouts = 0
    t_dds, t_musim = [], []
    n_dds = n_musim = 0  # tricks completed in the searches, over the deals musim solved
    for i in range(a.deals):
        pbn = random_pbn(rng, a.tricks)
        strain, leader = i % 5, (i // 5) % 4
        deal = Deal.from_pbn(pbn)
        deal.trump, deal.first = DENOMS[strain], PLAYERS[leader]
        t = time.perf_counter()
        solved = solve_board(deal, SolveMode.OptimalOne)
        t_dds.append(time.perf_counter() - t)
        ref = max(v for _, v in solved)
        secs, out = musim_timed({"pbn": pbn, "trump": STRAINS[strain], "leader": SEATS[leader]})
        t_musim.append(secs)
        if secs is None:
            timeouts += 1
            continue
        got, tricks = out
        n_dds += solved._data.nodes  # DDS's "nodes": tricks completed in its search
        n_musim += tricks
        if got == ref:
            agree += 1
        else:
            disagree += 1
            print(f"DISAGREE {pbn} {STRAINS[strain]} {SEATS[leader]}: dds {ref}, musim {got}", flush=True)
    done = [(m, d) for m, d in zip(t_musim, t_dds) if m is not None]
    print(f"{a.deals} deals of {a.tricks} tricks: {agree} agree, {disagree} disagree, {timeouts} over {a.timeout:g} s")
    print(f"DDS:   total {sum(t_dds):.2f} s, median {percentiles(t_dds)[0] * 1000:.2f} ms")
    if done:
        tm, td = sum(m for m, _ in done), sum(d for _, d in done)
        print(
            f"musim: total {tm:.2f} s, median {percentiles([m for m, _ in done])[0] * 1000:.2f} ms "
            f"(on the {len(done)} solved); time ratio musim/DDS {tm / td:,.1f}x"
        )
        print(f"tricks completed in the searches: DDS {n_dds:,}, musim {n_musim:,} ({n_musim / max(n_dds, 1):,.1f}x)")


if __name__ == "__main__":
    main()
