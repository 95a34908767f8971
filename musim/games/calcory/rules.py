"""Calcory (docs/rules.md §7) as a state machine of numba kernels on a `Table`, shared by the
simulation and the replay of records, so that each rule has one statement.

The grid's 60 positions (row p // 10, column p % 10) are the bits of position masks; `at[p]`
is the card (index, docs/formats.md) lying at p, -1 on an empty space.  A Table always waits
for a decision of the seat to move: PLAY (turn a face-down card, or stop), BACK (put one of the
cards taken back face down on an empty space), or OVER.  Each action ends the turn when the
rules say so and starts the next one (`begin`), which resolves what needs no decision.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest, popcount
from musim.core.deck import MU as DECK

NUMBER = DECK.card_rank  # a card's number 0..9
CELLS = 60
GRID = np.uint64((1 << CELLS) - 1)
TARGET = 13
MAX_TURNS = 1000
MIN_PLAYERS, MAX_PLAYERS = 2, 4

# t.g: the scalars
SEAT, OWNER, MARK_TOTAL, MARK_COUNT, TOTAL, ZEROS, PHASE, TURNS, END, PLAYERS = range(10)
# t.m: DOWN, MARKS, TURNED are position masks; HAND the cards taken (card mask), one to put back
DOWN, MARKS, TURNED, HAND = range(4)
PLAY, BACK, OVER = range(3)
SINGLE, EXHAUSTED, CAPPED = range(3)
ENDS = ("single", "exhausted", "cap")  # what ended a game, by t.g[END]
# t.counts[seat]: the parts of a seat's game
TURNS_OF, FAILED, THIRTEENS, TAKEN = range(4)

# at: the card at each position; numbers[v]: the positions whose card is a v (stale on empty
# spaces: read it with a mask of occupied positions)
Table = namedtuple("Table", "at numbers g m won counts")


def new_table():
    """An empty Table (reset() lays out a grid)."""
    return Table(
        at=np.full(64, -1, np.int64),
        numbers=np.zeros(10, np.uint64),
        g=np.zeros(10, np.int64),
        m=np.zeros(4, np.uint64),
        won=np.zeros(MAX_PLAYERS, np.uint64),
        counts=np.zeros((MAX_PLAYERS, 4), np.int64),
    )


@flat_kernel
def reset(t, n, starter, grid):
    """Lay the cards grid[0..59] face down at positions 0..59 and start `starter`'s turn."""
    for v in range(10):
        t.numbers[v] = 0
    for p in range(CELLS):
        t.at[p] = grid[p]
        t.numbers[NUMBER[grid[p]]] |= bit(p)
    for k in range(t.g.shape[0]):
        t.g[k] = 0
    for k in range(t.m.shape[0]):
        t.m[k] = 0
    for s in range(MAX_PLAYERS):
        t.won[s] = 0
        for k in range(t.counts.shape[1]):
            t.counts[s, k] = 0
    t.g[PLAYERS], t.g[SEAT], t.g[OWNER] = n, starter, -1
    t.m[DOWN] = GRID
    begin(t)


@flat_kernel(inline="always")
def _end(t, why):
    t.g[END], t.g[PHASE] = why, OVER


@flat_kernel(inline="always")
def _lift(t, positions):
    """Take the cards at `positions` off the grid; their card mask."""
    cards = np.uint64(0)
    while positions:
        p = lowest(positions)
        positions &= positions - np.uint64(1)
        cards |= bit(t.at[p])
        t.at[p] = -1
    return cards


@flat_kernel
def begin(t):
    """Start the turn of t.g[SEAT]: the turn cap, then the seat's own surviving marks (taken,
    one put back face down; a single card is kept and ends the game), then an empty grid."""
    s = t.g[SEAT]
    if t.g[TURNS] >= MAX_TURNS:
        _end(t, CAPPED)
        return
    if t.g[OWNER] == s:
        t.g[TURNS] += 1
        t.counts[s, TURNS_OF] += 1
        t.counts[s, TAKEN] += 1
        single = popcount(t.m[MARKS]) == 1
        cards = _lift(t, t.m[MARKS])
        t.m[MARKS], t.g[OWNER] = 0, -1
        if single:
            t.won[s] |= cards
            _end(t, SINGLE)
        else:
            t.m[HAND], t.g[PHASE] = cards, BACK
        return
    if t.m[DOWN] == 0:
        _end(t, EXHAUSTED)
        return
    t.g[TURNS] += 1
    t.counts[s, TURNS_OF] += 1
    t.g[TOTAL], t.g[ZEROS], t.m[TURNED], t.g[PHASE] = 0, 0, 0, PLAY


@flat_kernel(inline="always")
def _next(t):
    t.g[SEAT] = t.g[SEAT] + 1 if t.g[SEAT] + 1 < t.g[PLAYERS] else 0
    begin(t)


@flat_kernel
def can_stop(t):
    """May the seat stop now: a card turned, and any marks out beaten (a higher sum, or the same
    sum with more cards)."""
    count = popcount(t.m[TURNED])
    if count == 0:
        return False
    if t.g[OWNER] < 0:
        return True
    return t.g[TOTAL] > t.g[MARK_TOTAL] or (t.g[TOTAL] == t.g[MARK_TOTAL] and count > t.g[MARK_COUNT])


@flat_kernel
def turn(t, p):
    """Turn the face-down card at position p (PLAY).  Over 13 or a second 0 fails the turn, and
    so does an empty grid under 13 when the seat may not stop; exactly 13 takes the turned cards
    (the marks out are turned back) and asks for one to put back."""
    s, c = t.g[SEAT], t.at[p]
    t.m[DOWN] &= ~bit(p)
    t.m[TURNED] |= bit(p)
    t.g[TOTAL] += NUMBER[c]
    t.g[ZEROS] += 1 if NUMBER[c] == 0 else 0
    if t.g[TOTAL] > TARGET or t.g[ZEROS] > 1 or (t.g[TOTAL] < TARGET and t.m[DOWN] == 0 and not can_stop(t)):
        t.counts[s, FAILED] += 1
        t.m[DOWN] |= t.m[TURNED]
        t.m[TURNED] = 0
        _next(t)
    elif t.g[TOTAL] == TARGET:
        t.counts[s, THIRTEENS] += 1
        t.m[DOWN] |= t.m[MARKS]
        t.m[MARKS], t.g[OWNER] = 0, -1
        t.m[HAND] = _lift(t, t.m[TURNED])
        t.m[TURNED], t.g[PHASE] = 0, BACK


@flat_kernel
def stop(t):
    """Stop (legal when can_stop): the turned cards become the marks, the old marks turn back."""
    t.m[DOWN] |= t.m[MARKS]
    t.m[MARKS], t.m[TURNED] = t.m[TURNED], 0
    t.g[OWNER], t.g[MARK_TOTAL], t.g[MARK_COUNT] = t.g[SEAT], t.g[TOTAL], popcount(t.m[MARKS])
    _next(t)


@flat_kernel
def empty(t):
    """The positions without a card."""
    return GRID & ~(t.m[DOWN] | t.m[MARKS] | t.m[TURNED])


@flat_kernel
def put_back(t, c, p):
    """Put card c of the cards taken back face down on the empty position p (BACK); the seat keeps the rest."""
    t.won[t.g[SEAT]] |= t.m[HAND] & ~bit(c)
    t.m[HAND] = 0
    t.at[p] = c
    for v in range(10):
        t.numbers[v] &= ~bit(p)
    t.numbers[NUMBER[c]] |= bit(p)
    t.m[DOWN] |= bit(p)
    _next(t)
