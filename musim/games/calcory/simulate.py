"""Whole games of Calcory as numba kernels: lay out the grid, play turns by the seats'
policies, remember what was seen.

Game k of a run draws from the stream keyed by (seed, k) (musim.core.rng): the dealer, then the
order of the 60 cards, laid out at grid positions 0..59; the seat left of the dealer starts.
Memory: each time a card is turned face up, every seat remembers its position with chance
`memory` (and the seat putting a card back, that card's); a position is forgotten when its
card leaves it.  Runs go through musim.play.drivers, one game a row; `simulate_deals` is the Python
entry point: one array per column, one row per game.
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

Workspace = namedtuple("Workspace", "table known held log rng")
FULL = np.uint64(DECK.full)
CARDS = DECK.n_cards
LOG_EVENTS = MAX_TURNS * 16  # a turn turns at most 12 cards before it ends, then maybe puts one back
TURN_CARD, STOP, PUT_BACK = range(3)  # log kinds: (turn index, kind, a, b)
PARTS = ("cards", "turns", "failed", "thirteens", "marks_taken")


def make_workspace():
    """Scratch arrays for one thread's games."""
    return Workspace(
        table=new_table(),
        known=np.zeros(MAX_PLAYERS, np.uint64),
        held=np.zeros(MAX_PLAYERS, np.uint64),
        log=np.zeros((LOG_EVENTS, 4), np.int64),
        rng=np.zeros(1, np.uint64),
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


# A run's per-game arrays (grid: 64 wide, the shuffle's scratch) and its memory.
Rows = namedtuple("Rows", "dealer grid scores parts end turns left events memory")


@flat_kernel(inline="always")
def play_row(n, dealer, seat_policy, state, rows, i, ws):
    """Game row i of a run (musim.play.drivers): shuffle, play, count.  parts[i, s]: PARTS of seat s."""
    grid = rows.grid[i]
    deal_cards(1, FULL, grid, state, ws.held)
    rows.events[i] = play_game(n, (dealer + 1) % n, seat_policy, rows.memory, grid, ws)
    t = ws.table
    rows.end[i], rows.turns[i] = t.g[END], t.g[TURNS]
    on_grid = popcount(t.m[DOWN] | t.m[MARKS] | t.m[TURNED])
    rows.left[i] = on_grid
    for s in range(n):
        rows.scores[i, s] = popcount(t.won[s])
        rows.parts[i, s, 0] = rows.scores[i, s]
        for k in range(4):
            rows.parts[i, s, k + 1] = t.counts[s, k]


drivers.register(Workspace, play_row)


def simulate_deals(players, seed, policy, start, count, ws=None, memory=1.0):
    """Games start..start+count-1 of a run as a dict of arrays, one row per game; `policy` is a
    name or one name per seat (musim.engine.seats.seat_policies), `memory` the chance a seat
    remembers a seen card's position.  Columns: dealer; grid (the card at each position, 60
    card indices); per seat scores (cards won) and parts (PARTS); end (rules.ENDS index); turns;
    left (cards on the grid at the end); events (actions logged)."""
    z = np.zeros
    rows = Rows(
        dealer=z(count, np.int64),
        grid=z((count, 64), np.int64),
        scores=z((count, players), np.int64),
        parts=z((count, players, len(PARTS)), np.int64),
        end=z(count, np.int64),
        turns=z(count, np.int64),
        left=z(count, np.int64),
        events=z(count, np.int64),
        memory=float(memory),
    )
    ws = make_workspace() if ws is None else ws
    out = drivers.simulate_deals(players, seat_policies(players, policy, policies.NAMES), seed, start, rows, ws)
    del out["memory"]
    out["grid"] = out["grid"][:, :CARDS]
    return out
