"""The Mückenstich search player's discards (docs/players.md "Search"): a `search` seat chooses
the cards it lays aside by the same sampling as its moves.

The seat sees its hand and nothing else: the discards come before any card is played.  Each
world deals the other hands and the undealt cards again, exactly uniformly (every hidden card in
one group); in each, the other seats discard by the heuristic's rule (policies.choose_discards),
and every candidate of the seat is played out by the heuristic at every seat from the first
lead, the colours named and the deal scored as the deal is (the seat's own score).  The
candidates are the heuristic's discards and each that swaps one of its cards for one the
heuristic keeps; every candidate meets the same worlds, and the one of highest total wins, the
heuristic's among equals.  The playouts are the deal's own card loop and scoring, so the
search's loop is in simulate.py (search_discards); this module holds its candidates and worlds.
"""

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, drop_lowest, lowest
from musim.games.mueckenstich import policies
from musim.games.mueckenstich.rules import UNDEALT, hand_size
from musim.games.mueckenstich.search import FULL
from musim.play import search, worlds


@flat_kernel
def prepare(ctx, n, hand, heuristic):
    """Fill ctx.cand with the candidate discards (`heuristic` first), clear their totals and, if
    there is a choice, prepare the worlds; returns how many candidates."""
    ctx.cand[0], count = heuristic, 1
    out = heuristic
    while out:
        a = lowest(out)
        out = drop_lowest(out)
        kept = hand & ~heuristic
        while kept:
            ctx.cand[count] = heuristic ^ bit(a) ^ bit(lowest(kept))
            kept = drop_lowest(kept)
            count += 1
    for i in range(count):
        ctx.cand_totals[i] = 0.0
    if count > 1:
        for h in range(n - 1):
            ctx.capacity[h], ctx.allowed[h] = hand_size(n), 1
        ctx.capacity[n - 1], ctx.allowed[n - 1] = UNDEALT, 1
        if not worlds.prepare(ctx.sampler, FULL & ~hand, ctx.one_group, ctx.capacity, ctx.allowed, n):
            raise AssertionError("no deal of the hidden cards agrees with the seat's hand")
    return count


@flat_kernel
def deal_world(ctx, n, seat, k, state):
    """Draw a world: each other seat's hand less its heuristic discards into ctx.root.held."""
    worlds.draw(ctx.sampler, state, ctx.drawn)
    for h in range(n - 1):
        hand = ctx.drawn[h]
        ctx.root.held[(seat + 1 + h) % n] = hand & ~policies.choose_discards(policies.HEURISTIC, hand, k, state)


@flat_kernel
def best(ctx, count):
    """The first candidate of highest total."""
    top = search.best_candidate(ctx.cand_totals, count)
    return ctx.cand[top]
