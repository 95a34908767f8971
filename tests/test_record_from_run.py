"""`musim record RUN --deal K`: the record of a run's deal K with the game, players, policies, options
and seed read from the run (a directory or a Parquet file), so that it replays to row K; options
given beside RUN, match runs, deals outside the run and runs of another result version refused in
one line; options added after a run was made take their defaults."""

import dataclasses
import json
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from test_contract import TOY, TOY_MODULE, toy  # noqa: F401 (the toy game and its fixture)

from musim.cli import cli
from musim.engine.option import Option
from musim.engine.read import read_run

DEALS = [0, 7, 19]
# the figures besides the scores that a game's rows and replay results share, with the same meaning
FIGURES = {
    "mu": ("outcome", "chief", "vice", "partner", "bid", "target", "chief_trump", "vice_trump", "laid")
    + ("card_points", "team_points", "success", "shortfall", "bonus"),
    "panther": ("last_trick",),
    "danger": ("reshuffles",),
}


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def musim(*args):
    """The real entry point, whose errors are one line."""
    return subprocess.run([sys.executable, "-m", "musim", *map(str, args)], capture_output=True, text=True, input="")


def make_run(out, game, *args):
    res = invoke("run", "--game", game, "--deals", 20, *args, "--out", out, "--no-progress")
    assert res.exit_code == 0, res.output
    return out


@pytest.fixture(scope="module")
def mu_run(tmp_path_factory):
    return make_run(tmp_path_factory.mktemp("mu") / "run", "mu", "--players", 5, "--seed", 21)


@pytest.mark.parametrize(
    "game, args, name",
    [
        ("mu", ("--players", 5, "--seed", 21), "run"),  # a run directory, heuristic play
        ("panther", ("--players", 6, "--seed", 4, "--play", "random"), "run.parquet"),  # one Parquet file
        ("danger", ("--players", 3, "--seed", 8, "--copies", 2, "--multicolour", 1), "run"),  # the game's options
    ],
)
def test_a_record_from_the_run_replays_to_its_row(tmp_path, game, args, name):
    """The replay's scores are the row's, and so is every other figure the row and the result share
    (FIGURES: Mü's contract and outcome, who took Panther's last trick, Danger's reshuffles)."""
    run = make_run(tmp_path / name, game, *args)
    rows = read_run(run)
    players = dict(zip(args[::2], args[1::2]))["--players"]
    for k in DEALS:
        record = invoke("record", run, "--deal", k)
        assert record.exit_code == 0, record.output
        assert json.loads(record.output)["game"] == game
        replayed = invoke("replay", "-", input=record.output)
        assert replayed.exit_code == 0, replayed.output
        result, row = json.loads(replayed.output), {key: plain(v) for key, v in rows.iloc[k].items()}
        assert result["scores"] == [row[f"score_{i}"] for i in range(players)]
        assert {key: result.get(key) for key in FIGURES[game]} == {key: row[key] for key in FIGURES[game]}


def plain(value):
    """A DataFrame cell as JSON has it: pd.NA as None, arrays as lists."""
    if value is pd.NA:
        return None
    return value.tolist() if isinstance(value, np.ndarray) else value


def test_the_run_gives_the_record_the_same_parameters_typed_again_give(mu_run):
    """The old form keeps working, and agrees with the run's own."""
    typed = invoke("record", "--players", 5, "--seed", 21, "--play", "heuristic", "--deal", 7)
    assert typed.exit_code == 0 and typed.output == invoke("record", mu_run, "--deal", 7).output


def test_a_record_from_a_mu_run_shows_the_rows_scores(mu_run):
    shown = invoke("show", "-", input=invoke("record", mu_run, "--deal", 19).output)
    assert shown.exit_code == 0, shown.output
    scores = next(line for line in shown.output.splitlines() if line.startswith("scores: "))
    row = read_run(mu_run).iloc[19]
    assert [int(part.split()[-1]) for part in scores[len("scores: ") :].split(", ")] == list(row["scores"])


