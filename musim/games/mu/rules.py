"""The rules of Mü (docs/rules.md §2) as numba kernels over ints and uint64 masks.

Every consumer — replay validator, simulator, policies, solver, analyses — calls
these functions; no rule is written twice.

Contract tables.  Once the trumps are fixed, each card gets
  * a class: its colour 0..4, or TRUMP (5) if its tier > 0;
  * a power: its number for a non-trump, 10 + 10*tier + number for a trump,
so that the trick is the shared one of musim.play.tricks with class TRUMP as the trump
class: follow the led class, trumping never forced, the first card of maximal power
among the trumps (else the led class) wins.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import highest, lowest, popcount
from musim.core.cards import (
    CARD_COLOUR,
    CARD_NUMBER,
    COLOUR_MASK,
    DECK,
    N_CARDS,
    N_COLOURS,
    NUMBER_MASK,
    POINT_MASK,
    TYPE_MASK,
)
from musim.play import tricks

TRUMP = 5
N_CLASSES = 6
MIN_PLAYERS = 3
MAX_PLAYERS = 6
MAX_BID = 15  # the largest hand: 4 players
GOAL = 200

# ---------------------------------------------------------------- trumps and tricks


@flat_kernel(inline="always")
def trump_masks(chief_trump, vice_trump):
    """(chief trump cards, vice trump cards) of a trump pair; empty for -1."""
    chief = TYPE_MASK[chief_trump] if chief_trump >= 0 else np.uint64(0)
    vice = TYPE_MASK[vice_trump] if vice_trump >= 0 else np.uint64(0)
    return chief, vice


@flat_kernel
def fill_contract(chief_trump, vice_trump, klass, power, class_mask):
    """Fill per-card class and power and the per-class masks for one trump pair."""
    chief, vice = trump_masks(chief_trump, vice_trump)
    trumps = chief | vice
    for k in range(N_COLOURS):
        class_mask[k] = COLOUR_MASK[k] & ~trumps
    class_mask[TRUMP] = trumps
    for c in range(N_CARDS):
        klass[c] = CARD_COLOUR[c]
        power[c] = CARD_NUMBER[c]
    m = trumps
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        b = np.uint64(1) << np.uint64(c)
        klass[c] = TRUMP
        power[c] = 10 + 10 * (2 * ((chief & b) != 0) + ((vice & b) != 0)) + CARD_NUMBER[c]


@flat_kernel
def fill_tier_masks(chief_trump, vice_trump, tier_mask):
    """tier_mask[t] = the cards of trump tier t (0 = not trump) for one trump pair."""
    chief, vice = trump_masks(chief_trump, vice_trump)
    tier_mask[3] = chief & vice
    tier_mask[2] = chief & ~vice
    tier_mask[1] = vice & ~chief
    tier_mask[0] = ~(chief | vice) & DECK


@flat_kernel(inline="always")
def top_card(mask, tier_mask):
    """A card of maximal power in a non-empty mask of trumps and at most one side colour.

    Within one tier all cards match one type (a colour, a number, or both), so
    the highest bit of the highest non-empty tier is a strongest card; side
    cards of one colour sit in slot order, which is number order.
    """
    for t in range(3, 0, -1):
        sub = mask & tier_mask[t]
        if sub:
            return highest(sub)
    return highest(mask)


def contract(chief_trump, vice_trump):
    """(klass, power, class_mask) arrays for a trump pair, for use from Python."""
    klass = np.empty(N_CARDS, np.int64)
    power = np.empty(N_CARDS, np.int64)
    class_mask = np.empty(N_CLASSES, np.uint64)
    fill_contract(chief_trump, vice_trump, klass, power, class_mask)
    return klass, power, class_mask


@flat_kernel(inline="always")
def legal_moves(hand, led, klass, class_mask):
    """Mask of the cards of `hand` that may be played; led = first card of the trick or -1.
    Follow the led class if able; trumping is never forced."""
    return tricks.legal_cards(hand, led, klass, class_mask, TRUMP, False)


@flat_kernel(inline="always")
def beats(card, best, klass, power):
    """Does `card`, played after the trick's current winner `best`, take the trick?"""
    return tricks.beats(card, best, TRUMP, klass, power, False)


@flat_kernel
def trick_winner(cards, count, klass, power):
    """Position (0-based) in the trick of its winning card; first played wins among equals."""
    return tricks.trick_winner(cards, count, TRUMP, klass, power, False)


@flat_kernel
def mask_points(mask):
    """Card points in a mask."""
    return popcount(mask & POINT_MASK[1]) + 2 * popcount(mask & POINT_MASK[2])


# ---------------------------------------------------------------- auction


@flat_kernel(inline="always")
def lay_limit(own, top, in_hand):
    """Most cards a player may lay: 1 if already strictly on top, else top+1-own; never more than held."""
    limit = 1 if own > top else top + 1 - own
    return min(limit, in_hand)


@flat_kernel
def auction_over(passes, n):
    """Has the auction ended after `passes` consecutive passing turns?"""
    return passes >= n


@flat_kernel(inline="always")
def lay_turn(n, seat, lay, passes, turn, laid, counts, last_lay, ties):
    """`seat` lays `lay` (0: passes) on auction turn `turn`: its laid cards, count and last lay,
    and ties[seat], how often it laid to equal the others' top (what the learned bidder reads of a
    seat's habits); returns (passes, turn, seat) after it."""
    if lay:
        laid[seat] |= lay
        counts[seat] += popcount(lay)
        last_lay[seat] = turn
        passes = 0
        if counts[seat] == top_other(counts, n, seat):
            ties[seat] += 1
    else:
        passes += 1
    return passes, turn + 1, (seat + 1 if seat + 1 < n else 0)


