"""Deck definitions (musim.core.deck): the Mü & More deck agrees with musim.core.cards bit for bit;
Mückenstich's 64 cards; the several-word layout beyond 64 cards (Danger's 126)."""

import numpy as np
import pytest

from musim.core import cards
from musim.core.cards import CardError
from musim.core.deck import DANGER as MUSIM_DANGER
from musim.core.deck import MU, MUECKENSTICH, Deck, danger_deck

# Danger (docs/rules.md §9, issue 9): 4 colours x values 1..9 x 3 copies, and one two-colour
# card of value 1, 2, 3 for each of the 6 colour pairs, each pair a colour of its own.
PAIRS = ("RY", "RG", "RB", "YG", "YB", "GB")
DANGER_LABELS = [str(v) for v in range(1, 10) for _ in range(3)]
DANGER = Deck(
    "Danger",
    ("R", "Y", "G", "B", *PAIRS),
    (tuple(DANGER_LABELS),) * 4 + (("1", "2", "3"),) * 6,
    (tuple(int(v) for v in DANGER_LABELS),) * 4 + ((1, 2, 3),) * 6,
)


def test_mu_deck_agrees_with_cards_bit_for_bit():
    assert MU.n_cards == cards.N_CARDS == 60 and MU.words == 1
    assert "".join(MU.colours) == cards.COLOURS
    assert MU.card_colour.tolist() == cards.CARD_COLOUR.tolist()
    assert MU.card_rank.tolist() == cards.CARD_NUMBER.tolist()
    assert MU.card_points.tolist() == cards.CARD_POINTS.tolist()
    assert MU.colour_masks.tolist() == cards.COLOUR_MASK.tolist()
    assert MU.full == int(cards.DECK)
    for d in range(10):
        assert MU.label_mask(str(d)) == int(cards.NUMBER_MASK[d])


def test_mu_notation_is_the_rulebook_layout():
    """Card i is written colour letter + number, 12 a colour in the order 0 1 1 2 3 4 5 6 7 7 8 9;
    a repeated 1 or 7 takes the next copy, within a given mask its lowest copy present."""
    expected = [c + str(d) for c in "RYGBK" for d in (0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9)]
    assert [MU.text(i) for i in range(60)] == expected
    rng = np.random.default_rng(1)
    for _ in range(500):
        mask = int(rng.integers(0, 2**60, dtype=np.uint64))
        texts = MU.format(mask)
        assert texts == [expected[i] for i in range(60) if mask >> i & 1]
        slots = {t: [i for i in range(60) if expected[i] == t] for t in texts}
        assert MU.parse(texts) == sum(1 << slots[t][texts[:k].count(t)] for k, t in enumerate(texts))
        within = int(rng.integers(0, 2**60, dtype=np.uint64))
        for t in MU.format(within)[::2]:
            present = [i for i in range(60) if within >> i & 1 and expected[i] == t]
            assert MU.index(t, within) == present[0]
            assert MU.parse([t], within=within) == 1 << present[0]


def test_mu_deck_points_total_60_and_12_a_colour():
    assert MU.card_points.sum() == 60
    assert all(MU.card_points[MU.card_colour == c].sum() == 12 for c in range(5))


def test_mueckenstich_deck_notation_and_layout():
    d = MUECKENSTICH
    assert d.n_cards == 64 and d.words == 1 and d.colours == ("R", "Y", "G", "B")
    assert d.format(d.colour_mask("R")) == [*(f"R{v}" for v in range(1, 13)), "R12", "RM", "RM", "RM"]
    assert d.parse(["R12", "R12"]) == 0b11 << 11
    assert d.parse(["BM", "BM", "BM"]) == 0b111 << 61
    with pytest.raises(CardError, match="more often"):
        d.parse(["R12"] * 3)
    with pytest.raises(CardError, match="unknown card"):
        d.parse(["R13"])
    assert d.card_rank[d.index("RM", d.full)] == 13 and d.card_rank.max() == 13
    assert d.full == 2**64 - 1 and int(d.colour_masks[3]) == 0xFFFF << 48
    with pytest.raises(ValueError, match="no fixed card points"):
        d.card_points  # noqa: B018


def test_danger_deck_uses_two_words():
    assert DANGER.n_cards == 126 and DANGER.words == 2
    assert DANGER.format(DANGER.kind_mask("R5")) == ["R5"] * 3
    assert DANGER.format(DANGER.colour_mask("GB")) == ["GB1", "GB2", "GB3"]
    last = DANGER.parse(["GB3"])
    assert last == 1 << 125
    words = DANGER.words_of(last | 1)
    assert words.dtype == np.uint64 and words.tolist() == [1, 1 << 61]
    rng = np.random.default_rng(2)
    for _ in range(200):
        mask = int.from_bytes(rng.bytes(16), "little") & DANGER.full
        assert DANGER.mask_of_words(DANGER.words_of(mask)) == mask
        texts = DANGER.format(mask)
        assert DANGER.format(DANGER.parse(texts)) == texts  # copies re-parse to the lowest slots
        assert DANGER.parse(texts, within=mask) == mask


def test_zwickern_deck_notation_and_layout():
    from musim.core.deck import ZWICKERN as d

    assert d.n_cards == 55 and d.words == 1 and d.colours == ("S", "H", "D", "C", "J")
    assert d.format(d.colour_mask("S")) == ["SA", *(f"S{v}" for v in range(2, 11)), "SJ", "SQ", "SK"]
    assert d.format(d.colour_mask("J")) == ["J1", "J2", "J3"] and d.colour_mask("J") == 0b111 << 52
    assert d.parse(["D10", "SA", "CK"]) == 1 << 35 | 1 | 1 << 51
    assert d.full == 2**55 - 1 and len(d.kinds) == 55
    assert d.format(d.label_mask("J")) == ["SJ", "HJ", "DJ", "CJ"]  # jacks; the jokers are the colour J
    with pytest.raises(CardError, match="unknown card"):
        d.parse(["J4"])
    with pytest.raises(CardError, match="more often"):
        d.parse(["HQ", "HQ"])


def test_musim_decks_danger_deck_is_this_layout_and_its_options_shrink_it():
    assert MUSIM_DANGER == DANGER == danger_deck(3, 3)
    assert danger_deck(2, 3).n_cards == 72 + 18 and danger_deck(2, 3).words == 2
    small = danger_deck(1, 2)
    assert small.colours[-1] == "GB" and small.format(small.colour_mask("GB")) == ["GB1", "GB2"]
    assert danger_deck(1, 0).colours == ("R", "Y", "G", "B") and danger_deck(1, 0).words == 1
