"""The rules of Mückenstich (docs/rules.md §8) as numba kernels over uint64 masks.

The 64-card deck (musim.core.deck.MUECKENSTICH): four colours of 1..12 with two 12s and three
mosquitoes, a mosquito being its colour's highest card.  Follow the led colour; trumping is
never forced; between equal cards the later played wins (musim.play.tricks with `later_wins`).
There is no trump at first: each mosquito names one, which decides the trick in progress
too, so a trick's winner is asked with the trump in force after its last card.  Card values
are known only after the deal: the single seat with the fewest tricks names a colour whose
number cards are worth 2, the single seat with the most mosquitoes won another worth 0; the
other number cards are worth 1, and in each seat's won cards the first mosquito of each
colour -5.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import popcount
from musim.core.deck import MUECKENSTICH as DECK
from musim.play import tricks

MIN_PLAYERS = 3
MAX_PLAYERS = 6
UNDEALT = 4  # cards of the deck nobody gets
DEALT = DECK.n_cards - UNDEALT
COLOURS = len(DECK.colours)
MOSQUITO_PENALTY = -5  # the first mosquito of each colour a seat wins
DOUBLE, ONE, ZERO = 2, 1, 0  # worth of a number card of the double colour, an ordinary one, the zero colour

CARD_COLOUR = DECK.card_colour
CARD_RANK = DECK.card_rank
COLOUR_MASK = DECK.colour_masks
MOSQUITOES = np.uint64(DECK.label_mask("M"))
NUMBERS = np.uint64(DECK.full & ~DECK.label_mask("M"))


@flat_kernel(inline="always")
def hand_size(n):
    """Cards dealt to each seat: the deck less 4, shared out (20 15 12 10 for 3..6 players)."""
    return DEALT // n


@flat_kernel(inline="always")
def discard_count(n):
    """Cards each seat lays aside before play: 2, none with 6 players."""
    return 2 if n < 6 else 0


@flat_kernel(inline="always")
def tricks_per_deal(n):
    """Tricks of a deal: the hand size less the discards."""
    return hand_size(n) - discard_count(n)


@flat_kernel(inline="always")
def is_mosquito(card):
    return ((MOSQUITOES >> np.uint64(card)) & np.uint64(1)) != 0


def move_text(card, named):
    """A move as records and solve results write it: a mosquito with the trump it names (`RM:G`)."""
    return DECK.text(card) + (":" + DECK.colours[named] if is_mosquito(card) else "")


@flat_kernel(inline="always")
def legal(hand, led):
    """Cards of `hand` playable to a trick led by `led` (-1: leading): follow colour if able."""
    return tricks.legal_cards(hand, led, CARD_COLOUR, COLOUR_MASK, tricks.NO_TRUMP, False)


@flat_kernel(inline="always")
def beats(card, best, trump):
    """Does `card`, played after the current winner `best` with no change of trump, take the trick?"""
    return tricks.beats(card, best, trump, CARD_COLOUR, CARD_RANK, True)


@flat_kernel
def trick_winner(cards, count, trump):
    """Position in the trick of its winning card, `trump` being the trump after its last card."""
    return tricks.trick_winner(cards, count, trump, CARD_COLOUR, CARD_RANK, True)


@flat_kernel(inline="always")
def trump_after(card, named, trump):
    """The trump once `card` is played: the colour it names if it is a mosquito, else unchanged."""
    return named if is_mosquito(card) else trump


@flat_kernel
def single_seat(values, n, most):
    """The one seat with the fewest (most: the most) of `values`; -1 if several share it."""
    best, seat = values[0], 0
    for s in range(1, n):
        v = values[s]
        if v == best:
            seat = -1
        elif (v > best) if most else (v < best):
            best, seat = v, s
    return seat


@flat_kernel(inline="always")
def mosquitoes_won(won):
    return popcount(won & MOSQUITOES)


@flat_kernel
def paid_colours(won):
    """Bit c set if `won` holds a mosquito of colour c (its -5 is paid; further ones cost nothing)."""
    paid = 0
    for c in range(COLOURS):
        if won & MOSQUITOES & COLOUR_MASK[c]:
            paid |= 1 << c
    return paid


@flat_kernel(inline="always")
def match_deals(n):
    """Deals of a match: one per player, two per player with 3 players."""
    return 2 * n if n == 3 else n


@flat_kernel
def score(won, double, zero):
    """A seat's points from its won cards: number cards 2 in the double colour, 0 in the zero
    colour, else 1 (-1: no such colour); -5 for each colour of which it won a mosquito."""
    total = 0
    for c in range(COLOURS):
        worth = DOUBLE if c == double else ZERO if c == zero else ONE
        total += worth * popcount(won & NUMBERS & COLOUR_MASK[c])
    return total + MOSQUITO_PENALTY * popcount(np.uint64(paid_colours(won)))
