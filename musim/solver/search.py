"""Double-dummy search: the boolean null-window search on an explicit stack.

`can_reach(need)` answers "can the maximising team still take `need` points from
here?" with alpha-beta logic on a boolean (DDS's approach): a maximiser's move
that reaches it, or a minimiser's move that denies it, ends the node.  Points
still available bound it from both sides, and a transposition table at trick
boundaries stores proven bounds, so the binary search over `need` that
`solve` runs reuses most of the work of its earlier iterations.  Each result
carries the set of cards whose rank it relied on, so a table entry covers every
position that agrees on the cards from those down (partition search, tt.py).

The search's parts live beside it: the trick rules in trick.py, the table keys in keys.py
(the table in tt.py), the bounds that decide a node unsearched in bounds.py, move
generation, ordering and budgets in moves.py, and the values built from searches in
solve.py.  No allocation happens inside the search: all scratch lives in a `SearchState`
made once.  The helpers called at every node are inlined (inline="always"), wherever they
live: a call passes each array of the game, state and table tuples by value, some 200
words pushed per call, which took a third of the time per node.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import drop_lowest, highest, lowest, nth_bit, popcount
from musim.solver.bounds import quick_points, sole_trump_points, sure_decides, top_trump_points
from musim.solver.frame import (
    F_AVAIL,
    F_BOUND,
    F_COUNT,
    F_DEADLINE,
    F_IDX,
    F_K,
    F_LEADER,
    F_LEAST,
    F_MOVE_DEADLINE,
    F_NEED,
    F_NODES,
    F_PHASE,
    F_SEAT,
    F_TOPS,
    F_TRUMP,
    F_WON,
    FRAME_FIELDS,
)
from musim.solver.keys import position_keys, rank_of, top_cards, top_mask
from musim.solver.layout import MAX_CLASSES, MAX_SEATS
from musim.solver.moves import (
    BUDGET_CARDS,
    BUDGET_FIRST,
    BUDGET_OTHER,
    FAILED,
    FIRST,
    PLAIN,
    RAN_OUT,
    budget_next,
    gen_moves,
    next_move,
    start_budget,
)
from musim.solver.ordering import N_FEATURES
from musim.solver.stats import (
    C_ALL_FAILED,
    C_FIRST_MOVE,
    C_LAST_TRICK,
    C_LATER_MOVE,
    C_QUICK,
    C_TOP_TRUMP,
    C_TRIVIAL,
    C_TT_HITS,
    C_TT_PROBES,
    N_COUNTS,
    N_STATS,
    S_BUDGET_CUTS,
    S_GAVE_UP,
    S_NODES,
    S_SEARCHES,
    S_TRICKS,
    tally,
)
from musim.solver.trace import make_trace, move_started, oracle_first, record_node
from musim.solver.trick import finish_trick, is_namer, mask_points, remaining, trick_relevance
from musim.solver.tt import KEY_WORDS, POINTS_WORDS, SEG_FIELDS, TOP_WORDS, probe, store, top_mask_of

MAX_PLY = 64
NO_BOUND_HI = 32000
NO_DEADLINE = 1 << 62

SearchState = namedtuple(
    "SearchState",
    "hands owner line trick_save moves names groups scores status frames words key points segs rel trel stats budget "
    "counts limit won trump feat trace oracle",
)
# owner[c] = the seat holding card c; line[p] = the card played at ply p (the current
# trick is line[ply - k: ply]); moves/names/groups/scores: each ply's moves (a card, and the
# class a namer card names: layout.SolverGame.namers), the interchangeable
# cards each stands for, and their order scores, replaced by their bounds once they
# fail (next_move); status: whether each tried move of a budgeted frame failed or ran
# out of budget (budget_next); frames: the explicit search stack, with each frame's keys
# (words, key, points; segs, of the last keys made: keys.position_keys), the cards whose rank
# its proof needed so far (rel) and those the trick completed on entering it needed (trel);
# stats, counts: the search's counters (stats.py; counts is None unless the state was made to
# count); limit[0]: the node count at which a search gives up (NO_DEADLINE, or a caller's limit
# on a search that may take hours); budget: BUDGET_CARDS, BUDGET_FIRST, BUDGET_OTHER (tests
# shrink them); won[0]: the tricks the maximising side has won since the
# position it was loaded with (layout.SolverGame.count_bonus; solve.play_card moves it); trump[0]:
# the trump in force at that position in a game whose namers change it (trump_in_force); feat:
# a move's features as gen_moves scores it (ordering.py); trace, oracle: None unless the state
# was made to record the search's cuts or to replay them (trace.py)


def make_state(counting=False, tracing=0, oracle=None, min_nodes=1):
    """Scratch for searches; counting: keep st.counts (stats.py); tracing: record up to that many
    nodes' cuts, of nodes of min_nodes nodes or more (trace.py); oracle: try its moves first
    (trace.make_oracle).  Each in a search compiled apart."""
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
        segs=z(SEG_FIELDS, np.int64),
        rel=z(MAX_PLY + 2, np.uint64),
        trel=z(MAX_PLY + 2, np.uint64),
        moves=z((MAX_PLY + 1, 64), np.int64),
        names=z((MAX_PLY + 1, 64), np.int64),
        groups=z((MAX_PLY + 1, 64), np.uint64),
        scores=z((MAX_PLY + 1, 64), np.int64),
        status=z((MAX_PLY + 1, 64), np.int8),
        stats=z(N_STATS, np.int64),
        counts=z(N_COUNTS, np.int64) if counting else None,
        budget=np.array([BUDGET_CARDS, BUDGET_FIRST, BUDGET_OTHER]),
        limit=np.array([NO_DEADLINE]),
        won=z(1, np.int64),
        trump=np.full(1, -1, np.int64),
        feat=z(N_FEATURES, np.int64),
        trace=make_trace(tracing, MAX_PLY + 2, min_nodes) if tracing else None,
        oracle=oracle,
    )


@flat_kernel(inline="always")
def trump_in_force(g, st):
    """The trump in force at the position st holds: the game's, or in a game whose namers change
    it, st.trump[0]."""
    return st.trump[0] if g.namers else g.trump_class


@flat_kernel(inline="always")
def settle_trump(g, st, trump):
    """The trump after a trick, as the search keys it: in a game whose namers change it, a trump
    of which no card is left decides as no trump does (one table entry for both)."""
    if g.namers and trump >= 0 and not (remaining(g, st) & g.class_mask[trump]):
        return -1
    return trump


@flat_kernel(inline="always")
def _store_result(g, tt, st, d, bound, result, best, rel):
    """Record what frame d (a trick boundary) proved, for every position that agrees with it
    on the cards from each class's lowest relevant card up (`rel`; keys in st.words[d], st.key[d],
    st.points[d]).  Who holds each namer card is always relevant: a proof may rest on a seat's
    power to change the trump, which no comparison of ranks records."""
    rem = remaining(g, st)
    rel |= g.namers
    rank = rank_of(rem, best) if best >= 0 else -1
    work = highest(np.uint64(st.stats[S_NODES] - st.frames[d, F_NODES]) | np.uint64(1))  # log2 of its nodes
    mask, covered, deep = top_mask(g, rem, rel)
    tops = np.uint64(st.frames[d, F_TOPS])
    if result:
        store(tt, st.key[d], tops, covered, deep, st.points[d], st.words[d], mask, bound, NO_BOUND_HI, rank, work)
    else:
        store(tt, st.key[d], tops, covered, deep, st.points[d], st.words[d], mask, -NO_BOUND_HI, bound, rank, work)


@flat_kernel(inline="always")
def _play(g, st, d, ply):
    """Play frame d's current move and set up frame d+1 for the position after it."""
    n = g.n
    fr = st.frames
    seat, leader, k = fr[d, F_SEAT], fr[d, F_LEADER], fr[d, F_K]
    c = st.moves[ply + d, fr[d, F_IDX]]
    move_started(st.trace, d, st.stats[S_NODES])
    st.hands[seat] ^= np.uint64(1) << np.uint64(c)
    st.line[ply + d] = c
    need, avail, least, won = fr[d, F_NEED], fr[d, F_AVAIL], fr[d, F_LEAST], fr[d, F_WON]
    trump = st.names[ply + d, fr[d, F_IDX]] if is_namer(g, c) else fr[d, F_TRUMP]
    st.trel[d + 1] = 0
    if k + 1 == n:
        st.stats[S_TRICKS] += 1
        start = ply + d + 1 - n
        last = st.hands[seat] == 0
        w, pts, neg = finish_trick(g, st.line, start, leader, last, trump)
        trump = settle_trump(g, st, trump)
        st.trel[d + 1] = trick_relevance(g, st.line, start, leader, w)
        leader, k, avail, least = w, 0, avail - pts + neg, least - neg
        if g.team[w]:
            need -= pts
            won += 1
        if last:
            need -= g.count_bonus[won]
    else:
        k += 1
    fr[d + 1, F_LEADER], fr[d + 1, F_K], fr[d + 1, F_NEED], fr[d + 1, F_AVAIL] = leader, k, need, avail
    fr[d + 1, F_LEAST], fr[d + 1, F_WON], fr[d + 1, F_TRUMP] = least, won, trump
    fr[d + 1, F_DEADLINE] = fr[d, F_MOVE_DEADLINE]


