"""The search player's decision: flat Monte Carlo over sampled worlds (docs/players.md "Search").

At a card decision of a search seat, `search_card` draws `worlds` deals of the hidden cards
(each game's `world` kernel, via musim.play.worlds: exactly uniform among the deals consistent
with what the seat has seen) and in each plays every legal card followed by the game's
heuristic to the end of the deal (its `playout` kernel, returning the searcher's objective).
Every card meets the same worlds, so their difference is not the luck of the draw.  Near the
end of the deal a game with exact play may value the cards by its solver instead (`values` in
each world where the caller says the decision is `exact`: the second search player's exact
endgames).  A game registers its kernels for its search context's namedtuple type; numba
resolves them while compiling (an overload), as musim.play.drivers does, which keeps the
on-disk cache valid.
"""

import numpy as np
from numba.extending import overload

from musim.compile.jit import flat_kernel
from musim.core.bits import drop_lowest, lowest


def world(ctx, state):
    """Draw one world into `ctx`: the game's kernel."""


def playout(ctx, card):
    """The searcher's objective when it plays `card` in the drawn world and the rest of the deal
    is played by the heuristic: the game's kernel."""


def values(ctx, legal, totals, w):
    """Add to totals[c] w times the searcher's objective after each legal card c in the drawn
    world, every seat playing exactly from there: the game's solved_values(ctx, ctx.dd, legal,
    totals, w), ctx.dd on its own so that numba compiles the solver away where dd is None."""


def weight(ctx):
    """The drawn world's weight: how likely the public actions so far are in it under the models
    that made them (the game's kernel; 1.0 for every world samples uniformly)."""


def register(context, world_kernel, playout_kernel, values_kernel, weight_kernel):
    """Register a game's world(ctx, state), playout(ctx, card), values (its solved_values(ctx, dd,
    legal, totals, w)) and weight(ctx) for its context namedtuple class."""

    def mine(ctx):
        return getattr(ctx, "instance_class", None) is context

    @overload(world, inline="always")
    def _world(ctx, state):
        if mine(ctx):
            return lambda ctx, state: world_kernel(ctx, state)

    @overload(playout, inline="always")
    def _playout(ctx, card):
        if mine(ctx):
            return lambda ctx, card: playout_kernel(ctx, card)

    @overload(values, inline="always")
    def _values(ctx, legal, totals, w):
        if mine(ctx):
            return lambda ctx, legal, totals, w: values_kernel(ctx, ctx.dd, legal, totals, w)

    @overload(weight, inline="always")
    def _weight(ctx):
        if mine(ctx):
            return lambda ctx: weight_kernel(ctx)


@flat_kernel
def search_card(ctx, legal, worlds, state, totals, exact):
    """The legal card of highest total objective over `worlds` sampled worlds, each counted with
    its weight (lowest card index among equals), each valued by playouts or, `exact`, by the
    game's solver; the only legal card without drawing.  totals:
    float64[64] scratch (sums of integer objectives are exact, so unweighted choices are the
    integer ones)."""
    if not legal & (legal - np.uint64(1)):
        return lowest(legal)
    m = legal
    while m:
        totals[lowest(m)] = 0
        m = drop_lowest(m)
    for _ in range(worlds):
        world(ctx, state)
        w = weight(ctx)
        if exact:
            values(ctx, legal, totals, w)
            continue
        m = legal
        while m:
            c = lowest(m)
            totals[c] += w * playout(ctx, c)
            m = drop_lowest(m)
    best = lowest(legal)
    m = drop_lowest(legal)
    while m:
        c = lowest(m)
        if totals[c] > totals[best]:
            best = c
        m = drop_lowest(m)
    return best


@flat_kernel(inline="always")
def best_candidate(totals, count):
    """The first of `count` set-up candidates of highest total (the heuristic's own, listed
    first, among equals)."""
    best = 0
    for i in range(1, count):
        if totals[i] > totals[best]:
            best = i
    return best
