"""Decision policies for Zwickern as numba kernels: the card a seat plays and what it does
with it (lay it, buy, build).

random     plays a uniform card of its hand, then a uniform one of that card's legal moves:
           lay it, each distinct buy (the set of cards taken), each distinct build (the item
           built on and the new pile's value).
heuristic  weighs every move of every card of its hand and makes the one worth most:
  * a buy: 10 a victory point of the cards taken (the played card included), 3 a card (for
    the most-cards bonus), 10 a point of the Zwick when it clears the table (it goes for the
    Zwick), and 10 a point of penalty saved for each pile of its side taken back;
  * a build (legal only while it holds another card of the new pile's value, so it builds
    only with a card to buy the pile back): half of what buying the pile would be worth, less
    3 for the cards it puts at risk;
  * laying a card: minus what the card would be worth to whoever buys it (10 a victory
    point and 3), less 1; so it buys whenever it can, and lays the card worth least.
Equal values go to the first move found (cards in index order; buys, then builds, then laying).
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest, mask_sum, popcount
from musim.core.rng import randint, random_bit
from musim.games.zwickern.points import PILE, ZWICK
from musim.games.zwickern.rules import BUILD, BUY, LAY, builds, buys, load_items
from musim.play.sides import side

RANDOM = 0
HEURISTIC = 1
NAMES = {"random": RANDOM, "heuristic": HEURISTIC}
POINT, CARD = 10, 3  # the heuristic's weights: a victory point, a card won


@flat_kernel(inline="always")
def worth(cards, points):
    """What winning `cards` is worth to the heuristic."""
    return POINT * mask_sum(cards, points) + CARD * popcount(cards)


@flat_kernel
def choose(policy, n, seat, hand, t, points, state, mv):
    """(card, action, cards, value): the card played and LAY; BUY with the cards taken; BUILD
    with the cards of the item built on and the new pile's value."""
    m = load_items(t, mv)
    if policy == RANDOM:
        card = random_bit(state, hand)
        b = buys(mv, m, card)
        k = builds(mv, m, card, hand & ~bit(card))
        r = randint(state, 1 + b + k)
        if r == 0:
            return card, LAY, np.uint64(0), 0
        if r <= b:
            return card, BUY, mv.buy_cards[r - 1], 0
        j = r - 1 - b
        return card, BUILD, mv.item_cards[mv.build_item[j]], mv.build_value[j]
    everything = np.uint64(0)
    for i in range(m):
        everything |= mv.item_cards[i]
    best, got_card, got_action, got_cards, got_value = -(1 << 40), -1, LAY, np.uint64(0), 0
    rest = hand
    while rest:
        card = lowest(rest)
        rest &= rest - np.uint64(1)
        for j in range(buys(mv, m, card)):
            taken = mv.buy_cards[j]
            v = worth(taken | bit(card), points) + _piles_back(n, seat, t, taken, points)
            if taken == everything:
                v += POINT * points[ZWICK]
            if v > best:
                best, got_card, got_action, got_cards, got_value = v, card, BUY, taken, 0
        for j in range(builds(mv, m, card, hand & ~bit(card))):
            target = mv.item_cards[mv.build_item[j]]
            v = worth(target | bit(card), points) // 2 - CARD
            if v > best:
                best, got_card, got_action, got_cards, got_value = v, card, BUILD, target, mv.build_value[j]
        v = -worth(bit(card), points) - 1
        if v > best:
            best, got_card, got_action, got_cards, got_value = v, card, LAY, np.uint64(0), 0
    return got_card, got_action, got_cards, got_value


@flat_kernel(inline="always")
def _piles_back(n, seat, t, taken, points):
    """The penalty saved by taking back the piles of the mover's side among `taken`."""
    saved = 0
    for k in range(t.count[0]):
        if t.piles[k] & taken and side(n, n == 4, t.builder[k]) == side(n, n == 4, seat):
            saved += t.value[k] * points[PILE]
    return POINT * saved
