"""Whole deals (and matches) of Rummü as numba kernels: shuffle, deal, turns, score.

Deal k of a run draws from the stream keyed by (seed, k) (musim.core.rng): the dealer, then the
order of the 60 cards (table.setup deals from it), then whatever the policies and a restock
draw.  Independent deals all use the first deal's coming-out rule (4 cards): the drivers start
each row of a run as a match's first deal (match_begin); in a match each deal after the first
uses the (team's) total so far.  Runs go through musim.play.drivers, a deal's columns laid out by
DEAL; `simulate_deals` and `simulate_matches` are the Python entry points.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.deal import deal_cards
from musim.core.deck import MU as DECK
from musim.engine.seats import seat_policies
from musim.games.rummue import policies, table
from musim.games.rummue.rules import MAX_PLAYERS, come_out
from musim.games.rummue.search import MAX_CANDIDATES
from musim.games.rummue.table import G_TURN, PARTS, Workspace, discard, draw, restock, score, setup
from musim.play import drivers
from musim.play.drivers import SEATS

FULL = np.uint64(DECK.full)
CARDS = DECK.n_cards
MAX_TURNS = 1000  # a deal nobody has gone out of by then ends as if the cards had run out
OUT, CAP = range(2)
ENDS = ("out", "cap")
GOAL = (200, 500)  # a match ends when a total reaches it: individual, team
Deal = namedtuple("Deal", "deck scores parts out end turns restocks melds")  # one deal's results
DEAL = Deal(  # their columns (musim.play.drivers.deal_arrays): the card order; per seat scores and
    # parts (table.PARTS); out (the seat that went out, -1: none); end (ENDS index); turns;
    # restocks; melds (melds laid)
    deck=(np.int64, (CARDS,)),
    scores=(np.int64, (SEATS,)),
    parts=(np.int64, (SEATS, len(PARTS))),
    out=(np.int64, ()),
    end=(np.int64, ()),
    turns=(np.int64, ()),
    restocks=(np.int64, ()),
    melds=(np.int64, ()),
)


def make_workspace():
    """Scratch arrays for one thread's deals (table.make_workspace)."""
    return table.make_workspace(MAX_CANDIDATES, drivers.deal_arrays(DEAL, MAX_PLAYERS))


@flat_kernel
def play_deal(n, dealer, teams, first, seat_policy, state, ws, scores):
    """Play one deal on the card order ws.order from `dealer`; the seats' points to `scores`, their
    parts to ws.parts.  Returns (end, the seat that went out or -1, turns)."""
    setup(ws, n, dealer, ws.order)
    for s in range(n):
        ws.need[s] = come_out(ws.totals[s], teams, first)
    seat = (dealer + 1) % n
    for turn in range(MAX_TURNS):
        ws.g[G_TURN] = turn
        policy = seat_policy[seat]
        if ws.g[table.G_STOCK] == 0:
            restock(ws, state)
        draw(ws, seat, policies.choose_draw(policy, seat, ws, state))
        policies.play(policy, seat, ws, state)
        discard(ws, seat, policies.choose_discard(policy, seat, ws, state))
        if ws.held[seat] == 0:
            score(ws, n, teams, seat, scores)
            return OUT, seat, turn + 1
        seat = seat + 1 if seat + 1 < n else 0
    score(ws, n, teams, -1, scores)
    return CAP, -1, MAX_TURNS


@flat_kernel
def match_begin(n, ws):
    """A match starts (and so does each row of a run): no deal played, totals 0."""
    ws.match[0] = 0
    for s in range(n):
        ws.totals[s] = 0


@flat_kernel
def deal_row(n, dealer, seat_policy, state, out, ws):
    """One deal into `out` (a Deal of arrays: a run's row or a match's deal; musim.play.drivers):
    shuffle, play, score; the coming-out rule reads the match's totals so far (with teams each
    seat's total is its side's), which the deal's points then add to."""
    deal_cards(1, FULL, ws.order, state, ws.held)
    for k in range(CARDS):
        out.deck[k] = ws.order[k]
    teams = ws.match[1] != 0
    out.end[0], out.out[0], out.turns[0] = play_deal(
        n, dealer, teams, ws.match[0] == 0, seat_policy, state, ws, out.scores
    )
    out.restocks[0] = ws.g[table.G_RESTOCKS]
    out.melds[0] = ws.g[table.G_MELDS]
    for s in range(n):
        for k in range(len(PARTS)):
            out.parts[s, k] = ws.parts[s, k]
    ws.match[0] += 1
    for s in range(n):
        ws.totals[s] += out.scores[s]


@flat_kernel
def match_reached(n, total, ws):
    """A match ends when a total reaches 200 (with teams 500)."""
    return total >= (GOAL[1] if ws.match[1] else GOAL[0])


drivers.register(Workspace, play=deal_row, begin=match_begin, reached=match_reached)


def simulate_deals(players, seed, policy, start, count, ws=None, teams=False):
    """Deals start..start+count-1 of a run as a dict of arrays, one row per deal; `policy` is a
    name or one name per seat (musim.engine.seats.seat_policies).  Columns: dealer, then DEAL's,
    then teams."""
    out = drivers.simulate_layout_deals(
        DEAL, players, seat_policies(players, policy, policies.NAMES), seed, start, count, _workspace(ws, teams)
    )
    return out | {"teams": np.full(count, bool(teams))}


def simulate_matches(players, seed, policy, start, count, ws=None, teams=False):
    """Matches start..start+count-1 as a dict of arrays, one row per match (musim.play.drivers)."""
    codes = seat_policies(players, policy, policies.NAMES)
    return drivers.simulate_matches(players, codes, seed, start, count, _workspace(ws, teams))


def _workspace(ws, teams):
    """ws (a new one if None) for a run with or without teams."""
    ws = make_workspace() if ws is None else ws
    ws.match[1] = int(bool(teams))
    return ws
