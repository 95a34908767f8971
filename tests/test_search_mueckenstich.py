"""Mückenstich's search player (`--play search`, docs/players.md "Search"): its moves (a card,
and the trump a mosquito names), the worlds a seat draws against what it has seen (checked in
plain Python on random mid-deal states played through the deal's own loop), and runs: legal
moves that replay, rows independent of the workers, a budget that is used, the CLI (those
compile the deal driver with a search seat: slow tier)."""

import json
import os
from collections import Counter

import numpy as np
import pyarrow.parquet as pq
import pytest
import reference_mueckenstich as ref
from click.testing import CliRunner

from musim.cli import cli
from musim.games.mueckenstich import WEIGHTS, cardplay, policies, search
from musim.games.mueckenstich.record import record, replay
from musim.games.mueckenstich.simulate import simulate_deals
from musim.play import world_weights

DEALT = 60


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_a_move_is_a_kind_of_card_and_a_mosquito_names_each_trump():
    """Identical cards make one move; each mosquito makes four, one a trump; no code serves two."""
    owner = Counter()
    for card in range(64):
        codes = ref.cards_of(search.MOVES[card])
        assert len(codes) == (4 if ref.is_mosquito(card) else 1)
        named = sorted(int(search.NAMES[code]) for code in codes)
        assert named == ([0, 1, 2, 3] if ref.is_mosquito(card) else [-1])
        for code in codes:
            same = [c for c in range(64) if ref.colour(c) == ref.colour(card) and ref.rank(c) == ref.rank(card)]
            assert ref.cards_of(search.CARDS[code]) == same
            owner[code] += card == same[0]
    assert sorted(owner) == list(range(64)) and set(owner.values()) == {1}


class Deal:
    """A random deal played card by card through cardplay.play_on (every seat a search seat, so
    it stops after each card), its hands and voids followed in plain Python."""

    def __init__(self, rng, n):
        deck = [int(c) for c in rng.permutation(64)]
        size, k = DEALT // n, 2 if n < 6 else 0
        self.n, self.rng = n, rng
        self.dealt = [deck[s * size : (s + 1) * size] for s in range(n)]
        self.discards = [[int(c) for c in rng.choice(h, k, replace=False)] for h in self.dealt]
        self.held = [[c for c in h if c not in d] for h, d in zip(self.dealt, self.discards)]
        self.voids = [set() for _ in range(n)]
        self.played, self.trick, self.trump = [], [], None
        self.leader = int(rng.integers(n))
        self.tb = cardplay.make_table()
        cardplay.start(n, self.tb, self.leader)
        for s in range(n):
            self.tb.held[s] = ref.mask_of(self.held[s])
        self.policy = np.full(n, policies.SEARCH, np.int64)

    def seat(self):
        return (self.leader + len(self.trick)) % self.n

    def play(self):
        seat, n = self.seat(), self.n
        led = self.trick[0] if self.trick else None
        card = int(self.rng.choice(ref.legal(self.held[seat], led)))
        named = int(self.rng.integers(4)) if ref.is_mosquito(card) else -1
        cardplay.play_on(n, self.policy, np.zeros(1, np.uint64), self.tb, None, card, named)
        if led is not None and ref.colour(card) != ref.colour(led):
            self.voids[seat].add(ref.colour(led))
        self.held[seat].remove(card)
        self.played.append(card)
        self.trick.append(card)
        self.trump = named if named >= 0 else self.trump
        if len(self.trick) == n:
            self.leader = (self.leader + ref.winner(self.trick, self.trump)) % n
            self.trick = []


