"""Mü's auction models one a seat (`--auction bold,cautious,...`, seats in the order of the rows):
a list naming one model is that model (rows, key, default name), each seat bids by its own model
on the same deals, bad lists are refused in one line, records of such runs replay."""

import json
import shutil

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.engine.parquet import read_manifest, read_metadata

MIXED = "bold,cautious,cautious,cautious"


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def run_args(auction, players=4, deals=300, seed=5, play="heuristic"):
    args = ("run", "--game", "mu", "--players", players, "--deals", deals, "--seed", seed, "--play", play)
    return (*args, "--auction", auction, "--no-progress")


def run(path, auction, **how):
    res = invoke(*run_args(auction, **how), "--out", path)
    assert res.exit_code == 0, res.output
    return pq.read_table(path)


def column(table, name):
    return np.array(table.column(name).to_pylist(), dtype=float)


def test_a_list_naming_one_model_for_every_seat_is_that_model(tmp_path, monkeypatch):
    """The same rows, key and default run name as the one model."""
    monkeypatch.chdir(tmp_path)
    seen = []
    for auction in ("bold", "bold,bold,bold,bold", " bold, bold ,bold,bold"):
        res = invoke(*run_args(auction, deals=200, seed=7))
        assert res.exit_code == 0, res.output
        (out,) = (tmp_path / "runs").iterdir()
        assert out.name == "mu-4p-heuristic-auctionbold-seed7"
        seen.append((pq.read_table(out), read_manifest(out)["key"]))
        shutil.rmtree(out)
    assert all(table.equals(seen[0][0]) and key == seen[0][1] for table, key in seen)
    assert seen[0][1]["params"]["options"]["auction"] == "bold"


def test_each_seat_bids_by_its_own_model_on_the_same_deals(tmp_path, monkeypatch):
    """Among cautious seats, which never tie (docs/players.md), only the bold seat 0 can lay last
    into a tie on top, so it provokes every eklat of a bid; all bold, every seat provokes some."""
    monkeypatch.chdir(tmp_path)
    mixed = run(tmp_path / "m.parquet", MIXED, deals=2000)
    bold = run(tmp_path / "b.parquet", "bold", deals=2000)
    cautious = run(tmp_path / "c.parquet", "cautious", deals=2000)
    assert mixed.column("hands").equals(cautious.column("hands"))
    eklat = (column(mixed, "provoker") >= 0) & (np.array(mixed.column("outcome").to_pylist()) == "eklat")
    assert eklat.sum() >= 10 and set(column(mixed, "provoker")[eklat]) == {0}
    assert set(column(bold, "provoker")[column(bold, "provoker") >= 0]) == {0, 1, 2, 3}
    assert np.nanmean(column(cautious, "bid")) < np.nanmean(column(mixed, "bid")) < np.nanmean(column(bold, "bid"))
    meta = read_metadata(tmp_path / "m.parquet")
    assert meta["params"]["options"]["auction"] == MIXED and meta["models"] == {"auction": MIXED}
    summary = invoke("summary", tmp_path / "m.parquet")
    assert summary.exit_code == 0 and f"auction {MIXED} by seat" in summary.output


def test_a_seat_left_to_its_play_bids_as_its_policy_implies(tmp_path):
    """`play` at a random seat: it bids at random; at a heuristic seat: cautious."""
    play = "random,heuristic,heuristic,heuristic"
    given = run(tmp_path / "g.parquet", "play,bold,play,cautious", play=play, deals=500)
    implied = run(tmp_path / "i.parquet", "play,bold,cautious,cautious", play=play, deals=500)
    assert given.equals(implied)
    assert read_metadata(tmp_path / "g.parquet")["models"] == {"auction": "random,bold,cautious,cautious"}


@pytest.mark.parametrize(
    ("play", "auction", "message"),
    [
        ("heuristic", "bold,cautious", "--auction: expected one auction model or 4 (one a seat), got 2"),
        ("heuristic", "bold,timid,cautious,cautious", "--auction: 'timid' is not one of the auction models"),
        ("random,heuristic,heuristic,heuristic", MIXED, "--auction: seat 0 plays random, so it bids at random"),
        ("random", "play,bold,play,play", "--auction applies only with --play heuristic, dd or search"),
    ],
)
def test_a_bad_list_of_models_is_refused_in_one_line(play, auction, message):
    record = ("record", "--game", "mu", "--players", 4, "--play", play, "--auction", auction, "--seed", 1, "--deal", 0)
    for command in (run_args(auction, deals=10, play=play), record):
        res = invoke(*command)
        assert res.exit_code == 2 and message in res.output, res.output
        assert "Traceback" not in res.output


def test_a_record_of_a_per_seat_auction_runs_deal_replays_to_its_row(tmp_path):
    table = run(tmp_path / "m.parquet", MIXED, deals=8, seed=9)
    for deal in range(8):
        res = invoke("record", "--game", "mu", "--players", 4, "--seed", 9, "--auction", MIXED, "--deal", deal)
        assert res.exit_code == 0, res.output
        path = tmp_path / "record.json"
        path.write_text(res.output)
        replayed = invoke("replay", path)
        assert replayed.exit_code == 0, replayed.output
        row = table.slice(deal, 1).to_pylist()[0]
        assert json.loads(replayed.output)["scores"] == row["scores"]
