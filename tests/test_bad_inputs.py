"""The catalogue of bad input, through the real `musim` entry point: every command refuses what
it cannot do with one line on stderr naming what is wrong and the documented exit code (2 for
bad usage or an unusable file, 1 for a batch with an invalid item), no traceback, and no output
that looks complete."""

import json
import os
import subprocess
import sys

import pytest

PARQUET_NOT_MUSIM = "not-musim.parquet"
RUN = ["run", "--deals", "20", "--seed", "1", "--no-progress"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Inputs that are wrong in each way: text, a Parquet file musim did not write, a directory
    that is no run, an unfinished run of other parameters."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    d = tmp_path_factory.mktemp("inputs")
    (d / "text.parquet").write_text("not parquet")
    (d / "binary.jsonl").write_bytes(b"\xff\xfe\x00garbage")
    pq.write_table(pa.table({"x": [1, 2]}), d / PARQUET_NOT_MUSIM)
    (d / "plain-dir").mkdir()
    (d / "a-file").write_text("x")
    foreign = d / "foreign.partial"
    foreign.mkdir()
    (foreign / "_manifest.json").write_text(json.dumps({"key": {"game": "mu", "params": {}}, "parts": []}))
    return d


CASES = [
    # (arguments, exit code, words the one line must hold)
    (["frobnicate"], 2, "No such command"),
    (["run", "--bogus"], 2, "--bogus"),
    (["run"], 2, "exactly one of --deals N or --matches N"),
    (["run", "--deals", "0"], 2, "--deals"),
    (["run", "--deals", "lots"], 2, "--deals"),
    (["run", "--deals", "1e30"], 2, "--deals"),
    (["run", "--deals", "10", "--players", "9"], 2, "--players"),
    (["run", "--deals", "10", "--play", "telepathy"], 2, "--play"),
    (["run", "--deals", "10", "--workers", "0"], 2, "--workers"),
    (["run", "--deals", "10", "--seed", "-1"], 2, "--seed"),
    (["run", "--deals", "10", "--tt-mb", "0", "--play", "dd"], 2, "--tt-mb"),
    (["run", "--deals", "10", "--game", "poker"], 2, "poker"),
    (["run", "--deals", "10", "--game", "bridge"], 2, "cannot be run"),
    (["run", "--deals", "10", "--engine", "spark"], 2, "--engine"),
    (["run", "--deals", "10", "--scheduler", "tcp://h:1"], 2, "--scheduler needs --engine dask"),
    (["run", "--deals", "10", "--goal", "-5"], 2, "--goal"),
    ([*RUN, "--out", "{d}/a-file/run"], 2, "--out"),
    ([*RUN, "--out", "{d}/a-file"], 2, "is a file"),
    ([*RUN, "--out", "{d}/plain-dir"], 2, "exists"),
    ([*RUN, "--out", "{d}/plain-dir", "--overwrite"], 2, "not a musim run directory"),
    ([*RUN, "--out", "{d}/x.csv"], 2, ".parquet"),
    ([*RUN, "--out", "{d}/foreign", "--resume"], 2, "other parameters"),
    ([*RUN, "--out", "{d}/nothing-here", "--resume"], 2, "no unfinished run"),
    (["summary", "{d}/missing.parquet"], 2, "cannot read"),
    (["summary", "{d}/text.parquet"], 2, "not a Parquet file"),
    (["summary", "{d}/" + PARQUET_NOT_MUSIM], 2, "not written by `musim run`"),
    (["summary", "{d}/plain-dir"], 2, "not a musim run directory"),
    (["replay", "{d}/missing.jsonl"], 2, "cannot read"),
    (["replay", "{d}/binary.jsonl"], 2, "cannot read"),
    (["replay", "{d}/plain-dir"], 2, "cannot read"),
    (["solve", "{d}/missing.jsonl"], 2, "cannot read"),
    (["solve", "--tt-mb", "0", "-"], 2, "--tt-mb"),
    (["solve", "--game", "poker", "-"], 2, "--game"),
    (["solve", "--game", "panther-free", "-"], 2, "--game"),
    (["record", "--seed", "1"], 2, "--deal"),
    (["record", "--seed", "1", "--deal", "-3"], 2, "--deal"),
    (["record", "--seed", "1", "--deal", "0", "--players", "2"], 2, "--players"),
    (["record", "--game", "bridge", "--seed", "1", "--deal", "0"], 2, "no game records"),
    (["bid", "--hand", "R9 R9 R9"], 2, "--hand"),
    (["bid", "--players", "7", "--hand", "R9"], 2, "--players"),
    (["balance", "--players", "3", "--deals", "0", "--out", "{d}/b"], 2, "--deals"),
    (["balance", "--players", "2", "--out", "{d}/b"], 2, "--players"),
    (["balance", "--players", "3", "--deals", "10", "--out", "{d}/a-file"], 2, "--out"),
    (["games", "extra"], 2, "extra"),
    (["solve", "-", "--node-limit", "0"], 2, "must be at least 1"),
    (["solve", "-", "--node-limit=-5"], 2, "must be at least 1"),
    (["run", "--deals", "1", "--play", "dd", "--node-limit", "1.5", "--out", "{d}/x.parquet"], 2, "whole number"),
    (["run", "--deals", "1", "--play", "dd", "--node-limit", "many", "--out", "{d}/x.parquet"], 2, "not a number"),
    (["run", "--deals", "1", "--node-limit", "9", "--out", "{d}/x.parquet"], 2, "--node-limit applies only"),
]


@pytest.mark.parametrize("args, code, words", CASES, ids=[" ".join(c[0])[:60] for c in CASES])
def test_bad_input_is_one_line_and_the_documented_exit_code(files, args, code, words):
    args = [a.format(d=files) for a in args]
    before = sorted(os.listdir(files))
    res = subprocess.run([sys.executable, "-m", "musim", *args], capture_output=True, text=True, input="", timeout=300)
    lines = res.stderr.strip().splitlines()
    assert res.returncode == code, res.stderr
    assert len(lines) == 1 and "error" in lines[0] and words in lines[0], res.stderr
    assert "Traceback" not in res.stderr and res.stdout == ""
    assert sorted(os.listdir(files)) == before  # nothing written, not even a partial output


@pytest.mark.parametrize("command", ["replay", "solve"])
def test_a_batch_with_a_bad_item_answers_every_line_and_exits_1(command):
    text = '{"game": "mu"}\nnot json\n[1]\n\n{"game": "poker"}\n'
    res = subprocess.run([sys.executable, "-m", "musim", command, "-"], capture_output=True, text=True, input=text)
    answers = [json.loads(line) for line in res.stdout.splitlines()]
    assert res.returncode == 1 and res.stderr == ""
    assert len(answers) == 4 and all(set(a) == {"error"} for a in answers)
    assert "line 2" in answers[1]["error"] and "poker" in answers[3]["error"]
