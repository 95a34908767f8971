"""Rummü (docs/rules.md §5) as numba kernels on the 60-card MU deck: what a meld is, what it scores,
the coming-out rule and the cards left in hand.  The simulation, the policies and the replay of
records all ask these kernels, so that each rule has one statement.

A colour's 12 slots fold into a 10-bit number mask (bit v: the colour holds a card numbered v)
through one 4,096-entry table; every meld test is a few operations on the five masks.  Every
yellow card in a meld is a joker (docs/rules.md §5.1): it keeps its number and
stands for that number in another colour.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest, popcount
from musim.core.deck import MU as DECK
from musim.core.deck import MU_NUMBERS

COLOURS, SLOTS, NUMBERS = 5, 12, 10
YELLOW = 1
MIN_PLAYERS, MAX_PLAYERS = 3, 6
HAND_SIZE = np.array([0, 0, 0, 9, 8, 7, 6], np.int64)  # by player count
MAX_MELDS = 20  # 60 cards, 3 a meld
NUMBER = DECK.card_rank  # a card's number 0..9
COLOUR = DECK.card_colour
REDS = np.uint64(DECK.colour_mask("R"))
YELLOWS = np.uint64(DECK.colour_mask("Y"))
# a number's slots within a colour (two for 1 and 7)
NUMBER_SLOTS = np.array([sum(1 << s for s, v in enumerate(MU_NUMBERS) if v == n) for n in range(NUMBERS)], np.uint64)
# the 10-bit number mask of a colour's 12-bit slot mask
FOLD = np.array(
    [sum(1 << v for v in {MU_NUMBERS[s] for s in range(SLOTS) if m >> s & 1}) for m in range(1 << SLOTS)], np.int64
)
TWIN = (1 << 1 | 1 << 2, 1 << 8 | 1 << 9)  # both copies of a 1, of a 7

ILLEGAL, SET, RUN_ONE, RUN_MIXED = range(4)
KINDS = ("illegal", "set", "one-colour run", "mixed run")
OUT_BONUS = 10
ADDED = 10  # each card a player put into another's meld (docs/rules.md §5.1, a Decision)
# coming out: the cards the first meld needs by the (team's) total before the deal
COME_OUT_BOUNDS = np.array([[0, 100, 150], [0, 200, 400]], np.int64)  # individual, team
FIRST_DEAL = 4


@flat_kernel(inline="always")
def slots(mask, colour):
    """The 12-bit slot mask of one colour."""
    return np.int64((mask >> np.uint64(SLOTS * colour)) & np.uint64(0xFFF))


@flat_kernel(inline="always")
def numbers(mask, colour):
    """The 10-bit mask of the numbers a colour holds in `mask`."""
    return FOLD[slots(mask, colour)]


@flat_kernel(inline="always")
def card_of(mask, colour, number):
    """A card (the lower copy) of this colour and number in `mask`, or -1."""
    m = mask & (NUMBER_SLOTS[number] << np.uint64(SLOTS * colour))
    return lowest(m) if m else -1


@flat_kernel
def kind(mask):
    """ILLEGAL, SET, RUN_ONE or RUN_MIXED: a meld is >= 3 cards, no two identical; a set is one
    number in different colours; a run consecutive numbers, either one colour with more
    non-yellow cards than yellow ones, or all different colours (so at most one yellow)."""
    total = popcount(mask)
    if total < 3:
        return ILLEGAL
    union, colours, top = 0, 0, 0
    for c in range(COLOURS):
        s = slots(mask, c)
        if (s & TWIN[0]) == TWIN[0] or (s & TWIN[1]) == TWIN[1]:
            return ILLEGAL
        k = popcount(np.uint64(s))
        if k:
            union |= FOLD[s]
            top = max(top, k)
            if c != YELLOW:
                colours += 1
    if popcount(np.uint64(union)) == 1:
        return SET
    if popcount(np.uint64(union)) != total or (union + (union & -union)) & union:
        return ILLEGAL
    if colours == 1 and popcount(mask & ~YELLOWS) > popcount(mask & YELLOWS):
        return RUN_ONE
    return RUN_MIXED if top == 1 else ILLEGAL


@flat_kernel
def points(mask, meld_kind):
    """What a legal meld scores for the player who lays it (docs/rules.md §5.1 table; sets of 1s or 7s
    half; pure: one colour or one number, and no yellow card)."""
    k = popcount(mask)
    pure = (mask & YELLOWS) == 0 and meld_kind != RUN_MIXED
    if meld_kind == SET:
        value = 0 if k == 3 else (30 if pure else 10) if k == 4 else 50
        v = NUMBER[lowest(mask)]
        return value // 2 if v == 1 or v == 7 else value
    if k == 3:
        return 10 if pure else 0
    if k == 4:
        return 20 if pure else 10
    return (40 if pure else 20) + 10 * (k - 5)


@flat_kernel
def owner_points(meld, own):
    """What meld `meld` scores at the end of the deal for the player who laid it: the table on its
    cards `own` (the meld's cards less those other players put there), read as the meld's kind;
    fewer than 3 cards (another player swapped a joker out of a 3-card meld) score 0."""
    return points(own, kind(meld)) if popcount(own) >= 3 else 0


@flat_kernel
def come_out(total, team, first):
    """Cards the first meld of a player needs: 4 in the first deal; later by the player's (with
    teams the team's) total: below 0 three, then 4, 5, 6 from each bound on (0, 100, 150; teams
    0, 200, 400)."""
    if first:
        return FIRST_DEAL
    t = 1 if team else 0
    need = 3
    for j in range(3):
        need += 1 if total >= COME_OUT_BOUNDS[t, j] else 0
    return need


@flat_kernel
def penalty(hand):
    """Points of the cards left in a hand: -10 a red card, -5 any other."""
    return -10 * popcount(hand & REDS) - 5 * popcount(hand & ~REDS)


@flat_kernel
def extends(meld, card):
    """May `card` be added to the meld on the table (the meld with it is a meld)?"""
    return (meld & bit(card)) == 0 and kind(meld | bit(card)) != ILLEGAL


@flat_kernel
def swaps(meld, card, joker):
    """May `card` (not yellow) take the place of the yellow `joker` of the meld: same number, and
    the meld with the card instead of the joker is a meld."""
    if COLOUR[card] == YELLOW or COLOUR[joker] != YELLOW or NUMBER[card] != NUMBER[joker]:
        return False
    if (meld & bit(joker)) == 0 or meld & bit(card):
        return False
    return kind((meld & ~bit(joker)) | bit(card)) != ILLEGAL
