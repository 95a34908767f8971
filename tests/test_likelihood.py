"""The likelihoods of weighted worlds (musim/play/likelihood.py) are probability distributions
over the legal choices, and the calibration table (musim/analysis/calibration.py) bins and
counts predictions as a direct count does."""

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from musim.analysis.calibration import calibration_table
from musim.play.likelihood import rule_choice, softmax_choice


@given(st.integers(1, 16), st.integers(0, 15), st.floats(0.0, 1.0))
def test_a_softened_rule_is_a_distribution_that_keeps_1_minus_eps_on_its_choice(options, ruled, eps):
    ruled %= options
    probs = [rule_choice(c, ruled, options, eps) for c in range(options)]
    assert abs(sum(probs) - 1.0) < 1e-12
    assert probs[ruled] == (1.0 if options == 1 else 1.0 - eps)


@given(st.lists(st.floats(-50, 50), min_size=1, max_size=16), st.floats(0.05, 20.0))
def test_the_softmax_is_numpys_softmax(values, tau):
    q = np.array(values)
    expected = np.exp((q - q.max()) / tau) / np.exp((q - q.max()) / tau).sum()
    got = [softmax_choice(q, len(q), c, tau) for c in range(len(q))]
    assert np.allclose(got, expected, rtol=1e-12, atol=1e-15)


def test_the_calibration_table_counts_each_bin_as_a_loop_does():
    rng = np.random.default_rng(5)
    p = rng.random(5000)
    frame = pd.DataFrame(
        {"game": "mu", "players": 4, "worlds": "uniform", "trick": rng.integers(1, 3, 5000), "p": p}
    ).assign(held=rng.random(5000) < p)
    table = calibration_table(frame)
    for row in table.itertuples():
        inside = (frame["trick"] == row.trick) & (frame["p"] >= row.bin_low) & (frame["p"] < row.bin_high)
        assert row.predictions == inside.sum()
        assert row.observed == frame.loc[inside, "held"].mean()
        assert row.observed_low <= row.observed <= row.observed_high
    assert table["predictions"].sum() == 5000
    # drawn from p itself: the observed rates follow the predictions
    assert np.corrcoef(table["predicted"], table["observed"])[0, 1] > 0.95
