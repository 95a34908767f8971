"""Kernels that replay deals under chosen contracts, for the analyses.

Every deal is drawn from its own counter-based stream (seed, index), so results
do not depend on how the samples are split between workers.  Cards are played
by simulate.play_contract: the same play, trump and scoring kernels as
`musim run`.
"""
import numpy as np
from numba import njit

from musim.bits import bit, popcount
from musim.cards import N_TYPES, TYPE_MASK
from musim.games.mu import policies
from musim.games.mu.hand_model import hand_features, kind_of
from musim.games.mu.rules import achieved_rank, nameable_types, score_played
from musim.games.mu.simulate import MAX_PLAYERS, deal_hands, play_contract
from musim.rng import randint, stream_state

NO_TRUMP = -1


@njit(cache=True)
def hand_types(hand, out):
    """Fill out with the trump types a chief holding `hand` could name (its types, then none);
    returns how many."""
    k = 0
    for t in range(N_TYPES):
        if hand & TYPE_MASK[t]:
            out[k] = t
            k += 1
    out[k] = NO_TRUMP
    return k + 1


@njit(cache=True)
def most_held_type(hand, exclude):
    """The type `hand` holds most cards of, other than `exclude` (lowest code on ties)."""
    best, count = -1, -1
    for t in range(N_TYPES):
        c = popcount(hand & TYPE_MASK[t])
        if t != exclude and c > count:
            best, count = t, c
    return best


@njit(cache=True)
def _replay(n, hands, chief, partner, chief_trump, vice_trump, play_policy, state, card_points, ws):
    for s in range(n):
        ws.held[s] = hands[s]
    return play_contract(n, chief, partner, chief_trump, vice_trump, play_policy, state, card_points, ws)


@njit(cache=True, nogil=True)
def fit_samples(n, seed, start, count, feats, kinds, team, ws):
    """Data for the hand model: deal k (k = start..) makes seat 0 chief naming, in turn, every
    type it holds and `none`; a uniformly drawn other seat is vice (4+ players) naming the type
    it holds most of, another one the partner; heuristic play.  Row 16*i + j holds the features
    of seat 0's hand for its j-th type, the kind (-1: unused row) and the team's points."""
    hands = np.zeros(MAX_PLAYERS, np.uint64)
    card_points = np.zeros(MAX_PLAYERS, np.int64)
    types = np.zeros(N_TYPES + 1, np.int64)
    state = np.zeros(1, np.uint64)
    kinds[:] = -1
    for i in range(count):
        state[0] = stream_state(seed, start + i)
        deal_hands(n, ws.cards, state, hands)
        vice, partner = -1, -1
        if n >= 4:
            vice = 1 + randint(state, n - 1)
            partner = 1 + randint(state, n - 2)
            if partner >= vice:
                partner += 1
        for j in range(hand_types(hands[0], types)):
            t = types[j]
            vt = most_held_type(hands[vice], t) if vice >= 0 else -1
            row = 16 * i + j
            hand_features(hands[0], t, feats[row])
            kinds[row] = kind_of(t)
            team[row] = _replay(n, hands, 0, partner, t, vt, policies.HEURISTIC, state, card_points, ws)


@njit(cache=True)
def deal_others(n, hand, rest, state, hands):
    """Seat 0 holds `hand`; the cards of `rest` go uniformly into seats 1..n-1 (rest is
    reshuffled from its sorted order, so a sample depends on its stream alone)."""
    rest.sort()
    m = rest.shape[0]
    for i in range(m - 1, 0, -1):
        j = randint(state, i + 1)
        rest[i], rest[j] = rest[j], rest[i]
    h = m // (n - 1)
    hands[0] = hand
    for s in range(1, n):
        hands[s] = 0
        for i in range((s - 1) * h, s * h):
            hands[s] |= bit(rest[i])


