"""Bounds on the points a side surely takes from a trick boundary (DDS's quick tricks, with
points): where one reaches the need, or denies it, the node is decided without a search.

Each bound comes with the cards whose rank it relied on, for the table entry of the proof.
With signed points a side sure to take a set of cards takes at least the least it can take
(all negative points left) plus those cards' positive points: the bounds count only the
positive part of a card's points, and cards worth more than 2 count 2 (at_least_points,
the game's point_mask), so they stay lower bounds in any game the layout describes.  They take
the trump in force and assume it fixed: the search asks them only when no namer card
(layout.SolverGame.namers) is left; and they count a card as beating an equal one as the game's
tie rule says.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import highest, popcount
from musim.solver.layout import MAX_CLASSES
from musim.solver.trick import from_power_of, remaining


@flat_kernel(inline="always")
def at_least_points(g, mask):
    """Points of the cards in mask (cards worth more than 2 count 2: a lower bound)."""
    return popcount(mask & g.point_mask[1]) + 2 * popcount(mask & g.point_mask[2])


@flat_kernel(inline="always")
def cheapest_of(count, c0, c1, c2):
    """(points, cards worth 0, 1, 2+ taken) of the `count` cheapest of c0, c1, c2 cards worth
    0, 1 and 2 or more (counted 2: a lower bound)."""
    n0 = min(count, c0)
    n1 = min(count - n0, c1)
    n2 = min(count - n0 - n1, c2)
    return n1 + 2 * n2, n0, n1, n2


@flat_kernel
def cheapest_points(g, st, skip, q):
    """The fewest points the seats other than `skip` can give to q tricks: each its q cheapest cards."""
    pts = 0
    for s in range(g.n):
        if s == skip:
            continue
        h = st.hands[s]
        pts += cheapest_of(
            q, popcount(h & g.point_mask[0]), popcount(h & g.point_mask[1]), popcount(h & g.point_mask[2])
        )[0]
    return pts


@flat_kernel(inline="always")
def sure_winners(g, st, seat, sides, leads, trump):
    """(winners, rounds, relevant cards): the cards `seat` surely wins a trick with, once it
    leads and cashes them: first its trumps no other player can beat, which every other seat
    holding trumps must follow; then, if that leaves no other seat a trump, its side cards no
    other player can beat (sides=False: the trumps alone, whose relevant cards are fewer).
    rounds: per class, 5 bits, the rounds led in it.  The relevant cards are the highest other
    card of each class that gave winners: wherever they stay on top the count is at least as
    high (the counts of each seat's cards per class are the table key's).  leads=False: `seat`
    does not lead the next trick, so a card of equal power that another seat may lead first
    beats it, and so does one another seat plays later under the later-wins tie rule."""
    mine = st.hands[seat]
    others = remaining(g, st) & ~mine
    win = np.uint64(0)
    rel = np.uint64(0)
    cashed = 0  # trump winners: rounds of trumps every other seat must follow while it can
    ruff = False  # another seat keeps a trump after them: it could ruff or overtake a side winner
    if trump >= 0:
        tmask = g.class_mask[trump]
        other_trumps = others & tmask
        win = mine & tmask
        if other_trumps:
            h = highest(other_trumps)
            win &= beating(g, h, leads)
            if win:
                rel |= np.uint64(1) << np.uint64(h)
        cashed = popcount(win)
        for s in range(g.n):
            if s != seat and popcount(st.hands[s] & tmask) > cashed:
                ruff = True
    rounds = cashed << (5 * max(trump, 0))
    if sides and not ruff:
        for k in range(MAX_CLASSES):
            mk = mine & g.class_mask[k]
            if k == trump or not mk:
                continue
            ok = others & g.class_mask[k]
            wk = mk
            if ok:
                h = highest(ok)
                wk = mk & beating(g, h, leads)
                if wk:
                    rel |= np.uint64(1) << np.uint64(h)
            win |= wk
            rounds |= popcount(wk) << (5 * k)
    return win, rounds, rel


@flat_kernel(inline="always")
def quick_points(g, st, leader, sides, trump):
    """(points, relevant cards): points the leader's side surely takes by cashing the leader's
    sure winners at once (DDS's "quick tricks", simplified; sure_winners).  Each such trick
    also brings a card of every other seat, which must follow the class led while it can
    (followed_points), and the trick bonus.  Side winners while another seat keeps a trump,
    cashed as often as every such seat must follow (DDS's rule), gained nothing on top of this
    and cost nodes (docs/solver.md)."""
    win, rounds, rel = sure_winners(g, st, leader, sides, True, trump)
    q = popcount(win)
    if q == 0:
        return 0, rel
    return at_least_points(g, win) + followed_points(g, st, leader, q, rounds) + q * max(g.trick_bonus, 0), rel


@flat_kernel(inline="always")
def beating(g, h, leads):
    """The positions of h's class order that surely beat card h: from its power up if played
    first and an equal power played first wins, else strictly above it."""
    if leads and not g.later_wins:
        return from_power_of(g, h)
    return ~((np.uint64(2) << np.uint64(g.eq_hi[h])) - np.uint64(1))


@flat_kernel(inline="always")
def sole_trump_points(g, st, holder, trump):
    """(points, relevant cards) the side of `holder`, a seat other than the leader, surely takes
    when it holds every trump left: while it has a trump it wins each trick it ruffs or is led
    trumps in, and no other seat can ruff, so it never has to give up a winner before it gets
    the lead, and then it cashes them all (sure_winners, counting only cards that beat every
    other seat's strictly: another seat may lead an equal power first).  Before it gets the
    lead the other seats may shed cards of its winners' classes, so each is only sure to give
    its cheapest cards to those tricks (cheapest_points), not to follow them.
    (0, 0) if another seat holds a trump."""
    tmask = g.class_mask[trump]
    if remaining(g, st) & tmask & ~st.hands[holder]:
        return 0, np.uint64(0)
    win, _, rel = sure_winners(g, st, holder, True, False, trump)
    q = popcount(win)
    return at_least_points(g, win) + cheapest_points(g, st, holder, q) + q * max(g.trick_bonus, 0), rel


@flat_kernel(inline="always")
def sure_decides(maximising, sure, need, least, avail):
    """(decided?, result, bound): what a side sure of `sure` positive points, the maximising team
    able to take from `least` to `avail` points, proves about "can the maximising team take
    `need`?" (maximising: the side is that team)."""
    if maximising:
        return need <= least + sure, True, least + sure
    return need > avail - sure, False, avail - sure


@flat_kernel
def followed_points(g, st, leader, q, rounds):
    """The fewest points the seats other than `leader` put on q tricks led by it, `rounds`
    (5 bits per class) of them in each class: a seat plays at least min(rounds, its cards) of
    a class led that often (while it holds one it must follow), its cheapest of them, and
    its cheapest other cards for the rest."""
    pm = g.point_mask
    pts = 0
    for s in range(g.n):
        if s == leader:
            continue
        h = st.hands[s]
        left0, left1, left2 = popcount(h & pm[0]), popcount(h & pm[1]), popcount(h & pm[2])
        free = q
        for k in range(MAX_CLASSES):
            r = (rounds >> (5 * k)) & 31
            if r:
                hk = h & g.class_mask[k]
                f = min(r, popcount(hk))
                p, n0, n1, n2 = cheapest_of(f, popcount(hk & pm[0]), popcount(hk & pm[1]), popcount(hk & pm[2]))
                pts += p
                free -= f
                left0, left1, left2 = left0 - n0, left1 - n1, left2 - n2
        pts += cheapest_of(free, left0, left1, left2)[0]
    return pts


@flat_kernel
def top_trump_points(g, st, leader, trump):
    """(seat, points, relevant cards): a seat other than the leader holding trumps that beat
    every other player's trumps wins a trick with each of them whenever it plays it, so its
    side surely takes their points, every other seat's cheapest cards and the trick bonuses;
    (-1, 0, 0) if none.  Relevant: the highest trump of the other seats."""
    if trump < 0:
        return -1, 0, np.uint64(0)
    tmask = g.class_mask[trump]
    trumps = remaining(g, st) & tmask
    if not trumps:
        return -1, 0, np.uint64(0)
    h = st.owner[highest(trumps)]
    if h == leader:
        return -1, 0, np.uint64(0)
    win = st.hands[h] & tmask
    others = trumps & ~win
    rel = np.uint64(0)
    if others:  # strictly higher: played later, an equal power loses
        o = highest(others)
        win &= ~((np.uint64(2) << np.uint64(g.eq_hi[o])) - np.uint64(1))
        rel = np.uint64(1) << np.uint64(o)
    q = popcount(win)
    if q == 0:
        return -1, 0, np.uint64(0)
    return h, at_least_points(g, win) + cheapest_points(g, st, h, q) + q * max(g.trick_bonus, 0), rel
