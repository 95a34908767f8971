"""Double-dummy card play for The Last Panther (`--play dd`): each mover plays a card that is
optimal for its own seat against all the others, every hand seen by everyone.

At each of its cards the mover's seat becomes the solver's maximising side (the one
SolverGame of the player count, its `team` array rewritten in place), the position is solved
for the points that seat takes from here (the last trick's 50 included), and the mover plays,
of its legal cards that keep that value, the one of lowest card index (one null-window search
per candidate).  That choice depends on the position alone, not on the table or the search's
move order.  The pass stays with the heuristic (policies.choose_pass).  A new mover means a
new maximising side, so every card starts a fresh table generation: a full deal costs one
solve per card played.  Under --node-limit each search of a card's choice takes at most that
many nodes (solver/choice.py limited_play).
"""

from musim.compile.jit import flat_kernel
from musim.games.seat_solve import TT_BUCKET, load_position
from musim.solver.choice import limited_play
from musim.solver.tt import new_generation


@flat_kernel
def dd_card(dd, n, seat, held, trick, k, leader):
    """The card `seat` plays double-dummy: held[s] the hands (deck masks), trick[:k] the cards
    of the trick led by `leader`."""
    g, st = dd.game, dd.st
    for s in range(g.team.shape[0]):
        g.team[s] = s == seat
    new_generation(dd.tt, TT_BUCKET)
    load_position(dd.canon, n, held, trick, k, st)
    return dd.orig[limited_play(g, dd.tt, st, leader, k, dd.order, dd.lim)[0]]
