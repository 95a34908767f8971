"""Zwickern (docs/rules.md §10) as numba kernels on a `Table`, shared by the simulation, the
policies and the replay of records, so that each rule has one statement.

The table holds loose cards (a card mask) and piles (the cards of each as a mask, its value
and its builder).  The kernels that decide what a played card may do see the table as a list
of *items*, loose cards and piles, each with a low and a high value (equal for all but a loose
ace, jack, queen or king), sorted by low value: `load_items`.  A buy takes items that can be
split into groups each summing to the played card's value (`groups`, then `buys`: the distinct
unions of disjoint groups); a build adds the played card to one item, or takes the smaller from
the larger, for a new pile value the mover holds a card to buy (`builds`).
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import ScratchFull, flat_kernel
from musim.core.bits import bit, lowest, mask_sum, popcount
from musim.core.deck import ZWICKERN as DECK
from musim.games.zwickern.points import MOST, PILE, ZWICK
from musim.play.sides import side

CARDS = DECK.n_cards
HAND, TABLE = 4, 4
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_PILES = 32  # a pile holds two cards or more
MAX_ITEMS = 64
# Room at first for the groups of one value and the buys of one card: they grow exponentially
# with the table, so the kernels raise ScratchFull when full and their callers grow the room
# (`grown`, as simulate._growing does) and call again.  Each list's hash set has twice its room:
# at most half full.
FIRST_GROUPS, FIRST_BUYS = 1 << 12, 1 << 14
MAX_BUILDS = 1024  # a build on an item makes at most 8 values (sum and difference of 4 value pairs): 8 x 55
LAY, BUY, BUILD = range(3)
ACTIONS = ("lay", "buy", "build")
# parts of a seat's deal (simulate and score): cards won, their victory points, the most-cards
# bonus (its side's), Zwicks, their points, the penalty of the piles it built left at the end,
# turns buying, building and laying, piles it built left at the end
PARTS = ("cards", "card_points", "most_cards", "zwicks", "zwick_points", "pile_penalty")
PARTS += ("buys", "builds", "lays", "piles_left")
CARDS_WON, CARD_POINTS, MOST_CARDS, ZWICKS, ZWICK_POINTS, PILE_PENALTY, BUYS, BUILDS, LAYS, PILES_LEFT = range(10)
TURN_PART = np.array([LAYS, BUYS, BUILDS], np.int64)  # the part each action counts in, by action


def _values():
    """Each card's (low, high) capture value: 2..10 face value; A 1/11, J 2/12, Q 3/13, K 4/14;
    jokers 15, 20, 25."""
    dual = {"A": 1, "J": 2, "Q": 3, "K": 4}
    low, high = np.zeros(CARDS, np.int64), np.zeros(CARDS, np.int64)
    for i in range(CARDS):
        colour, slot = DECK.colour_slot(i)
        label = DECK.labels[colour][slot]
        if DECK.colours[colour] == "J":
            low[i] = high[i] = (15, 20, 25)[slot]
        elif label in dual:
            low[i], high[i] = dual[label], dual[label] + 10
        else:
            low[i] = high[i] = int(label)
    return low, high


LOW, HIGH = _values()

Table = namedtuple("Table", "loose piles value builder count")
# Scratch of the move kernels: items (cards, low, high), groups and buys (item and card masks),
# their hash sets (keys and generation stamps), the DFS path, the builds (item, value)
Moves = namedtuple(
    "Moves",
    "item_cards item_low item_high group_items group_cards buy_items buy_cards "
    "group_keys group_stamps buy_keys buy_stamps gen path build_item build_value",
)


def new_table():
    """An empty Table."""
    return Table(
        loose=np.zeros(1, np.uint64),
        piles=np.zeros(MAX_PILES, np.uint64),
        value=np.zeros(MAX_PILES, np.int64),
        builder=np.zeros(MAX_PILES, np.int64),
        count=np.zeros(1, np.int64),
    )


def new_moves():
    """Scratch room for the move kernels."""
    z = np.zeros
    return Moves(
        item_cards=z(MAX_ITEMS, np.uint64),
        item_low=z(MAX_ITEMS, np.int64),
        item_high=z(MAX_ITEMS, np.int64),
        **_room(FIRST_GROUPS, FIRST_BUYS),
        gen=z(2, np.int64),
        path=z(2 * MAX_ITEMS, np.int64),
        build_item=z(MAX_BUILDS, np.int64),
        build_value=z(MAX_BUILDS, np.int64),
    )


def _room(groups, buys):
    """The lists of groups and buys (sizes powers of 2) and their hash sets."""
    z = np.zeros
    return dict(
        group_items=z(groups, np.uint64),
        group_cards=z(groups, np.uint64),
        buy_items=z(buys, np.uint64),
        buy_cards=z(buys, np.uint64),
        group_keys=z(2 * groups, np.uint64),
        group_stamps=z(2 * groups, np.int64),
        buy_keys=z(2 * buys, np.uint64),
        buy_stamps=z(2 * buys, np.int64),
    )


def grown(mv):
    """`mv` with twice the room for groups and buys (the items, builds and counters shared)."""
    return mv._replace(**_room(2 * len(mv.group_items), 2 * len(mv.buy_items)))


@flat_kernel
def clear(t):
    t.loose[0] = 0
    t.count[0] = 0


@flat_kernel(inline="always")
def on_table(t):
    """Every card on the table, loose or in a pile."""
    cards = t.loose[0]
    for k in range(t.count[0]):
        cards |= t.piles[k]
    return cards


@flat_kernel(inline="always")
def is_empty(t):
    return t.loose[0] == 0 and t.count[0] == 0


@flat_kernel
def load_items(t, mv):
    """Write the table's items (loose cards in index order, then piles) sorted by low value
    (insertion sort, stable) to mv; returns how many."""
    m = 0
    rest = t.loose[0]
    while rest:
        c = lowest(rest)
        rest &= rest - np.uint64(1)
        m = _insert_item(mv, m, bit(c), LOW[c], HIGH[c])
    for k in range(t.count[0]):
        m = _insert_item(mv, m, t.piles[k], t.value[k], t.value[k])
    return m


@flat_kernel(inline="always")
def _insert_item(mv, m, cards, low, high):
    j = m
    while j > 0 and mv.item_low[j - 1] > low:
        mv.item_cards[j], mv.item_low[j], mv.item_high[j] = (
            mv.item_cards[j - 1],
            mv.item_low[j - 1],
            mv.item_high[j - 1],
        )
        j -= 1
    mv.item_cards[j], mv.item_low[j], mv.item_high[j] = cards, low, high
    return m + 1


@flat_kernel
def _add_new(keys, stamps, gen, key):
    """Add `key` (non-zero) to the set of generation `gen` in keys/stamps; False if it was there.
    The slot is the key's low bits: item masks of a table of up to log2(size) items never
    collide and stay within a few cache lines; larger tables probe on."""
    size = keys.shape[0]
    i = np.int64(key & np.uint64(size - 1))
    while stamps[i] == gen:
        if keys[i] == key:
            return False
        i = (i + 1) & (size - 1)
    keys[i], stamps[i] = key, gen
    return True


@flat_kernel
def groups(mv, m, target):
    """Write to mv.group_items/group_cards every distinct set of the m items (an item mask) whose
    values, each item counted at its low or its high value, sum to `target`; returns how many.

    Each item is left out or taken at one of its values, in item order (ascending low value), the
    chosen (item, value) positions kept on mv.path; a branch stops as soon as a low value would
    pass the target, since every later item's values are at least as high."""
    mv.gen[0] += 1
    gen, path = mv.gen[0], mv.path
    count, depth, total, chosen, cards = 0, 0, 0, np.uint64(0), np.uint64(0)
    k = 0  # position 2*i is item i at its low value, 2*i+1 at its high value (if it differs)
    while True:
        if k < 2 * m:
            i, high = k >> 1, k & 1
            v = mv.item_high[i] if high else mv.item_low[i]
            if high and v == mv.item_low[i]:
                k += 1
                continue
            if total + v <= target:
                path[depth] = k
                depth += 1
                total += v
                chosen |= bit(i)
                cards |= mv.item_cards[i]
                if total == target:
                    if _add_new(mv.group_keys, mv.group_stamps, gen, chosen):
                        if count >= mv.group_items.shape[0]:
                            raise ScratchFull("groups: more groups than the room for them")
                        mv.group_items[count], mv.group_cards[count] = chosen, cards
                        count += 1
                    k = 2 * m  # any further item passes the target: back up
                else:
                    k = 2 * (i + 1)
                continue
            if not high:
                k = 2 * m  # this low value and every later item's pass the target
                continue
            k += 1
            continue
        if depth == 0:
            return count
        depth -= 1
        j = path[depth]
        i = j >> 1
        total -= mv.item_high[i] if j & 1 else mv.item_low[i]
        chosen ^= bit(i)
        cards ^= mv.item_cards[i]
        k = j + 1


