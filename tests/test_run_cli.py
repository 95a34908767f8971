"""`musim run`: argument checking, Parquet contract and metadata, reproducibility, atomic output."""

import json
import threading

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.engine import parquet
from musim.engine.local import chunk_starts, run_ordered
from musim.engine.parquet import read_metadata
from musim.games.mu import columns as mu_columns
from musim.games.mu import run as mu_run
from musim.games.mu.params import MuParams

REQUIRED = [
    "deal",
    "players",
    "dealer",
    "outcome",
    "chief",
    "vice",
    "partner",
    "bid",
    "chief_trump",
    "vice_trump",
    "target",
    "team_points",
    "success",
    "shortfall",
    "bonus",
    "scores",
    "card_points",
    "hands",
    "laid",
]


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_run_writes_the_contract_columns(tmp_path):
    out = tmp_path / "x.parquet"
    res = invoke(
        "run", "--game", "mu", "--deals", "2.5e3", "--players", 5, "--play", "random", "--seed", 7, "--out", out
    )
    assert res.exit_code == 0, res.output
    table = pq.read_table(out)
    assert table.num_rows == 2500
    assert all(name in table.column_names for name in REQUIRED)
    assert table.schema.field("deal").type == "int64"
    df = table.to_pandas()
    assert df["deal"].tolist() == list(range(2500))
    assert set(df["outcome"]) == {"played", "eklat"}
    played = df[df["outcome"] == "played"]
    assert (played["card_points"].map(sum) == 60).all()
    assert played["chief_trump"].notna().all()
    assert df.loc[df["outcome"] == "eklat", "chief"].isna().all()
    assert (df["scores"].map(len) == 5).all() and (df["hands"].map(len) == 5).all()
    assert [c for c in table.column_names if c.startswith("score_")] == [f"score_{i}" for i in range(5)]
    for i in range(5):  # every game's per-seat score columns, the same as Mü's scores list
        assert table.schema.field(f"score_{i}").type == "int16"
        assert (df[f"score_{i}"] == df["scores"].map(lambda s, i=i: s[i])).all()
    meta = read_metadata(out)
    assert meta["seed"] == 7 and meta["params"]["players"] == 5 and meta["policy"] == "random"
    assert "eklat rate" in res.output and "by bid level" in res.output and "seat advantage" in res.output


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_same_seed_same_rows_whatever_the_workers(tmp_path, workers):
    reference = tmp_path / "ref.parquet"
    mu_run_chunk = mu_run.CHUNK_DEALS
    mu_run.CHUNK_DEALS = 1000  # several chunks in flight at once
    try:
        assert (
            invoke(
                "run", "--play", "heuristic", "--deals", 4321, "--seed", 3, "--workers", 1, "--out", reference
            ).exit_code
            == 0
        )
        out = tmp_path / f"w{workers}.parquet"
        assert (
            invoke(
                "run", "--play", "heuristic", "--deals", 4321, "--seed", 3, "--workers", workers, "--out", out
            ).exit_code
            == 0
        )
    finally:
        mu_run.CHUNK_DEALS = mu_run_chunk
    assert pq.read_table(out).equals(pq.read_table(reference))


