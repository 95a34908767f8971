"""The "fair step" criterion of a balanced target table, its proposal, and the damped loop that
seeks the table that is its own proposal (`musim balance --rounds K`).  numpy only.

Criterion (docs/players.md): level b is fair when the chiefs who bid b would have scored on
average the same contract result had they bid b-1 on the same deals (level 1: had there been no
contract): Delta_b = mean over the deals bid at b of C_b - C_{b-1} = 0, C the bonus or penalty
of docs/rules.md §2.8 under the table (the card points cancel: Delta_b is `chief_score` minus
`chief_score_one_less`).  Under a non-decreasing table T, a deal of team points X whose chief
trump has bonus steps a (rules.trump_extra) gives C_b - C_{b-1} =
    +10 if b + a <= 10, else 0      X >= T[b]              (both made)
    -10 - 10 min(b - 1 + a, 10)     T[b-1] <= X < T[b]     (b fails by one rank, b-1 made)
    -10                             X < T[b-1]             (both fail, the same rank)
(level 1: +10 min(1 + a, 10) if made, else -10), so Delta_b is a function of the histogram of
(a, X) over the deals bid at b, and does not increase with T[b].  Its *root* is the largest
target t in T[b-1]+1 .. points - (levels - b) with Delta_b(t) >= 0 (its lowest if none: a
`floor` level, which no target makes pay, as levels whose bonus is capped): a strictly rising
table, so no level is dominated (one whose next needs no more points: the next pays at least as
much for the same cards), with room left for the levels above it.
"""

from collections import namedtuple

import numpy as np
import pandas as pd

KINDS = 4  # bonus steps of the chief trump: colour 0, number 1 or 7: 1, other number 2, none 3
MIN_DEALS = 30  # a level with fewer deals has no root: its target is extrapolated
MEASURED = 300  # a level with fewer deals (and at least MIN_DEALS) is marked `too few deals`
BOOTSTRAP = 400  # resamples of a level's histogram for the intervals (95%: their 2.5 and 97.5 percentiles)
BASES = ("measured", "too few deals", "extrapolated")
COVER = 0.5  # a table is judged balanced only when its judged levels hold this share of the deals


def histogram(levels, points, bids, kinds, team):
    """h[b, a, X]: how many deals were bid at b (1..levels) with bonus steps a and team points X."""
    h = np.zeros((levels + 1, KINDS, points + 1), np.int64)
    np.add.at(h, (bids, kinds, np.clip(team, 0, points)), 1)
    return h


def _pays(b):
    """(made[a], short[a], both): C_b - C_{b-1} where b is made, fails by one rank, and both fail."""
    a = np.arange(KINDS)
    if b == 1:
        return 10 * np.minimum(1 + a, 10), np.full(KINDS, -10), -10
    return 10 * (b + a <= 10), -10 - 10 * np.minimum(b - 1 + a, 10), -10


def gains(b, counts, lower):
    """Delta_b(t) for every target t = 0..points (meaningful for t > lower) from the level's
    histogram counts[..., a, X]; lower: T[b-1] (ignored at level 1).  Leading axes: resamples."""
    made, short, both = _pays(b)
    lower = 0 if b == 1 else min(lower, counts.shape[-1] - 1)
    tail = np.flip(np.cumsum(np.flip(counts, -1), -1), -1)  # tail[..., a, t]: deals with X >= t
    total = counts.sum(-1)
    above = tail[..., lower, None]  # X >= T[b-1]
    sums = made[:, None] * tail + short[:, None] * (above - tail) + both * (total[..., None] - above)
    n = np.maximum(counts.sum((-2, -1)), 1)
    return sums.sum(-2) / n[..., None]


def bounds(b, levels, points, lower):
    """The targets level b may take: above the level below (0 up at level 1), leaving one more
    point for each level above."""
    top = points - (levels - b)
    low = 0 if b == 1 else min(lower + 1, top)
    return low, top


def roots(b, counts, lower, levels, points):
    """(root, floor) of level b for each histogram counts[..., a, X] (module doc)."""
    low, top = bounds(b, levels, points, lower)
    g = gains(b, counts, lower)[..., low : top + 1]
    paying = (g >= 0).sum(-1)  # Delta_b falls with t: the paying targets are those from `low` up
    return low + np.maximum(paying - 1, 0), paying == 0


def resamples(counts, rng, size=BOOTSTRAP):
    """`size` multinomial resamples of a level's histogram (a bootstrap over its deals)."""
    n = int(counts.sum())
    draws = rng.multinomial(n, counts.ravel() / max(n, 1), size=size)
    return draws.reshape((size,) + counts.shape)


