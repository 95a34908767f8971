"""Invariants of the rule kernels, by hypothesis."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from musim.games.mu import rules

trump_types = st.integers(-1, 14)
masks = st.integers(1, (1 << 60) - 1).map(np.uint64)


@settings(max_examples=400, deadline=None)
@given(hand=masks, led=st.integers(-1, 59), chief=trump_types, vice=trump_types)
def test_a_legal_move_always_exists_and_follows_if_it_can(hand, led, chief, vice):
    klass, _, class_mask = rules.contract(chief, vice)
    legal = rules.legal_moves(hand, led, klass, class_mask)
    assert legal != 0 and legal & ~hand == 0
    if led >= 0:
        following = hand & class_mask[klass[led]]
        assert legal == (following if following else hand)


@settings(max_examples=400, deadline=None)
@given(cards=st.lists(st.integers(0, 59), min_size=1, max_size=6, unique=True), chief=trump_types, vice=trump_types)
def test_the_winner_is_never_beaten_by_a_card_played_after_it(cards, chief, vice):
    klass, power, _ = rules.contract(chief, vice)
    trick = np.array(cards, np.int64)
    w = rules.trick_winner(trick, len(cards), klass, power)
    led_class = klass[trick[0]]
    assert klass[trick[w]] in (led_class, rules.TRUMP)
    for j, c in enumerate(cards):
        if j != w and klass[c] in (led_class, rules.TRUMP):
            assert power[c] < power[trick[w]] or (power[c] == power[trick[w]] and j > w)


@settings(max_examples=300, deadline=None)
@given(n=st.integers(3, 6), data=st.data())
def test_scores_of_a_played_deal_follow_the_made_or_failed_pattern(n, data):
    size = rules.hand_size(n)
    bid = data.draw(st.integers(1, size))
    total = 36 if n == 3 else 60
    chief = data.draw(st.integers(0, n - 1))
    partner = -1 if n == 3 else data.draw(st.sampled_from([s for s in range(n) if s != chief]))
    cp = np.array(data.draw(st.lists(st.integers(0, total), min_size=n, max_size=n)), np.int64)
    trump = data.draw(trump_types)
    scores = np.zeros(n, np.int64)
    team, made, short, bonus = rules.score_played(n, bid, chief, partner, trump, cp, scores, rules.rulebook_targets())
    assert made == (team >= rules.target(n, bid))
    extra = scores - cp
    if made:
        assert short == 0 and bonus > 0
        assert all(extra[s] == (bonus if s in (chief, partner) else 0) for s in range(n))
    else:
        assert bonus == 0 and 1 <= short <= bid
        assert extra[chief] == -10 * short
        assert all(extra[s] == (0 if s == partner else 5 * short) for s in range(n) if s != chief)
