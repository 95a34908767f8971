"""Whole games of Danger as numba kernels: shuffle, five rounds of turns by the seats' policies.

Game k of a run draws from the stream keyed by (seed, k) (musim.core.rng): the dealer, then the
order of the deck (the stock, top first); the seat left of the dealer starts the first round,
each later round starts one seat further left.  When a seat draws from an empty stock, the
discard pile is shuffled from the same stream into a new stock.  Runs go through
musim.play.drivers, one game a row (Danger defines no match), its columns laid out by DEAL;
`simulate_deals` is the Python entry point: one array per column, one row per game.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.deal import shuffle
from musim.core.deck import danger_deck
from musim.engine.seats import seat_policies
from musim.games.danger import policies
from musim.games.danger.rules import (
    MAX_CARDS,
    MAX_PLAYERS,
    MAX_ROUND_TURNS,
    OFFER,
    OVER,
    PARTS,
    PHASE,
    RESHUFFLES,
    ROW,
    SEAT,
    SECURE,
    STOCK_END,
    TAKE,
    TOP,
    TURNS,
    can_take_offer,
    card_table,
    new_table,
    place,
    refill,
    reset,
    secure,
    stock_empty,
    take,
)
from musim.play import drivers
from musim.play.drivers import SEATS

Workspace = namedtuple("Workspace", "table log shuffled rng kind rounds")
MAX_ROUNDS = 20
LOG_EVENTS = MAX_ROUNDS * MAX_ROUND_TURNS * 4  # a turn: maybe a reshuffle, take, maybe a row, maybe a secure
# the most cards a game's reshuffles can hold: what a workspace for records keeps (runs keep none)
RECORD_SHUFFLED = MAX_ROUNDS * MAX_ROUND_TURNS * MAX_CARDS
# log kinds: (kind, a); a: the colour of ROW_CHOICE and SECURE_CHOICE (-1: none), the cards of RESHUFFLE
TAKE_STOCK, TAKE_OFFER, ROW_CHOICE, SECURE_CHOICE, RESHUFFLE = range(5)
Deal = namedtuple("Deal", "deck scores parts ends turns reshuffles events")  # one game's results
DEAL = Deal(  # their columns (musim.play.drivers.deal_arrays): the stock's order (card indices, as many
    # as the run's deck has, then zeros); per seat scores and parts (rules.PARTS); ends (rounds
    # ended by each of rules.ENDS); turns; reshuffles; events (decisions logged)
    deck=(np.int64, (MAX_CARDS,)),
    scores=(np.int64, (SEATS,)),
    parts=(np.int64, (SEATS, PARTS)),
    ends=(np.int64, (3,)),
    turns=(np.int64, ()),
    reshuffles=(np.int64, ()),
    events=(np.int64, ()),
)


def make_workspace(shuffled=0):
    """Scratch arrays for one thread's games, keeping the first `shuffled` cards of the reshuffles
    (RECORD_SHUFFLED for a record); kind and rounds: the run's deck (rules.card_table) and rounds
    a game, which simulate_deals sets."""
    return Workspace(
        table=new_table(),
        log=np.zeros((LOG_EVENTS, 2), np.int64),
        shuffled=np.zeros(shuffled, np.int64),
        rng=np.zeros(1, np.uint64),
        kind=np.zeros((0, 3), np.int64),
        rounds=0,
    )


@flat_kernel
def play_game(n, starter, seat_policy, rounds, kind, order, ws):
    """Play one game of the stock `order` from `starter`; the log of its decisions in ws.log and
    the orders of its reshuffles in ws.shuffled.  Returns the number of logged events."""
    t, state, log = ws.table, ws.rng, ws.log
    reset(t, n, starter, rounds, kind, order)
    events, kept = 0, 0
    while t.g[PHASE] != OVER:
        policy = seat_policy[t.g[SEAT]]
        if t.g[PHASE] == TAKE:
            offer = can_take_offer(t) and policies.choose_take(policy, t, state)
            if not offer and stock_empty(t):
                refill(t)
                m = t.g[STOCK_END]
                shuffle(t.stock, m, state)
                log[events, 0], log[events, 1] = RESHUFFLE, m
                events += 1
                for k in range(m):
                    if kept < ws.shuffled.shape[0]:
                        ws.shuffled[kept] = t.stock[k]
                    kept += 1
            card = t.g[OFFER] if offer else t.stock[t.g[TOP]]
            log[events, 0], log[events, 1] = (TAKE_OFFER if offer else TAKE_STOCK), card
            take(t, offer)
        elif t.g[PHASE] == ROW:
            c = policies.choose_row(policy, t, state)
            log[events, 0], log[events, 1] = ROW_CHOICE, c
            place(t, c)
        elif t.g[PHASE] == SECURE:
            c = policies.choose_secure(policy, t, state)
            log[events, 0], log[events, 1] = SECURE_CHOICE, c
            secure(t, c)
        events += 1
    return events


@flat_kernel
def game_row(n, dealer, seat_policy, state, out, ws):
    """One game into `out` (a Deal of arrays; musim.play.drivers): shuffle, play, count."""
    m = ws.kind.shape[0]
    order = out.deck
    for c in range(m):
        order[c] = c
    shuffle(order, m, state)
    out.events[0] = play_game(n, (dealer + 1) % n, seat_policy, ws.rounds, ws.kind, order[:m], ws)
    t = ws.table
    out.turns[0], out.reshuffles[0] = t.g[TURNS], t.g[RESHUFFLES]
    for k in range(3):
        out.ends[k] = t.ends[k]
    for s in range(n):
        out.scores[s] = t.scores[s]
        for k in range(PARTS):
            out.parts[s, k] = t.counts[s, k]


drivers.register(Workspace, play=game_row)


def simulate_deals(players, seed, policy, start, count, ws=None, copies=3, multicolour=3, rounds=5):
    """Games start..start+count-1 of a run as a dict of arrays, one row per game; `policy` is a
    name or one name per seat (musim.engine.seats.seat_policies); the deck (musim.core.deck.danger_deck)
    and the rounds a game are the game's options.  Columns: dealer, then DEAL's, deck cut to the
    run's deck."""
    if not 1 <= rounds <= MAX_ROUNDS or players > MAX_PLAYERS:
        raise ValueError(f"rounds must be 1..{MAX_ROUNDS} and players at most {MAX_PLAYERS}")
    kind = card_table(danger_deck(copies, multicolour))
    ws = (make_workspace() if ws is None else ws)._replace(kind=kind, rounds=int(rounds))
    codes = seat_policies(players, policy, policies.NAMES)
    out = drivers.simulate_layout_deals(DEAL, players, codes, seed, start, count, ws)
    out["deck"] = out["deck"][:, : kind.shape[0]]
    return out
