"""Values of positions, from null-window searches (search.can_reach): the exact value by a
binary search over the need, the value after a card, and whether a card keeps a value (the
card choice of double-dummy play).  A move is a card, and for a card that names the trump
(layout.SolverGame.namers) the class it names (`named`; -1 for other cards).
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import drop_lowest, lowest, popcount
from musim.solver.layout import MAX_CLASSES
from musim.solver.moves import same_run
from musim.solver.search import NO_DEADLINE, available, can_reach, point_range, set_owners, trump_in_force
from musim.solver.stats import S_GAVE_UP, S_NODES
from musim.solver.trick import finish_trick, is_namer, legal_cards, remaining

UNBOUNDED = 1 << 30  # beyond any value (layout.MAX_POINTS)


@flat_kernel(inline="always")
def solve_bounds(g, tt, st, leader, k, first):
    """(lo, hi): the points the maximising team takes from here with best play by both sides
    lie in lo..hi; lo == hi, the exact value, unless a search gave up at st.limit[0].

    The position is st.hands (remaining cards per seat) and st.line[:k] (cards
    already played to the current trick, led by `leader`).  `first` (if above the least the
    team can take, and at most the most: search.point_range) is asked first, so that whether
    the team reaches it is known even when a later search gives up.
    """
    return solve_between(g, tt, st, leader, k, -UNBOUNDED, UNBOUNDED, first)


@flat_kernel(inline="always")
def solve_between(g, tt, st, leader, k, lo, hi, first):
    """solve_bounds for a position whose value is known to lie in lo..hi: a binary search of
    null-window searches within them (each narrowed further by the bound it proves), `first`
    asked first if it lies in lo + 1..hi."""
    least, avail = point_range(g, st.hands, st.line, 0, k)
    left = popcount(st.hands[(leader + k) % g.n])  # the tricks not yet complete
    set_owners(g, st)
    # the count bonus to come bounds the value too (can_reach adds it itself, to the cards' avail)
    lo = max(lo, least + g.bonus_range[0, st.won[0], left])
    hi = min(hi, avail + g.bonus_range[1, st.won[0], left])
    need = first if lo < first <= hi else (lo + hi + 1) // 2
    while lo < hi:
        r, bound = can_reach(g, tt, st, leader, k, need, avail, k)
        if st.stats[S_GAVE_UP]:
            break
        if r:
            lo = bound
        else:
            hi = bound
        need = (lo + hi + 1) // 2
    return lo, hi


@flat_kernel(inline="always", nogil=True)
def solve(g, tt, st, leader, k):
    """Exact value: points the maximising team takes from here with best play by both sides
    (solve_bounds with no limit)."""
    return solve_bounds(g, tt, st, leader, k, 0)[0]


@flat_kernel(inline="always")
def start_limit(st, limit):
    """Let the searches from now on take `limit` nodes in all (0: no limit), counted from
    st.stats[S_NODES] (search.can_reach gives up past st.limit[0])."""
    st.limit[0] = st.stats[S_NODES] + limit if limit > 0 else NO_DEADLINE


@flat_kernel(nogil=True)
def solve_within(g, tt, st, leader, k, limit):
    """solve_bounds within `limit` nodes (0: no limit): (lo, hi), equal (the exact value) unless
    a search gave up at the limit."""
    start_limit(st, limit)
    lo, hi = solve_bounds(g, tt, st, leader, k, 0)
    st.limit[0] = NO_DEADLINE
    return lo, hi


@flat_kernel(inline="always")
def copy_line(src, dst, count):
    """dst[:count] = src[:count], element by element (a slice copy would need numba's allocator)."""
    for j in range(count):
        dst[j] = src[j]


@flat_kernel(inline="always")
def play_card(g, st, leader, k, card, named):
    """Play `card` (naming `named` if a namer) for the seat to move (saving the trick for
    unplay_card); returns (that seat, the next leader, the cards then in the trick, the team's
    points from a trick it completed, its count bonus included after the last: st.won counts
    the tricks, st.trump holds the trump in a game whose namers change it)."""
    n = g.n
    seat = leader + k
    if seat >= n:
        seat -= n
    st.hands[seat] ^= np.uint64(1) << np.uint64(card)
    st.line[k] = card
    if is_namer(g, card):
        st.trump[0] = named
    copy_line(st.line, st.trick_save, k + 1)
    if k + 1 < n:
        return seat, leader, k + 1, 0
    last = remaining(g, st) == 0
    w, pts, _ = finish_trick(g, st.line, 0, leader, last, trump_in_force(g, st))
    gained = 0
    if g.team[w]:
        gained = pts
        st.won[0] += 1
    if last:
        gained += g.count_bonus[st.won[0]]
    return seat, w, 0, gained


@flat_kernel(inline="always")
def unplay_card(st, seat, k, card, won, trump):
    """Undo play_card, st.won[0] having been `won` and st.trump[0] `trump` (a search from the new
    position may have reused the line)."""
    copy_line(st.trick_save, st.line, k + 1)
    st.hands[seat] ^= np.uint64(1) << np.uint64(card)
    st.won[0] = won
    st.trump[0] = trump


@flat_kernel
def bounds_after(g, tt, st, leader, k, card, named, lo, hi, limit):
    """(lo, hi) bounding the value of the position after the seat to move plays `card` naming
    `named` (its points included), given that the position's value lies in lo..hi: no move does
    better for its mover than the bound on its side, so the first search asks whether the card
    keeps it (with lo == hi, the exact value: the best cards are done in one).  The solve may
    take `limit` nodes (0: no limit); the bounds are equal unless it gave up."""
    won, trump = st.won[0], st.trump[0]
    seat, nl, nk, gained = play_card(g, st, leader, k, card, named)
    start_limit(st, limit)
    if g.team[seat]:
        v_lo, v_hi = solve_between(g, tt, st, nl, nk, -UNBOUNDED, hi - gained, hi - gained)
    else:
        v_lo, v_hi = solve_between(g, tt, st, nl, nk, lo - gained, UNBOUNDED, lo - gained + 1)
    st.limit[0] = NO_DEADLINE
    unplay_card(st, seat, k, card, won, trump)
    return v_lo + gained, v_hi + gained


@flat_kernel(nogil=True)
def move_bounds(g, tt, st, leader, k, lo, hi, limit, out_lo, out_hi):
    """out_lo[c]..out_hi[c] bound the value after each legal card c of the seat to move
    (bounds_after, the position's value lying in lo..hi, each solve within `limit` nodes; equal,
    the exact value, unless it gave up), -1 for the others and for namers (named_bounds).  A
    card of the same class and points as the next lower card of its seat, with no card still in
    play (another seat's, or one played to this trick) of a power from the lower's to its own,
    takes the same tricks with the same points: it gets that card's bounds without a search."""
    seat = leader + k
    if seat >= g.n:
        seat -= g.n
    hand = st.hands[seat]
    in_play = remaining(g, st) & ~hand
    for j in range(k):
        in_play |= np.uint64(1) << np.uint64(st.line[j])
    legal = legal_cards(g, hand, st.line, 0, k)
    for c in range(64):
        out_lo[c] = -1
        out_hi[c] = -1
    prev = -1
    m = legal
    while m:
        c = lowest(m)
        m = drop_lowest(m)
        if is_namer(g, c):
            prev = -1
        elif prev >= 0 and g.points[c] == g.points[prev] and same_run(g, prev, c, in_play):
            out_lo[c], out_hi[c] = out_lo[prev], out_hi[prev]
            prev = c
        else:
            out_lo[c], out_hi[c] = bounds_after(g, tt, st, leader, k, c, -1, lo, hi, limit)
            prev = c


@flat_kernel(nogil=True)
def named_bounds(g, tt, st, leader, k, lo, hi, limit, out_lo, out_hi):
    """out_lo[c, t]..out_hi[c, t] bound the value after each legal namer card c of the seat to
    move naming class t (bounds_after, as move_bounds), -1 elsewhere; copies of equal power share
    their bounds."""
    seat = leader + k
    if seat >= g.n:
        seat -= g.n
    legal = legal_cards(g, st.hands[seat], st.line, 0, k) & g.namers
    out_lo[:, :] = -1
    out_hi[:, :] = -1
    prev = -1
    m = legal
    while m:
        c = lowest(m)
        m = drop_lowest(m)
        for t in range(MAX_CLASSES):
            if not g.class_mask[t]:
                continue
            if prev >= 0 and g.eq_lo[prev] == g.eq_lo[c]:
                out_lo[c, t], out_hi[c, t] = out_lo[prev, t], out_hi[prev, t]
            else:
                out_lo[c, t], out_hi[c, t] = bounds_after(g, tt, st, leader, k, c, t, lo, hi, limit)
        prev = c


@flat_kernel(inline="always")
def keeps_value(g, tt, st, leader, k, card, named, value):
    """Does the seat to move keep the position's exact value `value` by playing `card` (naming
    `named` if a namer)?

    One null-window search: a maximiser's card keeps it if the team can still
    reach `value`, a minimiser's if the team cannot reach `value + 1`.
    """
    won, trump = st.won[0], st.trump[0]
    seat, nl, nk, gained = play_card(g, st, leader, k, card, named)
    maximiser = g.team[seat]
    avail = available(g, st.hands, st.line, nk)
    need = value - gained if maximiser else value + 1 - gained
    set_owners(g, st)
    r, _ = can_reach(g, tt, st, nl, nk, need, avail, nk)
    unplay_card(st, seat, k, card, won, trump)
    return r if maximiser else not r


@flat_kernel(inline="always")
def first_keeping_play(g, tt, st, leader, k, value, order):
    """(card, named) of the first legal card in `order` (all the game's cards, the most
    preferred first) that keeps `value`, a namer with the first class that does, or (-1, -1):
    one null-window search per candidate until one keeps it.  The choice depends on the
    position and `order` alone, not on the search's move order or on what the table holds,
    so work on the search's speed cannot change it."""
    return first_keeping_within(g, tt, st, leader, k, value, order, 0)


@flat_kernel(inline="always")
def keeps_within(g, tt, st, leader, k, card, named, value, limit):
    """(keeps_value, did its search give up?), the search within `limit` nodes (0: no limit)."""
    start_limit(st, limit)
    r = keeps_value(g, tt, st, leader, k, card, named, value)
    st.limit[0] = NO_DEADLINE
    return r, st.stats[S_GAVE_UP] != 0


@flat_kernel(inline="always")
def first_keeping_within(g, tt, st, leader, k, value, order, limit):
    """first_keeping_play with each null-window search within `limit` nodes (0: no limit):
    (-1, -1) as soon as one gives up."""
    seat = leader + k
    if seat >= g.n:
        seat -= g.n
    legal = legal_cards(g, st.hands[seat], st.line, 0, k)
    for c in order:
        if not legal & (np.uint64(1) << np.uint64(c)):
            continue
        namer = is_namer(g, c)
        for t in range(MAX_CLASSES if namer else 1):
            if namer and not g.class_mask[t]:
                continue
            named = t if namer else -1
            r, gave_up = keeps_within(g, tt, st, leader, k, c, named, value, limit)
            if gave_up:
                return -1, -1
            if r:
                return c, named
    return -1, -1


@flat_kernel(inline="always")
def first_keeping_move(g, tt, st, leader, k, value, order):
    """The card of first_keeping_play (for games without namers)."""
    return first_keeping_play(g, tt, st, leader, k, value, order)[0]
