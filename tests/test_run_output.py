"""Run directories (engine/parts.py), --resume, the Dask engine and stopping by signal:
the rows of a run are the same whether it ran in one go, was killed and resumed, or ran on
Dask workers, and nothing that looks complete is left by a run that did not finish."""

import json
import os
import signal
import subprocess
import sys
import time
from functools import partial

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import musim
from musim.cli import cli
from musim.engine import parts
from musim.engine.dask import dask_ordered, run_chunk
from musim.engine.parts import MANIFEST, PARTIAL
from musim.engine.spec import RunSpec
from musim.games.mu import run as mu_run
from musim.games.mu.columns import deal_batch
from musim.games.mu.params import MuParams

RUN = ["run", "--deals", 3000, "--players", 5, "--seed", 11, "--no-progress"]
# a process that runs `musim` with a part per chunk of 100 deals, for the tests that kill it
SMALL_PARTS = (
    "import sys; import musim.engine.parts as p; import musim.games.mu.run as r; "
    "p.PART_ROWS = 1; r.CHUNK_DEALS = 100; sys.argv[0] = 'musim'; from musim.cli import main; main()"
)


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def data(df):
    """A run's rows without its wall-clock columns."""
    return df.drop(columns=[c for c in df.columns if c.endswith("_ms")]).reset_index(drop=True)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The rows of RUN, in one file, from one uninterrupted local run."""
    out = tmp_path_factory.mktemp("ref") / "ref.parquet"
    res = invoke(*RUN, "--out", out)
    assert res.exit_code == 0, res.output
    return data(musim.read_run(out))


@pytest.fixture
def small_parts(monkeypatch):
    monkeypatch.setattr(parts, "PART_ROWS", 1)
    monkeypatch.setattr(mu_run, "CHUNK_DEALS", 500)


def test_a_run_directory_reads_as_the_whole_run_with_pandas_pyarrow_and_read_run(tmp_path, reference, small_parts):
    out = tmp_path / "run"
    res = invoke(*RUN, "--out", out)
    assert res.exit_code == 0, res.output
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["complete"] and [p["count"] for p in manifest["parts"]] == [500] * 6
    assert sorted(os.listdir(out)) == [MANIFEST] + [f"part-{i:06d}.parquet" for i in range(6)]
    assert not (tmp_path / f"run{PARTIAL}").exists()
    assert data(musim.read_run(out)).equals(reference)
    assert pq.read_table(out).num_rows == 3000
    assert data(pd.read_parquet(out)).deal.tolist() == list(range(3000))
    again = invoke("summary", out)
    assert again.exit_code == 0 and again.stdout.splitlines() == res.stdout.splitlines()[:-1]


def _start_small_parts(args):
    return subprocess.Popen(
        [sys.executable, "-c", SMALL_PARTS, *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_parts(directory, count, proc, seconds=300):
    deadline = time.time() + seconds
    while True:
        try:
            if len(json.loads((directory / MANIFEST).read_text())["parts"]) >= count:
                return
        except (OSError, ValueError):
            pass
        assert proc.poll() is None and time.time() < deadline, proc.stderr.read() if proc.poll() else "timeout"
        time.sleep(0.05)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_run_resumes_to_exactly_the_rows_of_an_uninterrupted_one(tmp_path, reference, how):
    out = tmp_path / "run"
    args = [*RUN, "--deals", 30000, "--out", out, "--workers", 1]
    proc = _start_small_parts(args)
    try:
        _wait_for_parts(tmp_path / f"run{PARTIAL}", 3, proc)
        proc.send_signal(how)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert not out.exists()  # nothing that looks complete
    if how == signal.SIGTERM:
        assert proc.returncode == 130 and err.strip().splitlines()[-1] == "musim: interrupted"
    resumed = subprocess.run(
        [sys.executable, "-c", SMALL_PARTS, *map(str, [*args, "--resume", "--workers", 2])],
        capture_output=True,
        text=True,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "were already written" in resumed.stdout
    rows = data(musim.read_run(out))
    assert rows.deal.tolist() == list(range(30000))  # none missing, none twice
    assert rows.iloc[:3000].equals(reference)
    whole = invoke(*RUN, "--deals", 30000, "--out", tmp_path / "whole.parquet")
    assert rows.equals(data(musim.read_run(tmp_path / "whole.parquet"))), whole.output


def _unfinished(tmp_path):
    """An unfinished run directory of RUN, no part written yet."""
    out = tmp_path / "run"
    parts.RunDirectory(str(out), _key(), None, {}).abandon()  # stopped: its lock released
    return out, tmp_path / f"run{PARTIAL}"


def _with(args, option, value):
    args = list(args)
    if option in args:
        args[args.index(option) + 1] = value
    else:
        args += [option, value]
    return args


def _key():
    from musim.engine.run import run_key
    from musim.engine.spec import checked

    spec = RunSpec("mu", "deals", 3000, 5, "heuristic", seed=11)
    return run_key(spec, checked(spec))


@pytest.mark.parametrize(
    "change, said",
    [
        (["--players", 4], "players: 5, not 4"),
        (["--seed", 12], "seed: 11, not 12"),
        (["--deals", 4000], "count: 3000, not 4000"),
        (["--play", "random"], "play: 'heuristic', not 'random'"),
    ],
)
def test_resuming_with_other_parameters_is_refused(tmp_path, change, said):
    out, partial = _unfinished(tmp_path)
    res = invoke(*_with(RUN, *change), "--out", out, "--resume")
    assert res.exit_code == 2 and "other parameters" in res.output and said in res.output, res.output
    assert partial.exists() and not out.exists()


def test_resume_refusals_name_what_is_wrong(tmp_path):
    out = tmp_path / "run"
    assert "no unfinished run" in invoke(*RUN, "--out", out, "--resume").output
    foreign = tmp_path / f"other{PARTIAL}"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    res = invoke(*RUN, "--out", tmp_path / "other", "--resume")
    assert res.exit_code == 2 and "not a musim run directory" in res.output
    assert (foreign / "notes.txt").read_text() == "mine"
    assert invoke(*RUN, "--out", out).exit_code == 0
    assert "finished run: nothing to resume" in invoke(*RUN, "--out", out, "--resume").output
    assert "--resume" in invoke(*RUN, "--out", tmp_path / "x.parquet", "--resume").output
    assert "exclude each other" in invoke(*RUN, "--out", out, "--resume", "--overwrite").output


def test_an_unfinished_run_is_neither_restarted_nor_replaced_unasked(tmp_path):
    out, partial = _unfinished(tmp_path)
    res = invoke(*RUN, "--out", out)
    assert res.exit_code == 2 and "--resume" in res.output and partial.exists()
    assert invoke(*RUN, "--out", out, "--overwrite").exit_code == 0
    assert out.exists() and not partial.exists()


def test_overwrite_replaces_only_what_musim_wrote(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "data.csv").write_text("precious")
    res = invoke(*RUN, "--out", mine, "--overwrite")
    assert res.exit_code == 2 and "not a musim run directory" in res.output
    assert (mine / "data.csv").read_text() == "precious"


@pytest.mark.parametrize("workers", [1, 2])
def test_the_dask_engine_gives_the_rows_of_a_local_run(tmp_path, reference, workers):
    out = tmp_path / "run"
    res = invoke(*RUN, "--engine", "dask", "--workers", workers, "--out", out)
    assert res.exit_code == 0, res.output
    assert f"dask LocalCluster of {workers} worker(s)" in res.stdout.splitlines()[-1]
    assert data(musim.read_run(out)).equals(reference)


@pytest.fixture(scope="module")
def cluster():
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as c:
        yield c


def test_a_run_on_a_named_scheduler_gives_the_same_rows(tmp_path, reference, cluster):
    out = tmp_path / "run"
    res = invoke(*RUN, "--engine", "dask", "--scheduler", cluster.scheduler_address, "--out", out)
    assert res.exit_code == 0, res.output
    assert data(musim.read_run(out)).equals(reference)


def test_a_worker_lost_mid_run_still_yields_each_deal_once(cluster):
    from dask.distributed import Client

    spec = RunSpec("mu", "deals", 400_000, 4, "heuristic", seed=3)
    chunks = [(s, 20_000) for s in range(0, 400_000, 20_000)]
    batches = dask_ordered(partial(run_chunk, spec), iter(chunks), 2, cluster.scheduler_address)
    got = [next(batches)]
    with Client(cluster.scheduler_address) as client:  # a second client, to find a worker's process
        victim = sorted(client.scheduler_info()["workers"])[0]
        pid = client.run(os.getpid, workers=[victim])[victim]
    os.kill(pid, signal.SIGKILL)
    got += list(batches)
    deals = [d for b in got for d in b.column("deal").to_pylist()]
    assert deals == list(range(400_000))
    local = mu_run.simulate_deal_chunk(MuParams(4, "heuristic"), 3, 380_000, 20_000)
    assert got[-1].equals(deal_batch(local))


def test_an_unreachable_scheduler_is_one_line(tmp_path):
    res = invoke(*RUN, "--engine", "dask", "--scheduler", "tcp://127.0.0.1:1", "--out", tmp_path / "r")
    assert res.exit_code == 2 and "--scheduler tcp://127.0.0.1:1: cannot connect" in res.output
    assert not (tmp_path / "r").exists()


def test_scheduler_needs_the_dask_engine():
    res = invoke(*RUN, "--scheduler", "tcp://127.0.0.1:8786")
    assert res.exit_code == 2 and "--scheduler needs --engine dask" in res.output


def test_sigterm_stops_a_solve_in_the_middle_of_its_search(tmp_path):
    """A 4-player full deal takes a minute or more; SIGTERM ends the process within seconds."""
    position = {
        "players": 4,
        "hands": [
            ["R5", "Y0", "Y5", "Y9", "G0", "G7", "G9", "B0", "B1", "B1", "B2", "B7", "B7", "K0", "K3"],
            ["R1", "R2", "R3", "R7", "Y1", "Y3", "Y6", "Y7", "G1", "G2", "G8", "B3", "K5", "K6", "K7"],
            ["R0", "R6", "Y2", "Y8", "G3", "G4", "G5", "G6", "G7", "B4", "B6", "K1", "K2", "K8", "K9"],
            ["R1", "R4", "R7", "R8", "R9", "Y1", "Y4", "Y7", "G1", "B5", "B8", "B9", "K1", "K4", "K7"],
        ],
        "leader": 3,
        "chief": 3,
        "partner": 2,
        "vice": 0,
        "chief_trump": "1",
        "vice_trump": "B",
    }
    last_trick = {**position, "hands": [["R5"], ["R1"], ["R0"], ["R4"]]}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(last_trick))
    assert invoke("solve", path).exit_code == 0  # the solver compiled and cached: the process below searches at once
    path.write_text(json.dumps(position))
    proc = subprocess.Popen(
        [sys.executable, "-m", "musim", "solve", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        time.sleep(8)  # started, compiled or loaded, searching
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        stopped = time.time()
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert time.time() - stopped < 10
    assert proc.returncode == 130 and out == "" and err.strip() == "musim: interrupted"


def test_balance_and_bid_give_the_same_figures_on_dask(cluster):
    from musim.games.mu.analysis.balance import analyse
    from musim.games.mu.analysis.bid import bid_strength

    dask = {"engine": "dask", "scheduler": cluster.scheduler_address}
    local, remote = (analyse(MuParams(4), 3000, 9, workers=2, strength_deals=300, **kw) for kw in ({}, dask))
    pd.testing.assert_frame_equal(local.table, remote.table)
    pd.testing.assert_frame_equal(local.strength, remote.strength)
    hand = "R9 R8 R7 R7 R6 G9 G7 B1 K0 K3 Y2 Y5 Y9 B9 G1"
    local, remote = (bid_strength(MuParams(4), hand, 300, 9, workers=2, **kw) for kw in ({}, dask))
    assert json.dumps(local) == json.dumps(remote)
