"""The shared trick kernels (musim.play.tricks) against the reference on random states, for the
Mü & More deck (no trump or a colour trump) and Mückenstich's 64 cards (later equal wins)."""

import numpy as np
import reference_tricks as ref
from hypothesis import given, settings
from hypothesis import strategies as st

from musim.core.deck import MU, MUECKENSTICH
from musim.play import tricks

DECKS = (MU, MUECKENSTICH)


def arrays(deck):
    return deck.card_colour, deck.card_rank, deck.colour_masks


def test_legal_cards_random_states():
    rng = np.random.default_rng(11)
    cases = {"follow": 0, "trump": 0}
    for i in range(6000):
        deck = DECKS[i % 2]
        colour, _, masks = arrays(deck)
        perm = [int(c) for c in rng.permutation(deck.n_cards)]
        hand = sorted(perm[: rng.integers(1, 16)])
        led = None if rng.random() < 0.1 else perm[-1]
        trump = int(rng.integers(-1, len(deck.colours)))
        must = bool(rng.random() < 0.5)
        want = ref.legal(hand, led, colour.tolist(), trump, must)
        got = tricks.legal_cards(np.uint64(ref.mask_of(hand)), -1 if led is None else led, colour, masks, trump, must)
        assert ref.cards_of(got) == sorted(want), (hand, led, trump, must)
        cases["follow"] += led is not None and len(want) < len(hand) and colour[want[0]] == colour[led]
        cases["trump"] += led is not None and colour[want[0]] != colour[led] and len(want) < len(hand)
    assert cases["follow"] > 1000 and cases["trump"] > 200


def test_trick_winner_random_tricks():
    rng = np.random.default_rng(12)
    later = 0
    for i in range(8000):
        deck = DECKS[i % 2]
        colour, rank, _ = arrays(deck)
        size = int(rng.integers(1, 9))
        pool = range(deck.n_cards) if rng.random() < 0.5 else np.flatnonzero(colour < 2)  # two colours: ties, trumps
        trick = [int(c) for c in rng.choice(pool, size, replace=False)]
        trump = int(rng.integers(-1, len(deck.colours)))
        later_wins = bool(rng.random() < 0.5)
        want = ref.winner(trick, colour.tolist(), rank.tolist(), trump, later_wins)
        got = tricks.trick_winner(np.array(trick, np.int64), size, trump, colour, rank, later_wins)
        assert got == want, ([deck.text(c) for c in trick], trump, later_wins)
        w = trick[want]
        later += any(rank[c] == rank[w] and colour[c] == colour[w] for c in trick[:want])
    assert later > 100  # equal cards where the later one wins do occur


@settings(max_examples=300, deadline=None)
@given(mask=st.integers(1, 2**60 - 1), values=st.lists(st.integers(-60, 60), min_size=60, max_size=60))
def test_card_sum_and_ranked_cards(mask, values):
    vals = np.array(values, np.int64)
    cards = ref.cards_of(mask)
    assert tricks.card_sum(np.uint64(mask), vals) == sum(values[c] for c in cards)
    rank = MU.card_rank
    low = tricks.lowest_ranked(np.uint64(mask), rank)
    high = tricks.highest_ranked(np.uint64(mask), rank)
    assert low == min(cards, key=lambda c: (rank[c], c))
    assert high == max(cards, key=lambda c: (rank[c], c))
