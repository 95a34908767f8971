"""Whole deals of The Last Panther as numba kernels: deal, simultaneous pass, play, score.

Runs of deals and matches go through musim.play.drivers (deal k of a run draws from the
stream keyed by (seed, k), so its row never depends on how a run is split), a deal's
columns laid out by DEAL.  `simulate_deals` and `simulate_matches` are the Python entry
points: one array per column, one row per deal (match).
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, popcount
from musim.core.deal import deal_cards
from musim.games.panther import policies
from musim.games.panther.ddplay import dd_card
from musim.games.panther.rules import (
    BLACK_SEVENS,
    LAST_TRICK,
    MAX_PLAYERS,
    after_pass,
    beats,
    deck,
    hand_size,
    legal,
    match_over,
    pass_count,
    points,
)
from musim.games.panther.solve import solver_game
from musim.games.seat_solve import worker_dd
from musim.play import drivers
from musim.play.drivers import SEATS
from musim.solver.table_size import DEFAULT_MB

Workspace = namedtuple("Workspace", "cards held trick log rng deal dd")
Deal = namedtuple("Deal", "hands passed scores tricks last_trick sevens")  # one deal's results
DEAL = Deal(  # their columns (musim.play.drivers.deal_arrays): per seat, hands and passed (uint64 masks),
    # scores, tricks and black 7s taken; the seat that took the last trick
    hands=(np.uint64, (SEATS,)),
    passed=(np.uint64, (SEATS,)),
    scores=(np.int64, (SEATS,)),
    tricks=(np.int64, (SEATS,)),
    last_trick=(np.int64, ()),
    sevens=(np.int64, (SEATS,)),
)


def make_workspace(players=None, seat_policy=(), tt_mb=DEFAULT_MB):
    """Scratch arrays for one thread's deals; deal: one deal's results in a match; with
    a seat playing dd (seat_policy: codes per seat) the solver's scratch for `players` seats and a
    table of tt_mb (seat_solve.worker_dd), else none."""
    z = np.zeros
    dd = None
    if policies.DD in list(seat_policy):
        dd = worker_dd(solver_game, players, tt_mb)
    return Workspace(
        cards=z(64, np.int64),
        held=z(MAX_PLAYERS, np.uint64),
        trick=z(MAX_PLAYERS, np.int64),
        log=z(64, np.int64),
        rng=z(1, np.uint64),
        deal=drivers.deal_arrays(DEAL, MAX_PLAYERS),
        dd=dd,
    )


@flat_kernel
def play_tricks(n, leader, seat_policy, state, out, ws, dd):
    """Play out the hands in ws.held from `leader`; fills out's scores, tricks and sevens, returns
    the last trick's winner.  dd: ws.dd, passed on its own so that numba compiles the solver away
    when it is None."""
    held, trick, log, scores, tricks, sevens = ws.held, ws.trick, ws.log, out.scores, out.tricks, out.sevens
    for s in range(n):
        scores[s] = 0
        tricks[s] = 0
        sevens[s] = 0
    pos = 0
    for _ in range(hand_size(n)):
        winner_pos, seat = 0, leader
        won = np.uint64(0)
        for k in range(n):
            ok = legal(held[seat], trick[0] if k > 0 else -1)
            if dd is not None and seat_policy[seat] == policies.DD:
                card = dd_card(dd, n, seat, held, trick, k, leader)
            else:
                card = policies.choose_card(seat_policy[seat], ok, held[seat], trick, k, k == n - 1, winner_pos, state)
            held[seat] ^= bit(card)
            trick[k] = card
            won |= bit(card)
            if k > 0 and beats(card, trick[winner_pos]):
                winner_pos = k
            log[pos] = card
            pos += 1
            seat = seat + 1 if seat + 1 < n else 0
        leader = (leader + winner_pos) % n
        scores[leader] += points(won)
        tricks[leader] += 1
        sevens[leader] += popcount(won & BLACK_SEVENS)
    scores[leader] += LAST_TRICK
    return leader


@flat_kernel
def play_deal(n, dealer, seat_policy, state, out, ws):
    """Deal, pass and play one deal into `out` (a Deal of arrays)."""
    hands, passed = out.hands, out.passed
    deal_cards(n, deck(n), ws.cards, state, hands)
    k = pass_count(n)
    for s in range(n):
        passed[s] = policies.choose_pass(seat_policy[s], hands[s], k, state)
    after_pass(n, hands, passed, ws.held)
    out.last_trick[0] = play_tricks(n, (dealer + 1) % n, seat_policy, state, out, ws, ws.dd)


drivers.register(Workspace, play=play_deal, over=match_over)
_GAME = drivers.SeatGame(DEAL, policies.NAMES, make_workspace)
simulate_deals = _GAME.simulate_deals  # policy: a name or one a seat (musim.play.duplicate.seat_policies)
simulate_matches = _GAME.simulate_matches  # docs/rules.md §4: until someone is at -200 or lower
