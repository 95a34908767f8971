"""A Mückenstich deal's card play and scoring from any position, one implementation shared by
the deal (simulate.py) and the search player's playouts (search.py).

The play's arrays form a Table; the position is its `at` array (cards played, leader, trump in
force, the trick's winning position so far, trumps named).  `play_on` plays on from there: to
the deal's end, or until a `search` seat is to move (the deal then asks search.decide and plays
its move on).  A playout plays every seat as the heuristic, so it never stops early.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit
from musim.games.mueckenstich import policies
from musim.games.mueckenstich.ddplay import dd_move
from musim.games.mueckenstich.rules import (
    CARD_COLOUR,
    MAX_PLAYERS,
    beats,
    is_mosquito,
    legal,
    mosquitoes_won,
    paid_colours,
    score,
    single_seat,
    trick_winner,
    tricks_per_deal,
    trump_after,
)
from musim.play.tricks import NO_TRUMP

MOSQUITO_COUNT = 12  # at most this many trumps are named in a deal
Table = namedtuple("Table", "held won trick voids tricks played trumps log named at")
# held, won: per seat; trick: the cards of the trick so far; voids: per seat, bit c set once it did
# not follow colour c; tricks, played: tricks won and mosquitoes played per seat; trumps: the trumps
# named in order (-1 after the last); log, named: every card played and the trump it named (-1)
POS, LEADER, TRUMP, WINNER, COUNT = range(5)  # the position in `at`
AT = 5


def make_table():
    """A Table of its own arrays (the search's copies of a position)."""
    z = np.zeros
    s = MAX_PLAYERS
    return Table(
        z(s, np.uint64), z(s, np.uint64), z(s, np.int64), z(s, np.int64), z(s, np.int64), z(s, np.int64),
        z(MOSQUITO_COUNT, np.int64), z(64, np.int64), z(64, np.int64), z(AT, np.int64),
    )  # fmt: skip


@flat_kernel
def start(n, tb, leader):
    """The position before the first card: nothing won, played, named or shown; `leader` leads."""
    for s in range(n):
        tb.won[s] = 0
        tb.tricks[s] = 0
        tb.played[s] = 0
        tb.voids[s] = 0
    for i in range(MOSQUITO_COUNT):
        tb.trumps[i] = -1
    tb.at[POS], tb.at[LEADER], tb.at[TRUMP], tb.at[WINNER], tb.at[COUNT] = 0, leader, NO_TRUMP, 0, 0


@flat_kernel
def play_on(n, seat_policy, state, tb, dd, card, named):
    """Play on from the position in tb.at: first `card` naming `named` for the seat to move
    (card < 0: that seat's policy chooses), then to the deal's end or until a search seat is
    to move.  dd: the solver's scratch (ws.dd), passed on its own so that numba compiles the
    solver away when it is None."""
    held, won, trick, log, named_log = tb.held, tb.won, tb.trick, tb.log, tb.named
    at = tb.at
    pos, leader, trump, winner_pos, count = at[POS], at[LEADER], at[TRUMP], at[WINNER], at[COUNT]
    total = n * tricks_per_deal(n)
    seat = (leader + pos % n) % n
    while pos < total:
        k = pos % n
        if card < 0:
            if policies.searching(seat_policy[seat]):
                break
            if dd is not None and seat_policy[seat] == policies.DD:
                card, named = dd_move(dd, n, seat, held, trick, k, leader, trump)
            else:
                ok = legal(held[seat], trick[0] if k > 0 else -1)
                card, named = policies.choose_move(
                    seat_policy[seat], ok, held[seat], trick, k, n, trump, winner_pos, paid_colours(won[seat]), state
                )
        held[seat] ^= bit(card)
        trick[k] = card
        if k > 0 and CARD_COLOUR[card] != CARD_COLOUR[trick[0]]:
            tb.voids[seat] |= 1 << CARD_COLOUR[trick[0]]
        named_log[pos] = -1
        trump = trump_after(card, named, trump)
        if is_mosquito(card):
            named_log[pos] = named
            tb.trumps[count] = named
            count += 1
            tb.played[seat] += 1
            winner_pos = trick_winner(trick, k + 1, trump)
        elif k > 0 and beats(card, trick[winner_pos], trump):
            winner_pos = k
        log[pos] = card
        pos += 1
        card = -1
        seat = seat + 1 if seat + 1 < n else 0
        if k == n - 1:
            leader = (leader + winner_pos) % n
            for j in range(n):
                won[leader] |= bit(trick[j])
            tb.tricks[leader] += 1
            winner_pos, seat = 0, leader
    at[POS], at[LEADER], at[TRUMP], at[WINNER], at[COUNT] = pos, leader, trump, winner_pos, count


@flat_kernel
def score_deal(n, seat_policy, state, won, tricks, mosquitoes, naming, scores):
    """After the last trick: the mosquitoes each seat won, the colours named (naming: double, its
    namer, zero, its namer; -1 for none) and each seat's score."""
    for s in range(n):
        mosquitoes[s] = mosquitoes_won(won[s])
    double, zero = -1, -1
    double_by = single_seat(tricks, n, False)
    if double_by >= 0:
        double = policies.choose_colour(seat_policy[double_by], double_by, won, n, -1, False, state)
    zero_by = single_seat(mosquitoes, n, True)
    if zero_by >= 0:
        zero = policies.choose_colour(seat_policy[zero_by], zero_by, won, n, double, True, state)
    naming[0], naming[1], naming[2], naming[3] = double, double_by, zero, zero_by
    for s in range(n):
        scores[s] = score(won[s], double, zero)
