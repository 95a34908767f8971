"""Whole deals of Wimmüln as numba kernels: deal, reveal, lead, estimates, play, score.

Deal k of a run draws from the stream keyed by (seed, k) (musim.rng).  The shuffled
deck is dealt in blocks, seat s taking cards s*h .. s*h+h-1 of it, so "the last two
cards dealt to the dealer" are the last two of the dealer's block.  `simulate_deals`
is the Python entry point: one array per column, one row per deal.
"""

from collections import namedtuple

import numpy as np

from musim.bits import bit
from musim.deal import deal_cards
from musim.duplicate import seat_policies
from musim.games.wimmueln import policies
from musim.games.wimmueln.ddplay import dd_card, worker_dd
from musim.games.wimmueln.rules import (
    CARD_RANK,
    DECKS,
    MAX_PLAYERS,
    beats,
    estimate_bonus,
    first_lead,
    hand_size,
    legal,
    match_over,
    points,
    tricks_per_deal,
    trump_of,
)
from musim.jit import flat_kernel
from musim.rng import randint, stream_state

Workspace = namedtuple("Workspace", "cards held trick log rng kind_card kind_rank kind_strength dd")
MATCH_DEAL_CAP = 10_000  # a match that has not ended by then stops (flagged `capped`)


def make_workspace(players=None, seat_policy=()):
    """Scratch arrays for one thread's deals; with a seat playing dd (seat_policy: codes per
    seat) the solver's scratch for `players` seats (ddplay.worker_dd), else none."""
    z = np.zeros
    return Workspace(
        cards=z(64, np.int64),
        held=z(MAX_PLAYERS, np.uint64),
        trick=z(MAX_PLAYERS, np.int64),
        log=z(64, np.int64),
        rng=z(1, np.uint64),
        kind_card=z(20, np.int64),
        kind_rank=z(20, np.int64),
        kind_strength=z(20, np.int64),
        dd=worker_dd(players) if policies.DD in list(seat_policy) else None,
    )


@flat_kernel
def play_tricks(n, dealer, lead, trump, seat_policy, state, estimates, won, card_points, ws, dd):
    """Play every trick, the dealer having led `lead` to the first; fills won and card_points.
    dd: ws.dd, passed on its own so that numba compiles the solver away when it is None."""
    held, trick, log = ws.held, ws.trick, ws.log
    count = tricks_per_deal(n)
    for s in range(n):
        won[s] = 0
        card_points[s] = 0
    leader, pos = dealer, 0
    for t in range(count):
        winner_pos, seat = 0, leader
        taken = np.uint64(0)
        for k in range(n):
            if t == 0 and k == 0:
                card = lead
            else:
                ok = legal(held[seat], trick[0] if k > 0 else -1, trump)
                up, down = CARD_RANK[estimates[seat, 0]], CARD_RANK[estimates[seat, 1]]
                if dd is not None and seat_policy[seat] == policies.DD:
                    card = dd_card(dd, n, seat, held, trick, k, leader, trump, won[seat], up, down)
                else:
                    card = policies.choose_card(
                        seat_policy[seat], ok, trick, k, winner_pos, trump, won[seat], count - t, up, down, state
                    )
                held[seat] ^= bit(card)
            trick[k] = card
            taken |= bit(card)
            if k > 0 and beats(card, trick[winner_pos], trump):
                winner_pos = k
            log[pos] = card
            pos += 1
            seat = seat + 1 if seat + 1 < n else 0
        leader = (leader + winner_pos) % n
        won[leader] += 1
        card_points[leader] += points(taken)


@flat_kernel
def play_deal(n, dealer, seat_policy, state, hands, revealed, estimates, won, card_points, bonus, scores, ws):
    """Deal and play one deal; returns the trump colour (-1: none)."""
    deal_cards(n, DECKS[n], ws.cards, state, hands)
    h = hand_size(n)
    a, b = ws.cards[dealer * h + h - 2], ws.cards[dealer * h + h - 1]
    revealed[0], revealed[1] = a, b
    trump = trump_of(a, b)
    for s in range(n):
        ws.held[s] = hands[s]
    lead = first_lead(a, b) if trump >= 0 else policies.choose_lead(seat_policy[dealer], hands[dealer], state)
    ws.held[dealer] ^= bit(lead)
    for s in range(n):
        extra = policies.strength(lead, trump) if s == dealer else 0
        up, down = policies.choose_estimates(
            seat_policy[s],
            ws.held[s],
            trump,
            extra,
            tricks_per_deal(n),
            state,
            ws.kind_card,
            ws.kind_rank,
            ws.kind_strength,
        )
        estimates[s, 0], estimates[s, 1] = up, down
        ws.held[s] ^= bit(up) | bit(down)
    play_tricks(n, dealer, lead, trump, seat_policy, state, estimates, won, card_points, ws, ws.dd)
    for s in range(n):
        bonus[s] = estimate_bonus(won[s], CARD_RANK[estimates[s, 0]], CARD_RANK[estimates[s, 1]])
        scores[s] = card_points[s] + bonus[s]
    return trump


@flat_kernel(nogil=True)
def simulate_chunk(
    n, seed, start, seat_policy, dealers, trumps, hands, revealed, estimates, won, card_points, bonus, scores, ws
):
    """Play deals start .. start+len(dealers)-1 of a run; deal k draws from stream (seed, k)."""
    state = ws.rng
    for i in range(dealers.shape[0]):
        state[0] = stream_state(seed, start + i)
        dealers[i] = randint(state, n)
        trumps[i] = play_deal(
            n,
            dealers[i],
            seat_policy,
            state,
            hands[i],
            revealed[i],
            estimates[i],
            won[i],
            card_points[i],
            bonus[i],
            scores[i],
            ws,
        )


def simulate_deals(players, seed, policy, start, count, ws=None):
    """Deals start..start+count-1 of a run as a dict of arrays, one row per deal; `policy` is a
    name or one name per seat (musim.duplicate.seat_policies).  Columns: dealer, trump
    (-1: none), hands (uint64 per seat), revealed (the dealer's two cards), estimates (per seat
    the face-up then the hidden card index), tricks, card_points, bonus and scores (per seat)."""
    codes = seat_policies(players, policy, policies.NAMES)
    ws = make_workspace(players, codes) if ws is None else ws
    z = np.zeros
    out = {
        "dealer": z(count, np.int64),
        "trump": z(count, np.int64),
        "hands": z((count, players), np.uint64),
        "revealed": z((count, 2), np.int64),
        "estimates": z((count, players, 2), np.int64),
        "tricks": z((count, players), np.int64),
        "card_points": z((count, players), np.int64),
        "bonus": z((count, players), np.int64),
        "scores": z((count, players), np.int64),
    }
    simulate_chunk(players, seed, start, codes, *out.values(), ws)
    return out


@flat_kernel(nogil=True)
def simulate_match_chunk(
    n, seed, start, seat_policy, deals, totals, hands, revealed, estimates, won, card_points, bonus, scores, ws
):
    """Play matches start .. start+len(deals)-1 (RULES.md §3: to 200).

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
            play_deal(n, dealer, seat_policy, state, hands, revealed, estimates, won, card_points, bonus, scores, ws)
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
        z(2, np.int64),
        z((players, 2), np.int64),
        z(players, np.int64),
        z(players, np.int64),
        z(players, np.int64),
        z(players, np.int64),
        ws,
    )
    return {"deals": deals, "totals": totals, "capped": deals >= MATCH_DEAL_CAP}
