"""The progress bar and the run-time estimates (musim/engine/progress.py, games/mu/estimates.py): the bar
moves as deals finish, not as chunks do; estimates come from measured costs and count the
work the command does; exact play's ETA and warning say how uncertain they are."""

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.engine import progress
from musim.engine.progress import Estimate, estimate_seconds
from musim.games.mu import estimates


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture
def updates(monkeypatch):
    """The counts every progress bar is updated by."""
    seen = []
    update = progress._Bar.update

    def record(self, n=1):
        seen.append(n)
        return update(self, n)

    monkeypatch.setattr(progress._Bar, "update", record)
    return seen


@pytest.mark.parametrize(
    "args, total",
    [
        (["run", "--deals", 300, "--players", 4, "--workers", 1], 300),  # one chunk of 2^15 deals
        (["run", "--matches", 40, "--players", 4, "--workers", 1], 40),  # one chunk of 64 matches
        (["run", "--game", "panther", "--deals", 300, "--players", 5, "--workers", 1], 300),
        (["bid", "--players", 4, "--hand", "R9 R8 R7 R7 R6 G9 G7 B1 K0 K3 Y2 Y5 Y9 Y8 B9", "--samples", 60], 60),
    ],
)
def test_the_bar_moves_as_deals_finish_not_as_chunks_do(args, total, updates, tmp_path):
    out = ["--out", tmp_path / "out"] if args[0] == "run" else []
    res = invoke(*args, "--seed", 3, *out, "--progress")
    assert res.exit_code == 0, res.output
    assert sum(updates) == total and updates[0] == 1 and len(updates) > 1  # the first deal alone, then more


def test_rows_are_the_same_whatever_the_progress_slices(tmp_path, monkeypatch):
    """Kernel calls of one deal each write the rows that calls of thousands do."""
    args = ["run", "--deals", 700, "--players", 5, "--seed", 8, "--workers", 2]
    assert invoke(*args, "--out", tmp_path / "a.parquet").exit_code == 0
    monkeypatch.setattr(progress, "SLICE_S", 0)  # never grows: a slice a deal
    assert invoke(*args, "--out", tmp_path / "b.parquet").exit_code == 0
    assert pq.read_table(tmp_path / "a.parquet").equals(pq.read_table(tmp_path / "b.parquet"))


def test_estimate_seconds_from_a_cost_table():
    table = {"deal": 0.01, "replay": 0.1}
    assert estimate_seconds([("deal", 1000), ("replay", 10)], 2, table, startup=3) == 3 + (10 + 1) / 2
    assert estimate_seconds([("deal", 1)], 8, table) == 0.01  # one deal keeps one worker busy
    assert estimate_seconds([("deal", 10), ("other", 1)], 2, table) is None  # not measured: no estimate
    assert estimate_seconds([("deal", 10), ("other", 0)], 2, table) == 0.05


def test_the_balance_estimate_counts_each_deal_and_its_replay_once(monkeypatch):
    """`musim balance --players 3,4,5,6 --deals 2e4` plays 80,000 deals and replays as many."""
    monkeypatch.setattr(estimates, "STARTUP_S", 2.0)
    monkeypatch.setattr(estimates, "REPORT_S", 5.0)
    table = {(job, n, "heuristic"): 0.001 for job in ("table", "strength") for n in (3, 4, 5, 6)}
    monkeypatch.setattr(estimates, "COSTS", table)
    seconds = estimates.balance_seconds([3, 4, 5, 6], 20_000, 20_000, "heuristic", 0, 2)
    assert seconds == pytest.approx(2 + 5 + (80_000 + 80_000) * 0.001 / 2)
    assert estimates.balance_seconds([3, 4, 5, 6], 20_000, 0, "heuristic", 0, 2) == pytest.approx(7 + 40)


def test_balance_says_its_long_estimate_in_deals_at_the_start(tmp_path, monkeypatch):
    table = {(job, n, "heuristic"): 10.0 for job in ("table", "strength") for n in (3, 4)}
    monkeypatch.setattr(estimates, "COSTS", table)
    args = ["balance", "--players", "3,4", "--deals", 100, "--strength-deals", 50, "--seed", 1, "--workers", 2]
    res = invoke(*args, "--out", tmp_path / "b", "--no-progress")
    assert res.exit_code == 0, res.output
    said = [line for line in res.output.splitlines() if line.startswith("musim: estimate")]
    # (200 deals + 100 replays) * 10 s / 2 workers, and the fixed costs
    assert said == [
        "musim: estimate: this run should take about "
        f"{progress.duration_text(1500 + estimates.STARTUP_S + estimates.REPORT_S)}"
        f" (200 deals, 100 replays). Faster: fewer --deals or --strength-deals 0."
    ]


def test_a_run_says_its_measured_estimate_at_once_and_never_projects_its_pace(tmp_path, monkeypatch):
    monkeypatch.setattr(estimates, "COSTS", {("deal", 3, "heuristic"): 30.0})
    res = invoke("run", "--deals", 50, "--players", 3, "--seed", 1, "--workers", 2, "--out", tmp_path / "r")
    assert res.exit_code == 0, res.output
    assert f"should take about {progress.duration_text(750 + estimates.STARTUP_S)} (50 deals)" in res.output
    heard = []
    estimate = Estimate(1000, "deal", "", heard.append, clock=lambda: 0.0, expected=60)
    for _ in range(1000):
        estimate.update(1)
    assert heard == []  # a short run by its costs: nothing said, whatever the pace


def test_a_dd_runs_eta_says_it_is_a_heavy_tailed_guess(tmp_path):
    args = ["run", "--players", 3, "--play", "dd", "--deals", 2, "--seed", 1, "--workers", 1]
    res = invoke(*args, "--progress", "--out", tmp_path / "dd")
    assert res.exit_code == 0, res.output
    assert "a guess, deals vary a thousandfold" in res.output
    res = invoke("run", "--players", 3, "--deals", 2, "--seed", 1, "--progress", "--out", tmp_path / "h")
    assert "ETA" in res.output and "a guess" not in res.output


def test_the_exact_play_warning_quotes_the_measured_times_and_what_they_imply(monkeypatch):
    from musim.games.mu.cli import slow_text

    monkeypatch.setattr(estimates, "DD_DEAL_SECONDS", {4: (1.0, 40.0, 300.0, 0.2), 5: (4.0, 60.0, 50.0, 0.05)})
    text = slow_text("dd", [4], items=100, workers=2)
    # 100 deals of a mean 300 s on 2 workers: 15,000 s; the tail past 10^9 nodes quoted
    assert "half of the 4-player deals measured took 1 s or more, a tenth 40 s or more, and 20 in 100" in text
    assert "pass 10^9 nodes (500 s or more each, some hours" in text
    assert "100 deals on 2 worker(s) ~ 4.2 hours or more (the mean deal 300 s or more)" in text
    text = slow_text("dd", [3, 4, 5], items=10, workers=1)
    assert "half of the 4, 5-player deals measured took 1, 4 s or more, a tenth 40, 60 s or more, and 20, 5" in text
    assert slow_text("dd", [3]) is None and slow_text("heuristic", [5]) is None
