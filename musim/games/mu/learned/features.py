"""What the learned bidder sees of an auction turn, as the cells of an additive table model.

Q(state, k), the value of laying k cards now (0 = pass), is the sum of one weight per term of
LAYOUT, each term indexed by a few bucketed features, at least one of which moves with k (a term
that did not would cancel in the within-state fit, learned/fit.py).  Everything read is the
seat's own or public: its hand (through the hand model's estimates, fixed at deal start:
bidder.plan_learned), every seat's laid cards and counts, who laid last, who tied the top before,
the consecutive passes, the player count and the run's target table.  Another seat's unlaid
cards are never read.

Features of a turn (`context`): own and top counts, seats on the top count, pass bucket, seats
whose laid cards look random (`erratic`: 2+ cards that no trump type covers but one), seats one or
two cards below the top that have laid to tie the top before (`close`, from rules.lay_turn's ties:
such a seat may tie after me, and the provoker is whoever tied last), whether a would-be vice
shows my best type (`threat`).  Of a candidate k (c = own + k, T = the table):
margin of my best estimate to T[c] (`mC`) and to the level above the top after my lay (`mN`), of
my second best type to T[c] (`m2`: the contract if the vice takes my trump), c - top, the tie
state after the lay (nobody laid / alone on top / tied and I laid last: the provoker / tied,
another laid last / below a tied top / below a single top), whether my pass ends the auction,
c and top, min(k, 3).
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import popcount
from musim.core.cards import N_TYPES, TYPE_MASK
from musim.games.mu.rules import hand_size

FEATURES = 2  # bump when a feature's meaning changes: model files of another version are refused
MARGINS, RELS, TIES, COUNTS, PASSES, ERRATIC, CROWD, CLOSE = 17, 6, 6, 11, 4, 3, 3, 3
# each term's bucket dimensions (padded with 1): contract, next level (among random seats or not:
# there a raise to a level out of reach is answered), vice's trump, eklat payoff,
# eklat odds, level, tempo, crowding, who may tie after me
LAYOUT = np.array(
    [
        [MARGINS, RELS, 3, 1],  # mC x rel x bonus kind of my best type
        [MARGINS, RELS, ERRATIC, 1],  # mN x rel x erratic seats
        [MARGINS, 2, RELS, 1],  # m2 x threat x rel
        [TIES, 2, COUNTS, 1],  # tie state x my pass ends it x c
        [TIES, PASSES, ERRATIC, 1],  # tie state x passes x erratic seats
        [COUNTS, COUNTS, 1, 1],  # c x top
        [4, PASSES, ERRATIC, 1],  # min(k, 3) x passes x erratic seats
        [TIES, CROWD, RELS, 1],  # tie state x seats on top x rel
        [TIES, CLOSE, COUNTS, 1],  # tie state x seats that tie, just below the top x c
    ],
    np.int32,
)
# which of those dimensions are ordered (neighbouring buckets smoothed together: learned/fit.py)
ORDINAL = np.array(
    [
        [1, 1, 0, 0],
        [1, 1, 1, 0],
        [1, 0, 1, 0],
        [0, 0, 1, 0],
        [0, 1, 1, 0],
        [1, 1, 0, 0],
        [1, 1, 1, 0],
        [0, 1, 1, 0],
        [0, 1, 1, 0],
    ],
    np.bool_,
)
N_TERMS = LAYOUT.shape[0]
SIZES = LAYOUT.prod(axis=1).astype(np.int64)
OFFSETS = np.concatenate([[0], np.cumsum(SIZES)[:-1]]).astype(np.int64)
N_WEIGHTS = int(SIZES.sum())  # weights per player count
# per-seat plan columns (bidder.plan_learned): best estimate, second best, bonus kind of the best
E1, E2, KIND = range(3)


@flat_kernel(inline="always")
def margin(e, target):
    """Bucket of an estimate's margin to a target: 2 points a bucket, clipped to -16..+16."""
    b = int(np.floor((e - target) / 2.0 + 0.5)) + MARGINS // 2
    return min(max(b, 0), MARGINS - 1)


@flat_kernel(inline="always")
def erratic(laid, count):
    """Do these laid cards look random: 2+ cards that no trump type covers all but one of?"""
    if count < 2:
        return False
    for t in range(N_TYPES):
        if popcount(laid & TYPE_MASK[t]) >= count - 1:
            return False
    return True


