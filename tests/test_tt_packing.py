"""The transposition table's packed entries (tt.py): what a probe reads back from an entry's cache
line (and spill line) is what was stored, and the points profile alone tells two positions'
primary keys apart."""

import random

import numpy as np
import pytest

from musim.core.cards import N_CARDS
from musim.games.mu.solver_layout import MuSolverSetup
from musim.solver.keys import position_keys
from musim.solver.search import make_state
from musim.solver.tt import (
    NARROW,
    PLANES,
    SEG_LEN,
    SPILL,
    SPILLED,
    TOP_POINTS,
    WIDE,
    _covers,
    _ends,
    _move,
    _same_key,
    _top_points,
    best_move,
    form_of,
    lower,
    make_table,
    new_generation,
    store,
    top_mask_of,
    upper,
)


def _deal(rng, n, tricks, setup):
    """Hands (canonical masks) of a random Mü position of n seats and `tricks` cards each."""
    cards = [setup.canon_of[c] for c in rng.sample(range(N_CARDS), n * tricks)]
    hands = [0] * n
    for i, c in enumerate(cards):
        hands[i // tricks] |= 1 << int(c)
    return hands


def _keys(g, st, hands, leader):
    st.hands[:] = 0
    for s, h in enumerate(hands):
        st.hands[s] = np.uint64(h)
    for s, h in enumerate(hands):  # the owners of the cards (search.set_owners)
        for c in range(64):
            if h >> c & 1:
                st.owner[c] = s
    _, tops = position_keys(g, st, leader, 0, g.trump_class, st.words[0], st.key[0], st.points[0])
    return tops


def _probe_args(st):
    length = int(st.segs[SEG_LEN])
    return st.points[0], st.words[0].copy(), tuple(map(np.uint64, _ends(st.points[0], length))), length


def _random_mask(rng, count):
    """A random set of top-card positions among `count` remaining cards, of any size."""
    t = rng.choice([rng.randrange(1, min(count, 32) + 1), rng.randrange(1, count + 1)])
    return sum(1 << p for p in rng.sample(range(count), t))


@pytest.mark.parametrize("seed", range(3))
def test_packed_entry_reads_back_what_was_stored(seed):
    """Store random entries (any mask, bounds and best move) and read them back: the bounds, the
    best move, the top mask, the top cards' points, and which positions the entry holds: the
    same top planes under the mask (the point planes only when asked for exactly), nothing
    beyond it; a SPILL entry's planes hold until a later one takes its spill line."""
    rng = random.Random(seed)
    tt, st = make_table(1), make_state()
    forms, spills = set(), 0
    for _ in range(300):
        n = rng.randrange(3, 7)
        tricks = rng.randrange(1, 60 // n + 1)
        setup = MuSolverSetup(n, rng.randrange(-1, 15), -1, {0})
        g = setup.game
        tops = _keys(g, st, _deal(rng, n, tricks, setup), rng.randrange(n))
        points, full, ends, length = _probe_args(st)
        count = n * tricks
        if rng.random() < 0.2:  # no points nor ties on top, as in bridge
            full[TOP_POINTS : TOP_POINTS + 2] = 0
            full[5] = 0
        mask = np.uint64(_random_mask(rng, count))
        lb, ub = sorted(rng.randrange(-32000, 32001) for _ in range(2))
        best = rng.randrange(-1, count)
        new_generation(tt, 16)
        tt.stamp[:] = 0
        store(tt, st.key[0], tops, 0, 0, points, full, mask, lb, ub, best, 0)
        i = int(np.flatnonzero(tt.stamp)[0])
        form = form_of(tt, i)
        forms.add(form)
        assert (lower(tt, i), upper(tt, i), best_move(tt, i)) == (lb, ub, best)
        t = bin(int(mask)).count("1")
        assert form == (NARROW if t <= 32 else WIDE if not (full[3] | full[4] | full[5]) & mask else SPILL)
        assert top_mask_of(tt, i) == mask
        assert _top_points(tt, i) == (full[TOP_POINTS] & mask, full[TOP_POINTS + 1] & mask)
        assert _covers(tt, i, points, full, ends, length, True)
        for _ in range(12):
            w = rng.randrange(6)
            pos = rng.randrange(count)
            other = full.copy()
            other[w] ^= np.uint64(1 << pos)
            on_top = bool(mask >> np.uint64(pos) & np.uint64(1))
            point_plane = TOP_POINTS <= w < TOP_POINTS + 2
            assert _covers(tt, i, points, other, ends, length, False) == (not on_top or point_plane)
            assert _covers(tt, i, points, other, ends, length, True) == (not on_top)
        if form == SPILL:  # a later SPILL entry (another stamp) takes its spill line over
            spills += 1
            tt.meta[SPILLED] = tt.line[i, PLANES]
            store(tt, st.key[0], tops, 1, 0, points, full, mask, lb, ub, best, 0)
            later = [int(j) for j in np.flatnonzero(tt.stamp) if j != i]
            assert len(later) == 1 and tt.line[later[0], PLANES] == tt.line[i, PLANES]
            assert _covers(tt, later[0], points, full, ends, length, True)
            assert not _covers(tt, i, points, full, ends, length, False)
    assert forms == {NARROW, WIDE, SPILL} and spills > 10


def test_an_entry_moved_after_losing_its_spill_line_holds_nothing():
    """A SPILL entry whose spill line a later entry took, moved into that later entry's slot (as
    store moves an entry to its second bucket), must not take the later entry's planes for its
    own: it holds no position afterwards, while an owner moved elsewhere keeps its positions."""
    rng = random.Random(7)
    tt, st = make_table(1), make_state()
    tried = 0
    while tried < 20:
        n = rng.randrange(3, 7)
        setup = MuSolverSetup(n, rng.randrange(-1, 15), -1, {0})
        tops = _keys(setup.game, st, _deal(rng, n, 60 // n, setup), rng.randrange(n))
        points, full, ends, length = _probe_args(st)
        mask = np.uint64(_random_mask(rng, 60))
        new_generation(tt, 16)
        tt.stamp[:] = 0
        store(tt, st.key[0], tops, 0, 0, points, full, mask, 0, 5, -1, 0)
        first = int(np.flatnonzero(tt.stamp)[0])
        if form_of(tt, first) != SPILL:
            continue
        tried += 1
        other = full.copy()  # the later entry's planes: another owner of one top card
        pos = rng.choice([p for p in range(60) if mask >> np.uint64(p) & np.uint64(1)])
        other[rng.randrange(3)] ^= np.uint64(1 << pos)
        tt.meta[SPILLED] = tt.line[first, PLANES]
        store(tt, st.key[0], tops, 1, 0, points, other, mask, 0, 5, -1, 0)
        later = next(int(j) for j in np.flatnonzero(tt.stamp) if j != first)
        assert _covers(tt, later, points, other, ends, length, True)
        _move(tt, first, later)
        assert not _covers(tt, later, points, other, ends, length, False)
        assert not _covers(tt, later, points, full, ends, length, False)
        spare = int(np.flatnonzero(tt.stamp == 0)[0])
        store(tt, st.key[0], tops, 2, 0, points, full, mask, 0, 5, -1, 0)  # an owner, moved away
        owner = next(int(j) for j in np.flatnonzero(tt.stamp) if j not in (first, later))
        _move(tt, owner, spare)
        assert _covers(tt, spare, points, full, ends, length, True)


@pytest.mark.parametrize("seed", range(3))
def test_points_profile_tells_the_primary_key(seed):
    """A table entry keeps the points profile only (the key's counts are its runs' lengths):
    `_same_key` says an entry has a position's primary key exactly when the full keys are equal,
    over positions of the same cards dealt again within each class (the same key, or one card
    fewer or more for two seats) and with another leader."""
    rng = random.Random(seed)
    tt, st, st2 = make_table(1), make_state(), make_state()
    same = differ = 0
    for _ in range(300):
        n = rng.randrange(3, 7)
        tricks = rng.randrange(1, 60 // n + 1)
        setup = MuSolverSetup(n, rng.randrange(-1, 15), -1, {0})
        g = setup.game
        hands = _deal(rng, n, tricks, setup)
        leader = rng.randrange(n)
        tops = _keys(g, st, hands, leader)
        new_generation(tt, 16)
        tt.stamp[:] = 0
        store(tt, st.key[0], tops, 0, 0, st.points[0], st.words[0], np.uint64(0), 0, 0, -1, 0)
        i = int(np.flatnonzero(tt.stamp)[0])
        # swap cards between two seats: of one class (the same key) or of two classes
        moved = list(hands)
        a, b = rng.sample(range(n), 2)
        for _ in range(rng.randrange(1, 4)):
            ca = [c for c in range(64) if moved[a] >> c & 1]
            cb = [c for c in range(64) if moved[b] >> c & 1]
            x, y = rng.choice(ca), rng.choice(cb)
            if rng.random() < 0.5:
                same_class = [c for c in cb if g.klass[c] == g.klass[x]]
                y = rng.choice(same_class) if same_class else y
            moved[a] ^= (1 << x) | (1 << y)
            moved[b] ^= (1 << x) | (1 << y)
        _keys(g, st2, moved, leader if rng.random() < 0.8 else rng.randrange(n))
        points, _, ends, length = _probe_args(st2)
        equal = list(st.key[0]) == list(st2.key[0])
        assert _same_key(tt, i, points, ends, length) == equal
        same += equal
        differ += not equal
    assert same > 50 and differ > 50
