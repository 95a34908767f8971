"""Zwickern's victory points (docs/rules.md §10), a parameter of the game: the `--victory-points`
table, written `KEY=POINTS,...`, read into one integer array the kernels take.

A key is a card (`D10`, `J2`), a label standing for that card in all four suits (`A`, `7`,
`J`: every jack), `joker` (J1 J2 J3), or one of the bonuses: `most` (the most cards), `zwick`
(each Zwick) and `pile` (a pile left on the table at the end costs its builder `pile` times its
value).  A card matched by several keys scores their sum; keys not given score 0.  Kept free
of numba so that the game's declaration can check an option without compiling anything.
"""

import numpy as np

from musim.core.deck import FRENCH_LABELS
from musim.core.deck import ZWICKERN as DECK

CARDS = DECK.n_cards
MOST, ZWICK, PILE = CARDS, CARDS + 1, CARDS + 2  # indices of the bonuses in the points array
BONUSES = {"most": MOST, "zwick": ZWICK, "pile": PILE}
DEFAULT = "A=1,J=1,DK=1,DQ=1,D10=2,S7=1,D7=1,joker=2,most=3,zwick=1,pile=1"
LIMIT = 100  # |points| of any key


class PointsError(ValueError):
    """A victory-points table that cannot be read; the message names the item at fault."""


def _cards_of(key):
    if key == "joker":
        return DECK.colour_mask("J")
    if key in FRENCH_LABELS:
        return sum(DECK.kind_mask(suit + key) for suit in "SHDC")
    if key in DECK.kinds:
        return DECK.kind_mask(key)
    raise PointsError(f"unknown key {key!r} (a card such as D10, a label A 2..10 J Q K, joker, most, zwick, pile)")


def parse(text):
    """The int64 array of a table: points of card i at i, then MOST, ZWICK, PILE."""
    if not isinstance(text, str):
        raise PointsError(f"expected text KEY=POINTS,..., got {text!r}")
    points = np.zeros(CARDS + 3, np.int64)
    seen = set()
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, value = (s.strip() for s in item.partition("="))
        if not sep:
            raise PointsError(f"{item!r}: expected KEY=POINTS")
        if key in seen:
            raise PointsError(f"{key!r} given twice")
        seen.add(key)
        try:
            number = int(value)
        except ValueError:
            raise PointsError(f"{item!r}: {value!r} is not a whole number") from None
        if abs(number) > LIMIT:
            raise PointsError(f"{item!r}: points must be within -{LIMIT}..{LIMIT}")
        if key in BONUSES:
            points[BONUSES[key]] = number
            continue
        mask = _cards_of(key)
        for c in range(CARDS):
            if mask >> c & 1:
                points[c] += number
    return points
