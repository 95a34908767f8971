"""Matches of the games scored per seat, one driver for every game (The Last Panther, Wimmüln).

A match is deals until a total ends it by the game's rule, the dealer moving one seat left
each deal.  The driver is compiled once per game, told apart by the game's workspace type:
the game registers its deal and end-of-match kernels for that type, and numba resolves
`match_deal` and `match_over` from it while compiling (an overload).  Passing the kernels as
function arguments instead would key numba's on-disk cache on the function objects, so the
driver would compile anew in every process.
"""

import numpy as np
from numba.extending import overload

from musim.jit import flat_kernel
from musim.rng import randint, stream_state

MATCH_DEAL_CAP = 10_000  # a match that has not ended by then stops (flagged `capped`)


def match_deal(n, dealer, seat_policy, state, ws):
    """Play one deal of a match, its scores to ws.scores: the registered kernel of ws's game."""


def match_over(total, ws):
    """Does a player's running total end the match: the registered rule of ws's game."""


def register(workspace, deal, over):
    """Register a game's kernels for its workspace namedtuple class: deal(n, dealer,
    seat_policy, state, ws) plays a deal into ws (scores in ws.scores), over(total) ends a match."""

    def mine(ws):
        return getattr(ws, "instance_class", None) is workspace

    @overload(match_deal, inline="always")
    def _deal(n, dealer, seat_policy, state, ws):
        if mine(ws):
            return lambda n, dealer, seat_policy, state, ws: deal(n, dealer, seat_policy, state, ws)

    @overload(match_over, inline="always")
    def _over(total, ws):
        if mine(ws):
            return lambda total, ws: over(total)


@flat_kernel(nogil=True)
def simulate_match_chunk(n, seed, start, seat_policy, deals, totals, ws):
    """Play matches start .. start+len(deals)-1.

    Match m draws from stream (~seed, m), a key space apart from single deals; its first
    dealer is drawn, then the dealer moves one seat left each deal."""
    state = ws.rng
    for i in range(deals.shape[0]):
        state[0] = stream_state(~np.uint64(seed), start + i)
        dealer = randint(state, n)
        for s in range(n):
            totals[i, s] = 0
        played, over = 0, False
        while not over and played < MATCH_DEAL_CAP:
            match_deal(n, dealer, seat_policy, state, ws)
            played += 1
            for s in range(n):
                totals[i, s] += ws.scores[s]
                over |= match_over(totals[i, s], ws)
            dealer = dealer + 1 if dealer + 1 < n else 0
        deals[i] = played


def simulate_matches(players, seat_policy, seed, start, count, ws):
    """Matches start..start+count-1 as a dict of arrays, one row per match: deals, totals (per
    seat), capped (no end within MATCH_DEAL_CAP deals).  `seat_policy`: one policy code per seat."""
    deals = np.zeros(count, np.int64)
    totals = np.zeros((count, players), np.int64)
    simulate_match_chunk(players, seed, start, seat_policy, deals, totals, ws)
    return {"deals": deals, "totals": totals, "capped": deals >= MATCH_DEAL_CAP}
