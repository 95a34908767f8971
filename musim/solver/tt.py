"""Transposition table for the double-dummy search: exact keys, bounds, reused across solves.

Entries are stored at trick boundaries only, keyed by every seat's remaining
cards and the leader (compared in full, so a hit is never a hash collision).
Each holds a lower and an upper bound on the points the maximising team still
takes from that position, and the move that last proved a bound.  A generation
number per entry lets a new game (another contract, other teams) start afresh
without clearing memory: entries of older generations count as empty.
"""
from collections import namedtuple

import numpy as np
from numba import njit

from musim.solver.layout import MAX_SEATS

BUCKET = 4
DEFAULT_MB = 256

TransTable = namedtuple("TransTable", "hands leader lb ub best size gen meta")
# meta[0] = current generation, meta[1] = index mask


def entry_bytes():
    return MAX_SEATS * 8 + 1 + 2 + 2 + 1 + 1 + 4


def make_table(megabytes=DEFAULT_MB):
    """A table of about `megabytes` MB (a power of two number of entries, at least 1024)."""
    if megabytes <= 0:
        raise ValueError("transposition table size must be positive")
    entries = 1 << max(10, int(megabytes * 2**20 / entry_bytes()).bit_length() - 1)
    return TransTable(
        hands=np.zeros((entries, MAX_SEATS), np.uint64), leader=np.zeros(entries, np.int8),
        lb=np.zeros(entries, np.int16), ub=np.zeros(entries, np.int16), best=np.zeros(entries, np.int8),
        size=np.zeros(entries, np.int8), gen=np.zeros(entries, np.uint32),
        meta=np.array([1, entries - 1], np.int64),
    )


@njit(cache=True)
def new_generation(tt):
    """Invalidate every entry (a new game or contract) in O(1)."""
    tt.meta[0] += 1
    if tt.meta[0] >= 2**32 - 1:
        tt.gen[:] = 0
        tt.meta[0] = 1


@njit(cache=True, inline="always")
def _matches(tt, i, hands, n, leader, gen):
    if tt.gen[i] != gen or tt.leader[i] != leader:
        return False
    for s in range(n):
        if tt.hands[i, s] != hands[s]:
            return False
    return True


@njit(cache=True)
def probe(tt, key, hands, n, leader):
    """Index of the entry for this position, or -1."""
    gen = tt.meta[0]
    base = (key & tt.meta[1]) & ~(BUCKET - 1)
    for j in range(BUCKET):
        if _matches(tt, base + j, hands, n, leader, gen):
            return base + j
    return -1


@njit(cache=True)
def store(tt, key, hands, n, leader, lb, ub, best, size):
    """Record bounds for a position: merge into its entry, else replace the bucket's
    emptiest slot (an old generation first, then the fewest cards left: cheapest to redo)."""
    gen = tt.meta[0]
    base = (key & tt.meta[1]) & ~(BUCKET - 1)
    victim, victim_score = base, 1 << 30
    for j in range(BUCKET):
        i = base + j
        if _matches(tt, i, hands, n, leader, gen):
            tt.lb[i] = max(tt.lb[i], lb)
            tt.ub[i] = min(tt.ub[i], ub)
            if best >= 0:
                tt.best[i] = best
            return
        score = -1 if tt.gen[i] != gen else tt.size[i]
        if score < victim_score:
            victim, victim_score = i, score
    i = victim
    for s in range(n):
        tt.hands[i, s] = hands[s]
    tt.leader[i] = leader
    tt.lb[i] = lb
    tt.ub[i] = ub
    tt.best[i] = best
    tt.size[i] = size
    tt.gen[i] = gen
