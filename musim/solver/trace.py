"""The search's trace and its oracle: tools for studying move ordering (benchmarks/ordering.py).

A tracing state (search.make_state(tracing=CAP)) records, at every node a move settled (a
maximiser's move that reached the need, a minimiser's that denied it) and at every node whose
moves all failed, the position at the node and what settled it: a row of `Trace.rec` (the R_
fields below) and the node's hands in `Trace.hands`.  `Trace.count` holds [records kept,
records dropped once the CAP rows were full, the fewest nodes a recorded node took].  An
oracle state (make_state(oracle=...), an oracle made by `make_oracle` from a finished search's
records) tries first, at each node the oracle knows, the move that settled that node in the
finished search, ahead of the table's best move: the replay, the search as a perfect ordering
would run it.

Both are fields of SearchState that are None in the normal state, where the hooks below compile
to nothing (as stats.tally does), so the search used everywhere else is the same code; a
tracing or oracle state gets a search compiled apart.
"""

from collections import namedtuple

import numpy as np
from numba import types
from numba.extending import overload

from musim.compile.jit import flat_kernel, kernel
from musim.solver.frame import F_AVAIL, F_COUNT, F_IDX, F_K, F_LEADER, F_LEAST, F_NEED, F_NODES, F_SEAT, F_TRUMP, F_WON
from musim.solver.layout import MAX_SEATS
from musim.solver.stats import S_NODES

(
    R_LEADER,  # the trick's leader at the node
    R_K,  # cards played to the trick (the trick is R_TRICK .. R_TRICK + k - 1)
    R_NEED,  # the points the maximising side needs from the node (search.can_reach)
    R_AVAIL,  # the most and the least it can still take (frame.F_AVAIL, F_LEAST)
    R_LEAST,
    R_WON,  # tricks the maximising side has won since the position loaded (frame.F_WON)
    R_TRUMP,  # the trump in force (-1: none)
    R_SEAT,  # the seat to move
    R_CARD,  # the cutting move's card (canonical layout; -1: every move failed)
    R_NAMED,  # the class it names (a namer card), else -1
    R_INDEX,  # its index in the move list gen_moves made (0: first; -1: every move failed)
    R_COUNT,  # the moves in that list
    R_NODES,  # the nodes the node took, itself included
    R_WASTE,  # of them, the nodes spent before the cutting move's last start (all but the
    # node itself if every move failed; a move cut short by its budget and resumed counts from its resumption)
    R_CUT,  # 1 if a move settled the node, 0 if every move failed
    R_FIRST,  # the card of the move tried first
    R_TRICK,  # MAX_SEATS fields: the trick's cards in play order, -1 beyond k
) = range(17)
R_FIELDS = R_TRICK + MAX_SEATS

R_NAMES = [
    "leader",
    "k",
    "need",
    "avail",
    "least",
    "won",
    "trump",
    "seat",
    "card",
    "named",
    "index",
    "count",
    "nodes",
    "waste",
    "cut",
    "first",
]
R_NAMES += [f"trick{m}" for m in range(MAX_SEATS)]

Trace = namedtuple("Trace", "rec hands count start")
# start[d]: the node count when frame d's current move was (last) started
Oracle = namedtuple("Oracle", "keys cards names")
# open addressing, linear probing; keys[i] == 0: empty slot (node_hash is never 0)


def make_trace(cap, frames, min_nodes=1):
    """A trace of room for `cap` records, of a search of up to `frames` frames, that records only
    nodes of `min_nodes` nodes or more (2: not those whose first move settled them at once, with
    no node below, where no ordering can do better: about a third of the nodes)."""
    return Trace(
        rec=np.zeros((cap, R_FIELDS), np.int64),
        hands=np.zeros((cap, MAX_SEATS), np.uint64),
        count=np.array([0, 0, min_nodes], np.int64),
        start=np.zeros(frames, np.int64),
    )


def clear_trace(trace):
    """Forget a trace's records (keeping its min_nodes)."""
    trace.count[:2] = 0


def records(trace):
    """(rec, hands) of the records a trace kept."""
    n = int(trace.count[0])
    return trace.rec[:n], trace.hands[:n]


_MIX = np.uint64(0x9E3779B97F4A7C15)


@flat_kernel(inline="always")
def _mix(h, x):
    """h folded with word x (splitmix64's finaliser)."""
    z = (h ^ x) * _MIX
    z ^= z >> np.uint64(31)
    z *= np.uint64(0xBF58476D1CE4E5B9)
    return z ^ (z >> np.uint64(29))


@flat_kernel(inline="always")
def node_hash(hands, line, t0, leader, k, need, trump, won):
    """A 64-bit key of a node (never 0): the hands, the leader and the trick line[t0: t0 + k], the
    need, the trump in force and the tricks won, all that decides whether the need is reachable.
    All MAX_SEATS hands: the seats a game lacks must be 0 (the callers clear them)."""
    h = np.uint64(len(hands))
    for s in range(len(hands)):
        h = _mix(h, hands[s])
    h = _mix(h, np.uint64(leader * 64 + k))
    for j in range(k):
        h = _mix(h, np.uint64(line[t0 + j]))
    h = _mix(h, np.uint64((need + (1 << 20)) * 1024 + (trump + 1) * 64 + won))
    return h if h else np.uint64(1)


def move_started(trace, d, nodes):
    """trace.start[d] = nodes; nothing where trace is None."""


@overload(move_started, inline="always")
def _move_started(trace, d, nodes):
    if isinstance(trace, types.NoneType):
        return lambda trace, d, nodes: None

    def note(trace, d, nodes):
        trace.start[d] = nodes

    return note


