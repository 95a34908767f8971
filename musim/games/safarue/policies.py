"""Decision policies for Safarü and Reverse Safarü as numba kernels: the card a seat plays and
its catch, and in Reverse Safarü the method the seat to the mover's left chooses.

random     plays a uniform card of its hand; a card that can catch takes a uniform legal catch
           (Safarü: any legal combination of methods; Reverse: the chooser names a uniform
           method among those possible, the mover takes a uniform set of that method).
heuristic  values each card by what it is worth to its catcher at the end, from the scoring:
           Safarü +1 a triangle, -5 a zero card, +2 a blue card (24 points for the most of 12
           blue cards) and -1 a yellow one (-12 for the most of 12); Reverse Safarü (where
           every point is bad) 1 a triangle, 1 a card (+24 for the most cards) and 1 a
           yellow card (+12 for the most yellow).
  * Safarü: plays the card whose best catch (the disjoint combination of methods with the
    highest value of the cards caught, the played card counted when it pairs) is worth most;
    releases instead when no catch is worth more than nothing and some card can be released:
    the releasable card worth least to whoever catches it.
  * Reverse: releases a card when it can (the one that would cost most to catch later);
    otherwise plays the card whose catch costs least when the chooser names the worst method
    for it and the mover then takes the cheapest set of that method.
  * Reverse, as the chooser: names the method whose cheapest set costs the mover most.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest, mask_sum, popcount
from musim.core.deck import MU as DECK
from musim.core.rng import randint, random_bit
from musim.games.safarue.rules import (
    ADDING,
    BLUE,
    NUMBER,
    PAIRING,
    TOTAL,
    TRIANGLES,
    YELLOW,
    ZERO_CARD,
    ZEROS,
    catch_sets,
    pairing_cards,
)

RANDOM = 0
HEURISTIC = 1
NAMES = {"random": RANDOM, "heuristic": HEURISTIC}
NONE = np.uint64(0)


def _values(reverse):
    """Per card: Safarü's worth of catching it, or (reverse) Reverse Safarü's cost of catching it."""
    cards = np.arange(DECK.n_cards).astype(np.uint64)
    blue, yellow, zero = (((m >> cards) & np.uint64(1)).astype(np.int64) for m in (BLUE, YELLOW, ZEROS))
    if reverse:
        return TRIANGLES + 1 + yellow
    return TRIANGLES + ZERO_CARD * zero + 2 * blue - yellow


VALUE = _values(False)  # Safarü: what a caught card is worth to its catcher
COST = _values(True)  # Reverse Safarü: what a caught card costs its catcher


@flat_kernel
def _combination(adds, n_add, totals, n_total, pairs, card, pick, best):
    """Walk the legal combinations of one Safarü card (each method used or not, disjoint, at
    least one used).  pick >= 0: return the pick-th; best: return the one of highest VALUE;
    else only count.  Returns (count, value, adding, totalling, pairing)."""
    count, top = 0, -(1 << 30)
    got_a, got_t, got_p = NONE, NONE, NONE
    for a in range(-1, n_add):
        sa = adds[a] if a >= 0 else NONE
        for t in range(-1, n_total):
            st = totals[t] if t >= 0 else NONE
            if sa & st:
                continue
            p_rest = pairs & ~(sa | st)
            sp = NONE
            while True:
                if sa or st or sp:
                    if best:
                        v = mask_sum(sa | st | sp, VALUE) + (VALUE[card] if sp else 0)
                        if v > top:
                            top, got_a, got_t, got_p = v, sa, st, sp
                    elif count == pick:
                        return count, 0, sa, st, sp
                    count += 1
                if not p_rest:
                    break
                sp = bit(lowest(p_rest))
                p_rest &= p_rest - np.uint64(1)
    return count, top, got_a, got_t, got_p


@flat_kernel(inline="always")
def _sets(table, card, ws):
    """The adding and totalling sets of `card` in ws.adds / ws.totals, and its pairing cards."""
    v = NUMBER[card]
    n_add = catch_sets(table, v, ws.order, ws.adds)
    n_total = catch_sets(table, TOTAL - v, ws.order, ws.totals)
    return n_add, n_total, pairing_cards(table, card)


@flat_kernel
def choose_safarue(policy, hand, table, cleared, state, ws):
    """(card, adding, totalling, pairing) of a Safarü turn: the sets caught by each method (0: unused)."""
    if cleared:
        return _release(policy, hand, VALUE, False, state), NONE, NONE, NONE
    if policy == RANDOM:
        card = random_bit(state, hand)
        n_add, n_total, pairs = _sets(table, card, ws)
        count = _combination(ws.adds, n_add, ws.totals, n_total, pairs, card, -1, False)[0]
        if count == 0:
            return card, NONE, NONE, NONE
        _, _, a, t, p = _combination(ws.adds, n_add, ws.totals, n_total, pairs, card, randint(state, count), False)
        return card, a, t, p
    best, best_card, releasable = -(1 << 30), -1, NONE
    got_a, got_t, got_p = NONE, NONE, NONE
    rest = hand
    while rest:
        card = lowest(rest)
        rest &= rest - np.uint64(1)
        n_add, n_total, pairs = _sets(table, card, ws)
        count, v, a, t, p = _combination(ws.adds, n_add, ws.totals, n_total, pairs, card, -1, True)
        if count == 0:
            releasable |= bit(card)
        elif v > best:
            best, best_card, got_a, got_t, got_p = v, card, a, t, p
    if best_card < 0 or (best < 0 and releasable):
        return _release(policy, releasable, VALUE, False, state), NONE, NONE, NONE
    return best_card, got_a, got_t, got_p


@flat_kernel
def _release(policy, cards, value, most, state):
    """The card released among `cards`: random, or the one of least (most=True: highest) value."""
    return random_bit(state, cards) if policy == RANDOM else _extreme(cards, value, most)


@flat_kernel
def _extreme(cards, value, most):
    """The card of `cards` of least (most=True: highest) value; the lowest index among equals."""
    chosen, top = -1, 0
    while cards:
        c = lowest(cards)
        cards &= cards - np.uint64(1)
        if chosen < 0 or (value[c] > top if most else value[c] < top):
            chosen, top = c, value[c]
    return chosen


@flat_kernel
def _cheapest(sets, n):
    """(cost, set) of the cheapest of n sets."""
    low, got = 1 << 30, NONE
    for i in range(n):
        c = mask_sum(sets[i], COST)
        if c < low:
            low, got = c, sets[i]
    return low, got


@flat_kernel
def _method_options(n_add, n_total, pairs):
    """Bit m set when method m (ADDING, TOTALLING, PAIRING) can catch."""
    return (1 if n_add else 0) | (2 if n_total else 0) | (4 if pairs else 0)


@flat_kernel
def _take(policy, method, card, n_add, n_total, pairs, state, ws):
    """(adding, totalling, pairing) when the mover catches by `method` alone: random or the cheapest set."""
    if method == PAIRING:
        if policy == RANDOM:
            return NONE, NONE, bit(random_bit(state, pairs))
        return NONE, NONE, bit(_extreme(pairs, COST, False))
    sets, n = (ws.adds, n_add) if method == ADDING else (ws.totals, n_total)
    chosen = sets[randint(state, n)] if policy == RANDOM else _cheapest(sets, n)[1]
    return (chosen, NONE, NONE) if method == ADDING else (NONE, chosen, NONE)


@flat_kernel
def _method_cost(method, card, n_add, n_total, pairs, ws):
    """What catching by `method` costs the mover who then takes its cheapest set."""
    if method == PAIRING:
        c = _extreme(pairs, COST, False)
        return COST[c] + COST[card]
    return _cheapest(ws.adds, n_add)[0] if method == ADDING else _cheapest(ws.totals, n_total)[0]


@flat_kernel
def choose_method(policy, options, card, n_add, n_total, pairs, state, ws):
    """The method the chooser names among `options` (bits by method): random, or the one whose
    cheapest set costs the mover most."""
    if policy == RANDOM:
        return random_bit(state, np.uint64(options))
    chosen, top = -1, -1
    for m in range(3):
        if options >> m & 1:
            c = _method_cost(m, card, n_add, n_total, pairs, ws)
            if c > top:
                chosen, top = m, c
    return chosen


@flat_kernel
def choose_reverse(policy, chooser, hand, table, cleared, state, ws):
    """(card, adding, totalling, pairing) of a Reverse Safarü turn; `chooser` is the policy of
    the seat to the mover's left, which names the method when the card could catch by several."""
    if cleared:
        return _release(policy, hand, COST, True, state), NONE, NONE, NONE
    if policy == RANDOM:
        card = random_bit(state, hand)
    else:
        card = _reverse_card(hand, table, ws)
    n_add, n_total, pairs = _sets(table, card, ws)
    options = _method_options(n_add, n_total, pairs)
    if options == 0:
        return card, NONE, NONE, NONE
    method = lowest(np.uint64(options))
    if popcount(np.uint64(options)) > 1:
        method = choose_method(chooser, options, card, n_add, n_total, pairs, state, ws)
    a, t, p = _take(policy, method, card, n_add, n_total, pairs, state, ws)
    return card, a, t, p


@flat_kernel
def _reverse_card(hand, table, ws):
    """The heuristic's card in Reverse Safarü: a release if it can (the costliest such card),
    else the card whose catch costs least when the chooser names the worst method for it."""
    releasable, best, best_card = NONE, 1 << 30, -1
    rest = hand
    while rest:
        card = lowest(rest)
        rest &= rest - np.uint64(1)
        n_add, n_total, pairs = _sets(table, card, ws)
        options = _method_options(n_add, n_total, pairs)
        if options == 0:
            releasable |= bit(card)
            continue
        worst = 0
        for m in range(3):
            if options >> m & 1:
                worst = max(worst, _method_cost(m, card, n_add, n_total, pairs, ws))
        if worst < best:
            best, best_card = worst, card
    if releasable:
        return _extreme(releasable, COST, True)
    return best_card
