"""Nodes searched on fixed sets of positions: the figure to compare when changing the search.

Node counts do not depend on the machine or its load (times do), so a change to move
ordering, bounds or the table can be judged by them alone.  Each set is GAME:TRICKS:COUNT,
GAME a Mü player count or `bridge`; positions are drawn as in bench_solver.py and
bench_bridge.py from a fixed seed, and solved in one process with one table (--tt-mb).
TRICKS `auction` takes the first COUNT full deals' contracts of a heuristic run with
--seed instead (bench_solver.py --contracts auction): the positions `--play dd` meets.

--uniform-points solves the same Mü positions with every card worth 1 point (the value
then counts cards won, 1/n-trick steps): what the search costs when points only follow
tricks, as in bridge, against what Mü's points cost.

Usage: python benchmarks/bench_nodes.py [--sets 5:7:30,4:8:30,6:6:30,3:9:30,bridge:9:100]
                                        [--uniform-points] [--tt-mb 256]
       python benchmarks/bench_nodes.py --sets 6:auction:8,3:auction:20 --seed 1 --tt-mb 512
"""

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solver import auction_positions, random_position
from common import prefaulted

from musim.games.bridge import SEATS, STRAINS, BridgeSolver, random_pbn
from musim.games.mu import solve as mu_solve
from musim.games.mu.layout import MuSolverSetup
from musim.games.mu.solve import MuSolver
from musim.solver.layout import fill_point_masks
from musim.solver.stats import S_NODES
from musim.solver.tt import make_table


def positions(game, tricks, count, seed):
    if tricks == "auction":
        return list(itertools.islice(auction_positions(int(game), seed), count))
    tricks = int(tricks)
    if game == "bridge":
        rng = random.Random(5)
        return [
            {"pbn": random_pbn(rng, tricks), "trump": STRAINS[i % 5], "leader": SEATS[(i // 5) % 4]}
            for i in range(count)
        ]
    rng = random.Random(7 + int(game))
    return [random_position(rng, int(game), tricks) for _ in range(count)]


class UniformPointsSetup(MuSolverSetup):
    """A Mü contract whose cards are all worth 1 point (the solver's game shares these arrays)."""

    def __init__(self, *args):
        super().__init__(*args)
        lay = self.layout
        lay.points[lay.klass >= 0] = 1
        fill_point_masks(lay.klass, lay.points, lay.point_mask)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="5:7:30,4:8:30,6:6:30,3:9:30,bridge:9:100")
    ap.add_argument("--uniform-points", action="store_true", help="every Mü card worth 1 point")
    ap.add_argument("--seed", type=int, default=1, help="the heuristic run of the `auction` sets")
    ap.add_argument("--tt-mb", type=int, default=256)
    a = ap.parse_args()
    if a.tt_mb <= 0:
        ap.error("--tt-mb must be positive")
    if a.uniform_points:
        mu_solve.MuSolverSetup = UniformPointsSetup
    tt = prefaulted(make_table(a.tt_mb))
    for spec in a.sets.split(","):
        try:
            game, tricks, count = spec.split(":")
            most = 13 if game == "bridge" else 15  # more than the deck holds: sampling raises
            if (game != "bridge" and int(game) not in range(3, 7)) or int(count) < 1:
                raise ValueError
            if (tricks != "auction" or game == "bridge") and not 1 <= int(tricks) <= most:
                raise ValueError
            objs = positions(game, tricks, int(count), a.seed)
        except ValueError:
            ap.error(
                f"--sets: {spec!r} is not GAME:TRICKS:COUNT (GAME 3..6 or bridge, TRICKS a number "
                "that fits the deck or auction for Mü, COUNT 1 or more)"
            )
        solver = BridgeSolver(tt) if game == "bridge" else MuSolver(tt)
        solver.solve(positions(game, "1", 1, a.seed)[0])  # load the kernels
        nodes, total, values = 0, 0.0, 0
        for obj in objs:
            solver.st.stats[S_NODES] = 0
            t = time.perf_counter()
            values += solver.solve(obj)["value"]
            total += time.perf_counter() - t
            nodes += int(solver.st.stats[S_NODES])
        label = "auction contracts" if tricks == "auction" else f"{tricks:>2} tricks"
        print(f"{game:>6} {label} x {count:>3}: {nodes:>12,} nodes, {total:6.2f} s, sum of values {values}", flush=True)


if __name__ == "__main__":
    main()
