"""Kernels that replay deals under chosen contracts, for the analyses.

Every deal is drawn from its own counter-based stream (seed, index), so results
do not depend on how the samples are split between workers.  Cards are played
by simulate.play_contract: the same play, trump and scoring kernels as
`musim run`.
"""

import numpy as np

from musim.compile.jit import flat_kernel, kernel
from musim.core.bits import bit, popcount
from musim.core.cards import DECK, DECK_3P, N_TYPES, TYPE_MASK
from musim.core.deal import deal_cards
from musim.core.rng import randint, stream_state
from musim.games.mu import ddplay, policies
from musim.games.mu.hand_model import expected_points, hand_features, kind_of
from musim.games.mu.rules import (
    achieved_rank,
    auction_result,
    eklat_scores,
    hand_size,
    nameable_types,
    score_played,
)
from musim.games.mu.simulate import (
    MAX_PLAYERS,
    contract_rank_above,
    contract_value,
    play_contract,
    run_auction,
)

NO_TRUMP = -1


@flat_kernel
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


@flat_kernel
def most_held_type(hand, exclude):
    """The type `hand` holds most cards of, other than `exclude` (lowest code on ties)."""
    best, count = -1, -1
    for t in range(N_TYPES):
        c = popcount(hand & TYPE_MASK[t])
        if t != exclude and c > count:
            best, count = t, c
    return best


@flat_kernel(inline="always")
def _hold(n, hands, ws):
    """Give the seats the deal's hands (play_contract and the searches start from ws.held)."""
    for s in range(n):
        ws.held[s] = hands[s]


@flat_kernel
def _replay(n, hands, chief, partner, chief_trump, vice_trump, play_policy, state, card_points, ws):
    _hold(n, hands, ws)
    return play_contract(n, chief, partner, chief_trump, vice_trump, play_policy, state, card_points, ws)


@flat_kernel(inline="always")
def _whole_deal_dd(n, play_policy, dd):
    """Is every trick played double-dummy?  Then a contract's outcome is the solver's at the
    first trick and the cards need not be played out (`musim balance --dd-tricks` plays them)."""
    return policies.every_seat(play_policy, n, policies.DD) and ddplay.dd_starts_at(dd, hand_size(n))


@flat_kernel
def _team_points(n, hands, chief, partner, t, vt, play_policy, state, card_points, ws, dd):
    """The team's points of one contract: under double-dummy play of the whole deal the value
    of the starting position (contract_value: one solve, no card played), else the cards played
    out (`dd` is ws.dd, passed on its own so numba prunes it when None)."""
    if dd is not None:
        if _whole_deal_dd(n, play_policy, dd):
            _hold(n, hands, ws)
            return contract_value(n, chief, partner, t, vt, ws)
    return _replay(n, hands, chief, partner, t, vt, play_policy, state, card_points, ws)


@kernel(nogil=True)
def fit_samples(n, seed, start, count, feats, kinds, team, play_policy, ws):
    """Data for the hand model: deal k (k = start..) makes seat 0 chief naming, in turn, every
    type it holds and `none`; a uniformly drawn other seat is vice (4+ players) naming the type
    it holds most of, another one the partner; play by `play_policy`.  Row 16*i + j holds the
    features of seat 0's hand for its j-th type, the kind (-1: unused row) and the team's points."""
    play_policy = np.full(MAX_PLAYERS, play_policy, np.int64)  # one code a seat, as runs give it
    hands = np.zeros(MAX_PLAYERS, np.uint64)
    card_points = np.zeros(MAX_PLAYERS, np.int64)
    types = np.zeros(N_TYPES + 1, np.int64)
    state = np.zeros(1, np.uint64)
    kinds[:] = -1
    for i in range(count):
        state[0] = stream_state(seed, start + i)
        deal_cards(n, DECK_3P if n == 3 else DECK, ws.cards, state, hands)
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
            team[row] = _team_points(n, hands, 0, partner, t, vt, play_policy, state, card_points, ws, ws.dd)


