"""Double-dummy search: boolean null-window searches driven to the exact value.

`can_reach(need)` answers "can the maximising team still take `need` points from
here?" with alpha-beta logic on a boolean (DDS's approach): a maximiser's move
that reaches it, or a minimiser's move that denies it, ends the node.  Points
still available bound it from both sides, and a transposition table at trick
boundaries stores proven bounds, so the binary search over `need` that
`solve` runs reuses most of the work of its earlier iterations.  Each result
carries the set of cards whose rank it relied on, so a table entry covers every
position that agrees on the cards from those down (partition search, tt.py).

Moves are generated once per group of interchangeable cards (same class, same points,
and equal power or no card of another seat, nor the trick's winning card so far, with a
power from the lower's to the higher's, ends included; once no later seat can change
which team takes the trick, of any points: the mover's dearest card into its own team's
trick, its cheapest into the other's, dominates the rest) and tried in a promising
order: the table's best move, then leads whose replies make the smallest tree (few
opponents' cards in the class), cheap winners (a lead only if no other seat holds a
higher card of its class and no opponent void in it holds a trump), partner's tricks
smeared with points (also one a later teammate can surely take, and none that a later
opponent can surely take from the team), low discards.  A move tried first that runs
long early in the deal gives way for a while to the others, each on a small budget of
nodes: one of them may settle the node at a fraction of its cost (`budget_next`).  No
allocation happens inside the search: all scratch lives in a `SearchState` made once.
The helpers called at every node are inlined (inline="always"): a call passes each array
of the game, state and table tuples by value, some 200 words pushed per call, which took
a third of the time per node.
"""

from collections import namedtuple

import numpy as np

from musim.bits import compress, drop_lowest, highest, lowest, nth_bit, popcount
from musim.jit import flat_kernel
from musim.solver.layout import MAX_CLASSES, MAX_SEATS
from musim.solver.pause import make_control, pause_point
from musim.solver.tt import KEY_WORDS, POINTS_WORDS, TOP_WORDS, probe, store, top_mask_of, top_owners

MAX_PLY = 64
NO_BOUND_HI = 32000
REPLY_W = 100  # a lead's penalty per line of replies to it, scaled to two opponents (gen_moves)

SearchState = namedtuple(
    "SearchState",
    "hands owner line trick_save moves groups scores status frames words key points rel trel stats budget "
    "limit control",
)
# owner[c] = the seat holding card c; line[p] = the card played at ply p (the current
# trick is line[ply - k: ply]); moves/groups/scores: each ply's moves, the interchangeable
# cards each stands for, and their order scores, replaced by their bounds once they
# fail (next_move); status: whether each tried move of a budgeted frame failed or ran
# out of budget (budget_next); frames: the explicit search stack, with each frame's keys
# (words, key, points), the cards whose rank its proof needed so far (rel) and those the
# trick completed on entering it needed (trel); stats[0] = nodes searched, stats[1] = tricks
# completed in the search (DDS's node count), stats[2] = moves cut short by their budget,
# stats[3] = 1 if the last search gave up at limit[0] (a node count: NO_DEADLINE, or a caller's
# limit on a search that may take hours), stats[4] = null-window searches run (can_reach calls);
# budget: BUDGET_CARDS, BUDGET_FIRST, BUDGET_OTHER (tests shrink them); control: pause.py
# a frame's deadline (node count) and its current move's; its budget phase (budget_next)
(
    F_LEADER,
    F_K,
    F_NEED,
    F_AVAIL,
    F_SEAT,
    F_COUNT,
    F_IDX,
    F_NODES,
    F_BOUND,
    F_TOPS,
    F_DEADLINE,
    F_MOVE_DEADLINE,
    F_PHASE,
) = range(13)
FRAME_FIELDS = 13
# A frame whose mover holds BUDGET_CARDS cards or more gives its first move BUDGET_FIRST
# nodes; if they run out, each other move gets BUDGET_OTHER, and then those that ran out
# get the rest (`bench_nodes.py --sets 6:auction:8` 17% fewer nodes; first budgets of 2**14
# to 2**18 and other budgets of 2**8 to 2**14, or from 4 or 8 cards, within 3% of that)
BUDGET_CARDS = 6
BUDGET_FIRST = 1 << 16
BUDGET_OTHER = 1 << 10
NO_DEADLINE = 1 << 62
PLAIN, FIRST, OTHERS, REST = range(4)  # budget phases
FAILED, RAN_OUT = range(1, 3)  # a budgeted move's status, once tried (written each time: the
# array is shared by every frame at that ply, so an old RAN_OUT must not linger)


