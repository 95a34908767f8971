"""Interval estimates shared by the analyses (95% by default)."""

import math

import numpy as np

Z95 = 1.959963984540054


def samples_for_margin(margin, z=Z95):
    """Samples that give a rate's 95% interval a half-width of at most `margin` (worst case p = 1/2)."""
    return math.ceil((z * 0.5 / margin) ** 2)


def wilson(successes, n, z=Z95):
    """Wilson score interval (low, high) of a rate; works elementwise on arrays, (nan, nan) for n = 0."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))  # exact ends where rounding misses them
    hi = np.where(k == n, 1.0, np.clip(centre + half, 0.0, 1.0))
    return lo, hi


def mean_interval(values, axis=0, z=Z95):
    """(mean, low, high): the normal-approximation interval of a mean along `axis`."""
    x = np.asarray(values, dtype=float)
    m = x.mean(axis=axis)
    n = x.shape[axis]
    half = z * x.std(axis=axis, ddof=1) / math.sqrt(n) if n > 1 else np.full_like(m, np.nan)
    return m, m - half, m + half


def mean_interval_from_sums(n, total, total_sq, z=Z95):
    """(mean, low, high) as mean_interval, from the count, sum and sum of squares (running totals)."""
    m = total / n
    if n < 2:
        return m, math.nan, math.nan
    var = max(total_sq - total * m, 0.0) / (n - 1)
    half = z * math.sqrt(var / n)
    return m, m - half, m + half


def newcombe(k1, n1, k2, n2, z=Z95):
    """(p2 - p1, low, high): Newcombe's hybrid score interval of the difference of two independent
    rates k1/n1 and k2/n2, from each rate's Wilson interval: sound near 0% and 100%, where the Wald
    interval collapses to a point."""
    p1, p2 = k1 / n1, k2 / n2
    (l1, u1), (l2, u2) = (tuple(map(float, wilson(k, n, z))) for k, n in ((k1, n1), (k2, n2)))
    d = p2 - p1
    return d, d - math.hypot(p2 - l2, u1 - p1), d + math.hypot(u2 - p2, p1 - l1)


def mean_difference_interval(x, y, z=Z95):
    """(mean(y) - mean(x), low, high): the normal-approximation interval of the difference of two
    independent means, with Welch's standard error (each sample's own variance); nan ends with
    fewer than 2 values in a sample."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    d = float(y.mean() - x.mean())
    if len(x) < 2 or len(y) < 2:
        return d, math.nan, math.nan
    half = z * math.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y))
    return d, d - half, d + half
