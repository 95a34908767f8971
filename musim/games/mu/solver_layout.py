"""Mü positions in the solver's canonical layout (musim.solver.layout).

Per trump pair, the side cards of each colour become classes 0..4 and the trumps
class 5 (rules.TRUMP), each in ascending power, with exactly the class and power
the rules kernels give (rules.fill_contract): the solver cannot disagree with
the rules.  Only the first 36 or 60 positions are used.
"""

from collections import namedtuple

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import bit, drop_lowest, lowest
from musim.core.cards import CARD_POINTS, N_CARDS
from musim.games.mu.rules import N_CLASSES, TRUMP, fill_contract
from musim.solver.layout import (
    MAX_CLASSES,
    MAX_SEATS,
    MAX_TRICKS,
    SolverGame,
    fill_equal_power_ranges,
    fill_point_masks,
    tied_mask,
)
from musim.solver.ordering import DEFAULT_ORDER

TT_BUCKET = 256  # transposition-table entries per bucket (tt.new_generation): 512 finds ~3% fewer
# nodes but scans twice as long (bench_solver.py 3 players auction contracts: median 58 ms with
# 256, 94-141 ms with 512; 128 about as fast as 256 with ~5% more nodes)


@flat_kernel
def fill_layout(
    chief_trump, vice_trump, klass, power, class_mask, canon_of, orig_of, g_klass, g_power, g_points, g_class_mask
):
    """Fill the contract tables and the canonical mapping (canon_of[orig], orig_of[canon])."""
    fill_contract(chief_trump, vice_trump, klass, power, class_mask)
    g_klass[:] = -1
    g_class_mask[:] = 0
    pos = 0
    for k in range(N_CLASSES):
        start = pos
        m = class_mask[k]
        while m:  # insertion sort of the class by power, stable in card order
            c = lowest(m)
            m = drop_lowest(m)
            i = pos
            while i > start and power[orig_of[i - 1]] > power[c]:
                orig_of[i] = orig_of[i - 1]
                i -= 1
            orig_of[i] = c
            pos += 1
        for i in range(start, pos):
            c = orig_of[i]
            canon_of[c] = i
            g_klass[i] = k
            g_power[i] = power[c]
            g_points[i] = CARD_POINTS[c]
            g_class_mask[k] |= bit(i)


@flat_kernel
def to_canon(mask, canon_of):
    out = np.uint64(0)
    m = mask
    while m:
        out |= bit(canon_of[lowest(m)])
        m = drop_lowest(m)
    return out


MuLayout = namedtuple(
    "MuLayout",
    "canon_of orig_of klass power points point_mask class_mask eq_lo eq_hi no_bonus no_range team order",
)


def make_layout():
    """Arrays for one Mü contract in canonical layout (filled by fill_game)."""
    z = np.zeros
    return MuLayout(
        canon_of=z(N_CARDS, np.int64),
        orig_of=z(64, np.int64),
        klass=np.full(64, -1, np.int64),
        power=z(64, np.int64),
        points=z(64, np.int64),
        point_mask=z(3, np.uint64),
        class_mask=z(MAX_CLASSES, np.uint64),
        eq_lo=z(64, np.int64),
        eq_hi=z(64, np.int64),
        no_bonus=z(MAX_TRICKS + 1, np.int64),
        no_range=z((2, MAX_TRICKS + 1, MAX_TRICKS + 1), np.int64),
        team=z(MAX_SEATS, np.bool_),
        order=DEFAULT_ORDER.copy(),
    )


@flat_kernel
def fill_game(n, chief_trump, vice_trump, on_team, lay, klass, power, class_mask):
    """Fill the contract tables (klass, power, class_mask) and `lay` for a trump pair and team."""
    fill_layout(
        chief_trump,
        vice_trump,
        klass,
        power,
        class_mask,
        lay.canon_of,
        lay.orig_of,
        lay.klass,
        lay.power,
        lay.points,
        lay.class_mask,
    )
    fill_equal_power_ranges(lay.klass, lay.power, lay.eq_lo, lay.eq_hi)
    fill_point_masks(lay.klass, lay.points, lay.point_mask)
    for s in range(MAX_SEATS):
        lay.team[s] = s < n and on_team[s]


@flat_kernel
def solver_game(n, lay):
    """The SolverGame of a filled layout.  Mü's cards are worth 0, 1 or 2 points: those are the
    table's levels, and its shifts between positions of other points hold (layout.point_levels)."""
    return SolverGame(
        n=n,
        klass=lay.klass,
        power=lay.power,
        points=lay.points,
        point_mask=lay.point_mask,
        level_mask=lay.point_mask,
        free_points=True,
        class_mask=lay.class_mask,
        eq_lo=lay.eq_lo,
        eq_hi=lay.eq_hi,
        tied=tied_mask(lay.eq_lo),
        trump_class=np.int64(TRUMP),
        trick_bonus=np.int64(0),
        end_bonus=np.int64(0),
        count_bonus=lay.no_bonus,
        bonus_range=lay.no_range,
        counts_tricks=False,
        team=lay.team,
        later_wins=False,
        namers=np.uint64(0),
        order=lay.order,
    )


class MuSolverSetup:
    """One Mü contract in canonical layout, from Python: its tables, mapping and SolverGame."""

    def __init__(self, n, chief_trump, vice_trump, team):
        self.klass = np.zeros(N_CARDS, np.int64)
        self.power = np.zeros(N_CARDS, np.int64)
        self.class_mask = np.zeros(N_CLASSES, np.uint64)
        self.layout = make_layout()
        on_team = np.array([s in team for s in range(MAX_SEATS)])
        fill_game(n, chief_trump, vice_trump, on_team, self.layout, self.klass, self.power, self.class_mask)
        self.canon_of, self.orig_of = self.layout.canon_of, self.layout.orig_of
        game = solver_game(n, self.layout)
        # numba hands the uint64 masks back as Python ints, typed int64 on the next call:
        # the search would compile for a second SolverGame type
        self.game = game._replace(tied=np.uint64(game.tied), namers=np.uint64(game.namers))