@flat_kernel(inline="always")
def last_trick(g, st, base, leader, won, trump):
    """(the maximising side's points, the cards whose rank decided) of the last trick, every seat
    holding one card, played to st.line[base:]: it plays itself, but for the class the last namer
    card in it names, which that seat chooses for its side (every class is tried)."""
    n = g.n
    seat = leader
    chooser = -1
    for j in range(n):
        c = lowest(st.hands[seat])
        st.line[base + j] = c
        if is_namer(g, c):
            chooser = seat
        seat = seat + 1 if seat + 1 < n else 0
    best = 0
    first = True
    rr = np.uint64(0)
    for t in range(-1, MAX_CLASSES):
        if (t < 0) != (chooser < 0) or (t >= 0 and not g.class_mask[t]):
            continue
        w, pts, _ = finish_trick(g, st.line, base, leader, True, trump if t < 0 else t)
        rr |= trick_relevance(g, st.line, base, leader, w)
        v = (pts if g.team[w] else 0) + g.count_bonus[won + 1 if g.team[w] else won]
        if first or (v > best if g.team[chooser] else v < best):
            best = v
            first = False
    return best, rr


@flat_kernel(inline="always")
def _take_back(st, p, ply):
    """Take frame p's current move back into its mover's hand; returns its card."""
    c = st.moves[ply + p, st.frames[p, F_IDX]]
    st.hands[st.frames[p, F_SEAT]] ^= np.uint64(1) << np.uint64(c)
    return c


