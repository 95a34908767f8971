"""Whole deals of Mückenstich as numba kernels: deal, discard, play, name colours, score.

Runs of deals and matches go through musim.play.drivers (deal k of a run draws from the
stream keyed by (seed, k)): four cards are set aside at random, the other 60 dealt.  A
deal's columns are laid out by DEAL; `simulate_deals` and `simulate_matches` are the
Python entry points: one array per column, one row per deal (match).
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit
from musim.core.deal import deal_cards
from musim.core.deck import MUECKENSTICH as DECK
from musim.core.rng import random_bit
from musim.games.mueckenstich import policies
from musim.games.mueckenstich.ddplay import dd_move
from musim.games.mueckenstich.rules import (
    MAX_PLAYERS,
    UNDEALT,
    beats,
    discard_count,
    is_mosquito,
    legal,
    match_deals,
    mosquitoes_won,
    paid_colours,
    score,
    single_seat,
    trick_winner,
    tricks_per_deal,
    trump_after,
)
from musim.games.mueckenstich.solve import solver_game
from musim.games.seat_solve import worker_dd
from musim.play import drivers
from musim.play.drivers import SEATS
from musim.play.tricks import NO_TRUMP
from musim.solver.table_size import DEFAULT_MB

Workspace = namedtuple("Workspace", "cards held won trick log named rng deal dd")
FULL = np.uint64(DECK.full)
MOSQUITO_COUNT = 12  # at most this many trumps are named in a deal
NAMING = 4  # per deal: double colour, its namer, zero colour, its namer (-1: none)
Deal = namedtuple(  # one deal's results
    "Deal", "hands discards scores tricks mosquitoes_played mosquitoes_won trumps naming"
)
DEAL = Deal(  # their columns (musim.play.drivers.deal_arrays): per seat hands and discards (uint64
    # masks), scores, tricks, mosquitoes_played and mosquitoes_won; trumps (the colours named, in
    # play order, -1 after the last); naming (NAMING)
    hands=(np.uint64, (SEATS,)),
    discards=(np.uint64, (SEATS,)),
    scores=(np.int64, (SEATS,)),
    tricks=(np.int64, (SEATS,)),
    mosquitoes_played=(np.int64, (SEATS,)),
    mosquitoes_won=(np.int64, (SEATS,)),
    trumps=(np.int64, (MOSQUITO_COUNT,)),
    naming=(np.int64, (NAMING,)),
)


def make_workspace(players=None, seat_policy=(), tt_mb=DEFAULT_MB):
    """Scratch arrays for one thread's deals; deal: one deal's results in a match; with
    a seat playing dd (seat_policy: codes per seat) the solver's scratch for `players` seats and a
    table of tt_mb (seat_solve.worker_dd), else none."""
    z = np.zeros
    return Workspace(
        cards=z(64, np.int64),
        held=z(MAX_PLAYERS, np.uint64),
        won=z(MAX_PLAYERS, np.uint64),
        trick=z(MAX_PLAYERS, np.int64),
        log=z(64, np.int64),
        named=z(64, np.int64),
        rng=z(1, np.uint64),
        deal=drivers.deal_arrays(DEAL, MAX_PLAYERS),
        dd=worker_dd(solver_game, players, tt_mb) if policies.DD in list(seat_policy) else None,
    )


@flat_kernel
def play_tricks(n, leader, seat_policy, state, tricks, played, trumps, ws, dd):
    """Play out the hands in ws.held from `leader`, no trump at first; fills ws.won, tricks,
    played (mosquitoes per seat) and trumps (the trumps named, in order, -1 after the last).
    dd: ws.dd, passed on its own so that numba compiles the solver away when it is None."""
    held, won, trick, log, named_log = ws.held, ws.won, ws.trick, ws.log, ws.named
    for s in range(n):
        won[s] = 0
        tricks[s] = 0
        played[s] = 0
    for i in range(MOSQUITO_COUNT):
        trumps[i] = -1
    trump, pos, count = NO_TRUMP, 0, 0
    for _ in range(tricks_per_deal(n)):
        winner_pos, seat = 0, leader
        taken = np.uint64(0)
        for k in range(n):
            ok = legal(held[seat], trick[0] if k > 0 else -1)
            if dd is not None and seat_policy[seat] == policies.DD:
                card, named = dd_move(dd, n, seat, held, trick, k, leader, trump)
            else:
                card, named = policies.choose_move(
                    seat_policy[seat], ok, held[seat], trick, k, n, trump, winner_pos, paid_colours(won[seat]), state
                )
            held[seat] ^= bit(card)
            trick[k] = card
            taken |= bit(card)
            named_log[pos] = -1
            trump = trump_after(card, named, trump)
            if is_mosquito(card):
                named_log[pos] = named
                trumps[count] = named
                count += 1
                played[seat] += 1
                winner_pos = trick_winner(trick, k + 1, trump)
            elif k > 0 and beats(card, trick[winner_pos], trump):
                winner_pos = k
            log[pos] = card
            pos += 1
            seat = seat + 1 if seat + 1 < n else 0
        leader = (leader + winner_pos) % n
        won[leader] |= taken
        tricks[leader] += 1


@flat_kernel
def play_deal(n, dealer, seat_policy, state, out, ws):
    """Set four cards aside, deal, discard, play, name the colours and score one deal into `out`
    (a Deal of arrays)."""
    hands, discards, tricks, mosquitoes, naming = out.hands, out.discards, out.tricks, out.mosquitoes_won, out.naming
    rest = FULL
    for _ in range(UNDEALT):
        rest ^= bit(random_bit(state, rest))
    deal_cards(n, rest, ws.cards, state, hands)
    k = discard_count(n)
    for s in range(n):
        discards[s] = policies.choose_discards(seat_policy[s], hands[s], k, state)
        ws.held[s] = hands[s] & ~discards[s]
    play_tricks(n, (dealer + 1) % n, seat_policy, state, tricks, out.mosquitoes_played, out.trumps, ws, ws.dd)
    for s in range(n):
        mosquitoes[s] = mosquitoes_won(ws.won[s])
    double, zero = -1, -1
    double_by = single_seat(tricks, n, False)
    if double_by >= 0:
        double = policies.choose_colour(seat_policy[double_by], double_by, ws.won, n, -1, False, state)
    zero_by = single_seat(mosquitoes, n, True)
    if zero_by >= 0:
        zero = policies.choose_colour(seat_policy[zero_by], zero_by, ws.won, n, double, True, state)
    naming[0], naming[1], naming[2], naming[3] = double, double_by, zero, zero_by
    for s in range(n):
        out.scores[s] = score(ws.won[s], double, zero)


drivers.register(Workspace, play=play_deal, length=match_deals)
_GAME = drivers.SeatGame(DEAL, policies.NAMES, make_workspace)
simulate_deals = _GAME.simulate_deals  # policy: a name or one a seat (musim.play.duplicate.seat_policies)
simulate_matches = _GAME.simulate_matches  # docs/rules.md §8: n deals, 2n with 3 players
