"""The search player's view of a Wimmüln deal (`--play search`, docs/players.md "Search"):
what a seat has seen, and the worlds it draws from it.

A search seat knows its hand and its two estimates; the dealer's two revealed cards; every
other seat's face-up estimate (out of play); the cards played; and the colours each seat has
shown it lacks (a seat that did not follow the led colour holds none of it).  Hidden from it:
the other seats' hands and their face-down estimates, dead cards whose numbers still count
for their aims and bonuses.  A world deals those hidden cards again, exactly uniformly among
the deals that agree with all it knows (musim.play.worlds): each other seat's hand (of its
size, none of a colour it showed void in) and its face-down estimate (one card, any).  A
revealed card not yet played nor laid face up is in the dealer's hand or is the dealer's
face-down estimate: it forms a group of its own that only those two may hold.

The playout from a world (the heuristic to the end, the searcher's own deal score) runs the
deal's own trick loop and scoring, so it is in simulate.py, which registers the kernels with
musim.play.search.  The second search player (`search`; `search-uniform` is the first) values
its cards by the solver instead once `--search-exact-tricks` tricks or fewer are left
(solved_values): in each world, the searcher's card points and estimate bonus after each card
as the solver values a Wimmüln position for one seat (ddplay.py: every hand seen, the others
one side minimising that seat's score).
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, drop_lowest, lowest, popcount
from musim.games.seat_solve import TT_BUCKET, load_position
from musim.games.wimmueln import WEIGHTS, ddplay, policies
from musim.games.wimmueln.rules import CARD_COLOUR, CARD_RANK, COLOUR_MASK, MAX_PLAYERS, tricks_per_deal
from musim.play import world_weights, worlds
from musim.play.search import search_card
from musim.solver.choice import make_limited
from musim.solver.search import make_state
from musim.solver.solve import UNBOUNDED, move_bounds
from musim.solver.tt import make_table, new_generation

COLOURS = COLOUR_MASK.shape[0]  # a group per colour (void classes); then one per revealed card
EVERY_COLOUR = (1 << COLOURS) - 1

Context = namedtuple(
    "Context",
    "sampler group capacity allowed drawn void held estimates trick won points "
    "play_held play_trick play_won play_points log policy rng totals meta dd out_lo out_hi "
    "code hist leads params rheld rtrick rwon kind_card kind_rank kind_strength cand cand_totals known",
)
# void[s]: the colours seat s showed it lacks (bit per colour). held, estimates (cards, face up
# then face down), trick, won, points: the position at the decision, held and the face-down
# estimates of the other seats those of the drawn world; play_*, log: a playout's scratch;
# policy: the playouts' (the heuristic at every seat); rng: their stream (never drawn from); dd:
# the exact endgames' solver scratch (None without them), out_lo, out_hi its values by card.
# meta also: the exact endgames' tricks (0: none).
# The world weights' (weights.py): code, the table's policy per seat; hist[t*n+k], leads[t]: the
# cards played and each trick's leader; params: weighted (1) or not, then the fitted parameters
# (WEIGHTS.names); rheld, rtrick, rwon, kind_*: the replay's scratch.  The estimates' search
# (setup_search.py): cand[i] its candidates (up, down), cand_totals their totals, known[s] the
# cards it knows seat s holds.
N, SEAT, DEALER, REVEALED, TRUMP, TRICK, K, LEADER, WINNER, WORLDS = 0, 1, 2, 3, 5, 6, 7, 8, 9, 10
EXACT_TRICKS = 11
META = 12
MAX_CANDIDATES = 400  # the estimates' search: ordered pairs of at most 20 kinds
SEARCH_TT_MB = 16  # the exact endgames' table: a few tricks solve in little room, and values never depend on it


def make_context(worlds_per_decision, players=4, exact_tricks=0, seat_policy=(), weights=""):
    """A search seat's scratch, allocated once per workspace; `worlds_per_decision`: the budget;
    `exact_tricks`: a `search` seat's exact endgames at `players` seats (0: none, compiled
    without the solver); `seat_policy`: the table's codes (a `search` seat weights its worlds by
    the parameters `weights` names: a search_weights value, "" the shipped ones)."""
    z = np.zeros
    code = np.full(MAX_PLAYERS, policies.HEURISTIC, np.int64)
    code[: len(seat_policy)] = seat_policy
    params = world_weights.context_params(WEIGHTS, weights, policies.SEARCH in list(seat_policy))
    meta = z(META, np.int64)
    meta[WORLDS], meta[EXACT_TRICKS] = worlds_per_decision, exact_tricks
    dd = None
    if exact_tricks:
        dd = ddplay.make_dd(players, make_table(SEARCH_TT_MB), make_state(), make_limited())
    return Context(
        sampler=worlds.make_sampler(),
        group=z(64, np.int64),
        capacity=z(worlds.MAX_HOLDERS, np.int64),
        allowed=z(worlds.MAX_HOLDERS, np.int64),
        drawn=z(worlds.MAX_HOLDERS, np.uint64),
        void=z(MAX_PLAYERS, np.int64),
        held=z(MAX_PLAYERS, np.uint64),
        estimates=z((MAX_PLAYERS, 2), np.int64),
        trick=z(MAX_PLAYERS, np.int64),
        won=z(MAX_PLAYERS, np.int64),
        points=z(MAX_PLAYERS, np.int64),
        play_held=z(MAX_PLAYERS, np.uint64),
        play_trick=z(MAX_PLAYERS, np.int64),
        play_won=z(MAX_PLAYERS, np.int64),
        play_points=z(MAX_PLAYERS, np.int64),
        log=z(64, np.int64),
        policy=np.full(MAX_PLAYERS, policies.HEURISTIC, np.int64),
        rng=z(1, np.uint64),
        totals=z(64, np.float64),
        meta=meta,
        dd=dd,
        out_lo=z(64, np.int64),
        out_hi=z(64, np.int64),
        code=code,
        hist=z(64, np.int64),
        leads=z(16, np.int64),
        params=params,
        rheld=z(MAX_PLAYERS, np.uint64),
        rtrick=z(MAX_PLAYERS, np.int64),
        rwon=z(MAX_PLAYERS, np.int64),
        kind_card=z(20, np.int64),
        kind_rank=z(20, np.int64),
        kind_strength=z(20, np.int64),
        cand=z((MAX_CANDIDATES, 2), np.int64),
        cand_totals=z(MAX_CANDIDATES),
        known=z(MAX_PLAYERS, np.uint64),
    )


@flat_kernel
def begin(ctx, n, dealer, a, b, trump):
    """A new deal: dealer `dealer` revealed cards a and b; no seat has shown a void yet."""
    ctx.meta[N], ctx.meta[DEALER], ctx.meta[TRUMP] = n, dealer, trump
    ctx.meta[REVEALED], ctx.meta[REVEALED + 1] = a, b
    for s in range(n):
        ctx.void[s] = 0


@flat_kernel(inline="always")
def note(ctx, seat, t, k, card, led):
    """`seat` played `card`, card k of trick t, led by `led`: kept for the weights; not
    following shows a void."""
    ctx.hist[t * ctx.meta[N] + k] = card
    if k == 0:
        ctx.leads[t] = seat
    elif CARD_COLOUR[card] != CARD_COLOUR[led]:
        ctx.void[seat] |= 1 << CARD_COLOUR[led]


@flat_kernel
def look(ctx, seat, t, k, leader, winner_pos, held, trick, estimates, won, points):
    """Take in the position at `seat`'s card k of trick t (led by `leader`, winner so far at
    winner_pos) and prepare the draws of its worlds.  held, estimates: the true hands and
    estimates, of which only what the seat sees is kept (the hidden cards as one pool)."""
    n, dealer = ctx.meta[N], ctx.meta[DEALER]
    ctx.meta[SEAT], ctx.meta[TRICK], ctx.meta[K], ctx.meta[LEADER], ctx.meta[WINNER] = seat, t, k, leader, winner_pos
    pool = np.uint64(0)
    holders = 0
    for s in range(n):
        ctx.held[s] = held[s] if s == seat else np.uint64(0)
        ctx.estimates[s, 0], ctx.estimates[s, 1] = estimates[s, 0], estimates[s, 1]
        ctx.won[s], ctx.points[s] = won[s], points[s]
        if s == seat:
            continue
        pool |= held[s] | bit(estimates[s, 1])
        revealed = 0  # the groups of the revealed cards this seat may hold
        if s == dealer:
            for r in range(2):
                if not ctx.void[s] >> CARD_COLOUR[ctx.meta[REVEALED + r]] & 1:
                    revealed |= 1 << (COLOURS + r)
        ctx.capacity[holders], ctx.allowed[holders] = popcount(held[s]), EVERY_COLOUR & ~ctx.void[s] | revealed
        ctx.capacity[holders + 1] = 1  # the face-down estimate: any colour
        ctx.allowed[holders + 1] = EVERY_COLOUR | (3 << COLOURS if s == dealer else 0)
        holders += 2
    for j in range(k):
        ctx.trick[j] = trick[j]
    m = pool
    while m:
        c = lowest(m)
        ctx.group[c] = CARD_COLOUR[c]
        m &= m - np.uint64(1)
    for r in range(2):
        c = ctx.meta[REVEALED + r]
        if pool >> np.uint64(c) & np.uint64(1):
            ctx.group[c] = COLOURS + r
    if not worlds.prepare(ctx.sampler, pool, ctx.group, ctx.capacity, ctx.allowed, holders):
        raise AssertionError("no deal of the hidden cards agrees with the seat's view")


@flat_kernel
def world(ctx, state):
    """Draw a world: every other seat's hand and face-down estimate."""
    worlds.draw(ctx.sampler, state, ctx.drawn)
    i = 0
    for s in range(ctx.meta[N]):
        if s != ctx.meta[SEAT]:
            ctx.held[s], ctx.estimates[s, 1] = ctx.drawn[i], lowest(ctx.drawn[i + 1])
            i += 2