@flat_kernel(inline="always")
def _past_deadline(g, st, d, ply):
    """Abandon frame d, entered past its deadline, storing nothing.  Past st.limit[0] (frame 0's
    deadline) the whole search gives up: every move is taken back, st.stats[S_GAVE_UP] set, and
    -1 returned.  Else the stack unwinds to the outermost frame whose current move's budget ran
    out, marks that move RAN_OUT, plays the frame's next move (budget_next) and returns the frame
    after it, to enter next."""
    fr = st.frames
    gave_up = st.stats[S_NODES] > fr[0, F_DEADLINE]
    q = 0  # the outermost frame whose move's budget ran out (the search gives up: frame 0)
    while not gave_up and fr[q + 1, F_DEADLINE] >= st.stats[S_NODES]:
        q += 1
    for p in range(d - 1, q - 1, -1):
        _take_back(st, p, ply)
    if gave_up:
        st.stats[S_GAVE_UP] = 1
        return -1
    st.status[ply + q, fr[q, F_IDX]] = RAN_OUT
    st.stats[S_BUDGET_CUTS] += 1
    budget_next(st, q, ply + q)  # the move that ran out is still to come
    _play(g, st, q, ply)
    return q + 1


@flat_kernel(inline="always")
def _settle(g, tt, st, d, ply):
    """Frame d decided without searching its moves, where the points left, the last trick, the
    quick-trick and top-trump bounds or the table can: (decided, the result, its bound, the cards
    whose rank it relied on, the table's best move or -1).  The frame is a node unless the points
    left decide it."""
    n = g.n
    hands, fr = st.hands, st.frames
    leader, k, need, avail = fr[d, F_LEADER], fr[d, F_K], fr[d, F_NEED], fr[d, F_AVAIL]
    least = fr[d, F_LEAST]
    won = fr[d, F_WON]
    trump = fr[d, F_TRUMP]
    if g.counts_tricks:  # the bonus still to come, by the tricks the side may yet win
        left = popcount(hands[leader + k if leader + k < n else leader + k - n])
        least += g.bonus_range[0, won, left]
        avail += g.bonus_range[1, won, left]
    resolved = True
    rr = np.uint64(0)
    tt_best = -1
    if need <= least:
        r, rb = True, least
        tally(st.counts, C_TRIVIAL)
    elif need > avail:
        r, rb = False, avail
        tally(st.counts, C_TRIVIAL)
    else:
        st.stats[S_NODES] += 1
        resolved = False
        r, rb = False, 0
        # namers still held may change the trump: the bounds below assume it fixed
        fixed = not g.namers or not (remaining(g, st) & g.namers)
        if k == 0 and popcount(hands[leader]) == 1:
            rb, rr = last_trick(g, st, ply + d, leader, won, trump)
            r, resolved = rb >= need, True
            tally(st.counts, C_LAST_TRICK)
        elif k == 0 and fixed:
            sure, rel = quick_points(g, st, leader, True, trump)
            resolved, r, rb = sure_decides(g.team[leader], sure, need, least, avail)
            if resolved:
                tally(st.counts, C_QUICK)
                rr = rel
                if trump >= 0 and rel & ~g.class_mask[trump]:
                    # if the trump winners alone decide, the proof needs no side class's cards
                    t_sure, t_rel = quick_points(g, st, leader, False, trump)
                    t_resolved, _, t_rb = sure_decides(g.team[leader], t_sure, need, least, avail)
                    if t_resolved:
                        rb, rr = t_rb, t_rel
            else:
                holder, sure, rel = top_trump_points(g, st, leader, trump)
                if holder >= 0:
                    resolved, r, rb = sure_decides(g.team[holder], sure, need, least, avail)
                    rr = rel
                    if not resolved:
                        sure, rel = sole_trump_points(g, st, holder, trump)
                        resolved, r, rb = sure_decides(g.team[holder], sure, need, least, avail)
                        rr = rel
                    if resolved:
                        tally(st.counts, C_TOP_TRUMP)
        if k == 0 and not resolved:
            rem, tops = position_keys(g, st, leader, won, trump, st.words[d], st.key[d], st.points[d])
            fr[d, F_TOPS] = tops
            found, bound, idx, hint = probe(
                tt, st.key[d], tops, st.points[d], st.words[d], st.segs, need, g.free_points
            )
            tally(st.counts, C_TT_PROBES)
            if found >= 0:
                r, rb, resolved = found == 1, bound, True
                tally(st.counts, C_TT_HITS)
                rr = top_cards(g, rem, top_mask_of(tt, idx))
            elif hint >= 0:
                tt_best = nth_bit(rem, hint)
    return resolved, r, rb, rr, tt_best