@kernel
def deal_others(n, seat, hand, rest, state, hands):
    """`seat` holds `hand`; the cards of `rest` go uniformly to the other seats in seat order
    (rest is reshuffled from its sorted order, so a sample depends on its stream alone)."""
    rest.sort()
    m = rest.shape[0]
    for i in range(m - 1, 0, -1):
        j = randint(state, i + 1)
        rest[i], rest[j] = rest[j], rest[i]
    h = m // (n - 1)
    pos = 0
    for s in range(n):
        if s == seat:
            hands[s] = hand
            continue
        hands[s] = 0
        for i in range(pos, pos + h):
            hands[s] |= bit(rest[i])
        pos += h


# Models of the vice and the public laid cards in `musim bid` (see bid_samples).
VICE_STRONGEST, VICE_NONE, VICE_AUCTION = 0, 1, 2


@flat_kernel
def _rank_above(n, hands, chief, partner, t, vt, best, top, play_policy, state, card_points, ws, dd):
    """max(best, the highest bid up to `top` whose target this contract's team reaches); under
    double-dummy play of the whole deal by null-window searches alone (contract_rank_above),
    without playing the cards out; where only the last tricks are double-dummy, by playing it
    (`dd` is ws.dd, passed on its own so numba prunes it when None)."""
    if dd is not None:
        if _whole_deal_dd(n, play_policy, dd):
            _hold(n, hands, ws)
            return contract_rank_above(n, chief, partner, t, vt, best, top, ws)
    reached = achieved_rank(
        n, _replay(n, hands, chief, partner, t, vt, play_policy, state, card_points, ws), ws.targets
    )
    return max(best, min(top, reached))


@flat_kernel
def _outcome(n, hands, chief, partner, t, vt, reach, best, top, play_policy, state, card_points, ws):
    """(outcome, chief's card points) of one contract: the team's points, or with `reach` the
    highest bid up to `top` whose target the team reaches, at least `best` (_rank_above; the
    chief's points are then not known: 0)."""
    if reach:
        return _rank_above(n, hands, chief, partner, t, vt, best, top, play_policy, state, card_points, ws, ws.dd), 0
    team = _replay(n, hands, chief, partner, t, vt, play_policy, state, card_points, ws)
    return team, card_points[chief]


@flat_kernel
def _play_chief(n, hands, chief, vice, vt, t, laid, hindsight, reach, low, top, play_policy, state, card_points, ws):
    """(outcome, chief's card points) with the heuristic's partner from `laid`, or the best
    partner in hindsight; outcome: the team's points, or with `reach` the highest bid in
    low..top whose target the team reaches (low - 1: none), by null-window searches alone."""
    best, best_chief = (low - 1, 0) if reach else (-1, 0)
    if n == 3 or not hindsight:
        p = -1 if n == 3 else policies.choose_partner(policies.HEURISTIC, n, chief, vice, laid, t, state)
        return _outcome(n, hands, chief, p, t, vt, reach, best, top, play_policy, state, card_points, ws)
    for p in range(n):
        if p != chief and p != vice:
            got, got_chief = _outcome(n, hands, chief, p, t, vt, reach, best, top, play_policy, state, card_points, ws)
            if got > best:
                best, best_chief = got, got_chief
    return best, best_chief


