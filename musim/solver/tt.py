"""Transposition table for the double-dummy search: partition-search entries, bounds, reused.

Entries are stored at trick boundaries and describe a *set* of positions (Ginsberg's
partition search; DDS's "winning ranks"), in two parts:

- the primary key: the leader and how many cards each seat holds of each class
  (keys.position_keys packs it into 2 words, which pick the entry's bucket);
- the top part: for each class, the top few remaining cards (a mask over the
  remaining cards in class and power order) with their owners and equal-power
  links (and points, which a position it holds may have others of: `_point_shift`).

A proof found in one position holds in every position with the same primary key
and the same top part, where the top part reaches down to the lowest card whose
rank mattered in the proof (search.can_reach tracks that set).  Cards below it
never won a trick by rank, so only their seats matter, which the primary key
fixes: the same play, card for card of each seat and class, wins the same tricks.
Only their points may differ, and the team's points move by at most the points the
low cards lose (or gain) when each seat's cards of a class are matched cheapest to
cheapest.  So an entry also keeps the stored position's points profile (per class
and seat, the count of cards of each point level, layout.SolverGame; with the rest of the
primary key after it, it holds the whole key: 3 words, the only key an entry keeps), and a
probe lowers its lower bound by that loss and raises its upper bound by that gain (`_shift`;
only where the levels are the points 0, 1 and 2, the game's free_points, else an entry
holds only positions of the same points);
for positions with the same profile the bounds hold as stored.  The top cards, matched
rank to rank, win the same tricks whatever their points, so their points may differ
too, at the cost of a dearer shift (`_point_shift`).  Keys are compared in full (the
profile's runs end where the position's do, and the rest of the key is the same:
`_same_key`), so a hit is never a hash collision.

Each entry holds a lower and an upper bound on the points the maximising team still
takes and the last best move (as a position in that order).  The entries of one primary
key share a bucket, scanned in full; a stamp per entry (the key's hash and the owners of
each class's top cards) lets the scan skip most of them with one compare, and all the
rest of what a probe reads sits in one cache line per entry: the top part's mask, the
bounds, the points profile, and the top part's bit planes compressed to its t top cards
(6 planes of 32 bits for t <= 32, nearly all entries; else the 3 owner planes where no
top card has points or a tie, as in bridge; else, for 0.01-0.6% of Mü's entries, though
costly ones, the planes go to a line of a small ring of spill lines: SPILL).  An entry
takes 74.5 bytes (stamp 8, line 64, work 1, 0.5: a 4-byte fill word per 8 entries, the
smallest bucket, and 1: a spill line per 64 entries), 114 before the key and the top
planes were folded into the line (entry_bytes; docs/solver.md).  When the bucket is full, the
entry whose search took the fewest nodes (the cheapest to redo) moves to a second
bucket, chosen by its key and points profile: a key with more entries than a bucket
holds then spreads over the table, and a probe that misses in the key's bucket looks in
the second bucket of its own profile.  A new entry cheaper than all of a full bucket's
goes to that second bucket; a full second bucket gives up its cheapest entry for either:
the newest proof is always kept.
A generation number per bucket lets a new game start afresh in O(1).
"""

from collections import namedtuple

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from musim.compile.jit import flat_kernel
from musim.core.bits import compress, deposit, drop_lowest, lowest, popcount
from musim.solver.layout import MAX_CLASSES, MAX_SEATS
from musim.solver.table_size import DEFAULT_MB

KEY_WORDS = 2
POINTS_WORDS = 3
TOP_WORDS = 6
MAX_BUCKET = 512
MIN_BUCKET = 8

