"""The rules of Wimmüln (docs/rules.md §3) as numba kernels over uint64 masks.

The Mü & More deck and Mü's hands (3 players: three colours).  The dealer's two
revealed cards fix the trump colour: that of the lower-numbered card, none if the
two share a number or a colour.  Trumping is never forced; the highest trump wins,
else the highest of the led colour; among equal cards the first played (musim.play.tricks).
Each seat sets two cards aside as estimates; hitting one with its trick count earns
the estimate bonus.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.cards import DECK_3P
from musim.core.deck import MU
from musim.games.mu.rules import hand_size
from musim.play import tricks

MIN_PLAYERS = 3
MAX_PLAYERS = 6
ESTIMATES = 2  # cards each seat sets aside
GOAL = 200  # a match ends after the deal in which some total reaches this

CARD_COLOUR = MU.card_colour
CARD_RANK = MU.card_rank
CARD_POINTS = MU.card_points
COLOUR_MASK = MU.colour_masks
# Cards dealt, by player count: Mü's deck, with 3 players its default three colours R Y G
DECKS = np.array([DECK_3P if n == 3 else MU.full for n in range(MAX_PLAYERS + 1)], np.uint64)


@flat_kernel(inline="always")
def tricks_per_deal(n):
    """Tricks of a deal: the hand size less the two estimates."""
    return hand_size(n) - ESTIMATES


@flat_kernel
def trump_of(a, b):
    """Trump colour of the revealed cards a and b: the lower-numbered one's; -1 if they share a number or colour."""
    if CARD_RANK[a] == CARD_RANK[b] or CARD_COLOUR[a] == CARD_COLOUR[b]:
        return tricks.NO_TRUMP
    return CARD_COLOUR[a] if CARD_RANK[a] < CARD_RANK[b] else CARD_COLOUR[b]


@flat_kernel(inline="always")
def first_lead(a, b):
    """With a trump, the revealed card the dealer must lead: the higher-numbered one."""
    return a if CARD_RANK[a] > CARD_RANK[b] else b


@flat_kernel(inline="always")
def legal(hand, led, trump):
    """Cards of `hand` playable to a trick led by `led` (-1: leading): follow colour if able."""
    return tricks.legal_cards(hand, led, CARD_COLOUR, COLOUR_MASK, trump, False)


@flat_kernel(inline="always")
def beats(card, best, trump):
    """Does `card`, played after the current winner `best`, take the trick?"""
    return tricks.beats(card, best, trump, CARD_COLOUR, CARD_RANK, False)


@flat_kernel
def trick_winner(cards, count, trump):
    """Position in the trick of its winning card."""
    return tricks.trick_winner(cards, count, trump, CARD_COLOUR, CARD_RANK, False)


@flat_kernel(inline="always")
def points(mask):
    """Card points (triangles) of a set of won cards."""
    return tricks.card_sum(mask, CARD_POINTS)


@flat_kernel(inline="always")
def estimate_bonus(won, face_up, hidden):
    """Bonus of a seat that won `won` tricks with estimates numbered face_up and hidden:
    the lower estimate 5, the higher 10, doubled if it is the face-up one; both equal and matched 25."""
    if face_up == hidden:
        return 25 if won == face_up else 0
    low = face_up if face_up < hidden else hidden
    if won == low:
        return 10 if face_up == low else 5
    if won == face_up + hidden - low:
        return 20 if face_up != low else 10
    return 0


@flat_kernel(inline="always")
def match_over(total):
    """Does a player's running total end the match (200 or more)?"""
    return total >= GOAL
