"""The hidden-card sampler (musim/play/worlds.py) against a pure-Python enumeration of the deals.

Small random positions: every consistent deal is drawn, at frequencies a chi-square test finds
uniform, nothing else is drawn, and prepare() fails exactly when no deal exists; both the
counting path and the rejection fallback (forced by a one-state table).  Larger random
positions (hypothesis): cards conserved, sizes and bars respected, feasibility as Hall's
condition says, the same stream state gives the same deal.
"""

import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numba import njit

from musim.play import worlds as W


@njit
def draw_many(sp, state, outs):
    for k in range(outs.shape[0]):
        W.draw(sp, state, outs[k])


def arrays(cards, groups, capacity, allowed):
    pool = sum(1 << c for c in cards)
    group_of = np.full(64, -1, np.int64)  # prepare reads only the pool's entries
    for c, g in zip(cards, groups):
        group_of[c] = g
    cap = np.zeros(W.MAX_HOLDERS, np.int64)
    allow = np.zeros(W.MAX_HOLDERS, np.int64)
    cap[: len(capacity)] = capacity
    allow[: len(allowed)] = allowed
    return np.uint64(pool), group_of, cap, allow


def enumerate_deals(cards, groups, capacity, allowed):
    """Every deal (a tuple of holder masks) respecting sizes and bars, card by card."""
    deals, hands, room = [], [0] * len(capacity), list(capacity)

    def place(j):
        if j == len(cards):
            deals.append(tuple(hands))
            return
        for h in range(len(capacity)):
            if room[h] and allowed[h] >> groups[j] & 1:
                room[h] -= 1
                hands[h] |= 1 << cards[j]
                place(j + 1)
                hands[h] &= ~(1 << cards[j])
                room[h] += 1

    if sum(capacity) == len(cards):
        place(0)
    return deals


