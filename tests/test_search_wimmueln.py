"""Wimmüln's search player (`--play search`, docs/players.md "Search"): every world it draws
agrees with what its seat has seen (checked by a pure-Python reading of the deal, on many
mid-deal positions), its cards are legal (records of search runs replay to their rows), rows
do not depend on the workers, the budget changes them, and the command line takes it."""

import json
import os

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.core.deck import MU
from musim.core.rng import stream_state
from musim.engine.seats import seat_policies
from musim.games.wimmueln import WEIGHTS, policies, rules
from musim.games.wimmueln import search as wsearch
from musim.games.wimmueln.record import record, replay
from musim.games.wimmueln.simulate import make_workspace, simulate_deals
from musim.play import world_weights
from musim.play.search_budget import DEFAULT_WORLDS

ONE_SEARCH = "search,heuristic,heuristic"  # 3 players


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def cards(mask):
    return {c for c in range(64) if int(mask) >> c & 1}


def colour(c):
    return int(rules.CARD_COLOUR[c])


def positions(players, seed, deals):
    """(deal row, the cards played in order) of `deals` heuristic deals: replaying them gives
    every mid-deal position."""
    codes = seat_policies(players, "heuristic", policies.NAMES)
    ws = make_workspace(players, codes)
    count = players * int(rules.tricks_per_deal(players))
    for d in range(deals):
        row = simulate_deals(players, seed, "heuristic", d, 1, ws)
        yield {k: v[0] for k, v in row.items()}, [int(c) for c in ws.log[:count]]


def view_at(row, play, players, stop):
    """The position before card `stop` of `play`, read in Python: hands, the trick so far, tricks
    and points won, leader, winner so far, each seat's voids (colours it did not follow), and
    the seat that played each card."""
    held = [int(h) for h in row["hands"]]
    estimates = row["estimates"]
    lead = play[0]
    for s in range(players):
        held[s] &= ~(1 << int(estimates[s, 0]) | 1 << int(estimates[s, 1]))
    held[int(row["dealer"])] &= ~(1 << lead)
    won, points, voids = [0] * players, [0] * players, [set() for _ in range(players)]
    leader, trick, movers = int(row["dealer"]), [], []
    for i, c in enumerate(play[:stop]):
        seat = (leader + len(trick)) % players
        movers.append(seat)
        if i > 0:
            held[seat] &= ~(1 << c)
        if trick and colour(c) != colour(trick[0]):
            voids[seat].add(colour(trick[0]))
        trick.append(c)
        if len(trick) == players:
            w = int(rules.trick_winner(np.array(trick, np.int64), players, int(row["trump"])))
            leader = (leader + w) % players
            won[leader] += 1
            points[leader] += sum(int(MU.card_points[x]) for x in trick)
            trick = []
    winner = int(rules.trick_winner(np.array(trick, np.int64), len(trick), int(row["trump"]))) if trick else 0
    return held, trick, won, points, leader, winner, voids, movers


