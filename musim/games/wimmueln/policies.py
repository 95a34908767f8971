"""Decision policies for Wimmüln: the dealer's free lead, the estimates and each card played.

random     leads a uniform card of its hand; sets aside a uniform pair of hand cards, the
           first drawn face up; plays a uniform legal card.
heuristic  a player aiming at its estimate, using only its own hand and the current trick:
  * hand strength: the tricks a card is expected to take: a trump 1 (8 or 9), 0.6 (5-7)
    or 0.3 (lower); a side 9 0.8, 8 0.4, 7 0.15, others 0 (in twentieths, integers);
  * free lead (no trump): its highest card;
  * estimates: every ordered pair of hand cards (face up, hidden) is tried, cards of one
    number that are both trumps or both not counted once; the tricks expected from the
    rest of the hand (the dealer's led card included) are spread as a triangle of
    half-width 1.5 around that strength, and the pair with the highest expected bonus is
    set aside (ties: the lowest cards first; if no pair can pay, the lowest two): the
    face-up card is so the number it most likely makes, as the doubled bonus rewards;
  * play: the aim is the estimate of highest bonus still reachable (won <= number <= won +
    tricks left); while short of it the player tries to win, once on it to lose (no
    estimate reachable: to win, for the points).  To win: lead its highest trump, else its
    highest card; follow with the lowest card that beats the trick so far, or throw its
    lowest card.  To lose: lead its lowest side card (a trump only if nothing else);
    follow with the highest card that does not beat the trick so far, or the lowest winner.
search     the heuristic's free lead; the estimates (setup_search.py) and each card by flat
           Monte Carlo over the deals of the cards it cannot see, weighted by how likely they
           make the others' estimates and play (weights.py), each candidate played out by the
           heuristic (search.py); search-uniform: the heuristic's estimates, uniform worlds.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest
from musim.core.cards import NUMBER_MASK
from musim.core.rng import random_bit
from musim.games.wimmueln.rules import CARD_COLOUR, CARD_RANK, COLOUR_MASK, beats, estimate_bonus
from musim.play.tricks import highest_ranked, lowest_ranked

RANDOM = 0
HEURISTIC = 1
DD = 2  # cards double-dummy (ddplay.py), the lead without a trump and the estimates as the heuristic's
SEARCH = 3  # estimates and cards by search (setup_search.py, search.py), the lead without a trump as the heuristic's
SEARCH_UNIFORM = 4  # the first search player: cards by search over uniform worlds, the rest as the heuristic's
NAMES = {"random": RANDOM, "heuristic": HEURISTIC, "dd": DD, "search": SEARCH, "search-uniform": SEARCH_UNIFORM}


@flat_kernel(inline="always")
def searching(code):
    """Does a seat of this code play its cards by search (either search player)?"""
    return code == SEARCH or code == SEARCH_UNIFORM


UNIT = 20  # strengths and expected tricks in twentieths of a trick, so that the estimate search stays in integers
SPREAD = 30  # half-width of the triangle of tricks around the expected number: 1.5 tricks


@flat_kernel(inline="always")
def strength(card, trump):
    """Tricks the heuristic expects a card to take, in UNITs."""
    r = CARD_RANK[card]
    if CARD_COLOUR[card] == trump:
        return 20 if r >= 8 else 12 if r >= 5 else 6
    return 16 if r == 9 else 8 if r == 8 else 3 if r == 7 else 0


@flat_kernel
def choose_lead(policy, hand, state):
    """The dealer's lead when there is no trump."""
    if policy == RANDOM:
        return random_bit(state, hand)
    return highest_ranked(hand, CARD_RANK)


@flat_kernel(inline="always")
def weight(k, expect):
    """Weight of ending with k tricks when `expect` UNITs are expected (a triangle of half-width SPREAD)."""
    w = SPREAD - abs(UNIT * k - expect)
    return w if w > 0 else 0


def _total_weights():
    """TOTAL_WEIGHT[tricks, expect + LOWEST]: the sum of weight(k, expect) over k = 0..tricks."""
    tricks = np.arange(14)[:, None]
    expect = np.arange(-LOWEST, HIGHEST + 1)[None, :]
    k = np.arange(14)[None, None, :]
    w = np.maximum(0, SPREAD - np.abs(UNIT * k - expect[..., None]))
    return np.where(k <= tricks[..., None], w, 0).sum(axis=2).astype(np.int64)


LOWEST = 2 * UNIT  # expect >= -2 UNITs (two cards set aside, each at most a UNIT)
HIGHEST = 16 * UNIT  # expect <= 16 UNITs (15 cards and a led card)
TOTAL_WEIGHT = _total_weights()


