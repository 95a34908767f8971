"""Cards and tricks in the canonical layout (layout.py): which card beats which, who wins a
trick and with what points, which cards a seat may play, and bit ranges by power.

The search, its bounds and its move generation all apply these rules; they hold for any
game the layout describes.  Which card beats which, the trick's winner and the legal cards
are musim/play/tricks.py's, the games' own kernels, given the layout's classes and powers and the
game's tie rule.  The trump is an argument: the one in force now, which a namer card
(layout.SolverGame.namers) may change in the middle of a trick; a trick is decided by the
trump in force after its last card.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import drop_lowest, highest, lowest
from musim.play import tricks


@flat_kernel(inline="always")
def remaining(g, st):
    """All cards still held, by any seat."""
    rem = np.uint64(0)
    for s in range(g.n):
        rem |= st.hands[s]
    return rem


@flat_kernel
def mask_points(g, mask):
    """(the positive, the negative points) of the cards of mask."""
    pos = 0
    neg = 0
    m = mask
    while m:
        p = g.points[lowest(m)]
        if p > 0:
            pos += p
        else:
            neg += p
        m = drop_lowest(m)
    return pos, neg


@flat_kernel(inline="always")
def span(a, b):
    """Bits a..b inclusive (a <= b)."""
    return ((np.uint64(2) << np.uint64(b)) - np.uint64(1)) & ~((np.uint64(1) << np.uint64(a)) - np.uint64(1))


@flat_kernel(inline="always")
def from_power_of(g, card):
    """All positions of card's class order at or above its power's first position."""
    return ~((np.uint64(1) << np.uint64(g.eq_lo[card])) - np.uint64(1))


@flat_kernel(inline="always")
def is_namer(g, card):
    """Does `card` name the trump when played (layout.SolverGame.namers)?"""
    return (g.namers >> np.uint64(card)) & np.uint64(1) != 0


@flat_kernel(inline="always")
def beats(g, card, best, trump):
    """Does `card`, played after the trick's current winner `best`, take it?  musim.play.tricks's
    rule in the layout: its classes are the colours, its powers the ranks."""
    return tricks.beats(card, best, trump, g.klass, g.power, g.later_wins)


@flat_kernel
def trick_winner_pos(g, line, start, count, trump):
    """Position in the trick line[start:start+count] of its winning card (musim.play.tricks)."""
    return tricks.trick_winner(line[start : start + count], count, trump, g.klass, g.power, g.later_wins)


@flat_kernel
def trick_relevance(g, line, start, leader, w):
    """The cards whose rank decided the full trick line[start:start+n] led by `leader` and won
    by seat w: the winner's equal-power group if another card of its class was played to it
    (else it won by its class alone: nothing)."""
    wpos = w - leader if w >= leader else w - leader + g.n
    c = line[start + wpos]
    for j in range(g.n):
        if j != wpos and g.klass[line[start + j]] == g.klass[c]:
            return span(g.eq_lo[c], g.eq_hi[c])
    return np.uint64(0)


@flat_kernel(inline="always")
def finish_trick(g, line, start, leader, last, trump):
    """(winning seat, points incl. the trick's bonuses, the negative part of those points) of the
    full trick line[start:start+n], `trump` in force after its last card; last: it is the deal's
    last trick (its end bonus)."""
    n = g.n
    w = leader + trick_winner_pos(g, line, start, n, trump)
    if w >= n:
        w -= n
    pts = g.trick_bonus + (g.end_bonus if last else 0)
    neg = min(pts, 0)
    for j in range(start, start + n):
        p = g.points[line[j]]
        pts += p
        neg += min(p, 0)
    return w, pts, neg


@flat_kernel(inline="always")
def playable_top(g, st, s, led_class, trump):
    """The highest card seat s may play that could win a trick led in led_class (the highest
    of that class if it holds one, else its highest trump), or -1."""
    h = st.hands[s] & g.class_mask[led_class]
    if not h and trump >= 0:
        h = st.hands[s] & g.class_mask[trump]
    return highest(h) if h else -1


@flat_kernel(inline="always")
def legal_cards(g, hand, line, t0, k):
    """The cards of `hand` that may go to the trick line[t0: t0 + k] (musim.play.tricks)."""
    return tricks.legal_cards(hand, line[t0] if k > 0 else -1, g.klass, g.class_mask, g.trump_class, False)
