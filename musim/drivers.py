"""Runs of deals and matches for the games scored per seat: one driver each for every game.

Deal k of a run draws from the stream (seed, k) and match m from (~seed, m), a key space
apart; the dealer of a deal, or of a match's first deal, is drawn first, and in a match
the dealer moves one seat left each deal until the game's rule ends it: a total reaching
a bound, or a fixed number of deals.

Each driver is compiled once per game, told apart by the game's workspace type: the game
registers its kernels for that type, and numba resolves `play_row`, `match_deal` and
`match_over` from it while compiling (an overload).  Passing the kernels as function
arguments, or closing over them, would key numba's on-disk cache on the function objects,
so the drivers would compile anew in every process.
"""

import numpy as np
from numba.extending import overload

from musim.jit import flat_kernel
from musim.rng import randint, stream_state

MATCH_DEAL_CAP = 10_000  # a match that has not ended by then stops (flagged `capped`)


def play_row(n, dealer, seat_policy, state, rows, i, ws):
    """Play deal row i of `rows` (the game's namedtuple of per-deal arrays): ws's game's kernel."""


def match_deal(n, dealer, seat_policy, state, ws):
    """Play one deal of a match, its scores to ws.scores: ws's game's kernel."""


def match_over(n, played, total, ws):
    """Does the match end after `played` deals, a player's running total being `total`: ws's game's rule."""


def match_begin(n, ws):
    """Start a match: ws's game's kernel resetting its own match state (nothing unless it has one)."""


def register(workspace, row, deal=None, over=None, length=None, begin=None, reached=None):
    """Register a game's kernels for its workspace namedtuple class: row(n, dealer, seat_policy,
    state, rows, i, ws) plays deal row i, deal(n, dealer, seat_policy, state, ws) one deal of a
    match into ws (scores in ws.scores); a match ends when over(total) holds for a player's
    total, or, given length instead, after length(n) deals, or, given reached instead, when
    reached(n, total, ws) holds (a goal the workspace carries).  begin(n, ws), if given, runs
    before each match's first deal (a game whose deals read the match so far).  A game without
    matches (Safarü, whose row is a whole game) registers its row alone."""

    def mine(ws):
        return getattr(ws, "instance_class", None) is workspace

    @overload(play_row, inline="always")
    def _row(n, dealer, seat_policy, state, rows, i, ws):
        if mine(ws):
            return lambda n, dealer, seat_policy, state, rows, i, ws: row(n, dealer, seat_policy, state, rows, i, ws)

    if deal is None:
        return

    @overload(match_deal, inline="always")
    def _deal(n, dealer, seat_policy, state, ws):
        if mine(ws):
            return lambda n, dealer, seat_policy, state, ws: deal(n, dealer, seat_policy, state, ws)

    @overload(match_begin, inline="always")
    def _begin(n, ws):
        if mine(ws):
            if begin is None:
                return lambda n, ws: None
            return lambda n, ws: begin(n, ws)

    @overload(match_over, inline="always")
    def _over(n, played, total, ws):
        if mine(ws):
            if reached is not None:
                return lambda n, played, total, ws: reached(n, total, ws)
            if length is None:
                return lambda n, played, total, ws: over(total)
            return lambda n, played, total, ws: played >= length(n)


@flat_kernel(nogil=True)
def simulate_chunk(n, seed, start, seat_policy, rows, ws):
    """Play deals start .. start+len(rows.dealer)-1 of a run into `rows`."""
    state = ws.rng
    for i in range(rows.dealer.shape[0]):
        state[0] = stream_state(seed, start + i)
        rows.dealer[i] = randint(state, n)
        play_row(n, rows.dealer[i], seat_policy, state, rows, i, ws)


def simulate_deals(players, seat_policy, seed, start, rows, ws):
    """Deals start..start+len(rows.dealer)-1 as a dict of the arrays of `rows`, one row per deal.
    `seat_policy`: one policy code per seat."""
    simulate_chunk(players, seed, start, seat_policy, rows, ws)
    return rows._asdict()


@flat_kernel(nogil=True)
def simulate_match_chunk(n, seed, start, seat_policy, deals, totals, ws):
    """Play matches start .. start+len(deals)-1."""
    state = ws.rng
    for i in range(deals.shape[0]):
        state[0] = stream_state(~np.uint64(seed), start + i)
        dealer = randint(state, n)
        for s in range(n):
            totals[i, s] = 0
        played, over = 0, False
        match_begin(n, ws)
        while not over and played < MATCH_DEAL_CAP:
            match_deal(n, dealer, seat_policy, state, ws)
            played += 1
            for s in range(n):
                totals[i, s] += ws.scores[s]
                over |= match_over(n, played, totals[i, s], ws)
            dealer = dealer + 1 if dealer + 1 < n else 0
        deals[i] = played


def simulate_matches(players, seat_policy, seed, start, count, ws):
    """Matches start..start+count-1 as a dict of arrays, one row per match: deals, totals (per
    seat), capped (no end within MATCH_DEAL_CAP deals).  `seat_policy`: one policy code per seat."""
    deals = np.zeros(count, np.int64)
    totals = np.zeros((count, players), np.int64)
    simulate_match_chunk(players, seed, start, seat_policy, deals, totals, ws)
    return {"deals": deals, "totals": totals, "capped": deals >= MATCH_DEAL_CAP}
