"""Whole deals of Zwickern as numba kernels: shuffle, rounds, turns, score; and matches.

Deal k of a run draws from the stream keyed by (seed, k) (musim.core.rng): the dealer, then the
order of the 55 cards.  The first round deals from the front of that order one card at a time
to each seat from the one left of the dealer, four rounds of it, then four cards face up to the
table; each later round deals four more to each seat the same way, as far as the stock allows.
The seat left of the dealer plays first in every round; play goes left, skipping seats without
cards.  Runs go through musim.play.drivers, a deal's columns laid out by DEAL; a match is n deals
(docs/rules.md §10), the dealer moving one seat left each deal.  `simulate_deals` and
`simulate_matches` are the Python entry points.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel, growing
from musim.core.bits import any_set, bit, popcount
from musim.core.deal import deal_cards
from musim.core.deck import ZWICKERN as DECK
from musim.engine.seats import seat_policies
from musim.games.zwickern import policies
from musim.games.zwickern.points import DEFAULT, parse
from musim.games.zwickern.rules import (
    BUY,
    HAND,
    LAY,
    MAX_PLAYERS,
    PARTS,
    TABLE,
    TURN_PART,
    ZWICKS,
    build,
    buy,
    clear,
    grown,
    is_empty,
    lay,
    new_moves,
    new_table,
    on_table,
    score,
)
from musim.play import drivers
from musim.play.drivers import SEATS

Workspace = namedtuple("Workspace", "table moves held won parts scores side_cards side_total points log rng deal")
FULL = np.uint64(DECK.full)
CARDS = DECK.n_cards
MAX_TURNS = 64  # a deal has 51 turns: every card but the first table's four
LOG = 4  # per turn: card, action, cards (taken, or of the item built on), the new pile's value
Deal = namedtuple("Deal", "deck scores parts left piles turns")  # one deal's results
DEAL = Deal(  # their columns (musim.play.drivers.deal_arrays): the card order; per seat scores and
    # parts (rules.PARTS); left (cards left on the table); piles (piles left); turns
    deck=(np.int64, (CARDS,)),
    scores=(np.int64, (SEATS,)),
    parts=(np.int64, (SEATS, len(PARTS))),
    left=(np.int64, ()),
    piles=(np.int64, ()),
    turns=(np.int64, ()),
)


def make_workspace(points=None):
    """Scratch arrays for one thread's deals; `points` the victory points (points.parse; the
    default table if None); deal: one deal's results in a match."""
    z = np.zeros
    return Workspace(
        table=new_table(),
        moves=new_moves(),
        held=z(MAX_PLAYERS, np.uint64),
        won=z(MAX_PLAYERS, np.uint64),
        parts=z((MAX_PLAYERS, len(PARTS)), np.int64),
        scores=z(MAX_PLAYERS, np.int64),
        side_cards=z(MAX_PLAYERS, np.int64),
        side_total=z(MAX_PLAYERS, np.int64),
        points=parse(DEFAULT) if points is None else points,
        log=z((MAX_TURNS, LOG), np.uint64),
        rng=z(1, np.uint64),
        deal=drivers.deal_arrays(DEAL, MAX_PLAYERS),
    )


@flat_kernel
def deal_hands(n, first, deck, pos, held):
    """Deal HAND cards to each seat from deck[pos:], one at a time from `first`, as far as the
    stock allows.  Returns the new pos."""
    for _ in range(HAND):
        for j in range(n):
            if pos < CARDS:
                held[(first + j) % n] |= bit(deck[pos])
                pos += 1
    return pos


@flat_kernel
def open_deal(n, first, deck, held, table):
    """A deal's start: HAND cards to each seat from `first`, then TABLE cards face up on the
    (cleared) table.  Returns the stock's next position."""
    pos = deal_hands(n, first, deck, 0, held)
    for k in range(TABLE):
        lay(table, deck[pos + k])
    return pos + TABLE


