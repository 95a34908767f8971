"""Whole deals of Mückenstich as numba kernels: deal, discard, play, name colours, score.

Deal k of a run draws from the stream keyed by (seed, k) (musim.rng): four cards are set
aside at random, the other 60 dealt.  `simulate_deals` is the Python entry point: it
returns one array per column, one row per deal.
"""

from collections import namedtuple

import numpy as np

from musim.bits import bit
from musim.deal import deal_cards
from musim.deck import MUECKENSTICH as DECK
from musim.duplicate import seat_policies
from musim.games.mueckenstich import policies
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
from musim.jit import flat_kernel
from musim.rng import randint, random_bit, stream_state
from musim.tricks import NO_TRUMP

Workspace = namedtuple("Workspace", "cards held won trick log named rng")
FULL = np.uint64(DECK.full)
MOSQUITO_COUNT = 12  # at most this many trumps are named in a deal
NAMING = 4  # per deal: double colour, its namer, zero colour, its namer (-1: none)


def make_workspace():
    """Scratch arrays for one thread's deals."""
    z = np.zeros
    return Workspace(
        cards=z(64, np.int64),
        held=z(MAX_PLAYERS, np.uint64),
        won=z(MAX_PLAYERS, np.uint64),
        trick=z(MAX_PLAYERS, np.int64),
        log=z(64, np.int64),
        named=z(64, np.int64),
        rng=z(1, np.uint64),
    )


@flat_kernel
def play_tricks(n, leader, seat_policy, state, tricks, played, trumps, ws):
    """Play out the hands in ws.held from `leader`, no trump at first; fills ws.won, tricks,
    played (mosquitoes per seat) and trumps (the trumps named, in order, -1 after the last)."""
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
def play_deal(n, dealer, seat_policy, state, hands, discards, scores, tricks, played, mosquitoes, trumps, naming, ws):
    """Set four cards aside, deal, discard, play, name the colours and score one deal."""
    rest = FULL
    for _ in range(UNDEALT):
        rest ^= bit(random_bit(state, rest))
    deal_cards(n, rest, ws.cards, state, hands)
    k = discard_count(n)
    for s in range(n):
        discards[s] = policies.choose_discards(seat_policy[s], hands[s], k, state)
        ws.held[s] = hands[s] & ~discards[s]
    play_tricks(n, (dealer + 1) % n, seat_policy, state, tricks, played, trumps, ws)
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
        scores[s] = score(ws.won[s], double, zero)


@flat_kernel(nogil=True)
def simulate_chunk(
    n, seed, start, seat_policy, dealers, hands, discards, scores, tricks, played, won, trumps, naming, ws
):
    """Play deals start .. start+len(dealers)-1 of a run; deal k draws from stream (seed, k)."""
    state = ws.rng
    for i in range(dealers.shape[0]):
        state[0] = stream_state(seed, start + i)
        dealers[i] = randint(state, n)
        play_deal(
            n,
            dealers[i],
            seat_policy,
            state,
            hands[i],
            discards[i],
            scores[i],
            tricks[i],
            played[i],
            won[i],
            trumps[i],
            naming[i],
            ws,
        )


def simulate_deals(players, seed, policy, start, count, ws=None):
    """Deals start..start+count-1 of a run as a dict of arrays, one row per deal; `policy` is a
    name or one name per seat (musim.duplicate.seat_policies).  Columns: dealer; per seat
    hands and discards (uint64 masks), scores, tricks, mosquitoes_played and mosquitoes_won;
    trumps (the colours named, in play order, -1 after the last); naming (double colour, its
    namer, zero colour, its namer; -1: none)."""
    ws = make_workspace() if ws is None else ws
    z = np.zeros
    out = {
        "dealer": z(count, np.int64),
        "hands": z((count, players), np.uint64),
        "discards": z((count, players), np.uint64),
        "scores": z((count, players), np.int64),
        "tricks": z((count, players), np.int64),
        "mosquitoes_played": z((count, players), np.int64),
        "mosquitoes_won": z((count, players), np.int64),
        "trumps": z((count, MOSQUITO_COUNT), np.int64),
        "naming": z((count, NAMING), np.int64),
    }
    simulate_chunk(players, seed, start, seat_policies(players, policy, policies.NAMES), *out.values(), ws)
    return out


@flat_kernel(nogil=True)
def simulate_match_chunk(
    n, seed, start, seat_policy, totals, hands, discards, scores, tricks, played, won, trumps, naming, ws
):
    """Play matches start .. start+len(totals)-1 (RULES.md §8: n deals, 2n with 3 players).

    Match m draws from stream (~seed, m), a key space apart from single deals; its first
    dealer is drawn, then the dealer moves one seat left each deal."""
    state = ws.rng
    for i in range(totals.shape[0]):
        state[0] = stream_state(~np.uint64(seed), start + i)
        dealer = randint(state, n)
        for s in range(n):
            totals[i, s] = 0
        for _ in range(match_deals(n)):
            play_deal(n, dealer, seat_policy, state, hands, discards, scores, tricks, played, won, trumps, naming, ws)
            for s in range(n):
                totals[i, s] += scores[s]
            dealer = dealer + 1 if dealer + 1 < n else 0


def simulate_matches(players, seed, policy, start, count, ws=None):
    """Matches start..start+count-1 as a dict of arrays, one row per match: deals, totals (per seat)."""
    ws = make_workspace() if ws is None else ws
    totals = np.zeros((count, players), np.int64)
    z = np.zeros
    simulate_match_chunk(
        players,
        seed,
        start,
        seat_policies(players, policy, policies.NAMES),
        totals,
        z(players, np.uint64),
        z(players, np.uint64),
        z(players, np.int64),
        z(players, np.int64),
        z(players, np.int64),
        z(players, np.int64),
        z(MOSQUITO_COUNT, np.int64),
        z(NAMING, np.int64),
        ws,
    )
    return {"deals": np.full(count, int(match_deals(players)), np.int64), "totals": totals}