TransTable = namedtuple("TransTable", "stamp line work fill meta flags spill")
# stamp[i] = a 16-bit hash of the primary key, then per class (6 bits from bit 16 + 6k) whether
# the top part covers it, whether two deep, and the owners (mod 4) of its top two cards: one
# compare rejects most entries that cannot hold the position (hundreds may share its key);
# line[i] = one cache line with all a probe reads: the top part's mask, the bounds, best move
# and form packed (_pack), the points profile with the rest of the primary key (keys.position_keys:
# it holds the key's counts, _same_key) and the top part's bit planes packed (_planes);
# work[i] = log2 of the nodes entry i's search took, apart so that choosing a victim reads
# one short run of memory;
# fill[b] = generation << 16 | the number of entries bucket b holds (they come first);
# meta[0] = current generation (below 2**16), meta[1] = number of buckets, meta[2] = entries per bucket,
# meta[STORED] = new entries taken in, meta[LOST] = entries given up for them (since the table was made),
# meta[SPILLED] = the next spill line to take;
# flags: scratch for a bucket's scan, one byte per entry (see _candidates);
# spill[j] = a SPILL entry's top planes (full words & mask, columns 1..6) and in column 0 the
# entry that owns it (a ring: a later SPILL entry takes it over, and the first then holds nothing);
# its last row belongs to no entry: where an entry that lost its line moves (_move), it points there
STORED, LOST, SPILLED = 3, 4, 5
SPILL_SHARE = 64  # entries per spill line
NO_OWNER = np.uint64(2**64 - 1)  # the owner of the spill ring's last line: no entry
LINE_WORDS = 8
MASK, BOUNDS, PROFILE, PLANES = 0, 1, 2, 2 + POINTS_WORDS  # line columns
# an entry's form (_pack's bits 40-41): how its top part's planes (owners 0-2, point levels 3-4,
# ties 5) are packed in line[PLANES:] for its t top cards (the mask's bits):
NARROW = 0  # t <= 32: two planes a word, (0, 1), (2, 5), (3, 4), each compressed to t bits
WIDE = 1  # t > 32, no points or ties on top (bridge): owners 0-2 a word each, compressed
SPILL = 2  # t > 32 otherwise: line[PLANES] = the spill line holding its planes
SEG_STARTS = MAX_CLASSES * MAX_SEATS  # a probe's segs: points runs' offsets, then class starts,
SEG_LEN = SEG_STARTS + MAX_CLASSES + 1  # then their number, then the profile's length
SEG_FIELDS = SEG_LEN + 1  # (keys.position_keys)
TOP_POINTS = 3  # the first of the top words' point planes, 3 (1 point) and 4 (2 or more): keys.position_keys
LOW16 = np.uint64(0xFFFF)  # the stamp's hash
LOW32 = np.uint64(0xFFFFFFFF)
COVERED = np.uint64(sum(1 << (16 + 6 * k) for k in range(MAX_CLASSES)))  # the stamp's class flags
# _ends: the bits k of a word's zeros that end a run of three, by the zeros before the word (mod 3)
THIRDS = np.array([sum(1 << k for k in range(64) if (k + r) % 3 == 2) for r in range(3)], np.uint64)


def entry_bytes():
    """Bytes a table entry takes: stamp, line, work, and its share of its bucket's fill word."""
    return 8 + LINE_WORDS * 8 + 1 + 4 / MIN_BUCKET + LINE_WORDS * 8 / SPILL_SHARE


