"""Whole deals of The Last Panther as numba kernels: deal, simultaneous pass, play, score.

Runs of deals and matches go through musim.play.drivers (deal k of a run draws from the
stream keyed by (seed, k), so its row never depends on how a run is split), a deal's
columns laid out by DEAL.  `simulate_deals` and `simulate_matches` are the Python entry
points: one array per column, one row per deal (match).
"""

from collections import namedtuple

import numpy as np
from numba import types
from numba.extending import overload

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, popcount
from musim.core.deal import deal_cards
from musim.games.panther import policies, search, setup_search, weights
from musim.games.panther.ddplay import dd_card
from musim.games.panther.rules import (
    BLACK_SEVENS,
    CARD_COLOUR,
    COLOUR_MASK,
    LAST_TRICK,
    MAX_PLAYERS,
    after_pass,
    beats,
    deck,
    legal,
    match_over,
    pass_count,
    points,
)
from musim.games.panther.solve import solver_game
from musim.games.seat_solve import worker_dd
from musim.play import drivers
from musim.play import search as flat_search
from musim.play.drivers import SEATS
from musim.play.search_budget import DEFAULT_WORLDS
from musim.solver.choice import cards_limited
from musim.solver.table_size import DEFAULT_MB

Workspace = namedtuple("Workspace", "cards held trick voids log rng deal dd search")
Deal = namedtuple("Deal", "hands passed scores tricks last_trick sevens dd_limited")  # one deal's results
DEAL = Deal(  # their columns (musim.play.drivers.deal_arrays): per seat, hands and passed (uint64 masks),
    # scores, tricks and black 7s taken; the seat that took the last trick; the dd cards whose
    # search gave up (solver/choice.py cards_limited)
    hands=(np.uint64, (SEATS,)),
    passed=(np.uint64, (SEATS,)),
    scores=(np.int64, (SEATS,)),
    tricks=(np.int64, (SEATS,)),
    last_trick=(np.int64, ()),
    sevens=(np.int64, (SEATS,)),
    dd_limited=(np.int64, ()),
)


def make_workspace(
    players=None, seat_policy=(), tt_mb=DEFAULT_MB, worlds=DEFAULT_WORLDS, node_limit=0, exact_tricks=0, weights=""
):
    """Scratch arrays for one thread's deals; deal: one deal's results in a match; voids: per
    seat, the colours it showed it lacks (card masks); with a seat playing dd (seat_policy: codes
    per seat) the solver's scratch for `players` seats and a table of tt_mb, each card's searches
    within node_limit nodes (seat_solve.worker_dd), else none; with a seat searching, its context
    drawing `worlds` worlds a decision, with `exact_tricks` exact endgames and the world weights
    `weights` names (a search_weights value) where a seat plays `search`, else none."""
    z = np.zeros
    codes = list(seat_policy)
    context = None
    if policies.SEARCH in codes or policies.SEARCH_UNIFORM in codes:
        context = search.make_context(worlds, players, exact_tricks if policies.SEARCH in codes else 0, codes, weights)
    dd = None
    if policies.DD in list(seat_policy):
        dd = worker_dd(solver_game, players, tt_mb, node_limit)
    return Workspace(
        cards=z(64, np.int64),
        held=z(MAX_PLAYERS, np.uint64),
        trick=z(MAX_PLAYERS, np.int64),
        voids=z(MAX_PLAYERS, np.uint64),
        log=z(64, np.int64),
        rng=z(1, np.uint64),
        deal=drivers.deal_arrays(DEAL, MAX_PLAYERS),
        dd=dd,
        search=context,
    )


@flat_kernel(inline="always")
def put(n, seat, card, held, trick, voids, k, winner_pos):
    """`seat` plays `card` as the trick's k-th card: taken from its hand, a void in the led colour
    noted if it does not follow; returns the trick's next position and its winner's position."""
    held[seat] ^= bit(card)
    trick[k] = card
    if k > 0 and CARD_COLOUR[card] != CARD_COLOUR[trick[0]]:
        voids[seat] |= COLOUR_MASK[CARD_COLOUR[trick[0]]]
    if k > 0 and beats(card, trick[winner_pos]):
        winner_pos = k
    return k + 1, winner_pos