def test_the_deal_loop_notes_the_voids_and_every_world_agrees_with_what_the_seat_has_seen():
    rng = np.random.default_rng(50)
    ctx, state = search.make_context(1), np.array([7], np.uint64)
    discards = np.zeros(6, np.uint64)
    for trial in range(200):
        n = 3 + trial % 4
        deal = Deal(rng, n)
        for _ in range(int(rng.integers(0, n * (DEALT // n - (2 if n < 6 else 0))))):
            deal.play()
        assert deal.voids == [{c for c in range(4) if int(deal.tb.voids[s]) >> c & 1} for s in range(n)]
        seat = deal.seat()
        for s in range(n):
            discards[s] = ref.mask_of(deal.discards[s])
        holders = search.observe(ctx, n, seat, deal.tb, discards)
        hidden = set(range(64)) - set(deal.held[seat]) - set(deal.discards[seat]) - set(deal.played)
        others = [(seat + i) % n for i in range(1, n)]
        dead = [2] * (n - 1) * (n < 6) + [4]
        assert holders == len(others) + len(dead)
        for _ in range(8):
            search.world(ctx, state)
            assert ref.cards_of(ctx.root.held[seat]) == sorted(deal.held[seat])
            hands = [ref.cards_of(ctx.root.held[s]) for s in others]
            piles = [ref.cards_of(ctx.drawn[h]) for h in range(len(others), holders)]
            assert [len(h) for h in hands] == [len(deal.held[s]) for s in others]
            assert [len(p) for p in piles] == dead
            everything = [c for part in hands + piles for c in part]
            assert sorted(everything) == sorted(hidden)
            for s, hand in zip(others, hands):
                assert not {ref.colour(c) for c in hand} & deal.voids[s], (s, deal.voids[s], hand)


@pytest.mark.slow  # compiles the deal driver with a search seat (about a minute cold)
def test_search_moves_are_legal_and_replay_to_the_rows():
    """Every seat searching: the records of the deals replay (each move legal) to the run's scores."""
    for n in (3, 4, 5, 6):
        rows = simulate_deals(n, 5, "search", 0, 2, worlds=2)
        for index in range(2):
            rec = record(n, 5, "search", index, worlds=2)
            assert replay(json.loads(json.dumps(rec)))["scores"] == rows["scores"][index].tolist()


@pytest.mark.slow  # compiles the deal driver with a search seat (about a minute cold)
def test_rows_depend_on_the_deal_and_the_budget_only():
    """A deal's row is the same whatever chunk it is played in (so whatever the workers), and
    the worlds a decision draws change the play."""
    mix = "heuristic,search,heuristic,heuristic"
    whole = simulate_deals(4, 9, mix, 0, 6, worlds=3)
    tail = simulate_deals(4, 9, mix, 3, 3, worlds=3)
    for name, column in tail.items():
        assert np.array_equal(column, whole[name][3:]), name
    more = simulate_deals(4, 9, mix, 0, 6, worlds=12)
    assert not np.array_equal(more["scores"], whole["scores"])
    assert np.array_equal(more["hands"], whole["hands"])  # the same deals


@pytest.mark.slow  # compiles the deal driver with a search seat (about a minute cold)
@pytest.mark.parametrize(
    "play, exact", [("search", 0), ("search,heuristic,heuristic,random", 0), ("search,heuristic,heuristic,random", 3)]
)
def test_cli_runs_search_the_same_on_one_and_two_workers(tmp_path, play, exact):
    """70 deals: two chunks of a search run (seat_run.CHUNK_SEARCH), the rows simulate_deals gives;
    with exact endgames too."""
    out = {}
    for workers in (1, 2):
        path = tmp_path / f"w{workers}.parquet"
        args = ("run", "--game", "mueckenstich", "--play", play, "--deals", 70, "--seed", 2, "--search-worlds", 2)
        args += ("--search-exact-tricks", exact) if exact else ()
        result = invoke(*args, "--workers", workers, "--out", path, "--no-progress")
        assert result.exit_code == 0, result.output
        out[workers] = pq.read_table(path).to_pydict()
    assert out[1] == out[2]
    rows = simulate_deals(4, 2, play, 0, 70, worlds=2, exact_tricks=exact)
    assert out[1]["score_0"] == rows["scores"][:, 0].tolist()


@pytest.mark.slow  # compiles the deal driver with a search seat (about a minute cold)
def test_a_search_budget_names_its_default_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ("--game", "mueckenstich", "--players", 3, "--deals", 2, "--seed", 1, "--play", "search")
    assert invoke("run", *args, "--search-worlds", 5, "--no-progress").exit_code == 0
    (name,) = os.listdir("runs")
    assert name.startswith("mueckenstich-3p-search-") and "5" in name and name.endswith("-seed1")
    assert invoke("run", *args, "--no-progress").exit_code == 0  # the default budget: named without it
    tag = "search-weights" + world_weights.resolve(WEIGHTS, "")[0].replace("@", "_")
    assert sorted(os.listdir("runs")) == sorted([name, f"mueckenstich-3p-search-{tag}-seed1"])


def test_search_worlds_without_a_search_seat_is_a_one_line_error(tmp_path):
    result = invoke(
        "run", "--game", "mueckenstich", "--deals", 2, "--search-worlds", 4, "--out", tmp_path / "x.parquet"
    )
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert errors == ["Error: --search-worlds applies only with --play search or search-uniform (at some seat)"]


@pytest.mark.slow  # compiles the deal driver with a search seat (about a minute cold)
@pytest.mark.parametrize("exact", [0, 3])
def test_cli_record_of_a_search_run_gives_its_moves(tmp_path, exact):
    """`musim record` of a search run, from its file or from its parameters, replays to its row
    (each move legal); with exact endgames, which change some moves."""
    path = tmp_path / "s.parquet"
    args = ("--game", "mueckenstich", "--play", "search", "--seed", 4, "--search-worlds", 3)
    args += ("--search-exact-tricks", exact) if exact else ()
    assert invoke("run", *args, "--deals", 4, "--out", path, "--no-progress").exit_code == 0
    rows = pq.read_table(path).to_pylist()
    for index in range(4):
        from_file = invoke("record", path, "--deal", index)
        from_args = invoke("record", *args, "--deal", index)
        assert from_file.exit_code == 0, from_file.output
        assert json.loads(from_file.output) == json.loads(from_args.output)
        assert json.loads(from_file.output) == record(4, 4, "search", index, worlds=3, exact_tricks=exact)
        scores = replay(json.loads(from_file.output))["scores"]
        assert scores == [rows[index][f"score_{i}"] for i in range(4)]
    if exact:  # the same deals, other moves in their last tricks
        plain = [record(4, 4, "search", i, worlds=3) for i in range(4)]
        solved = [record(4, 4, "search", i, worlds=3, exact_tricks=exact) for i in range(4)]
        early = 4 * (13 - exact)  # the cards before the last `exact` tricks of a 4-player deal
        assert [r["play"][:early] for r in plain] == [r["play"][:early] for r in solved]
        assert [r["play"] for r in plain] != [r["play"] for r in solved]


@pytest.mark.parametrize(
    "play, value, message",
    [
        ("search-uniform", 2, "--search-exact-tricks applies only with --play search (at some seat)"),
        ("search", 16, "Invalid value for '--search-exact-tricks': 16 is not in the range 0<=x<=15."),
    ],
)
def test_bad_search_exact_tricks_is_a_one_line_error(tmp_path, play, value, message):
    out = tmp_path / "x.parquet"
    args = ("run", "--game", "mueckenstich", "--play", play, "--deals", 2, "--search-exact-tricks", value)
    result = invoke(*args, "--out", out)
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and "Traceback" not in result.output and not out.exists()
    assert lines[-1].endswith(message), result.output
