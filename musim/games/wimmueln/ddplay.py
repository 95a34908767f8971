"""Double-dummy card play for Wimmüln (`--play dd`): each mover plays a card that is optimal
for its own seat against all the others, every hand seen by everyone.

At each of its cards the mover's seat becomes the solver's maximising side: the position is
solved for the points that seat still gains (the card points of the tricks it wins and its
estimate bonus on the tricks it ends with, solve.py's value), and the mover plays, of its
legal cards that keep that value, the one of lowest card index (one null-window search per
candidate).  The lead without a trump and the estimates stay with the heuristic
(policies.py).  The SolverGame is made in the kernel from the layout of the whole deck, with
the deal's trump and the mover's bonus per number of tricks; every card starts a fresh
table generation, so a deal costs one solve per card played.  Under --node-limit each search of
a card's choice takes at most that many nodes (solver/choice.py limited_play).
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import popcount
from musim.games.seat_solve import TT_BUCKET, load_position, worker_scratch
from musim.games.wimmueln.rules import estimate_bonus
from musim.games.wimmueln.solve import TRUMP_POWER, solver_game
from musim.solver.choice import limited_play
from musim.solver.layout import MAX_TRICKS, SolverGame
from musim.solver.table_size import DEFAULT_MB
from musim.solver.tt import new_generation

WimDD = namedtuple("WimDD", "tt st base power bonus bonus_range canon orig order lim")
# base: the SolverGame of the deck with no trump and no bonus, whose arrays the kernel's games
# share but for power, count_bonus and bonus_range (scratch, rewritten per card); canon[card]
# = its canonical position, orig[position] = its card; order: the canonical positions by card;
# lim: the node limit and the count of cards whose search gave up (solver/choice.py)


def worker_dd(players, tt_mb=DEFAULT_MB, node_limit=0):
    """This thread's scratch for `players` seats (seat_solve.worker_scratch, the rest made once
    and reused), each card's searches within `node_limit` nodes (0: no limit)."""
    tt, st, lim, made = worker_scratch(tt_mb, node_limit)
    if (solver_game, players) not in made:
        made[solver_game, players] = make_dd(players, tt, st, lim)
    return made[solver_game, players]


def make_dd(players, tt, st, lim):
    """The scratch for `players` seats over a table, a search state and limited_play's scratch."""
    base, canon = solver_game(0, players, -1, [])
    orig = np.full(64, -1, np.int64)
    order = np.flatnonzero(canon >= 0)
    orig[canon[order]] = order
    bonus_range = np.zeros((2, MAX_TRICKS + 1, MAX_TRICKS + 1), np.int64)
    power, bonus = base.power.copy(), np.zeros(MAX_TRICKS + 1, np.int64)
    return WimDD(tt, st, base, power, bonus, bonus_range, canon, orig, canon[order], lim)


@flat_kernel
def seat_game(dd, seat, trump, won, left, up, down):
    """The SolverGame for `seat` against all others with this trump, the seat having won `won`
    tricks with `left` to play and estimates numbered up (face up) and down."""
    b = dd.base
    for c in range(64):
        dd.power[c] = b.power[c] + (TRUMP_POWER if b.klass[c] == trump and trump >= 0 else 0)
    for s in range(b.team.shape[0]):
        b.team[s] = s == seat
    for t in range(MAX_TRICKS + 1):
        dd.bonus[t] = estimate_bonus(won + t, up, down) if t <= left else 0
    for t in range(MAX_TRICKS + 1):
        lo, hi = dd.bonus[t], dd.bonus[t]
        for rest in range(1, MAX_TRICKS + 1 - t):
            lo, hi = min(lo, dd.bonus[t + rest]), max(hi, dd.bonus[t + rest])
            dd.bonus_range[0, t, rest], dd.bonus_range[1, t, rest] = lo, hi
    return SolverGame(
        b.n,
        b.klass,
        dd.power,
        b.points,
        b.point_mask,
        b.level_mask,
        b.free_points,
        b.class_mask,
        b.eq_lo,
        b.eq_hi,
        b.tied,
        np.int64(trump),
        b.trick_bonus,
        b.end_bonus,
        dd.bonus,
        dd.bonus_range,
        True,
        b.team,
        b.later_wins,
        b.namers,
        b.order,
    )


@flat_kernel
def dd_card(dd, n, seat, held, trick, k, leader, trump, won, up, down):
    """The card `seat` plays double-dummy: held[s] the hands (deck masks), trick[:k] the cards
    of the trick led by `leader`, won the tricks `seat` has won, up and down its estimates' numbers."""
    st = dd.st
    load_position(dd.canon, n, held, trick, k, st)
    g = seat_game(dd, seat, trump, won, popcount(held[seat]), up, down)
    new_generation(dd.tt, TT_BUCKET)
    return dd.orig[limited_play(g, dd.tt, st, leader, k, dd.order, dd.lim)[0]]
