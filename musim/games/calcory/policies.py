"""Decision policies for Calcory as numba kernels: which face-down card to turn or whether to
stop, and which card to put back where.

random     turns a uniform face-down card; whenever it may stop, stops with chance 1/2; puts
           back a uniform card of those taken on a uniform empty space.
heuristic  uses the positions it remembers (`known`, a position mask): when remembered cards
           make exactly 13 with what it turned (a sure 13), it turns one of them, choosing the
           13 of the most cards (more cards won; a remembered 0 joins it if no 0 is turned yet);
           else it turns the highest remembered card that keeps the sum below 13 (never a second
           0); with none, it may stop when more than half of the face-down cards it does not
           remember would fail the turn (over 13 or a second 0: the numbers of those cards are
           known by counting, only their places are forgotten), and else turns one of them at
           random.  It never stops on a single card when that card's surviving a round would end
           the game with the seat behind (fewer cards than another seat), unless nothing is left
           to turn.  It puts back the highest number taken (the card that most often breaks a
           sum) on the lowest empty space.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest, popcount
from musim.core.rng import randint, random_bit
from musim.games.calcory.rules import (
    DOWN,
    HAND,
    NUMBER,
    PLAYERS,
    SEAT,
    TARGET,
    TOTAL,
    TURNED,
    ZEROS,
    can_stop,
    empty,
)

RANDOM = 0
HEURISTIC = 1
NAMES = {"random": RANDOM, "heuristic": HEURISTIC}


UNREACHED = np.uint64(15)  # a sum no subset makes, in _most_cards' packed counts
NIBBLE = np.uint64(15)


@flat_kernel(inline="always")
def _most_cards(t, positions, need):
    """The most cards of `positions` (their 0s aside) whose numbers sum to exactly `need` (at most
    13), -1 if none do.  Which sums can be made is one shift-or a card; only then a 0/1 knapsack
    counts the cards, its best count for each sum 0..13 packed 4 bits a sum in one word (kernels
    do not allocate).  A number is counted at most need // number times: more never fit."""
    sums = np.uint64(1)
    for v in range(1, min(need, 9) + 1):
        for _ in range(min(popcount(positions & t.numbers[v]), need // v)):
            sums |= sums << np.uint64(v)
    if not sums >> np.uint64(need) & np.uint64(1):
        return -1
    best = ~NIBBLE  # sum 0: no card; every other sum: UNREACHED
    for v in range(1, min(need, 9) + 1):
        for _ in range(min(popcount(positions & t.numbers[v]), need // v)):
            for total in range(need, v - 1, -1):
                below = best >> np.uint64(4 * (total - v)) & NIBBLE
                here = best >> np.uint64(4 * total) & NIBBLE
                if below != UNREACHED and (here == UNREACHED or below + np.uint64(1) > here):
                    shift = np.uint64(4 * total)
                    best = best & ~(NIBBLE << shift) | (below + np.uint64(1)) << shift
    return np.int64(best >> np.uint64(4 * need) & NIBBLE)


@flat_kernel(inline="always")
def _sure_thirteen(t, remembered, need, zero_ok):
    """A remembered face-down position that starts a sure 13 of the most cards (`need` still to
    make), or -1: a 0 when one may join, else the highest number some such 13 holds."""
    goal = _most_cards(t, remembered, need)
    if goal < 0:
        return -1
    zeros = remembered & t.numbers[0]
    if zero_ok and zeros:
        return lowest(zeros)
    for v in range(min(need, 9), 0, -1):
        of_v = remembered & t.numbers[v]
        if of_v and _most_cards(t, remembered & ~bit(lowest(of_v)), need - v) == goal - 1:
            return lowest(of_v)
    return -1


@flat_kernel(inline="always")
def _ends_behind(t):
    """Would stopping now leave a single mark whose survival ends the game with the seat behind?
    (Nobody else's cards change while the mark survives: a 13 or a beating turns it back.)"""
    if popcount(t.m[TURNED]) != 1:
        return False
    s = t.g[SEAT]
    mine = popcount(t.won[s]) + 1
    for k in range(t.g[PLAYERS]):
        if k != s and popcount(t.won[k]) > mine:
            return True
    return False


@flat_kernel
def choose_turn(policy, t, known, state):
    """The position to turn, or -1 to stop (PLAY)."""
    down = t.m[DOWN]
    if down == 0:
        return -1
    if policy == RANDOM:
        if can_stop(t) and randint(state, 2) == 0:
            return -1
        return random_bit(state, down)
    need, zero_bad = TARGET - t.g[TOTAL], t.g[ZEROS] > 0
    sure = _sure_thirteen(t, down & known, need, not zero_bad)
    if sure >= 0:
        return sure
    safe, top, rest = -1, -1, down & known
    while rest:
        p = lowest(rest)
        rest &= rest - np.uint64(1)
        v = NUMBER[t.at[p]]
        if v == 0 and zero_bad:
            continue
        if v < need and v > top:
            safe, top = p, v
    if safe >= 0:
        return safe
    stoppable = can_stop(t) and not _ends_behind(t)
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
