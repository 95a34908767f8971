"""Decision policies for Mückenstich: the discard, each card (and the trump a mosquito
names), and the colours named at scoring, as numba kernels.

random     discards a uniform pair of its hand; plays a uniform legal card, a mosquito naming
           a uniform colour; names a uniform colour at scoring (the zero one among the others).
heuristic  a player who wants tricks of number cards (1 point each, usually) and shuns the
           mosquitoes' -5, using only its own hand, its won cards and the current trick:
  * discard: mosquitoes first (each risks -5 and its trump is as often a help to others),
    then its lowest number cards from its shortest colours (voids let it dump mosquitoes
    and take tricks with trumps);
  * when to spend a mosquito: one of a colour it has not yet paid for whenever it can be
    dumped, i.e. some trump makes the trick so far another seat's; one of a colour it has
    paid for (it costs nothing more) to take a trick it wants that no number card of its
    takes; otherwise only when nothing else is legal;
  * which trump to name: among those that put the trick where it wants it (away from
    itself when dumping, to itself when taking), its strongest colour: the highest sum of
    ranks of its number cards in the colour;
  * lead: its highest number card of its longest colour (trump colour first when it holds
    trumps);
  * follow: a trick it wants (its worth so far plus one point a card still to come, less 5
    for each mosquito of a colour it has not paid for, is positive) is taken with its lowest
    winning card when last to play, else its highest; a trick it cannot take gets its lowest
    card; a trick it does not want gets its highest card that stays under (or, when every
    legal card wins, the highest if last, else the lowest);
  * scoring: the seat naming the double colour takes the one where it won most number cards
    (ties: where the others won fewest); the seat naming the zero colour the one where it
    won fewest (ties: where the others won most).
dd         discards and names colours as the heuristic; plays each card, and the trump a
           mosquito names, double-dummy (ddplay.py).
search     names colours as the heuristic; chooses its discards (setup_search.py) and each
           card, and the trump a mosquito names, by flat Monte Carlo over the hands it cannot
           see, weighted by how likely they make the cards played (search.py, weights.py);
           search-uniform: the heuristic's discards, uniform worlds.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest, popcount
from musim.core.rng import randint, random_bit
from musim.games.mueckenstich.rules import (
    CARD_COLOUR,
    CARD_RANK,
    COLOUR_MASK,
    COLOURS,
    MOSQUITO_PENALTY,
    MOSQUITOES,
    NUMBERS,
    beats,
    trick_winner,
)
from musim.play.tricks import highest_ranked, lowest_ranked

RANDOM = 0
HEURISTIC = 1
DD = 2  # cards double-dummy (ddplay.py), the discards and scoring colours as the heuristic's
SEARCH = 3  # discards and cards by search, over weighted worlds (setup_search.py, search.py, weights.py)
SEARCH_UNIFORM = 4  # the first search player: cards by search over uniform worlds, discards as the heuristic's
NAMES = {"random": RANDOM, "heuristic": HEURISTIC, "dd": DD, "search": SEARCH, "search-uniform": SEARCH_UNIFORM}


@flat_kernel(inline="always")
def searching(code):
    """Does a seat of this code play its cards by search (either search player)?"""
    return code == SEARCH or code == SEARCH_UNIFORM


@flat_kernel(inline="always")
def colour_length(hand, c):
    return popcount(hand & NUMBERS & COLOUR_MASK[c])


@flat_kernel
def strength(hand, c):
    """How much a seat likes colour c as trump: the sum of the ranks of its number cards of c."""
    total = 0
    m = hand & NUMBERS & COLOUR_MASK[c]
    while m:
        total += CARD_RANK[lowest(m)]
        m &= m - np.uint64(1)
    return total


@flat_kernel
def choose_discards(policy, hand, k, state):
    """The k cards a seat lays aside (a mask)."""
    chosen = np.uint64(0)
    for _ in range(k):
        avail = hand & ~chosen
        if policy == RANDOM:
            c = random_bit(state, avail)
        elif avail & MOSQUITOES:
            c = lowest(avail & MOSQUITOES)
        else:
            short, best = -1, 99
            for col in range(COLOURS):
                length = colour_length(avail, col)
                if 0 < length < best:
                    short, best = col, length
            c = lowest_ranked(avail & COLOUR_MASK[short], CARD_RANK)
        chosen |= bit(c)
    return chosen


@flat_kernel
def worth(cards, count, paid):
    """What the trick[0..count-1] is worth to a seat that has paid for the mosquito colours in `paid`."""
    total, fresh = 0, 0
    for j in range(count):
        c = cards[j]
        if MOSQUITOES & bit(c):
            fresh |= (1 << CARD_COLOUR[c]) & ~paid
        else:
            total += 1
    return total + MOSQUITO_PENALTY * popcount(np.uint64(fresh))


@flat_kernel
def best_trump(hand, trick, k, aim):
    """With trick[k] a mosquito: the trump it names, the strongest colour for `hand` among those
    that leave the trick to another seat (aim < 0) or give it to this one (aim > 0); -1 if none does."""
    named, best = -1, -1
    for t in range(COLOURS):
        mine = trick_winner(trick, k + 1, t) == k
        if (aim < 0 and mine) or (aim > 0 and not mine):
            continue
        v = strength(hand, t)
        if v > best:
            named, best = t, v
    return named


@flat_kernel
def paid_mask(paid):
    """The cards of the colours whose mosquito -5 is paid (bits of `paid`)."""
    m = np.uint64(0)
    for c in range(COLOURS):
        if (paid >> c) & 1:
            m |= COLOUR_MASK[c]
    return m


@flat_kernel
def mosquito_move(mosquitoes, hand, trick, k, aim):
    """(mosquito, trump) of `mosquitoes` that puts the trick so far where `aim` says
    (best_trump); (-1, -1) if none does."""
    m = mosquitoes
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        trick[k] = c
        named = best_trump(hand & ~bit(c), trick, k, aim)
        if named >= 0:
            return c, named
    return -1, -1


@flat_kernel
def longest_colour(hand, trump):
    """The colour to lead from: the trump if held, else the longest (ties: the lower colour)."""
    if trump >= 0 and hand & NUMBERS & COLOUR_MASK[trump]:
        return trump
    best, length = -1, 0
    for c in range(COLOURS):
        n = colour_length(hand, c)
        if n > length:
            best, length = c, n
    return best


@flat_kernel
def heuristic_move(legal, hand, trick, k, n, trump, winner_pos, paid):
    """The heuristic's (card, trump after it) (module docstring); trick[0..k-1] played so far."""
    numbers = legal & NUMBERS
    free = legal & MOSQUITOES & paid_mask(paid)
    if k > 0:
        card, named = mosquito_move(legal & MOSQUITOES & ~free, hand, trick, k, -1)
        if card >= 0:
            return card, named
    if not numbers:  # only mosquitoes: one already paid for if possible, naming the strongest colour
        card = lowest(free if free else legal)
        trick[k] = card
        return card, best_trump(hand & ~bit(card), trick, k, 0)
    if k == 0:
        return highest_ranked(numbers & COLOUR_MASK[longest_colour(numbers, trump)], CARD_RANK), trump
    best = trick[winner_pos]
    winners = np.uint64(0)
    m = numbers
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        if beats(c, best, trump):
            winners |= bit(c)
    losers = numbers & ~winners
    last = k == n - 1
    wanted = worth(trick, k, paid) + n - k > 0
    if wanted and not winners and free:
        card, named = mosquito_move(free, hand, trick, k, 1)
        if card >= 0:
            return card, named
    if not winners:
        return lowest_ranked(losers, CARD_RANK), trump
    if wanted:
        return (lowest_ranked(winners, CARD_RANK) if last else highest_ranked(winners, CARD_RANK)), trump
    if losers:
        return highest_ranked(losers, CARD_RANK), trump
    return (highest_ranked(winners, CARD_RANK) if last else lowest_ranked(winners, CARD_RANK)), trump


