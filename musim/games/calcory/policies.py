"""Decision policies for Calcory as numba kernels: which face-down card to turn or whether to
stop, and which card to put back where.

random     turns a uniform face-down card; whenever it may stop, stops with chance 1/2; puts
           back a uniform card of those taken on a uniform empty space.
heuristic  uses the positions it remembers (`known`, a position mask): turns a remembered card
           that makes exactly 13, else the highest remembered card that keeps the sum below 13
           (never a second 0); with none, it may stop when more than half of the face-down
           cards it does not remember would fail the turn (over 13 or a second 0: the numbers
           of those cards are known by counting, only their places are forgotten), and else
           turns one of them at random.  It puts back the highest number taken (the card that
           most often breaks a sum) on the lowest empty space.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest, popcount
from musim.core.rng import randint, random_bit
from musim.games.calcory.rules import DOWN, HAND, NUMBER, TARGET, TOTAL, ZEROS, can_stop, empty

RANDOM = 0
HEURISTIC = 1
NAMES = {"random": RANDOM, "heuristic": HEURISTIC}


@flat_kernel
def choose_turn(policy, t, known, state):
    """The position to turn, or -1 to stop (PLAY)."""
    down = t.m[DOWN]
    stoppable = can_stop(t)
    if down == 0:
        return -1
    if policy == RANDOM:
        if stoppable and randint(state, 2) == 0:
            return -1
        return random_bit(state, down)
    need, zero_bad = TARGET - t.g[TOTAL], t.g[ZEROS] > 0
    safe, top, rest = -1, -1, down & known
    while rest:
        p = lowest(rest)
        rest &= rest - np.uint64(1)
        v = NUMBER[t.at[p]]
        if v == 0 and zero_bad:
            continue
        if v == need:
            return p
        if v < need and v > top:
            safe, top = p, v
    if safe >= 0:
        return safe
    unknown = down & ~known
    if unknown == 0:
        return -1 if stoppable else lowest(down)
    fail = popcount(unknown & t.numbers[0]) if zero_bad else 0
    for v in range(need + 1, 10):
        fail += popcount(unknown & t.numbers[v])
    if stoppable and 2 * fail > popcount(unknown):
        return -1
    return random_bit(state, unknown)


@flat_kernel
def choose_back(policy, t, state):
    """(card, position): the card of those taken to put back face down, and the empty space (BACK)."""
    hand, free = t.m[HAND], empty(t)
    if policy == RANDOM:
        return random_bit(state, hand), random_bit(state, free)
    card, rest = lowest(hand), hand & ~bit(lowest(hand))
    while rest:
        c = lowest(rest)
        rest &= rest - np.uint64(1)
        if NUMBER[c] > NUMBER[card]:
            card = c
    return card, lowest(free)
