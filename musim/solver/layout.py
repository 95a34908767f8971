"""The canonical layout the solver searches in, and what a game supplies to fill it.

A game hands the solver, per contract, up to 64 cards re-mapped so that each
class (the trump class and each side suit/colour) is a contiguous bit range in
ascending power.  Following is then one AND with the class mask, the top card of
a class is its highest bit, and two cards of one player are interchangeable
when they carry the same points and no other unplayed card sits between them
(or they have equal power).  Everything game-specific — classes, powers, card
points, the per-trick bonus, and which seats are the maximising team — lives in
a `SolverGame`.
"""

from collections import namedtuple

import numpy as np

from musim.jit import flat_kernel

MAX_SEATS = 6
MAX_CLASSES = 8

SolverGame = namedtuple(
    "SolverGame",
    "n klass power points point_mask class_mask eq_lo eq_hi tied trump_class trick_bonus team",
)
# eq_lo[c], eq_hi[c]: the first and last position holding c's power (equal powers are adjacent);
# tied: the positions with an equal power below them (tied_mask); point_mask[p]: the cards
# worth p points (p = 2: 2 or more).


@flat_kernel
def fill_point_masks(klass, points, point_mask):
    """point_mask[p] = the positions of cards worth p points (2: two or more)."""
    point_mask[:] = 0
    for c in range(64):
        if klass[c] >= 0:
            point_mask[min(points[c], 2)] |= np.uint64(1) << np.uint64(c)


@flat_kernel
def fill_equal_power_ranges(klass, power, eq_lo, eq_hi):
    """For each canonical position, the span of positions of its class with the same power."""
    for c in range(64):
        eq_lo[c] = c
        eq_hi[c] = c
    for c in range(1, 64):
        if klass[c] >= 0 and klass[c] == klass[c - 1] and power[c] == power[c - 1]:
            eq_lo[c] = eq_lo[c - 1]
    for c in range(62, -1, -1):
        if klass[c] >= 0 and klass[c] == klass[c + 1] and power[c] == power[c + 1]:
            eq_hi[c] = eq_hi[c + 1]


@flat_kernel
def tied_mask(eq_lo):
    """The positions c whose power an earlier position shares (eq_lo[c] < c)."""
    m = np.uint64(0)
    for c in range(64):
        if eq_lo[c] < c:
            m |= np.uint64(1) << np.uint64(c)
    return m


def make_game(n, classes, trump_class, trick_bonus, team):
    """Build a SolverGame from `classes`: a list (one per class) of lists of (power, points),
    each sorted by ascending power; trump_class is the index of the trump class or -1.
    Returns (game, the canonical index of each input card, as nested lists)."""
    klass = np.full(64, -1, np.int64)
    power = np.zeros(64, np.int64)
    points = np.zeros(64, np.int64)
    class_mask = np.zeros(MAX_CLASSES, np.uint64)
    index = []
    pos = 0
    for k, cards in enumerate(classes):
        ids = []
        for pw, pt in cards:
            klass[pos], power[pos], points[pos] = k, pw, pt
            class_mask[k] |= np.uint64(1) << np.uint64(pos)
            ids.append(pos)
            pos += 1
        index.append(ids)
    if pos > 64:
        raise ValueError("more than 64 cards")
    team_arr = np.zeros(MAX_SEATS, np.bool_)
    for s in team:
        team_arr[s] = True
    eq_lo, eq_hi = np.zeros(64, np.int64), np.zeros(64, np.int64)
    fill_equal_power_ranges(klass, power, eq_lo, eq_hi)
    point_mask = np.zeros(3, np.uint64)
    fill_point_masks(klass, points, point_mask)
    # np.uint64: tied_mask returns a Python int here, which kernels would type as int64
    return SolverGame(
        n,
        klass,
        power,
        points,
        point_mask,
        class_mask,
        eq_lo,
        eq_hi,
        np.uint64(tied_mask(eq_lo)),
        np.int64(trump_class),
        np.int64(trick_bonus),
        team_arr,
    ), index