@flat_kernel
def context(n, seat, laid, counts, last_lay, ties, passes, plan_type, plan_est):
    """The turn's shared features: (own, top, seats on top, I laid last among a tie at my count,
    pass bucket, passes end it, erratic seats, threat, e1, e2, bonus kind, seats one or two cards
    below the top that have tied it before)."""
    own, top, on_top, others_last, odd, close = counts[seat], 0, 0, -1, 0, 0
    for s in range(n):
        if s != seat:
            if counts[s] > top:
                top, on_top = counts[s], 1
            elif counts[s] == top and top > 0:
                on_top += 1
            odd += 1 if erratic(laid[s], counts[s]) else 0
    for s in range(n):
        if s != seat and ties[s] > 0 and 0 < top - counts[s] <= 2:
            close += 1
    for s in range(n):
        if s != seat and counts[s] == own and own > 0:
            others_last = max(others_last, last_lay[s])
    t = plan_type[seat]
    threat = False
    if n >= 4 and top > 0:
        for s in range(n):
            if s != seat and counts[s] == top and laid[s] & TYPE_MASK[t]:
                threat = True
    pb = 0 if passes == 0 else (3 if passes >= n - 1 else (2 if passes == n - 2 else 1))
    i_last = last_lay[seat] > others_last
    ends = passes == n - 1
    e1, e2, kind = plan_est[seat, E1], plan_est[seat, E2], int(plan_est[seat, KIND])
    return own, top, min(on_top, 2), i_last, pb, ends, min(odd, 2), 1 if threat else 0, e1, e2, kind, min(close, 2)


@flat_kernel(inline="always")
def count_bucket(c, h):
    """A laid count: 0..7 as it is, then by the cards left in a hand of h (2+, 1, none), where a
    raise can no longer be answered."""
    if c < COUNTS - 3:
        return c
    return COUNTS - 1 - min(h - c, 2)


@flat_kernel(inline="always")
def tie_state(c, k, top, on_top, i_last):
    """After laying k to reach c: 0 nobody laid, 1 alone on top, 2 tied on top having laid last
    (the provoker if it ends so), 3 tied on top, another laid last, 4 below a tied top, 5 below a
    single top."""
    if c == 0 and top == 0:
        return 0
    if c > top:
        return 1
    if c == top:
        return 2 if k > 0 or i_last else 3
    return 4 if on_top >= 2 else 5


@flat_kernel
def cells(n, ctx, targets, k):
    """The weight index of each term for laying k cards in the turn `ctx` (context)."""
    own, top, on_top, i_last, pb, ends, odd, threat, e1, e2, kind, close = ctx
    c = own + k
    h = hand_size(n)
    m_c = margin(e1, targets[n, max(c, 1)])
    m_n = margin(e1, targets[n, min(max(c, top) + 1, h)])
    m_2 = margin(e2, targets[n, max(c, 1)])
    rel = min(max(c - top, -3), 2) + 3
    tie = tie_state(c, k, top, on_top, i_last)
    cb, tb, kb = count_bucket(c, h), count_bucket(top, h), min(k, 3)
    end = 1 if ends and k == 0 else 0
    return (
        OFFSETS[0] + (m_c * RELS + rel) * 3 + kind,
        OFFSETS[1] + (m_n * RELS + rel) * ERRATIC + odd,
        OFFSETS[2] + (m_2 * 2 + threat) * RELS + rel,
        OFFSETS[3] + (tie * 2 + end) * COUNTS + cb,
        OFFSETS[4] + (tie * PASSES + pb) * ERRATIC + odd,
        OFFSETS[5] + cb * COUNTS + tb,
        OFFSETS[6] + (kb * PASSES + pb) * ERRATIC + odd,
        OFFSETS[7] + (tie * CROWD + on_top) * RELS + rel,
        OFFSETS[8] + (tie * CLOSE + close) * COUNTS + cb,
    )


@flat_kernel(inline="always")
def value(weights, m, n, ctx, targets, k):
    """Q of laying k: the sum of model m's weights (weights[m, n - 3]) at the cells."""
    q = np.float32(0.0)
    for j in cells(n, ctx, targets, k):
        q += weights[m, n - 3, j]
    return q
