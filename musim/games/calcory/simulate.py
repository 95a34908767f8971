"""Whole games of Calcory as numba kernels: lay out the grid, play turns by the seats'
policies, remember what was seen.

Game k of a run draws from the stream keyed by (seed, k) (musim.core.rng): the dealer, then the
order of the 60 cards, laid out at grid positions 0..59; the seat left of the dealer starts.
Memory: each time a card is turned face up, every seat remembers its position with chance
`memory` (and the seat putting a card back, that card's); a position is forgotten when its
card leaves it.  Runs go through musim.play.drivers, one game a row, its columns laid out by
DEAL; `simulate_deals` is the Python entry point: one array per column, one row per game.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, popcount
from musim.core.deal import deal_cards
from musim.core.deck import MU as DECK
from musim.core.rng import next_u64
from musim.engine.seats import seat_policies
from musim.games.calcory import policies
from musim.games.calcory.rules import (
    BACK,
    DOWN,
    END,
    MARKS,
    MAX_PLAYERS,
    MAX_TURNS,
    OVER,
    PHASE,
    PLAY,
    SEAT,
    TURNED,
    TURNS,
    new_table,
    put_back,
    reset,
    stop,
    turn,
)
from musim.play import drivers
from musim.play.drivers import SEATS

Workspace = namedtuple("Workspace", "table known held log rng memory")
FULL = np.uint64(DECK.full)
CARDS = DECK.n_cards
LOG_EVENTS = MAX_TURNS * 16  # a turn turns at most 12 cards before it ends, then maybe puts one back
TURN_CARD, STOP, PUT_BACK = range(3)  # log kinds: (turn index, kind, a, b)
PARTS = ("cards", "turns", "failed", "thirteens", "marks_taken")
Deal = namedtuple("Deal", "grid scores parts end turns left events")  # one game's results
DEAL = Deal(  # their columns (musim.play.drivers.deal_arrays): the card at each grid position; per seat
    # scores (cards won) and parts (PARTS); end (rules.ENDS index); turns; left (cards on the grid
    # at the end); events (actions logged)
    grid=(np.int64, (CARDS,)),
    scores=(np.int64, (SEATS,)),
    parts=(np.int64, (SEATS, len(PARTS))),
    end=(np.int64, ()),
    turns=(np.int64, ()),
    left=(np.int64, ()),
    events=(np.int64, ()),
)


def make_workspace():
    """Scratch arrays for one thread's games; memory: the run's chance that a seat remembers a
    seen card's position (simulate_deals sets it)."""
    return Workspace(
        table=new_table(),
        known=np.zeros(MAX_PLAYERS, np.uint64),
        held=np.zeros(MAX_PLAYERS, np.uint64),
        log=np.zeros((LOG_EVENTS, 4), np.int64),
        rng=np.zeros(1, np.uint64),
        memory=np.ones(1),
    )


@flat_kernel(inline="always")
def _remembers(memory, state):
    """Does a seat remember a sighting (chance `memory`)?"""
    if memory >= 1.0:
        return True
    if memory <= 0.0:
        return False
    return (next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0) < memory


@flat_kernel
def play_game(n, starter, seat_policy, memory, grid, ws):
    """Play one game on the grid `grid` from `starter`; the log of its actions in ws.log.
    Returns the number of logged actions."""
    t, known, state, log = ws.table, ws.known, ws.rng, ws.log
    for s in range(MAX_PLAYERS):
        known[s] = 0
    reset(t, n, starter, grid)
    events = 0
    while t.g[PHASE] != OVER:
        s, policy = t.g[SEAT], seat_policy[t.g[SEAT]]
        log[events, 0] = t.g[TURNS] - 1
        if t.g[PHASE] == PLAY:
            p = policies.choose_turn(policy, t, known[s], state)
            if p < 0:
                stop(t)
                log[events, 1] = STOP
            else:
                turn(t, p)
                log[events, 1], log[events, 2] = TURN_CARD, p
                for k in range(n):
                    if _remembers(memory, state):
                        known[k] |= bit(p)
        elif t.g[PHASE] == BACK:
            c, p = policies.choose_back(policy, t, state)
            put_back(t, c, p)
            log[events, 1], log[events, 2], log[events, 3] = PUT_BACK, c, p
            if _remembers(memory, state):
                known[s] |= bit(p)
        events += 1
        placed = t.m[DOWN] | t.m[MARKS] | t.m[TURNED]
        for k in range(n):
            known[k] &= placed
    return events


@flat_kernel
def game_row(n, dealer, seat_policy, state, out, ws):
    """One game into `out` (a Deal of arrays; musim.play.drivers): shuffle, play, count."""
    grid = out.grid
    deal_cards(1, FULL, grid, state, ws.held)
    out.events[0] = play_game(n, (dealer + 1) % n, seat_policy, ws.memory[0], grid, ws)
    t = ws.table
    out.end[0], out.turns[0] = t.g[END], t.g[TURNS]
    out.left[0] = popcount(t.m[DOWN] | t.m[MARKS] | t.m[TURNED])
    for s in range(n):
        out.scores[s] = popcount(t.won[s])
        out.parts[s, 0] = out.scores[s]
        for k in range(4):
            out.parts[s, k + 1] = t.counts[s, k]


drivers.register(Workspace, play=game_row)


def simulate_deals(players, seed, policy, start, count, ws=None, memory=1.0):
    """Games start..start+count-1 of a run as a dict of arrays, one row per game; `policy` is a
    name or one name per seat (musim.engine.seats.seat_policies), `memory` the chance a seat
    remembers a seen card's position.  Columns: dealer, then DEAL's."""
    ws = make_workspace() if ws is None else ws
    ws.memory[0] = memory
    codes = seat_policies(players, policy, policies.NAMES)
    return drivers.simulate_layout_deals(DEAL, players, codes, seed, start, count, ws)
