"""The search player of The Last Panther (`--play search`, docs/players.md "Search"): what a seat
knows at a card decision, and the worlds it draws (musim.play.search, musim.play.worlds).

A seat sees its own hand, the cards played, the voids shown (a seat that did not follow the led
colour holds none of it) and the cards it passed: those not yet played are in its left
neighbour's hand.  Every card is dealt (docs/rules.md §4), so the hidden cards are exactly the
other seats' hands, of sizes everyone can count.  A world deals the hidden cards but the passed
ones uniformly among the other seats (a seat's colour is its card group, barred where it showed
a void); the playout that scores a card in a world is the deal's own trick loop
(simulate.playout, registered there with this module's `world`).  The second search player
(`search`; `search-uniform` is the first) values its cards by the solver instead once
`--search-exact-tricks` tricks or fewer are left (solved_values): in each world, the points the
seat takes from there against all the others, every hand seen, as its `dd` play values them
(ddplay.py), the last trick's 50 included.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import drop_lowest, lowest, popcount
from musim.games.panther import WEIGHTS, policies
from musim.games.panther.rules import CARD_COLOUR, COLOUR_MASK, MAX_PLAYERS
from musim.games.panther.solve import solver_game
from musim.games.seat_solve import TT_BUCKET, load_position, make_seat_dd
from musim.play import world_weights
from musim.play import worlds as sampler
from musim.play.search import search_card
from musim.solver.choice import make_limited
from musim.solver.search import make_state
from musim.solver.solve import UNBOUNDED, move_bounds
from musim.solver.tt import make_table, new_generation

Context = namedtuple(
    "Context",
    "sp capacity allowed drawn known base held trick0 trick voids log scores tricks sevens policy rng totals meta "
    "dd out_lo out_hi code hist leads params rheld rtrick got cand cand_totals one_group",
)
# sp: the sampler; capacity, allowed, drawn: per holder (the other seats from the searcher's left);
# known: per seat, cards the searcher knows it holds (what it passed); base: the drawn world's hands;
# held, trick, voids, log, scores, tricks, sevens: a playout's table (trick0: the trick at the
# decision); policy: HEURISTIC for every seat; rng: the playouts' (unused) stream; totals: search_card's
# dd: the exact endgames' solver scratch (None without them), out_lo, out_hi its values by card.
# The world weights' (weights.py): code, the table's policy per seat; hist[pos], leads[t]: the cards
# played and each trick's leader; params: weighted (1) or not, then the fitted parameters
# (WEIGHTS.names); rheld, rtrick: the replay's scratch; got[0]: what the searcher's right neighbour
# passed it.  The pass's search (setup_search.py): cand, cand_totals its candidates and their
# totals; one_group: every card in group 0 (its worlds; base and known: the world's hands and passes).
N, SEAT, LEADER, K, WINNER, POS, SCORE, WORLDS, EXACT_TRICKS = range(9)
# meta: the decision's position (POS: the cards played before it), the seat's score so far, the
# budget, the exact endgames' tricks (0: none)
COLOURS = COLOUR_MASK.shape[0]
MAX_CANDIDATES = 64  # the pass's search: 1 + 3 x 12 at most
SEARCH_TT_MB = 16  # the exact endgames' table: a few tricks solve in little room, and values never depend on it


def make_context(worlds, players=4, exact_tricks=0, seat_policy=(), weights=""):
    """A search seat's scratch for one workspace, drawing `worlds` worlds a decision; with
    `exact_tricks`, a `search` seat's exact endgames at `players` seats (0: none, compiled
    without the solver); `seat_policy`: the table's codes (a `search` seat weights its worlds by
    the parameters `weights` names: a search_weights value, "" the shipped ones)."""
    z = np.zeros
    code = np.full(MAX_PLAYERS, policies.HEURISTIC, np.int64)
    code[: len(seat_policy)] = seat_policy
    params = world_weights.context_params(WEIGHTS, weights, policies.SEARCH in list(seat_policy))
    meta = z(EXACT_TRICKS + 1, np.int64)
    meta[WORLDS], meta[EXACT_TRICKS] = worlds, exact_tricks
    dd = None
    if exact_tricks:
        dd = make_seat_dd(solver_game, players, make_table(SEARCH_TT_MB), make_state(), make_limited())
    seats = (z(MAX_PLAYERS, np.uint64) for _ in range(3))
    return Context(
        sampler.make_sampler(),
        z(sampler.MAX_HOLDERS, np.int64),
        z(sampler.MAX_HOLDERS, np.int64),
        z(sampler.MAX_HOLDERS, np.uint64),
        *seats,
        z(MAX_PLAYERS, np.int64),
        z(MAX_PLAYERS, np.int64),
        z(MAX_PLAYERS, np.uint64),
        z(64, np.int64),
        z(MAX_PLAYERS, np.int64),
        z(MAX_PLAYERS, np.int64),
        z(MAX_PLAYERS, np.int64),
        np.full(MAX_PLAYERS, policies.HEURISTIC, np.int64),
        z(1, np.uint64),
        z(64, np.int64),
        meta,
        dd,
        z(64, np.int64),
        z(64, np.int64),
        code,
        z(64, np.int64),
        z(64, np.int64),
        params,
        z(MAX_PLAYERS, np.uint64),
        z(MAX_PLAYERS, np.int64),
        z(1, np.uint64),
        z(MAX_CANDIDATES, np.uint64),
        z(MAX_CANDIDATES),
        z(64, np.int64),
    )


@flat_kernel
def observe(ctx, n, seat, held, trick, k, leader, winner_pos, pos, scores, passed, voids):
    """Set up the draws of `seat`'s worlds at its card decision: held[s] the hands (only the seat's
    own and the others' sizes are read, and their union, which is the cards not yet played),
    trick[:k] the trick led by `leader`, pos the cards played so far, scores the points taken, passed[s] what s passed
    to its left, voids[s] the colours s showed it lacks (card masks)."""
    hidden = np.uint64(0)
    for t in range(n):
        if t != seat:
            hidden |= held[t]
    left = seat + 1 if seat + 1 < n else 0
    given = passed[seat] & hidden  # passed, not yet played: still in the left neighbour's hand
    ctx.got[0] = passed[seat - 1 if seat > 0 else n - 1]
    for h in range(n - 1):
        t = (seat + 1 + h) % n
        ctx.known[t] = given if t == left else np.uint64(0)
        ctx.capacity[h] = popcount(held[t]) - popcount(ctx.known[t])
        allowed = 0
        for g in range(COLOURS):
            if not voids[t] & COLOUR_MASK[g]:
                allowed |= 1 << g
        ctx.allowed[h] = allowed
    ctx.base[seat] = held[seat]
    ctx.known[seat] = held[seat]
    for j in range(k):
        ctx.trick0[j] = trick[j]
    meta = ctx.meta
    meta[N], meta[SEAT], meta[LEADER], meta[K], meta[WINNER] = n, seat, leader, k, winner_pos
    meta[POS], meta[SCORE] = pos, scores[seat]
    if not sampler.prepare(ctx.sp, hidden & ~given, CARD_COLOUR, ctx.capacity, ctx.allowed, n - 1):
        raise AssertionError("no world is consistent with a search seat's information")


@flat_kernel(inline="always")
def note(ctx, n, pos, seat, card):
    """`seat` played `card`, the pos-th card of the deal: kept for the weights."""
    ctx.hist[pos] = card
    if pos % n == 0:
        ctx.leads[pos // n] = seat


@flat_kernel
def world(ctx, state):
    """Draw one world: the other seats' hands into ctx.base, each with the cards known in it."""
    sampler.draw(ctx.sp, state, ctx.drawn)
    n, seat = ctx.meta[N], ctx.meta[SEAT]
    for h in range(n - 1):
        t = (seat + 1 + h) % n
        ctx.base[t] = ctx.drawn[h] | ctx.known[t]