@flat_kernel(inline="always")
def _expand(g, st, d, ply, tt_best):
    """Search frame d's moves: generate them (tt_best, the table's best move, first), set up the
    frame's bound, relied-on cards and budgets, and play the first."""
    fr = st.frames
    leader, k, trump = fr[d, F_LEADER], fr[d, F_K], fr[d, F_TRUMP]
    seat = leader + k
    if seat >= g.n:
        seat -= g.n
    fr[d, F_SEAT] = seat
    fr[d, F_NODES] = st.stats[S_NODES]
    fr[d, F_COUNT] = gen_moves(g, st, seat, leader, k, ply + d, tt_best, trump)
    oracle_first(st.oracle, st, d, ply, leader, k, fr[d, F_NEED], trump, fr[d, F_WON])
    start_budget(st, d)
    fr[d, F_BOUND] = -NO_BOUND_HI if g.team[seat] else NO_BOUND_HI
    st.rel[d] = 0
    _play(g, st, d, ply)


@flat_kernel(inline="always")
def _move_failed(g, st, p, ply, rb, rr):
    """Frame p's current move failed its mover, with bound rb, resting on the cards rr: fold them
    into the frame's bound (the best over its moves) and relied-on cards, and play its next move
    worth trying; returns whether there was one."""
    fr = st.frames
    i = fr[p, F_IDX]
    maximiser = g.team[fr[p, F_SEAT]]
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
        return True
    tally(st.counts, C_ALL_FAILED)
    record_node(st.trace, st, p, ply, 0)
    return False