@flat_kernel(inline="always")
def second_copy(hand, card, trump):
    """Another card of `hand` the estimate heuristic cannot tell from `card` (same number, both
    trumps or both not), the lowest; -1 if none."""
    same = hand & NUMBER_MASK[CARD_RANK[card]] & ~bit(card)
    if trump >= 0:
        same &= COLOUR_MASK[trump] if CARD_COLOUR[card] == trump else ~COLOUR_MASK[trump]
    return lowest(same) if same else -1


@flat_kernel
def kinds(hand, trump, kind_card, kind_rank, kind_strength):
    """(m, the hand's strength): one card per kind of `hand` (number, trump or not), the lowest,
    in kind_*[:m] with its number and strength; the rest only add to the strength."""
    base, m, seen = 0, 0, 0
    rest = hand
    while rest:
        c = lowest(rest)
        rest &= rest - np.uint64(1)
        base += strength(c, trump)
        key = 2 * CARD_RANK[c] + (CARD_COLOUR[c] == trump)
        if not seen >> key & 1:
            seen |= 1 << key
            kind_card[m], kind_rank[m], kind_strength[m] = c, CARD_RANK[c], strength(c, trump)
            m += 1
    return m, base


@flat_kernel
def choose_estimates(policy, hand, trump, extra, tricks, state, kind_card, kind_rank, kind_strength):
    """(face-up card, hidden card) a seat sets aside from `hand`; `extra`: the strength of
    cards it plays besides the hand (the dealer's lead); kind_*: scratch of 20 entries."""
    if policy == RANDOM:
        up = random_bit(state, hand)
        return up, random_bit(state, hand ^ bit(up))
    m, base = kinds(hand, trump, kind_card, kind_rank, kind_strength)
    base += extra  # the hand's strength
    # pairs paying nothing keep the first pair; the others pay where up or down is near `expect`
    best_up = kind_card[0]
    best_down = second_copy(hand, best_up, trump)
    if best_down < 0:
        best_down = kind_card[1]
    best, best_total = 0, 1  # the best expected bonus so far: best / best_total
    near = 0  # kinds that can pay: within SPREAD of base - own strength - a partner's (0..UNIT)
    for i in range(m):
        if base - kind_strength[i] - UNIT - SPREAD < UNIT * kind_rank[i] < base - kind_strength[i] + SPREAD:
            near |= 1 << i
    for i in range(m):
        for j in range(m):
            if not (near >> i | near >> j) & 1:
                continue
            down = kind_card[j]
            if j == i:
                down = second_copy(hand, down, trump)
                if down < 0:
                    continue
            expect = base - kind_strength[i] - kind_strength[j]
            up_n, down_n = kind_rank[i], kind_rank[j]
            wu = weight(up_n, expect) if up_n <= tricks else 0
            wd = weight(down_n, expect) if down_n != up_n and down_n <= tricks else 0
            if wu == 0 and wd == 0:
                continue
            value = wu * estimate_bonus(up_n, up_n, down_n) + wd * estimate_bonus(down_n, up_n, down_n)
            total = TOTAL_WEIGHT[tricks, expect + LOWEST]
            if value * best_total > best * total:
                best_up, best_down, best, best_total = kind_card[i], down, value, total
    return best_up, best_down


@flat_kernel
def wants_to_win(won, left, up, down):
    """Does a seat with `won` tricks and `left` to play (this one included) aim to win this trick?"""
    aim, value = -1, -1
    for target in (up, down):
        v = estimate_bonus(target, up, down)
        if won <= target <= won + left and v > value:
            aim, value = target, v
    return aim < 0 or aim > won


@flat_kernel
def heuristic_card(legal, trick, k, winner_pos, trump, win):
    """The heuristic's card (module docstring): trick[0..k-1] played so far, `win` its aim."""
    if k == 0:
        if win:
            trumps = legal & COLOUR_MASK[trump] if trump >= 0 else np.uint64(0)
            return highest_ranked(trumps if trumps else legal, CARD_RANK)
        side = legal & ~COLOUR_MASK[trump] if trump >= 0 else legal
        return lowest_ranked(side if side else legal, CARD_RANK)
    best = trick[winner_pos]
    winners = np.uint64(0)
    m = legal
    while m:
        c = lowest(m)
        m &= m - np.uint64(1)
        if beats(c, best, trump):
            winners |= bit(c)
    losers = legal & ~winners
    if win:
        return lowest_ranked(winners, CARD_RANK) if winners else lowest_ranked(losers, CARD_RANK)
    return highest_ranked(losers, CARD_RANK) if losers else lowest_ranked(winners, CARD_RANK)


@flat_kernel
def choose_card(policy, legal, trick, k, winner_pos, trump, won, left, up, down, state):
    """The card a seat plays; won/left/up/down: its tricks so far, tricks left, estimate numbers."""
    if policy == RANDOM:
        return random_bit(state, legal)
    return heuristic_card(legal, trick, k, winner_pos, trump, wants_to_win(won, left, up, down))
