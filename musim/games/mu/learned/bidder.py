"""The learned bidder's decision, inside the numba auction loop (simulate.auction_step).

On its turn a `learned` seat lays the k cards (0 = pass .. the lay limit) of highest Q (features.
value, the lowest k among equals), chosen as the other heuristic bidders choose theirs: the
lowest cards of its best type first (policies.show_cards), so k <= limit cards of its own
unlaid ones, legal by construction.  Trumps, partner and card play stay the seat's heuristic.
No allocation, no Python call: the weights are arrays of a LearnedModel.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import popcount
from musim.core.cards import N_TYPES
from musim.games.mu import policies
from musim.games.mu.learned.features import E1, E2, KIND, context, value
from musim.games.mu.rules import lay_limit, nameable_types, top_other, trump_extra


@flat_kernel
def plan_learned(bid_policy, n, held, plan_type, plan_est, est):
    """At deal start, each learned seat's estimates (plan_seat)."""
    for s in range(n):
        if policies.seat_code(bid_policy, s) == policies.LEARNED:
            plan_seat(s, n, held, plan_type, plan_est, est)


@flat_kernel
def plan_seat(s, n, held, plan_type, plan_est, est):
    """Seat s's estimates (features.E1, E2, KIND): the hand model's team points of its best type
    (plan_type, policies.plan_auction) and of its best other type, and the bonus kind of the best."""
    t = plan_type[s]
    allowed = nameable_types(held[s], -1)
    policies.hand_estimates(held[s], n, est)
    e2 = 0.0
    for u in range(N_TYPES):
        if u != t and allowed >> u & 1:
            e2 = max(e2, est[u])
    plan_est[s, E1], plan_est[s, E2], plan_est[s, KIND] = est[t], e2, trump_extra(t)


@flat_kernel
def best_count(n, seat, limit, laid, counts, last_lay, ties, passes, plan_type, plan_est, targets, learned):
    """The k in 0..limit of highest Q for `seat` (its model learned.model_of[seat])."""
    ctx = context(n, seat, laid, counts, last_lay, ties, passes, plan_type, plan_est)
    m = learned.model_of[seat]
    best, best_q = 0, value(learned.weights, m, n, ctx, targets, 0)
    for k in range(1, limit + 1):
        q = value(learned.weights, m, n, ctx, targets, k)
        if q > best_q:
            best, best_q = k, q
    return best


@flat_kernel
def learned_lay(n, seat, held, laid, counts, last_lay, passes, ws, learned):
    """Cards the learned `seat` lays on its turn (0 = pass)."""
    avail = held[seat] & ~laid[seat]
    limit = lay_limit(counts[seat], top_other(counts, n, seat), popcount(avail))
    if limit <= 0:
        return np.uint64(0)
    k = best_count(
        n, seat, limit, laid, counts, last_lay, ws.ties, passes, ws.plan_type, ws.plan_est, ws.targets, learned
    )
    return policies.show_cards(avail, ws.plan_type[seat], k)