@kernel(nogil=True)
def bid_samples(
    n,
    hand,
    seat,
    dealer,
    rest,
    seed,
    start,
    count,
    trumps,
    play_policy,
    vice_model,
    auction,
    hindsight,
    reach,
    bids,
    team,
    chief_points,
    ws,
):
    """Sample the unseen cards and play `seat`'s hand as chief under each chief trump.

    team[i, j, v], chief_points[i, j, v]: sample start+i, trump trumps[j], contract variant
    v (team = -1: the vice named that trump, so the chief cannot).  With `reach` (whole-deal
    double-dummy play), team[i, j, v] is instead the highest of the bids bids[v, 0]..bids[v, 1]
    (those variant v is scored for) whose target the team reaches, bids[v, 0] - 1 if none, by
    null-window searches alone, and chief_points is 0.  Variants by vice model:
      VICE_STRONGEST  v = 0 no vice (a bid of 1: nobody else can have laid a card), v = 1
                      (higher bids) the other hand the heuristic values most is vice, naming
                      its best type other than the chief's (its laid card would show it);
                      the vice shows one card of its trump and every other seat the auction
                      model would bid with one card of its best type;
      VICE_NONE       v = 0 only: no vice at any bid, nothing else laid;
      VICE_AUCTION    v = b - 1 for each bid b: the auction of model `auction` (an auction
                      code, policies.AUCTIONS) from `dealer`, the others bidding their plans
                      but never b or more, decides the vice (by the rules) and every laid
                      card; the vice names its trump as that model names it.
    Partner: the heuristic's choice from the laid cards, or with `hindsight` the one that
    brings the team most points.
    """
    play_policy = np.full(MAX_PLAYERS, play_policy, np.int64)  # one code a seat, as runs give it
    model = np.full(MAX_PLAYERS, auction, np.int64)  # every seat's auction code: the model's
    hands = np.zeros(MAX_PLAYERS, np.uint64)
    laid = np.zeros(MAX_PLAYERS, np.uint64)
    card_points = np.zeros(MAX_PLAYERS, np.int64)
    base_bid = np.zeros(MAX_PLAYERS, np.int64)
    tied = np.zeros(MAX_PLAYERS, np.int64)
    state = np.zeros(1, np.uint64)
    for i in range(count):
        state[0] = stream_state(seed, start + i)
        deal_others(n, seat, hand, rest, state, hands)
        for s in range(n):
            ws.held[s] = hands[s]
        policies.plan_auction(model, n, hands, ws.plan_type, base_bid, ws.est, ws.targets)
        strongest = _strongest_other(n, seat, hands, ws.est)
        for v in range(team.shape[2]):
            laid[:] = 0
            vice, vt_auction = -1, -1
            if vice_model == VICE_AUCTION:
                vice, vt_auction = _auction_vice(n, seat, dealer, v, hands, base_bid, model, laid, tied, state, ws)
            elif vice_model == VICE_STRONGEST and v == 1 and n >= 4:
                vice = strongest
            for j in range(trumps.shape[0]):
                t = trumps[j]
                vt = vt_auction
                if vice_model == VICE_STRONGEST and vice >= 0:
                    vt = _strongest_laid(n, seat, vice, t, hands, base_bid, laid, ws)
                if t >= 0 and t == vt:
                    team[i, j, v], chief_points[i, j, v] = -1, 0
                    continue
                low, top = bids[v, 0], bids[v, 1]
                team[i, j, v], chief_points[i, j, v] = _play_chief(
                    n, hands, seat, vice, vt, t, laid, hindsight, reach, low, top, play_policy, state, card_points, ws
                )


@flat_kernel(inline="always")
def _strongest_other(n, seat, hands, est):
    """The other seat whose hand the heuristic values most (its best nameable type's estimate;
    the first such seat on ties): bid_samples' VICE_STRONGEST vice."""
    strongest, strongest_value = -1, 0.0
    for s in range(n):
        if s != seat:
            e = policies.best_type(hands[s], nameable_types(hands[s], -1), n, est)[1]
            if strongest < 0 or e > strongest_value:
                strongest, strongest_value = s, e
    return strongest


@flat_kernel(inline="always")
def _auction_vice(n, seat, dealer, v, hands, base_bid, model, laid, tied, state, ws):
    """(vice, vice trump) of variant v under VICE_AUCTION: the auction of `model` in which `seat`
    bids v + 1 and the others their plans but never that much, filling `laid`; the vice names its
    trump as the model names it (-1, -1 without a vice)."""
    for s in range(n):
        ws.plan_bid[s] = v + 1 if s == seat else min(base_bid[s], v)
        ws.held[s] = hands[s]
    run_auction(n, dealer, model, state, laid, ws)
    vice = auction_result(laid, ws.counts, ws.last_lay, n, tied)[1]
    if vice < 0:
        return vice, -1
    return vice, policies.choose_trump(model[0], n, hands[vice], laid[vice], -1, False, ws.est, state)


@flat_kernel(inline="always")
def _strongest_laid(n, seat, vice, t, hands, base_bid, laid, ws):
    """The VICE_STRONGEST vice's trump against chief trump t (its best other type), with `laid`
    as it would show: the vice one card of its trump, every other seat the model would bid with
    one card of its planned type."""
    vt = policies.best_type(hands[vice], nameable_types(hands[vice], t), n, ws.est)[0]
    laid[:] = 0
    for s in range(n):
        if s == vice:
            laid[s] = policies.show_cards(hands[s], vt, 1)
        elif s != seat and base_bid[s] >= 1:
            laid[s] = policies.show_cards(hands[s], ws.plan_type[s], 1)
    return vt


