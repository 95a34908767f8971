"""Mü's auction models one a seat (`--auction bold,cautious,...`, seats in the order of the rows):
a list naming one model is that model (rows, key, default name), each seat bids by its own model
on the same deals, bad lists are refused in one line, records of such runs replay; and the
duplicate comparison of one seat's auction model against another (analysis/seat_auction.py)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.engine.parquet import read_manifest, read_metadata
from musim.games.mu.analysis.seat_auction import RANDOM, auction_advantage
from musim.play.duplicate import duplicate_advantage, game_simulate

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


def test_a_model_against_itself_gains_exactly_nothing_on_every_deal():
    """Same seat, same deals, same model: every deal's gain is 0, so the mean and the interval's
    half-width are 0, whatever the other seats bid."""
    assert auction_advantage(4, 3, 300, "bold", "bold") == (0.0, 0.0)
    assert auction_advantage(4, 3, 300, "bold", "bold", others="cautious") == (0.0, 0.0)


def test_the_gain_is_the_seats_rotated_difference_of_the_rows_musim_run_writes(tmp_path):
    """Against a hand computation from `musim run --auction` files: one bold seat among cautious
    ones, every seat in turn, against all cautious; its interval holds the mean."""
    n, deals, seed = 3, 400, 8
    base = run(tmp_path / "c.parquet", "cautious", players=n, deals=deals, seed=seed).column("scores").to_pylist()
    gain = np.zeros(deals)
    for s in range(n):
        mix = ",".join("bold" if i == s else "cautious" for i in range(n))
        mixed = run(tmp_path / f"{s}.parquet", mix, players=n, deals=deals, seed=seed).column("scores").to_pylist()
        gain += np.array([m[s] - b[s] for m, b in zip(mixed, base)]) / n
    mean, half = auction_advantage(n, seed, deals, "bold", "cautious")
    assert mean == pytest.approx(gain.mean()) and half == pytest.approx(1.96 * gain.std(ddof=1) / np.sqrt(deals))
    assert half > 0 and mean - half <= mean <= mean + half


def test_other_seats_of_a_third_model_swap_the_sign_deal_by_deal():
    """Strong and weak trade places among the same others: the gain changes its sign alone."""
    mean, half = auction_advantage(4, 2, 300, "bold", "cautious", others=RANDOM)
    assert (-mean, half) == pytest.approx(auction_advantage(4, 2, 300, "cautious", "bold", others=RANDOM))
    assert half > 0


def test_a_heuristic_seat_among_random_ones_is_head_to_heads_cell():
    """The cautious model played by the heuristic, against random: the heuristic against random of
    results/head_to_head (the heuristic bids by the cautious model)."""
    got = auction_advantage(5, 4, 500, "cautious", RANDOM, strong_play="heuristic")
    assert got == duplicate_advantage(game_simulate("mu"), 5, 4, 500, "heuristic", "random")


def test_the_same_gain_on_one_worker_or_two():
    """More deals than a chunk holds (32,768): the chunks run on two threads give the same figures."""
    assert auction_advantage(3, 1, 33_000, "bold", "cautious", workers=2) == auction_advantage(
        3, 1, 33_000, "bold", "cautious", workers=1
    )


ROOT = Path(__file__).resolve().parent.parent


def evaluation(cwd, *args):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    script = ROOT / "scripts" / "eval_learned_auction.py"
    return subprocess.run([sys.executable, script, *map(str, args)], cwd=cwd, env=env, capture_output=True, text=True)


def test_the_evaluation_script_writes_every_cell_and_refuses_an_unknown_model(tmp_path):
    """A dry run with bold as the tested model: B and D2 are bold against itself, exactly 0."""
    done = evaluation(tmp_path, "--deals", 60, "--players", 3, "--strong", "bold", "--out", "out")
    assert done.returncode == 0, done.stderr
    rows = pd.read_csv(tmp_path / "out" / "eval.csv")
    assert rows.cell.tolist() == ["A", "B", "C", "D1", "D2", "E", "E", "E", "E"]
    zero = rows[rows.cell.isin(["B", "D2"])]
    assert (zero[["gain", "low", "high"]] == 0).all().all() and zero.met.tolist() == [False, True]
    assert (rows.low <= rows.gain).all() and (rows.gain <= rows.high).all() and (rows.deals == 60).all()
    text = (tmp_path / "out" / "README.md").read_text()
    assert "## Cell E" in text and "| 3 | flat |" in text and "--strong bold" in text
    refused = evaluation(tmp_path, "--strong", "timid", "--out", "no")
    assert refused.returncode == 2 and "--strong 'timid': not an auction model here" in refused.stderr
    assert "Traceback" not in refused.stderr and not (tmp_path / "no").exists()
