"""The Last Panther search player's pass (docs/players.md "Search"): a `search` seat chooses the
cards it passes by the same sampling as its cards.

The seat sees its hand and nothing else: the pass comes before any card is played.  Each world
deals the other hands again, exactly uniformly (every hidden card in one group); in each, the
other seats pass by the heuristic's rule (policies.choose_pass), and every candidate pass of the
seat is played out by the heuristic at every seat from the first lead and scored as the deal is
(the seat's points and the last trick's 50).  The candidates are the heuristic's pass and each
pass that swaps one of its cards for one the heuristic keeps (all of them would be hundreds);
every candidate meets the same worlds, and the one of highest total wins, the heuristic's among
equals.  The playouts are the deal's own trick loop, so the search's loop is in simulate.py
(search_pass); this module holds its candidates and worlds.
"""

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, drop_lowest, lowest
from musim.games.panther import policies
from musim.games.panther.rules import deck, hand_size
from musim.play import search
from musim.play import worlds as sampler


@flat_kernel
def prepare(ctx, n, seat, hand, heuristic):
    """Fill ctx.cand with the candidate passes (`heuristic` first), clear their totals and, if there
    is a choice, prepare the worlds; returns how many candidates."""
    ctx.cand[0], count = heuristic, 1
    out = heuristic
    while out:
        a = lowest(out)
        out = drop_lowest(out)
        kept = hand & ~heuristic
        while kept:
            b = lowest(kept)
            kept = drop_lowest(kept)
            ctx.cand[count] = heuristic ^ bit(a) ^ bit(b)
            count += 1
    for i in range(count):
        ctx.cand_totals[i] = 0.0
    if count > 1:
        for h in range(n - 1):
            ctx.capacity[h], ctx.allowed[h] = hand_size(n), 1
        if not sampler.prepare(ctx.sp, deck(n) & ~hand, ctx.one_group, ctx.capacity, ctx.allowed, n - 1):
            raise AssertionError("no deal of the hidden cards agrees with the seat's hand")
    return count


@flat_kernel
def deal_world(ctx, n, seat, hand, k, state):
    """Draw a world: every hand into ctx.base (the seat's its own), each other seat's heuristic
    pass into ctx.known."""
    sampler.draw(ctx.sp, state, ctx.drawn)
    for h in range(n - 1):
        s = (seat + 1 + h) % n
        ctx.base[s] = ctx.drawn[h]
        ctx.known[s] = policies.choose_pass(policies.HEURISTIC, ctx.drawn[h], k, state)
    ctx.base[seat] = hand


@flat_kernel
def best(ctx, count):
    """The first candidate pass of highest total."""
    top = search.best_candidate(ctx.cand_totals, count)
    return ctx.cand[top]
