"""Whole deals of Wimmüln as numba kernels: deal, reveal, lead, estimates, play, score.

Runs of deals and matches go through musim.play.drivers (deal k of a run draws from the
stream keyed by (seed, k)).  The shuffled deck is dealt in blocks, seat s taking cards
s*h .. s*h+h-1 of it, so "the last two cards dealt to the dealer" are the last two of
the dealer's block.  A deal's columns are laid out by DEAL; `simulate_deals` and
`simulate_matches` are the Python entry points: one array per column, one row per deal
(match).
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit
from musim.core.deal import deal_cards
from musim.games.wimmueln import policies, setup_search, weights
from musim.games.wimmueln import search as wsearch
from musim.games.wimmueln.ddplay import dd_card, worker_dd
from musim.games.wimmueln.rules import (
    CARD_RANK,
    DECKS,
    MAX_PLAYERS,
    beats,
    estimate_bonus,
    first_lead,
    hand_size,
    legal,
    match_over,
    points,
    tricks_per_deal,
    trump_of,
)
from musim.play import drivers, search
from musim.play.drivers import SEATS
from musim.play.search_budget import DEFAULT_EXACT_TRICKS, DEFAULT_WORLDS
from musim.solver.choice import cards_limited
from musim.solver.table_size import DEFAULT_MB

Workspace = namedtuple("Workspace", "cards held trick log rng kind_card kind_rank kind_strength deal dd search")
# one deal's results
Deal = namedtuple("Deal", "trump hands revealed estimates tricks card_points bonus scores dd_limited")
DEAL = Deal(  # their columns (musim.play.drivers.deal_arrays): trump (-1: none); hands (uint64 per seat);
    # revealed (the dealer's two cards); estimates (per seat the face-up then the hidden card
    # index); tricks, card_points, bonus and scores per seat; the dd cards whose search gave up
    # (solver/choice.py cards_limited)
    trump=(np.int64, ()),
    hands=(np.uint64, (SEATS,)),
    revealed=(np.int64, (2,)),
    estimates=(np.int64, (SEATS, 2)),
    tricks=(np.int64, (SEATS,)),
    card_points=(np.int64, (SEATS,)),
    bonus=(np.int64, (SEATS,)),
    scores=(np.int64, (SEATS,)),
    dd_limited=(np.int64, ()),
)


def make_workspace(
    players=None,
    seat_policy=(),
    tt_mb=DEFAULT_MB,
    worlds=DEFAULT_WORLDS,
    node_limit=0,
    exact_tricks=DEFAULT_EXACT_TRICKS,
    weights="",
):
    """Scratch arrays for one thread's deals; deal: one deal's results in a match; with
    a seat playing dd (seat_policy: codes per seat) the solver's scratch for `players` seats and a
    table of tt_mb, each card's searches within node_limit nodes (ddplay.worker_dd), else none;
    with a seat searching, the search's scratch and its budget of `worlds` a decision (search.py),
    with `exact_tricks` exact endgames and the world weights `weights` names (a search_weights
    value) where a seat plays `search`, else none."""
    codes = list(seat_policy)
    exact = exact_tricks if policies.SEARCH in codes else 0
    searching = policies.SEARCH in codes or policies.SEARCH_UNIFORM in codes
    z = np.zeros
    return Workspace(
        cards=z(64, np.int64),
        held=z(MAX_PLAYERS, np.uint64),
        trick=z(MAX_PLAYERS, np.int64),
        log=z(64, np.int64),
        rng=z(1, np.uint64),
        kind_card=z(20, np.int64),
        kind_rank=z(20, np.int64),
        kind_strength=z(20, np.int64),
        deal=drivers.deal_arrays(DEAL, MAX_PLAYERS),
        dd=worker_dd(players, tt_mb, node_limit) if policies.DD in list(seat_policy) else None,
        search=wsearch.make_context(worlds, players, exact, codes, weights) if searching else None,
    )


def _trick_loop(name):
    """A kernel `name` playing the deal to its end (`play_from`).  The deal's and the playouts'
    are two kernels of this one code: numba cannot cache a kernel that calls itself, even with
    other argument types (numba issue 6061), as the deal's would through the search."""

    def loop(
        n, t, k, leader, winner_pos, card, trump, seat_policy, state, estimates, held, trick, won, pts, log, dd, search
    ):
        """Play the deal to its end from card k of trick t (led by `leader`, trick[:k] played, the
        winner so far at winner_pos), `card` being that card (out of its hand already): the deal
        from the dealer's lead, or a search's playout from the searcher's card.  Adds the tricks and
        card points won to won and pts; log[t*n+k]: the cards played.  dd, search: ws.dd and
        ws.search, passed on their own so that numba compiles the solver and the search away when
        they are None (a playout has neither)."""
        count = tricks_per_deal(n)
        while t < count:
            taken = np.uint64(0)
            for j in range(k):
                taken |= bit(trick[j])
            seat = (leader + k) % n
            while k < n:
                if card < 0:
                    ok = legal(held[seat], trick[0] if k > 0 else -1, trump)
                    up, down = CARD_RANK[estimates[seat, 0]], CARD_RANK[estimates[seat, 1]]
                    if dd is not None and seat_policy[seat] == policies.DD:
                        card = dd_card(dd, n, seat, held, trick, k, leader, trump, won[seat], up, down)
                    elif search is not None and policies.searching(seat_policy[seat]):
                        exact = seat_policy[seat] == policies.SEARCH
                        card = wsearch.decide(
                            search, seat, t, k, leader, winner_pos, ok, held, trick, estimates, won, pts, state, exact
                        )
                    else:
                        card = policies.choose_card(
                            seat_policy[seat], ok, trick, k, winner_pos, trump, won[seat], count - t, up, down, state
                        )
                    held[seat] ^= bit(card)
                trick[k] = card
                taken |= bit(card)
                if k > 0 and beats(card, trick[winner_pos], trump):
                    winner_pos = k
                if search is not None:
                    wsearch.note(search, seat, t, k, card, trick[0])
                log[t * n + k] = card
                card = -1
                k += 1
                seat = seat + 1 if seat + 1 < n else 0
            leader = (leader + winner_pos) % n
            won[leader] += 1
            pts[leader] += points(taken)
            t, k, winner_pos = t + 1, 0, 0

    loop.__name__ = loop.__qualname__ = name
    return flat_kernel(loop)


