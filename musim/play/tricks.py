"""Trick-taking rules shared by the trick games, as numba kernels over any one-word deck.

A game describes its cards by two per-card arrays, `colour` (the class a player must
follow) and `rank` (strength within that class), plus `colour_mask` (the cards of each
class).  A trump is a class index, or NO_TRUMP.  Two knobs cover the rulebooks:
`must_trump` (a player who cannot follow must play a trump if able) and `later_wins`
(between equal cards the one played later wins, as in Mückenstich; otherwise the first).

A trick's winner depends only on its cards and the trump in force when it is decided,
so a game whose trump changes in the middle of a trick (Mückenstich's mosquitoes) asks
`trick_winner` with the trump after the last card.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import lowest

NO_TRUMP = -1


@flat_kernel(inline="always")
def legal_cards(hand, led, colour, colour_mask, trump, must_trump):
    """Cards of `hand` that may be played to a trick led by card `led` (-1: leading)."""
    if led < 0:
        return hand
    follow = hand & colour_mask[colour[led]]
    if follow:
        return follow
    if must_trump and trump >= 0:
        trumps = hand & colour_mask[trump]
        if trumps:
            return trumps
    return hand


@flat_kernel(inline="always")
def beats(card, best, trump, colour, rank, later_wins):
    """Does `card`, played after the trick's current winner `best`, take the trick?

    `best` is always a trump or of the led colour, so a card of another colour than
    `best` wins only by being the first trump."""
    c = colour[card]
    if c != colour[best]:
        return c == trump
    r, q = rank[card], rank[best]
    return r > q or (later_wins and r == q)


@flat_kernel
def trick_winner(cards, count, trump, colour, rank, later_wins):
    """Position (0-based) in the trick of its winning card among cards[0..count-1]."""
    best = 0
    for j in range(1, count):
        if beats(cards[j], cards[best], trump, colour, rank, later_wins):
            best = j
    return best


@flat_kernel
def card_sum(mask, values):
    """Sum of values[card] over the cards of a mask (signed card points)."""
    total = 0
    m = np.uint64(mask)
    while m:
        total += values[lowest(m)]
        m &= m - np.uint64(1)
    return total


@flat_kernel
def lowest_ranked(mask, rank):
    """The card of lowest rank in a non-empty mask (the lowest index among equals)."""
    m = np.uint64(mask)
    best = lowest(m)
    m &= m - np.uint64(1)
    while m:
        c = lowest(m)
        if rank[c] < rank[best]:
            best = c
        m &= m - np.uint64(1)
    return best


@flat_kernel
def highest_ranked(mask, rank):
    """The card of highest rank in a non-empty mask (the highest index among equals)."""
    m = np.uint64(mask)
    best = lowest(m)
    m &= m - np.uint64(1)
    while m:
        c = lowest(m)
        if rank[c] >= rank[best]:
            best = c
        m &= m - np.uint64(1)
    return best