def test_small_chunks_are_gathered_into_row_groups(tmp_path, monkeypatch):
    reference = tmp_path / "ref.parquet"
    assert invoke("run", "--play", "heuristic", "--deals", 1000, "--seed", 4, "--out", reference).exit_code == 0
    monkeypatch.setattr(mu_run, "CHUNK_DEALS", 7)
    monkeypatch.setattr(parquet, "ROW_GROUP_ROWS", 300)
    out = tmp_path / "small.parquet"
    assert invoke("run", "--play", "heuristic", "--deals", 1000, "--seed", 4, "--out", out).exit_code == 0
    meta = pq.ParquetFile(out).metadata
    # chunks of 7 rows gathered until 300 are reached: 43 chunks (301 rows) a group
    assert [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == [301, 301, 301, 97]
    assert pq.read_table(out).equals(pq.read_table(reference))


def test_a_slow_chunk_does_not_hold_back_the_small_ones_behind_it():
    ran, first_saw = [], []
    others_ran = threading.Event()

    def work(start, count):
        if start == 0:
            first_saw.append(others_ran.wait(timeout=10))
        else:
            ran.append(start)
            if len(ran) == 40:
                others_ran.set()
        return start

    assert list(run_ordered(work, chunk_starts(60, 1), workers=2)) == list(range(60))
    assert first_saw == [True]  # 40 later chunks ran while the first one waited


def test_progress_counts_chunks_as_they_finish_whatever_their_order():
    finished, first_saw = [], []
    ten_done = threading.Event()

    def work(start, count):
        if start == 0:
            first_saw.append(ten_done.wait(timeout=10))
        return start

    def done(count):
        finished.append(count)
        if len(finished) == 10:
            ten_done.set()

    assert list(run_ordered(work, chunk_starts(30, 1), workers=2, done=done)) == list(range(30))
    assert first_saw == [True] and len(finished) == 30  # ten later chunks counted while the first ran


@pytest.mark.slow  # exact play over many deals: the slow tier
def test_run_plays_heuristic_by_default_and_double_dummy_on_request(tmp_path):
    out = tmp_path / "h.parquet"
    assert invoke("run", "--deals", 6, "--players", 3, "--seed", 5, "--out", out).exit_code == 0
    assert read_metadata(out)["policy"] == "heuristic"
    out = tmp_path / "dd.parquet"
    res = invoke("run", "--deals", 6, "--players", 3, "--play", "dd", "--seed", 5, "--workers", 1, "--out", out)
    assert res.exit_code == 0, res.output
    assert read_metadata(out)["policy"] == "dd"
    assert "dd play (cautious auction, heuristic trumps and partner, exact double-dummy" in res.output
    df = pq.read_table(out).to_pandas()
    played = df[df.outcome == "played"]
    assert len(played) > 0 and (played.team_points == played.dd_value).all()
    assert (played.solve_ms >= 0).all() and df.loc[df.outcome == "eklat", "dd_value"].isna().all()


def test_run_without_seed_records_one_that_reproduces(tmp_path):
    first = tmp_path / "a.parquet"
    assert invoke("run", "--play", "heuristic", "--deals", 300, "--out", first).exit_code == 0
    seed = read_metadata(first)["seed"]
    again = tmp_path / "b.parquet"
    assert invoke("run", "--play", "heuristic", "--deals", 300, "--seed", seed, "--out", again).exit_code == 0
    assert pq.read_table(first).equals(pq.read_table(again))


def test_matches_write_one_row_per_match(tmp_path):
    out = tmp_path / "m.parquet"
    res = invoke("run", "--play", "heuristic", "--matches", 20, "--players", 3, "--seed", 1, "--out", out)
    assert res.exit_code == 0, res.output
    df = pq.read_table(out).to_pandas()
    assert len(df) == 20
    assert (df["totals"].map(max) >= 200).all()
    assert (df["chief_counts"].map(sum) + df["eklats"] == df["deals"]).all()
    for _, row in df.iterrows():
        best = max(row["totals"])
        assert list(row["winners"]) == [s for s, t in enumerate(row["totals"]) if t == best]
        if len(row["winners"]) == 1:
            assert row["winner"] == row["winners"][0]
        else:
            assert pd.isna(row["winner"])
    assert read_metadata(out)["params"]["mode"] == "matches"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--deals", "1.5"], "not a whole number"),
        (["--deals", "0"], "at least 1"),
        (["--deals", "-3"], "at least 1"),
        (["--deals", "abc"], "not a number"),
        (["--deals", "1e400"], "more than"),
        (["--deals", "10", "--players", "7"], "7"),
        (["--deals", "10", "--players", "2"], "2"),
        (["--deals", "10", "--workers", "0"], "0"),
        (["--deals", "10", "--matches", "3"], "exactly one"),
        ([], "exactly one"),
        (["--deals", "10", "--game", "chess"], "unknown game"),
        (["--deals", "10", "--play", "psychic"], "psychic"),
        (["--deals", "10", "--seed", "-1"], "-1"),
        (["--deals", "10", "--play", "heuristic", "--dd-tricks", "3"], "--play dd"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(args, message):
    res = invoke("run", *args)
    assert res.exit_code == 2
    assert message in res.output
    assert "Traceback" not in res.output and "warning" not in res.output


def test_record_prints_the_deals_game_record_and_checks_its_options():
    res = invoke("record", "--seed", 5, "--deal", 3)  # a default run's: 4 players, heuristic
    assert res.exit_code == 0 and json.loads(res.output) == mu_run.deal_record(MuParams(4, "heuristic"), 5, 3)
    res = invoke("record", "--players", 4, "--play", "heuristic", "--dd-tricks", 3, "--seed", 5, "--deal", 3)
    assert res.exit_code == 2 and "--dd-tricks applies only with --play dd" in res.output


@pytest.mark.parametrize(
    "players, dd_tricks, warned",
    [
        ([3], 0, False),
        ([4], 0, True),
        ([3, 5], 0, True),
        ([5], 8, False),
        ([5], 12, True),
        ([4, 6], 10, True),
        ([4, 6], 9, False),
    ],
)
def test_the_slow_play_warning_comes_when_some_deal_is_wholly_double_dummy(players, dd_tricks, warned, capsys):
    """Only 4+ player deals of which every trick (hand_size: 15, 12, 10 at 4-6) is double-dummy are slow."""
    from musim.games.mu.cli import warn_if_slow

    warn_if_slow("dd", players, dd_tricks)
    warn_if_slow("heuristic", players, dd_tricks)
    assert capsys.readouterr().err.count("warning") == warned


def test_refuses_to_overwrite(tmp_path):
    out = tmp_path / "x.parquet"
    out.write_text("precious")
    res = invoke("run", "--play", "heuristic", "--deals", 10, "--out", out)
    assert res.exit_code == 2 and "--overwrite" in res.output
    assert out.read_text() == "precious"
    assert invoke("run", "--play", "heuristic", "--deals", 10, "--out", out, "--overwrite").exit_code == 0
    assert pq.read_table(out).num_rows == 10


def test_failed_run_leaves_no_file(tmp_path, monkeypatch):
    out = tmp_path / "x.parquet"
    calls = []
    batch = mu_columns.deal_batch

    def failing_batch(chunk):
        calls.append(chunk)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return batch(chunk)

    monkeypatch.setattr(mu_run, "CHUNK_DEALS", 100)
    monkeypatch.setattr(mu_columns, "deal_batch", failing_batch)
    res = invoke("run", "--play", "heuristic", "--deals", 1000, "--seed", 1, "--out", out)
    assert res.exit_code != 0
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_run_without_out_writes_a_default_directory_it_names_first(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = invoke("run", "--deals", 200, "--players", 6)
    assert res.exit_code == 0, res.stderr
    seed = int(res.stdout.splitlines()[0].split("seed ")[1].split(":")[0])
    path = f"runs/mu-6p-heuristic-seed{seed}"
    said = f"musim: writing the rows to {path}/ (--out names another directory, or a .parquet file)"
    assert res.stderr.splitlines()[0] == said
    assert res.stdout.splitlines()[-1].endswith(f"written to {path}")
    assert pq.read_table(path).num_rows == 200 and read_metadata(path)["seed"] == seed
    again = invoke("run", "--deals", 200, "--players", 6, "--seed", seed)
    assert again.exit_code == 2 and "--overwrite" in again.output


def test_a_default_directory_names_a_flag_by_its_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = invoke("run", "--game", "rummue", "--players", 4, "--teams", "--deals", 50, "--seed", 1)
    assert res.exit_code == 0, res.stderr
    assert pq.read_table("runs/rummue-4p-heuristic-teams-seed1").num_rows == 50


@pytest.mark.parametrize("name", ["x.csv", "x.parquet.tmp"])
def test_an_out_that_is_neither_a_directory_name_nor_parquet_is_refused(tmp_path, name):
    res = invoke("run", "--deals", 10, "--out", tmp_path / name)
    assert res.exit_code == 2 and "ending in .parquet" in res.output and "Traceback" not in res.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("mode", [["--deals", 3000, "--players", 5, "--play", "random"], ["--matches", 30]])
def test_summary_prints_the_runs_summary_again(tmp_path, mode):
    out = tmp_path / "r.parquet"
    res = invoke("run", *mode, "--seed", 8, "--out", out)
    assert res.exit_code == 0, res.output
    again = invoke("summary", out)
    assert again.exit_code == 0, again.output
    assert again.stdout.splitlines() == res.stdout.splitlines()[:-1]  # all but the timing line


def test_the_summary_agrees_with_the_rows(tmp_path):
    """Eklat rate, success by bid and seat advantage recomputed from the rows with pandas."""
    from musim.analysis.stats import mean_interval, wilson

    out = tmp_path / "r.parquet"
    res = invoke("run", "--deals", 4000, "--players", 5, "--play", "random", "--seed", 9, "--out", out)
    df = pq.read_table(out).to_pandas()
    eklats = (df.outcome == "eklat").sum()
    lo, hi = wilson(eklats, len(df))
    assert f"eklat rate: {eklats / len(df):.2%} [{lo:.2%}, {hi:.2%}] [95% interval], {eklats:,} eklats" in res.output
    bid3 = df[(df.outcome == "played") & (df.bid == 3)]
    row = next(line.split() for line in res.output.splitlines() if line.split()[:1] == ["3"])
    assert row[1] == f"{len(bid3):,}" and row[2] == f"{bid3.success.mean():.2%}"
    assert row[5] == f"{bid3.team_points.mean():.2f}"
    scores = [list(s) for s in df.scores]
    position = [[s[(d + k) % 5] - sum(s) / 5 for k in range(5)] for s, d in zip(scores, df.dealer)]
    mean, low, high = mean_interval(position)
    lines = res.output.splitlines()
    seats = lines[lines.index(next(x for x in lines if x.startswith("seat advantage"))) + 1 :][:5]
    for line, m, a, b in zip(seats, mean, low, high):
        assert line.split(None, 1)[1] == f"{m:+.2f} [{a:+.2f}, {b:+.2f}]"


@pytest.mark.parametrize("content", [None, b"deal,players\n1,4\n", "plain parquet"])
def test_summary_of_a_file_that_is_no_run_fails_in_one_line(tmp_path, content):
    path = tmp_path / "x.parquet"
    if content == "plain parquet":
        import pyarrow as pa

        pq.write_table(pa.table({"deal": [1]}), path)
    elif content is not None:
        path.write_bytes(content)
    res = invoke("summary", path)
    errors = [line for line in res.output.splitlines() if line.startswith("Error:")]
    assert res.exit_code == 2 and len(errors) == 1 and str(path) in errors[0] and "Traceback" not in res.output


@pytest.mark.parametrize(
    "updates, total, said",
    [
        # (seconds since start, items done) at each update; the pace is measured from the first update
        ([(60, 100), (66, 200)], 10_000, True),  # a minute compiling, then 0.06 s an item: 11 minutes in all
        ([(60, 100), (66, 200)], 5_000, False),  # the same pace, 6 minutes in all
        ([(1, 1), (3, 2), (7, 3)], 1_000, True),  # measured at 7 s: 3 s an item, 50 minutes in all
        ([(1, 1), (3, 2)], 1_000, False),  # not measured yet: under 5 s since the first update
        ([(1, 1), (7, 1000)], 1_000, False),  # done
    ],
)
def test_the_long_run_estimate(updates, total, said):
    from musim.engine.progress import Estimate

    now, heard = [0.0], []
    estimate = Estimate(total, "deal", " Faster: fewer --deals.", heard.append, clock=lambda: now[0])
    done = 0
    for t, d in updates:
        now[0] = t
        estimate.update(d - done)
        done = d
    assert len(heard) == int(said)
    if said:
        assert heard[0].startswith("musim: estimate: this run may take") and heard[0].endswith("fewer --deals.")
        now[0] += 1000
        estimate.update(1)
        assert len(heard) == 1  # said once


def test_the_progress_bar_draws_the_last_of_a_burst_of_updates():
    """Two deals that finish together must both show while the next one runs for an hour:
    plain tqdm skips drawing updates 0.1 s apart and draws nothing until the next one."""
    import io

    from musim.engine.progress import progress_bar

    out = io.StringIO()
    with progress_bar(10, "deal", True, file=out) as bar:
        bar.update(1)
        bar.update(1)
        bar.update(1)
        assert out.getvalue().split("\r")[-1].lstrip().startswith("30%")
        assert "ETA" in out.getvalue()


def test_python_dash_m_musim_is_the_musim_command():
    """`python -m musim` runs a checkout's own code, whatever musim is installed."""
    import subprocess
    import sys

    res = subprocess.run(
        [sys.executable, "-m", "musim", "run", "--deals", "5", "--players", "2"], capture_output=True, text=True
    )
    assert res.returncode == 2 and "--players" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.slow
def test_an_interrupted_dd_balance_stops_at_once_and_keeps_its_finished_deals(tmp_path):
    """SIGTERM (or Ctrl-C) ends a double-dummy balance run at once, not after the deals in
    flight (hours at 4-5 players); --checkpoint keeps the deals it finished."""
    import glob
    import signal
    import subprocess
    import sys
    import time

    ck = tmp_path / "ck"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "musim",
            "balance",
            "--players",
            "4",
            "--deals",
            "3",
            "--play",
            "dd",
            "--strength-deals",
            "0",
            "--seed",
            "5",
            "--workers",
            "1",
            "--tt-mb",
            "64",
            "--out",
            str(tmp_path / "out"),
            "--checkpoint",
            str(ck),
            "--no-progress",
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.time() + 600
        while not glob.glob(str(ck / "*" / "0+1.npz")):  # deal 0 done; deal 1 takes a minute
            assert proc.poll() is None and time.time() < deadline
            time.sleep(0.2)
        time.sleep(2)
        proc.send_signal(signal.SIGTERM)
        stopped = time.time()
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()  # a failed wait must not leave a solver running
    assert time.time() - stopped < 10
    assert proc.returncode == 130 and "Traceback" not in err and err.strip().endswith("musim: interrupted")
    assert glob.glob(str(ck / "*" / "0+1.npz")) and not glob.glob(str(ck / "*" / "1+1.npz"))  # deal 0 kept
    assert not list((tmp_path / "out").glob("*"))  # no output written
