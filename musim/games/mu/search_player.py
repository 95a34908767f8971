"""The Mü search player's kernels (docs/players.md "Search"): what a seat knows, its worlds and
their playouts, for musim.play.search.search_card.

A search seat sees its hand; the cards the others laid in the auction and still hold (public:
they stay with their holders); trumps and the team (the partner is named openly); the cards
played; and the voids shown, per class (ws.klass): a seat that did not follow the led class
holds none of it.  Every other card is hidden: the pool its world deals (musim.play.worlds)
to the other seats, each taking as many as it holds beyond its public cards, none of a class
it showed void in.  In a world, the searcher plays a card, then every seat (the searcher too)
plays the heuristic with its own view (trick_step.choose) to the end of the deal; the outcome is
the sum of the scores (rules.score_played, the deal's bid and the run's targets) of the seats
on the searcher's side.  A contract played without a bid (the analyses' replays under several
bids at once, which lay no cards) counts the side's card points instead.

The second search player (`search`; `search-uniform` is the first) values its cards in each
world by the double-dummy solver instead, once `--search-exact-tricks` K tricks or fewer are
left (solved_values): the chief's team's points from there under exact play by both sides,
scored as the deal's scores are (any monotone score of the team's points has the same best
play, so the solver's value is the side's best outcome), chooses the chief's trump and
partner by sampling too (setup_search.py), and weights each world by how likely the others'
public actions are in it (world_weights.py).

The context is allocated once per workspace (make_search); it shares the workspace's contract
arrays (klass, power, class masks, team, targets) and reads its hands and trick in progress.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, drop_lowest, lowest, popcount
from musim.core.cards import CARD_POINTS
from musim.games.mu import ddplay, policies, trick_step, world_weights
from musim.games.mu.rules import MAX_PLAYERS, legal_moves, score_played
from musim.games.mu.solver_layout import solver_game
from musim.play import search, worlds
from musim.solver.solve import UNBOUNDED, move_bounds

ALL_GROUPS = (1 << worlds.MAX_GROUPS) - 1
SEARCH_TT_MB = 16  # the exact endgames' table: a few tricks solve in little room, and values never depend on it
MAX_CANDIDATES = 16 * (MAX_PLAYERS - 1)  # set-up: each trump (15 types and none) with each partner

Search = namedtuple(
    "Search",
    "sampler drawn seat_of capacity allowed fixed void public hands trick points start_points scores totals rng meta "
    "held table on_team klass power class_mask tier_mask targets est dd out_lo out_hi one_group candidates cand_totals "
    "weighing learned probe",
)
# sampler, drawn, seat_of, capacity, allowed: the worlds' draws, one holder per other seat;
# fixed: each seat's cards in every world (the searcher's hand, the others' public cards); void:
# per seat, a bit per class shown void; public: the laid cards; hands, trick, points: a playout's
# table; start_points: card points at the decision; scores, totals: scratch; held..est: the
# workspace's own arrays (est: the hand model's scratch); dd: the exact endgames' solver (None
# without them); out_lo, out_hi: its values by card; one_group: every card in one group (the
# set-up's worlds, before any void); candidates, cand_totals: the set-up's candidates (trump,
# partner) and their totals (setup_search.py); weighing: the weights of the worlds
# (world_weights.py), learned: the workspace's learned bidder (None: none), probe: calibration's
# record of the worlds (None in runs).
# meta: the budget, the searching seat, players, the trick's leader, cards on it, its winning
# position, the deal's bid (0: none), chief, partner (-1: none), chief trump, holders, vice
# trump, the exact endgames' tricks (0: none)
WORLDS, SEAT, N, LEADER, COUNT, WINNER_POS, BID, CHIEF, PARTNER, CHIEF_TRUMP, HOLDERS = range(11)
VICE_TRUMP, EXACT_TRICKS = range(11, 13)


def make_search(worlds_per_card, ws, weights, exact_tricks=0, probe=None):
    """A search context of `worlds_per_card` worlds a decision over the workspace `ws`'s hands
    (held), trick and contract arrays; `exact_tricks`: a `search` seat's exact endgames (0: none,
    compiled without the solver); `weights`: the parameter row of its weighted worlds
    (world_weights.py, the run's player count); `probe`: calibration's (world_weights.make_probe)."""
    z = np.zeros
    meta = z(EXACT_TRICKS + 1, np.int64)
    meta[WORLDS], meta[EXACT_TRICKS] = worlds_per_card, exact_tricks
    return Search(
        sampler=worlds.make_sampler(),
        drawn=z(worlds.MAX_HOLDERS, np.uint64),
        seat_of=z(worlds.MAX_HOLDERS, np.int64),
        capacity=z(worlds.MAX_HOLDERS, np.int64),
        allowed=z(worlds.MAX_HOLDERS, np.int64),
        fixed=z(MAX_PLAYERS, np.uint64),
        void=z(MAX_PLAYERS, np.int64),
        public=z(MAX_PLAYERS, np.uint64),
        hands=z(MAX_PLAYERS, np.uint64),
        trick=z(MAX_PLAYERS, np.int64),
        points=z(MAX_PLAYERS, np.int64),
        start_points=z(MAX_PLAYERS, np.int64),
        scores=z(MAX_PLAYERS, np.int64),
        totals=z(64, np.float64),
        rng=z(1, np.uint64),  # the heuristic draws nothing: a stream for choose_card's signature
        meta=meta,
        held=ws.held,
        table=ws.trick,
        on_team=ws.on_team,
        klass=ws.klass,
        power=ws.power,
        class_mask=ws.class_mask,
        tier_mask=ws.tier_mask,
        targets=ws.targets,
        est=ws.est,
        dd=ddplay.make_ddplay(SEARCH_TT_MB) if exact_tricks else None,
        out_lo=z(64, np.int64),
        out_hi=z(64, np.int64),
        one_group=z(64, np.int64),
        candidates=z((2, MAX_CANDIDATES), np.int64),
        cand_totals=z(MAX_CANDIDATES, np.float64),
        weighing=world_weights.make_weighing(ws, weights),
        learned=ws.learned,
        probe=probe,
    )


@flat_kernel
def announce(ctx, n, laid, bid):
    """Before the play: the laid auction cards (public while held) and the deal's bid (0: none)."""
    if ctx is not None:
        for s in range(MAX_PLAYERS):
            ctx.public[s] = laid[s] if s < n else np.uint64(0)
        ctx.meta[BID] = bid


@flat_kernel
def heard(ctx, n, dealer, turns, bid_policy):
    """The auction is over (world_weights.heard); ctx None: no seat searches."""
    if ctx is not None:
        world_weights.heard(ctx.weighing, n, dealer, turns, bid_policy)


@flat_kernel
def named(ctx, what, vice, vice_trump):
    """The vice named its trump, or the chief its contract (world_weights.named)."""
    if ctx is not None:
        world_weights.named(ctx.weighing, what, vice, vice_trump)


@flat_kernel
def forget(ctx):
    """After the play: nothing laid, no bid, no auction heard (what a contract played without
    announce sees)."""
    if ctx is not None:
        ctx.public[:] = 0
        ctx.meta[BID] = 0
        ctx.weighing.hist[world_weights.HEARD] = world_weights.NOTHING


@flat_kernel
def begin(ctx, n, chief, chief_trump, vice_trump, play_policy):
    """At the first trick: the contract's chief, partner and trumps, each seat's card-play code
    (play_policy); no void shown yet."""
    world_weights.playing(ctx.weighing, n, play_policy)
    ctx.meta[CHIEF], ctx.meta[PARTNER], ctx.meta[CHIEF_TRUMP] = chief, -1, chief_trump
    ctx.meta[VICE_TRUMP] = vice_trump
    for s in range(n):
        ctx.void[s] = 0
        if s != chief and ctx.on_team[s]:
            ctx.meta[PARTNER] = s


@flat_kernel(inline="always")
def note(ctx, seat, card, led):
    """`seat` played `card` to a trick led by `led`: not following shows a void in the led class."""
    k = ctx.klass[led]
    if ctx.klass[card] != k:
        ctx.void[seat] |= 1 << k


@flat_kernel
def seat_card(ctx, n, seat, leader, k, winner_pos, card_points, state, exact):
    """The card `seat` plays as the trick's k-th card (search_card over ctx's worlds); `exact`:
    the seat plays `search`, whose worlds are weighted (world_weights.py) and whose last
    meta[EXACT_TRICKS] tricks are solved in each world."""
    legal = legal_moves(ctx.held[seat], ctx.table[0] if k > 0 else -1, ctx.klass, ctx.class_mask)
    if not legal & (legal - np.uint64(1)):
        return lowest(legal)  # the only card: nothing drawn
    if not know(ctx, n, seat, leader, k, winner_pos, card_points, ALL_GROUPS, ctx.klass):
        raise AssertionError("no world is consistent with the search seat's information")
    world_weights.prepare(ctx, ctx.weighing, n, ctx.meta[CHIEF], exact)
    world_weights.open_probe(ctx.probe)
    solve = exact and popcount(ctx.held[seat]) <= ctx.meta[EXACT_TRICKS]
    card = search.search_card(ctx, legal, ctx.meta[WORLDS], state, ctx.totals, solve)
    world_weights.close_probe(ctx.probe, ctx, ctx.weighing, n, seat)
    return card


@flat_kernel
def know(ctx, n, seat, leader, k, winner_pos, card_points, groups, group_of):
    """Set up the worlds of `seat` about to play the trick's k-th card (leader, winning position
    and card points so far as the table shows them): its hand and the public cards are fixed,
    the rest is the sampler's pool, a seat's cards in the groups (bits) of `groups` less its
    voids, group_of[card] a card's group (False: no deal of it is consistent, a bug)."""
    held, meta = ctx.held, ctx.meta
    meta[SEAT], meta[N], meta[LEADER], meta[COUNT], meta[WINNER_POS] = seat, n, leader, k, winner_pos
    for s in range(n):
        ctx.start_points[s] = card_points[s]
    pool, h = np.uint64(0), 0
    for s in range(n):
        if s == seat:
            ctx.fixed[s] = held[s]
            continue
        ctx.fixed[s] = held[s] & ctx.public[s]
        hidden = held[s] ^ ctx.fixed[s]
        pool |= hidden
        ctx.seat_of[h] = s
        ctx.capacity[h] = popcount(hidden)
        ctx.allowed[h] = groups & ~ctx.void[s]
        h += 1
    meta[HOLDERS] = h
    return worlds.prepare(ctx.sampler, pool, group_of, ctx.capacity, ctx.allowed, h)


@flat_kernel
def world(ctx, state):
    """Deal the hidden cards anew: the other seats' hands of one world (ctx.fixed + ctx.drawn)."""
    worlds.draw(ctx.sampler, state, ctx.drawn)


@flat_kernel
def weight(ctx):
    """The drawn world's weight (world_weights.weigh): 1.0 unless the deciding seat weights its
    worlds or a probe records them."""
    if not world_weights.weighs(ctx.weighing, ctx.probe):
        return 1.0
    meta = ctx.meta
    n = meta[N]
    deal_world(ctx, n)
    return world_weights.weigh(ctx, ctx.weighing, n, meta[SEAT], meta[CHIEF], meta[CHIEF_TRUMP], ctx.learned, ctx.probe)


@flat_kernel(inline="always")
def deal_world(ctx, n):
    """The drawn world's hands into ctx.hands, the card points so far into ctx.points; returns
    every card still held."""
    remaining = np.uint64(0)
    for s in range(n):
        ctx.hands[s] = ctx.fixed[s]
        ctx.points[s] = ctx.start_points[s]
    for h in range(ctx.meta[HOLDERS]):
        ctx.hands[ctx.seat_of[h]] |= ctx.drawn[h]
    for s in range(n):
        remaining |= ctx.hands[s]
    return remaining


@flat_kernel
def playout(ctx, card):
    """The searcher plays `card` in the drawn world, the heuristic plays every card after it;
    returns the searcher's side's outcome (module doc)."""
    meta = ctx.meta
    n, seat, k = meta[N], meta[SEAT], meta[COUNT]
    remaining = deal_world(ctx, n)
    for j in range(k):
        ctx.trick[j] = ctx.table[j]
    winner_pos = trick_step.lay(seat, card, k, meta[WINNER_POS], ctx.hands, ctx.trick, ctx.klass, ctx.power)
    remaining ^= bit(card)
    play_on(ctx, n, seat + 1 if seat + 1 < n else 0, meta[LEADER], k + 1, winner_pos, remaining)
    return outcome(ctx, n, ctx.on_team[seat])


@flat_kernel
def play_on(ctx, n, s, leader, k, winner_pos, remaining):
    """The heuristic plays the deal in ctx.hands to its end from `s` to play the k-th card of the
    trick in ctx.trick (led by `leader`, winning so far at winner_pos), adding to ctx.points."""
    hands, trick, pts, on_team, klass, power = ctx.hands, ctx.trick, ctx.points, ctx.on_team, ctx.klass, ctx.power
    while True:
        while k < n:
            winner = leader + winner_pos
            winner = winner - n if winner >= n else winner
            c = trick_step.choose(
                policies.HEURISTIC, n, s, k, winner, winner_pos, hands, remaining, trick, on_team, ctx, ctx.rng
            )
            winner_pos = trick_step.lay(s, c, k, winner_pos, hands, trick, klass, power)
            remaining ^= bit(c)
            k += 1
            s = s + 1 if s + 1 < n else 0
        winner = leader + winner_pos
        winner = winner - n if winner >= n else winner
        pts[winner] += trick_step.points(n, trick)
        if not remaining:
            break
        leader, s, k, winner_pos = winner, winner, 0, 0


@flat_kernel
def solved_values(ctx, dd, legal, totals, w):
    """Add to totals[c] w times the searcher's side's outcome when it plays c in the drawn world and every
    seat then plays double-dummy: the chief's team's points from the trick in progress on, solved
    (solve.move_bounds, exact without a node limit), scored as outcome scores; `dd`: ctx.dd, on
    its own so that numba compiles the solver away without exact endgames."""
    if dd is None:
        return
    meta = ctx.meta
    n, leader, k = meta[N], meta[LEADER], meta[COUNT]
    deal_world(ctx, n)
    ddplay.dd_setup(
        n, meta[CHIEF_TRUMP], meta[VICE_TRUMP], ctx.hands, ctx.on_team, dd, ctx.klass, ctx.power, ctx.class_mask
    )
    canon = dd.lay.canon_of
    left = 0  # the points still to win: the cards held and on the table
    for j in range(k):
        dd.st.line[j] = canon[ctx.table[j]]
        left += CARD_POINTS[ctx.table[j]]
    taken, before = 0, 0
    for s in range(n):
        taken += ctx.start_points[s] if ctx.on_team[s] else 0
        before += ctx.start_points[s]
        m = ctx.hands[s]
        while m:
            left += CARD_POINTS[lowest(m)]
            m = drop_lowest(m)
    move_bounds(solver_game(n, dd.lay), dd.tt, dd.st, leader, k, -UNBOUNDED, UNBOUNDED, 0, ctx.out_lo, ctx.out_hi)
    m = legal
    while m:
        c = lowest(m)
        won = ctx.out_lo[canon[c]]
        totals[c] += w * team_outcome(ctx, n, taken + won, before - taken + left - won)
        m = drop_lowest(m)


@flat_kernel(inline="always")
def team_outcome(ctx, n, team, others):
    """The searcher's side's outcome when the chief's team ends with `team` card points and the
    others with `others`: every side's score depends on the team's points alone, so the team's
    go to the chief and the others' to one opponent."""
    other = -1
    for s in range(n):
        ctx.points[s] = 0
        if other < 0 and not ctx.on_team[s]:
            other = s
    ctx.points[ctx.meta[CHIEF]] = team
    ctx.points[other] = others
    return outcome(ctx, n, ctx.on_team[ctx.meta[SEAT]])


@flat_kernel(inline="always")
def outcome(ctx, n, side):
    """The side's deal scores summed (score_played with the deal's bid), or its card points without a bid."""
    meta, pts = ctx.meta, ctx.points
    bid = meta[BID]
    if bid > 0:
        score_played(n, bid, meta[CHIEF], meta[PARTNER], meta[CHIEF_TRUMP], pts, ctx.scores, ctx.targets)
    total = 0
    for s in range(n):
        if ctx.on_team[s] == side:
            total += ctx.scores[s] if bid > 0 else pts[s]
    return total


search.register(Search, world, playout, solved_values, weight)
