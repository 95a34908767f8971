"""Weighted worlds of Mü's search player (docs/players.md "Search"): how likely the public
actions so far are in a drawn world, under the models that made them.

A `search` seat weights each world it draws by the product, over the other seats' public
actions, of the chance that the seat's model takes that action with the world's hand:
- auction turns (pass, or lay k cards).  Each seat's auction model is public (the run's
  --auction codes); `learned`: a softmax of its Q(k) over k = 0..lay limit at temperature tau;
  `cautious` and `bold`: their rule's count (policies.lay_plan; bold's tie draw one time in
  TIE_ODDS) softened by eps_auction over 0..lay limit; and for k > 0 whether the cards laid
  are the ones the model lays (its best type's lowest: policies.show_cards), softened alike
  over the two answers.  `random`: uniform, a constant, skipped.
- the vice's and the chief's trump: the heuristic's best type (policies.choose_trump)
  softened by eps_setup over the nameable types (the chief's `none` too).  The heuristic's
  partner follows from public cards alone: a constant, skipped.
- the cards played: the heuristic's card (trick_step.choose) softened by eps_play over the
  legal cards.  `search` and `dd` seats are taken to play as the heuristic (a search per replayed
  card would cost a search's worth of playouts); `random` seats are skipped.
Softened (`soft`): the rule's choice taken with probability 1 - eps, else a uniform choice among
all the options (so eps -> 1 makes that kind of action uninformative).  Each seat's hand at a
past decision is the world's hand with the cards it played since added back.  The
parameters (tau, eps_auction, eps_setup, eps_play) are fitted on simulated deals
(scripts/fit_world_weights.py) and shipped in models/world_weights_v1.npz (musim/play/world_weights.py).

`search-uniform` seats count each world once (hist[WEIGHTED] off).  A `probe` (calibration:
beliefs.py) records every world with its weight.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, drop_lowest, lowest, popcount
from musim.games.mu import policies, trick_step
from musim.games.mu.learned import bidder
from musim.games.mu.learned.features import context, value
from musim.games.mu.rules import (
    MAX_PLAYERS,
    beats,
    hand_size,
    lay_limit,
    lay_turn,
    legal_moves,
    nameable_types,
    top_other,
)
from musim.play.likelihood import rule_choice, softmax_choice

TAU, EPS_AUCTION, EPS_SETUP, EPS_PLAY = range(4)  # a parameter row (params.WEIGHTS)
# hist: the auction's dealer and turns, the vice and its trump, what has been heard (below), the
# cards played, whether the deciding seat weights its worlds
DEALER, TURNS, VICE, VICE_TRUMP, HEARD, PLAYED, WEIGHTED = range(7)
NOTHING, AUCTION, VICE_NAMED, CONTRACT = range(4)  # HEARD: a replay without an auction knows nothing
P_TRICK, P_SEAT, P_CARD, P_UNIFORM, P_WEIGHTED, P_HELD = range(6)  # a probe row's columns

Weighing = namedtuple(
    "Weighing",
    "hist bid_codes play_codes params auction_log play_log log_seat log_winner log_wpos played_by hands0 hands "
    "laid counts last_lay ties plan_type plan_bid plan_est q",
)
# hist above; bid_codes, play_codes: each seat's auction and card-play code; params: the run's
# row (TAU..EPS_PLAY); auction_log, play_log: the workspace's; log_seat, log_winner, log_wpos:
# per card played, its seat and the trick's winner and winning position before it; played_by:
# each seat's cards played; the rest is the replay's scratch (a world's hands at deal start,
# hands during the replay, the auction's state and plans, Q values).
Probe = namedtuple("Probe", "acc sums rows count")
# acc[0 | 1, seat, card]: worlds (uniform) and weights in which the seat holds the card at this
# decision; sums: their totals; rows: one a (decision, other seat, hidden card), P_TRICK..P_HELD;
# count: rows written (more than rows' length: the probe overflowed)


def make_weighing(ws, params):
    """The weights' state over the workspace `ws` (its auction and play logs), `params` a row
    TAU..EPS_PLAY of the run's player count."""
    z, m = np.zeros, MAX_PLAYERS
    return Weighing(
        hist=z(8, np.int64),
        bid_codes=z(m, np.int64),
        play_codes=z(m, np.int64),
        params=np.asarray(params, np.float64).copy(),
        auction_log=ws.auction_log,
        play_log=ws.play_log,
        log_seat=z(64, np.int64),
        log_winner=z(64, np.int64),
        log_wpos=z(64, np.int64),
        played_by=z(m, np.uint64),
        hands0=z(m, np.uint64),
        hands=z(m, np.uint64),
        laid=z(m, np.uint64),
        counts=z(m, np.int64),
        last_lay=z(m, np.int64),
        ties=z(m, np.int64),
        plan_type=z(m, np.int64),
        plan_bid=z(m, np.int64),
        plan_est=z((m, 3), np.float64),
        q=z(64, np.float64),
    )


