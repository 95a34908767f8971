"""The games scored per seat (Panther, Wimmüln, Mückenstich, Rummü) through the registry and the generic CLI:
runs whose rows are the kernels' and do not depend on the workers, a summary that agrees
with the rows and reprints from the file, records that replay to the run's scores, matches."""

import json

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.games import get_game

GAMES = ("panther", "wimmueln", "mueckenstich", "zwickern", "rummue")
ROW_GAMES = (*GAMES, "danger")  # and the games without matches


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def run(tmp_path, game, *args, name="out.parquet"):
    out = tmp_path / name
    res = invoke("run", "--game", game, *args, "--out", out, "--no-progress")
    assert res.exit_code == 0, res.output
    return res.output, pq.read_table(out)


@pytest.mark.parametrize("game", ROW_GAMES)
def test_rows_do_not_depend_on_the_workers(tmp_path, game):
    players = min(5, get_game(game).players[1])
    _, one = run(tmp_path, game, "--players", players, "--deals", 5000, "--seed", 3, "--workers", 1, name="1.parquet")
    _, two = run(tmp_path, game, "--players", players, "--deals", 5000, "--seed", 3, "--workers", 2, name="2.parquet")
    assert one.num_rows == 5000 and one.equals(two)


@pytest.mark.parametrize("game", ROW_GAMES)
def test_the_summary_agrees_with_the_rows_and_reprints_from_the_file(tmp_path, game):
    output, table = run(tmp_path, game, "--players", 4, "--deals", 3000, "--seed", 5)
    rows = table.to_pandas()
    scores = rows[[f"score_{i}" for i in range(4)]].to_numpy()
    dealer_score = scores[np.arange(len(rows)), rows["dealer"].to_numpy()].mean()
    dealer_line = next(line for line in output.splitlines() if line.lstrip().startswith("dealer "))
    assert float(dealer_line.split()[1]) == pytest.approx(dealer_score, abs=0.005)
    assert f"from {scores.min()} to {scores.max()}" in output
    for k, name in enumerate(["dealer", "dealer+1", "dealer+2", "dealer+3"]):
        position = scores[np.arange(len(rows)), (rows["dealer"].to_numpy() + k) % 4]
        expected = np.quantile(position, [0.1, 0.25, 0.5, 0.75, 0.9], method="inverted_cdf")
        assert [int(v) for v in _position_line(output, "by seat position: the score's", name)[1:]] == list(expected)
    again = invoke("summary", tmp_path / "out.parquet")
    assert again.exit_code == 0 and again.output.splitlines() == output.splitlines()[:-1]  # all but the timing line


def _position_line(output, title, position):
    """The figures of `position`'s line in the summary's block that starts with `title`."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    return next(line for line in lines[start + 1 :] if line.split()[0] == position).split()


def test_the_panther_summary_says_who_takes_the_last_trick(tmp_path):
    output, table = run(tmp_path, "panther", "--players", 4, "--deals", 3000, "--seed", 2)
    rows = table.to_pandas()
    position = (rows["last_trick"] - rows["dealer"]) % 4
    for k, name in enumerate(["dealer", "dealer+1", "dealer+2", "dealer+3"]):
        share = float(_position_line(output, "the last trick", name)[1].rstrip("%")) / 100
        assert share == pytest.approx((position == k).mean(), abs=5e-5)
    sevens = np.stack(rows["black_sevens"].to_numpy())
    assert (sevens.sum(axis=1) == 2).all()  # both black 7s are dealt at 4 players, and someone takes each
    for k, name in enumerate(["dealer", "dealer+1", "dealer+2", "dealer+3"]):
        taken = sevens[np.arange(len(rows)), (rows["dealer"].to_numpy() + k) % 4].mean()
        assert float(_position_line(output, "black 7s (-50) taken", name)[1]) == pytest.approx(taken, abs=0.005)


def test_the_wimmueln_summary_says_how_often_estimates_are_met(tmp_path):
    output, table = run(tmp_path, "wimmueln", "--players", 4, "--deals", 3000, "--seed", 2)
    rows = table.to_pandas()
    bonus = np.stack(rows["bonus"].to_numpy())
    dealer_bonus = bonus[np.arange(len(rows)), rows["dealer"].to_numpy()]
    figures = _position_line(output, "by seat position: estimate met", "dealer")
    assert float(figures[1].rstrip("%")) / 100 == pytest.approx((dealer_bonus > 0).mean(), abs=5e-5)
    assert figures[4] == "bonus" and float(figures[5]) == pytest.approx(dealer_bonus.mean(), abs=0.005)
    trump_line = next(line for line in output.splitlines() if line.startswith("deals with a trump"))
    assert float(trump_line.split()[4][:-1]) / 100 == pytest.approx(rows["trump"].notna().mean(), abs=5e-5)


@pytest.mark.parametrize("game", ROW_GAMES)
def test_a_record_of_a_runs_deal_replays_to_its_row(tmp_path, game):
    _, table = run(tmp_path, game, "--players", 3, "--deals", 20, "--seed", 9, "--play", "random")
    res = invoke("record", "--game", game, "--players", 3, "--seed", 9, "--play", "random", "--deal", 7)
    assert res.exit_code == 0, res.output
    path = tmp_path / "record.json"
    path.write_text(res.output)
    replayed = invoke("replay", path)
    assert replayed.exit_code == 0, replayed.output
    result = json.loads(replayed.output)
    row = table.slice(7, 1).to_pylist()[0]
    assert result["scores"] == [row[f"score_{i}"] for i in range(3)]


@pytest.mark.parametrize("game", GAMES)
def test_matches_write_one_row_per_match(tmp_path, game):
    output, table = run(tmp_path, game, "--players", 4, "--matches", 6, "--seed", 2)
    assert table.num_rows == 6 and "deals per match" in output
    assert all(d >= 1 for d in table.column("deals").to_pylist())


def test_partners_win_matches_together(tmp_path):
    output, table = run(tmp_path, "zwickern", "--players", 4, "--matches", 60, "--seed", 2)
    sides = [{s % 2 for s in seats} for seats in table.column("winners").to_pylist()]
    for side, name in [(0, "seats 0 and 2"), (1, "seats 1 and 3")]:
        won = sum(s == {side} for s in sides)
        line = next(line for line in output.splitlines() if line.strip().startswith(name))
        assert float(line.split()[4][:-1]) == pytest.approx(100 * won / 60, abs=0.005)
    assert "outright win rate by side" in output and "top score shared" in output


@pytest.mark.parametrize("game", ROW_GAMES)
def test_players_outside_the_games_range_are_refused(game):
    high = get_game(game).players[1]
    res = invoke("run", "--game", game, "--players", high + 1, "--deals", 5)
    assert res.exit_code == 2 and f"{high + 1} is not in the range" in res.output
    assert "Traceback" not in res.output