@pytest.mark.parametrize(
    "args, words",
    [
        (["--players", "4"], "--players: not with RUN"),  # a typed value: before, a silent other deal
        (["--seed", "21"], "--seed: not with RUN"),  # even the run's own
        (["--game", "mu"], "--game: not with RUN"),
        (["--play", "random"], "--play: not with RUN"),
        (["--dd-tricks", "3"], "--dd-tricks: not with RUN"),
    ],
)
def test_options_beside_the_run_are_refused(mu_run, args, words):
    res = invoke("record", mu_run, "--deal", 3, *args)
    assert res.exit_code == 2 and res.stdout == ""
    assert f"{words}, which gives the game, players, policies, options and seed" in res.stderr


def test_refusals_are_one_line_from_the_real_entry_point(mu_run, tmp_path):
    (tmp_path / "a.parquet").write_text("not parquet")
    for args, words in [
        ([mu_run, "--players", 5], "--players: not with RUN"),
        ([mu_run, "--deal", 20], f"20 is not a deal of {mu_run} (0..19)"),
        ([tmp_path], "is not a musim run directory"),
        ([tmp_path / "a.parquet"], "is not a Parquet file"),
    ]:
        res = musim("record", "--deal", 0, *args)  # the last --deal given counts
        assert res.returncode == 2 and res.stdout == ""
        assert len(res.stderr.splitlines()) == 1 and "record: error: " in res.stderr and words in res.stderr


def test_an_unfinished_run_records_its_deals_named_as_itself_or_its_partial(mu_run, tmp_path):
    """An unfinished run directory (OUT.partial/, named as OUT as `musim summary` allows) fixes its deals too."""
    shutil.copytree(mu_run, tmp_path / "run.partial")
    want = invoke("record", mu_run, "--deal", 5).output
    assert invoke("record", tmp_path / "run", "--deal", 5).output == want
    assert invoke("record", tmp_path / "run.partial", "--deal", 5).output == want


def test_without_a_run_the_seed_is_needed():
    res = invoke("record", "--deal", 0)
    assert res.exit_code == 2 and "give a run (RUN), or the run's --seed" in res.stderr


def test_the_toy_games_options_come_from_the_run(toy, tmp_path):  # noqa: F811
    run = make_run(tmp_path / "run", "toy", "--bonus", 3, "--seed", 5)
    res = invoke("record", run, "--deal", 4)
    assert res.exit_code == 0 and json.loads(res.output) == {"game": "toy", "deal": 4, "bonus": 3}


def test_an_option_added_after_the_run_takes_its_default(toy, tmp_path, monkeypatch):  # noqa: F811
    """A run made before a game gained an option (as Mü's targets and auction) records with the
    option at its default, as the run was played; a run made with it records with its value."""
    before = make_run(tmp_path / "before", "toy", "--bonus", 2, "--seed", 5)
    later = dataclasses.replace(
        TOY,
        options=(*TOY.options, Option("variant", int, 0, "A rule added later.", range=(0, 9), omit_default=True)),
        record=lambda spec, index: {"game": "toy", "deal": index, **spec.options},
    )
    monkeypatch.setattr(TOY_MODULE, "GAME", later)
    assert json.loads(invoke("record", before, "--deal", 1).output) == {
        "game": "toy",
        "deal": 1,
        "bonus": 2,
        "style": "calm",
        "variant": 0,
    }
    after = make_run(tmp_path / "after", "toy", "--variant", 7, "--seed", 5)
    assert json.loads(invoke("record", after, "--deal", 1).output)["variant"] == 7


def test_a_match_run_and_a_run_of_another_result_version_are_refused(toy, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setattr(TOY_MODULE, "GAME", dataclasses.replace(TOY, matches=True))
    res = invoke("run", "--game", "toy", "--matches", 3, "--seed", 1, "--out", tmp_path / "m", "--no-progress")
    assert res.exit_code == 0, res.output
    refused = invoke("record", tmp_path / "m", "--deal", 0)
    assert refused.exit_code == 2 and "is a run of matches" in refused.output
    run = make_run(tmp_path / "run", "toy", "--seed", 5)
    monkeypatch.setattr(TOY_MODULE, "GAME", dataclasses.replace(TOY, result_version=TOY.result_version + 1))
    refused = invoke("record", run, "--deal", 0)
    assert refused.exit_code == 2 and "result version 1, this musim plays version 2" in refused.output