@flat_kernel
def chief_score(n, bid, t, team, chief, card_points, scores, targets):
    """(made, the chief's deal score) of bid `bid` with chief trump t against the target table
    `targets`, from the team's points and the chief's own (rules.score_played: only these two
    decide the chief's score)."""
    card_points[0] = chief
    card_points[1] = team - chief
    _, made, _, _ = score_played(n, bid, 0, -1 if n == 3 else 1, t, card_points, scores, targets)
    return made, scores[0]


@kernel
def score_bids(n, trumps, column, team, chief_points, made, score, targets):
    """made[i, j, b-1] and score[i, j, b-1]: whether sample i makes bid b with trump trumps[j],
    and the chief's deal score (rules.score_played against the table `targets`), from the play
    team[i, j, column[b-1]];
    a blocked play (team < 0) scores as not made, 0 (the caller leaves it out)."""
    card_points = np.zeros(MAX_PLAYERS, np.int64)
    scores = np.zeros(MAX_PLAYERS, np.int64)
    for i in range(team.shape[0]):
        for j in range(trumps.shape[0]):
            for b in range(1, made.shape[2] + 1):
                v = column[b - 1]
                if team[i, j, v] < 0:
                    made[i, j, b - 1] = False
                    score[i, j, b - 1] = 0
                    continue
                made[i, j, b - 1], score[i, j, b - 1] = chief_score(
                    n, b, trumps[j], team[i, j, v], chief_points[i, j, v], card_points, scores, targets
                )


# How the auction ends for the holder of `musim bid` committed to a bid (auction_samples).
AS_CHIEF, OUTBID, EKLAT = 0, 1, 2


@kernel(nogil=True)
def auction_samples(
    n, hand, seat, dealer, rest, seed, start, count, trumps, play_policy, auction, hindsight, play, end, score, ws
):
    """The holder's deal when it commits to each bid against the auction model `auction` (its code).

    For sample start+i (the unseen cards dealt as bid_samples deals them), every trump
    trumps[j] and every bid b: the holder at `seat` commits to b showing trumps[j] (for `none`
    its best type as the heuristic values it) in an auction from `dealer` where every other seat
    bids as the model bids (policies.COMMITTED at `seat`, simulate.run_auction).
    end[i, j, b-1]: AS_CHIEF, OUTBID or EKLAT;
    score[i, j, b-1]: the holder's deal score, the eklat's or the played deal's (0 unless
    `play`: the plays are skipped where their points are not asked for).  As chief it names
    trumps[j], or where the vice named that type its best other nameable type (none if it laid
    no other), and its partner as bid_samples does; outbid, the chief, the trumps and the
    partner are the model's, as `musim run` plays the deal.  The model plans its bids, and every
    deal is scored, against the run's target table ws.targets."""
    hands = np.zeros(MAX_PLAYERS, np.uint64)
    laid = np.zeros(MAX_PLAYERS, np.uint64)
    card_points = np.zeros(MAX_PLAYERS, np.int64)
    scores = np.zeros(MAX_PLAYERS, np.int64)
    tied = np.zeros(MAX_PLAYERS, np.int64)
    state = np.zeros(1, np.uint64)
    est = ws.est
    play_policy = np.full(MAX_PLAYERS, play_policy, np.int64)  # one code a seat, as runs give it
    model = np.full(MAX_PLAYERS, auction, np.int64)  # every seat's auction code: the model's
    codes = model.copy()  # ... but the holder's: committed
    codes[seat] = policies.COMMITTED
    for i in range(count):
        state[0] = stream_state(seed, start + i)
        deal_others(n, seat, hand, rest, state, hands)
        policies.plan_auction(model, n, hands, ws.plan_type, ws.plan_bid, est, ws.targets)
        best = policies.best_type(hand, nameable_types(hand, -1), n, est)[0]
        for j in range(trumps.shape[0]):
            t = trumps[j]
            for b in range(1, end.shape[2] + 1):
                _hold(n, hands, ws)
                ws.plan_type[seat], ws.plan_bid[seat] = (t if t >= 0 else best), b
                run_auction(n, dealer, codes, state, laid, ws)
                chief, vice, provoker, _ = auction_result(laid, ws.counts, ws.last_lay, n, tied)
                score[i, j, b - 1] = 0
                if chief < 0:
                    end[i, j, b - 1] = EKLAT
                    eklat_scores(ws.counts, n, provoker, scores)
                    score[i, j, b - 1] = scores[seat]
                    continue
                end[i, j, b - 1] = AS_CHIEF if chief == seat else OUTBID
                if not play:
                    continue
                vt = -1
                if vice >= 0:
                    vt = policies.choose_trump(auction, n, hands[vice], laid[vice], -1, False, est, state)
                if chief == seat:
                    ct = t
                    if t >= 0 and t == vt:
                        ct = policies.choose_trump(policies.HEURISTIC, n, hand, laid[seat], vt, True, est, state)
                    team, own = _play_chief(
                        n, hands, seat, vice, vt, ct, laid, hindsight, False, 0, 0, play_policy, state, card_points, ws
                    )
                    score[i, j, b - 1] = chief_score(n, b, ct, team, own, card_points, scores, ws.targets)[1]
                    continue
                ct = policies.choose_trump(auction, n, hands[chief], laid[chief], vt, True, est, state)
                partner = policies.choose_partner(auction, n, chief, vice, laid, ct, state) if n >= 4 else -1
                _replay(n, hands, chief, partner, ct, vt, play_policy, state, card_points, ws)
                score_played(n, ws.counts[chief], chief, partner, ct, card_points, scores, ws.targets)
                score[i, j, b - 1] = scores[seat]


