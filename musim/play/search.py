"""The search player's decision: flat Monte Carlo over sampled worlds (docs/players.md "Search").

At a card decision of a search seat, `search_card` draws `worlds` deals of the hidden cards
(each game's `world` kernel, via musim.play.worlds: exactly uniform among the deals consistent
with what the seat has seen) and in each plays every legal card followed by the game's
heuristic to the end of the deal (its `playout` kernel, returning the searcher's objective).
Every card meets the same worlds, so their difference is not the luck of the draw.  A game
registers its two kernels for its search context's namedtuple type; numba resolves them while
compiling (an overload), as musim.play.drivers does, which keeps the on-disk cache valid.
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


def register(context, world_kernel, playout_kernel):
    """Register a game's world(ctx, state) and playout(ctx, card) for its context namedtuple class."""

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


@flat_kernel
def search_card(ctx, legal, worlds, state, totals):
    """The legal card of highest total objective over `worlds` sampled worlds (lowest card
    index among equals); the only legal card without drawing.  totals: int64[64] scratch."""
    if not legal & (legal - np.uint64(1)):
        return lowest(legal)
    m = legal
    while m:
        totals[lowest(m)] = 0
        m = drop_lowest(m)
    for _ in range(worlds):
        world(ctx, state)
        m = legal
        while m:
            c = lowest(m)
            totals[c] += playout(ctx, c)
            m = drop_lowest(m)
    best = lowest(legal)
    m = drop_lowest(legal)
    while m:
        c = lowest(m)
        if totals[c] > totals[best]:
            best = c
        m = drop_lowest(m)
    return best