@flat_kernel
def can_reach(g, tt, st, leader, k, need, avail, ply):
    """(can the maximising team still take `need` points from here?, the bound proven):
    avail = the most it can take (available).  The bound is fail-soft: a lower bound >= need on the points
    the team takes from here if it can, an upper bound < need if it cannot, often tighter
    than need itself (a quick-trick count, a table bound, a trick's points).

    Depth-first over an explicit stack of frames (numba cannot reliably cache a
    recursive function): frame d is the position at ply `ply + d`, the current
    trick being st.line[ply + d - k: ply + d].  A frame is settled unsearched where it can be
    (_settle: node evaluation apart from the search loop, as in DDS), else its moves are
    searched (_expand).  Along with each result goes the set of
    cards whose rank it relied on (rr): a proof that a maximiser's (minimiser's) move
    works needs only that move's set, one that none works the union over all moves,
    and a trick's winner is relevant when it beat a card of its own class.  A frame
    entered past its deadline (a node count, budget_next) abandons its search: the stack
    unwinds to the frame whose move's budget ran out, storing nothing on the way.  Past
    st.limit[0] the whole search gives up the same way: it returns (False, -1) with the
    position as it found it and st.stats[S_GAVE_UP] = 1, and what it stored before holds.
    """
    fr = st.frames
    fr[0, F_LEADER], fr[0, F_K], fr[0, F_NEED], fr[0, F_AVAIL] = leader, k, need, avail
    fr[0, F_LEAST] = point_range(g, st.hands, st.line, ply - k, k)[0]
    fr[0, F_WON] = st.won[0]
    fr[0, F_TRUMP] = trump_in_force(g, st)
    st.trel[0] = 0
    fr[0, F_DEADLINE] = st.limit[0]
    st.stats[S_GAVE_UP] = 0
    st.stats[S_SEARCHES] += 1
    d = 0
    while True:
        if st.stats[S_NODES] > fr[d, F_DEADLINE]:
            d = _past_deadline(g, st, d, ply)
            if d < 0:
                return False, -1
            continue
        resolved, r, rb, rr, tt_best = _settle(g, tt, st, d, ply)
        if not resolved:
            _expand(g, st, d, ply, tt_best)
            d += 1
            continue
        # frame d is resolved with r: unwind until a parent has another move to try
        while True:
            if d == 0:
                return r, rb
            p = d - 1
            i = fr[p, F_IDX]
            c = _take_back(st, p, ply)
            rb += fr[p, F_NEED] - fr[d, F_NEED]  # the points the team took with the trick
            rr |= st.trel[d]
            if rr & st.groups[ply + p, i]:
                # the proof for c needed one of the cards c stands for: it covers them only
                # where all of them are on top
                rr |= st.groups[ply + p, i]
            if r != g.team[fr[p, F_SEAT]]:
                if _move_failed(g, st, p, ply, rb, rr):
                    d = p + 1
                    break
                c, rr, rb = -1, st.rel[p], fr[p, F_BOUND]
            else:  # this move settles the node
                tally(st.counts, C_FIRST_MOVE if i == 0 else C_LATER_MOVE)
                record_node(st.trace, st, p, ply, 1)
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
def point_range(g, hands, line, start, k):
    """(least, most): the fewest and the most points the maximising side can still take: the
    negative and the positive points of the remaining cards, of the current trick's
    line[start:start+k] and of the tricks' bonuses."""
    cards = 0
    most = 0
    least = 0
    for s in range(g.n):
        cards += popcount(hands[s])
        pos, neg = mask_points(g, hands[s])
        most += pos
        least += neg
    for j in range(start, start + k):
        p = g.points[line[j]]
        most += max(p, 0)
        least += min(p, 0)
    bonus = g.trick_bonus * ((cards + k) // g.n) + g.end_bonus
    return least + min(bonus, 0), most + max(bonus, 0)


@flat_kernel
def available(g, hands, line, k):
    """The most points the maximising side can still take from a position whose trick is line[:k]
    (point_range): in a game of no negative points, all points left."""
    return point_range(g, hands, line, 0, k)[1]