def _interval(values):
    return np.percentile(values, [2.5, 97.5])


def basis(deals):
    """How a level's target is found: measured, too few deals (a root, wide interval), extrapolated."""
    return BASES[0] if deals >= MEASURED else BASES[1] if deals >= MIN_DEALS else BASES[2]


def _rng(seed, b):
    return np.random.default_rng([seed, b])


def judged_in_force(hist, table, seed):
    """Per level, the table in force judged by the criterion: Delta_b at its targets and the
    95% intervals of Delta_b and of the root (the level below as it is), and whether the
    target lies within the root's interval (`fair`; levels with MIN_DEALS deals alone)."""
    levels, points = hist.shape[0] - 1, hist.shape[2] - 1
    rows = []
    for b in range(1, levels + 1):
        counts, lower, t = hist[b], int(table[b - 2]) if b > 1 else 0, int(table[b - 1])
        deals = int(counts.sum())
        row = dict(bid=b, deals=deals, basis=basis(deals))
        if deals >= MIN_DEALS:
            boot = resamples(counts, _rng(seed, b))
            root_boot, _ = roots(b, boot, lower, levels, points)
            delta_lo, delta_hi = _interval(gains(b, boot, lower)[:, t])
            fair_lo, fair_hi = _interval(root_boot)
            root, floor = roots(b, counts, lower, levels, points)
            row |= dict(delta=float(gains(b, counts, lower)[t]), delta_low=delta_lo, delta_high=delta_hi)
            row |= dict(root=int(root), root_low=int(np.floor(fair_lo)), root_high=int(np.ceil(fair_hi)))
            row |= dict(floor=bool(floor), fair=bool(np.floor(fair_lo) <= t <= np.ceil(fair_hi)))
        rows.append(row)
    return pd.DataFrame(rows)


Proposal = namedtuple("Proposal", "targets low high basis slope")
Proposal.__doc__ = """A proposed table (targets of bids 1..levels, or None where no level has
MIN_DEALS deals), each target's 95% interval (NaN where extrapolated), basis, and the slope the
extrapolated levels follow."""


def _slope(done, fallback):
    """Points a level of the proposal's levels with data so far ({bid: (target, deals)}):
    their least-squares line weighted by deals, at least 1; `fallback` with fewer than two."""
    if len(done) < 2:
        return fallback
    bids = np.array(list(done))
    targets, weights = np.array(list(done.values()), float).T
    return max(float(np.polyfit(bids, targets, 1, w=np.sqrt(weights))[0]), 1.0)


def propose(hist, table, seed):
    """The proposal of the criterion (module doc): from the lowest level with MIN_DEALS deals
    upward, each such level's root given the proposed level below (its interval by the bootstrap,
    that level held), each other level continued from the one below along the slope of the
    proposed levels with data (the table in force's mean slope while there are fewer than two),
    and the levels below the first continued down (the first found again given them); then made
    strictly rising within the points."""
    levels, points = hist.shape[0] - 1, hist.shape[2] - 1
    deals = hist.sum((1, 2))
    data = [b for b in range(1, levels + 1) if deals[b] >= MIN_DEALS]
    if not data:
        return None
    fallback = max((table[-1] - table[0]) / max(levels - 1, 1), 1.0)
    out, low, high = np.zeros(levels + 1, np.int64), np.full(levels + 1, np.nan), np.full(levels + 1, np.nan)
    first = data[0]
    out[first - 1] = table[first - 2] if first > 1 else 0  # the level below the first, as in force for now
    slope = _slope(_upward(hist, out, low, high, first, fallback, seed), fallback)
    for b in range(first - 1, 0, -1):  # continued down, at least 0, 1, 2, ...: rising keeps them
        out[b] = max(round(out[b + 1] - slope), b - 1)
    slope = _slope(_upward(hist, out, low, high, first, fallback, seed), fallback)  # given those
    targets = rising(out[1:], points)
    return Proposal(targets, low[1:], high[1:], [basis(int(k)) for k in deals[1:]], slope)


def _upward(hist, out, low, high, first, fallback, seed):
    """Fill out[b], low[b], high[b] from level `first` up (propose); returns {bid: (target, deals)}
    of the levels with data."""
    levels, points = hist.shape[0] - 1, hist.shape[2] - 1
    done = {}
    for b in range(first, levels + 1):
        lower, counts = int(out[b - 1]), hist[b]
        if counts.sum() >= MIN_DEALS:
            out[b] = roots(b, counts, lower, levels, points)[0]
            low[b], high[b] = _interval(roots(b, resamples(counts, _rng(seed, b)), lower, levels, points)[0])
            done[b] = (out[b], counts.sum())
        else:
            out[b] = min(round(out[b - 1] + _slope(done, fallback)), points - (levels - b))
    return done