def make_state():
    z = np.zeros
    return SearchState(
        hands=z(MAX_SEATS, np.uint64),
        owner=z(64, np.int64),
        line=z(MAX_PLY + MAX_SEATS, np.int64),
        trick_save=z(MAX_SEATS, np.int64),
        frames=z((MAX_PLY + 2, FRAME_FIELDS), np.int64),
        words=z((MAX_PLY + 2, TOP_WORDS), np.uint64),
        key=z((MAX_PLY + 2, KEY_WORDS), np.uint64),
        points=z((MAX_PLY + 2, POINTS_WORDS), np.uint64),
        rel=z(MAX_PLY + 2, np.uint64),
        trel=z(MAX_PLY + 2, np.uint64),
        moves=z((MAX_PLY + 1, 64), np.int64),
        groups=z((MAX_PLY + 1, 64), np.uint64),
        scores=z((MAX_PLY + 1, 64), np.int64),
        status=z((MAX_PLY + 1, 64), np.int8),
        stats=z(5, np.int64),
        budget=np.array([BUDGET_CARDS, BUDGET_FIRST, BUDGET_OTHER]),
        limit=np.array([NO_DEADLINE]),
        control=make_control(),
    )


@flat_kernel(inline="always")
def remaining(g, st):
    """All cards still held, by any seat."""
    rem = np.uint64(0)
    for s in range(g.n):
        rem |= st.hands[s]
    return rem


