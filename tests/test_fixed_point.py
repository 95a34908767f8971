"""The fair-step criterion and the fixed-point loop of `musim balance --rounds` (fixed_point.py).

Expected values come from docs/rules.md §2.8 scored here by the test's own code (`contract`),
from an exhaustive search over a toy's tables, or from the balance run's own score columns."""

import itertools

import numpy as np
import pandas as pd
import pytest

from musim.games.mu.analysis import fixed_point as fp
from tests.test_targets import error_line, invoke


def contract(b, x, a, table):
    """C_b of docs/rules.md §2.8 for team points x, bonus steps a, under table (bids 1..): the
    bonus 10 min(b + a, 10) if made, else -10 (b - r), r the largest bid whose target x reaches;
    0 for b = 0 (no contract)."""
    if b == 0:
        return np.zeros(np.shape(x), np.int64)
    t = np.asarray(table)
    r = (np.asarray(x)[..., None] >= t).sum(-1)
    return np.where(x >= t[b - 1], 10 * np.minimum(b + a, 10), -10 * (b - r))


def test_the_closed_form_is_the_mean_of_the_rescored_deals():
    """gains() from the histogram equals the mean of C_b - C_{b-1} over the deals, for random
    deals, kinds and non-decreasing tables (repeated targets included)."""
    rng = np.random.default_rng(5)
    for _ in range(30):
        levels, points = int(rng.integers(2, 16)), int(rng.choice([36, 60]))
        table = np.sort(rng.integers(0, points + 1, levels))
        n = int(rng.integers(1, 400))
        bids, kinds, x = rng.integers(1, levels + 1, n), rng.integers(0, fp.KINDS, n), rng.integers(0, points + 1, n)
        hist = fp.histogram(levels, points, bids, kinds, x)
        for b in np.unique(bids):
            sel = bids == b
            want = (contract(b, x[sel], kinds[sel], table) - contract(b - 1, x[sel], kinds[sel], table)).mean()
            lower = table[b - 2] if b > 1 else 0
            assert fp.gains(b, hist[b], lower)[table[b - 1]] == pytest.approx(want)


def test_a_real_balance_run_reads_its_delta_off_its_score_columns():
    """balance.csv's delta is chief_score - chief_score_one_less (the card points cancel), and the
    table in force is fair at a level exactly when its target lies within the fair interval."""
    from musim.games.mu.analysis.balance import analyse
    from musim.games.mu.params import MuParams

    t = analyse(MuParams(4), 600, 3, strength_deals=0).table
    both = t[t.fair.notna() & (t.bid >= 2)]
    assert len(both) >= 2
    np.testing.assert_allclose(both.delta, both.chief_score - both.chief_score_one_less, atol=1e-9)
    fair = (both.fair_low <= both.target) & (both.target <= both.fair_high)
    assert (both.fair.astype(bool) == fair).all()
    assert set(t.basis) <= set(fp.BASES) and (t.basis[t.deals < fp.MIN_DEALS] == "extrapolated").all()