play_from = _trick_loop("play_from")
play_out = _trick_loop("play_out")  # the playouts' (search.py), with neither dd nor search


@flat_kernel(inline="always")
def bonus(won, estimates, s):
    """Seat s's estimate bonus (rules.estimate_bonus) with won[s] tricks."""
    return estimate_bonus(won[s], CARD_RANK[estimates[s, 0]], CARD_RANK[estimates[s, 1]])


@flat_kernel
def playout(ctx, card):
    """The searcher's deal score (card points and estimate bonus) when it plays `card` in the
    world drawn into ctx and every seat then plays the heuristic to the end."""
    m = ctx.meta
    n, seat = m[wsearch.N], m[wsearch.SEAT]
    for s in range(n):
        ctx.play_held[s], ctx.play_won[s], ctx.play_points[s] = ctx.held[s], ctx.won[s], ctx.points[s]
    for j in range(m[wsearch.K]):
        ctx.play_trick[j] = ctx.trick[j]
    ctx.play_held[seat] ^= bit(card)
    play_out(
        n,
        m[wsearch.TRICK],
        m[wsearch.K],
        m[wsearch.LEADER],
        m[wsearch.WINNER],
        card,
        m[wsearch.TRUMP],
        ctx.policy,
        ctx.rng,
        ctx.estimates,
        ctx.play_held,
        ctx.play_trick,
        ctx.play_won,
        ctx.play_points,
        ctx.log,
        None,
        None,
    )
    return ctx.play_points[seat] + bonus(ctx.play_won, ctx.estimates, seat)


@flat_kernel
def search_estimates(ctx, n, seat, dealer, lead, a, b, trump, hand, up, down, state):
    """(face-up, hidden) card a `search` seat sets aside from `hand`: the heuristic's (up, down)
    unless another candidate scores more over ctx's worlds (setup_search.py)."""
    count = setup_search.prepare(ctx, n, seat, dealer, lead, a, b, trump, hand, up, down)
    if count == 1:
        return up, down
    extra = policies.strength(lead, trump)
    for _ in range(ctx.meta[wsearch.WORLDS]):
        setup_search.deal_world(ctx, n, seat, dealer, trump, extra, state)
        for i in range(count):
            ctx.cand_totals[i] += setup_playout(ctx, n, seat, dealer, lead, trump, hand, i)
    return setup_search.best(ctx, count)


