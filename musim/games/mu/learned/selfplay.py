"""Self-play for the learned auction: the training deals and their rollouts, as numba kernels.

One seat a deal learns (deal index mod n); the others bid by a member of the population, drawn
per deal from its own stream (`draw_seats`): random tables, all cautious, all bold, or each seat
cautious (1/6), bold (1/6), the latest round's model (1/3) or one of the earlier rounds' (1/3);
or, for a best response, all by one fixed model (`others`; POPULATION: drawn).
Each deal draws its target table too (`draw_table`: the rulebook's or a random non-decreasing
line around it), so the model learns the table as an input.  At each learner turn with a
choice, every count k = 0..limit is played out from the same position with the same random
stream (common random numbers): the rest of the auction by every seat's policy, the learner's
own later turns by the cautious bidder, then trumps, partner, heuristic play and scoring
(simulate.auction_from, simulate.finish_deal).  The learner's deal scores, centred within the
position, are added to the normal equations of a least squares fit of the table model (fit.py)
over the cells each k lights (features.cells).  Then the learner takes its behaviour model's
lay, or with probability `explore` a uniform count, and the auction goes on.  Deals run in
index order on one thread: the sums, and so the fit, are the same for the same seed.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import popcount
from musim.core.cards import DECK, DECK_3P
from musim.core.deal import deal_cards
from musim.core.rng import randint, stream_state
from musim.games.mu import policies
from musim.games.mu import simulate as sim
from musim.games.mu.learned.bidder import plan_seat
from musim.games.mu.learned.features import N_TERMS, cells, context
from musim.games.mu.rules import auction_over, hand_size, lay_limit, top_other

MAX_K = 16  # candidates of a turn: at most hand size + 1
CAUTIOUS, BOLD = -1, -2  # a seat's "model" for the hand-written bidders (models are 0..)
POPULATION = -3  # `others` of a deal drawn from the population rather than one fixed model
# the population's shares, per cent: every other seat random; all cautious; all bold; the rest mixed
RANDOM_TABLES, ALL_CAUTIOUS, ALL_BOLD = 10, 15, 15
RULEBOOK_SHARE = 40  # per cent of deals under the rulebook's table, the others under a random line


@flat_kernel(inline="always")
def uniform(state):
    """A uniform float in [0, 1) of 20 bits."""
    return randint(state, 1 << 20) / float(1 << 20)


@flat_kernel
def draw_table(n, state, rulebook, box, targets):
    """targets[n, 1..H]: the rulebook's (RULEBOOK_SHARE per cent), or round(a + s b + q (b - H/2)^2 / H)
    with a, s uniform in box[n] = (a_lo, a_hi, s_lo, s_hi, cap) and q in -1..1, clipped to 0..cap,
    non-decreasing."""
    h = hand_size(n)
    if randint(state, 100) < RULEBOOK_SHARE:
        for b in range(1, h + 1):
            targets[n, b] = rulebook[n, b]
        return
    a = box[n, 0] + uniform(state) * (box[n, 1] - box[n, 0])
    s = box[n, 2] + uniform(state) * (box[n, 3] - box[n, 2])
    q = 2.0 * uniform(state) - 1.0
    prev = 0
    for b in range(1, h + 1):
        t = int(np.floor(a + s * b + q * (b - h / 2.0) ** 2 / h + 0.5))
        prev = max(prev, min(max(t, 0), int(box[n, 4])))
        targets[n, b] = prev


@flat_kernel(inline="always")
def set_seat(seat, model, bid, play, model_of):
    """Seat `seat` bids by `model` (CAUTIOUS, BOLD, or a learned model's index), plays heuristic."""
    bid[seat] = policies.HEURISTIC if model == CAUTIOUS else (policies.BOLD if model == BOLD else policies.LEARNED)
    play[seat] = policies.HEURISTIC
    model_of[seat] = max(model, 0)


@flat_kernel
def draw_seats(n, learner, earlier, others, state, bid, play, model_of):
    """The other seats' policies of a deal (module doc); `earlier`: how many learned models the
    population holds (indices 0..earlier-1); `others`: every other seat's model (CAUTIOUS, BOLD
    or an index), or POPULATION: drawn, the only case that takes from the stream."""
    if others != POPULATION:
        for s in range(n):
            if s != learner:
                set_seat(s, others, bid, play, model_of)
        return
    u = randint(state, 100)
    for s in range(n):
        if s == learner:
            continue
        if u < RANDOM_TABLES:
            bid[s], play[s], model_of[s] = policies.RANDOM, policies.RANDOM, 0
        elif u < RANDOM_TABLES + ALL_CAUTIOUS:
            set_seat(s, CAUTIOUS, bid, play, model_of)
        elif u < RANDOM_TABLES + ALL_CAUTIOUS + ALL_BOLD:
            set_seat(s, BOLD, bid, play, model_of)
        else:
            v = randint(state, 6)
            if v >= 4 and earlier > 0:  # half the learned share: the latest model
                set_seat(s, earlier - 1, bid, play, model_of)
            elif v >= 2 and earlier > 0:
                set_seat(s, randint(state, earlier), bid, play, model_of)
            else:
                set_seat(s, CAUTIOUS if v % 2 == 0 else BOLD, bid, play, model_of)


@flat_kernel
def start_deal(n, root, i, learner, model, earlier, others, state, policy, ws, learned):
    """Deal i of a training or evaluation run: its stream, dealer, other seats (draw_seats), the
    learner's `model`, hands and plans; returns the dealer."""
    state[0] = stream_state(root, i)
    dealer = randint(state, n)
    draw_seats(n, learner, earlier, others, state, policy[sim.BID_POLICY], policy[sim.PLAY_POLICY], learned.model_of)
    set_seat(learner, model, policy[sim.BID_POLICY], policy[sim.PLAY_POLICY], learned.model_of)
    hands = ws.deal.hands
    deal_cards(n, DECK_3P if n == 3 else DECK, ws.cards, state, hands)
    for s in range(n):
        ws.held[s] = hands[s]
    bid = policy[sim.BID_POLICY]
    policies.plan_auction(bid, n, ws.held, ws.plan_type, ws.plan_bid, ws.est, ws.targets)
    sim.start_auction(n, bid, ws.deal.laid, ws, learned)
    plan_seat(learner, n, ws.held, ws.plan_type, ws.plan_est, ws.est)  # the learner's features, whatever it bids by
    return dealer


@flat_kernel
def save(n, state, ws, masks, ints):
    """Keep the position: hands and laid cards in masks [3, 6] (the stream in masks[2, 0]),
    counts, last lays and ties in ints [3, 6]."""
    for s in range(n):
        masks[0, s], masks[1, s] = ws.held[s], ws.deal.laid[s]
        ints[0, s], ints[1, s], ints[2, s] = ws.counts[s], ws.last_lay[s], ws.ties[s]
    masks[2, 0] = state[0]


@flat_kernel
def restore(n, state, ws, masks, ints):
    """Back to the position `save` kept."""
    for s in range(n):
        ws.held[s], ws.deal.laid[s] = masks[0, s], masks[1, s]
        ws.counts[s], ws.last_lay[s], ws.ties[s] = ints[0, s], ints[1, s], ints[2, s]
    state[0] = masks[2, 0]


@flat_kernel
def rollouts(n, seat, passes, turn, limit, policy, state, ws, learned, scratch):
    """Every count k = 0..limit laid by `seat` now, played to the deal's end from this position
    with the same stream: y[k] its score, lit[k] the cells k lights; the position is restored."""
    _, _, masks, ints, lit, y = scratch
    laid = ws.deal.laid
    ctx = context(n, seat, laid, ws.counts, ws.last_lay, ws.ties, passes, ws.plan_type, ws.plan_est)
    avail = ws.held[seat] & ~laid[seat]
    save(n, state, ws, masks, ints)
    for k in range(limit + 1):
        restore(n, state, ws, masks, ints)
        c = cells(n, ctx, ws.targets, k)
        for j in range(N_TERMS):
            lit[k, j] = c[j]
        lay = policies.show_cards(avail, ws.plan_type[seat], k)
        p, t, s = sim.lay_cards(n, seat, lay, passes, turn, laid, ws)
        sim.auction_from(n, s, p, t, policy[sim.BID_POLICY], state, laid, ws, learned)
        sim.finish_deal(n, policy, state, ws.deal, ws)
        y[k] = ws.deal.scores[seat]
    restore(n, state, ws, masks, ints)


def make_scratch():
    """train_deals' scratch: (stream, policy codes, position kept: masks and ints, cells, scores)."""
    z = np.zeros
    return (z(1, np.uint64), z((2, 6), np.int64), z((3, 6), np.uint64), z((3, 6), np.int64),
            z((MAX_K, N_TERMS), np.int64), z(MAX_K, np.float64))  # fmt: skip


@flat_kernel
def accumulate(m, lit, y, gram, rhs):
    """Add one position's m candidates, centred within it, to the normal equations:
    gram += sum_k x_k x_k' - (sum_k x_k)(sum_k x_k)' / m, rhs += sum_k x_k (y_k - mean y)."""
    mean = 0.0
    for k in range(m):
        mean += y[k]
    mean /= m
    for k in range(m):
        for a in range(N_TERMS):
            rhs[lit[k, a]] += y[k] - mean
            for c in range(N_TERMS):
                gram[lit[k, a], lit[k, c]] += 1.0
    for j in range(m):
        for k in range(m):
            for a in range(N_TERMS):
                for c in range(N_TERMS):
                    gram[lit[j, a], lit[k, c]] -= 1.0 / m


@flat_kernel
def train_deals(n, root, start, count, model, seats, explore, tables, ws, learned, scratch, gram, rhs):
    """Deals start..start+count-1 of a round's self-play for n players (module doc), their
    positions added to gram and rhs; `model`: the learner's behaviour model (CAUTIOUS in round 1),
    which decides the positions it reaches, while its rollouts go on by the cautious bidder (a
    continuation by the behaviour model let raising wars at high counts, where one round corrects
    one step, look free: all seats bid 12 of 12 cards at 5 players after 6 rounds);
    `seats`: (earlier, others) of draw_seats; `tables`: (rulebook, box) of draw_table;
    scratch: (state, policy, masks, ints, lit, y) (make_scratch).  Returns the positions added."""
    state, policy, _, _, lit, y = scratch
    earlier, others = seats
    positions = 0
    for i in range(start, start + count):
        learner = i % n
        state[0] = stream_state(root, ~np.uint64(i))
        draw_table(n, state, tables[0], tables[1], ws.targets)
        dealer = start_deal(n, root, i, learner, model, earlier, others, state, policy, ws, learned)
        passes, turn, seat = 0, 0, dealer
        while not auction_over(passes, n):
            laid = ws.deal.laid
            limit = 0
            if seat == learner:
                avail = ws.held[seat] & ~laid[seat]
                limit = min(lay_limit(ws.counts[seat], top_other(ws.counts, n, seat), popcount(avail)), MAX_K - 1)
            if limit >= 1:
                code, policy[sim.BID_POLICY, seat] = policy[sim.BID_POLICY, seat], policies.HEURISTIC
                rollouts(n, seat, passes, turn, limit, policy, state, ws, learned, scratch)
                policy[sim.BID_POLICY, seat] = code
                accumulate(limit + 1, lit, y, gram, rhs)
                positions += 1
                if randint(state, 1 << 20) < explore * (1 << 20):
                    lay = policies.show_cards(avail, ws.plan_type[seat], randint(state, limit + 1))
                    passes, turn, seat = sim.lay_cards(n, seat, lay, passes, turn, laid, ws)
                    continue
            passes, turn, seat = sim.auction_step(
                n, seat, passes, turn, policy[sim.BID_POLICY], state, laid, ws, learned
            )
    return positions


@flat_kernel
def eval_deals(n, root, start, count, models, seats, state, policy, ws, learned, scores, bids):
    """Duplicate deals under the rulebook's table: deal i once with the learner (seat i mod n)
    bidding by each of `models` (CAUTIOUS, BOLD or an index; earlier < 0: every seat bids by it,
    self-play), the other seats by `seats` = (earlier, others) as in training (draw_seats);
    scores[i - start, j] the learner's score with models[j], bids[i - start, j] the deal's bid
    (-1 an eklat)."""
    earlier, others = seats
    for j in range(models.shape[0]):
        for i in range(start, start + count):
            learner = i % n
            dealer = start_deal(n, root, i, learner, models[j], max(earlier, 0), others, state, policy, ws, learned)
            if earlier < 0:
                for s in range(n):
                    set_seat(s, models[j], policy[sim.BID_POLICY], policy[sim.PLAY_POLICY], learned.model_of)
                policies.plan_auction(policy[sim.BID_POLICY], n, ws.held, ws.plan_type, ws.plan_bid, ws.est, ws.targets)
                sim.start_auction(n, policy[sim.BID_POLICY], ws.deal.laid, ws, learned)
            sim.auction_from(n, dealer, 0, 0, policy[sim.BID_POLICY], state, ws.deal.laid, ws, learned)
            sim.finish_deal(n, policy, state, ws.deal, ws)
            scores[i - start, j] = ws.deal.scores[learner]
            bids[i - start, j] = ws.deal.res[sim.BID] if ws.deal.res[sim.OUTCOME] == sim.PLAYED else -1
