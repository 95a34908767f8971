"""A double-dummy card choice whose searches may give up (`musim run --play dd --node-limit N`,
for the plays that solve each card afresh: docs/players.md "Double-dummy play under a node
limit").

Without a limit the seat to move plays, of its legal moves that keep the position's exact value,
the first in the game's order (solve.first_keeping_play).  Under a limit every search of the
choice (the solve, each candidate's null-window search) takes at most N nodes; where one gives
up, the mover plays the move whose proved bounds are best for it (solve.move_bounds, each move's
solve within N nodes): for the maximising side the highest lower bound, then the highest upper
bound; for the other the lowest upper bound, then the lowest lower bound; the first in the
order on a tie.  Every search starts from a fresh table generation, so which searches give up
depends on the position, the limit and the table's size alone, never on the deals a worker
played before.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.solver.layout import MAX_CLASSES
from musim.solver.solve import first_keeping_within, move_bounds, named_bounds, solve_within
from musim.solver.trick import is_namer, legal_cards

Limited = namedtuple("Limited", "meta lo hi named_lo named_hi")
# meta[LIMIT] = the nodes a search may take (0: no limit), meta[GAVE_UP] = the cards chosen by
# their bounds since the count was last read (cards_limited); lo, hi, named_lo, named_hi: move_bounds' and
# named_bounds' scratch
LIMIT, GAVE_UP = range(2)


def make_limited(limit=0):
    """The scratch of limited_play, its searches within `limit` nodes (0: no limit)."""
    return Limited(
        np.array([limit, 0], np.int64),
        np.zeros(64, np.int64),
        np.zeros(64, np.int64),
        np.zeros((64, MAX_CLASSES), np.int64),
        np.zeros((64, MAX_CLASSES), np.int64),
    )


@flat_kernel(inline="always")
def _better(maximiser, lo, hi, best_lo, best_hi):
    """Are the bounds lo..hi of a move better for its mover than best_lo..best_hi?"""
    if maximiser:
        return lo > best_lo or (lo == best_lo and hi > best_hi)
    return hi < best_hi or (hi == best_hi and lo < best_lo)


@flat_kernel(inline="always")
def best_bounded(g, tt, st, leader, k, lo, hi, order, lim):
    """(card, named) of the legal move whose bounds (move_bounds, named_bounds: the position's
    value in lo..hi, each move's solve within lim.meta[LIMIT] nodes) are best for the seat to
    move, the first in `order` on a tie."""
    limit = lim.meta[LIMIT]
    move_bounds(g, tt, st, leader, k, lo, hi, limit, lim.lo, lim.hi)
    if g.namers:
        named_bounds(g, tt, st, leader, k, lo, hi, limit, lim.named_lo, lim.named_hi)
    seat = leader + k
    if seat >= g.n:
        seat -= g.n
    maximiser = g.team[seat]
    legal = legal_cards(g, st.hands[seat], st.line, 0, k)
    best_c, best_named, best_lo, best_hi = -1, -1, 0, 0
    for c in order:
        if not legal & (np.uint64(1) << np.uint64(c)):
            continue
        namer = is_namer(g, c)
        for t in range(MAX_CLASSES if namer else 1):
            if namer and not g.class_mask[t]:
                continue
            m_lo, m_hi = (lim.named_lo[c, t], lim.named_hi[c, t]) if namer else (lim.lo[c], lim.hi[c])
            if best_c < 0 or _better(maximiser, m_lo, m_hi, best_lo, best_hi):
                best_c, best_named, best_lo, best_hi = c, t if namer else -1, m_lo, m_hi
    return best_c, best_named


@flat_kernel(inline="always")
def limited_play(g, tt, st, leader, k, order, lim):
    """(card, named: -1 for a card that names nothing) the seat to move plays, the position
    loaded in st with a fresh table generation: of the moves keeping the exact value the first
    in `order` (solve.first_keeping_play), every search within lim.meta[LIMIT] nodes; where one
    gives up, best_bounded's move, counted in lim.meta[GAVE_UP]."""
    limit = lim.meta[LIMIT]
    lo, hi = solve_within(g, tt, st, leader, k, limit)
    if lo == hi:
        c, named = first_keeping_within(g, tt, st, leader, k, lo, order, limit)
        if c >= 0:
            return c, named
    lim.meta[GAVE_UP] += 1
    return best_bounded(g, tt, st, leader, k, lo, hi, order, lim)


@flat_kernel
def cards_limited(dd):
    """The cards of the deal so far whose search gave up (limited_play), the count cleared for
    the next deal; 0 without a solver (dd: a scratch with `lim`, or None)."""
    if dd is None:
        return 0
    count = dd.lim.meta[GAVE_UP]
    dd.lim.meta[GAVE_UP] = 0
    return count