@flat_kernel
def decide(ctx, seat, t, k, leader, winner_pos, legal, held, trick, estimates, won, points, state, exact):
    """The card a search seat plays (musim.play.search.search_card); the only legal one without
    a search.  `exact`: the seat plays `search`, whose last meta[EXACT_TRICKS] tricks are solved."""
    if not legal & (legal - np.uint64(1)):
        return lowest(legal)
    look(ctx, seat, t, k, leader, winner_pos, held, trick, estimates, won, points)
    ctx.params[0] = 1.0 if exact else 0.0
    solve = exact and tricks_per_deal(ctx.meta[N]) - t <= ctx.meta[EXACT_TRICKS]
    return search_card(ctx, legal, ctx.meta[WORLDS], state, ctx.totals, solve)


@flat_kernel
def solved_values(ctx, dd, legal, totals, w):
    """Add to totals[c] w times the searcher's deal score when it plays c in the drawn world and the
    deal ends under double-dummy play, the searcher against all the others (ddplay.seat_game:
    card points of the tricks it wins and its estimate bonus); `dd`: ctx.dd, on its own so that
    numba compiles the solver away without exact endgames."""
    if dd is None:
        return
    m = ctx.meta
    n, seat, k = m[N], m[SEAT], m[K]
    load_position(dd.canon, n, ctx.held, ctx.trick, k, dd.st)
    up, down = CARD_RANK[ctx.estimates[seat, 0]], CARD_RANK[ctx.estimates[seat, 1]]
    g = ddplay.seat_game(dd, seat, m[TRUMP], ctx.won[seat], popcount(ctx.held[seat]), up, down)
    new_generation(dd.tt, TT_BUCKET)
    move_bounds(g, dd.tt, dd.st, m[LEADER], k, -UNBOUNDED, UNBOUNDED, 0, ctx.out_lo, ctx.out_hi)
    rest = legal
    while rest:
        c = lowest(rest)
        totals[c] += w * (ctx.points[seat] + ctx.out_lo[dd.canon[c]])
        rest = drop_lowest(rest)