@flat_kernel
def turn(n, seat, card, action, cards, value, ws):
    """Play one (legal) move of `seat`: the card leaves the hand; a buy wins the cards taken and
    the played card, and a Zwick when it clears the table."""
    t, parts = ws.table, ws.parts
    ws.held[seat] ^= bit(card)
    parts[seat, TURN_PART[action]] += 1
    if action == LAY:
        lay(t, card)
    elif action == BUY:
        buy(t, cards)
        ws.won[seat] |= cards | bit(card)
        if is_empty(t):
            parts[seat, ZWICKS] += 1
    else:
        build(t, card, cards, value, seat)


@flat_kernel
def play_deal(n, dealer, seat_policy, deck, state, ws):
    """Play one deal on the card order `deck`; fills ws.won, ws.parts and ws.scores (score) and
    ws.log.  Returns the number of turns."""
    t, held = ws.table, ws.held
    clear(t)
    for s in range(n):
        held[s] = 0
        ws.won[s] = 0
        for k in range(ws.parts.shape[1]):
            ws.parts[s, k] = 0
    first = (dealer + 1) % n
    pos = open_deal(n, first, deck, held, t)
    turns = 0
    while True:
        seat = first
        while any_set(held, n):
            if held[seat]:
                card, action, cards, value = policies.choose(
                    seat_policy[seat], n, seat, held[seat], t, ws.points, state, ws.moves
                )
                turn(n, seat, card, action, cards, value, ws)
                log = ws.log[turns]
                log[0], log[1], log[2], log[3] = card, action, cards, value
                turns += 1
            seat = seat + 1 if seat + 1 < n else 0
        if pos >= CARDS:
            break
        pos = deal_hands(n, first, deck, pos, held)
    score(n, ws.won, t, ws.points, ws.parts, ws.scores, ws.side_cards, ws.side_total)
    return turns


@flat_kernel
def deal_row(n, dealer, seat_policy, state, out, ws):
    """One deal into `out` (a Deal of arrays: a run's row or a match's deal; musim.play.drivers):
    shuffle, play, score."""
    deal_cards(1, FULL, out.deck, state, ws.held)
    out.turns[0] = play_deal(n, dealer, seat_policy, out.deck, state, ws)
    for s in range(n):
        out.scores[s] = ws.scores[s]
        for k in range(ws.parts.shape[1]):
            out.parts[s, k] = ws.parts[s, k]
    out.left[0] = popcount(on_table(ws.table))
    out.piles[0] = ws.table.count[0]


@flat_kernel
def match_deals(n):
    """docs/rules.md §10: 4 players play 4 deals, 3 players 3; (Decision) 2 players 2."""
    return n


drivers.register(Workspace, play=deal_row, length=match_deals)


def simulate_deals(players, seed, policy, start, count, ws=None, points=None):
    """Deals start..start+count-1 of a run as a dict of arrays, one row per deal; `policy` is a
    name or one name per seat (musim.engine.seats.seat_policies), `points` the victory-points table
    (points.DEFAULT if None).  Columns: dealer, then DEAL's."""
    seats = seat_policies(players, policy, policies.NAMES)
    return _growing(
        lambda ws: drivers.simulate_layout_deals(DEAL, players, seats, seed, start, count, ws), _workspace(ws, points)
    )


def simulate_matches(players, seed, policy, start, count, ws=None, points=None):
    """Matches start..start+count-1 (n deals each) as a dict of arrays, one row per match
    (musim.play.drivers.simulate_matches)."""
    seats = seat_policies(players, policy, policies.NAMES)
    return _growing(lambda ws: drivers.simulate_matches(players, seats, seed, start, count, ws), _workspace(ws, points))


def _growing(run, ws):
    """run(ws), run again with more room for the moves while a table's buys outgrow it
    (rules.grown): each deal replays from its seed, so the rows are those of one run."""
    return growing(run, ws, lambda ws: ws._replace(moves=grown(ws.moves)))[0]


def _workspace(ws, points):
    table = points if isinstance(points, np.ndarray) else parse(DEFAULT if points is None else points)
    if ws is None:
        return make_workspace(table)
    ws.points[:] = table
    return ws