def pick(seat_policy, n, seat, ok, held, trick, k, leader, winner_pos, pos, out, voids, state, dd, ctx):
    """The card `seat` plays as the trick's k-th (ok: its legal cards): by its policy's kernel, or
    by the solver (dd) or the search (ctx) when it plays so."""


def _by_policy(seat_policy, n, seat, ok, held, trick, k, leader, winner_pos, pos, out, voids, state, dd, ctx):
    return policies.choose_card(seat_policy[seat], ok, held[seat], trick, k, k == n - 1, winner_pos, state)


def _by_seat(seat_policy, n, seat, ok, held, trick, k, leader, winner_pos, pos, out, voids, state, dd, ctx):
    if dd is not None and seat_policy[seat] == policies.DD:
        return dd_card(dd, n, seat, held, trick, k, leader)
    if ctx is not None and policies.searching(seat_policy[seat]):
        scores, passed, exact = out.scores, out.passed, seat_policy[seat] == policies.SEARCH
        return search.choose(
            ctx, n, seat, ok, held, trick, k, leader, winner_pos, pos, scores, passed, voids, state, exact
        )
    return policies.choose_card(seat_policy[seat], ok, held[seat], trick, k, k == n - 1, winner_pos, state)


@overload(pick, jit_options={"_nrt": False})
def _pick(seat_policy, n, seat, ok, held, trick, k, leader, winner_pos, pos, out, voids, state, dd, ctx):
    """Two implementations: a search's playout (no dd, no search) runs the trick loop inside the
    deal's, and numba cannot compile one function within its own compilation (a cached recursive
    call would not link), so the loop is inlined and this choice is told apart by type."""
    if isinstance(dd, types.NoneType) and isinstance(ctx, types.NoneType):
        return _by_policy
    return _by_seat


@flat_kernel(inline="always")
def play_on(n, leader, k, winner_pos, seat_policy, state, table, out, pos, dd, ctx):
    """Play the hands in table.held to the deal's end from the k-th card of the trick led by
    `leader` (trick[:k] played, its winner at winner_pos; k = n: that trick is complete), logging
    the cards from table.log[pos]; adds each trick's points, the trick and its black 7s to its
    taker in out's scores, tricks and sevens, then the last trick's 50; returns the last trick's
    taker.  The deal and the search's playouts (search.py) both play through here.  dd, ctx: the
    solver's scratch and the search context, None (compiled away) when no seat needs them."""
    held, trick, voids, log = table.held, table.trick, table.voids, table.log
    scores, tricks, sevens = out.scores, out.tricks, out.sevens
    while True:
        while k < n:
            seat = (leader + k) % n
            ok = legal(held[seat], trick[0] if k > 0 else -1)
            card = pick(seat_policy, n, seat, ok, held, trick, k, leader, winner_pos, pos, out, voids, state, dd, ctx)
            k, winner_pos = put(n, seat, card, held, trick, voids, k, winner_pos)
            log[pos] = card
            if ctx is not None:
                search.note(ctx, n, pos, seat, card)
            pos += 1
        leader = (leader + winner_pos) % n
        won = np.uint64(0)
        for j in range(n):
            won |= bit(trick[j])
        scores[leader] += points(won)
        tricks[leader] += 1
        sevens[leader] += popcount(won & BLACK_SEVENS)
        if not held[leader]:
            break
        k, winner_pos = 0, 0
    scores[leader] += LAST_TRICK
    return leader


@flat_kernel
def play_tricks(n, leader, seat_policy, state, out, ws, dd, ctx):
    """Play out the hands in ws.held from `leader`; fills out's scores, tricks and sevens, returns
    the last trick's winner.  dd, ctx: ws.dd and ws.search, passed on their own so that numba
    compiles the solver and the search away when they are None."""
    for s in range(n):
        out.scores[s] = 0
        out.tricks[s] = 0
        out.sevens[s] = 0
        ws.voids[s] = 0
    return play_on(n, leader, 0, 0, seat_policy, state, ws, out, 0, dd, ctx)


