"""Double-dummy card play for The Last Panther (`--play dd`): each mover plays a card that is
optimal for its own seat against all the others, every hand seen by everyone.

At each of its cards the mover's seat becomes the solver's maximising side (the one
SolverGame of the player count, its `team` array rewritten in place), the position is solved
for the points that seat takes from here (the last trick's 50 included), and the mover plays,
of its legal cards that keep that value, the one of lowest card index (one null-window search
per candidate).  That choice depends on the position alone, not on the table or the search's
move order.  The pass stays with the heuristic (policies.choose_pass).  A new mover means a
new maximising side, so every card starts a fresh table generation: a full deal costs one
solve per card played.
"""

import threading
from collections import namedtuple

import numpy as np

from musim.games.panther.solve import solver_game
from musim.games.seat_solve import TT_BUCKET, load_position
from musim.jit import flat_kernel
from musim.solver.search import make_state
from musim.solver.solve import first_keeping_move, solve
from musim.solver.table_size import DEFAULT_MB
from musim.solver.tt import make_table, new_generation

PantherDD = namedtuple("PantherDD", "tt st game canon orig order")
# game: the SolverGame of the player count; canon[card] = its canonical position (-1: not in
# the deck), orig[position] = its card; order: the deck's canonical positions by card index

_per_thread = threading.local()


def worker_dd(players, tt_mb=DEFAULT_MB):
    """This thread's scratch for `players` seats, made once and reused (a fresh table's first
    touch costs page faults)."""
    cache = getattr(_per_thread, "dd", None)
    if cache is None or cache[0] != tt_mb:
        cache = _per_thread.dd = (tt_mb, make_table(tt_mb), make_state(), {})
    _, tt, st, games = cache
    if players not in games:
        game, canon = solver_game(players, 0)
        orig = np.full(64, -1, np.int64)
        order = np.flatnonzero(canon >= 0)
        orig[canon[order]] = order
        games[players] = PantherDD(tt, st, game, canon, orig, canon[order])
    return games[players]


@flat_kernel
def dd_card(dd, n, seat, held, trick, k, leader):
    """The card `seat` plays double-dummy: held[s] the hands (deck masks), trick[:k] the cards
    of the trick led by `leader`."""
    g, st = dd.game, dd.st
    for s in range(g.team.shape[0]):
        g.team[s] = s == seat
    new_generation(dd.tt, TT_BUCKET)
    load_position(dd.canon, n, held, trick, k, st)
    value = solve(g, dd.tt, st, leader, k)
    return dd.orig[first_keeping_move(g, dd.tt, st, leader, k, value, dd.order)]