@flat_kernel
def choose(ctx, n, seat, legal, held, trick, k, leader, winner_pos, pos, scores, passed, voids, state, exact):
    """The card a search seat plays (arguments as observe's; legal: its playable cards); `exact`:
    the seat plays `search`, whose last meta[EXACT_TRICKS] tricks are solved in each world."""
    if legal & (legal - np.uint64(1)):  # a forced card needs no worlds
        observe(ctx, n, seat, held, trick, k, leader, winner_pos, pos, scores, passed, voids)
    ctx.params[0] = 1.0 if exact else 0.0
    solve = exact and popcount(held[seat]) <= ctx.meta[EXACT_TRICKS]
    return search_card(ctx, legal, ctx.meta[WORLDS], state, ctx.totals, solve)


@flat_kernel
def solved_values(ctx, dd, legal, totals, w):
    """Add to totals[c] w times the searcher's deal score when it plays c in the drawn world and the deal
    ends under double-dummy play, the searcher against all the others (the points it takes from
    here, as ddplay.dd_card values them); `dd`: ctx.dd, on its own so that numba compiles the
    solver away without exact endgames."""
    if dd is None:
        return
    m = ctx.meta
    n, seat, k = m[N], m[SEAT], m[K]
    g = dd.game
    for s in range(g.team.shape[0]):
        g.team[s] = s == seat
    new_generation(dd.tt, TT_BUCKET)
    load_position(dd.canon, n, ctx.base, ctx.trick0, k, dd.st)
    move_bounds(g, dd.tt, dd.st, m[LEADER], k, -UNBOUNDED, UNBOUNDED, 0, ctx.out_lo, ctx.out_hi)
    rest = legal
    while rest:
        c = lowest(rest)
        totals[c] += w * (m[SCORE] + ctx.out_lo[dd.canon[c]])
        rest = drop_lowest(rest)
