"""Decision policies for Danger as numba kernels: take the offered discard or the stock's top
card, the row of a two-colour card, which row to secure.

random     takes an offered discard with chance 1/2, whatever it is; puts a two-colour card in
           one of its two open rows at random; secures a uniform choice among its securable rows
           and not securing.
heuristic  takes the offered discard when it fits an open row without blocking it (a known card
           that adds points beats a blind draw); puts a two-colour card where the row's total gets
           highest without passing 15 (if both would block, in the row with the lower total, the
           smaller loss); secures the row with the highest total among those where it holds the
           (possibly shared) highest total of all players in that colour, or where its total is
           13 or more (most cards would block it); otherwise does not secure.  Colours are alike
           to it (the rules favour none): a tie between rows is broken uniformly at random.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import nth_bit, popcount
from musim.core.rng import randint, random_bit
from musim.games.danger.rules import (
    CARD,
    COLOURS,
    LIMIT,
    OFFER,
    PLAYERS,
    SEAT,
    counted,
    open_rows,
    securable,
)

RANDOM = 0
HEURISTIC = 1
NAMES = {"random": RANDOM, "heuristic": HEURISTIC}
RISKY = 13  # a row at this total or more is secured: a card of 3 or more would block it


@flat_kernel(inline="always")
def _tie(state, ties):
    """Does the `ties`-th of equally good rows replace the ones before it?  Each of them ends up
    the choice with chance 1/ties (no colour comes first); draws only on a tie."""
    return ties == 1 or randint(state, ties) == 0


@flat_kernel(inline="always")
def _best_row(t, s, card, rows, state):
    """The row of `rows` where the card does most good (heuristic)."""
    best, key, ties = -1, -(1 << 30), 0
    v = t.kind[card, 2]
    for c in range(COLOURS):
        if rows >> c & 1:
            after = t.total[s, c] + v
            k = after if after <= LIMIT else -t.total[s, c] - LIMIT
            if k > key:
                key, ties = k, 0
            if k == key:
                ties += 1
                if _tie(state, ties):
                    best = c
    return best


@flat_kernel(inline="always")
def choose_take(policy, t, state):
    """Take the offered discard (True) or the stock's top card (False); asked when can_take_offer."""
    if policy == RANDOM:
        return randint(state, 2) == 0
    s, card = t.g[SEAT], t.g[OFFER]
    rows = open_rows(t, s, card)
    for c in range(COLOURS):
        if rows >> c & 1 and t.total[s, c] + t.kind[card, 2] <= LIMIT:
            return True
    return False


@flat_kernel(inline="always")
def choose_row(policy, t, state):
    """The row of the two-colour card in hand, both of its rows being open (ROW)."""
    s, card = t.g[SEAT], t.g[CARD]
    rows = open_rows(t, s, card)
    if policy == RANDOM:
        return random_bit(state, np.uint64(rows))
    return _best_row(t, s, card, rows, state)


@flat_kernel(inline="always")
def choose_secure(policy, t, state):
    """The row to secure among securable(t), or -1 (SECURE)."""
    rows = securable(t)
    if policy == RANDOM:
        pick = randint(state, 1 + popcount(np.uint64(rows)))
        return -1 if pick == 0 else nth_bit(np.uint64(rows), pick - 1)
    s, n = t.g[SEAT], t.g[PLAYERS]
    best, top, ties = -1, -1, 0
    for c in range(COLOURS):
        if rows >> c & 1:
            mine = t.total[s, c]
            highest = True
            for k in range(n):
                if counted(t, k, c) > mine:
                    highest = False
            if (highest or mine >= RISKY) and mine >= top:
                if mine > top:
                    top, ties = mine, 0
                ties += 1
                if _tie(state, ties):
                    best = c
    return best
