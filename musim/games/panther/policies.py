"""Decision policies for The Last Panther: the pass and each card played, as numba kernels.

random     passes a uniform set of cards of its hand; plays a uniform legal card.
heuristic  a careful player using only its own hand and the current trick:
  * guard: its highest card that is neither red nor a black 7 is kept for the last
    trick (+50): never passed, and played only when no other card is legal;
  * pass: the most dangerous other cards: black 7s, then red cards from the highest
    down, then the highest other cards (high cards win tricks that collect reds);
  * lead: the lowest card that is neither red nor a black 7 (a black 7 only when
    nothing else is left);
  * follow: with two cards left, the lower legal card; otherwise dodge: a black 7 if
    it stays under the trick's winner, else the highest card that stays under it;
    when every legal card would win, the highest non-black-7 card if last to play (the
    trick is won anyway: shed a high card), else the lowest non-black-7 card (hoping to
    be overtaken);
  * cannot follow: discard a black 7, then the highest red card, then the highest
    card, except with two cards left the lower one.
dd         passes as the heuristic; plays each card double-dummy (ddplay.py).
search     chooses its pass (setup_search.py) and plays each card by flat Monte Carlo over
           worlds of the hidden cards, weighted by how likely they make the others' play and
           the pass received (weights.py), each candidate played out by the heuristic
           (search.py, musim/play/search.py); search-uniform: the heuristic's pass, uniform worlds.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest, popcount
from musim.core.rng import random_bit
from musim.games.panther.rules import BLACK_SEVENS, CARD_COLOUR, CARD_RANK, COLOUR_MASK, RED_MASK
from musim.play.tricks import highest_ranked, lowest_ranked

RANDOM = 0
HEURISTIC = 1
DD = 2  # cards double-dummy (ddplay.py), the pass as the heuristic's
SEARCH = 3  # the pass and the cards by search (setup_search.py, search.py)
SEARCH_UNIFORM = 4  # the first search player: cards by search over uniform worlds, the pass as the heuristic's
NAMES = {"random": RANDOM, "heuristic": HEURISTIC, "dd": DD, "search": SEARCH, "search-uniform": SEARCH_UNIFORM}


@flat_kernel(inline="always")
def searching(code):
    """Does a seat of this code play its cards by search (either search player)?"""
    return code == SEARCH or code == SEARCH_UNIFORM


@flat_kernel(inline="always")
def danger(card):
    """How much a heuristic player wants to be rid of a card."""
    if BLACK_SEVENS & bit(card):
        return 1000
    if RED_MASK & bit(card):
        return 100 + CARD_RANK[card]
    return CARD_RANK[card]


@flat_kernel
def most_dangerous(mask):
    """The card of a non-empty mask the heuristic most wants to be rid of (highest index among equals)."""
    m = mask
    best, worst = -1, -1
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        d = danger(c)
        if d >= worst:
            best, worst = c, d
    return best


@flat_kernel(inline="always")
def guard(hand):
    """The card kept for the last trick: the highest card neither red nor a black 7 (empty mask if none)."""
    safe = hand & ~RED_MASK & ~BLACK_SEVENS
    return bit(highest_ranked(safe, CARD_RANK)) if safe else np.uint64(0)


@flat_kernel
def choose_pass(policy, hand, k, state):
    """The k cards a seat passes to its left."""
    chosen = np.uint64(0)
    keep = guard(hand) if policy != RANDOM else np.uint64(0)
    for _ in range(k):
        avail = hand & ~chosen & ~keep
        c = random_bit(state, avail) if policy == RANDOM else most_dangerous(avail)
        chosen |= bit(c)
    return chosen


@flat_kernel
def heuristic_card(legal, hand, trick, k, last, winner_pos):
    """The heuristic's card (see the module docstring); trick[0..k-1] played so far."""
    if popcount(legal) == 1:
        return lowest(legal)
    keep = guard(hand)
    if legal & ~keep:
        legal &= ~keep
    if popcount(legal) == 1:
        return lowest(legal)
    two_left = popcount(hand) == 2
    if k == 0:
        for pool in (legal & ~RED_MASK & ~BLACK_SEVENS, legal & ~BLACK_SEVENS):
            if pool:
                return lowest_ranked(pool, CARD_RANK)
        return lowest_ranked(legal, CARD_RANK)
    if not legal & COLOUR_MASK[CARD_COLOUR[trick[0]]]:
        if legal & BLACK_SEVENS:
            return lowest(legal & BLACK_SEVENS)
        if legal & RED_MASK:
            return highest_ranked(legal & RED_MASK, CARD_RANK)
        return lowest_ranked(legal, CARD_RANK) if two_left else highest_ranked(legal, CARD_RANK)
    if two_left:
        return lowest_ranked(legal, CARD_RANK)
    top = CARD_RANK[trick[winner_pos]]
    under = np.uint64(0)
    m = legal
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        if CARD_RANK[c] < top:
            under |= bit(c)
    if under & BLACK_SEVENS:
        return lowest(under & BLACK_SEVENS)
    if under:
        return highest_ranked(under, CARD_RANK)
    safe = legal & ~BLACK_SEVENS if legal & ~BLACK_SEVENS else legal
    return highest_ranked(safe, CARD_RANK) if last else lowest_ranked(safe, CARD_RANK)


@flat_kernel
def choose_card(policy, legal, hand, trick, k, last, winner_pos, state):
    """The card a seat plays: `legal` its playable cards, trick[0..k-1] the trick so far."""
    if policy == RANDOM:
        return random_bit(state, legal)
    return heuristic_card(legal, hand, trick, k, last, winner_pos)