@flat_kernel(inline="always")
def position_keys(g, st, leader, words, key, points):
    """The position's table keys at a trick boundary (see tt.py); returns (the remaining cards,
    the owners of each class's top two cards, as tt.top_owners fields).

    words: remaining cards numbered 0.. in class and power order; words 0-2 are the
    bit planes of their owners, 3-4 their points (1 and 2), 5 marks a card of the
    same power as the one before it.  key: the leader and the number of cards each seat
    holds per class, as that many 1 bits and a 0 (at most 60 cards + 8 classes x 6 seats
    + 3 bits: 2 words).  points: the number of cards each seat holds per class and points,
    packed alike (at most 6 classes x (60 cards + 18 zeros): 3 words).
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
    words[3] = compress(g.point_mask[1], rem)
    words[4] = compress(g.point_mask[2], rem)
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
    tops = np.uint64(0)
    for k in range(MAX_CLASSES):
        if g.class_mask[k]:
            cm = rem & g.class_mask[k]
            if cm:
                first = highest(cm)
                rest = cm ^ (np.uint64(1) << np.uint64(first))
                tops |= top_owners(k, st.owner[first], st.owner[highest(rest)] if rest else 0)
            for s in range(g.n):
                h = st.hands[s] & g.class_mask[k]
                cnt = popcount(h)
                pos = put_run(key, pos, cnt)
                if cnt:
                    c0 = popcount(h & g.point_mask[0])
                    c1 = popcount(h & g.point_mask[1])
                    seg = ones(c0) | (ones(c1) << np.uint64(c0 + 1)) | (ones(cnt - c0 - c1) << np.uint64(c0 + c1 + 2))
                    put_bits(points, ppos, seg, cnt + 3)
                ppos += cnt + 3
    key[KEY_WORDS - 1] |= np.uint64(leader) << np.uint64(61)
    return rem, tops


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


@flat_kernel(inline="always")
def at_least_points(g, mask):
    """Points of the cards in mask (cards worth more than 2 count 2: a lower bound)."""
    return popcount(mask & g.point_mask[1]) + 2 * popcount(mask & g.point_mask[2])


@flat_kernel(inline="always")
def from_power_of(g, card):
    """All positions of card's class order at or above its power's first position."""
    return ~((np.uint64(1) << np.uint64(g.eq_lo[card])) - np.uint64(1))


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
def quick_points(g, st, leader, sides):
    """(points, relevant cards): points the leader's side surely takes by cashing the leader's
    sure winners (DDS's "quick tricks", simplified): first its trumps no other player can
    beat, which every other seat holding trumps must follow; then, if that leaves no other
    seat a trump, its side cards no other player can beat.  Each such trick also brings a
    card of every other seat (followed_points), and the trick bonus.  The relevant cards are
    the highest other card of each class that gave winners: wherever they stay on top the
    count is at least as high (the counts of each seat's cards per class are the table
    key's).  Side winners while another seat keeps a trump, cashed as often as every such
    seat must follow (DDS's rule), gained nothing on top of this and cost nodes (docs/solver.md).
    sides=False counts the trump winners alone, whose relevant cards are fewer."""
    mine = st.hands[leader]
    others = remaining(g, st) & ~mine
    win = np.uint64(0)
    rel = np.uint64(0)
    cashed = 0  # trump winners: rounds of trumps every other seat must follow while it can
    ruff = False  # another seat keeps a trump after them: it could ruff or overtake a side winner
    if g.trump_class >= 0:
        tmask = g.class_mask[g.trump_class]
        other_trumps = others & tmask
        win = mine & tmask
        if other_trumps:
            h = highest(other_trumps)
            win &= from_power_of(g, h)  # led first, an equal power wins
            if win:
                rel |= np.uint64(1) << np.uint64(h)
        cashed = popcount(win)
        for s in range(g.n):
            if s != leader and popcount(st.hands[s] & tmask) > cashed:
                ruff = True
    rounds = cashed << (5 * max(g.trump_class, 0))  # per class, 5 bits: the rounds led in it
    if sides and not ruff:
        for k in range(MAX_CLASSES):
            mk = mine & g.class_mask[k]
            if k == g.trump_class or not mk:
                continue
            ok = others & g.class_mask[k]
            wk = mk
            if ok:
                h = highest(ok)
                wk = mk & from_power_of(g, h)
                if wk:
                    rel |= np.uint64(1) << np.uint64(h)
            win |= wk
            rounds |= popcount(wk) << (5 * k)
    q = popcount(win)
    if q == 0:
        return 0, rel
    return at_least_points(g, win) + followed_points(g, st, leader, q, rounds) + q * g.trick_bonus, rel


@flat_kernel(inline="always")
def sure_decides(maximising, sure, need, avail):
    """(decided?, result, bound): what a side sure of `sure` of the `avail` points left
    proves about "can the maximising team take `need`?" (maximising: the side is that team)."""
    if maximising:
        return need <= sure, True, sure
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
def top_trump_points(g, st, leader):
    """(seat, points, relevant cards): a seat other than the leader holding trumps that beat
    every other player's trumps wins a trick with each of them whenever it plays it, so its
    side surely takes their points, every other seat's cheapest cards and the trick bonuses;
    (-1, 0, 0) if none.  Relevant: the highest trump of the other seats."""
    if g.trump_class < 0:
        return -1, 0, np.uint64(0)
    tmask = g.class_mask[g.trump_class]
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
    return h, at_least_points(g, win) + cheapest_points(g, st, h, q) + q * g.trick_bonus, rel


@flat_kernel
def rank_of(rem, card):
    """Position of `card` among the set bits of rem."""
    return popcount(rem & ((np.uint64(1) << np.uint64(card)) - np.uint64(1)))


@flat_kernel(inline="always")
def beats(g, card, best, led_class):
    k = g.klass[card]
    return (k == led_class or k == g.trump_class) and g.power[card] > g.power[best]


@flat_kernel
def trick_winner_pos(g, line, start, count):
    """Position in the trick line[start:start+count] of its winning card (first played wins ties)."""
    led_class = g.klass[line[start]]
    best = 0
    for j in range(1, count):
        if beats(g, line[start + j], line[start + best], led_class):
            best = j
    return best


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
def finish_trick(g, line, start, leader):
    """(winning seat, points incl. the trick bonus) of the full trick line[start:start+n]."""
    n = g.n
    w = leader + trick_winner_pos(g, line, start, n)
    if w >= n:
        w -= n
    pts = g.trick_bonus
    for j in range(start, start + n):
        pts += g.points[line[j]]
    return w, pts


@flat_kernel
def mask_points(g, mask):
    total = 0
    m = mask
    while m:
        total += g.points[lowest(m)]
        m = drop_lowest(m)
    return total


@flat_kernel(inline="always")
def span(a, b):
    """Bits a..b inclusive (a <= b)."""
    return ((np.uint64(2) << np.uint64(b)) - np.uint64(1)) & ~((np.uint64(1) << np.uint64(a)) - np.uint64(1))


@flat_kernel(inline="always")
def playable_top(g, st, s, led_class):
    """The highest card seat s may play that could win a trick led in led_class (the highest
    of that class if it holds one, else its highest trump), or -1."""
    h = st.hands[s] & g.class_mask[led_class]
    if not h and g.trump_class >= 0:
        h = st.hands[s] & g.class_mask[g.trump_class]
    return highest(h) if h else -1


@flat_kernel
def trick_owner_keen(g, st, seat, k, c, win_card, ws, led_class):
    """Once `seat` plays c to the trick (k cards played, the best of them win_card, by seat
    ws), is the team that wins it settled, whatever the seats after it hold?  Then +1 if it
    is seat's team, -1 if not (else 0): of the cards grouped with c (gen_moves) the mover
    then plays the one of most (fewest) points, as the same trick goes to the same team
    either way and the cards it keeps are equivalent later on."""
    top, w = c, seat
    if k > 0:
        led = led_class
        if not beats(g, c, win_card, led_class):
            top, w = win_card, ws
    else:
        led = g.klass[c]
    s = seat
    for _ in range(k + 1, g.n):
        s = s + 1 if s + 1 < g.n else 0
        if g.team[s] == g.team[w]:
            continue
        y = playable_top(g, st, s, led)
        if y >= 0 and beats(g, y, top, led):
            return 0
    return 1 if g.team[w] == g.team[seat] else -1


@flat_kernel(inline="always")
def side_takes_later(g, st, seat, k, win_card, led_class, side):
    """Does a seat of team `side` still to play the trick after `seat` (k cards played, the
    best win_card) hold a card that takes it whatever the other team's seats from `seat` on
    put on it?  (It may still choose not to: this orders moves, it settles nothing.)"""
    n = g.n
    s = seat
    for _ in range(k + 1, n):
        s = s + 1 if s + 1 < n else 0
        if g.team[s] != side:
            continue
        x = playable_top(g, st, s, led_class)
        if x < 0 or not beats(g, x, win_card, led_class):
            continue
        safe = True
        o = seat
        for _ in range(k, n):
            if g.team[o] != side:
                y = playable_top(g, st, o, led_class)
                if y >= 0 and not beats(g, x, y, led_class):  # an equal power played first wins
                    safe = False
                    break
            o = o + 1 if o + 1 < n else 0
        if safe:
            return True
    return False


@flat_kernel(inline="always")
def legal_cards(g, hand, line, t0, k):
    """The cards of `hand` that may go to the trick line[t0: t0 + k]: the led class's, if it holds any."""
    if k > 0:
        follow = hand & g.class_mask[g.klass[line[t0]]]
        if follow:
            return follow
    return hand


@flat_kernel(inline="always")
def gen_moves(g, st, seat, leader, k, ply, tt_best):
    """Fill st.moves[ply] with one card per group of interchangeable legal cards, best first."""
    n = g.n
    hands, line = st.hands, st.line
    t0 = ply - k  # the current trick is line[t0: ply]
    hand = hands[seat]
    legal = legal_cards(g, hand, line, t0, k)
    led_class = g.klass[line[t0]] if k > 0 else -1
    win_card = -1
    others = remaining(g, st) & ~hand
    win_pos = 0
    trick_pts = 0
    if k > 0:
        win_pos = trick_winner_pos(g, line, t0, k)
        win_card = line[t0 + win_pos]
        # of the trick's cards only the winning one can part two of the mover's: the rest
        # lose to it whatever the mover plays, and leave with the trick
        others |= np.uint64(1) << np.uint64(win_card)
        for j in range(t0, ply):
            trick_pts += g.points[line[j]]
    ws = leader + win_pos
    if ws >= n:
        ws -= n
    # the mover's team has the trick, or a later teammate can surely take it: points onto it,
    # unless a later opponent can surely take it from the mover's team: then cheap cards
    mine = g.team[seat]
    mate_winning = k > 0 and (g.team[ws] == mine or side_takes_later(g, st, seat, k, win_card, led_class, mine))
    lost = k > 0 and g.team[ws] == mine and side_takes_later(g, st, seat, k, win_card, led_class, 1 - mine)
    ruffed = 0  # leading: classes in which an opponent is void and holds a trump
    if k == 0 and g.trump_class >= 0:
        tmask = g.class_mask[g.trump_class]
        for s in range(n):
            if g.team[s] != g.team[seat] and hands[s] & tmask:
                for kk in range(MAX_CLASSES):
                    if kk != g.trump_class and not (hands[s] & g.class_mask[kk]):
                        ruffed |= 1 << kk
    count = 0
    prev = -1
    rep = -1
    keen = 0  # the group's points preference: +1 the most, -1 the fewest, 0 equal points only
    m = legal
    while m:
        c = lowest(m)
        m = drop_lowest(m)
        if (
            prev >= 0
            and g.klass[c] == g.klass[prev]
            and (keen != 0 or g.points[c] == g.points[prev])
            and (g.power[c] == g.power[prev] or not (others & span(g.eq_lo[prev], g.eq_hi[c])))
        ):
            prev = c
            for i in range(count):  # c is tried as its group's representative
                if st.moves[ply, i] == rep:
                    st.groups[ply, i] |= np.uint64(1) << np.uint64(c)
                    if keen * (g.points[c] - g.points[rep]) > 0:
                        st.moves[ply, i] = c
                        rep = c
                    break
            continue
        prev = c
        rep = c
        keen = trick_owner_keen(g, st, seat, k, c, win_card, ws, led_class)
        pts = g.points[c]
        if k == 0:
            higher = others & g.class_mask[g.klass[c]] & ~((np.uint64(2) << np.uint64(c)) - np.uint64(1))
            score = 1000 + 10 * pts if not higher and not (ruffed >> g.klass[c]) & 1 else -10 * pts - g.power[c]
            if higher and not (ruffed >> g.klass[c]) & 1 and g.team[st.owner[highest(higher)]] == g.team[seat]:
                score += 500  # a lead to a partner's top card
            # DDS's lead rule: prefer the class whose replies make the smallest tree (the
            # product of the opponents' choices; a void one may play any card), scaled to
            # two opponents as in bridge (its 2/opps power): with three or four, the raw
            # product swamped the lead's other merits
            replies = 1
            opps = 0
            for s in range(n):
                if g.team[s] != g.team[seat]:
                    h = hands[s] & g.class_mask[g.klass[c]]
                    replies *= popcount(h if h else hands[s])
                    opps += 1
            score -= np.int64(REPLY_W * replies ** (2.0 / opps))
        elif keen > 0:  # the trick surely goes to the mover's team: the dearest, lowest card
            score = 2000 + 10 * pts - g.power[c]
        elif keen < 0 or lost:  # it goes (or a later opponent can take it) to the others:
            score = -20 * pts - g.power[c]  # the cheapest, lowest card
        elif mate_winning:
            score = 20 * pts - (5 if beats(g, c, win_card, led_class) else 0)
        elif beats(g, c, win_card, led_class):
            score = 500 + 10 * (trick_pts + pts) - g.power[c]
        else:
            score = -20 * pts - g.power[c]
        if c == tt_best:
            score += 100000
        # insertion into the sorted list (descending score)
        i = count
        while i > 0 and st.scores[ply, i - 1] < score:
            st.moves[ply, i] = st.moves[ply, i - 1]
            st.scores[ply, i] = st.scores[ply, i - 1]
            st.groups[ply, i] = st.groups[ply, i - 1]
            i -= 1
        st.moves[ply, i] = c
        st.scores[ply, i] = score
        st.groups[ply, i] = np.uint64(1) << np.uint64(c)
        count += 1
    return count


@flat_kernel(inline="always")
def _store_result(g, tt, st, d, bound, result, best, rel):
    """Record what frame d (a trick boundary) proved, for every position that agrees with it
    on the cards from each class's lowest relevant card up (`rel`; keys in st.words[d], st.key[d],
    st.points[d])."""
    rem = remaining(g, st)
    rank = rank_of(rem, best) if best >= 0 else -1
    work = highest(np.uint64(st.stats[0] - st.frames[d, F_NODES]) | np.uint64(1))  # log2 of its nodes
    mask, covered, deep = top_mask(g, rem, rel)
    tops = np.uint64(st.frames[d, F_TOPS])
    if result:
        store(tt, st.key[d], tops, covered, deep, st.points[d], st.words[d], mask, bound, NO_BOUND_HI, rank, work)
    else:
        store(tt, st.key[d], tops, covered, deep, st.points[d], st.words[d], mask, 0, bound, rank, work)


@flat_kernel(inline="always")
def _play(g, st, d, ply):
    """Play frame d's current move and set up frame d+1 for the position after it."""
    n = g.n
    fr = st.frames
    seat, leader, k = fr[d, F_SEAT], fr[d, F_LEADER], fr[d, F_K]
    c = st.moves[ply + d, fr[d, F_IDX]]
    st.hands[seat] ^= np.uint64(1) << np.uint64(c)
    st.line[ply + d] = c
    need, avail = fr[d, F_NEED], fr[d, F_AVAIL]
    st.trel[d + 1] = 0
    if k + 1 == n:
        st.stats[1] += 1
        start = ply + d + 1 - n
        w, pts = finish_trick(g, st.line, start, leader)
        st.trel[d + 1] = trick_relevance(g, st.line, start, leader, w)
        leader, k, avail = w, 0, avail - pts
        if g.team[w]:
            need -= pts
    else:
        k += 1
    fr[d + 1, F_LEADER], fr[d + 1, F_K], fr[d + 1, F_NEED], fr[d + 1, F_AVAIL] = leader, k, need, avail
    fr[d + 1, F_DEADLINE] = fr[d, F_MOVE_DEADLINE]


@flat_kernel
def next_move(g, st, p, ply):
    """Advance frame p to the next move worth trying once its moves so far have all failed
    (st.scores[ply] then holds each tried move's bound); returns whether there is one.

    Swap a tried card t for an untried card c of the same class, both below the lowest
    card of their class that the proofs so far relied on (st.rel[p]): no comparison those
    proofs made changes, the same seats win the same tricks, and only the points of t and
    c change hands, so c's bound is t's moved by their difference.  If that still fails,
    c is not searched (DDS's "one small card per suit", here with points)."""
    fr = st.frames
    maximiser = g.team[fr[p, F_SEAT]]
    need = fr[p, F_NEED]
    i = fr[p, F_IDX] + 1
    count = fr[p, F_COUNT]
    while i < count:
        c = st.moves[ply, i]
        k = g.klass[c]
        r = st.rel[p] & g.class_mask[k]
        low = g.power[lowest(r)] if r else 1 << 30
        if g.power[c] >= low:
            break
        skip = False
        for j in range(i):
            t = st.moves[ply, j]
            if g.klass[t] != k or g.power[t] >= low:
                continue
            diff = abs(g.points[t] - g.points[c])
            bound = st.scores[ply, j] + diff if maximiser else st.scores[ply, j] - diff
            if (bound < need) if maximiser else (bound >= need):
                st.scores[ply, i] = bound
                fr[p, F_BOUND] = max(fr[p, F_BOUND], bound) if maximiser else min(fr[p, F_BOUND], bound)
                skip = True
                break
        if not skip:
            break
        i += 1
    fr[p, F_IDX] = i
    return i < count


@flat_kernel(inline="always")
def start_budget(st, d):
    """Set up frame d's moves to be searched: budgeted if the mover holds BUDGET_CARDS
    cards or more and has a choice."""
    fr = st.frames
    fr[d, F_IDX] = 0
    fr[d, F_MOVE_DEADLINE] = fr[d, F_DEADLINE]
    fr[d, F_PHASE] = PLAIN
    if popcount(st.hands[fr[d, F_SEAT]]) >= st.budget[0] and fr[d, F_COUNT] > 1:
        fr[d, F_PHASE] = FIRST
        fr[d, F_MOVE_DEADLINE] = min(fr[d, F_DEADLINE], st.stats[0] + st.budget[1])


@flat_kernel
def budget_next(st, p, ply):
    """Advance budgeted frame p (at ply) to its next move once the current one has failed or
    run out of budget; returns whether there is one.

    The first move has BUDGET_FIRST nodes.  Where it is wrong, and a later move is the one
    that settles the node, that later move is often far cheaper (in the first trick of a
    5-player auction deal, the failed first moves took 3 times the nodes of the moves that
    then succeeded).  So once the first move runs out, each other move gets BUDGET_OTHER
    nodes, and only then do the moves that ran out get all they need.  What a cut-short
    search proved on the way stays in the table, so resuming it redoes little.  (Raising
    the budgets round by round instead, 8 times each, searched more nodes than no budgets
    at all.)"""
    fr = st.frames
    count = fr[p, F_COUNT]
    i = fr[p, F_IDX] + 1
    if fr[p, F_PHASE] == FIRST:
        fr[p, F_PHASE] = OTHERS
    if fr[p, F_PHASE] == OTHERS:  # each move gets its status as it is tried, in order
        if i < count:
            fr[p, F_IDX] = i
            fr[p, F_MOVE_DEADLINE] = min(fr[p, F_DEADLINE], st.stats[0] + st.budget[2])
            return True
        fr[p, F_PHASE] = REST
        fr[p, F_MOVE_DEADLINE] = fr[p, F_DEADLINE]
        i = 0
    while i < count and st.status[ply, i] != RAN_OUT:
        i += 1
    fr[p, F_IDX] = i
    return i < count


@flat_kernel
def can_reach(g, tt, st, leader, k, need, avail, ply):
    """(can the maximising team still take `need` points from here?, the bound proven):
    avail = all points left.  The bound is fail-soft: a lower bound >= need on the points
    the team takes from here if it can, an upper bound < need if it cannot, often tighter
    than need itself (a quick-trick count, a table bound, a trick's points).

    Depth-first over an explicit stack of frames (numba cannot reliably cache a
    recursive function): frame d is the position at ply `ply + d`, the current
    trick being st.line[ply + d - k: ply + d].  Along with each result goes the set of
    cards whose rank it relied on (rr): a proof that a maximiser's (minimiser's) move
    works needs only that move's set, one that none works the union over all moves,
    and a trick's winner is relevant when it beat a card of its own class.  A frame
    entered past its deadline (a node count, budget_next) abandons its search: the stack
    unwinds to the frame whose move's budget ran out, storing nothing on the way.  Past
    st.limit[0] the whole search gives up the same way: it returns (False, -1) with the
    position as it found it and st.stats[3] = 1, and what it stored before holds.
    """
    n = g.n
    hands, fr = st.hands, st.frames
    fr[0, F_LEADER], fr[0, F_K], fr[0, F_NEED], fr[0, F_AVAIL] = leader, k, need, avail
    st.trel[0] = 0
    fr[0, F_DEADLINE] = st.limit[0]
    st.stats[3] = 0
    st.stats[4] += 1
    d = 0
    while True:
        if st.stats[0] > fr[d, F_DEADLINE]:
            if st.stats[0] > fr[0, F_DEADLINE]:  # past the limit: give up the whole search
                for p in range(d - 1, -1, -1):
                    hands[fr[p, F_SEAT]] ^= np.uint64(1) << np.uint64(st.moves[ply + p, fr[p, F_IDX]])
                st.stats[3] = 1
                return False, -1
            # out of budget: back to the outermost frame whose current move's budget ran out
            q = 0
            while fr[q + 1, F_DEADLINE] >= st.stats[0]:
                q += 1
            for p in range(d - 1, q - 1, -1):
                hands[fr[p, F_SEAT]] ^= np.uint64(1) << np.uint64(st.moves[ply + p, fr[p, F_IDX]])
            st.status[ply + q, fr[q, F_IDX]] = RAN_OUT
            st.stats[2] += 1
            budget_next(st, q, ply + q)  # the move that ran out is still to come
            _play(g, st, q, ply)
            d = q + 1
            continue
        # enter frame d: bounds, table, or expand
        leader, k, need, avail = fr[d, F_LEADER], fr[d, F_K], fr[d, F_NEED], fr[d, F_AVAIL]
        resolved = True
        rr = np.uint64(0)
        if need <= 0:
            r, rb = True, 0
        elif need > avail:
            r, rb = False, avail
        else:
            st.stats[0] += 1
            pause_point(st.control, st.stats[0])
            resolved = False
            tt_best = -1
            if k == 0 and popcount(hands[leader]) == 1:
                # the last trick plays itself: every seat has one card left
                base = ply + d
                seat = leader
                for j in range(n):
                    st.line[base + j] = lowest(hands[seat])
                    seat = seat + 1 if seat + 1 < n else 0
                w, pts = finish_trick(g, st.line, base, leader)
                rr = trick_relevance(g, st.line, base, leader, w)
                rb = pts if g.team[w] else 0
                r, resolved = rb >= need, True
            elif k == 0:
                sure, rel = quick_points(g, st, leader, True)
                resolved, r, rb = sure_decides(g.team[leader], sure, need, avail)
                if resolved:
                    rr = rel
                    if g.trump_class >= 0 and rel & ~g.class_mask[g.trump_class]:
                        # if the trump winners alone decide, the proof needs no side class's cards
                        t_sure, t_rel = quick_points(g, st, leader, False)
                        t_resolved, _, t_rb = sure_decides(g.team[leader], t_sure, need, avail)
                        if t_resolved:
                            rb, rr = t_rb, t_rel
                else:
                    holder, sure, rel = top_trump_points(g, st, leader)
                    if holder >= 0:
                        resolved, r, rb = sure_decides(g.team[holder], sure, need, avail)
                        rr = rel
            if k == 0 and not resolved:
                rem, tops = position_keys(g, st, leader, st.words[d], st.key[d], st.points[d])
                fr[d, F_TOPS] = tops
                found, bound, idx, hint = probe(tt, st.key[d], tops, st.points[d], st.words[d], need)
                if found >= 0:
                    r, rb, resolved = found == 1, bound, True
                    rr = top_cards(g, rem, top_mask_of(tt, idx))
                elif hint >= 0:
                    tt_best = nth_bit(rem, hint)
            if not resolved:
                seat = leader + k
                if seat >= n:
                    seat -= n
                fr[d, F_SEAT] = seat
                fr[d, F_NODES] = st.stats[0]
                fr[d, F_COUNT] = gen_moves(g, st, seat, leader, k, ply + d, tt_best)
                start_budget(st, d)
                fr[d, F_BOUND] = -NO_BOUND_HI if g.team[seat] else NO_BOUND_HI
                st.rel[d] = 0
                _play(g, st, d, ply)
                d += 1
                continue
        # frame d is resolved with r: unwind until a parent has another move to try
        while True:
            if d == 0:
                return r, rb
            p = d - 1
            seat = fr[p, F_SEAT]
            i = fr[p, F_IDX]
            c = st.moves[ply + p, i]
            hands[seat] ^= np.uint64(1) << np.uint64(c)
            rb += fr[p, F_NEED] - fr[d, F_NEED]  # the points the team took with the trick
            rr |= st.trel[d]
            if rr & st.groups[ply + p, i]:
                # the proof for c needed one of the cards c stands for: it covers them only
                # where all of them are on top
                rr |= st.groups[ply + p, i]
            maximiser = g.team[seat]
            if r != maximiser:
                # this move fails the mover: the node's bound is the best over its moves
                st.rel[p] |= rr
                fr[p, F_BOUND] = max(fr[p, F_BOUND], rb) if maximiser else min(fr[p, F_BOUND], rb)
                st.scores[ply + p, i] = rb
                phase = fr[p, F_PHASE]
                if phase == FIRST:  # the first move failed within its budget: no budgets
                    fr[p, F_PHASE] = phase = PLAIN
                    fr[p, F_MOVE_DEADLINE] = fr[p, F_DEADLINE]
                elif phase != PLAIN:
                    st.status[ply + p, i] = FAILED
                if next_move(g, st, p, ply + p) if phase == PLAIN else budget_next(st, p, ply + p):
                    _play(g, st, p, ply)
                    d = p + 1
                    break
                c = -1
                rr = st.rel[p]
                rb = fr[p, F_BOUND]
            if fr[p, F_K] == 0:
                _store_result(g, tt, st, p, rb, r, c, rr)
            d = p


@flat_kernel
def set_owners(g, st):
    """Record which seat holds each remaining card (cards never change hands)."""
    for s in range(g.n):
        m = st.hands[s]
        while m:
            st.owner[lowest(m)] = s
            m = drop_lowest(m)


@flat_kernel
def available(g, hands, line, k):
    """All points still to be won: remaining cards, the current trick's line[:k], and trick bonuses."""
    cards = 0
    pts = 0
    for s in range(g.n):
        cards += popcount(hands[s])
        pts += mask_points(g, hands[s])
    for j in range(k):
        pts += g.points[line[j]]
    return pts + g.trick_bonus * ((cards + k) // g.n)


@flat_kernel(inline="always")
def solve_bounds(g, tt, st, leader, k, first):
    """(lo, hi): the points the maximising team takes from here with best play by both sides
    lie in lo..hi; lo == hi, the exact value, unless a search gave up at st.limit[0].

    The position is st.hands (remaining cards per seat) and st.line[:k] (cards
    already played to the current trick, led by `leader`).  A binary search of null-window
    searches; `first` (if in 1..all points) is asked first, so that whether the team
    reaches it is known even when a later search gives up.
    """
    avail = available(g, st.hands, st.line, k)
    set_owners(g, st)
    lo, hi = 0, avail
    need = first if 0 < first <= avail else (avail + 1) // 2
    while lo < hi:
        r, bound = can_reach(g, tt, st, leader, k, need, avail, k)
        if st.stats[3]:
            break
        if r:
            lo = bound
        else:
            hi = bound
        need = (lo + hi + 1) // 2
    return lo, hi


@flat_kernel(inline="always")
def solve(g, tt, st, leader, k):
    """Exact value: points the maximising team takes from here with best play by both sides
    (solve_bounds with no limit)."""
    return solve_bounds(g, tt, st, leader, k, 0)[0]


@flat_kernel(inline="always")
def copy_line(src, dst, count):
    """dst[:count] = src[:count], element by element (a slice copy would need numba's allocator)."""
    for j in range(count):
        dst[j] = src[j]


@flat_kernel
def value_after(g, tt, st, leader, k, card):
    """Exact value of the position after the seat to move plays `card` (its points included)."""
    n = g.n
    seat = leader + k
    if seat >= n:
        seat -= n
    b = np.uint64(1) << np.uint64(card)
    st.hands[seat] ^= b
    st.line[k] = card
    copy_line(st.line, st.trick_save, k + 1)
    if k + 1 < n:
        v = solve(g, tt, st, leader, k + 1)
    else:
        w, pts = finish_trick(g, st.line, 0, leader)
        v = solve(g, tt, st, w, 0) + (pts if g.team[w] else 0)
        copy_line(st.trick_save, st.line, n)  # the search reused line: restore the trick
    st.hands[seat] ^= b
    return v


@flat_kernel(inline="always")
def keeps_value(g, tt, st, leader, k, card, value):
    """Does the seat to move keep the position's exact value `value` by playing `card`?

    One null-window search: a maximiser's card keeps it if the team can still
    reach `value`, a minimiser's if the team cannot reach `value + 1`.
    """
    n = g.n
    seat = leader + k
    if seat >= n:
        seat -= n
    maximiser = g.team[seat]
    b = np.uint64(1) << np.uint64(card)
    st.hands[seat] ^= b
    st.line[k] = card
    copy_line(st.line, st.trick_save, k + 1)
    nl, nk, gained = leader, k + 1, 0
    if nk == n:
        nl, pts = finish_trick(g, st.line, 0, leader)
        gained = pts if g.team[nl] else 0
        nk = 0
    avail = available(g, st.hands, st.line, nk)
    need = value - gained if maximiser else value + 1 - gained
    set_owners(g, st)
    r, _ = can_reach(g, tt, st, nl, nk, need, avail, nk)
    copy_line(st.trick_save, st.line, k + 1)  # the search may have reused line
    st.hands[seat] ^= b
    return r if maximiser else not r


@flat_kernel(inline="always")
def first_keeping_move(g, tt, st, leader, k, value, order):
    """The first legal card in `order` (all the game's cards, the most preferred first) that
    keeps `value`, or -1: one null-window search per candidate until one keeps it.  The
    choice depends on the position and `order` alone, not on the search's move order or on
    what the table holds, so work on the search's speed cannot change it."""
    seat = leader + k
    if seat >= g.n:
        seat -= g.n
    legal = legal_cards(g, st.hands[seat], st.line, 0, k)
    for c in order:
        if legal & (np.uint64(1) << np.uint64(c)) and keeps_value(g, tt, st, leader, k, c, value):
            return c
    return -1
