"""Decks: colours, the cards of each colour, fixed card points, text notation and bit layout.

A deck is a list of colours, each holding a sequence of *slots*; a slot is a card
label ("7", "12", "M") and a rank (its strength within the colour).  Card index =
the colour's offset (the sizes of the colours before it) + slot, so each colour is a
contiguous bit range in rank order, and
identical copies of a card (two Mü 7s, three Mückenstich mosquitoes) are adjacent
slots with the same label and rank, written the same (`R7`, `R7`).  The first copy
always takes the lower slot.

Up to 64 cards a set of cards is one uint64 (bit i = card i), which every kernel uses.
Larger decks (Danger's 126) use `words` uint64s: card i is bit i % 64 of word i // 64
(`Deck.words_of`).  Python-side masks (parse/format) are plain ints of any width, so
the notation code is the same for both.
"""

from dataclasses import dataclass, field

import numpy as np


class CardError(ValueError):
    """Malformed card text or an impossible multiset of cards."""


@dataclass(frozen=True)
class Deck:
    """A deck definition: per colour, the labels and ranks of its slots, and their points (None
    where the game decides card values, as Mückenstich does).  Colours may differ in size
    (Danger's two-colour cards form colours of three slots)."""

    name: str
    colours: tuple
    labels: tuple  # labels[c][slot]
    ranks: tuple  # ranks[c][slot]
    points: tuple = None  # points[c][slot] or None
    kinds: dict = field(init=False, repr=False, compare=False)
    offsets: tuple = field(init=False, repr=False, compare=False)

    @classmethod
    def uniform(cls, name, colours, labels, ranks, points=None):
        """A deck whose colours all hold the same slots."""
        k = len(colours)
        return cls(
            name,
            tuple(colours),
            (tuple(labels),) * k,
            (tuple(ranks),) * k,
            None if points is None else (tuple(points),) * k,
        )

    def __post_init__(self):
        offsets = [0]
        for lab in self.labels:
            offsets.append(offsets[-1] + len(lab))
        object.__setattr__(self, "offsets", tuple(offsets))
        kinds = {}
        for i in range(self.n_cards):
            kinds.setdefault(self.text(i), []).append(i)
        object.__setattr__(self, "kinds", kinds)

    @property
    def n_cards(self):
        return self.offsets[-1]

    @property
    def words(self):
        """uint64 words a set of this deck's cards needs (1 up to 64 cards)."""
        return (self.n_cards + 63) // 64

    @property
    def full(self):
        """Mask (int) of the whole deck."""
        return (1 << self.n_cards) - 1

    def colour_slot(self, i):
        """(colour, slot) of card index i."""
        for c in range(len(self.colours)):
            if i < self.offsets[c + 1]:
                return c, i - self.offsets[c]
        raise IndexError(i)

    # ------------------------------------------------------------ per-card arrays (for kernels)

    def _per_card(self, table):
        return np.array([table[c][s] for c, s in map(self.colour_slot, range(self.n_cards))], np.int64)

    @property
    def card_colour(self):
        return np.array([self.colour_slot(i)[0] for i in range(self.n_cards)], np.int64)

    @property
    def card_rank(self):
        return self._per_card(self.ranks)

    @property
    def card_points(self):
        if self.points is None:
            raise ValueError(f"the {self.name} deck has no fixed card points")
        return self._per_card(self.points)

    @property
    def colour_masks(self):
        """uint64 mask of each colour (one-word decks)."""
        return np.array([self.colour_mask(c) for c in range(len(self.colours))], np.uint64)

    # ------------------------------------------------------------ masks (Python ints)

    def colour_mask(self, colour):
        """Mask of every card of a colour (index or letter)."""
        c = self.colours.index(colour) if isinstance(colour, str) else colour
        return ((1 << len(self.labels[c])) - 1) << self.offsets[c]

    def label_mask(self, label):
        """Mask of every card with this label, in every colour."""
        return sum(
            1 << i for i in range(self.n_cards) if self.labels[self.colour_slot(i)[0]][self.colour_slot(i)[1]] == label
        )

    def kind_mask(self, text):
        """Mask of every copy of one card kind ("R7": both red 7s)."""
        return sum(1 << i for i in self.copies(text))

    def text(self, i):
        """Text of card index i."""
        c, s = self.colour_slot(i)
        return self.colours[c] + self.labels[c][s]

    def copies(self, text):
        """Indices of the copies of a card kind ("R7": both red 7s), lower slot first; CardError if
        `text` is not a card of this deck."""
        if not isinstance(text, str) or text not in self.kinds:
            raise CardError(f"unknown card {text!r}")
        return self.kinds[text]

    def parse(self, cards, within=None):
        """Mask (int) of a list of card texts; each repeat of a kind takes its next copy.

        `within`, if given, is the mask the cards must come from: copies are then taken
        from the slots present there, lowest first.
        """
        if not isinstance(cards, (list, tuple)):
            raise CardError(f"expected a list of cards, got {cards!r}")
        mask = 0
        allowed = self.full if within is None else int(within)
        for text in cards:
            for i in self.copies(text):
                if not mask >> i & 1 and allowed >> i & 1:
                    mask |= 1 << i
                    break
            else:
                raise CardError(f"card {text} appears more often than available")
        return mask

    def index(self, text, held):
        """Index of a copy of `text` in mask `held` (lowest slot), or -1."""
        for i in self.copies(text):
            if int(held) >> i & 1:
                return i
        return -1

    def format(self, mask):
        """Card texts of a mask, in index order (copies written twice)."""
        m = int(mask)
        return [self.text(i) for i in range(self.n_cards) if m >> i & 1]

    def words_of(self, mask):
        """The mask as `words` uint64s, card i at bit i % 64 of word i // 64."""
        m = int(mask)
        return np.array([(m >> (64 * w)) & (2**64 - 1) for w in range(self.words)], np.uint64)

    def mask_of_words(self, words):
        """Inverse of words_of."""
        return sum(int(w) << (64 * k) for k, w in enumerate(words))


