"""MuParams (games/mu/params.py): every Mü option in one checked, frozen object."""

import dataclasses

import numpy as np
import pytest

from musim.engine.errors import SpecError
from musim.engine.spec import RunSpec, checked
from musim.games.mu import policies, target_tables
from musim.games.mu.params import BY_PLAY, DEFAULT_AUCTION, MuParams
from musim.games.mu.simulate import policy_codes
from musim.solver.table_size import DEFAULT_MB


@pytest.mark.parametrize(
    "options, message",
    [
        (dict(dd_tricks=3), "--dd-tricks applies only with --play dd"),
        (dict(node_limit=10), "--node-limit applies only with --play dd and no --dd-tricks"),
        (dict(play="dd", dd_tricks=3, node_limit=10), "--node-limit applies only"),
        (dict(question="reach"), "--question reach applies only with --play dd"),
        (dict(question="maybe"), "--question 'maybe'"),
        (dict(worlds=5), "--search-worlds applies only with --play search"),
        (dict(play="random", auction="bold"), "--auction applies only with --play heuristic, dd or search"),
        (dict(auction="timid"), "--auction: 'timid' is not one of the auction models"),
        (dict(auction="bold,cautious"), "--auction: expected one auction model or 4"),
        (
            dict(play="random,heuristic,heuristic,heuristic", auction="bold,play,play,play"),
            "--auction: seat 0 plays random",
        ),
        (dict(players=7), "--players: 7 is not in 3..6"),
        (dict(targets="4:1,2"), "--targets 4 players: 2 targets"),
    ],
)
def test_options_that_do_not_go_together_are_refused_once_with_the_flag_at_fault(options, message):
    with pytest.raises(SpecError, match=message.replace("(", r"\(").replace(".", r"\.")):
        MuParams(**{"players": 4} | options)


def test_the_rules_hold_for_a_run_a_bid_and_a_balance_alike(tmp_path):
    """A run's check and the commands' options meet the same rules, in the same words."""
    from click.testing import CliRunner

    from musim.cli import cli

    with pytest.raises(SpecError, match="--dd-tricks applies only"):
        checked(RunSpec("mu", "deals", 1, 4, "heuristic", options={"dd_tricks": 2}))
    args = ["--players", "4", "--play", "heuristic", "--question", "reach"]
    bid = CliRunner().invoke(cli, ["bid", "--hand", "R9 R8 R7 R7 R6 G9 G7 G0 B1 B8 K0 K3 Y2 Y5 Y7", *args])
    balance = CliRunner().invoke(cli, ["balance", "--out", str(tmp_path / "b"), *args])
    for res in (bid, balance):
        assert res.exit_code == 2 and "--question reach applies only with --play dd" in res.output
    assert not (tmp_path / "b").exists()


def test_a_run_spec_gives_its_options_whole():
    spec = RunSpec("mu", "matches", 2, 5, "dd", tt_mb=32, options={"goal": 150, "dd_tricks": 4, "auction": "bold"})
    checked(spec)
    p = MuParams.of_spec(spec)
    assert (p.players, p.play, p.goal, p.dd_tricks, p.auction, p.tt_mb) == (5, "dd", 150, 4, "bold", 32)
    assert p.targets == target_tables.RULEBOOK and p.node_limit == 0 and p.question == "value"
    assert {f.name for f in dataclasses.fields(MuParams)} - {"players", "tt_mb"} == {
        "play",
        "auction",
        "targets",
        "dd_tricks",
        "node_limit",
        "question",
        "worlds",
        "exact_tricks",
        "goal",
        "learned_model",
        "search_weights",
    }


def test_one_default_and_frozen():
    p = MuParams(4)
    assert p.tt_mb == DEFAULT_MB and p.auction == BY_PLAY and p.auction_model == DEFAULT_AUCTION
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.players = 5
    assert p.replace(players=5).players == 5 and p.players == 4
    with pytest.raises(SpecError):
        p.replace(question="reach")


def test_the_kernels_get_the_table_and_each_seats_codes():
    rows = {4: [30 + b for b in range(1, 16)]}
    p = MuParams(4, "random,heuristic,dd,heuristic", auction="bold", targets=target_tables.to_text(rows))
    assert (p.table == target_tables.table(rows)).all() and p.table[4, 1] == 31
    bid, card = policy_codes(p)
    bold, random = policies.AUCTIONS["bold"], policies.RANDOM
    assert bid[:4].tolist() == [random, bold, bold, bold]  # a random seat bids at random under any model
    assert card[:4].tolist() == [random, policies.HEURISTIC, policies.DD, policies.HEURISTIC]
    assert np.array_equal(policy_codes(MuParams(4))[0][:4], np.full(4, policies.HEURISTIC))
    seats = MuParams(4, "random,heuristic,dd,heuristic", auction="play,bold,play,cautious")
    assert policy_codes(seats)[0][:4].tolist() == [random, bold, policies.HEURISTIC, policies.HEURISTIC]
    assert MuParams(4, auction="bold,bold,bold,bold").auction == "bold"
    assert MuParams(4, "random").auction_model == "random"
