"""Move ordering as data: each move's case and features, scored by a weight table.

`moves.gen_moves` groups the mover's legal cards into moves; this module says how promising
each move is.  A move falls into one kind, the first that holds of: a lead of a card no other
seat can beat in its class nor ruff (LEAD_SURE), another lead (LEAD), a card whose team
surely takes the trick (SURE_MINE), one whose trick surely goes, or a later opponent can
surely take, to the other team (CHEAP), a card onto a trick the mover's team holds or a later
teammate can surely take (MATE), a card that takes the trick for now (TAKE), the rest (DUCK).
Its case is the kind and the mover's side (the maximising team or not); it scores its case's
row of the game's weight table (SolverGame.order) times its features (F_*).  DEFAULT_ORDER, the
table built by hand, is every game's; benchmarks/fit_ordering.py fits a table to the moves
that produced the cuts of traced searches (docs/solver.md, "Move ordering").

Values never depend on the table, node counts do: rows made under a node limit name
SEARCH_VERSION (version.py), so a change here that changes any node count must bump it.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import highest, popcount
from musim.solver.trick import trick_winner_pos

LEAD_SURE, LEAD, SURE_MINE, CHEAP, MATE, TAKE, DUCK = range(7)
N_KINDS = 7
N_CASES = 2 * N_KINDS  # case = kind + N_KINDS if the mover is on the maximising team
KIND_NAMES = ("lead_sure", "lead", "sure_mine", "cheap", "mate", "take", "duck")

# the features of a move (card c): a constant, c's points and power, the points already on the
# trick, whether c takes the trick for now, whether a lead goes to a teammate's top card of its
# class, the lead's reply cost (REPLY_W per line of replies, scaled to two opponents), whether c
# is the table's best move of the position (set by moves.score_move), and for a card that names
# the trump, played to a trick, +1 if the trick so far goes to the mover's team under the class
# the move names, else -1 (named_takes)
F_ONE, F_PTS, F_POWER, F_TRICK_PTS, F_BEATS, F_TO_MATE, F_REPLIES, F_TABLE, F_NAMED_TAKES = range(9)
N_FEATURES = 9
FEATURE_NAMES = ("one", "pts", "power", "trick_pts", "beats", "to_mate", "replies", "table", "named_takes")

REPLY_W = 100  # a lead's penalty per line of replies to it, scaled to two opponents
TABLE_FIRST = 100000  # the table's best move: first
NAMED_TAKES_W = 300  # of a namer card's moves, those naming a trump that gives the trick to the mover's team first


def _hand_order():
    """The ordering built by hand: the table's best move first, then sure leads (dearest first), leads
    whose replies make the smallest tree, a lead to a teammate's top card; mid-trick, points onto a
    trick the team surely takes, cheap cards to one it loses, points onto a teammate's trick, cheap
    winners, then low discards; of a namer card's moves, first those whose trump gives the trick so
    far to the mover's team.  The same for both sides."""
    w = np.zeros((N_CASES, N_FEATURES), np.int64)
    rows = {
        LEAD_SURE: {F_ONE: 1000, F_PTS: 10, F_REPLIES: -1},
        LEAD: {F_PTS: -10, F_POWER: -1, F_TO_MATE: 500, F_REPLIES: -1},
        SURE_MINE: {F_ONE: 2000, F_PTS: 10, F_POWER: -1},
        CHEAP: {F_PTS: -20, F_POWER: -1},
        MATE: {F_PTS: 20, F_BEATS: -5},
        TAKE: {F_ONE: 500, F_TRICK_PTS: 10, F_PTS: 10, F_POWER: -1},
        DUCK: {F_PTS: -20, F_POWER: -1},
    }
    for kind, row in rows.items():
        for f, v in (row | {F_TABLE: TABLE_FIRST, F_NAMED_TAKES: NAMED_TAKES_W}).items():
            w[kind, f] = w[kind + N_KINDS, f] = v
    return w


DEFAULT_ORDER = _hand_order()  # every game's ordering (layout.make_game's default)


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
def lead_kind(g, st, seat, c, others, ruffed, x):
    """Fill x with lead c's lead features; returns its kind."""
    kk = g.klass[c]
    higher = others & g.class_mask[kk] & ~((np.uint64(2) << np.uint64(c)) - np.uint64(1))
    open_class = not (ruffed >> kk) & 1
    x[F_TO_MATE] = 1 if higher and open_class and g.team[st.owner[highest(higher)]] == g.team[seat] else 0
    x[F_REPLIES] = lead_replies(g, st.hands, seat, kk)
    return LEAD_SURE if not higher and open_class else LEAD


@flat_kernel(inline="always")
def move_case(g, st, seat, k, c, keen, lost, mate_winning, beats_now, trick_pts, others, ruffed, x):
    """Fill x with move c's features (keen: gen_moves' trick_owner_keen of c; lost, mate_winning:
    the trick's outlook for the mover's team; beats_now: c beats the trick's winning card; others,
    ruffed: gen_moves' trick_outlook); returns its case."""
    x[F_ONE] = 1
    x[F_PTS] = g.points[c]
    x[F_POWER] = g.power[c]
    x[F_TRICK_PTS] = trick_pts
    x[F_BEATS] = 1 if beats_now else 0
    x[F_TO_MATE] = 0
    x[F_REPLIES] = 0
    x[F_NAMED_TAKES] = 0
    if k == 0:
        kind = lead_kind(g, st, seat, c, others, ruffed, x)
    elif keen > 0:
        kind = SURE_MINE
    elif keen < 0 or lost:
        kind = CHEAP
    elif mate_winning:
        kind = MATE
    elif beats_now:
        kind = TAKE
    else:
        kind = DUCK
    return kind + N_KINDS if g.team[seat] else kind


@flat_kernel(inline="always")
def named_takes(g, st, seat, k, ply, c, t, x):
    """Set x[F_NAMED_TAKES] of namer card c, which `seat` plays at ply (into st.line[ply]) naming
    class t: +1 if the trick so far, c on it, goes to seat's team under trump t, -1 if not; 0 for
    a lead."""
    st.line[ply] = c
    x[F_NAMED_TAKES] = 0
    if k > 0:
        w = seat - k + trick_winner_pos(g, st.line, ply - k, k + 1, t)
        x[F_NAMED_TAKES] = 1 if g.team[w if w >= 0 else w + g.n] == g.team[seat] else -1


@flat_kernel(inline="always")
def case_score(order, case, x):
    """The order score of a move of `case` with features x: its row of the weight table times x."""
    s = 0
    for f in range(N_FEATURES):
        s += order[case, f] * x[f]
    return s