@flat_kernel
def play_deal(n, dealer, seat_policy, state, out, ws):
    """Deal, pass and play one deal into `out` (a Deal of arrays)."""
    hands, passed = out.hands, out.passed
    deal_cards(n, deck(n), ws.cards, state, hands)
    k = pass_count(n)
    for s in range(n):
        passed[s] = policies.choose_pass(seat_policy[s], hands[s], k, state)
    choose_passes(n, dealer, seat_policy, state, hands, passed, ws.search)
    after_pass(n, hands, passed, ws.held)
    out.last_trick[0] = play_tricks(n, (dealer + 1) % n, seat_policy, state, out, ws, ws.dd, ws.search)
    out.dd_limited[0] = cards_limited(ws.dd)


@flat_kernel
def choose_passes(n, dealer, seat_policy, state, hands, passed, ctx):
    """Each `search` seat's pass chosen by search (setup_search.py), in seat order; ctx: ws.search,
    passed on its own so that numba compiles the search away when it is None."""
    if ctx is None:
        return
    for s in range(n):
        if seat_policy[s] == policies.SEARCH:
            passed[s] = search_pass(ctx, n, s, (dealer + 1) % n, hands[s], passed[s], state)


@flat_kernel
def search_pass(ctx, n, seat, leader, hand, heuristic, state):
    """The cards a `search` seat passes from `hand`: the heuristic's unless another candidate
    scores more over ctx's worlds (setup_search.py)."""
    count = setup_search.prepare(ctx, n, seat, hand, heuristic)
    if count == 1:
        return heuristic
    k = pass_count(n)
    for _ in range(ctx.meta[search.WORLDS]):
        setup_search.deal_world(ctx, n, seat, hand, k, state)
        for i in range(count):
            ctx.known[seat] = ctx.cand[i]
            ctx.cand_totals[i] += setup_playout(ctx, n, seat, leader)
    return setup_search.best(ctx, count)


@flat_kernel
def setup_playout(ctx, n, seat, leader):
    """The seat's deal score when the world's hands (ctx.base) pass ctx.known and every seat plays
    the heuristic from the first lead."""
    after_pass(n, ctx.base, ctx.known, ctx.held)
    for s in range(n):
        ctx.scores[s], ctx.tricks[s], ctx.sevens[s] = 0, 0, 0
        ctx.voids[s] = 0
    play_on(n, leader, 0, 0, ctx.policy, ctx.rng, ctx, ctx, 0, None, None)
    return ctx.scores[seat]


@flat_kernel
def playout(ctx, card):
    """The searcher's deal score when it plays `card` in ctx's world and every seat then plays the
    heuristic to the end: the deal's own trick loop on ctx's table (registered here rather than in
    search.py, which play_on calls: one way imports)."""
    meta = ctx.meta
    n, seat, k = meta[search.N], meta[search.SEAT], meta[search.K]
    for s in range(n):
        ctx.held[s] = ctx.base[s]
        ctx.scores[s] = 0
        ctx.tricks[s] = 0
        ctx.sevens[s] = 0
    for j in range(k):
        ctx.trick[j] = ctx.trick0[j]
    k, winner_pos = put(n, seat, card, ctx.held, ctx.trick, ctx.voids, k, meta[search.WINNER])
    pos = meta[search.POS]
    ctx.log[pos] = card
    play_on(n, meta[search.LEADER], k, winner_pos, ctx.policy, ctx.rng, ctx, ctx, pos + 1, None, None)
    return meta[search.SCORE] + ctx.scores[seat]


flat_search.register(search.Context, search.world, playout, search.solved_values, weights.weight)
drivers.register(Workspace, play=play_deal, over=match_over)
_GAME = drivers.SeatGame(DEAL, policies.NAMES, make_workspace)
simulate_deals = _GAME.simulate_deals  # policy: a name or one a seat (musim.engine.seats.seat_policies)
simulate_matches = _GAME.simulate_matches  # docs/rules.md §4: until someone is at -200 or lower
