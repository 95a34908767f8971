"""The rules of Safarü and Reverse Safarü (docs/rules.md §6) as numba kernels on Mü & More card masks.

A turn plays one hand card of number v onto the table and catches with it by up to three
methods, each at most once, on disjoint table cards: adding (a set of table cards summing to
v), totalling (a set that with v sums to 17) and pairing (one table card of number v, taken
with the played card).  Sets are masks of table cards; `catch_sets` lists every set one
method may take, and is the one statement of which sets are legal (the simulation, the
policies and replay all ask it).
"""

import numpy as np

from musim.compile.jit import ScratchFull, flat_kernel, growing
from musim.core.bits import bit, highest, lowest, mask_sum, popcount
from musim.core.deck import MU as DECK

MIN_PLAYERS, MAX_PLAYERS = 2, 4
HAND = 4  # cards dealt to each seat a round
TABLE = 4  # the table is refilled to this many cards a round
TOTAL = 17  # totalling: table cards + the played card
SETS = 1 << 13  # room at first for the sets one method may take (all_catch_sets grows it)
ADDING, TOTALLING, PAIRING = 0, 1, 2
METHODS = ("adding", "totalling", "pairing")

NUMBER = DECK.card_rank  # the number 0..9 of each card
TRIANGLES = DECK.card_points
NUMBER_MASK = np.array([DECK.label_mask(str(v)) for v in range(10)], np.uint64)
ZEROS = NUMBER_MASK[0]
BLUE = np.uint64(DECK.colour_mask("B"))
YELLOW = np.uint64(DECK.colour_mask("Y"))
MOST_BLUE, MOST_YELLOW, ZERO_CARD = 24, -12, -5  # Safarü
MOST_CARDS, MOST_YELLOW_REVERSE = 24, 12  # Reverse Safarü


@flat_kernel
def catch_sets(table, target, order, out):
    """Write to `out` every set of table cards one adding or totalling may take when the
    cards must sum to `target`: non-empty, and holding at least one 0 whenever the table
    holds a 0.  Returns how many; `order` is scratch room for 64 card indices.

    The non-zero cards are searched in ascending number order, the chosen positions kept
    as a bit stack, so a branch stops as soon as its sum would pass the target; each set of
    them that hits the target is written with every non-empty subset of the table's zeros
    (or alone, with no zero on the table).  ScratchFull if they outgrow `out` (all_catch_sets)."""
    m = 0
    for v in range(1, 10):
        rest = table & NUMBER_MASK[v]
        while rest:
            order[m] = lowest(rest)
            rest &= rest - np.uint64(1)
            m += 1
    zeros = table & ZEROS
    count = 0
    if target == 0 and zeros:
        count = _with_zeros(np.uint64(0), zeros, out, count)
    stack, i, total, chosen = np.uint64(0), 0, 0, np.uint64(0)
    while True:
        if i < m and total + NUMBER[order[i]] <= target:
            stack |= bit(i)
            total += NUMBER[order[i]]
            chosen |= bit(order[i])
            if total == target:
                count = _with_zeros(chosen, zeros, out, count)
            i += 1
            continue
        if not stack:
            return count
        j = highest(stack)
        stack ^= bit(j)
        total -= NUMBER[order[j]]
        chosen ^= bit(order[j])
        i = j + 1


@flat_kernel
def _with_zeros(chosen, zeros, out, count):
    """Append `chosen` with each non-empty subset of `zeros` (or alone if there are none)."""
    if not zeros:
        if count >= out.shape[0]:
            raise ScratchFull("catch_sets: more sets than the room for them")
        out[count] = chosen
        return count + 1
    sub = zeros
    while sub:
        if count >= out.shape[0]:
            raise ScratchFull("catch_sets: more sets than the room for them")
        out[count] = chosen | sub
        count += 1
        sub = (sub - np.uint64(1)) & zeros
    return count


def all_catch_sets(table, target, order, out):
    """(count, sets): catch_sets into `out`, or into a list twice as long while they outgrow it."""
    return growing(lambda out: int(catch_sets(np.uint64(table), target, order, out)), out, doubled)


def doubled(out):
    """A list of sets twice as long as `out`."""
    return np.zeros(2 * len(out), out.dtype)


@flat_kernel(inline="always")
def pairing_cards(table, card):
    """The table cards the played card may pair with (one of them is taken)."""
    return table & NUMBER_MASK[NUMBER[card]]


@flat_kernel
def can_catch(table, card, order, scratch):
    """True if `card` played to `table` could catch by any method."""
    v = NUMBER[card]
    if pairing_cards(table, card):
        return True
    return catch_sets(table, v, order, scratch) > 0 or catch_sets(table, TOTAL - v, order, scratch) > 0


@flat_kernel(inline="always")
def caught_cards(card, adding, totalling, pairing):
    """The cards a catch takes: the sets, and the played card itself when it pairs."""
    taken = adding | totalling | pairing
    return taken | bit(card) if pairing else taken


@flat_kernel(inline="always")
def table_after(table, card, adding, totalling, pairing):
    """The table after a turn: the caught cards leave it; the played card stays unless it paired."""
    rest = table & ~(adding | totalling | pairing)
    return rest if pairing else rest | bit(card)


@flat_kernel(inline="always")
def sides(n):
    return 2 if n == 4 else n


@flat_kernel
def majority(counts, k, points, shares):
    """Add to shares[side] its part of `points` for the most of `counts` (k sides): split
    equally among the sides tied for the most; nobody scores it if no side has any."""
    top, tied = 0, 0
    for s in range(k):
        if counts[s] > top:
            top, tied = counts[s], 1
        elif counts[s] == top:
            tied += 1
    if top == 0:
        return
    for s in range(k):
        if counts[s] == top:
            shares[s] += points // tied


@flat_kernel
def score(won, k, reverse, counts, first, second, scores):
    """Each side's score from its caught cards won[side] (k sides): the two majority bonuses
    in `first` (Safarü: most blue; Reverse: most cards) and `second` (most yellow), and the
    total in `scores`.  Safarü adds a triangle each and -5 a zero card; Reverse a triangle each."""
    for s in range(k):
        first[s] = 0
        second[s] = 0
        counts[s] = popcount(won[s] & YELLOW)
    majority(counts, k, MOST_YELLOW_REVERSE if reverse else MOST_YELLOW, second)
    for s in range(k):
        counts[s] = popcount(won[s]) if reverse else popcount(won[s] & BLUE)
    majority(counts, k, MOST_CARDS if reverse else MOST_BLUE, first)
    for s in range(k):
        scores[s] = first[s] + second[s] + mask_sum(won[s], TRIANGLES)
        if not reverse:
            scores[s] += ZERO_CARD * popcount(won[s] & ZEROS)