UNRESOLVED_RANK = -1  # strength(): a search past the node limit left the seat's level unknown


@kernel(nogil=True)
def strength(n, hands, play_policy, best_rank, ws):
    """Pure strength: best_rank[i, c] = the highest bid whose target seat c, as chief of deal i
    (no vice), reaches with its best trump and best partner; UNRESOLVED_RANK if a search gave
    up at the node limit (whole-deal double-dummy play) before the seat reached the top bid.

    The result is the maximum over the contracts, whatever their order, but under
    double-dummy play a contract costs one search at the level above the best so far, and
    that search is cheap when it fails far from the contract's value: so the contracts
    the hand model rates highest for the team (chief and partner's cards together) come
    first."""
    play_policy = np.full(MAX_PLAYERS, play_policy, np.int64)  # one code a seat, as runs give it
    types = np.zeros(N_TYPES + 1, np.int64)
    card_points = np.zeros(MAX_PLAYERS, np.int64)
    state = np.zeros(1, np.uint64)
    rating = np.zeros((N_TYPES + 1) * MAX_PLAYERS)
    trump_of = np.zeros((N_TYPES + 1) * MAX_PLAYERS, np.int64)
    partner_of = np.zeros((N_TYPES + 1) * MAX_PLAYERS, np.int64)
    for i in range(hands.shape[0]):
        for c in range(n):
            ddplay.dd_searches_gave_up(ws.dd, True)
            m = 0
            for j in range(hand_types(hands[i, c], types)):
                for p in range(n if n >= 4 else 1):
                    if n >= 4 and p == c:
                        continue
                    partner = p if n >= 4 else -1
                    team = hands[i, c] | (hands[i, partner] if partner >= 0 else np.uint64(0))
                    rating[m] = -expected_points(team, types[j], n)
                    trump_of[m], partner_of[m] = types[j], partner
                    m += 1
            best = 0
            for j in np.argsort(rating[:m], kind="mergesort"):
                best = _rank_above(
                    n,
                    hands[i],
                    c,
                    partner_of[j],
                    trump_of[j],
                    -1,
                    best,
                    hand_size(n),
                    play_policy,
                    state,
                    card_points,
                    ws,
                    ws.dd,
                )
            # a contract whose search gave up might have reached any level above `best`
            unknown = best < hand_size(n) and ddplay.dd_searches_gave_up(ws.dd, True)
            best_rank[i, c] = UNRESOLVED_RANK if unknown else best