@flat_kernel
def _write(trace, st, j, p, ply, cut):
    """Write frame p's record into row j (a call, not inlined: only a tracing search makes it)."""
    fr, rec = st.frames, trace.rec
    for s in range(MAX_SEATS):
        trace.hands[j, s] = st.hands[s]
    k = fr[p, F_K]
    rec[j, R_LEADER], rec[j, R_K], rec[j, R_NEED] = fr[p, F_LEADER], k, fr[p, F_NEED]
    rec[j, R_AVAIL], rec[j, R_LEAST], rec[j, R_WON] = fr[p, F_AVAIL], fr[p, F_LEAST], fr[p, F_WON]
    rec[j, R_TRUMP], rec[j, R_SEAT], rec[j, R_COUNT] = fr[p, F_TRUMP], fr[p, F_SEAT], fr[p, F_COUNT]
    i = fr[p, F_IDX]
    rec[j, R_NODES] = st.stats[S_NODES] - fr[p, F_NODES] + 1
    rec[j, R_CUT] = cut
    rec[j, R_FIRST] = st.moves[ply + p, 0]
    if cut:
        rec[j, R_CARD], rec[j, R_NAMED], rec[j, R_INDEX] = st.moves[ply + p, i], st.names[ply + p, i], i
        rec[j, R_WASTE] = trace.start[p] - fr[p, F_NODES]
    else:
        rec[j, R_CARD], rec[j, R_NAMED], rec[j, R_INDEX] = -1, -1, -1
        rec[j, R_WASTE] = st.stats[S_NODES] - fr[p, F_NODES]
    t0 = ply + p - k
    for m in range(MAX_SEATS):
        rec[j, R_TRICK + m] = st.line[t0 + m] if m < k else -1


def record_node(trace, st, p, ply, cut):
    """Record frame p (its current move settled it if `cut`, else every move failed); nothing where
    trace is None."""


@overload(record_node, inline="always")
def _record_node(trace, st, p, ply, cut):
    if isinstance(trace, types.NoneType):
        return lambda trace, st, p, ply, cut: None

    def record(trace, st, p, ply, cut):
        j = trace.count[0]
        if st.stats[S_NODES] - st.frames[p, F_NODES] + 1 < trace.count[2]:
            pass
        elif j >= trace.rec.shape[0]:
            trace.count[1] += 1
        else:
            trace.count[0] = j + 1
            _write(trace, st, j, p, ply, cut)

    return record


@kernel
def fill_oracle(oracle, rec, hands):
    """Put every cut record's (card, named) into the oracle under its node's key (a later record
    of the same key replaces an earlier: either settles the node)."""
    mask = len(oracle.keys) - 1
    for j in range(rec.shape[0]):
        if not rec[j, R_CUT]:
            continue
        h = node_hash(
            hands[j], rec[j, R_TRICK:], 0, rec[j, R_LEADER], rec[j, R_K], rec[j, R_NEED], rec[j, R_TRUMP], rec[j, R_WON]
        )
        i = np.int64(h & np.uint64(mask))
        while oracle.keys[i] != 0 and oracle.keys[i] != h:
            i = (i + 1) & mask
        oracle.keys[i] = h
        oracle.cards[i] = rec[j, R_CARD]
        oracle.names[i] = rec[j, R_NAMED]


def make_oracle(rec, hands):
    """The oracle of a finished traced search's records (records(trace)): a table of at least
    twice as many slots as cut records."""
    size = 16
    while size < 2 * max(int(rec[:, R_CUT].sum()), 1):
        size *= 2
    oracle = Oracle(np.zeros(size, np.uint64), np.full(size, -1, np.int64), np.full(size, -1, np.int64))
    fill_oracle(oracle, rec, hands)
    return oracle


@flat_kernel(inline="always")
def _to_front(st, q, m):
    """Move st's move m of ply q to the front of the list, the moves before it one place down."""
    mv, nm, sc, gr = st.moves[q, m], st.names[q, m], st.scores[q, m], st.groups[q, m]
    for x in range(m, 0, -1):
        st.moves[q, x] = st.moves[q, x - 1]
        st.names[q, x] = st.names[q, x - 1]
        st.scores[q, x] = st.scores[q, x - 1]
        st.groups[q, x] = st.groups[q, x - 1]
    st.moves[q, 0], st.names[q, 0], st.scores[q, 0], st.groups[q, 0] = mv, nm, sc, gr


def oracle_first(oracle, st, d, ply, leader, k, need, trump, won):
    """Move the oracle's move for frame d's node (if it knows the node and the move is in the
    list) to the front of st.moves[ply + d]; nothing where oracle is None."""


@overload(oracle_first, inline="always")
def _oracle_first(oracle, st, d, ply, leader, k, need, trump, won):
    if isinstance(oracle, types.NoneType):
        return lambda oracle, st, d, ply, leader, k, need, trump, won: None

    def first(oracle, st, d, ply, leader, k, need, trump, won):
        q = ply + d
        h = node_hash(st.hands, st.line, q - k, leader, k, need, trump, won)
        mask = len(oracle.keys) - 1
        i = np.int64(h & np.uint64(mask))
        while oracle.keys[i] != 0 and oracle.keys[i] != h:
            i = (i + 1) & mask
        m = st.frames[d, F_COUNT] if oracle.keys[i] else 0
        if m:  # find the oracle's move, if listed (its card may stand for a group: find the group)
            bit = np.uint64(1) << np.uint64(oracle.cards[i])
            m = 0
            while m < st.frames[d, F_COUNT] and not ((st.groups[q, m] & bit) and st.names[q, m] == oracle.names[i]):
                m += 1
            if m < st.frames[d, F_COUNT]:
                _to_front(st, q, m)

    return first
