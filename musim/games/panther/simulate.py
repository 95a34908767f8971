"""Whole deals of The Last Panther as numba kernels: deal, simultaneous pass, play, score.

Runs of deals and matches go through musim.drivers (deal k of a run draws from the
stream keyed by (seed, k), so its row never depends on how a run is split).
`simulate_deals` and `simulate_matches` are the Python entry points: one array per
column, one row per deal (match).
"""

from collections import namedtuple

import numpy as np

from musim import drivers
from musim.bits import bit, popcount
from musim.deal import deal_cards
from musim.duplicate import seat_policies
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
from musim.jit import flat_kernel
from musim.solver.table_size import DEFAULT_MB

Workspace = namedtuple("Workspace", "cards held trick log rng hands passed scores tricks sevens dd")


def make_workspace(players=None, seat_policy=(), tt_mb=DEFAULT_MB):
    """Scratch arrays for one thread's deals; hands..tricks: one deal's results in a match; with
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
        hands=z(MAX_PLAYERS, np.uint64),
        passed=z(MAX_PLAYERS, np.uint64),
        scores=z(MAX_PLAYERS, np.int64),
        tricks=z(MAX_PLAYERS, np.int64),
        sevens=z(MAX_PLAYERS, np.int64),
        dd=dd,
    )


@flat_kernel
def play_tricks(n, leader, seat_policy, state, scores, tricks, ws, dd):
    """Play out the hands in ws.held from `leader`; fills scores and tricks, returns the last trick's
    winner.  dd: ws.dd, passed on its own so that numba compiles the solver away when it is None."""
    held, trick, log = ws.held, ws.trick, ws.log
    for s in range(n):
        scores[s] = 0
        tricks[s] = 0
        ws.sevens[s] = 0
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
        ws.sevens[leader] += popcount(won & BLACK_SEVENS)
    scores[leader] += LAST_TRICK
    return leader


@flat_kernel
def play_deal(n, dealer, seat_policy, state, hands, passed, scores, tricks, ws):
    """Deal, pass and play one deal; returns the seat that took the last trick."""
    deal_cards(n, deck(n), ws.cards, state, hands)
    k = pass_count(n)
    for s in range(n):
        passed[s] = policies.choose_pass(seat_policy[s], hands[s], k, state)
    after_pass(n, hands, passed, ws.held)
    return play_tricks(n, (dealer + 1) % n, seat_policy, state, scores, tricks, ws, ws.dd)


Rows = namedtuple("Rows", "dealer hands passed scores tricks last_trick sevens")  # a run's per-deal arrays


@flat_kernel(inline="always")
def play_row(n, dealer, seat_policy, state, rows, i, ws):
    """Deal row i of a run (musim.drivers)."""
    hands, passed, scores, tricks = rows.hands[i], rows.passed[i], rows.scores[i], rows.tricks[i]
    rows.last_trick[i] = play_deal(n, dealer, seat_policy, state, hands, passed, scores, tricks, ws)
    for s in range(n):
        rows.sevens[i, s] = ws.sevens[s]


def simulate_deals(players, seed, policy, start, count, ws=None, tt_mb=DEFAULT_MB):
    """Deals start..start+count-1 of a run as a dict of arrays, one row per deal; `policy` is a
    name or one name per seat (musim.duplicate.seat_policies).  Columns:
    dealer, hands and passed (uint64 masks per seat), scores, tricks and black 7s taken (sevens)
    per seat, last_trick."""
    z = np.zeros
    rows = Rows(
        dealer=z(count, np.int64),
        hands=z((count, players), np.uint64),
        passed=z((count, players), np.uint64),
        scores=z((count, players), np.int64),
        tricks=z((count, players), np.int64),
        last_trick=z(count, np.int64),
        sevens=z((count, players), np.int64),
    )
    codes = seat_policies(players, policy, policies.NAMES)
    ws = make_workspace(players, codes, tt_mb) if ws is None else ws
    return drivers.simulate_deals(players, codes, seed, start, rows, ws)


@flat_kernel(inline="always")
def match_deal(n, dealer, seat_policy, state, ws):
    """One deal of a match (musim.drivers), into the workspace's deal arrays."""
    play_deal(n, dealer, seat_policy, state, ws.hands, ws.passed, ws.scores, ws.tricks, ws)


drivers.register(Workspace, play_row, match_deal, match_over)


def simulate_matches(players, seed, policy, start, count, ws=None, tt_mb=DEFAULT_MB):
    """Matches start..start+count-1 (docs/rules.md §4: until someone is at -200 or lower) as a dict
    of arrays, one row per match (musim.drivers.simulate_matches)."""
    codes = seat_policies(players, policy, policies.NAMES)
    ws = make_workspace(players, codes, tt_mb) if ws is None else ws
    return drivers.simulate_matches(players, codes, seed, start, count, ws)
