"""Exactly uniform deals of hidden cards: the worlds a search seat imagines (musim/play/search.py).

The hidden cards (`pool`) go to holders (the other seats' hands, and dead piles such as
face-down cards) of known sizes; a holder may be barred from whole groups of cards (a seat
that showed a void in a class holds none of it).  Every deal of the pool that respects sizes
and bars is equally likely: a uniform deal by sizes is drawn and redrawn until it respects
the bars (rejection keeps the distribution exactly uniform over the consistent deals).
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, drop_lowest, lowest
from musim.core.rng import randint

MAX_HOLDERS = 12  # the other seats' hands and dead piles
MAX_GROUPS = 8  # groups a holder may be barred from (a class, or a card of its own)

Sampler = namedtuple("Sampler", "cards group capacity allowed meta")
# cards: the pool's cards; group[card]; capacity, allowed: per holder; meta[0] = holders, meta[1] = cards in the pool
HOLDERS, POOL = range(2)


def make_sampler():
    z = np.zeros
    return Sampler(z(64, np.int64), z(64, np.int64), z(MAX_HOLDERS, np.int64), z(MAX_HOLDERS, np.int64), z(2, np.int64))


@flat_kernel
def prepare(sp, pool, group_of, capacity, allowed, holders):
    """Set up draws of `pool` (a card mask) to `holders` holders: holder h takes capacity[h] cards
    (their sum the pool's size), only of the groups set in allowed[h] (group_of[card]).  False
    if no deal of the pool is consistent."""
    k = 0
    m = pool
    while m:
        c = lowest(m)
        sp.cards[k] = c
        sp.group[c] = group_of[c]
        k += 1
        m = drop_lowest(m)
    total = 0
    for h in range(holders):
        sp.capacity[h] = capacity[h]
        sp.allowed[h] = allowed[h]
        total += capacity[h]
    sp.meta[HOLDERS], sp.meta[POOL] = holders, k
    if total != k:
        return False
    for g in range(MAX_GROUPS):  # every group's cards fit in the holders allowed it (necessary only)
        room, need = 0, 0
        for h in range(holders):
            room += capacity[h] if allowed[h] >> g & 1 else 0
        for j in range(k):
            need += sp.group[sp.cards[j]] == g
        if need > room:
            return False
    return True


@flat_kernel
def draw(sp, state, out):
    """out[h] = holder h's cards of a deal drawn uniformly among the consistent ones."""
    holders, k = sp.meta[HOLDERS], sp.meta[POOL]
    cards = sp.cards
    while True:
        for j in range(k - 1, 0, -1):  # Fisher-Yates
            i = randint(state, j + 1)
            cards[i], cards[j] = cards[j], cards[i]
        ok, j = True, 0
        for h in range(holders):
            hand = np.uint64(0)
            for _ in range(sp.capacity[h]):
                c = cards[j]
                j += 1
                ok &= (sp.allowed[h] >> sp.group[c] & 1) == 1
                hand |= bit(c)
            out[h] = hand
        if ok:
            return
