"""Whole deals of The Last Panther as numba kernels: deal, simultaneous pass, play, score.

Deal k of a run draws from the stream keyed by (seed, k) (musim.rng), so its row
never depends on how a run is split.  `simulate_deals` is the Python entry point:
it returns one array per column, one row per deal.
"""

from collections import namedtuple

import numpy as np

from musim.bits import bit
from musim.deal import deal_cards
from musim.duplicate import seat_policies
from musim.games.panther import policies
from musim.games.panther.ddplay import dd_card, worker_dd
from musim.games.panther.rules import (
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
from musim.jit import flat_kernel
from musim.rng import randint, stream_state

Workspace = namedtuple("Workspace", "cards held trick log rng dd")
MATCH_DEAL_CAP = 10_000  # a match that has not ended by then stops (flagged `capped`)


def make_workspace(players=None, seat_policy=()):
    """Scratch arrays for one thread's deals; with a seat playing dd (seat_policy: codes per
    seat) the solver's scratch for `players` seats (ddplay.worker_dd), else none."""
    z = np.zeros
    dd = None
    if policies.DD in list(seat_policy):
        dd = worker_dd(players)
    return Workspace(
        cards=z(64, np.int64),
        held=z(MAX_PLAYERS, np.uint64),
        trick=z(MAX_PLAYERS, np.int64),
        log=z(64, np.int64),
        rng=z(1, np.uint64),
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


@flat_kernel(nogil=True)
def simulate_chunk(n, seed, start, seat_policy, dealers, hands, passed, scores, tricks, last, ws):
    """Play deals start .. start+len(dealers)-1 of a run; deal k draws from stream (seed, k)."""
    state = ws.rng
    for i in range(dealers.shape[0]):
        state[0] = stream_state(seed, start + i)
        dealers[i] = randint(state, n)
        last[i] = play_deal(n, dealers[i], seat_policy, state, hands[i], passed[i], scores[i], tricks[i], ws)


def simulate_deals(players, seed, policy, start, count, ws=None):
    """Deals start..start+count-1 of a run as a dict of arrays, one row per deal; `policy` is a
    name or one name per seat (musim.duplicate.seat_policies).  Columns:
    dealer, hands and passed (uint64 masks per seat), scores and tricks (per seat), last_trick."""
    codes = seat_policies(players, policy, policies.NAMES)
    ws = make_workspace(players, codes) if ws is None else ws
    out = {
        "dealer": np.zeros(count, np.int64),
        "hands": np.zeros((count, players), np.uint64),
        "passed": np.zeros((count, players), np.uint64),
        "scores": np.zeros((count, players), np.int64),
        "tricks": np.zeros((count, players), np.int64),
        "last_trick": np.zeros(count, np.int64),
    }
    simulate_chunk(
        players,
        seed,
        start,
        codes,
        out["dealer"],
        out["hands"],
        out["passed"],
        out["scores"],
        out["tricks"],
        out["last_trick"],
        ws,
    )
    return out


@flat_kernel(nogil=True)
def simulate_match_chunk(n, seed, start, seat_policy, deals, totals, hands, passed, scores, tricks, ws):
    """Play matches start .. start+len(deals)-1 (RULES.md §4: until someone is at -200 or lower).

    Match m draws from stream (~seed, m), a key space apart from single deals; its first
    dealer is drawn, then the dealer moves one seat left each deal."""
    state = ws.rng
    for i in range(deals.shape[0]):
        state[0] = stream_state(~np.uint64(seed), start + i)
        dealer = randint(state, n)
        for s in range(n):
            totals[i, s] = 0
        played, over = 0, False
        while not over and played < MATCH_DEAL_CAP:
            play_deal(n, dealer, seat_policy, state, hands, passed, scores, tricks, ws)
            played += 1
            for s in range(n):
                totals[i, s] += scores[s]
                over |= match_over(totals[i, s])
            dealer = dealer + 1 if dealer + 1 < n else 0
        deals[i] = played


def simulate_matches(players, seed, policy, start, count, ws=None):
    """Matches start..start+count-1 as a dict of arrays, one row per match: deals, totals (per
    seat), capped (no end within MATCH_DEAL_CAP deals)."""
    codes = seat_policies(players, policy, policies.NAMES)
    ws = make_workspace(players, codes) if ws is None else ws
    deals = np.zeros(count, np.int64)
    totals = np.zeros((count, players), np.int64)
    z = np.zeros
    simulate_match_chunk(
        players,
        seed,
        start,
        codes,
        deals,
        totals,
        z(players, np.uint64),
        z(players, np.uint64),
        z(players, np.int64),
        z(players, np.int64),
        ws,
    )
    return {"deals": deals, "totals": totals, "capped": deals >= MATCH_DEAL_CAP}
