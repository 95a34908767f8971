"""The Mü & More deck as Mü's kernels use it: points, colour and number masks, trump types.

Layout (docs/rules.md §1): card index = 12*colour + slot, colours R Y G B K, slots
holding the numbers 0 1 1 2 3 4 5 6 7 7 8 9.  Bit i of a uint64 is card i.  The
text notation ("R7"; the first copy of a 1 or 7 takes the lower slot) is deck.MU's.

A trump *type* is encoded as a small int: 0..4 a colour, 5..14 the number
(type - 5), and -1 for none/absent.
"""

import numpy as np

from musim.core.deck import MU, CardError

COLOURS = "RYGBK"
DIGITS = "0123456789"
N_COLOURS = 5
SLOT_NUMBERS = (0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9)
CARDS_PER_COLOUR = 12
N_CARDS = 60
NUMBER_POINTS = (1, 0, 1, 1, 1, 1, 2, 2, 1, 0)  # points of the numbers 0..9
NO_TYPE = -1
N_TYPES = 15

CARD_COLOUR = np.array([i // CARDS_PER_COLOUR for i in range(N_CARDS)], dtype=np.int64)
CARD_NUMBER = np.array([SLOT_NUMBERS[i % CARDS_PER_COLOUR] for i in range(N_CARDS)], dtype=np.int64)
CARD_POINTS = np.array([NUMBER_POINTS[n] for n in CARD_NUMBER], dtype=np.int64)

COLOUR_MASK = np.array(
    [((1 << CARDS_PER_COLOUR) - 1) << (CARDS_PER_COLOUR * c) for c in range(N_COLOURS)], dtype=np.uint64
)
NUMBER_MASK = np.array([sum(1 << i for i in range(N_CARDS) if CARD_NUMBER[i] == d) for d in range(10)], dtype=np.uint64)
# Cards matching each trump type: colours first, then numbers.
TYPE_MASK = np.concatenate([COLOUR_MASK, NUMBER_MASK]).astype(np.uint64)
POINT_MASK = np.array([sum(1 << i for i in range(N_CARDS) if CARD_POINTS[i] == p) for p in range(3)], dtype=np.uint64)
DECK = np.uint64((1 << N_CARDS) - 1)
DECK_3P = np.uint64(int(COLOUR_MASK[0]) | int(COLOUR_MASK[1]) | int(COLOUR_MASK[2]))  # default: no B, K

CARD_TEXT = [MU.text(i) for i in range(N_CARDS)]  # the notation is deck.MU's


def hand_mask(cards, within=None):
    """uint64 mask of a list of card texts (deck.MU.parse, as the kernels take it)."""
    return np.uint64(MU.parse(cards, within))


def type_text(t):
    """Text of a trump type: colour letter, digit string, 'none' (for -1)."""
    t = int(t)
    if t < 0:
        return "none"
    return COLOURS[t] if t < N_COLOURS else str(t - N_COLOURS)


def parse_type(text, allow_none=False):
    """Trump type code of 'R'..'K', '0'..'9' (or 'none' if allowed); CardError otherwise."""
    if isinstance(text, str):
        if len(text) == 1 and text in COLOURS:
            return COLOURS.index(text)
        if len(text) == 1 and text in DIGITS:
            return N_COLOURS + int(text)
        if allow_none and text == "none":
            return NO_TYPE
    raise CardError(f"unknown trump type {text!r}")


def deck_for(players, colours=None):
    """Deck mask for a Mü deal: all 60 cards, or three colours with 3 players."""
    if players != 3:
        return DECK
    if colours is None:
        return DECK_3P
    return np.uint64(sum(int(COLOUR_MASK[c]) for c in colours))