def _random_hist(rng, levels, points):
    hist = np.zeros((levels + 1, fp.KINDS, points + 1), np.int64)
    for b in range(1, levels + 1):
        n = int(rng.choice([0, 5, 80, 1000]))
        mid = int(rng.integers(points // 3, points))
        x = np.clip(rng.normal(mid, 6, n).round().astype(int), 0, points)
        np.add.at(hist[b], (rng.integers(0, fp.KINDS, n), x), 1)
    return hist


def test_proposals_rise_strictly_and_say_their_basis():
    """Every proposal is strictly rising within the points in play (no level dominated: the next
    always needs more points), an interval holds the target where measured and none where
    extrapolated, and a measured target is its level's fair target given the proposed level below."""
    rng = np.random.default_rng(11)
    for _ in range(40):
        levels, points = int(rng.choice([10, 12, 15])), int(rng.choice([36, 60]))
        hist = _random_hist(rng, levels, points)
        p = fp.propose(hist, np.arange(levels) * 2 + 10, 1)
        if p is None:
            assert hist.sum((1, 2)).max() < fp.MIN_DEALS
            continue
        t = np.array(p.targets)
        assert (np.diff(t) >= 1).all() and t[0] >= 0 and t[-1] <= points
        deals = hist.sum((1, 2))[1:]
        for b in range(1, levels + 1):
            assert p.basis[b - 1] == fp.basis(deals[b - 1])
            if deals[b - 1] < fp.MIN_DEALS:
                assert np.isnan(p.low[b - 1])
                continue
            assert p.low[b - 1] <= t[b - 1] + 1 and t[b - 1] - 1 <= p.high[b - 1]
            lower = t[b - 2] if b > 1 else 0
            low, top = fp.bounds(b, levels, points, lower)
            g = fp.gains(b, hist[b], lower)
            if low < t[b - 1] < top:  # an interior fair target: the last paying one
                assert g[t[b - 1]] >= 0 > g[t[b - 1] + 1]


# The toy: each deal a strength s, a competition level m (the bid the others force) and team
# points s + e (e fixed per deal: common random numbers); the bidder bids the level >= m of
# highest expected contract result knowing s (not e), or passes when every one loses.
TOY_LEVELS, TOY_POINTS = 3, 30
_E = np.arange(-8, 9)
_PE = np.exp(-(_E**2) / 8.0) / np.exp(-(_E**2) / 8.0).sum()


def _toy_deals(n=20_000, seed=2):
    rng = np.random.default_rng(seed)
    s, m = rng.integers(4, 27, n), rng.integers(1, TOY_LEVELS + 1, n)
    return s, m, np.clip(s + rng.choice(_E, n, p=_PE), 0, TOY_POINTS)


def _toy_bids(table, s, m):
    xs = np.clip(np.arange(4, 27)[:, None] + _E, 0, TOY_POINTS)
    value = np.stack([(contract(b, xs, 0, table) * _PE).sum(1) for b in range(1, TOY_LEVELS + 1)], 1)[s - 4]
    value = np.where(np.arange(1, TOY_LEVELS + 1) >= m[:, None], value, -np.inf)
    return np.where(value.max(1) >= 0, value.argmax(1) + 1, 0)


def _exact_fixed_points(s, m, x):
    """Every strictly rising toy table whose bids make it its own fair-step table, by the test's
    own scoring: at each level (all with MEASURED deals) the target pays (or is the lowest it may
    be) and one more point would not (or it is the highest it may be)."""
    found = []
    for table in itertools.combinations(range(10, TOY_POINTS + 1), TOY_LEVELS):  # below 10 every hand bids and makes
        bids = _toy_bids(table, s, m)
        ok = True
        for b in range(1, TOY_LEVELS + 1):
            xb = x[bids == b]
            if len(xb) < fp.MEASURED:
                ok = False
                break
            up = list(table)
            up[b - 1] += 1
            here, above = ((contract(b, xb, 0, t) - contract(b - 1, xb, 0, t)).mean() for t in (table, up))
            lowest, highest = (table[b - 2] + 1 if b > 1 else 0), TOY_POINTS - TOY_LEVELS + b
            ok = ok and (table[b - 1] == lowest or here >= 0) and (table[b - 1] == highest or above < 0)
        if ok:
            found.append(table)
    return found


def test_the_loop_reaches_the_toys_fixed_point_from_the_rulebook_table():
    """From the rulebook's line the damped loop stops at a table fair at every level, one of the
    toy's fixed points found by exhaustive search; there most hands pass (a best-responding chief
    gains by its step, so only the bids competition forces pull the fair step to 0), which the
    loop calls `collapsed`."""
    s, m, x = _toy_deals()

    def measure(tables):
        out = {}
        for key, table in tables.items():
            bids = _toy_bids(table, s, m)
            on = bids > 0
            out[key] = fp.histogram(TOY_LEVELS, TOY_POINTS, bids[on], np.zeros(on.sum(), np.int64), x[on])
        return out

    start = [12, 14, 16]  # the rulebook's 3-player line, 10 + 2b, for three levels
    trace = fp.seek(measure, {3: start}, {3: TOY_POINTS}, 12, 0.5, 7, len(s))[3]
    assert trace.verdict == "collapsed" and len(trace.rounds) <= 12
    assert fp.is_fair(trace.rounds[-1][1]) and (_toy_bids(trace.final, s, m) > 0).mean() < fp.COVER
    assert tuple(trace.final) in _exact_fixed_points(s, m, x)
    for table, judged, _ in trace.rounds:
        assert (np.diff(table) >= 1).all() and judged.fair.notna().all()
    assert trace.rounds[-1][0] == trace.final


def test_a_table_reached_twice_is_reported_as_a_cycle():
    """A level whose deals flip with the table (fair target 11 under 10, 10 under 11) steps back
    and forth a point: the second visit of a table stops the loop as a cycle."""

    def measure(tables):
        x = 11 if tables[0][0] == 10 else 10
        return {0: fp.histogram(1, 20, np.ones(500, np.int64), np.zeros(500, np.int64), np.full(500, x))}

    trace = fp.seek(measure, {0: [10]}, {0: 20}, 10, 0.5, 1, 500)[0]
    assert trace.verdict == "cycle" and [t for t, _, _ in trace.rounds] == [[10], [11]] and trace.final == [10]


def test_balance_rounds_cli_writes_the_trace_and_a_table_balance_reads(tmp_path):
    out = tmp_path / "fp"
    common = ["balance", "--players", "3", "--deals", 3000, "--seed", 4]
    res = invoke(*common, "--rounds", 2, "--alpha", 0.5, "--out", out)
    assert res.exit_code == 0, res.output
    trace = pd.read_csv(out / "fixed_point.csv")
    assert set(trace["round"]) <= {1, 2} and len(trace) == 12 * trace["round"].nunique()
    proposed = pd.read_csv(out / "proposed_targets.csv")
    assert list(proposed.columns) == ["players", "bid", "target"] and (proposed.target.diff().dropna() >= 1).all()
    last = trace[trace["round"] == trace["round"].max()]
    assert proposed.target.tolist() == last.next_target.tolist() or "balanced" in (out / "fixed_point.md").read_text()
    assert (out / "fixed_point.png").stat().st_size > 0 and (out / "round_1" / "balance.csv").exists()
    if trace["round"].max() == 2:  # round 2 played round 1's next table on the same deals
        assert trace[trace["round"] == 2].target.tolist() == trace[trace["round"] == 1].next_target.tolist()
    again = invoke(*common, "--targets", out / "proposed_targets.csv", "--strength-deals", 0, "--out", tmp_path / "b")
    assert again.exit_code == 0, again.output


@pytest.mark.parametrize(
    "args, said",
    [
        (["--rounds", 0], "--rounds"),
        (["--rounds", "x"], "--rounds"),
        (["--rounds", 2, "--alpha", 0], "--alpha"),
        (["--rounds", 2, "--alpha", 1.5], "--alpha"),
        (["--rounds", 2, "--auction", "cautious,bold"], "--rounds"),
    ],
)
def test_bad_rounds_and_alpha_are_one_line_errors(tmp_path, args, said):
    res = invoke("balance", "--players", "3", "--deals", 50, *args, "--out", tmp_path / "x")
    assert res.exit_code == 2 and said in error_line(res)