@flat_kernel
def choose_move(policy, legal, hand, trick, k, n, trump, winner_pos, paid, state):
    """(card, trump after it) a seat plays: `legal` its playable cards, trick[0..k-1] the trick
    so far, `paid` the colours of the mosquitoes it has won (bits)."""
    if policy == RANDOM:
        card = random_bit(state, legal)
        return card, randint(state, COLOURS) if MOSQUITOES & bit(card) else trump
    return heuristic_move(legal, hand, trick, k, n, trump, winner_pos, paid)


@flat_kernel
def number_cards(won, c):
    return popcount(won & NUMBERS & COLOUR_MASK[c])


@flat_kernel
def choose_colour(policy, seat, won, n, taken, zero, state):
    """The colour `seat` names at scoring (won: every seat's won cards), not `taken` (-1: any);
    zero: naming the colour worth 0, else the one worth 2."""
    if policy == RANDOM:
        c = randint(state, COLOURS - (taken >= 0))
        return c + 1 if taken >= 0 and c >= taken else c
    named, best_own, best_others = -1, 0, 0
    for c in range(COLOURS):
        if c == taken:
            continue
        own, others = 0, 0
        for s in range(n):
            if s == seat:
                own = number_cards(won[s], c)
            else:
                others += number_cards(won[s], c)
        if zero:
            own, others = -own, -others
        if named < 0 or own > best_own or (own == best_own and others < best_others):
            named, best_own, best_others = c, own, others
    return named
