"""The meld search, the cost centre of Rummü: the melds a hand can lay, written as card masks.

It does not try every subset of the hand.  Sets: for each number held in three or more colours,
the set of all of them, and with four or five the sets one card shorter.  One-colour runs: for
each colour and each interval of three or more numbers that the colour and the yellow jokers
cover, the run taking the colour's own card wherever it has one.  Mixed runs: for each interval
of three to five numbers, one assignment of different colours found by a bit-parallel search
over the 32 subsets of the five colours.  So the best meld of a hand (most points, then most
cards) is always among the candidates (tests/test_rummue.py checks this against the brute force
of tests/reference_rummue.py).
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, lowest, popcount
from musim.games.rummue.rules import COLOURS, NUMBERS, RUN_MIXED, RUN_ONE, SET, YELLOW, card_of, numbers, points

MAX_CANDIDATES = 256  # sets <= 10 * 6, one-colour runs <= 4 * 36, mixed runs <= 21
NON_YELLOW = (0, 2, 3, 4)
# LACKS[c]: the subsets (bits 0..31, a subset of the five colours each) that lack colour c
LACKS = tuple(sum(1 << s for s in range(32) if not s >> c & 1) for c in range(COLOURS))


@flat_kernel(inline="always")
def _add(hand, mask, meld_kind, least, masks, values, count):
    """Append a candidate of at least `least` cards that leaves a card in hand to discard."""
    k = popcount(mask)
    if k >= least and popcount(hand) > k and count < MAX_CANDIDATES:
        masks[count] = mask
        values[count] = points(mask, meld_kind)
        return count + 1
    return count


@flat_kernel
def candidates(hand, least, number, scratch, masks, values):
    """The candidate melds of `hand` (module docstring) of at least `least` cards that leave a card
    to discard, into masks/values (their points); with number >= 0 only those holding a card of
    that number.  scratch: 10 int64s.  Returns the count."""
    for c in range(COLOURS):
        scratch[c] = numbers(hand, c)
    count = _sets(hand, least, number, scratch, masks, values, 0)
    count = _one_colour_runs(hand, least, number, scratch, masks, values, count)
    return _mixed_runs(hand, least, number, scratch, masks, values, count)


@flat_kernel(inline="always")
def _sets(hand, least, number, nums, masks, values, count):
    for v in range(NUMBERS):
        if number >= 0 and v != number:
            continue
        full, k = np.uint64(0), 0
        for c in range(COLOURS):
            if nums[c] >> v & 1:
                full |= bit(card_of(hand, c, v))
                k += 1
        if k >= 3:
            count = _add(hand, full, SET, least, masks, values, count)
            rest = full if k >= 4 else np.uint64(0)
            while rest:
                one = bit(lowest(rest))
                rest ^= one
                count = _add(hand, full ^ one, SET, least, masks, values, count)
    return count


@flat_kernel(inline="always")
def _one_colour_runs(hand, least, number, nums, masks, values, count):
    jokers = nums[YELLOW]
    for c in NON_YELLOW:
        own = nums[c]
        cover = own | jokers
        if own == 0:
            continue
        for lo in range(NUMBERS - 2):
            mask, interval = np.uint64(0), 0
            for hi in range(lo, NUMBERS):
                if not cover >> hi & 1:
                    break
                interval |= 1 << hi
                mask |= bit(card_of(hand, c if own >> hi & 1 else YELLOW, hi))
                if hi - lo < 2 or (number >= 0 and not interval >> number & 1):
                    continue
                if 2 * popcount(np.uint64(own & interval)) > hi - lo + 1:
                    count = _add(hand, mask, RUN_ONE, least, masks, values, count)
    return count


@flat_kernel(inline="always")
def _mixed_runs(hand, least, number, nums, masks, values, count):
    """trail (nums[5..9]): after numbers lo..lo+j, the subsets of colours that can have taken them
    one colour each (bit s: subset s), as a bitset, so one step is five shifts."""
    for lo in range(NUMBERS - 2):
        reach = 1
        for hi in range(lo, min(lo + 5, NUMBERS)):
            step = 0
            for c in range(COLOURS):
                if nums[c] >> hi & 1:
                    step |= (reach & LACKS[c]) << (1 << c)
            if step == 0:
                break
            nums[5 + hi - lo] = reach = step
            if hi - lo >= 2 and (number < 0 or lo <= number <= hi):
                mask = _assign(hand, lo, hi, nums)
                count = _add(hand, mask, RUN_MIXED, least, masks, values, count)
    return count


@flat_kernel(inline="always")
def _assign(hand, lo, hi, nums):
    """Walk the trail back from a reachable subset (one without yellow if any) to the cards."""
    last = nums[5 + hi - lo]
    f = np.int64(lowest(np.uint64(last & LACKS[YELLOW] if last & LACKS[YELLOW] else last)))
    mask = np.uint64(0)
    for v in range(hi, lo - 1, -1):
        before = nums[5 + v - lo - 1] if v > lo else 1
        for c in (0, 2, 3, 4, 1):
            if f >> c & 1 and nums[c] >> v & 1 and before >> (f ^ (1 << c)) & 1:
                mask |= bit(card_of(hand, c, v))
                f ^= 1 << c
                break
    return mask
