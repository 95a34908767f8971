"""A position's transposition-table keys at a trick boundary, and the top part of a table
entry: which cards, from each class's top down, a proof relied on (tt.py describes both).

The keys are bit strings: counts of cards are written as runs of 1 bits ended by a 0
(put_run), so that positions compare word by word.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import compress, drop_lowest, highest, lowest, nth_bit, popcount
from musim.solver.layout import MAX_CLASSES, MAX_SEATS
from musim.solver.trick import from_power_of, remaining, span
from musim.solver.tt import KEY_WORDS, POINTS_WORDS, SEG_LEN, SEG_STARTS, top_owners


@flat_kernel(inline="always")
def position_keys(g, st, leader, won, trump, words, key, points):
    """The position's table keys at a trick boundary (see tt.py); returns (the remaining cards,
    the owners of each class's top two cards, as tt.top_owners fields).

    won: the tricks the maximising side has won since the search's root, in the key where the
    game's count_bonus makes the value depend on it (layout.SolverGame); trump: the trump in
    force, in the key where the game's namers change it, with the namers left in each class.
    words: remaining cards numbered 0.. in class and power order; words 0-2 are the
    bit planes of their owners, 3-4 their point levels (1 and 2: layout.SolverGame), 5 marks a
    card of the same power as the one before it.  key: the leader and the number of cards each
    seat holds per class, as that many 1 bits and a 0 (at most layout.KEY_BITS + 3 bits: 2
    words; layout.check_limits), then won and trump as above: it picks the table bucket.
    points: the number of cards each seat holds per class and point level, packed alike
    (1^c0 0 1^c1 0 1^c2 0), then the key's other parts as in key (at most layout.POINTS_BITS +
    3 bits: 3 words); so it holds the key, and the table stores only it (tt._same_key).
    st.segs: where each class and seat's run of points starts (k * MAX_SEATS + s), and from
    SEG_STARTS on where each class starts among the remaining cards, then their number (for
    tt._point_shift), then the runs' length (SEG_LEN).
    """
    rem = remaining(g, st)
    for w in range(KEY_WORDS):
        key[w] = 0
    for w in range(POINTS_WORDS):
        points[w] = 0
    for b in range(3):
        plane = np.uint64(0)
        for s in range(g.n):
            if s >> b & 1:
                plane |= st.hands[s]
        words[b] = compress(plane, rem)
    words[3] = compress(g.level_mask[1], rem)
    words[4] = compress(g.level_mask[2], rem)
    tied = np.uint64(0)
    m = rem & g.tied
    while m:  # a card whose power the remaining card just below it shares
        c = lowest(m)
        m = drop_lowest(m)
        if rem & span(g.eq_lo[c], c - 1):
            tied |= np.uint64(1) << np.uint64(c)
    words[5] = compress(tied, rem)
    # per class (each class of the game, in order): its top owners, and per seat its count
    # of cards in key and its counts of cards worth 0, 1 and 2 points in points
    pos = 0
    ppos = 0
    at = 0
    tops = np.uint64(0)
    for k in range(MAX_CLASSES):
        st.segs[SEG_STARTS + k] = at
        if g.class_mask[k]:
            cm = rem & g.class_mask[k]
            at += popcount(cm)
            if cm:
                first = highest(cm)
                rest = cm ^ (np.uint64(1) << np.uint64(first))
                tops |= top_owners(k, st.owner[first], st.owner[highest(rest)] if rest else 0)
            for s in range(g.n):
                h = st.hands[s] & g.class_mask[k]
                cnt = popcount(h)
                pos = put_run(key, pos, cnt)
                if cnt:
                    c0 = popcount(h & g.level_mask[0])
                    c1 = popcount(h & g.level_mask[1])
                    seg = ones(c0) | (ones(c1) << np.uint64(c0 + 1)) | (ones(cnt - c0 - c1) << np.uint64(c0 + c1 + 2))
                    put_bits(points, ppos, seg, cnt + 3)
                st.segs[k * MAX_SEATS + s] = ppos
                ppos += cnt + 3
    st.segs[SEG_STARTS + MAX_CLASSES] = at
    st.segs[SEG_LEN] = ppos
    pos = _key_rest(g, rem, key, pos, leader, won, trump)
    _key_rest(g, rem, points, ppos, leader, won, trump)
    return rem, tops


@flat_kernel(inline="always")
def _key_rest(g, rem, words, pos, leader, won, trump):
    """Write the primary key's parts after the counts into the bit string `words` from bit `pos`
    on (the tricks won, the trump in force and the namers left, where the game keys them), and
    the leader into its last 3 bits; returns the position after them."""
    if g.counts_tricks:
        pos = put_run(words, pos, won)
    if g.namers:  # the top part knows cards by their rank order only: the namers are the top
        pos = put_run(words, pos, trump + 1)  # ones of their class (layout.make_game), so many of them
        for k in range(MAX_CLASSES):
            if g.class_mask[k]:
                pos = put_run(words, pos, popcount(rem & g.namers & g.class_mask[k]))
    words[words.shape[0] - 1] |= np.uint64(leader) << np.uint64(61)
    return pos


@flat_kernel(inline="always")
def ones(cnt):
    """The cnt low bits set (cnt < 64)."""
    return (np.uint64(1) << np.uint64(cnt)) - np.uint64(1)


@flat_kernel(inline="always")
def put_bits(words, pos, bits, length):
    """OR the `length` low bits of `bits` into the bit string `words` from bit `pos` on."""
    words[pos >> 6] |= bits << np.uint64(pos & 63)
    if (pos & 63) + length > 64:
        words[(pos >> 6) + 1] |= bits >> np.uint64(64 - (pos & 63))


@flat_kernel(inline="always")
def put_run(words, pos, cnt):
    """Set cnt bits from bit `pos` of the bit string `words`; returns the position after them
    and a 0."""
    put_bits(words, pos, ones(cnt), cnt)
    return pos + cnt + 1


@flat_kernel
def top_mask(g, rem, rel):
    """The top part of a table entry for relevant cards `rel`: (the positions, in rem's class and
    power order, of each class's cards from the lowest relevant one's power up; those classes;
    those of them with two or more such cards)."""
    mask = np.uint64(0)
    covered = 0
    deep = 0
    for k in range(MAX_CLASSES):
        r = rel & rem & g.class_mask[k]
        if not r:
            continue
        covered |= 1 << k
        top = rem & g.class_mask[k] & from_power_of(g, lowest(r))
        start = popcount(rem & ((np.uint64(1) << np.uint64(lowest(top))) - np.uint64(1)))
        mask |= ((np.uint64(1) << np.uint64(popcount(top))) - np.uint64(1)) << np.uint64(start)
        if popcount(top) >= 2:
            deep |= 1 << k
    return mask, covered, deep


@flat_kernel
def top_cards(g, rem, mask):
    """The cards at the positions `mask` of a table entry's top part (the inverse of top_mask)."""
    out = np.uint64(0)
    start = 0
    for k in range(MAX_CLASSES):
        cm = rem & g.class_mask[k]
        size = popcount(cm)
        if size == 0:
            continue
        ntop = popcount(mask & (((np.uint64(1) << np.uint64(size)) - np.uint64(1)) << np.uint64(start)))
        if ntop:
            out |= cm & ~((np.uint64(1) << np.uint64(nth_bit(cm, size - ntop))) - np.uint64(1))
        start += size
    return out


@flat_kernel
def rank_of(rem, card):
    """Position of `card` among the set bits of rem."""
    return popcount(rem & ((np.uint64(1) << np.uint64(card)) - np.uint64(1)))
