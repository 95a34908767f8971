"""The answer of `musim solve` for one position, shared by every game's adapter: the value, or
under a node limit the bounds a solve that gave up proved (docs/examples/README.md "Batches").

A decided position answers {"value": v} as it always has; one whose solve passed the limit
answers {"value": null, "lo": lo, "hi": hi}, its value in lo..hi.  With --all-moves each card's
entry is its value, or {"lo": lo, "hi": hi} where its own solve passed the limit.
"""

import numpy as np

from musim.solver.layout import MAX_CLASSES
from musim.solver.solve import move_bounds, named_bounds, solve_within


def value_answer(lo, hi):
    """The answer's value fields for a value in lo..hi."""
    return {"value": int(lo)} if lo == hi else {"value": None, "lo": int(lo), "hi": int(hi)}


def move_answer(lo, hi):
    """A move's entry in `moves`: its value, or its bounds."""
    return int(lo) if lo == hi else {"lo": int(lo), "hi": int(hi)}


class Moves:
    """The bounds of the value after each legal move, by the move's canonical position (and the
    class a namer card names)."""

    def __init__(self, g, tt, st, leader, k, lo, hi, limit):
        self.lo, self.hi = np.full(64, -1, np.int64), np.full(64, -1, np.int64)
        move_bounds(g, tt, st, leader, k, lo, hi, limit, self.lo, self.hi)
        self.named_lo = np.full((64, MAX_CLASSES), -1, np.int64)
        self.named_hi = np.full((64, MAX_CLASSES), -1, np.int64)
        if g.namers:
            named_bounds(g, tt, st, leader, k, lo, hi, limit, self.named_lo, self.named_hi)

    def card(self, position):
        return move_answer(self.lo[position], self.hi[position])

    def named(self, position, klass):
        return move_answer(self.named_lo[position, klass], self.named_hi[position, klass])


def solve_position(g, tt, st, leader, k, all_moves, limit):
    """(the answer's value fields, Moves or None without all_moves) of the position loaded in st,
    each solve (the position's, each move's) within `limit` nodes (0: no limit)."""
    lo, hi = solve_within(g, tt, st, leader, k, limit)
    return value_answer(lo, hi), Moves(g, tt, st, leader, k, lo, hi, limit) if all_moves else None