def make_probe(rows):
    """A calibration probe of room for `rows` predictions."""
    return Probe(np.zeros((2, MAX_PLAYERS, 64)), np.zeros(2), np.zeros((rows, 6)), np.zeros(1, np.int64))


@flat_kernel(inline="always")
def soft(chosen, ruled, options, eps):
    """P(chosen) for a rule taken with probability 1 - eps, else a uniform choice among all
    `options` (likelihood.rule_choice with eps spread over the others, so eps -> 1 is uniform)."""
    return rule_choice(chosen, ruled, options, eps * (options - 1) / options if options > 1 else eps)


@flat_kernel
def heard(wg, n, dealer, turns, bid_policy):
    """The auction is over: `turns` turns from `dealer`'s, each seat bidding by bid_policy[seat]."""
    h = wg.hist
    h[DEALER], h[TURNS], h[HEARD], h[VICE], h[VICE_TRUMP] = dealer, turns, AUCTION, -1, -1
    for s in range(n):
        wg.bid_codes[s] = bid_policy[s]


@flat_kernel
def named(wg, what, vice, vice_trump):
    """The vice named its trump (what: VICE_NAMED), or the chief its contract (CONTRACT)."""
    if wg.hist[HEARD] >= AUCTION:
        wg.hist[HEARD] = what
    if what == VICE_NAMED:
        wg.hist[VICE], wg.hist[VICE_TRUMP] = vice, vice_trump


@flat_kernel
def playing(wg, n, play_policy):
    """The play begins, each seat playing by play_policy[seat]."""
    for s in range(n):
        wg.play_codes[s] = play_policy[s]


@flat_kernel
def prepare(ctx, wg, n, chief, weighted):
    """Before drawing a decision's worlds (ctx.held the hands now): the cards played so far,
    each one's seat and trick state (the chief led the first trick), each seat's cards played;
    `weighted`: does the deciding seat weight its worlds."""
    klass, power, log = ctx.klass, ctx.power, wg.play_log
    played = n * hand_size(n)
    for s in range(n):
        played -= popcount(ctx.held[s])
        wg.played_by[s] = 0
    wg.hist[PLAYED], wg.hist[WEIGHTED] = played, 1 if weighted else 0
    leader, wpos = chief, 0
    for pos in range(played):
        k = pos % n
        if k == 0 and pos > 0:
            leader = leader + wpos - (n if leader + wpos >= n else 0)
            wpos = 0
        s = leader + k - (n if leader + k >= n else 0)
        wg.log_seat[pos], wg.log_wpos[pos] = s, wpos
        wg.log_winner[pos] = leader + wpos - (n if leader + wpos >= n else 0)
        if k > 0 and beats(log[pos], log[pos - k + wpos], klass, power):
            wpos = k
        wg.played_by[s] |= bit(log[pos])


@flat_kernel(inline="always")
def weighs(wg, probe):
    """Is the drawn world's weight wanted (the seat weights its worlds, or a probe records them)?"""
    return probe is not None or wg.hist[WEIGHTED] == 1


