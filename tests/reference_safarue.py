"""A slow, plain-Python statement of Safarü's catch rule (docs/rules.md §6), for testing.

Written from the rules text, independently of the kernels: a card is an index whose number
is read from the deck's list of numbers, a table is a list of indices, and the sets one
method may take are found by trying every subset.
"""

from itertools import combinations

from musim.core.deck import MU_NUMBERS


def number(card):
    return MU_NUMBERS[card % 12]


def catch_sets(table, target):
    """Every set (as a frozenset of indices) of table cards summing to `target`: at least one
    card, and at least one 0 when the table holds a 0."""
    zero_on_table = any(number(c) == 0 for c in table)
    found = set()
    for k in range(1, len(table) + 1):
        for subset in combinations(table, k):
            if sum(number(c) for c in subset) != target:
                continue
            if zero_on_table and not any(number(c) == 0 for c in subset):
                continue
            found.add(frozenset(subset))
    return found