def rising(targets, points):
    """targets (bids 1..) made strictly rising within 0..points: each at least one above the one
    below, then each at most one below the one above (the top at most `points`)."""
    t = np.maximum.accumulate(np.asarray(targets, np.int64) - np.arange(len(targets))) + np.arange(len(targets))
    t = np.maximum(t, np.arange(len(targets)))
    cap = points - (len(targets) - 1 - np.arange(len(targets)))
    return np.minimum(t, cap).tolist()


def damped(table, goal, fair, alpha, signs, points):
    """The next table of the loop, with each level's gain and last step sign: a level whose
    target is fair stays, any other steps towards its goal by alpha of the way (at least one
    point), its gain halved each time its step changes sign (a decreasing Robbins-Monro gain);
    then made strictly rising (`rising`)."""
    t = np.asarray(table, np.int64)
    d = np.asarray(goal, np.int64) - t
    s = np.where(np.asarray(fair, bool), 0, np.sign(d))
    alpha = np.where((s != 0) & (signs != 0) & (s != signs), alpha / 2, alpha)
    step = s * np.maximum(1, np.round(alpha * np.abs(d))).astype(np.int64)
    return rising(t + step, points), alpha, np.where(s != 0, s, signs)


def is_fair(judged):
    """Every judged level (those with MIN_DEALS deals) fair; None where no level is judged."""
    fair = judged.fair.dropna() if "fair" in judged else judged.bid[:0]
    return None if fair.empty else bool(fair.astype(bool).all())


Trace = namedtuple("Trace", "rounds verdict final")
Trace.__doc__ = """The loop of one player count: rounds, a list of (table, judged, proposal) per
round played; verdict: `balanced`, `cycle`, `not balanced` (K rounds) or `collapsed` (fair, or
nothing to propose, on levels holding less than COVER of the deals: most end unplayed); final:
the table it proposes (the balanced one, or the next it would play)."""


class Seeker:
    """The damped fixed-point loop of one player count's table (module doc, docs/players.md)."""

    def __init__(self, table, points, alpha, seed, deals):
        self.table, self.points, self.seed, self.deals = list(table), points, seed, deals
        self.alpha = np.full(len(table), float(alpha))
        self.signs = np.zeros(len(table), np.int64)
        self.seen, self.rounds, self.verdict = [tuple(table)], [], None

    def observe(self, hist):
        """Judge the table in force on its deals' histogram and take the next; sets `verdict`
        when the loop stops (balanced, a cycle, or nothing to propose)."""
        judged = judged_in_force(hist, self.table, self.seed)
        proposal = propose(hist, self.table, self.seed)
        self.rounds.append((self.table, judged, proposal))
        covered = judged.deals[judged.deals >= MIN_DEALS].sum() >= COVER * self.deals
        if is_fair(judged) or proposal is None:
            self.verdict = "balanced" if covered else "collapsed"
            return
        fair = judged.fair.fillna(False).astype(bool).to_numpy() if "fair" in judged else np.zeros(len(self.table))
        own = judged.root.to_numpy() if "root" in judged else np.full(len(self.table), np.nan)
        goal = np.where(np.isnan(own), proposal.targets, own)  # a judged level's own root, the level below as it is
        nxt, self.alpha, self.signs = damped(self.table, goal, fair, self.alpha, self.signs, self.points)
        self.table = nxt
        if tuple(nxt) in self.seen:
            self.verdict = "cycle"
        self.seen.append(tuple(nxt))

    def trace(self):
        return Trace(self.rounds, self.verdict or "not balanced", self.table)


def seek(measure, start, points, rounds, alpha, seed, deals):
    """{key: Trace} of the loop from the tables `start` ({key: targets of bids 1..}; `points`
    {key: points in play}) over at most `rounds` rounds: each round measure({key: table}) ->
    {key: histogram} bids and plays the same `deals` deals under each table still looking."""
    seekers = {k: Seeker(t, points[k], alpha, seed, deals) for k, t in start.items()}
    for _ in range(rounds):
        active = {k: s for k, s in seekers.items() if s.verdict is None}
        if not active:
            break
        hists = measure({k: s.table for k, s in active.items()})
        for k, s in active.items():
            s.observe(hists[k])
    return {k: s.trace() for k, s in seekers.items()}