def _cache_lines(entries):
    """An (entries, LINE_WORDS) uint64 array whose rows are 64-byte cache lines."""
    buf = np.zeros((entries + 1) * LINE_WORDS, np.uint64)
    skip = (-buf.ctypes.data // 8) % LINE_WORDS
    return buf[skip : skip + entries * LINE_WORDS].reshape(entries, LINE_WORDS)


def _spill_lines(count):
    """The spill ring of `count` lines, and after it the line of no entry (NO_OWNER)."""
    spill = _cache_lines(count + 1)
    spill[count, 0] = NO_OWNER
    return spill


def make_table(megabytes=DEFAULT_MB):
    """A table of at most `megabytes` MB (a whole number of the largest buckets, at least 4)."""
    if megabytes <= 0:
        raise ValueError("transposition table size must be positive")
    entries = max(4, int(megabytes * 2**20 / entry_bytes()) // MAX_BUCKET) * MAX_BUCKET
    return TransTable(
        stamp=np.zeros(entries, np.uint64),
        line=_cache_lines(entries),
        work=np.zeros(entries, np.int8),
        fill=np.zeros(entries // MIN_BUCKET, np.uint32),
        meta=np.array([1, entries // MAX_BUCKET, MAX_BUCKET, 0, 0, 0], np.int64),
        flags=np.zeros(MAX_BUCKET, np.uint8),
        spill=_spill_lines(entries // SPILL_SHARE),
    )


@intrinsic
def _prefetch_row(typingctx, arr, i):
    """Start loading row i of a C-contiguous array into the cache (llvm.prefetch), so that
    the scan's candidate entries miss the cache at once instead of one after another."""
    if not isinstance(arr, types.Array):
        return None
    sig = types.void(arr, types.intp)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        idx = [args[1]] + [context.get_constant(types.intp, 0)] * (aryty.ndim - 1)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, idx, wraparound=False)
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0"
        )
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@flat_kernel(inline="always")
def _pack(lb, ub, best, form):
    """lb and ub as 16-bit two's complement, best as 8 bits (-1: none), the entry's form 2 bits."""
    return (
        np.uint64(lb & 0xFFFF)
        | (np.uint64(ub & 0xFFFF) << np.uint64(16))
        | (np.uint64(best & 0xFF) << np.uint64(32))
        | (np.uint64(form) << np.uint64(40))
    )


@flat_kernel(inline="always")
def _field(tt, i, shift, bits):
    """A signed field of entry i's packed word."""
    v = np.int64((tt.line[i, BOUNDS] >> np.uint64(shift)) & np.uint64((1 << bits) - 1))
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


@flat_kernel(inline="always")
def lower(tt, i):
    return _field(tt, i, 0, 16)


@flat_kernel(inline="always")
def upper(tt, i):
    return _field(tt, i, 16, 16)


@flat_kernel(inline="always")
def best_move(tt, i):
    return _field(tt, i, 32, 8)


@flat_kernel(inline="always")
def form_of(tt, i):
    return np.int64((tt.line[i, BOUNDS] >> np.uint64(40)) & np.uint64(3))


@flat_kernel(inline="always")
def _low_ones(n):
    """The n low bits set, 1 <= n <= 64."""
    return ~np.uint64(0) >> np.uint64(64 - n)


@flat_kernel(inline="always")
def top_mask_of(tt, i):
    """The positions of entry i's top cards among the remaining cards."""
    return tt.line[i, MASK]


@flat_kernel(inline="always")
def _pair(a, b, m):
    """The bits of a and of b at m's positions, compressed into a word's low and high halves."""
    return compress(a, m) | (compress(b, m) << np.uint64(32))


@flat_kernel(inline="always")
def _planes(full, mask):
    """(form, the 3 plane words) of an entry whose top part is `full` at `mask` (SPILL: none,
    store spills them)."""
    t = popcount(mask)
    if t <= 32:
        return NARROW, _pair(full[0], full[1], mask), _pair(full[2], full[5], mask), _pair(full[3], full[4], mask)
    if not ((full[TOP_POINTS] | full[TOP_POINTS + 1] | full[5]) & mask):
        return WIDE, compress(full[0], mask), compress(full[1], mask), compress(full[2], mask)
    return SPILL, np.uint64(0), np.uint64(0), np.uint64(0)


@flat_kernel(inline="always")
def _spilled(tt, i, full, m, exact):
    """Does SPILL entry i still own its spill line, whose planes agree with full at m (exact:
    the point planes too)?"""
    j = tt.line[i, PLANES]
    if tt.spill[j, 0] != np.uint64(i):
        return False
    for w in range(TOP_WORDS):
        if (exact or w < TOP_POINTS or w >= TOP_POINTS + 2) and full[w] & m != tt.spill[j, 1 + w]:
            return False
    return True


@flat_kernel
def new_generation(tt, bucket):
    """Invalidate every entry (a new game, contract or team) in O(1), and split the table
    into buckets of `bucket` entries (MIN_BUCKET to MAX_BUCKET).

    A key's entries share a bucket (those it has no room for go to a second bucket per
    points profile), so the game chooses its size: a big search gathers hundreds of
    entries under one key (in Mü more, as they differ in their points as well), and a
    larger bucket holds more of them but takes longer to scan."""
    bucket = min(max(bucket, MIN_BUCKET), MAX_BUCKET)  # the scan's scratch holds MAX_BUCKET
    tt.meta[2] = bucket
    tt.meta[1] = tt.stamp.shape[0] // bucket
    tt.meta[SPILLED] = 0
    tt.meta[0] += 1
    if tt.meta[0] >= 2**16:  # fill keeps 16 bits of it
        tt.fill[:] = 0
        tt.meta[0] = 1


@flat_kernel(inline="always")
def _hash(h, words):
    """h mixed with every word of `words`."""
    for w in range(words.shape[0]):
        h = (h ^ words[w]) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    return h


@flat_kernel(inline="always")
def _bucket(tt, h):
    """The bucket of hash h: its high 32 bits scaled to [0, buckets) (any table size, no modulo)."""
    return np.int64(((h >> np.uint64(32)) * np.uint64(tt.meta[1])) >> np.uint64(32))


@flat_kernel(inline="always")
def _place(tt, key):
    """(the primary key's bucket, the hash its entries' stamps carry)."""
    h = _hash(np.uint64(0x9E3779B97F4A7C15), key)
    return _bucket(tt, h), h & LOW16


@flat_kernel(inline="always")
def _used(tt, b):
    """Number of entries bucket b holds in the current generation."""
    f = np.int64(tt.fill[b])
    return f & 0xFFFF if f >> 16 == tt.meta[0] else 0


@flat_kernel(inline="always")
def top_owners(k, first, second):
    """Class k's field of a position's stamp: the owners (mod 4) of its top two cards."""
    return np.uint64(((first & 3) << 2) | ((second & 3) << 4)) << np.uint64(16 + 6 * k)


@flat_kernel(inline="always")
def _care(stamp):
    """The stamp bits an entry's position must match: the hash, and the owner of each covered
    class's top card and, where it covers two or more, the second's."""
    one = stamp & COVERED
    two = (stamp >> np.uint64(1)) & COVERED
    return LOW16 | (one << np.uint64(2)) | (one << np.uint64(3)) | (two << np.uint64(4)) | (two << np.uint64(5))


@flat_kernel(inline="always")
def _stamp(h, tops, covered, deep):
    """An entry's stamp: hash h of its key, the flags of the classes its top part covers
    (`covered`) and covers two deep (`deep`), and of the position's top owners `tops` the
    fields it covers."""
    flags = np.uint64(0)
    for k in range(MAX_CLASSES):
        if covered >> k & 1:
            flags |= np.uint64(1) << np.uint64(16 + 6 * k)
        if deep >> k & 1:
            flags |= np.uint64(2) << np.uint64(16 + 6 * k)
    return h | flags | (tops & _care(flags) & ~LOW16)


@flat_kernel(inline="always")
def _ends(words, length):
    """The last bits of the profile runs in a points profile's first `length` bits: every third
    0 (keys.position_keys: a class and seat's run is 1^c0 0 1^c1 0 1^c2 0), as 3 words."""
    out0 = out1 = out2 = np.uint64(0)
    phase = 0
    for w in range(POINTS_WORDS):
        left = length - 64 * w
        if left <= 0:
            break
        zeros = ~words[w] & (_low_ones(left) if left < 64 else ~np.uint64(0))
        e = deposit(THIRDS[phase], zeros)
        if w == 0:
            out0 = e
        elif w == 1:
            out1 = e
        else:
            out2 = e
        phase = (phase + popcount(zeros)) % 3
    return out0, out1, out2


@flat_kernel(inline="always")
def _same_key(tt, i, points, ends, length):
    """Has entry i the primary key of the position with points profile `points`, whose first
    `length` bits are its runs (ending at `ends`, _ends)?  The profile holds the key: its runs
    give each class and seat's count of cards, and the rest (tricks won, trump, leader) follows
    them, so the runs must end at the same bits and the rest be the same."""
    if _same_points(tt, i, points):  # the same profile (in bridge, every entry of the key)
        return True
    for w in range(POINTS_WORDS):
        left = length - 64 * w
        rest = ~np.uint64(0) if left <= 0 else (~_low_ones(left) if left < 64 else np.uint64(0))
        if (tt.line[i, PROFILE + w] ^ points[w]) & rest:
            return False
    e0, e1, e2 = _ends(tt.line[i, PROFILE : PROFILE + POINTS_WORDS], length)
    return e0 == ends[0] and e1 == ends[1] and e2 == ends[2]


@flat_kernel(inline="always")
def _covers(tt, i, points, full, ends, length, exact):
    """Does entry i, whose stamp matched (_candidates), hold positions with this points profile's
    primary key and these full top words (exact: with the same points on top; else any, for
    _point_shift)?"""
    m = tt.line[i, MASK]
    form = form_of(tt, i)
    if form == NARROW:
        if _pair(full[0], full[1], m) != tt.line[i, PLANES] or _pair(full[2], full[5], m) != tt.line[i, PLANES + 1]:
            return False
        if exact and _pair(full[TOP_POINTS], full[TOP_POINTS + 1], m) != tt.line[i, PLANES + 2]:
            return False
    elif form == WIDE:
        for w in range(3):
            if compress(full[w], m) != tt.line[i, PLANES + w]:
                return False
        if full[5] & m or (exact and (full[TOP_POINTS] | full[TOP_POINTS + 1]) & m):
            return False
    elif not _spilled(tt, i, full, m, exact):
        return False
    return _same_key(tt, i, points, ends, length)


@flat_kernel(inline="always")
def _bits_at(words, p):
    """The 64 bits of the bit string `words` from bit p on."""
    w, r = p >> 6, p & 63
    v = words[w] >> np.uint64(r)
    if r and w + 1 < words.shape[0]:
        v |= words[w + 1] << np.uint64(64 - r)
    return v


@flat_kernel(inline="always")
def _run_counts(words, p):
    """(c0, c0 + c1) of the points profile segment at bit p: its cards worth 0, and worth 0 or 1."""
    v = _bits_at(words, p)
    c0 = lowest(~v)
    return c0, c0 + lowest(~(v >> np.uint64(c0 + 1)))


@flat_kernel(inline="always")
def _top_points(tt, i):
    """Entry i's top cards' point planes (1 point; 2 or more) at their positions among the
    remaining cards."""
    form = form_of(tt, i)
    if form == WIDE:
        return np.uint64(0), np.uint64(0)
    if form == SPILL:
        j = tt.line[i, PLANES]
        return tt.spill[j, 1 + TOP_POINTS], tt.spill[j, 2 + TOP_POINTS]
    m, v = tt.line[i, MASK], tt.line[i, PLANES + 2]
    return deposit(v & LOW32, m), deposit(v >> np.uint64(32), m)


@flat_kernel(inline="always")
def _top_differ(tt, i, full):
    """The positions of entry i's top cards whose points differ from those of `full`."""
    m = tt.line[i, MASK]
    o1, o2 = _top_points(tt, i)
    return ((full[TOP_POINTS] & m) ^ o1) | ((full[TOP_POINTS + 1] & m) ^ o2)


@flat_kernel
def _point_shift(tt, i, points, full, segs, x, loss, budget):
    """_shift for a position entry i holds whose top cards at positions x (_top_differ) have
    other points: the points the team may lose (loss) or gain (not loss), or more than
    `budget` once it exceeds it.

    The top cards' ranks, owners and ties agree, but their points may differ: the same play
    wins the same tricks, the top cards matched rank to rank and each seat's other cards of a
    class cheapest to cheapest (_shift, on the profiles, which count the top cards as well).
    Where top points differ, the profiles' matching is taken with the position's top cards
    given their stored points (adding the same cards to both sides of a cheapest-to-cheapest
    matching changes nothing, so that is the other cards' matching), plus what the top cards
    themselves lose (gain).  segs: keys.position_keys's segment offsets and class starts."""
    m = tt.line[i, MASK]
    o1, o2 = _top_points(tt, i)
    n1, n2 = full[TOP_POINTS] & m, full[TOP_POINTS + 1] & m
    # the top cards given the stored points take at most their differences off the profiles' cost
    most = budget + popcount(o1 ^ n1) + 2 * popcount((o2 ^ n2) & ~(o1 ^ n1))
    total = _shift(tt, i, points, loss, most)
    if total > most:
        return budget + 1
    if not loss:
        o1, o2, n1, n2 = n1, n2, o1, o2
    while x:  # the top cards of one seat and class at a time
        j = lowest(x)
        k = 0
        while k + 1 < MAX_CLASSES and segs[SEG_STARTS + k + 1] <= j:
            k += 1
        same = (np.uint64(1) << np.uint64(segs[SEG_STARTS + k + 1])) - (np.uint64(1) << np.uint64(segs[SEG_STARTS + k]))
        s = 0
        for b in range(3):
            if (full[b] >> np.uint64(j)) & np.uint64(1):
                s |= 1 << b
                same &= full[b]
            else:
                same &= ~full[b]
        group = x & same
        x &= ~group
        a0, a1 = _run_counts(tt.line[i, PROFILE : PROFILE + POINTS_WORDS], segs[k * MAX_SEATS + s])
        b0, b1 = _run_counts(points, segs[k * MAX_SEATS + s])
        if not loss:
            a0, a1, b0, b1 = b0, b1, a0, a1
        # b's counts with its top cards at a's points (o: the side that loses, n: that gains)
        c0 = b0 + popcount(group & ~(o1 | o2)) - popcount(group & ~(n1 | n2))
        c1 = b1 + popcount(group & ~o2) - popcount(group & ~n2)
        total += max(c0 - a0, 0) + max(c1 - a1, 0) - max(b0 - a0, 0) - max(b1 - a1, 0)
        total += popcount(group & o2 & ~n2) + popcount(group & (o1 | o2) & ~(n1 | n2))
    return total


@flat_kernel
def _shift(tt, i, points, loss, budget):
    """The points the team may lose (loss) or gain (not loss) between entry i's stored position
    and one with points profile `points` (and the same primary key), or budget + 1 once it is
    more than `budget`.

    Profiles are unary: per class and seat, 1^c0 0 1^c1 0 1^c2 0 with c_p the cards worth p
    points, each segment at the same place in both (the primary key fixes its length).  The
    cheapest-to-cheapest matching loses, per segment, how far the new first and second 0 lie
    beyond the stored ones; summed over bits that is the running excess of the new profile's
    1s over the stored one's, where positive (a gain: where negative)."""
    run = 0
    total = 0
    prev = 0
    for w in range(POINTS_WORDS):
        old, new = tt.line[i, PROFILE + w], points[w]
        diff = old ^ new
        while diff:
            j = lowest(diff)
            diff = drop_lowest(diff)
            p = 64 * w + j
            if loss and run > 0:
                total += run * (p - prev)
            elif not loss and run < 0:
                total -= run * (p - prev)
            if total > budget:
                return budget + 1
            prev = p
            run += 1 if (new >> np.uint64(j)) & np.uint64(1) else -1
    return total


@flat_kernel(inline="always")
def _candidates(tt, base, used, cur, exact):
    """flags[j] = may entry base + j hold a position with stamp bits `cur` (exact: is its
    stamp `cur`)?  A loop with no branch, which the compiler turns into vector code: a
    scan of hundreds of stamps costs a few dozen instructions."""
    for j in range(used):
        s = tt.stamp[base + j]
        tt.flags[j] = s == cur if exact else ((s ^ cur) & _care(s)) == 0


@flat_kernel(inline="always")
def _second(tt, points):
    """The bucket of a primary key with one points profile (the profile holds the key, _same_key),
    where entries its own bucket has no room for go: a key that gathers more entries than a
    bucket holds then spreads over the table, as it would if the profile were part of the key."""
    return _bucket(tt, _hash(np.uint64(0x9E3779B97F4A7C15), points))


@flat_kernel
def _probe_bucket(tt, b, h, tops, points, full, segs, ends, need, hint, free):
    """probe's answer from bucket b alone (hint: the best-move hint found so far; free: the
    game's free_points, layout.SolverGame)."""
    base = b * tt.meta[2]
    used = _used(tt, b)
    length = segs[SEG_LEN]
    _candidates(tt, base, used, h | tops, False)
    for j in range(used):
        if tt.flags[j]:
            _prefetch_row(tt.line, base + j)
    for j in range(used):
        i = base + j
        if tt.flags[j] and _covers(tt, i, points, full, ends, length, False):
            lb, ub = lower(tt, i), upper(tt, i)
            x = _top_differ(tt, i, full)
            if not free and (x or not _same_points(tt, i, points)):
                lb, ub = need - 1, need  # its points differ: its bounds are not known to hold
            if lb >= need:
                if x:
                    lb -= _point_shift(tt, i, points, full, segs, x, True, lb - need)
                else:
                    lb -= _shift(tt, i, points, True, lb - need)
                if lb >= need:
                    return 1, lb, i, hint
            elif ub < need:
                if x:
                    ub += _point_shift(tt, i, points, full, segs, x, False, need - 1 - ub)
                else:
                    ub += _shift(tt, i, points, False, need - 1 - ub)
                if ub < need:
                    return 0, ub, i, hint
            if best_move(tt, i) >= 0:
                hint = best_move(tt, i)
    return -1, 0, -1, hint


@flat_kernel(inline="always")
def probe(tt, key, tops, points, full, segs, need, free):
    """(1 if an entry holding the position proves the team takes `need`, 0 if one proves it
    cannot, else -1; that bound; the entry; the best-move hint of an entry holding it, or -1).
    tops: the owners of each class's top two cards (top_owners).  Entries of the key's own
    bucket may hold it with other points, those of the second bucket (`_second`) with these;
    free: the game's free_points (else only an entry of the same points holds a position)."""
    b, h = _place(tt, key)
    ends = _ends(points, segs[SEG_LEN])
    found, bound, i, hint = _probe_bucket(tt, b, h, tops, points, full, segs, ends, need, -1, free)
    if found < 0 and _used(tt, b) == tt.meta[2]:  # only a full bucket passes entries on
        b2 = _second(tt, points)
        if b2 != b:
            found, bound, i, hint = _probe_bucket(tt, b2, h, tops, points, full, segs, ends, need, hint, free)
    return found, bound, i, hint


@flat_kernel
def _merge(tt, b, stamp, points, full, mask, form, p0, p1, p2, lb, ub, best, work):
    """Merge the bounds into bucket b's entry for exactly these positions (the same stamp, points
    profile, mask, form and planes: _planes), if it has one."""
    base = b * tt.meta[2]
    used = _used(tt, b)
    _candidates(tt, base, used, stamp, True)
    for j in range(used):
        i = base + j
        if (
            tt.flags[j]
            and tt.line[i, MASK] == mask
            and form_of(tt, i) == form
            and (
                _spilled(tt, i, full, mask, True)
                if form == SPILL
                else tt.line[i, PLANES] == p0 and tt.line[i, PLANES + 1] == p1 and tt.line[i, PLANES + 2] == p2
            )
            and _same_points(tt, i, points)
        ):
            old = best_move(tt, i)
            tt.line[i, BOUNDS] = _pack(max(lower(tt, i), lb), min(upper(tt, i), ub), best if best >= 0 else old, form)
            tt.work[i] = max(tt.work[i], work)
            return True
    return False


@flat_kernel
def _slot(tt, b):
    """Where bucket b takes a new entry: a free slot, else its entry of least work."""
    base = b * tt.meta[2]
    used = _used(tt, b)
    if used < tt.meta[2]:
        tt.fill[b] = np.uint32((tt.meta[0] << 16) | (used + 1))
        return base + used
    least = np.int8(127)
    for i in range(base, base + used):  # a minimum first (vector code), then where it is
        least = min(least, tt.work[i])
    i = base
    while tt.work[i] != least:
        i += 1
    return i


@flat_kernel
def _move(tt, src, dst):
    """Move entry src to slot dst.  A SPILL entry takes its spill line along; one that lost its
    line points at the ring's line of no entry, lest the line's new owner was the entry at dst
    and the moved one took its planes for its own."""
    tt.stamp[dst] = tt.stamp[src]
    for w in range(LINE_WORDS):
        tt.line[dst, w] = tt.line[src, w]
    tt.work[dst] = tt.work[src]
    j = tt.line[src, PLANES]
    if form_of(tt, src) == SPILL:
        if tt.spill[j, 0] == np.uint64(src):
            tt.spill[j, 0] = dst
        else:
            tt.line[dst, PLANES] = tt.spill.shape[0] - 1


@flat_kernel(inline="always")
def store(tt, key, tops, covered, deep, points, full, mask, lb, ub, best, work):
    """Record bounds for the positions (key, points, full & mask; the mask covers the top
    cards of the class set `covered`, two or more of those in `deep`): merge into their
    entry; else take a free slot of the key's bucket, or the slot of its entry of least
    work (log2 of the nodes its search took: the cheapest to redo), which moves to its
    second bucket; an entry of less work than all of them goes to its own second bucket.
    A full second bucket takes either in place of its entry of least work (keeping that
    one instead when it is dearer changed nodes by 0.4% at most).  So a new proof is never
    dropped: with the table full of dearer entries from earlier searches, dropping it
    redid the same work over and over (5-player deal 16 of benchmarks/trace_search.py,
    need 22 at 512 MB: 2,100 million nodes then, 1,539 million now)."""
    b, h = _place(tt, key)
    b2 = _second(tt, points)
    stamp = _stamp(h, tops, covered, deep)
    form, p0, p1, p2 = _planes(full, mask)
    if _merge(tt, b, stamp, points, full, mask, form, p0, p1, p2, lb, ub, best, work):
        return
    full_b = _used(tt, b) == tt.meta[2]
    if full_b and b2 != b and _merge(tt, b2, stamp, points, full, mask, form, p0, p1, p2, lb, ub, best, work):
        return
    i = _slot(tt, b)
    lost = full_b
    if full_b and tt.work[i] <= work:
        v2 = _second(tt, tt.line[i, PROFILE : PROFILE + POINTS_WORDS])
        if v2 != b:
            lost = _used(tt, v2) == tt.meta[2]
            _move(tt, i, _slot(tt, v2))
    elif full_b:
        lost = _used(tt, b2) == tt.meta[2]
        i = _slot(tt, b2)
    tt.meta[STORED] += 1
    tt.meta[LOST] += lost
    if form == SPILL:  # the next spill line, taken from the entry that had it
        j = tt.meta[SPILLED]
        tt.meta[SPILLED] = j + 1 if j + 2 < tt.spill.shape[0] else 0
        tt.spill[j, 0] = i
        for w in range(TOP_WORDS):
            tt.spill[j, 1 + w] = full[w] & mask
        p0 = np.uint64(j)
    tt.stamp[i] = stamp
    tt.line[i, MASK] = mask
    tt.line[i, BOUNDS] = _pack(lb, ub, best, form)
    for w in range(POINTS_WORDS):
        tt.line[i, PROFILE + w] = points[w]
    tt.line[i, PLANES] = p0
    tt.line[i, PLANES + 1] = p1
    tt.line[i, PLANES + 2] = p2
    tt.work[i] = work


@flat_kernel(inline="always")
def _same_points(tt, i, points):
    for w in range(POINTS_WORDS):
        if tt.line[i, PROFILE + w] != points[w]:
            return False
    return True