@flat_kernel
def setup_playout(ctx, n, seat, dealer, lead, trump, hand, i):
    """The seat's deal score in the drawn world with candidate i set aside, every seat playing
    the heuristic from the dealer's lead."""
    u, d = ctx.cand[i, 0], ctx.cand[i, 1]
    ctx.estimates[seat, 0], ctx.estimates[seat, 1] = u, d
    for s in range(n):
        ctx.play_held[s] = hand & ~bit(u) & ~bit(d) if s == seat else ctx.held[s]
        ctx.play_won[s], ctx.play_points[s] = 0, 0
    play_out(
        n, 0, 0, dealer, 0, lead, trump, ctx.policy, ctx.rng, ctx.estimates, ctx.play_held, ctx.play_trick,
        ctx.play_won, ctx.play_points, ctx.log, None, None,
    )  # fmt: skip
    return ctx.play_points[seat] + bonus(ctx.play_won, ctx.estimates, seat)


@flat_kernel
def play_tricks(n, dealer, lead, trump, a, b, seat_policy, state, estimates, won, card_points, ws, dd, search):
    """Play every trick, the dealer having led `lead` to the first (a and b: its revealed cards);
    fills won and card_points.  dd, search: as play_from's."""
    for s in range(n):
        won[s], card_points[s] = 0, 0
    if search is not None:
        wsearch.begin(search, n, dealer, a, b, trump)
    play_from(
        n,
        0,
        0,
        dealer,
        0,
        lead,
        trump,
        seat_policy,
        state,
        estimates,
        ws.held,
        ws.trick,
        won,
        card_points,
        ws.log,
        dd,
        search,
    )


@flat_kernel
def play_deal(n, dealer, seat_policy, state, out, ws):
    """Deal and play one deal into `out` (a Deal of arrays)."""
    deal_and_play(n, dealer, seat_policy, state, out, ws, ws.search)


@flat_kernel
def deal_and_play(n, dealer, seat_policy, state, out, ws, search):
    """play_deal's; search: ws.search, passed on its own so that numba compiles the search away
    when it is None."""
    hands, revealed, estimates, won, card_points = out.hands, out.revealed, out.estimates, out.tricks, out.card_points
    deal_cards(n, DECKS[n], ws.cards, state, hands)
    h = hand_size(n)
    a, b = ws.cards[dealer * h + h - 2], ws.cards[dealer * h + h - 1]
    revealed[0], revealed[1] = a, b
    trump = trump_of(a, b)
    for s in range(n):
        ws.held[s] = hands[s]
    lead = first_lead(a, b) if trump >= 0 else policies.choose_lead(seat_policy[dealer], hands[dealer], state)
    ws.held[dealer] ^= bit(lead)
    for s in range(n):
        extra = policies.strength(lead, trump) if s == dealer else 0
        up, down = policies.choose_estimates(
            seat_policy[s],
            ws.held[s],
            trump,
            extra,
            tricks_per_deal(n),
            state,
            ws.kind_card,
            ws.kind_rank,
            ws.kind_strength,
        )
        if search is not None and seat_policy[s] == policies.SEARCH:
            up, down = search_estimates(search, n, s, dealer, lead, a, b, trump, ws.held[s], up, down, state)
        estimates[s, 0], estimates[s, 1] = up, down
        ws.held[s] ^= bit(up) | bit(down)
    play_tricks(n, dealer, lead, trump, a, b, seat_policy, state, estimates, won, card_points, ws, ws.dd, search)
    for s in range(n):
        out.bonus[s] = bonus(won, estimates, s)
        out.scores[s] = card_points[s] + out.bonus[s]
    out.trump[0] = trump
    out.dd_limited[0] = cards_limited(ws.dd)


drivers.register(Workspace, play=play_deal, over=match_over)
search.register(wsearch.Context, wsearch.world, playout, wsearch.solved_values, weights.weight)
_GAME = drivers.SeatGame(DEAL, policies.NAMES, make_workspace)
simulate_deals = _GAME.simulate_deals  # policy: a name or one a seat (musim.engine.seats.seat_policies)
simulate_matches = _GAME.simulate_matches  # docs/rules.md §3: to 200
