"""Nodes searched on fixed sets of positions: the figure to compare when changing the search.

Node counts do not depend on the machine or its load (times do), so a change to move
ordering, bounds or the table can be judged by them alone.  Each set is GAME:TRICKS:COUNT,
GAME a Mü player count or `bridge`; positions are drawn as in bench_solver.py and
bench_bridge.py from a fixed seed, and solved in one process with one 256 MB table.

--uniform-points solves the same Mü positions with every card worth 1 point (the value
then counts cards won, 1/n-trick steps): what the search costs when points only follow
tricks, as in bridge, against what Mü's points cost.

Usage: python benchmarks/bench_nodes.py [--sets 5:7:30,4:8:30,6:6:30,3:9:30,bridge:9:100]
                                        [--uniform-points]
"""
import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solver import random_position  # noqa: E402

from musim.games.bridge import SEATS, STRAINS, BridgeSolver, random_pbn  # noqa: E402
from musim.games.mu import solve as mu_solve  # noqa: E402
from musim.games.mu.layout import MuSolverSetup  # noqa: E402
from musim.games.mu.solve import MuSolver  # noqa: E402
from musim.solver.layout import fill_point_masks  # noqa: E402
from musim.solver.tt import make_table  # noqa: E402


def positions(game, tricks, count):
    if game == "bridge":
        rng = random.Random(5)
        return [{"pbn": random_pbn(rng, tricks), "trump": STRAINS[i % 5], "leader": SEATS[(i // 5) % 4]}
                for i in range(count)]
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
    a = ap.parse_args()
    if a.uniform_points:
        mu_solve.MuSolverSetup = UniformPointsSetup
    tt = make_table(256)
    for spec in a.sets.split(","):
        game, tricks, count = spec.split(":")
        solver = BridgeSolver(tt) if game == "bridge" else MuSolver(tt)
        objs = positions(game, int(tricks), int(count))
        solver.solve(objs[0])  # load the kernels
        nodes, total, values = 0, 0.0, 0
        for obj in objs:
            solver.st.stats[0] = 0
            t = time.perf_counter()
            values += solver.solve(obj)["value"]
            total += time.perf_counter() - t
            nodes += int(solver.st.stats[0])
        print(f"{game:>6} {tricks:>2} tricks x {count:>3}: {nodes:>12,} nodes, {total:6.2f} s, "
              f"sum of values {values}", flush=True)


if __name__ == "__main__":
    main()
