"""Whole games of Safarü and Reverse Safarü as numba kernels: shuffle, rounds, turns, score.

Game k of a run draws from the stream keyed by (seed, k) (musim.core.rng): the dealer, then the
order of the 60 cards.  Each round deals from the front of that order: one card at a time
to each seat from the one left of the round's dealer, four rounds of it (as far as the stock
allows), then table cards until the table holds four (as far as it allows); the dealer
moves one seat left each round.  Runs go through musim.play.drivers, one game a row (Safarü has
no matches), its columns laid out by DEAL; `simulate_deals` is the Python entry point: one array
per column, one row per game.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel, growing
from musim.core.bits import any_set, bit, mask_sum, popcount
from musim.core.deal import deal_cards
from musim.core.deck import MU as DECK
from musim.engine.seats import seat_policies
from musim.games.safarue import policies
from musim.games.safarue.rules import (
    ADDING,
    BLUE,
    HAND,
    MAX_PLAYERS,
    PAIRING,
    SETS,
    TABLE,
    TOTALLING,
    TRIANGLES,
    YELLOW,
    ZEROS,
    caught_cards,
    doubled,
    score,
    sides,
    table_after,
)
from musim.play import drivers
from musim.play.drivers import SEATS
from musim.play.sides import side

Workspace = namedtuple(
    "Workspace", "order adds totals held won side_won counts first second side_scores log rng reverse"
)
FULL = np.uint64(DECK.full)
CARDS = DECK.n_cards
MAX_TURNS = 64  # a game has at most 56 turns (every card but the first table's four)
LOG = 4  # per turn: card, adding, totalling, pairing (sets as masks, 0: unused)


def make_workspace():
    """Scratch arrays for one thread's games; reverse: the run's variant (Reverse Safarü), which
    simulate_deals sets."""
    z = np.zeros
    return Workspace(
        order=z(64, np.int64),
        adds=z(SETS, np.uint64),
        totals=z(SETS, np.uint64),
        held=z(MAX_PLAYERS, np.uint64),
        won=z(MAX_PLAYERS, np.uint64),
        side_won=z(MAX_PLAYERS, np.uint64),
        counts=z(MAX_PLAYERS, np.int64),
        first=z(MAX_PLAYERS, np.int64),
        second=z(MAX_PLAYERS, np.int64),
        side_scores=z(MAX_PLAYERS, np.int64),
        log=z((MAX_TURNS, LOG), np.uint64),
        rng=z(1, np.uint64),
        reverse=False,
    )


@flat_kernel
def deal_round(n, first, deck, pos, held, table):
    """Deal a round from deck[pos:]: HAND cards each, one at a time from `first`, then the table
    up to TABLE cards, both as far as the stock allows.  Returns (new pos, new table)."""
    for _ in range(HAND):
        for j in range(n):
            if pos < CARDS:
                s = (first + j) % n
                held[s] |= bit(deck[pos])
                pos += 1
    while popcount(table) < TABLE and pos < CARDS:
        table |= bit(deck[pos])
        pos += 1
    return pos, table


@flat_kernel
def play_game(n, dealer, seat_policy, reverse, deck, methods, released, ws):
    """Play one game on the card order `deck` from `dealer`; fills ws.won (per seat), methods
    (turns each seat caught by each method), released (turns it released) and ws.log.
    Returns (turns, cards left on the table)."""
    held, won, state = ws.held, ws.won, ws.rng
    for s in range(n):
        held[s] = 0
        won[s] = 0
        released[s] = 0
        for m in range(3):
            methods[s, m] = 0
    pos, table, cleared, turns, r = 0, np.uint64(0), False, 0, 0
    while pos < CARDS:
        first = (dealer + r + 1) % n
        pos, table = deal_round(n, first, deck, pos, held, table)
        seat = first
        while any_set(held, n):
            if held[seat]:
                own, left = seat_policy[seat], seat_policy[(seat + 1) % n]
                if reverse:
                    card, a, t, p = policies.choose_reverse(own, left, held[seat], table, cleared, state, ws)
                else:
                    card, a, t, p = policies.choose_safarue(own, held[seat], table, cleared, state, ws)
                held[seat] ^= bit(card)
                won[seat] |= caught_cards(card, a, t, p)
                table = table_after(table, card, a, t, p)
                cleared = table == 0
                methods[seat, ADDING] += 1 if a else 0
                methods[seat, TOTALLING] += 1 if t else 0
                methods[seat, PAIRING] += 1 if p else 0
                released[seat] += 0 if a | t | p else 1
                log = ws.log[turns]
                log[0], log[1], log[2], log[3] = card, a, t, p
                turns += 1
            seat = seat + 1 if seat + 1 < n else 0
        r += 1
    return turns, popcount(table)


@flat_kernel
def score_game(n, reverse, won, scores, first, second, ws):
    """Each seat's score (its side's) and its side's majority bonuses from the seats' caught cards."""
    k = sides(n)
    for s in range(k):
        ws.side_won[s] = 0
    for s in range(n):
        ws.side_won[side(n, n == 4, s)] |= won[s]
    score(ws.side_won, k, reverse, ws.counts, ws.first, ws.second, ws.side_scores)
    for s in range(n):
        mine = side(n, n == 4, s)
        scores[s], first[s], second[s] = ws.side_scores[mine], ws.first[mine], ws.second[mine]


PARTS = ("cards", "blue", "yellow", "zeros", "triangles", "first_bonus", "second_bonus")
Deal = namedtuple("Deal", "deck scores parts methods released left turns")  # one game's results
DEAL = Deal(  # their columns (musim.play.drivers.deal_arrays): the card order; per seat scores, parts
    # (PARTS), methods (turns catching by adding, totalling, pairing) and released; left (cards
    # left on the table); turns
    deck=(np.int64, (CARDS,)),
    scores=(np.int64, (SEATS,)),
    parts=(np.int64, (SEATS, len(PARTS))),
    methods=(np.int64, (SEATS, 3)),
    released=(np.int64, (SEATS,)),
    left=(np.int64, ()),
    turns=(np.int64, ()),
)


@flat_kernel
def game_row(n, dealer, seat_policy, state, out, ws):
    """One game into `out` (a Deal of arrays; musim.play.drivers): shuffle, play, score.  parts[s]:
    cards, blue, yellow, zeros, triangles caught by seat s; its side's first and second majority
    bonus."""
    deck, parts = out.deck, out.parts
    deal_cards(1, FULL, deck, state, ws.held)
    out.turns[0], out.left[0] = play_game(n, dealer, seat_policy, ws.reverse, deck, out.methods, out.released, ws)
    score_game(n, ws.reverse, ws.won, out.scores, parts[:, 5], parts[:, 6], ws)
    for s in range(n):
        w = ws.won[s]
        parts[s, 0] = popcount(w)
        parts[s, 1] = popcount(w & BLUE)
        parts[s, 2] = popcount(w & YELLOW)
        parts[s, 3] = popcount(w & ZEROS)
        parts[s, 4] = mask_sum(w, TRIANGLES)


drivers.register(Workspace, play=game_row)


def simulate_deals(players, seed, policy, start, count, ws=None, reverse=False):
    """Games start..start+count-1 of a run as a dict of arrays, one row per game; `policy` is a
    name or one name per seat (musim.engine.seats.seat_policies), Reverse Safarü if `reverse`.
    Columns: dealer, then DEAL's."""
    seats = seat_policies(players, policy, policies.NAMES)
    out, _ = growing(
        lambda ws: drivers.simulate_layout_deals(DEAL, players, seats, seed, start, count, ws),
        (make_workspace() if ws is None else ws)._replace(reverse=bool(reverse)),
        lambda ws: ws._replace(adds=doubled(ws.adds), totals=doubled(ws.totals)),
    )  # each game replays from its seed: the rows are those of one run
    return out