@flat_kernel
def _unions(mv, g, count, gen):
    """Append to the buys every new union of pairwise disjoint groups among the g groups."""
    path = mv.path
    depth, k, used, cards = 0, 0, np.uint64(0), np.uint64(0)
    while True:
        if k < g:
            if not mv.group_items[k] & used:
                path[depth] = k
                depth += 1
                used |= mv.group_items[k]
                cards |= mv.group_cards[k]
                if _add_new(mv.buy_keys, mv.buy_stamps, gen, used):
                    if count >= mv.buy_items.shape[0]:
                        raise ScratchFull("buys: more buys than the room for them")
                    mv.buy_items[count], mv.buy_cards[count] = used, cards
                    count += 1
            k += 1
            continue
        if depth == 0:
            return count
        depth -= 1
        j = path[depth]
        used ^= mv.group_items[j]
        cards ^= mv.group_cards[j]
        k = j + 1


@flat_kernel
def buys(mv, m, card):
    """Write to mv.buy_items/buy_cards every distinct buy of `card` on the m loaded items: a
    non-empty set of items that splits into groups each summing to one value of the card (the
    same value for every group).  Returns how many; ScratchFull if they outgrow mv (`grown`)."""
    mv.gen[1] += 1
    gen = mv.gen[1]
    count = _unions(mv, groups(mv, m, LOW[card]), 0, gen)
    if HIGH[card] != LOW[card]:
        count = _unions(mv, groups(mv, m, HIGH[card]), count, gen)
    return count


