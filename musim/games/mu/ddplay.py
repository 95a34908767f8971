"""Double-dummy card play inside the deal kernel: every card chosen by the exact solver.

When the play phase reaches the last `tricks` tricks (all of them by default),
the position is mapped into the solver's layout and solved once; from then on
each seat plays the first card, in card-index order, that keeps the exact value
(one null-window search per candidate, the transposition table warm).  The
fixed tie rule makes rows reproducible, and the team's points then equal the
value solved at the start.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from musim.bits import bit
from musim.cards import N_CARDS
from musim.games.mu.layout import fill_layout, to_canon
from musim.games.mu.rules import TRUMP
from musim.solver.layout import MAX_CLASSES, MAX_SEATS, SolverGame, fill_equal_power_ranges
from musim.solver.search import first_keeping_move, make_state, solve
from musim.solver.tt import make_table, new_generation

DDPlay = namedtuple(
    "DDPlay", "tt st canon_of orig_of klass power points class_mask eq_lo eq_hi team meta",
)
# meta[0] = value solved at the start of double-dummy play (-1 if none),
# meta[1] = tricks to play double-dummy (0 = all), meta[2] = the current exact value,
# meta[3] = 1 while double-dummy play is active
START_VALUE, TRICKS, VALUE, ACTIVE = range(4)


def make_ddplay(tt_megabytes, tricks=0):
    """Solver scratch for one worker: a transposition table of tt_megabytes, reused across deals."""
    z = np.zeros
    return DDPlay(
        tt=make_table(tt_megabytes), st=make_state(), canon_of=z(N_CARDS, np.int64), orig_of=z(64, np.int64),
        klass=np.full(64, -1, np.int64), power=z(64, np.int64), points=z(64, np.int64),
        class_mask=z(MAX_CLASSES, np.uint64), eq_lo=z(64, np.int64), eq_hi=z(64, np.int64),
        team=z(MAX_SEATS, np.bool_), meta=np.array([-1, tricks, 0, 0], np.int64),
    )


@njit(cache=True)
def solver_game(n, dd):
    return SolverGame(n, dd.klass, dd.power, dd.points, dd.class_mask, dd.eq_lo, dd.eq_hi,
                      np.int64(TRUMP), np.int64(0), dd.team)


@njit(cache=True)
def dd_reset(dd):
    dd.meta[START_VALUE] = -1
    dd.meta[ACTIVE] = 0


@njit(cache=True)
def dd_start(n, chief_trump, vice_trump, held, on_team, leader, dd, klass, power, class_mask):
    """Map the position (a trick boundary) into the solver layout and solve it."""
    fill_layout(chief_trump, vice_trump, klass, power, class_mask, dd.canon_of, dd.orig_of,
                dd.klass, dd.power, dd.points, dd.class_mask)
    fill_equal_power_ranges(dd.klass, dd.power, dd.eq_lo, dd.eq_hi)
    for s in range(MAX_SEATS):
        dd.team[s] = s < n and on_team[s]
    for s in range(n):
        dd.st.hands[s] = to_canon(held[s], dd.canon_of)
    new_generation(dd.tt)
    v = solve(solver_game(n, dd), dd.tt, dd.st, leader, 0)
    dd.meta[START_VALUE] = v
    dd.meta[VALUE] = v
    dd.meta[ACTIVE] = 1


@njit(cache=True)
def dd_card(n, dd, seat, leader, k):
    """The card (original index) the seat to move plays, keeping the exact value."""
    c = first_keeping_move(solver_game(n, dd), dd.tt, dd.st, leader, k, dd.meta[VALUE], dd.orig_of)
    dd.st.hands[seat] ^= bit(c)
    dd.st.line[k] = c
    return dd.orig_of[c]


@njit(cache=True)
def dd_trick_done(dd, team_won, points):
    """After a trick: the value left for the team drops by what it just won."""
    if team_won:
        dd.meta[VALUE] -= points
