"""What double-dummy play costs on top of the start solve (`musim run --play dd`).

Takes the deals of a heuristic run with --seed (eklats skipped), at the point where
`--play dd --dd-tricks T` starts its solver (--tricks T; 0: the whole deal), solves each
such position, then plays it out card by card with one table, as the run kernel does,
and reports the time per deal (solve and play) and the nodes of the solves and of the
play's searches.  --rule product is the run's rule (ddplay.dd_card: of the cards that keep
the value, the lowest card index); --rule search is the rule before it, kept for
comparison: the first move, in the search's own move order for the position, that keeps
the value (cheaper, but a change to that order changed rows).  Node counts do not depend
on the machine or its load; times do.

Usage: python benchmarks/bench_ddplay.py [--players 3] [--deals 40] [--tricks 0] [--seed 2026]
       [--rule product|search]
"""

import argparse
import statistics
import sys
import time
from collections import Counter
from itertools import islice
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import auction_positions, prefaulted

from musim.core.cards import CARD_TEXT
from musim.games.mu.params import MuParams
from musim.games.mu.record import replay
from musim.games.mu.run import deal_record
from musim.games.mu.solve import MuSolver
from musim.solver.moves import gen_moves
from musim.solver.search import set_owners, trump_in_force
from musim.solver.solve import first_keeping_move, keeps_value, solve
from musim.solver.stats import S_NODES
from musim.solver.trick import finish_trick
from musim.solver.tt import make_table


def first_in_search_order(setup, tt, st, leader, k, value):
    """The earlier rule: the first move, in gen_moves' order with no table move, that keeps the value."""
    g = setup.game
    set_owners(g, st)
    count = gen_moves(g, st, (leader + k) % g.n, leader, k, k, -1, trump_in_force(g, st))
    for c in [int(st.moves[k, i]) for i in range(count)]:
        if keeps_value(g, tt, st, leader, k, c, -1, value):
            return c
    return -1


def late_positions(n, seed, tricks):
    """The positions of a heuristic run's played deals with `tricks` tricks left, in deal order."""
    deal = 0
    while True:
        record = deal_record(MuParams(n, "heuristic"), seed, deal)
        deal += 1
        if "play" not in record:
            continue
        res = replay(record)
        hands = [Counter(h) for h in record["hands"]]
        for t in res["tricks"][:-tricks]:
            for j, card in enumerate(t["cards"]):
                hands[(t["leader"] + j) % n][card] -= 1
        yield {
            "game": "mu",
            "players": n,
            "hands": [sorted(h.elements()) for h in hands],
            "leader": res["tricks"][-tricks]["leader"],
            "trick": [],
            "chief": res["chief"],
            "partner": res["partner"],
            "vice": res["vice"],
            "chief_trump": res["chief_trump"],
            "vice_trump": res["vice_trump"],
        }


def play_out(setup, solver, leader, value, rule):
    """Play the position from its start to the last card; returns (the team's points, the cards)."""
    g, st, tt, n = setup.game, solver.st, solver.tt, setup.game.n
    k, got, cards = 0, 0, []
    while any(st.hands[s] for s in range(n)):
        if rule == "product":
            c = first_keeping_move(g, tt, st, leader, k, value - got, setup.canon_of)
        else:
            c = first_in_search_order(setup, tt, st, leader, k, value - got)
        cards.append(CARD_TEXT[setup.orig_of[c]])
        st.hands[(leader + k) % n] ^= np.uint64(1) << np.uint64(c)
        st.line[k] = c
        k += 1
        if k == n:
            w, pts, _ = finish_trick(g, st.line, 0, leader, not st.hands.any(), g.trump_class)
            got += pts if g.team[w] else 0
            leader, k = w, 0
    return got, cards


def measure(solver, positions, rule):
    """Per position: (solve seconds, play seconds, solve nodes, play nodes, cards played)."""
    out = []
    for obj in positions:
        setup, _, leader, _ = solver.load(obj)
        st = solver.st
        st.stats[S_NODES] = 0
        t = time.perf_counter()
        value = solve(setup.game, solver.tt, st, leader, 0)
        t_solve = time.perf_counter() - t
        solve_nodes = int(st.stats[S_NODES])
        st.stats[S_NODES] = 0
        t = time.perf_counter()
        got, cards = play_out(setup, solver, leader, value, rule)
        t_play = time.perf_counter() - t
        if got != value:
            sys.exit(f"the play took {got} points where the solve found {value}")
        out.append((t_solve, t_play, solve_nodes, int(st.stats[S_NODES]), cards))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--tricks", type=int, default=0, help="tricks left when the solver starts (0: all)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rule", choices=("product", "search"), default="product")
    ap.add_argument("--tt-mb", type=int, default=512)
    ap.add_argument("--cards", help="write the cards played, a deal a line, to this file")
    a = ap.parse_args()
    solver = MuSolver(prefaulted(make_table(a.tt_mb)))
    source = late_positions(a.players, a.seed, a.tricks) if a.tricks else auction_positions(a.players, a.seed)
    positions = list(islice(source, a.deals))
    measure(solver, positions[:1], a.rule)  # compile (or load) the kernels untimed
    rows = measure(solver, positions, a.rule)
    total = [s + p for s, p, *_ in rows]
    play = sum(p for _, p, *_ in rows)
    print(
        f"{a.players} players, {a.deals} deals of seed {a.seed}, {a.tricks or 'all'} tricks, rule {a.rule}: "
        f"{statistics.mean(total) * 1000:,.1f} ms a deal (median {statistics.median(total) * 1000:,.1f} ms), "
        f"play {play / sum(total):.1%} of the time; "
        f"solves {sum(r[2] for r in rows):,} nodes, play {sum(r[3] for r in rows):,} nodes"
    )
    if a.cards:
        Path(a.cards).write_text("".join(" ".join(r[4]) + "\n" for r in rows))


if __name__ == "__main__":
    main()