def chi2_p(stat, dof):
    """Upper tail of the chi-square distribution (Wilson-Hilferty: a few per cent accurate)."""
    if dof == 0:
        return 1.0
    z = ((stat / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    return 0.5 * math.erfc(z / math.sqrt(2))


def random_case(rng):
    n = rng.randint(6, 10)
    cards = sorted(rng.sample(range(64), n))
    n_groups = rng.randint(1, 6)
    groups = [rng.randrange(n_groups) for _ in cards]
    for j in rng.sample(range(n), rng.randint(0, 2)):  # singleton groups
        groups[j] = 7 - j % 2
    holders = rng.randint(2, 4)
    cuts = sorted(rng.choices(range(n + 1), k=holders - 1))
    capacity = [b - a for a, b in zip([0, *cuts], [*cuts, n])]
    if rng.random() < 0.1:  # sizes that do not add up
        capacity[0] += 1
    if rng.random() < 0.5:  # random bars
        allowed = [sum(1 << g for g in range(8) if rng.random() < 0.8) for _ in range(holders)]
    else:  # voids: most holders barred from a group or two of the pool's
        allowed = [255 & ~sum(1 << rng.choice(groups) for _ in range(rng.randint(0, 2))) for _ in range(holders)]
    return cards, groups, capacity, allowed


def draw_counts(sp, n_draws, holders, seed):
    outs = np.zeros((n_draws, W.MAX_HOLDERS), np.uint64)
    draw_many(sp, np.array([seed], np.uint64), outs)
    rows, counts = np.unique(outs[:, :holders], axis=0, return_counts=True)
    return {tuple(int(v) for v in row): int(k) for row, k in zip(rows, counts)}


@pytest.mark.parametrize("states", [W.MAX_STATES, 1], ids=["counting", "rejection"])
def test_uniform_over_enumerated_deals(states):
    rng = random.Random(50)
    sp = W.make_sampler(states)
    seen = {"feasible": 0, "infeasible": 0, "counting": 0}
    for case in range(120):
        cards, groups, capacity, allowed = random_case(rng)
        deals = enumerate_deals(cards, groups, capacity, allowed)
        if len(deals) > 3000:
            continue
        ok = W.prepare(sp, *arrays(cards, groups, capacity, allowed), len(capacity))
        assert ok == bool(deals), (case, cards, groups, capacity, allowed)
        seen["feasible" if deals else "infeasible"] += 1
        if not ok:
            continue
        seen["counting"] += int(sp.meta[W.COUNTING])
        n_draws = 60 * len(deals)
        counts = draw_counts(sp, n_draws, len(capacity), 1000 + case)
        assert set(counts) == set(deals), case
        expected = n_draws / len(deals)
        stat = sum((counts[d] - expected) ** 2 / expected for d in deals)
        assert chi2_p(stat, len(deals) - 1) > 1e-4, (case, stat, len(deals))
    assert seen["feasible"] >= 30 and seen["infeasible"] >= 10, seen
    if states == 1:  # the fallback really ran (a single class needs no table)
        assert seen["counting"] < seen["feasible"] / 2, seen
    else:
        assert seen["counting"] == seen["feasible"], seen


def test_hall_failure_beyond_single_groups():
    """Each group fits the holders allowed it, yet holder 0 (only group 0, two cards) cannot be
    filled: no deal.  (The first sampler's check looked at single groups and accepted this.)"""
    cards, groups, capacity, allowed = [0, 1, 2, 3], [0, 1, 1, 1], [2, 2], [0b01, 0b11]
    assert enumerate_deals(cards, groups, capacity, allowed) == []
    for states in (W.MAX_STATES, 1):
        assert not W.prepare(W.make_sampler(states), *arrays(cards, groups, capacity, allowed), 2)


def test_mid_deal_with_voids_counts():
    """A 6-player mid-deal (5 hands of 6 cards, 4 of them void in different classes, and a dead
    pile of 2 barred from trumps): the counting path, every draw consistent."""
    cards = list(range(32))
    groups = [c % 5 for c in cards]
    capacity = [6, 6, 6, 6, 6, 2]
    allowed = [0b11110, 0b11101, 0b11011, 0b10111, 0b11111, 0b11110]
    sp = W.make_sampler()
    assert W.prepare(sp, *arrays(cards, groups, capacity, allowed), len(capacity))
    assert sp.meta[W.COUNTING] == 1
    outs = np.zeros((2000, W.MAX_HOLDERS), np.uint64)
    draw_many(sp, np.array([7], np.uint64), outs)
    check_deals(outs, cards, groups, capacity, allowed)


def check_deals(outs, cards, groups, capacity, allowed):
    group = dict(zip(cards, groups))
    pool = sum(1 << c for c in cards)
    for row in outs:
        hands = [int(v) for v in row]
        assert sum(bin(m).count("1") for m in hands) == len(cards)  # disjoint ...
        union = 0
        for h, m in enumerate(hands):
            union |= m
            assert bin(m).count("1") == (capacity[h] if h < len(capacity) else 0)
            for c in range(64):
                if m >> c & 1:
                    assert allowed[h] >> group[c] & 1, (h, c)
        assert union == pool  # ... and covering the pool


def hall(cards, groups, capacity, allowed):
    """Some deal exists iff the sizes add up and every set of groups fits the holders allowed any."""
    if sum(capacity) != len(cards):
        return False
    for s in range(1, 256):
        need = sum(1 for g in groups if s >> g & 1)
        room = sum(k for k, a in zip(capacity, allowed) if a & s)
        if need > room:
            return False
    return True


@st.composite
def positions(draw):
    n = draw(st.integers(0, 64))
    cards = sorted(draw(st.permutations(range(64)))[:n])
    groups = [draw(st.integers(0, W.MAX_GROUPS - 1)) for _ in cards]
    holders = draw(st.integers(1, W.MAX_HOLDERS))
    owner = [draw(st.integers(0, holders - 1)) for _ in cards]  # a deal that exists ...
    capacity = [owner.count(h) for h in range(holders)]
    held = [sum(1 << g for g, o in zip(groups, owner) if o == h) for h in range(holders)]
    extra = draw(st.lists(st.integers(0, 255), min_size=holders, max_size=holders))
    if draw(st.booleans()):  # ... whose bars allow it, or random bars
        allowed = [a | e for a, e in zip(held, extra)]
    else:
        allowed = extra
    return cards, groups, capacity, allowed


SAMPLER = W.make_sampler()
SMALL = W.make_sampler(64)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 2**63))
def test_properties(position, seed):
    cards, groups, capacity, allowed = position
    args = (*arrays(cards, groups, capacity, allowed), len(capacity))
    feasible = hall(cards, groups, capacity, allowed)
    assert W.prepare(SMALL, *args) == feasible  # the small table may fall back to rejection
    assert W.prepare(SAMPLER, *args) == feasible
    if not feasible or not SAMPLER.meta[W.COUNTING]:  # rejection could take too long here
        return
    outs = np.zeros((20, W.MAX_HOLDERS), np.uint64)
    draw_many(SAMPLER, np.array([seed], np.uint64), outs)
    check_deals(outs, cards, groups, capacity, allowed)
    again = np.zeros((3, W.MAX_HOLDERS), np.uint64)  # the same state gives the same deal, whatever came before
    for k, s in enumerate((seed, seed ^ 1, seed)):
        draw_many(SAMPLER, np.array([s], np.uint64), again[k : k + 1])
    assert (again[0] == outs[0]).all() and (again[2] == outs[0]).all()
