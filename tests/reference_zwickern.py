"""A slow, plain-Python statement of Zwickern's buy and build rules (docs/rules.md §10), for testing.

Written from the rules text, independently of the kernels: an item is a loose card (its
values: A 1 or 11, J 2 or 12, Q 3 or 13, K 4 or 14, 2..10 face value, jokers 15 20 25) or a pile
(one value); a buy is found by trying every subset of the items and every way to split it.
"""

from functools import cache
from itertools import combinations, product

DUAL = {"A": 1, "J": 2, "Q": 3, "K": 4}
JOKERS = {"J1": 15, "J2": 20, "J3": 25}


def values(text):
    """The values a card may count at."""
    if text in JOKERS:
        return (JOKERS[text],)
    label = text[1:]
    if label in DUAL:
        return (DUAL[label], DUAL[label] + 10)
    return (int(label),)


def _sums(item_values):
    """Every sum the items may make, each at one of its values."""
    return {sum(choice) for choice in product(*item_values)}


def _splits(items, target):
    """Can the items (a tuple of value tuples) be split into groups each summing to target?"""

    @cache
    def can(rest):
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        for k in range(len(others) + 1):
            for mates in combinations(range(len(others)), k):
                group = (first, *(others[i] for i in mates))
                if target in _sums(group):
                    left = tuple(others[i] for i in range(len(others)) if i not in mates)
                    if can(left):
                        return True
        return False

    return can(tuple(items))


def buys(items, card):
    """Every buy of `card` (its text) on `items` (a list of value tuples), as frozensets of item
    positions: a non-empty set of items that splits into groups each summing to one value of
    the card, the same for all groups."""
    found = set()
    for k in range(1, len(items) + 1):
        for subset in combinations(range(len(items)), k):
            if is_buy([items[i] for i in subset], card):
                found.add(frozenset(subset))
    return found


def is_buy(items, card):
    """Whether `items` (a non-empty list of value tuples), all of them, are a buy of `card`."""
    return any(_splits(items, v) for v in values(card))


def builds(items, card, others):
    """Every build of `card` on `items`, as (item position, new value): the sum or the difference
    (at least 1) of a value of the card and a value of the item, which a value of one of the
    other cards of the hand (`others`, texts) equals."""
    held = {v for text in others for v in values(text)}
    found = set()
    for i, item in enumerate(items):
        for a in item:
            for b in values(card):
                for made in (a + b, a - b, b - a):
                    if made >= 1 and made in held:
                        found.add((i, made))
    return found
