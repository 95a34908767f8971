"""Move ordering as data: each move's kind (its case) and features, scored by a weight table.

`moves.gen_moves` groups the mover's legal cards into moves; this module says how promising
each move is.  A move falls into one case, the first that holds of: a lead of a card no other
seat can beat in its class nor ruff (LEAD_SURE), another lead (LEAD), a card whose team
surely takes the trick (SURE_MINE), one whose trick surely goes, or a later opponent can
surely take, to the other team (CHEAP), a card onto a trick the mover's team holds or a later
teammate can surely take (MATE), a card that takes the trick for now (TAKE), the rest (DUCK).
Each case is split by the mover's side (the maximising team or not), and scored by its row of
a weight table (SolverGame.order) times the move's features (F_*).  HAND_ORDER is the ordering
issue 38 built by hand; the table of a game sits in its SolverGame, so a game may keep one
ordering and another game take another, and benchmarks compare them on the same code.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import highest, popcount

LEAD_SURE, LEAD, SURE_MINE, CHEAP, MATE, TAKE, DUCK = range(7)
N_KINDS = 7
N_CASES = 2 * N_KINDS  # case = kind + N_KINDS if the mover is on the maximising team

# the features of a move (card c): a constant, c's points and power, the points already on the
# trick, whether c takes the trick for now, whether a lead goes to a teammate's top card of its
# class, the lead's reply cost (REPLY_W per line of replies, scaled to two opponents), whether c
# is a trump, the mover's cards of c's class, the other seats' cards of it and those above c,
# whether the mover's team holds the class's top card, whether a teammate void in the class
# holds a trump (a lead it may ruff), the teammates and opponents still to play the trick, the
# cards on it, the mover's legal cards, where the need lies between the least and the most the
# maximising side can still take (per mille: order_slack), c's kind and the mover's side (1:
# maximising), c's score under the weight table (hand: the trees' input), and whether c is the
# table's best move of the position (table)
(F_ONE, F_PTS, F_POWER, F_TRICK_PTS, F_BEATS, F_TO_MATE, F_REPLIES, F_TRUMP, F_LEN, F_OUT, F_HIGHER) = range(11)
(F_SIDE_TOP, F_MATE_RUFF, F_MATES_AFTER, F_OPPS_AFTER, F_K, F_LEGAL, F_SLACK) = range(11, 18)
F_KIND, F_SIDE, F_HAND, F_TABLE = range(18, 22)
N_FEATURES = 22
FEATURE_NAMES = [
    "one",
    "pts",
    "power",
    "trick_pts",
    "beats",
    "to_mate",
    "replies",
    "trump",
    "len",
    "out",
    "higher",
    "side_top",
    "mate_ruff",
    "mates_after",
    "opps_after",
    "k",
    "legal",
    "slack",
    "kind",
    "side",
    "hand",
    "table",
]
KIND_NAMES = ("lead_sure", "lead", "sure_mine", "cheap", "mate", "take", "duck")

REPLY_W = 100  # a lead's penalty per line of replies to it, scaled to two opponents
TABLE_FIRST = 100000  # the table's best move: first


def _hand_order():
    """Issue 38's ordering: the table's best move first, then sure leads (dearest first), leads whose
    replies make the smallest tree, a lead to a teammate's top card; mid-trick, points onto a trick
    the team surely takes, cheap cards to one it loses, points onto a teammate's trick, cheap
    winners, then low discards.  The same for both sides."""
    w = np.zeros((N_CASES, N_FEATURES), np.int64)
    rows = {
        LEAD_SURE: {F_ONE: 1000, F_PTS: 10, F_TO_MATE: 500, F_REPLIES: -1},
        LEAD: {F_PTS: -10, F_POWER: -1, F_TO_MATE: 500, F_REPLIES: -1},
        SURE_MINE: {F_ONE: 2000, F_PTS: 10, F_POWER: -1},
        CHEAP: {F_PTS: -20, F_POWER: -1},
        MATE: {F_PTS: 20, F_BEATS: -5},
        TAKE: {F_ONE: 500, F_TRICK_PTS: 10, F_PTS: 10, F_POWER: -1},
        DUCK: {F_PTS: -20, F_POWER: -1},
    }
    for kind, row in rows.items():
        for f, v in (row | {F_TABLE: TABLE_FIRST}).items():
            w[kind, f] = w[kind + N_KINDS, f] = v
    return w


HAND_ORDER = _hand_order()
NO_TREES = np.zeros((0, 5), np.int64)  # a game ordered by its weight table alone
NO_ROOTS = np.zeros(0, np.int64)


@flat_kernel(inline="always")
def lead_replies(g, hands, seat, kk):
    """A lead of class kk's reply cost: REPLY_W times the product of the opponents' choices (a
    void one may play any card), scaled to two opponents (DDS's lead rule; with three or four
    opponents the raw product swamped the lead's other merits)."""
    replies = 1
    opps = 0
    for s in range(g.n):
        if g.team[s] != g.team[seat]:
            h = hands[s] & g.class_mask[kk]
            replies *= popcount(h if h else hands[s])
            opps += 1
    return np.int64(REPLY_W * replies ** (2.0 / opps))


@flat_kernel(inline="always")
def lead_features(g, st, seat, c, others, ruffed, x):
    """Fill x with lead c's features; returns its kind."""
    kk = g.klass[c]
    cls = g.class_mask[kk]
    higher = others & cls & ~((np.uint64(2) << np.uint64(c)) - np.uint64(1))
    open_class = not (ruffed >> kk) & 1
    x[F_TO_MATE] = 1 if higher and open_class and g.team[st.owner[highest(higher)]] == g.team[seat] else 0
    x[F_REPLIES] = lead_replies(g, st.hands, seat, kk)
    x[F_HIGHER] = popcount(higher)
    x[F_BEATS] = 0
    return LEAD_SURE if not higher and open_class else LEAD


@flat_kernel(inline="always")
def move_case(g, st, seat, k, c, keen, lost, mate_winning, beats_now, trick_pts, others, ruffed, trump, x):
    """Fill x with move c's features (keen: gen_moves' trick_owner_keen of c; lost, mate_winning:
    the trick's outlook for the mover's team; beats_now: c beats the trick's winning card);
    returns its case (kind, and the mover's side)."""
    kk = g.klass[c]
    cls = g.class_mask[kk]
    x[F_ONE] = 1
    x[F_PTS] = g.points[c]
    x[F_POWER] = g.power[c]
    x[F_TRICK_PTS] = trick_pts
    x[F_TRUMP] = 1 if kk == trump else 0
    x[F_LEN] = popcount(st.hands[seat] & cls)
    x[F_OUT] = popcount(others & cls)
    x[F_SIDE_TOP] = 1 if g.team[st.owner[highest((others | st.hands[seat]) & cls)]] == g.team[seat] else 0
    mates, opps, mate_ruff = 0, 0, 0
    s = seat
    for _ in range(k + 1, g.n):
        s = s + 1 if s + 1 < g.n else 0
        if g.team[s] == g.team[seat]:
            mates += 1
            if trump >= 0 and kk != trump and not (st.hands[s] & cls) and st.hands[s] & g.class_mask[trump]:
                mate_ruff = 1
        else:
            opps += 1
    x[F_MATES_AFTER], x[F_OPPS_AFTER], x[F_MATE_RUFF] = mates, opps, mate_ruff
    x[F_K] = k
    if k == 0:
        kind = lead_features(g, st, seat, c, others, ruffed, x)
    else:
        x[F_TO_MATE] = 0
        x[F_REPLIES] = 0
        x[F_HIGHER] = popcount(others & cls & ~((np.uint64(2) << np.uint64(c)) - np.uint64(1)))
        x[F_BEATS] = 1 if beats_now else 0
        if keen > 0:
            kind = SURE_MINE
        elif keen < 0 or lost:
            kind = CHEAP
        elif mate_winning:
            kind = MATE
        elif beats_now:
            kind = TAKE
        else:
            kind = DUCK
    x[F_KIND] = kind
    x[F_SIDE] = 1 if g.team[seat] else 0
    return kind + N_KINDS if g.team[seat] else kind


@flat_kernel(inline="always")
def order_slack(need, least, avail):
    """Where the need lies from the least to the most the maximising side can still take, per mille."""
    return (1000 * (need - least)) // max(avail - least, 1)


@flat_kernel(inline="always")
def tree_sum(trees, roots, x):
    """The sum of the trees' leaf values for features x: trees[i] = (feature, threshold, left,
    right, value), a leaf's feature -1; x[feature] <= threshold goes left."""
    s = 0
    for r in roots:
        i = r
        while trees[i, 0] >= 0:
            i = trees[i, 2] if x[trees[i, 0]] <= trees[i, 1] else trees[i, 3]
        s += trees[i, 4]
    return s


@flat_kernel(inline="always")
def case_score(g, case, x):
    """The order score of a move of `case` with features x: its row of the weight table times x,
    or where the game has trees (SolverGame.tree_roots), the table's bonus plus the trees' sum
    over x and that score (F_HAND)."""
    s = 0
    for f in range(N_FEATURES):
        s += g.order[case, f] * x[f]
    if g.tree_roots.shape[0] == 0:
        return s
    bonus = g.order[case, F_TABLE] * x[F_TABLE]
    x[F_HAND] = s - bonus
    return bonus + tree_sum(g.trees, g.tree_roots, x)