@njit(cache=True, nogil=True)
def bid_samples(n, hand, rest, seed, start, count, trumps, play_policy, use_vice, hindsight,
                team, chief_points, ws):
    """Sample the unseen cards and play seat 0's hand as chief under each chief trump.

    team[i, j, v] and chief_points[i, j, v]: sample start+i, trump trumps[j], v = 0 without
    a vice (a bid of 1: nobody else can have laid a card) and v = 1 with one (higher bids).
    Vice: the other seat whose best type the heuristic values most, naming that type (its
    best other than the chief's, which its laid card would show).  Public laid cards: the
    vice shows one card of its trump, every other seat that the heuristic would bid with
    one card of its best type.  Partner: the heuristic's choice from those laid cards, or
    with `hindsight` the one that brings the team most points.
    """
    hands = np.zeros(MAX_PLAYERS, np.uint64)
    laid = np.zeros(MAX_PLAYERS, np.uint64)
    card_points = np.zeros(MAX_PLAYERS, np.int64)
    value = np.zeros(MAX_PLAYERS, np.float64)
    state = np.zeros(1, np.uint64)
    est = ws.est
    for i in range(count):
        state[0] = stream_state(seed, start + i)
        deal_others(n, hand, rest, state, hands)
        policies.plan_auction(policies.HEURISTIC, n, hands, ws.plan_type, ws.plan_bid, est)
        strongest = -1
        for s in range(1, n):
            value[s] = policies.best_type(hands[s], nameable_types(hands[s], -1), n, est)[1]
            if strongest < 0 or value[s] > value[strongest]:
                strongest = s
        for j in range(trumps.shape[0]):
            t = trumps[j]
            for v in range(2):
                if v == 1 and not (use_vice and n >= 4):
                    team[i, j, 1], chief_points[i, j, 1] = team[i, j, 0], chief_points[i, j, 0]
                    continue
                vice = strongest if v == 1 else -1
                vt = -1
                laid[:] = 0
                if vice >= 0:
                    vt = policies.best_type(hands[vice], nameable_types(hands[vice], t), n, est)[0]
                    for s in range(1, n):
                        if s == vice:
                            laid[s] = policies.show_cards(hands[s], vt, 1)
                        elif ws.plan_bid[s] >= 1:
                            laid[s] = policies.show_cards(hands[s], ws.plan_type[s], 1)
                best_team, best_chief = -1, 0
                if n == 3:
                    best_team = _replay(n, hands, 0, -1, t, vt, play_policy, state, card_points, ws)
                    best_chief = card_points[0]
                elif not hindsight:
                    p = policies.choose_partner(policies.HEURISTIC, n, 0, vice, laid, t, state)
                    best_team = _replay(n, hands, 0, p, t, vt, play_policy, state, card_points, ws)
                    best_chief = card_points[0]
                else:
                    for p in range(1, n):
                        if p != vice:
                            tp = _replay(n, hands, 0, p, t, vt, play_policy, state, card_points, ws)
                            if tp > best_team:
                                best_team, best_chief = tp, card_points[0]
                team[i, j, v] = best_team
                chief_points[i, j, v] = best_chief


@njit(cache=True)
def score_bids(n, trumps, team, chief_points, made, score):
    """made[i, j, b-1] and score[i, j, b-1]: whether sample i makes bid b with trump trumps[j],
    and the chief's deal score (rules.score_played).  A bid of 1 uses the no-vice play."""
    card_points = np.zeros(MAX_PLAYERS, np.int64)
    scores = np.zeros(MAX_PLAYERS, np.int64)
    partner = -1 if n == 3 else 1
    for i in range(team.shape[0]):
        for j in range(trumps.shape[0]):
            for b in range(1, made.shape[2] + 1):
                v = 0 if b == 1 else 1
                card_points[0] = chief_points[i, j, v]
                card_points[1] = team[i, j, v] - chief_points[i, j, v]
                _, ok, _, _ = score_played(n, b, 0, partner, trumps[j], card_points, scores)
                made[i, j, b - 1] = ok
                score[i, j, b - 1] = scores[0]


@njit(cache=True, nogil=True)
def strength(n, hands, play_policy, best_rank, ws):
    """Pure strength: best_rank[i, c] = the highest bid whose target seat c, as chief of deal i
    (no vice), reaches with its best trump and best partner."""
    types = np.zeros(N_TYPES + 1, np.int64)
    card_points = np.zeros(MAX_PLAYERS, np.int64)
    state = np.zeros(1, np.uint64)
    for i in range(hands.shape[0]):
        for c in range(n):
            best = 0
            for j in range(hand_types(hands[i, c], types)):
                for p in range(n if n >= 4 else 1):
                    if n >= 4 and p == c:
                        continue
                    partner = p if n >= 4 else -1
                    team = _replay(n, hands[i], c, partner, types[j], -1, play_policy, state, card_points, ws)
                    best = max(best, achieved_rank(n, team))
            best_rank[i, c] = best
