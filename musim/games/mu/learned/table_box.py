"""The target tables the learned auction is trained on, and where a run's table leaves them.

Training draws each deal's table (selfplay.draw_table): the rulebook's, or the line
round(a + s b + q (b - H/2)^2 / H) with a, s uniform in BOX[n] and q in -1..1, clipped to the
points in play and made non-decreasing.  Every level's smallest and largest such target is the
range the model has seen; a run whose table leaves it at some level is still played, with a
warning, since the learned bidders' choices there extrapolate (docs/players.md).
"""

from functools import cache

import numpy as np

from musim.games.mu.rules import hand_size, rulebook_targets
from musim.games.mu.target_tables import points_in_play

# players -> (a_lo, a_hi, s_lo, s_hi) of the trained lines, around the rulebook's (docs/rules.md §2.8)
BOX = {3: (4, 18, 0, 3), 4: (22, 38, 0, 3), 5: (15, 32, 0, 4), 6: (10, 28, 0, 5)}
GRID = 21  # points along each of a, s and q when the range is measured


def line(n, a, s, q, cap):
    """Targets of bids 1..H of one drawn line (selfplay.draw_table's formula), non-decreasing."""
    h = hand_size(n)
    b = np.arange(1, h + 1, dtype=float)
    t = np.clip(np.floor(a + s * b + q * (b - h / 2.0) ** 2 / h + 0.5), 0, cap)
    return np.maximum.accumulate(t).astype(np.int64)


@cache
def trained_range(n):
    """(low, high) int64 arrays over bids 1..H: every level's smallest and largest trained target."""
    a_lo, a_hi, s_lo, s_hi = BOX[n]
    lines = [
        line(n, a, s, q, points_in_play(n))
        for a in np.linspace(a_lo, a_hi, GRID)
        for s in np.linspace(s_lo, s_hi, GRID)
        for q in np.linspace(-1.0, 1.0, GRID)
    ]
    lines.append(rulebook_targets()[n, 1 : hand_size(n) + 1])
    stack = np.array(lines)
    return stack.min(axis=0), stack.max(axis=0)


def outside(table, players):
    """{n: the bids (1..H) at which `table` ([n, bid]) leaves the trained range} of `players`."""
    out = {}
    for n in players:
        low, high = trained_range(n)
        t = table[n, 1 : hand_size(n) + 1]
        bids = [int(b) for b in np.flatnonzero((t < low) | (t > high)) + 1]
        if bids:
            out[n] = bids
    return out


def warning(table, players):
    """The warning of a run whose table leaves the trained range (None if it does not)."""
    out = outside(table, players)
    if not out:
        return None
    where = "; ".join(f"{n} players: bids {', '.join(map(str, b))}" for n, b in out.items())
    return (
        f"the learned auction was trained on target tables near the rulebook's (learned/table_box.py); this "
        f"table leaves that range at {where}: the learned bidders' choices there extrapolate"
    )
