"""The rules of The Last Panther (docs/rules.md §4) as numba kernels over uint64 masks.

The Mü & More deck (musim.core.deck.MU) without trumps: follow the led colour, highest
of the led colour wins, first played wins among equals (musim.play.tricks).  Card
points are signed: +5 a yellow card, -10 a red one, -50 a black 7; the last trick
is worth +50.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import popcount
from musim.core.deck import MU
from musim.play import tricks

MIN_PLAYERS = 3
MAX_PLAYERS = 8
LAST_TRICK = 50
MATCH_END = -200  # a match ends once some total is at or below this

RED, YELLOW, BLACK = MU.colours.index("R"), MU.colours.index("Y"), MU.colours.index("K")
CARD_COLOUR = MU.card_colour
CARD_RANK = MU.card_rank
COLOUR_MASK = MU.colour_masks
BLACK_SEVENS = np.uint64(MU.kind_mask("K7"))
RED_MASK = COLOUR_MASK[RED]
CARD_POINTS = np.array(
    [-50 if MU.text(i) == "K7" else {YELLOW: 5, RED: -10}.get(int(c), 0) for i, c in enumerate(CARD_COLOUR)], np.int64
)


def _deck(players):
    """3 players: no 1s or 2s (45 cards); 7-8: no 2s but Y2 (56); otherwise all 60."""
    full = MU.full
    if players == 3:
        return full & ~MU.label_mask("1") & ~MU.label_mask("2")
    if players >= 7:
        return full & ~MU.label_mask("2") | MU.kind_mask("Y2")
    return full


DECKS = np.array([_deck(n) for n in range(MAX_PLAYERS + 1)], np.uint64)  # indexed by player count


@flat_kernel(inline="always")
def deck(n):
    """Mask of the cards in play with n players."""
    return DECKS[n]


@flat_kernel(inline="always")
def hand_size(n):
    """Cards dealt to each seat: all cards shared out (15 15 12 10 8 7 for 3..8 players)."""
    return popcount(DECKS[n]) // n


@flat_kernel(inline="always")
def pass_count(n):
    """Cards each seat passes to its left: 3, or 2 with 6 or more players."""
    return 3 if n < 6 else 2


@flat_kernel
def after_pass(n, hands, passed, held):
    """held[s] = the dealt hand of s without what s passed, with what s-1 passed to s."""
    for s in range(n):
        held[s] = (hands[s] & ~passed[s]) | passed[s - 1 if s > 0 else n - 1]


@flat_kernel(inline="always")
def legal(hand, led):
    """Cards of `hand` playable to a trick led by `led` (-1: leading): follow colour if able."""
    return tricks.legal_cards(hand, led, CARD_COLOUR, COLOUR_MASK, tricks.NO_TRUMP, False)


@flat_kernel(inline="always")
def beats(card, best):
    """Does `card`, played after the current winner `best`, take the trick?"""
    return tricks.beats(card, best, tricks.NO_TRUMP, CARD_COLOUR, CARD_RANK, False)


@flat_kernel
def trick_winner(cards, count):
    """Position in the trick of its winning card."""
    return tricks.trick_winner(cards, count, tricks.NO_TRUMP, CARD_COLOUR, CARD_RANK, False)


@flat_kernel(inline="always")
def points(mask):
    """Signed card points of a set of won cards."""
    return tricks.card_sum(mask, CARD_POINTS)


@flat_kernel
def deck_total(n):
    """What the scores of one deal add up to with n players: every card's points plus the last trick."""
    return points(DECKS[n]) + LAST_TRICK


@flat_kernel(inline="always")
def match_over(total):
    """Does a player's running total end the match (at -200 or lower)?"""
    return total <= MATCH_END
