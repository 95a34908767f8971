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
deal's own trick loop and scoring, so it is in simulate.py, which registers both kernels with
musim.play.search.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest, popcount
from musim.games.wimmueln import policies
from musim.games.wimmueln.rules import CARD_COLOUR, COLOUR_MASK, MAX_PLAYERS
from musim.play import worlds
from musim.play.search import search_card

COLOURS = COLOUR_MASK.shape[0]  # a group per colour (void classes); then one per revealed card
EVERY_COLOUR = (1 << COLOURS) - 1

Context = namedtuple(
    "Context",
    "sampler group capacity allowed drawn void held estimates trick won points "
    "play_held play_trick play_won play_points log policy rng totals meta",
)
# void[s]: the colours seat s showed it lacks (bit per colour). held, estimates (cards, face up
# then face down), trick, won, points: the position at the decision, held and the face-down
# estimates of the other seats those of the drawn world; play_*, log: a playout's scratch;
# policy: the playouts' (the heuristic at every seat); rng: their stream (never drawn from).
N, SEAT, DEALER, REVEALED, TRUMP, TRICK, K, LEADER, WINNER, WORLDS = 0, 1, 2, 3, 5, 6, 7, 8, 9, 10
META = 11


def make_context(worlds_per_decision):
    """A search seat's scratch, allocated once per workspace; `worlds_per_decision`: the budget."""
    z = np.zeros
    meta = z(META, np.int64)
    meta[WORLDS] = worlds_per_decision
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
        totals=z(64, np.int64),
        meta=meta,
    )


@flat_kernel
def begin(ctx, n, dealer, a, b, trump):
    """A new deal: dealer `dealer` revealed cards a and b; no seat has shown a void yet."""
    ctx.meta[N], ctx.meta[DEALER], ctx.meta[TRUMP] = n, dealer, trump
    ctx.meta[REVEALED], ctx.meta[REVEALED + 1] = a, b
    for s in range(n):
        ctx.void[s] = 0


@flat_kernel(inline="always")
def note(ctx, seat, card, led):
    """`seat` played `card` to a trick led by `led`: not following shows a void."""
    if CARD_COLOUR[card] != CARD_COLOUR[led]:
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
def decide(ctx, seat, t, k, leader, winner_pos, legal, held, trick, estimates, won, points, state):
    """The card a search seat plays (musim.play.search.search_card); the only legal one without
    a search."""
    if not legal & (legal - np.uint64(1)):
        return lowest(legal)
    look(ctx, seat, t, k, leader, winner_pos, held, trick, estimates, won, points)
    return search_card(ctx, legal, ctx.meta[WORLDS], state, ctx.totals)
