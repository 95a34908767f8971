"""Decision policies for Rummü as numba kernels: what to draw, what to lay, extend and swap, and
what to discard.

random     draws from the stock or the discard pile with chance 1/2 each (from the pile the top
           1..3 cards, uniform, as far as the pile holds them); then, while a coin says so,
           takes one action uniform among the legal ones (a candidate meld of search.py, before
           it has come out one of the coming-out count, adding a card to a meld, a joker swap);
           discards a uniform card.
heuristic  takes the top k cards of the discard pile (the fewest, k <= 3) when the k-th completes
           a play it may make now (before it has come out, a coming-out play of `opening` holding
           that card; once out, a candidate meld holding it or a card that extends a meld on the
           table), else the top of the stock.  It comes out as soon as it may, with the play of
           `opening` worth most (one meld, or two melds laid together), and lays greedily: first
           every joker swap its cards allow (the joker is then free for a meld), then the meld
           with the most points plus the penalty its cards would cost in hand, again and again,
           then every card that extends a meld on the table.  It discards the card with the
           fewest partners in hand (cards of its number in other colours, cards of its colour or
           yellow within two numbers), and among those the costlier card, red (it keeps red cards
           out of its hand at the end), then the highest number.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest, popcount
from musim.core.rng import randint, random_bit
from musim.games.rummue.rules import COLOUR, NUMBER, YELLOW, YELLOWS, card_of, extends, numbers, penalty, swaps
from musim.games.rummue.search import candidates
from musim.games.rummue.table import G_MELDS, G_PILE, G_STOCK, extend, lay, swap

RANDOM = 0
HEURISTIC = 1
NAMES = {"random": RANDOM, "heuristic": HEURISTIC}
DEEPEST = 3  # the heuristic looks this far down the discard pile


@flat_kernel
def opening(ws, hand, need, must):
    """The heuristic's coming-out play (docs/rules.md §5.2: every meld laid in the turn counts
    together): one candidate meld of >= need cards, or a candidate and a meld of the cards it
    leaves, of >= need cards together, whichever is worth most (points plus the penalty their
    cards would cost in hand), holding the cards `must` and leaving a card to discard.  Two melds
    suffice, as a meld has >= 3 cards and the count is at most 6.  Returns the two melds' masks
    (the second 0 for one meld; both 0 for none)."""
    count = candidates(hand, 3, -1, ws.scratch, ws.masks, ws.values)
    first, second, top = np.uint64(0), np.uint64(0), -(10**9)
    for i in range(count):
        a = ws.masks[i]
        value = ws.values[i] - penalty(a)
        k = popcount(a)
        if k >= need:
            if (a & must) == must and value > top:
                first, second, top = a, np.uint64(0), value
            continue
        rest = candidates(hand & ~a, max(3, need - k), -1, ws.scratch, ws.rest_masks, ws.rest_values)
        for j in range(rest):
            b = ws.rest_masks[j]
            both = value + ws.rest_values[j] - penalty(b)
            if ((a | b) & must) == must and both > top:
                first, second, top = a, b, both
    return first, second


@flat_kernel
def choose_draw(policy, seat, ws, state):
    """0: the top of the stock; k >= 1: the top k cards of the discard pile."""
    pile = ws.g[G_PILE]
    if policy == RANDOM:
        if ws.g[G_STOCK] and randint(state, 2) == 0:
            return 0
        return 1 + randint(state, min(3, pile))
    hand = ws.held[seat]
    for k in range(1, min(DEEPEST, pile) + 1):
        card = ws.pile[pile - k]
        hand |= bit(card)
        if _completes(ws, seat, hand, card):
            return k
    return 0 if ws.g[G_STOCK] else 1


@flat_kernel
def _completes(ws, seat, hand, card):
    """Does `card` complete a coming-out play with `hand` (once out: a meld, or extend one on the table)?"""
    if not ws.came[seat]:
        return opening(ws, hand, ws.need[seat], bit(card))[0] != 0
    count = candidates(hand, 3, NUMBER[card], ws.scratch, ws.masks, ws.values)
    for i in range(count):
        if ws.masks[i] & bit(card):
            return True
    for m in range(ws.g[G_MELDS]):
        if extends(ws.melds[m], card):
            return True
    return False


@flat_kernel
def play(policy, seat, ws, state):
    """Lay, extend and swap by the policy, leaving at least one card to discard."""
    if policy == RANDOM:
        while _random_action(seat, ws, state):
            pass
        return
    while _swap_one(seat, ws) or _lay_best(seat, ws):
        pass
    if ws.came[seat]:
        while _extend_one(seat, ws):
            pass


@flat_kernel
def _swap_one(seat, ws):
    """Make the first joker swap the hand allows (once out)."""
    if not ws.came[seat]:
        return False
    hand = ws.held[seat]
    for m in range(ws.g[G_MELDS]):
        jokers = ws.melds[m] & YELLOWS
        while jokers:
            j = lowest(jokers)
            jokers &= jokers - np.uint64(1)
            for c in (0, 2, 3, 4):
                card = card_of(hand, c, NUMBER[j])
                if card >= 0 and swaps(ws.melds[m], card, j):
                    swap(ws, seat, m, card, j)
                    return True
    return False


@flat_kernel
def _lay_best(seat, ws):
    """Come out with the play of `opening`; once out, lay the candidate meld with the most points
    plus the penalty its cards would cost in hand."""
    if not ws.came[seat]:
        first, second = opening(ws, ws.held[seat], ws.need[seat], np.uint64(0))
        if first == 0:
            return False
        lay(ws, seat, first)
        if second:
            lay(ws, seat, second)
        return True
    count = candidates(ws.held[seat], 3, -1, ws.scratch, ws.masks, ws.values)
    best, top = -1, -(10**9)
    for i in range(count):
        value = ws.values[i] - penalty(ws.masks[i])
        if value > top:
            best, top = i, value
    if best < 0:
        return False
    lay(ws, seat, ws.masks[best])
    return True


@flat_kernel
def _extend_one(seat, ws):
    """Add the first card that extends a meld on the table, keeping a card to discard."""
    hand = ws.held[seat]
    if popcount(hand) < 2:
        return False
    rest = hand
    while rest:
        card = lowest(rest)
        rest &= rest - np.uint64(1)
        for m in range(ws.g[G_MELDS]):
            if extends(ws.melds[m], card):
                extend(ws, seat, m, card)
                return True
    return False


@flat_kernel
def _random_action(seat, ws, state):
    """With chance 1/2, one legal action uniform among all; False when none was taken.  Before it
    has come out its melds are those of the coming-out count, so that each comes out alone."""
    hand = ws.held[seat]
    least = 3 if ws.came[seat] else ws.need[seat]
    count = candidates(hand, least, -1, ws.scratch, ws.masks, ws.values)
    actions = count + (_table_actions(seat, ws, -1) if ws.came[seat] else 0)
    if actions == 0 or randint(state, 2) == 0:
        return False
    r = randint(state, actions)
    if r < count:
        lay(ws, seat, ws.masks[r])
    else:
        _table_actions(seat, ws, r - count)
    return True


@flat_kernel
def _table_actions(seat, ws, pick):
    """The count of extensions and joker swaps the seat may make; with pick >= 0, make the pick-th."""
    hand = ws.held[seat]
    k = 0
    for m in range(ws.g[G_MELDS]):
        meld = ws.melds[m]
        rest = hand if popcount(hand) >= 2 else np.uint64(0)
        while rest:
            card = lowest(rest)
            rest &= rest - np.uint64(1)
            if extends(meld, card):
                if k == pick:
                    extend(ws, seat, m, card)
                k += 1
        jokers = meld & YELLOWS
        while jokers:
            j = lowest(jokers)
            jokers &= jokers - np.uint64(1)
            rest = hand & ~YELLOWS
            while rest:
                card = lowest(rest)
                rest &= rest - np.uint64(1)
                if swaps(meld, card, j):
                    if k == pick:
                        swap(ws, seat, m, card, j)
                    k += 1
    return k


@flat_kernel
def choose_discard(policy, seat, ws, state):
    """The card to discard."""
    hand = ws.held[seat]
    if policy == RANDOM:
        return random_bit(state, hand)
    nums = ws.scratch
    for c in range(5):
        nums[c] = numbers(hand, c)
    best, top = -1, 10**9
    rest = hand
    while rest:
        card = lowest(rest)
        rest &= rest - np.uint64(1)
        v, c = NUMBER[card], COLOUR[card]
        near = ((1 << min(v + 3, 10)) - 1) & ~((1 << max(v - 2, 0)) - 1) & ~(1 << v)
        partners = popcount(np.uint64((nums[c] | nums[YELLOW]) & near))
        for d in range(5):
            partners += 1 if d != c and nums[d] >> v & 1 else 0
        # fewest partners, then the costlier card (red), then the higher number
        rank = partners * 100 + 10 * (penalty(bit(card)) // 5) - v
        if rank < top:
            best, top = card, rank
    return best
