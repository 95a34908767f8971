"""The canonical layout the solver searches in, and what a game supplies to fill it.

A game hands the solver, per contract, up to 64 cards re-mapped so that each
class (the trump class and each side suit/colour) is a contiguous bit range in
ascending power.  Following is then one AND with the class mask, the top card of
a class is its highest bit, and two cards of one player are interchangeable
when they carry the same points and no other unplayed card sits between them
(or they have equal power).  Everything game-specific — classes, powers, signed card
points, the per-trick bonus and the last trick's bonus, and which seats are the
maximising side (a team, or one seat against all others) — lives in a `SolverGame`,
whose limits `make_game` checks.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.solver.ordering import DEFAULT_ORDER

MAX_SEATS = 8
MAX_CLASSES = 8
KEY_BITS = 125  # keys.position_keys: the cards' and the seats' runs per class, before the leader's 3 bits
POINTS_BITS = 189  # keys.position_keys: the points profile's runs and the key's other parts, before the leader's 3 bits
MAX_POINTS = 16000  # tt: bounds are 16-bit, and the search's "no bound" is 32000
MAX_TRICKS = 32  # 64 cards, 2 seats

SolverGame = namedtuple(
    "SolverGame",
    "n klass power points point_mask level_mask free_points class_mask eq_lo eq_hi tied trump_class trick_bonus "
    "end_bonus count_bonus bonus_range counts_tricks team later_wins namers order",
)
# eq_lo[c], eq_hi[c]: the first and last position holding c's power (equal powers are adjacent);
# tied: the positions with an equal power below them (tied_mask); point_mask[p]: the cards
# whose points are worth p to the side that takes them beyond the least it can take (p = 0:
# 0 or less, 2: 2 or more; the bounds' lower bounds); level_mask[v]: the cards of the v-th
# lowest point value of their class (the table's points profile); free_points: the levels
# are the points 0, 1 and 2, so the table may match positions whose points differ (tt._shift),
# else only those with the same points; end_bonus: the points of the last trick (to its winner);
# count_bonus[t]: the points the maximising side gets at the end for winning t tricks from the
# position solved on (Wimmüln's estimate bonus: not additive over tricks), bonus_range[0 or 1,
# t, left]: the least and the most of count_bonus[t..t + left] (0 with no trick left: paid);
# counts_tricks: count_bonus is not all 0, so the side's tricks won are part of the table key;
# later_wins: of equal powers the later played wins (musim.play.tricks), else the first;
# namers: the cards that name the trump when played (Mückenstich's mosquitoes: the move is the
# card and the class it names, which decides the trick in progress too), each above every other
# card of its class (the table knows them by their count per class); with namers the trump
# in force lives in the search state (search.trump_in_force), trump_class being unused;
# order: the move ordering's weight table (ordering.py), one row per case.


@flat_kernel
def fill_point_masks(klass, points, point_mask):
    """point_mask[p] = the positions of cards whose points above 0 are p (0: none, 2: two or more)."""
    point_mask[:] = 0
    for c in range(64):
        if klass[c] >= 0:
            point_mask[min(max(points[c], 0), 2)] |= np.uint64(1) << np.uint64(c)


def point_levels(klass, points):
    """(level_mask, free_points) for the cards' points (SolverGame): cards worth 0, 1 and 2 have
    those levels and the table's shifts hold; otherwise each class's distinct values, lowest
    first, at most 3 of them, and the table matches only positions with the same points."""
    level_mask = np.zeros(3, np.uint64)
    used = klass >= 0
    if set(points[used].tolist()) <= {0, 1, 2}:
        fill_point_masks(klass, points, level_mask)
        return level_mask, True
    for k in set(klass[used].tolist()):
        values = sorted(set(points[klass == k].tolist()))
        if len(values) > 3:
            raise ValueError(f"class {k} has {len(values)} point values; the table keeps at most 3 per class")
        for c in np.flatnonzero(klass == k):
            level_mask[values.index(points[c])] |= np.uint64(1) << np.uint64(c)
    return level_mask, False


@flat_kernel
def fill_equal_power_ranges(klass, power, eq_lo, eq_hi):
    """For each canonical position, the span of positions of its class with the same power."""
    for c in range(64):
        eq_lo[c] = c
        eq_hi[c] = c
    for c in range(1, 64):
        if klass[c] >= 0 and klass[c] == klass[c - 1] and power[c] == power[c - 1]:
            eq_lo[c] = eq_lo[c - 1]
    for c in range(62, -1, -1):
        if klass[c] >= 0 and klass[c] == klass[c + 1] and power[c] == power[c + 1]:
            eq_hi[c] = eq_hi[c + 1]


@flat_kernel
def tied_mask(eq_lo):
    """The positions c whose power an earlier position shares (eq_lo[c] < c)."""
    m = np.uint64(0)
    for c in range(64):
        if eq_lo[c] < c:
            m |= np.uint64(1) << np.uint64(c)
    return m


def check_limits(n, cards, classes, point_range, counts_tricks=False, namers=0):
    """ValueError if a game of n seats and `cards` cards in `classes` classes, whose side's points
    may lie anywhere in -point_range..point_range, does not fit the search's keys and table
    (counts_tricks: the key holds the side's tricks won as well; namers: the cards that name
    the trump, when the key holds the trump in force and the namers left per class)."""
    if not 2 <= n <= MAX_SEATS:
        raise ValueError(f"{n} seats: the solver takes 2..{MAX_SEATS}")
    if cards > 64:
        raise ValueError(f"{cards} cards: the solver takes at most 64")
    if classes > MAX_CLASSES:
        raise ValueError(f"{classes} classes: the solver takes at most {MAX_CLASSES}")
    tricks_bits = cards // n + 1 if counts_tricks else 0
    trump_bits = 2 * classes + 1 + namers if namers else 0
    rest = tricks_bits + trump_bits
    if cards + classes * n + rest > KEY_BITS or cards + 3 * classes * n + rest > POINTS_BITS:
        raise ValueError(f"{cards} cards in {classes} classes for {n} seats do not fit the table's keys")
    if point_range > MAX_POINTS:
        raise ValueError(f"points up to {point_range}: the table's bounds hold at most {MAX_POINTS}")


def _check_game(n, classes, trick_bonus, team, end_bonus, counts):
    """ValueError if make_game's game breaks a limit (check_limits), has a card that names the trump
    below one of its class that does not, or a team that is not some of its seats."""
    cards = sum(len(c) for c in classes)
    named = [[len(m) > 2 and bool(m[2]) for m in c] for c in classes]
    if any(flags != sorted(flags) for flags in named):
        raise ValueError("a card that names the trump must rank above every other card of its class")
    check_limits(
        n,
        cards,
        len(classes),
        sum(abs(m[1]) for c in classes for m in c)
        + (cards // n) * abs(trick_bonus)
        + abs(end_bonus)
        + int(np.abs(counts).max()),
        counts.any(),
        sum(map(sum, named)),
    )
    if not team or not all(0 <= s < n for s in team):
        raise ValueError(f"team {team}: expected some of the seats 0..{n - 1}")


def _place_cards(classes):
    """make_game's cards in canonical positions, class after class: (klass, power, points,
    class_mask, namers, the canonical index of each input card as nested lists)."""
    klass = np.full(64, -1, np.int64)
    power = np.zeros(64, np.int64)
    points = np.zeros(64, np.int64)
    class_mask = np.zeros(MAX_CLASSES, np.uint64)
    namers = np.uint64(0)
    index = []
    pos = 0
    for k, members in enumerate(classes):
        ids = []
        for pw, pt, *flag in members:
            klass[pos], power[pos], points[pos] = k, pw, pt
            class_mask[k] |= np.uint64(1) << np.uint64(pos)
            if flag and flag[0]:
                namers |= np.uint64(1) << np.uint64(pos)
            ids.append(pos)
            pos += 1
        index.append(ids)
    return klass, power, points, class_mask, namers, index


def make_game(
    n,
    classes,
    trump_class,
    trick_bonus,
    team,
    end_bonus=0,
    count_bonus=(),
    later_wins=False,
    order=DEFAULT_ORDER,
):
    """Build a SolverGame from `classes`: a list (one per class) of lists of (power, points), or
    (power, points, True) for a card that names the trump (SolverGame.namers), each sorted by
    ascending power; trump_class is the index of the trump class or -1; team: the maximising
    seats; end_bonus: the last trick's points; count_bonus[t]: the side's bonus for t tricks won
    from the position on (none: 0); later_wins: the tie rule; order: the move ordering's weight
    table (ordering.py).
    Returns (game, the canonical index of each input card, as nested lists); ValueError if it
    breaks a limit (_check_game)."""
    counts = np.zeros(MAX_TRICKS + 1, np.int64)
    counts[: len(count_bonus)] = count_bonus[: MAX_TRICKS + 1]
    _check_game(n, classes, trick_bonus, team, end_bonus, counts)
    klass, power, points, class_mask, namers, index = _place_cards(classes)
    team_arr = np.zeros(MAX_SEATS, np.bool_)
    for s in team:
        team_arr[s] = True
    eq_lo, eq_hi = np.zeros(64, np.int64), np.zeros(64, np.int64)
    fill_equal_power_ranges(klass, power, eq_lo, eq_hi)
    point_mask = np.zeros(3, np.uint64)
    fill_point_masks(klass, points, point_mask)
    level_mask, free_points = point_levels(klass, points)
    # np.uint64: tied_mask returns a Python int here, which kernels would type as int64
    return SolverGame(
        n,
        klass,
        power,
        points,
        point_mask,
        level_mask,
        np.bool_(free_points),
        class_mask,
        eq_lo,
        eq_hi,
        np.uint64(tied_mask(eq_lo)),
        np.int64(trump_class),
        np.int64(trick_bonus),
        np.int64(end_bonus),
        counts,
        bonus_ranges(counts),
        np.bool_(counts.any()),
        team_arr,
        np.bool_(later_wins),
        namers,
        order.copy(),
    ), index


def bonus_ranges(count_bonus):
    """SolverGame.bonus_range of count_bonus."""
    out = np.zeros((2, MAX_TRICKS + 1, MAX_TRICKS + 1), np.int64)
    for t in range(MAX_TRICKS + 1):
        for left in range(1, MAX_TRICKS + 1 - t):
            out[0, t, left] = count_bonus[t : t + left + 1].min()
            out[1, t, left] = count_bonus[t : t + left + 1].max()
    return out