@flat_kernel(inline="always")
def hand_values(hand):
    """The capture values a hand can buy with: bit v set for each value v of its cards."""
    values = np.uint64(0)
    while hand:
        c = lowest(hand)
        hand &= hand - np.uint64(1)
        values |= bit(LOW[c]) | bit(HIGH[c])
    return values


@flat_kernel
def build_values(a_low, a_high, card, held):
    """The pile values a build of `card` on an item of values a_low/a_high may make: the sum or
    the difference (at least 1) of a value of each, that a value in `held` (hand_values of the
    mover's other cards) can buy."""
    out = np.uint64(0)
    for a in (a_low, a_high):
        for b in (LOW[card], HIGH[card]):
            out |= bit(a + b)
            if a != b:
                out |= bit(abs(a - b))
    return out & held


@flat_kernel
def builds(mv, m, card, rest):
    """Write to mv.build_item/build_value every distinct build of `card` on the m loaded items,
    `rest` being the mover's other cards; returns how many."""
    held = hand_values(rest)
    count = 0
    for i in range(m):
        values = build_values(mv.item_low[i], mv.item_high[i], card, held)
        while values:
            mv.build_item[count], mv.build_value[count] = i, lowest(values)
            values &= values - np.uint64(1)
            count += 1
    return count


@flat_kernel
def lay(t, card):
    t.loose[0] |= bit(card)


@flat_kernel
def buy(t, taken):
    """Take the cards `taken` off the table: loose cards and whole piles (a legal buy)."""
    t.loose[0] &= ~taken
    k = 0
    while k < t.count[0]:
        if t.piles[k] & taken:
            _drop_pile(t, k)
        else:
            k += 1


@flat_kernel(inline="always")
def _drop_pile(t, k):
    last = t.count[0] - 1
    t.piles[k], t.value[k], t.builder[k] = t.piles[last], t.value[last], t.builder[last]
    t.count[0] = last


@flat_kernel
def build(t, card, target, value, seat):
    """Build `card` on the item whose cards are `target` (a loose card or a pile): the pile of
    both, worth `value`, built by `seat`, takes the last place among the piles."""
    cards = target | bit(card)
    if t.loose[0] & target:
        t.loose[0] &= ~target
    else:
        for k in range(t.count[0]):
            if t.piles[k] == target:
                _drop_pile(t, k)
                break
    k = t.count[0]
    if k >= MAX_PILES:
        raise ValueError("build: more piles than MAX_PILES")
    t.piles[k], t.value[k], t.builder[k] = cards, value, seat
    t.count[0] = k + 1


@flat_kernel
def score(n, won, t, points, parts, scores, side_cards, side_total):
    """Score a deal from the cards each seat won (won), the piles left on the table (t) and the
    Zwicks in parts[:, ZWICKS]: fills the other point parts and each seat's score (its side's:
    the card points, Zwick points and pile penalties of its seats, and the side's bonus for the
    most cards, which goes to nobody on a tie).  side_cards, side_total: scratch, MAX_PLAYERS."""
    sides = 2 if n == 4 else n
    for s in range(sides):
        side_cards[s] = 0
        side_total[s] = 0
    for s in range(n):
        parts[s, CARDS_WON] = popcount(won[s])
        parts[s, CARD_POINTS] = mask_sum(won[s], points)
        parts[s, ZWICK_POINTS] = parts[s, ZWICKS] * points[ZWICK]
        parts[s, PILE_PENALTY] = 0
        parts[s, PILES_LEFT] = 0
        side_cards[side(n, n == 4, s)] += parts[s, CARDS_WON]
    for k in range(t.count[0]):
        s = t.builder[k]
        parts[s, PILE_PENALTY] -= t.value[k] * points[PILE]
        parts[s, PILES_LEFT] += 1
    top, tied, best = -1, 0, -1
    for s in range(sides):
        if side_cards[s] > top:
            top, tied, best = side_cards[s], 1, s
        elif side_cards[s] == top:
            tied += 1
    for s in range(n):
        mine = side(n, n == 4, s)
        parts[s, MOST_CARDS] = points[MOST] if tied == 1 and mine == best else 0
        side_total[mine] += parts[s, CARD_POINTS] + parts[s, ZWICK_POINTS] + parts[s, PILE_PENALTY]
    for s in range(n):
        scores[s] = side_total[side(n, n == 4, s)] + parts[s, MOST_CARDS]