@flat_kernel(inline="always")
def top_other(counts, n, seat):
    """Largest laid count among the players other than `seat`."""
    top = 0
    for s in range(n):
        if s != seat and counts[s] > top:
            top = counts[s]
    return top


@flat_kernel
def laid_key(laid):
    """Ordering key of a laid set for the vice tie-break: number counts, 9s most significant."""
    key = 0
    for d in range(10):
        key |= popcount(laid & NUMBER_MASK[d]) << (4 * d)
    return key


@flat_kernel
def auction_result(laid, counts, last_lay, n, out_tied):
    """Outcome of an ended auction.

    Returns (chief, vice, provoker, n_tied): chief >= 0 for a played deal; for an
    eklat chief = -1, the tied seats are written to out_tied (every seat if nobody
    laid a card: all share M = 0) and provoker is the tied seat whose last laying
    turn came latest (-1 if nobody laid a card).
    """
    top = 0
    for s in range(n):
        top = max(top, counts[s])
    n_tied = 0
    provoker = -1
    for s in range(n):
        if counts[s] == top:
            out_tied[n_tied] = s
            n_tied += 1
            if top > 0 and (provoker < 0 or last_lay[s] > last_lay[provoker]):
                provoker = s
    if n_tied > 1:
        return -1, -1, provoker, n_tied
    chief = out_tied[0]
    vice = -1
    if n >= 4:
        best = 0
        best_key = -1
        tied = False
        for s in range(n):
            if s == chief or counts[s] == 0:
                continue
            key = laid_key(laid[s])
            if counts[s] > best or (counts[s] == best and key > best_key):
                vice, best, best_key, tied = s, counts[s], key, False
            elif counts[s] == best and key == best_key:
                tied = True
        if tied:
            vice = -1
    return chief, vice, -1, 1


@flat_kernel
def eklat_scores(counts, n, provoker, out_scores):
    """Scores of an eklat: +5M per tied player, -10M for the provoker, 0 for the rest."""
    top = 0
    for s in range(n):
        top = max(top, counts[s])
    for s in range(n):
        if top > 0 and counts[s] == top:
            out_scores[s] = -10 * top if s == provoker else 5 * top
        else:
            out_scores[s] = 0


@flat_kernel
def nameable_types(laid, exclude):
    """Bit t set for each trump type t a player may name from their laid cards, minus `exclude`."""
    allowed = 0
    for t in range(15):
        if laid & TYPE_MASK[t]:
            allowed |= 1 << t
    if exclude >= 0:
        allowed &= ~(1 << exclude)
    return allowed


@flat_kernel
def partner_allowed(partner, chief, vice, n):
    """May the chief name `partner` (4+ players: anyone but chief and vice)?"""
    return n >= 4 and 0 <= partner < n and partner != chief and partner != vice


# ---------------------------------------------------------------- scoring


@flat_kernel
def hand_size(n):
    """Cards per hand in Mü: 12, 15, 12, 10 for 3..6 players."""
    return 12 if n == 3 else 60 // n


@flat_kernel
def target(n, bid):
    """Team points the chief's team needs with n players and bid b, by the rulebook (§2.8);
    the kernels read a run's table instead (rulebook_targets, or a variant: target_tables.py)."""
    if n == 3:
        return 10 + 2 * bid
    if n == 4:
        return 28 + 2 * bid
    if n == 5:
        return 21 + 3 * bid
    return 16 + 4 * bid


def rulebook_targets():
    """The rulebook's target table, int64 indexed [n, bid] (bids 1..hand size; 0 elsewhere): what
    every kernel needing a target reads, in place of a variant's (target_tables.py)."""
    table = np.zeros((MAX_PLAYERS + 1, MAX_BID + 1), np.int64)
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for b in range(1, hand_size(n) + 1):
            table[n, b] = target(n, b)
    return table


@flat_kernel
def achieved_rank(n, team_points, targets):
    """Largest bid whose target (in the table `targets`, indexed [n, bid]) the team points reach (0 if none)."""
    r = 0
    for b in range(1, hand_size(n) + 1):
        if targets[n, b] <= team_points:
            r = b
    return r


@flat_kernel
def trump_extra(chief_trump):
    """Bonus steps of the chief trump: colour 0, number 1 or 7: 1, other number 2, none 3."""
    if chief_trump < 0:
        return 3
    if chief_trump < N_COLOURS:
        return 0
    d = chief_trump - N_COLOURS
    return 1 if d == 1 or d == 7 else 2


@flat_kernel
def bonus(bid, chief_trump):
    """Bonus for chief and partner when the target is made."""
    return 10 * min(bid + trump_extra(chief_trump), 10)


@flat_kernel
def score_played(n, bid, chief, partner, chief_trump, card_points, out_scores, targets):
    """Fill the deal scores of a played deal against the target table `targets` ([n, bid]);
    returns (team_points, success, shortfall, bonus)."""
    team = card_points[chief] + (card_points[partner] if partner >= 0 else 0)
    made = team >= targets[n, bid]
    b = bonus(bid, chief_trump) if made else 0
    s = 0 if made else bid - achieved_rank(n, team, targets)
    for p in range(n):
        out_scores[p] = card_points[p]
        if p == chief or p == partner:
            out_scores[p] += b if made else 0
            if p == chief and not made:
                out_scores[p] -= 10 * s
        elif not made:
            out_scores[p] += 5 * s
    return team, made, s, b
