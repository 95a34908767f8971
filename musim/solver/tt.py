"""Transposition table for the double-dummy search: exact relative keys, bounds, reused.

Entries are stored at trick boundaries, keyed by the position's *structure*
(see search.relative_key): the owner, points and equal-power links of every
remaining card in class and power order, class sizes and the leader.  Two
positions with the same structure play identically whichever low cards were
already played, so they share one entry; keys are compared in full, so a hit
is never a hash collision.  Each entry holds a lower and an upper bound on the
points the maximising team still takes, and the last best move (as a position
in that order).  A generation number per entry lets a new game start afresh
in O(1): entries of older generations count as empty.  When a bucket is full,
the entry whose search took the fewest nodes gives way: it is the cheapest to redo.
"""
from collections import namedtuple

import numpy as np

from musim.jit import flat_kernel

KEY_WORDS = 7
BUCKET = 4
DEFAULT_MB = 256

TransTable = namedtuple("TransTable", "words lb ub best work gen meta")
# meta[0] = current generation, meta[1] = number of buckets


def entry_bytes():
    return KEY_WORDS * 8 + 2 + 2 + 1 + 1 + 4


def make_table(megabytes=DEFAULT_MB):
    """A table of at most `megabytes` MB (whole buckets, at least 256 of them)."""
    if megabytes <= 0:
        raise ValueError("transposition table size must be positive")
    entries = max(256, int(megabytes * 2**20 / entry_bytes()) // BUCKET) * BUCKET
    return TransTable(
        words=np.zeros((entries, KEY_WORDS), np.uint64), lb=np.zeros(entries, np.int16),
        ub=np.zeros(entries, np.int16), best=np.zeros(entries, np.int8), work=np.zeros(entries, np.int8),
        gen=np.zeros(entries, np.uint32), meta=np.array([1, entries // BUCKET], np.int64),
    )


@flat_kernel
def new_generation(tt):
    """Invalidate every entry (a new game, contract or team) in O(1)."""
    tt.meta[0] += 1
    if tt.meta[0] >= 2**32 - 1:
        tt.gen[:] = 0
        tt.meta[0] = 1


@flat_kernel(inline="always")
def _matches(tt, i, words, gen):
    if tt.gen[i] != gen:
        return False
    for w in range(KEY_WORDS):
        if tt.words[i, w] != words[w]:
            return False
    return True


@flat_kernel(inline="always")
def _bucket(tt, words):
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(KEY_WORDS):
        h = (h ^ words[w]) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    # the high 32 bits scaled to [0, buckets): any table size, no modulo
    return np.int64(((h >> np.uint64(32)) * np.uint64(tt.meta[1])) >> np.uint64(32)) * BUCKET


@flat_kernel
def probe(tt, words):
    """Index of the entry for this key, or -1."""
    gen = tt.meta[0]
    base = _bucket(tt, words)
    for j in range(BUCKET):
        if _matches(tt, base + j, words, gen):
            return base + j
    return -1


@flat_kernel
def store(tt, words, lb, ub, best, work):
    """Record bounds for a key: merge into its entry, else replace the bucket's cheapest slot
    (an old generation first, then the least work: log2 of the nodes its search took)."""
    gen = tt.meta[0]
    base = _bucket(tt, words)
    victim, victim_score = base, 1 << 30
    for j in range(BUCKET):
        i = base + j
        if _matches(tt, i, words, gen):
            tt.lb[i] = max(tt.lb[i], lb)
            tt.ub[i] = min(tt.ub[i], ub)
            if best >= 0:
                tt.best[i] = best
            tt.work[i] = max(tt.work[i], work)
            return
        score = -1 if tt.gen[i] != gen else tt.work[i]
        if score < victim_score:
            victim, victim_score = i, score
    i = victim
    for w in range(KEY_WORDS):
        tt.words[i, w] = words[w]
    tt.lb[i] = lb
    tt.ub[i] = ub
    tt.best[i] = best
    tt.work[i] = work
    tt.gen[i] = gen
