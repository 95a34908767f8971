"""What double-dummy play costs on top of the start solve (`musim run --play dd`).

Takes the first --deals full deals' contracts of a heuristic run with --seed (the
positions `--play dd` meets), solves each start position, then plays it out card by
card with one table, as the run kernel does, and counts the nodes of the solves and of
the play's searches.  --rule search is the run's tie rule (search.first_keeping_move:
the first move in the search's own order that keeps the value); --rule card is the
rule it replaced (the first card in card order), kept here for comparison.  Node
counts do not depend on the machine or its load.

Usage: python benchmarks/bench_ddplay.py [--players 3] [--deals 40] [--seed 2026] [--rule search|card]
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solver import auction_positions
from common import prefaulted

from musim.games.mu.solve import MuSolver
from musim.solver.search import finish_trick, first_keeping_move, keeps_value, solve
from musim.solver.tt import make_table


def first_in_card_order(setup, tt, st, leader, k, value):
    """The rule before: the legal card lowest in the deck's card order that keeps the value."""
    g = setup.game
    seat = (leader + k) % g.n
    legal = int(st.hands[seat])
    if k:
        legal = legal & int(g.class_mask[g.klass[st.line[0]]]) or legal
    for c in sorted((c for c in range(64) if legal >> c & 1), key=lambda c: setup.orig_of[c]):
        if keeps_value(g, tt, st, leader, k, c, value):
            return c
    return -1


def play_out(setup, solver, leader, value, rule):
    """Play the position from its start to the last card; returns the team's points."""
    g, st, tt, n = setup.game, solver.st, solver.tt, setup.game.n
    k, got = 0, 0
    while any(st.hands[s] for s in range(n)):
        if rule == "search":
            c = first_keeping_move(g, tt, st, leader, k, value - got)
        else:
            c = first_in_card_order(setup, tt, st, leader, k, value - got)
        st.hands[(leader + k) % n] ^= np.uint64(1) << np.uint64(c)
        st.line[k] = c
        k += 1
        if k == n:
            w, pts = finish_trick(g, st.line, 0, leader)
            got += pts if g.team[w] else 0
            leader, k = w, 0
    return got


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rule", choices=("search", "card"), default="search")
    ap.add_argument("--tt-mb", type=int, default=512)
    a = ap.parse_args()
    solver = MuSolver(prefaulted(make_table(a.tt_mb)))
    positions = [obj for _, obj in zip(range(a.deals), auction_positions(a.players, a.seed))]
    setup, _, leader, _ = solver.load(positions[0])  # compile (or load) the kernels untimed
    play_out(setup, solver, leader, solve(setup.game, solver.tt, solver.st, leader, 0), a.rule)
    solve_nodes = play_nodes = 0
    t_solve = t_play = 0.0
    for obj in positions:
        setup, _, leader, _ = solver.load(obj)
        st = solver.st
        st.stats[0] = 0
        t = time.perf_counter()
        value = solve(setup.game, solver.tt, st, leader, 0)
        t_solve += time.perf_counter() - t
        solve_nodes += st.stats[0]
        st.stats[0] = 0
        t = time.perf_counter()
        got = play_out(setup, solver, leader, value, a.rule)
        t_play += time.perf_counter() - t
        play_nodes += st.stats[0]
        if got != value:
            sys.exit(f"the play took {got} points where the solve found {value}")
    print(
        f"{a.players} players, {a.deals} auction deals of seed {a.seed}, rule {a.rule}: "
        f"solves {solve_nodes:,} nodes ({t_solve:.1f} s), play {play_nodes:,} nodes ({t_play:.1f} s)"
    )


if __name__ == "__main__":
    main()
