"""Double-dummy card play for Mückenstich (`--play dd`): each mover plays the card, and with a
mosquito the trump it names, that is optimal for its own seat against all the others, every
hand seen by everyone.

At each of its cards the mover's seat becomes the solver's maximising side (the one SolverGame
of the player count, its `team` array rewritten in place), the position is solved for the
tricks that seat wins from here (solve.py's value), and the mover plays, of its legal moves that
keep that value, the first by card index, a mosquito with the first colour that does (one
null-window search per candidate).  That choice depends on the position alone, not on the table
or the search's move order.  The discards and the colours named at scoring stay with the
heuristic (policies.py).  Every card starts a fresh table generation: a deal costs one solve
per card played.  Under --node-limit each search of a card's choice takes at most that many
nodes (solver/choice.py limited_play).
"""

from musim.compile.jit import flat_kernel
from musim.games.seat_solve import TT_BUCKET, load_position
from musim.solver.choice import limited_play
from musim.solver.tt import new_generation


@flat_kernel
def dd_move(dd, n, seat, held, trick, k, leader, trump):
    """(card, trump after it) that `seat` plays double-dummy: held[s] the hands (deck masks),
    trick[:k] the cards of the trick led by `leader`, `trump` the trump in force (-1: none)."""
    g, st = dd.game, dd.st
    for s in range(g.team.shape[0]):
        g.team[s] = s == seat
    new_generation(dd.tt, TT_BUCKET)
    load_position(dd.canon, n, held, trick, k, st)
    st.trump[0] = trump
    st.won[0] = 0
    c, named = limited_play(g, dd.tt, st, leader, k, dd.order, dd.lim)
    return dd.orig[c], named if named >= 0 else trump
