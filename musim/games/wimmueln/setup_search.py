"""The Wimmüln search player's estimates (docs/players.md "Search"): a `search` seat sets its two
estimates aside by the same sampling as its cards.

The seat sees its hand, the dealer's lead and revealed cards (a revealed card not led is in the
dealer's hand), nothing else: the estimates are set aside before any other card is seen.  Each
world deals the other hands again, exactly uniformly (every hidden card in one group); in each,
the other seats set their estimates aside by the heuristic's rule (policies.choose_estimates)
and every candidate pair of the seat is played out by the heuristic at every seat from the
dealer's lead, scored as the deal is (card points and estimate bonus).  The candidates are the
ordered pairs of the hand's kinds (number, trump or not: the heuristic's own candidates), the
heuristic's pair first; every candidate meets the same worlds, and the one of highest total wins,
the first among equals.  The playouts are the deal's own trick loop, so the search's loop is in
simulate.py (search_estimates); this module holds its candidates and worlds.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, drop_lowest, lowest, popcount
from musim.games.wimmueln import policies
from musim.games.wimmueln.rules import CARD_COLOUR, CARD_RANK, DECKS, hand_size, tricks_per_deal
from musim.play import search, worlds


@flat_kernel
def prepare(ctx, n, seat, dealer, lead, a, b, trump, hand, up, down):
    """Fill the candidates (the heuristic's (up, down) first), clear their totals and, if there is
    a choice, prepare the worlds; returns how many candidates."""
    count = candidates(ctx, hand, trump, up, down)
    for i in range(count):
        ctx.cand_totals[i] = 0.0
    if count > 1:
        know(ctx, n, seat, dealer, lead, a, b, hand)
    return count


@flat_kernel
def best(ctx, count):
    """(face-up, hidden) of the first candidate of highest total."""
    top = search.best_candidate(ctx.cand_totals, count)
    return ctx.cand[top, 0], ctx.cand[top, 1]


@flat_kernel
def candidates(ctx, hand, trump, up, down):
    """Fill ctx.cand with the ordered pairs of `hand`'s kinds (a pair of one kind where the hand
    holds two of it), the heuristic's (up, down) first; returns how many."""
    m, _ = policies.kinds(hand, trump, ctx.kind_card, ctx.kind_rank, ctx.kind_strength)
    cand = ctx.cand
    cand[0, 0], cand[0, 1] = up, down
    count = 1
    for i in range(m):
        for j in range(m):
            u, d = ctx.kind_card[i], ctx.kind_card[j]
            if i == j:
                d = policies.second_copy(hand, u, trump)
                if d < 0:
                    continue
            if same_kind(u, up, trump) and same_kind(d, down, trump):
                continue
            cand[count, 0], cand[count, 1] = u, d
            count += 1
    return count


@flat_kernel(inline="always")
def same_kind(a, b, trump):
    """Are a and b one kind to the estimate rule (number, and trump or not)?"""
    return CARD_RANK[a] == CARD_RANK[b] and (CARD_COLOUR[a] == trump) == (CARD_COLOUR[b] == trump)


@flat_kernel
def know(ctx, n, seat, dealer, lead, a, b, hand):
    """Prepare the draws of the other hands as `seat` knows them before the estimates: every card
    dealt but its hand and the lead, the dealer holding its revealed cards not led (ctx.known)."""
    pool = DECKS[n] & ~hand & ~bit(lead)
    shown = (bit(a) | bit(b)) & ~bit(lead) if seat != dealer else np.uint64(0)
    pool &= ~shown
    holders = 0
    for s in range(n):
        ctx.known[s] = shown if s == dealer else np.uint64(0)
        if s == seat:
            continue
        ctx.capacity[holders] = hand_size(n) - (1 if s == dealer else 0) - popcount(ctx.known[s])
        ctx.allowed[holders] = 1
        holders += 1
    m = pool
    while m:
        ctx.group[lowest(m)] = 0
        m = drop_lowest(m)
    if not worlds.prepare(ctx.sampler, pool, ctx.group, ctx.capacity, ctx.allowed, holders):
        raise AssertionError("no deal of the hidden cards agrees with the seat's hand")


@flat_kernel
def deal_world(ctx, n, seat, dealer, trump, extra, state):
    """Draw a world: each other seat's hand into ctx.held, its estimates (the heuristic's) set
    aside into ctx.estimates and out of the hand."""
    worlds.draw(ctx.sampler, state, ctx.drawn)
    i = 0
    for s in range(n):
        if s == seat:
            continue
        hand = ctx.drawn[i] | ctx.known[s]
        i += 1
        u, d = policies.choose_estimates(
            policies.HEURISTIC,
            hand,
            trump,
            extra if s == dealer else 0,
            tricks_per_deal(n),
            state,
            ctx.kind_card,
            ctx.kind_rank,
            ctx.kind_strength,
        )
        ctx.estimates[s, 0], ctx.estimates[s, 1] = u, d
        ctx.held[s] = hand & ~bit(u) & ~bit(d)
