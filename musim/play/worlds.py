"""Exactly uniform deals of hidden cards: the worlds a search seat imagines (musim/play/search.py).

The hidden cards (`pool`) go to holders (the other seats' hands, and dead piles such as
face-down cards) of known sizes; a holder may be barred from whole groups of cards (a seat
that showed a void in a class holds none of it).  Every deal of the pool that respects sizes
and bars is equally likely.

Counting, not rejection (redrawing a free deal until it respects the bars can take very many
draws once several holders have shown voids).  Cards of one group are exchangeable, and so are
holders allowed the same groups: merge those into one *class* of their summed size.  A deal is
then (a) a matrix x[g, k] of how many cards of group g class k takes, (b) which cards of each
group go to which class, (c) how each class's cards split among its holders.  The deals with a
given x number prod_g u_g! / prod_k x[g,k]! (u_g: the group's cards) times a constant (c's
multinomials), so (a) is drawn with probability proportional to prod_g 1 / prod_k x[g,k]!,
then (b) and (c) by shuffles.  (a) is a dynamic programme over the groups whose state is the
classes' remaining room; the largest class is left out of the state (its room is what the
others leave), the others are numbered in mixed radix.  prepare() fills the table of each
state's weighted completions once per decision, draw() walks it forward.

Precision: the table holds counts divided by prod_g u_g! (counts can pass 2**63; these stay
between 1/64! ~ 1e-89 and 12**64 ~ 1e69) as float64 sums of positive terms: no cancellation,
each within a relative 1e-12 of the exact value (well under randint's own bias, 2**-32), never
rounded to zero, so a zero total means exactly no deal.  A draw compares a 53-bit uniform times
a state's total with the same running sum prepare() computed, so the last positive term always
closes the sum.

A position whose state space exceeds the table (make_sampler's `states`, MAX_STATES: e.g. five
classes of 9 cards besides the largest) falls back to rejection, still exact, only slower.
Both paths check feasibility exactly: the counting one by its total, rejection by Hall's
condition over the sets of groups.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, drop_lowest, lowest
from musim.core.rng import next_u64, randint

MAX_HOLDERS = 12  # the other seats' hands and dead piles
MAX_GROUPS = 8  # groups a holder may be barred from (a class, or a card of its own)
MAX_STATES = 1 << 15  # states of the counting table per group (float64: 7 x 256 kB)

Sampler = namedtuple(
    "Sampler",
    "cards gstart gid group capacity allowed hclass kcap kallow kfirst kholder before dims stride table total inv_fact "
    "digits svec x active xs buf kbuf kfill meta",
)
# cards: the pool sorted by group (present groups renumbered 0..), group i's from gstart[i], gid[i] the
# caller's number of it; group[card]: the caller's group.  capacity, allowed, hclass (its class): per
# holder.  Classes k: kcap, kallow (bits of renumbered groups), their holders kholder[kfirst[k]:kfirst[k + 1]];
# before[i, k]: cards of groups < i class k may take.  dims[d]: the class of state digit d, stride[d] its
# radix weight; table[i - 1, state]: weighted completions from group i, total[0] the first state's.
# The rest is scratch; meta below.
HOLDERS, POOL, GROUPS, CLASSES, DIMS, BIG, START, COUNTING = range(8)
# BIG: the class outside the state; START: the first state's index; COUNTING: 1 if the table is used


def make_sampler(states=MAX_STATES):
    """The scratch of prepare and draw; `states` bounds the counting table (tests shrink it)."""
    z, i64 = np.zeros, np.int64
    fact = np.cumprod(np.concatenate([[1.0], np.arange(1, 65, dtype=np.float64)]))
    return Sampler(
        z(64, i64),
        z(MAX_GROUPS + 1, i64),
        z(MAX_GROUPS, i64),
        z(64, i64),
        z(MAX_HOLDERS, i64),
        z(MAX_HOLDERS, i64),
        z(MAX_HOLDERS, i64),
        z(MAX_HOLDERS, i64),
        z(MAX_HOLDERS, i64),
        z(MAX_HOLDERS + 1, i64),
        z(MAX_HOLDERS, i64),
        z((MAX_GROUPS + 1, MAX_HOLDERS), i64),
        z(MAX_HOLDERS, i64),
        z(MAX_HOLDERS, i64),
        z((MAX_GROUPS - 1, states), np.float64),
        z(1, np.float64),
        1.0 / fact,
        z(MAX_HOLDERS, i64),
        z(MAX_HOLDERS, i64),
        z(MAX_HOLDERS, i64),
        z(MAX_HOLDERS, i64),
        z((MAX_GROUPS, MAX_HOLDERS), i64),
        z(64, i64),
        z(64, i64),
        z(MAX_HOLDERS, i64),
        z(8, i64),
    )


@flat_kernel
def prepare(sp, pool, group_of, capacity, allowed, holders):
    """Set up draws of `pool` (a card mask) to `holders` holders: holder h takes capacity[h] cards
    (their sum the pool's size), only of the groups set in allowed[h] (group_of[card]).  False
    if no deal of the pool is consistent."""
    meta = sp.meta
    meta[HOLDERS], meta[COUNTING] = holders, 0
    # the pool sorted by group, present groups renumbered in order
    k, present = 0, 0
    for g in range(MAX_GROUPS):
        m = pool
        start = k
        while m:
            c = lowest(m)
            if group_of[c] == g:
                sp.cards[k] = c
                sp.group[c] = g
                k += 1
            m = drop_lowest(m)
        if k > start:
            sp.gstart[present] = start
            sp.gid[present] = g
            present += 1
    sp.gstart[present] = k
    meta[POOL], meta[GROUPS] = k, present
    # holders allowed the same present groups form a class
    n = 0
    total = 0
    for h in range(holders):
        sp.capacity[h], sp.allowed[h] = capacity[h], allowed[h]
        total += capacity[h]
        if capacity[h] < 0:
            return False
        if capacity[h] == 0:
            continue
        mask = 0
        for i in range(present):
            mask |= (allowed[h] >> sp.gid[i] & 1) << i
        j = 0
        while j < n and sp.kallow[j] != mask:
            j += 1
        if j == n:
            sp.kallow[j], sp.kcap[j] = mask, 0
            n += 1
        sp.kcap[j] += capacity[h]
        sp.hclass[h] = j
    meta[CLASSES] = n
    if total != k or not _hall(sp, present, n):
        return False
    # each class's holders, in holder order
    f = 0
    for j in range(n):
        sp.kfirst[j] = f
        for h in range(holders):
            if capacity[h] > 0 and sp.hclass[h] == j:
                sp.kholder[f] = h
                f += 1
    sp.kfirst[n] = f
    return _count(sp, present, n)


@flat_kernel
def _hall(sp, present, n):
    """Whether some deal respects sizes and bars (a flow of the groups' cards into the classes'
    room): every set S of groups must fit in the room of the classes allowed some group of S."""
    for s in range(1, 1 << present):
        need, room = 0, 0
        for i in range(present):
            if s >> i & 1:
                need += sp.gstart[i + 1] - sp.gstart[i]
        for j in range(n):
            if sp.kallow[j] & s:
                room += sp.kcap[j]
        if need > room:
            return False
    return True


@flat_kernel
def _count(sp, present, n):
    """Fill the counting table, or choose rejection if its states exceed the table."""
    meta = sp.meta
    big = 0
    for j in range(n):
        if sp.kcap[j] > sp.kcap[big]:
            big = j
    meta[BIG] = big
    for j in range(n):  # before[i, k]: cards of groups < i class k may take
        sp.before[0, j] = 0
        for i in range(present):
            sp.before[i + 1, j] = sp.before[i, j] + (sp.kallow[j] >> i & 1) * (sp.gstart[i + 1] - sp.gstart[i])
    dims, states, start = 0, 1, 0
    width = sp.table.shape[1]
    for j in range(n):
        if j != big:
            sp.dims[dims], sp.stride[dims] = j, states
            sp.svec[dims] = sp.kcap[j]
            start += sp.kcap[j] * states
            states *= sp.kcap[j] + 1
            dims += 1
            if states > width:
                return True  # rejection
    meta[DIMS], meta[START], meta[COUNTING] = dims, start, 1
    for i in range(present - 1, 0, -1):
        s = sp.digits
        for d in range(dims):
            s[d] = 0
        for idx in range(states):
            sp.table[i - 1, idx] = _step(sp, i, s, idx, np.inf) if _reachable(sp, i, s) else 0.0
            d = 0
            while d < dims and s[d] == sp.kcap[sp.dims[d]]:
                s[d] = 0
                d += 1
            if d < dims:
                s[d] += 1
    sp.total[0] = _step(sp, 0, sp.svec, start, np.inf) if present else 1.0
    return sp.total[0] > 0.0


@flat_kernel
def _reachable(sp, i, s):
    """Whether the rooms s (and the big class's) can be left after the groups < i and filled by the rest."""
    left = sp.gstart[sp.meta[GROUPS]] - sp.gstart[i]
    for d in range(sp.meta[DIMS]):
        j = sp.dims[d]
        left -= s[d]
        if s[d] + sp.before[i, j] < sp.kcap[j] or s[d] > sp.before[sp.meta[GROUPS], j] - sp.before[i, j]:
            return False
    j = sp.meta[BIG]
    return left >= 0 and sp.kcap[j] - sp.before[i, j] <= left <= sp.before[sp.meta[GROUPS], j] - sp.before[i, j]


@flat_kernel(inline="always")
def _following(sp, i, idx):
    """The table's total from state idx before group i (after the last group: 1 for the empty state)."""
    if i == sp.meta[GROUPS]:
        return 1.0 if idx == 0 else 0.0
    return sp.table[i - 1, idx]


@flat_kernel(inline="always")
def _step(sp, i, s, idx, target):
    """Group i's split from rooms s (state idx): the running sum, over the splits x (sp.x, one
    count per digit; the big class takes the rest), of prod 1/x! times the table's total after
    them.  Stops at the first split whose running sum reaches `target`, leaving it in sp.x."""
    u = sp.gstart[i + 1] - sp.gstart[i]
    dims, x, inv = sp.meta[DIMS], sp.x, sp.inv_fact
    room = sp.gstart[sp.meta[GROUPS]] - sp.gstart[i]  # the big class's room: what the digits leave
    for d in range(dims):
        room -= s[d]
    if not sp.kallow[sp.meta[BIG]] >> i & 1:
        room = 0
    active, digits = sp.active, 0  # the digits that may take cards of group i
    for d in range(dims):
        x[d] = 0
        if s[d] > 0 and sp.kallow[sp.dims[d]] >> i & 1:
            active[digits] = d
            digits += 1
    acc, taken, after = 0.0, 0, idx
    while True:
        if u - taken <= room:
            w = _following(sp, i + 1, after)
            if w > 0.0:
                w *= inv[u - taken]
                for e in range(digits):
                    w *= inv[x[active[e]]]
                acc += w
                if acc >= target:
                    return acc
        e = 0  # next split: an odometer over the digits
        while e < digits:
            d = active[e]
            if x[d] < s[d] and taken < u:
                x[d] += 1
                taken += 1
                after -= sp.stride[d]
                break
            taken -= x[d]
            after += x[d] * sp.stride[d]
            x[d] = 0
            e += 1
        if e == digits:
            return acc


@flat_kernel(inline="always")
def _pick(a, start, end, k, state):
    """Move k elements of a[start:end] chosen uniformly, in uniform order, to its front (the first
    k steps of Fisher-Yates): the rest is a uniform subset too, with no draws spent on its order."""
    for t in range(start, start + k):
        i = t + randint(state, end - t)
        a[i], a[t] = a[t], a[i]


@flat_kernel
def draw(sp, state, out):
    """out[h] = holder h's cards of a deal drawn uniformly among the consistent ones (a function
    of the prepared position and `state` only)."""
    if sp.meta[COUNTING]:
        _draw_counting(sp, state, out)
    else:
        _draw_rejection(sp, state, out)


@flat_kernel
def _draw_counting(sp, state, out):
    meta = sp.meta
    present, n, dims, big = meta[GROUPS], meta[CLASSES], meta[DIMS], meta[BIG]
    s, x, kbuf, kfill, buf = sp.svec, sp.x, sp.kbuf, sp.kfill, sp.buf
    for d in range(dims):
        s[d] = sp.kcap[sp.dims[d]]
    # (a) the classes' counts of each group, walking the table
    idx = meta[START]
    for i in range(present):
        total = sp.total[0] if i == 0 else sp.table[i - 1, idx]
        target = np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0) * total
        if _step(sp, i, s, idx, target) < target:  # never (the last positive split closes the sum): stay valid
            _step(sp, i, s, idx, 0.0)
        u = sp.gstart[i + 1] - sp.gstart[i]
        for j in range(n):
            sp.xs[i, j] = 0
        for d in range(dims):
            sp.xs[i, sp.dims[d]] = x[d]
            s[d] -= x[d]
            idx -= x[d] * sp.stride[d]
            u -= x[d]
        sp.xs[i, big] = u
    # (b) which cards of each group go to each class
    f = 0
    for j in range(n):
        kfill[j] = f
        f += sp.kcap[j]
    for i in range(present):
        a, b = sp.gstart[i], sp.gstart[i + 1]
        for t in range(a, b):
            buf[t] = sp.cards[t]
        _pick(buf, a, b, b - a - sp.xs[i, big], state)  # the other classes' cards first, the big class's last
        t = a
        for q in range(n):
            j = q + (q >= big) if q < n - 1 else big
            for _ in range(sp.xs[i, j]):
                kbuf[kfill[j]] = buf[t]
                kfill[j] += 1
                t += 1
    # (c) how each class's cards split among its holders
    for h in range(meta[HOLDERS]):
        out[h] = np.uint64(0)
    t = 0
    for j in range(n):
        first, last = sp.kfirst[j], sp.kfirst[j + 1] - 1
        _pick(kbuf, t, t + sp.kcap[j], sp.kcap[j] - sp.capacity[sp.kholder[last]], state)
        for q in range(first, last + 1):
            h = sp.kholder[q]
            hand = np.uint64(0)
            for _ in range(sp.capacity[h]):
                hand |= bit(kbuf[t])
                t += 1
            out[h] = hand


@flat_kernel
def _draw_rejection(sp, state, out):
    """Deals by sizes, redrawn until one respects the bars."""
    holders, k = sp.meta[HOLDERS], sp.meta[POOL]
    cards = sp.buf
    for j in range(k):
        cards[j] = sp.cards[j]
    while True:
        _pick(cards, 0, k, k, state)
        ok, j = True, 0
        for h in range(holders):
            hand = np.uint64(0)
            for _ in range(sp.capacity[h]):
                c = cards[j]
                j += 1
                ok &= (sp.allowed[h] >> sp.group[c] & 1) == 1
                hand |= bit(c)
            out[h] = hand
        if ok:
            return