MU_NUMBERS = (0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9)
MU = Deck.uniform(
    "Mü & More",
    "RYGBK",
    [str(d) for d in MU_NUMBERS],
    MU_NUMBERS,
    [{1: 0, 9: 0, 6: 2, 7: 2}.get(d, 1) for d in MU_NUMBERS],
)

# Mückenstich (docs/rules.md §8): 1..11, two identical 12s, three identical mosquitoes (rank 13).
MUECKENSTICH = Deck.uniform(
    "Mückenstich", "RYGB", [*(str(d) for d in range(1, 13)), "12", "M", "M", "M"], [*range(1, 13), 12, 13, 13, 13]
)

# Zwickern (docs/rules.md §10): 52 French cards, suits S H D C, ace to king (rank 1..13), and the
# three jokers as a colour of their own, J1 J2 J3 (capture values 15, 20, 25: the game's own).
FRENCH_LABELS = ("A", *(str(v) for v in range(2, 11)), "J", "Q", "K")
ZWICKERN = Deck(
    "Zwickern",
    ("S", "H", "D", "C", "J"),
    (FRENCH_LABELS,) * 4 + (("1", "2", "3"),),
    (tuple(range(1, 14)),) * 4 + ((1, 2, 3),),
)
# Danger (docs/rules.md §9): R Y G B x values 1..9 x `copies`, and for each of the 6 colour pairs the
# two-colour cards of values 1..`multicolour`, each pair a colour of its own (`RY1`).
DANGER_COLOURS = ("R", "Y", "G", "B")
DANGER_PAIRS = ("RY", "RG", "RB", "YG", "YB", "GB")


def danger_deck(copies=3, multicolour=3):
    """Danger's deck for its parameters (default: 108 + 18 = 126 cards, two words)."""
    labels = tuple(str(v) for v in range(1, 10) for _ in range(copies))
    pairs = DANGER_PAIRS if multicolour else ()
    multi = tuple(range(1, multicolour + 1))
    return Deck(
        "Danger",
        (*DANGER_COLOURS, *pairs),
        (labels,) * 4 + (tuple(map(str, multi)),) * len(pairs),
        (tuple(map(int, labels)),) * 4 + (multi,) * len(pairs),
    )


DANGER = danger_deck()
