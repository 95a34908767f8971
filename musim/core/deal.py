"""Shuffling and dealing a deck subset given as a mask, from a per-deal random stream (musim.core.rng)."""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest
from musim.core.rng import randint


@flat_kernel
def shuffle(cards, m, state):
    """Fisher-Yates shuffle of cards[:m] in place, from the stream `state`."""
    for i in range(m - 1, 0, -1):
        j = randint(state, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@flat_kernel
def deal_cards(n, mask, cards, state, hands):
    """Share the cards of `mask` out into n equal hands after a Fisher-Yates shuffle.

    Seat s gets cards[s*h .. s*h+h-1], in that dealing order.  The shuffle starts from the
    sorted deck each time, so a deal depends on its stream alone."""
    m = 0
    rest = mask
    while rest:
        cards[m] = lowest(rest)
        rest &= rest - np.uint64(1)
        m += 1
    shuffle(cards, m, state)
    h = m // n
    for s in range(n):
        hands[s] = 0
        for i in range(s * h, (s + 1) * h):
            hands[s] |= bit(cards[i])