def consistent(world_held, world_down, held, estimates, seat, dealer, revealed, voids, players):
    """Does a world (hands and face-down estimates of every seat) agree with what `seat` knows?"""
    others = [s for s in range(players) if s != seat]
    hidden = set().union(*(cards(held[s]) | {int(estimates[s, 1])} for s in others))
    drawn = [cards(world_held[s]) for s in others] + [{world_down[s]} for s in others]
    if world_held[seat] != held[seat] or world_down[seat] != int(estimates[seat, 1]):
        return False
    if sum(map(len, drawn)) != len(hidden) or set().union(*drawn) != hidden:
        return False
    for s in others:
        if len(cards(world_held[s])) != len(cards(held[s])) or any(colour(c) in voids[s] for c in cards(world_held[s])):
            return False
    places = cards(world_held[dealer]) | {world_down[dealer]}
    return all(c in places for c in revealed if c in hidden)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_every_world_agrees_with_what_the_seat_has_seen(players):
    rng = np.random.default_rng(players)
    ctx = wsearch.make_context(1)
    state = np.array([stream_state(7, players)], np.uint64)
    count = players * int(rules.tricks_per_deal(players))
    checked = 0
    for row, play in positions(players, 11, 30):
        dealer, trump = int(row["dealer"]), int(row["trump"])
        revealed = [int(c) for c in row["revealed"]]
        estimates = row["estimates"].copy()
        stop = int(rng.integers(1, count))
        held, trick, won, points, leader, winner, voids, movers = view_at(row, play, players, stop)
        seat = (leader + len(trick)) % players
        wsearch.begin(ctx, players, dealer, revealed[0], revealed[1], trump)
        for i, c in enumerate(play[:stop]):  # the deal kernel's notes, card by card
            wsearch.note(ctx, movers[i], i // players, i % players, c, play[i - i % players])
        assert [{k for k in range(len(MU.colours)) if int(v) >> k & 1} for v in ctx.void[:players]] == voids
        truth = np.array(held + [0] * (6 - players), np.uint64)
        args = (np.array(trick + [0] * (6 - len(trick)), np.int64), estimates, np.array(won), np.array(points))
        wsearch.look(ctx, seat, stop // players, len(trick), leader, winner, truth, *args)
        true_down = [int(estimates[s, 1]) for s in range(players)]
        assert consistent(held, true_down, held, estimates, seat, dealer, revealed, voids, players)
        seen = set()
        for _ in range(20):
            wsearch.world(ctx, state)
            world_held = [int(h) for h in ctx.held[:players]]
            world_down = [int(ctx.estimates[s, 1]) for s in range(players)]
            assert (ctx.estimates[:players, 0] == estimates[:, 0]).all()
            assert consistent(world_held, world_down, held, estimates, seat, dealer, revealed, voids, players)
            seen.add(tuple(world_held))
        checked += len(seen) > 1
    assert checked > 20  # the worlds vary: the hidden cards are dealt anew


@pytest.mark.slow  # compiles the whole search deal driver
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_search_seats_play_legal_cards_and_their_records_replay_to_the_rows(players):
    rows = simulate_deals(players, 5, "search", 0, 3, worlds=2)
    first = simulate_deals(players, 5, "search-uniform", 0, 3, worlds=2)
    heuristic = simulate_deals(players, 5, "heuristic", 0, 3)
    for name in ("dealer", "hands", "revealed"):  # the deal and the lead: the heuristic's
        assert (rows[name] == heuristic[name]).all(), name
    assert (first["estimates"] == heuristic["estimates"]).all()  # search's are searched (setup_search.py)
    for deal in range(3):
        result = replay(record(players, 5, "search", deal, 2))  # InputError on an illegal card
        assert result["scores"] == rows["scores"][deal].tolist()


@pytest.mark.slow  # compiles the whole search deal driver
def test_the_budget_changes_the_cards():
    one = simulate_deals(3, 8, ONE_SEARCH, 0, 20, worlds=1)
    more = simulate_deals(3, 8, ONE_SEARCH, 0, 20, worlds=6)
    assert (one["scores"] != more["scores"]).any(axis=1).sum() >= 2
    assert (one["hands"] == more["hands"]).all()
    default = simulate_deals(3, 8, ONE_SEARCH, 0, 5)
    assert (default["scores"] == simulate_deals(3, 8, ONE_SEARCH, 0, 5, worlds=DEFAULT_WORLDS)["scores"]).all()


def run(path, *args, deals=70, seed=4):
    base = ("run", "--game", "wimmueln", "--players", 3, "--deals", deals, "--seed", seed, "--no-progress")
    res = invoke(*base, "--out", path, *args)
    assert res.exit_code == 0, res.output
    return pq.read_table(path)


@pytest.mark.slow
@pytest.mark.parametrize("exact", [(), ("--search-exact-tricks", 3)])
def test_a_search_run_is_the_same_on_one_or_two_workers_and_its_records_replay(tmp_path, exact):
    """The first search player's cards, and the second's with exact endgames."""
    args = ("--play", ONE_SEARCH, "--search-worlds", 2, *exact)
    one = run(tmp_path / "one.parquet", *args, "--workers", 1)
    two = run(tmp_path / "two.parquet", *args, "--workers", 2)  # 70 deals: two chunks
    assert one.equals(two)
    heuristic = run(tmp_path / "h.parquet", "--play", "heuristic")
    assert not one.column("score_0").equals(heuristic.column("score_0"))
    for deal in (0, 69):
        res = invoke("record", "--game", "wimmueln", "--players", 3, "--seed", 4, *args, "--deal", deal)
        assert res.exit_code == 0, res.output
        (tmp_path / "record.json").write_text(res.output)
        replayed = invoke("replay", tmp_path / "record.json")
        assert replayed.exit_code == 0, replayed.output
        row = one.slice(deal, 1).to_pylist()[0]
        assert json.loads(replayed.output)["scores"] == [row[f"score_{i}"] for i in range(3)]


@pytest.mark.slow
def test_every_seat_searching_runs_from_the_command_line_and_a_budget_names_the_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ("run", "--game", "wimmueln", "--players", 3, "--deals", 4, "--seed", 1, "--play", "search", "--no-progress")
    res = invoke(*args, "--search-worlds", 2)
    assert res.exit_code == 0, res.output
    (name,) = os.listdir("runs")
    tag = "search-weights" + world_weights.resolve(WEIGHTS, "")[0].replace("@", "_")
    assert name == f"wimmueln-3p-search-search-worlds2-{tag}-seed1"
    assert pq.read_table(os.path.join("runs", name)).num_rows == 4
    summary = invoke("summary", os.path.join("runs", name))
    assert summary.exit_code == 0 and "search play" in summary.output, summary.output
    again = invoke(*args)  # the default budget: another run, named without it
    assert again.exit_code == 0, again.output
    assert sorted(os.listdir("runs")) == sorted([name, f"wimmueln-3p-search-{tag}-seed1"])


def test_search_exact_tricks_without_a_search_seat_is_refused_in_one_line():
    for play in ("heuristic", "search-uniform"):
        res = invoke(
            "run", "--game", "wimmueln", "--deals", 5, "--players", 3, "--play", play, "--search-exact-tricks", 2
        )
        assert res.exit_code == 2 and "Traceback" not in res.output, res.output
        assert "--search-exact-tricks applies only with --play search" in res.output.strip().splitlines()[-1]


@pytest.mark.parametrize("play", ["heuristic", "random,heuristic,dd"])
def test_search_worlds_without_a_search_seat_is_refused_in_one_line(play):
    for command in ("run", "record"):
        extra = ("--deal", 0) if command == "record" else ("--deals", 5)
        res = invoke(
            command, "--game", "wimmueln", "--players", 3, "--seed", 1, "--play", play, "--search-worlds", 8, *extra
        )
        last = res.output.strip().splitlines()[-1]
        assert res.exit_code == 2 and last.startswith("Error: --search-worlds applies only with --play search"), (
            res.output
        )
        assert "Traceback" not in res.output