@flat_kernel
def weigh(ctx, wg, n, seat, chief, chief_trump, learned, probe):
    """The drawn world's weight for the deciding `seat` (ctx.hands: the world's hands now): the
    likelihood of the public actions (module doc), or 1.0 where the seat does not weight; the
    probe, where there is one, records the world and its likelihood."""
    w = likelihood(ctx, wg, n, seat, chief, chief_trump, learned)
    if probe is not None:
        observe(probe, ctx, n, seat, w)
    return w if wg.hist[WEIGHTED] == 1 else 1.0


@flat_kernel
def likelihood(ctx, wg, n, seat, chief, chief_trump, learned):
    """The product of the likelihoods of every public action of the other seats so far."""
    h = wg.hist
    for s in range(n):
        wg.hands0[s] = ctx.hands[s] | wg.played_by[s]
    w = 1.0
    if h[HEARD] >= AUCTION:
        w *= auction_likelihood(ctx, wg, n, seat, learned)
        if h[HEARD] >= VICE_NAMED and h[VICE] >= 0 and h[VICE] != seat:
            w *= trump_likelihood(ctx, wg, n, h[VICE], h[VICE_TRUMP], -1, False)
        if h[HEARD] >= CONTRACT and chief != seat:
            w *= trump_likelihood(ctx, wg, n, chief, chief_trump, h[VICE_TRUMP], True)
    if h[PLAYED] > 0:
        w *= play_likelihood(ctx, wg, n, seat)
    return w


@flat_kernel
def auction_likelihood(ctx, wg, n, seat, learned):
    """The auction replayed in the world: every other seat's turns (turn_likelihood)."""
    policies.plan_auction(wg.bid_codes, n, wg.hands0, wg.plan_type, wg.plan_bid, ctx.est, ctx.targets)
    if learned is not None:
        bidder.plan_learned(wg.bid_codes, n, wg.hands0, wg.plan_type, wg.plan_est, ctx.est)
    for s in range(n):
        wg.laid[s], wg.counts[s], wg.last_lay[s], wg.ties[s] = 0, 0, -1, 0
    w, passes, turn, s = 1.0, 0, 0, wg.hist[DEALER]
    while turn < wg.hist[TURNS]:
        lay = wg.auction_log[turn]
        if s != seat:
            w *= turn_likelihood(ctx, wg, n, s, lay, passes, learned)
        passes, turn, s = lay_turn(n, s, lay, passes, turn, wg.laid, wg.counts, wg.last_lay, wg.ties)
    return w


@flat_kernel
def turn_likelihood(ctx, wg, n, s, lay, passes, learned):
    """The chance that seat s's auction model lays `lay` (0: passes) with the world's hand."""
    code = wg.bid_codes[s]
    avail = wg.hands0[s] & ~wg.laid[s]
    top = top_other(wg.counts, n, s)
    limit = lay_limit(wg.counts[s], top, popcount(avail))
    if limit <= 0 or not (code == policies.HEURISTIC or code == policies.BOLD or code == policies.LEARNED):
        return 1.0
    k, t, eps = popcount(lay), wg.plan_type[s], wg.params[EPS_AUCTION]
    if code == policies.LEARNED:
        p = learned_count(ctx, wg, n, s, limit, k, passes, learned)
    else:
        ruled, tie = policies.lay_plan(n, s, wg.laid, wg.counts, top, t, wg.plan_bid[s], code == policies.BOLD)
        p = soft(k, ruled, limit + 1, eps)
        if tie >= 0:
            p += (soft(k, tie, limit + 1, eps) - p) / policies.TIE_ODDS
    if k > 0:
        p *= soft(lay == policies.show_cards(avail, t, k), True, 2, eps)
    return p


