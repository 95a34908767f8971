"""Whether one named buy of Zwickern is legal (docs/rules.md §10), for the replay of records.

`rules.buys` lists every buy of a card, which the policies need and which is exponential in the
table (docs/rules.md §12).  A record names its buy: the replay only has to split the named items
into groups each worth one value of the played card, a search over those items alone.

The search (`_splits`) starts each group from the largest item left and adds later ones; equal
items (the same low and high value) are taken first ones first, those at the high value before
those at the low one, so each multiset of values is tried once and the items left after a group
are one mask per multiset left.  A mask left that does not split is remembered (`Check.memo_*`, a
cache that forgets on collision) and not searched again.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest
from musim.games.zwickern.rules import HIGH, LOW, MAX_ITEMS

MEMO_BITS = 15  # the remembered masks that do not split: 32,768 slots
# Scratch of the check: the named items (their positions among the loaded items, in search
# order), the search's levels (items left, path depth at the group's start), its path, the memo
Check = namedtuple("Check", "named level_rest level_depth path memo_keys memo_stamps gen")


def new_check():
    """Scratch room for `is_buy`."""
    z = np.zeros
    return Check(
        named=z(MAX_ITEMS, np.int64),
        level_rest=z(MAX_ITEMS + 1, np.uint64),
        level_depth=z(MAX_ITEMS + 1, np.int64),
        path=z(MAX_ITEMS + 1, np.int64),
        memo_keys=z(1 << MEMO_BITS, np.uint64),
        memo_stamps=z(1 << MEMO_BITS, np.int64),
        gen=z(1, np.int64),
    )


@flat_kernel
def is_buy(mv, ck, m, card, taken):
    """Whether `taken` (a card mask) is a buy of `card` on the m items loaded in mv (rules.load_items):
    whole items that split into groups each worth one value of the card, the same for every group."""
    r = _name_items(mv, ck, m, taken)
    if r <= 0:
        return False
    if _splits(mv, ck, r, LOW[card]):
        return True
    return HIGH[card] != LOW[card] and _splits(mv, ck, r, HIGH[card])


@flat_kernel
def _name_items(mv, ck, m, taken):
    """Write to ck.named the items `taken` holds, largest (low, then high value) first; how many,
    or -1 if `taken` is not a set of whole items."""
    r, covered = 0, np.uint64(0)
    for i in range(m):
        part = mv.item_cards[i] & taken
        if not part:
            continue
        if part != mv.item_cards[i]:
            return -1
        covered |= part
        j = r
        while j > 0 and _larger(mv, i, ck.named[j - 1]):
            ck.named[j] = ck.named[j - 1]
            j -= 1
        ck.named[j] = i
        r += 1
    return r if covered == taken else -1


@flat_kernel(inline="always")
def _larger(mv, a, b):
    return mv.item_low[a] > mv.item_low[b] or (mv.item_low[a] == mv.item_low[b] and mv.item_high[a] > mv.item_high[b])


@flat_kernel(inline="always")
def _value(mv, ck, j, high):
    """Named item j's low or high value."""
    i = ck.named[j]
    return mv.item_high[i] if high else mv.item_low[i]


@flat_kernel
def _totals_fit(mv, ck, rest, target):
    """Whether some choice of values of the named items in `rest` sums to a multiple of target: the
    residues they reach, each at its low value or its high one (a quick refusal of most illegal
    buys, and of the searches for groups whose other items cannot split)."""
    full = bit(target) - np.uint64(1)
    low, reach = 0, np.uint64(1)
    while rest:
        j = lowest(rest)
        rest &= rest - np.uint64(1)
        low += _value(mv, ck, j, 0)
        d = (_value(mv, ck, j, 1) - _value(mv, ck, j, 0)) % target
        if d:
            reach |= ((reach << np.uint64(d)) | (reach >> np.uint64(target - d))) & full
    return bool(reach & bit((target - low % target) % target))


@flat_kernel(inline="always")
def _equal(mv, ck, a, b):
    i, k = ck.named[a], ck.named[b]
    return mv.item_low[i] == mv.item_low[k] and mv.item_high[i] == mv.item_high[k]


@flat_kernel(inline="always")
def _may_take(mv, ck, path, depth, rest, chosen, j, high):
    """Whether the group may take named item j at its high (or low) value next: it is left, has
    that value, and its equal neighbour before it, if left, is in the group too (at the high value
    if j takes it)."""
    if not rest & bit(j) or (high and _value(mv, ck, j, 1) == _value(mv, ck, j, 0)):
        return False
    if j == 0 or not rest & bit(j - 1) or not _equal(mv, ck, j - 1, j):
        return True
    return bool(chosen & bit(j - 1)) and (path[depth - 1] & 1 or not high)


@flat_kernel
def _splits(mv, ck, r, target):
    """Whether the r named items split into groups each summing to target (module docstring)."""
    rest = bit(r) - np.uint64(1)
    if not _totals_fit(mv, ck, rest, target):
        return False
    ck.gen[0] += 1
    gen, path = ck.gen[0], ck.path
    level, depth, total, chosen, first = 0, 0, 0, np.uint64(0), 0
    ck.level_rest[0], ck.level_depth[0] = rest, 0
    k = 0  # position 2*j is named item j at its low value, 2*j+1 at its high value
    while True:
        if k < 2 * r and (depth > ck.level_depth[level] or k <= 2 * first + 1):
            j, high = k >> 1, k & 1
            v = _value(mv, ck, j, high)
            if not _may_take(mv, ck, path, depth, rest, chosen, j, high) or total + v > target:
                k += 1
                continue
            path[depth] = k
            depth += 1
            total += v
            chosen |= bit(j)
            if total < target:
                k = 2 * (j + 1)
                continue
            left = rest & ~chosen
            if not left:
                return True
            if _totals_fit(mv, ck, left, target) and not _remembered(ck, gen, left):
                level += 1
                ck.level_rest[level], ck.level_depth[level] = left, depth
                rest, total, chosen, first = left, 0, np.uint64(0), lowest(left)
                k = 2 * first
                continue
            k = 2 * r  # the items this group leaves do not split: take its last item back
            continue
        if depth == ck.level_depth[level]:  # no group of the first item left splits the rest
            _remember(ck, gen, rest)
            if level == 0:
                return False
            level -= 1
            chosen = ck.level_rest[level] & ~rest
            rest, total, first = ck.level_rest[level], target, lowest(ck.level_rest[level])
        depth -= 1
        k = path[depth]
        j = k >> 1
        total -= _value(mv, ck, j, k & 1)
        chosen ^= bit(j)
        k += 1


@flat_kernel(inline="always")
def _slot(key):
    return np.int64((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - MEMO_BITS))


@flat_kernel(inline="always")
def _remembered(ck, gen, key):
    s = _slot(key)
    return ck.memo_stamps[s] == gen and ck.memo_keys[s] == key


@flat_kernel(inline="always")
def _remember(ck, gen, key):
    s = _slot(key)
    ck.memo_keys[s], ck.memo_stamps[s] = key, gen