@flat_kernel
def learned_count(ctx, wg, n, s, limit, k, passes, learned):
    """The learned bidder's chance of laying k cards: a softmax of its Q over 0..limit at tau."""
    if learned is None:
        return 1.0
    turn = context(n, s, wg.laid, wg.counts, wg.last_lay, wg.ties, passes, wg.plan_type, wg.plan_est)
    m = learned.model_of[s]
    for j in range(limit + 1):
        wg.q[j] = value(learned.weights, m, n, turn, ctx.targets, j)
    return softmax_choice(wg.q, limit + 1, k, wg.params[TAU])


@flat_kernel
def trump_likelihood(ctx, wg, n, s, named_trump, exclude, may_pass):
    """The chance that seat s names `named_trump` (the heuristic's best type of its laid ones)."""
    if wg.bid_codes[s] == policies.RANDOM:
        return 1.0
    allowed = nameable_types(ctx.public[s], exclude)
    options = popcount(np.uint64(allowed)) + (1 if may_pass else 0)
    ruled = policies.best_type(wg.hands0[s], allowed, n, ctx.est)[0]
    return soft(named_trump, ruled, options, wg.params[EPS_SETUP])


@flat_kernel
def play_likelihood(ctx, wg, n, seat):
    """Every card another seat played, against the heuristic's card from its hand then."""
    hands, log, eps = wg.hands, wg.play_log, wg.params[EPS_PLAY]
    remaining = np.uint64(0)
    for s in range(n):
        hands[s] = wg.hands0[s]
        remaining |= hands[s]
    w = 1.0
    for pos in range(wg.hist[PLAYED]):
        s, k, c = wg.log_seat[pos], pos % n, log[pos]
        if s != seat and wg.play_codes[s] != policies.RANDOM:
            trick = log[pos - k :]
            legal = legal_moves(hands[s], trick[0] if k > 0 else -1, ctx.klass, ctx.class_mask)
            ruled = trick_step.choose(
                policies.HEURISTIC, n, s, k, wg.log_winner[pos], wg.log_wpos[pos], hands, remaining, trick,
                ctx.on_team, ctx, ctx.rng,
            )  # fmt: skip
            w *= soft(c, ruled, popcount(legal), eps)
        hands[s] ^= bit(c)
        remaining ^= bit(c)
    return w


@flat_kernel
def observe(probe, ctx, n, seat, w):
    """Record the world: which hidden cards each other seat holds in it, counted once and by w."""
    probe.sums[0] += 1.0
    probe.sums[1] += w
    for s in range(n):
        if s != seat:
            m = ctx.hands[s] & ~ctx.fixed[s]
            while m:
                c = lowest(m)
                probe.acc[0, s, c] += 1.0
                probe.acc[1, s, c] += w
                m = drop_lowest(m)


@flat_kernel
def open_probe(probe):
    """A decision begins: nothing recorded."""
    if probe is not None:
        probe.acc[:] = 0.0
        probe.sums[:] = 0.0


@flat_kernel
def close_probe(probe, ctx, wg, n, seat):
    """A decision ends: one row a (other seat, card hidden from `seat`), the shares of its worlds
    (uniform and weighted) in which the seat holds the card, and whether it does."""
    if probe is None or probe.sums[0] == 0.0:
        return
    hidden = np.uint64(0)
    for s in range(n):
        if s != seat:
            hidden |= ctx.held[s] & ~ctx.fixed[s]
    for s in range(n):
        m = hidden if s != seat else np.uint64(0)
        while m:
            c = lowest(m)
            m = drop_lowest(m)
            i = probe.count[0]
            probe.count[0] += 1
            if i < probe.rows.shape[0]:
                row = probe.rows[i]
                row[P_TRICK], row[P_SEAT], row[P_CARD] = wg.hist[PLAYED] // n + 1, s, c
                row[P_UNIFORM] = probe.acc[0, s, c] / probe.sums[0]
                row[P_WEIGHTED] = probe.acc[1, s, c] / probe.sums[1] if probe.sums[1] > 0.0 else 0.0
                row[P_HELD] = ctx.held[s] >> np.uint64(c) & np.uint64(1)
