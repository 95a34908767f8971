"""Mü's search player (`--play search`, musim/games/mu/search_player.py): the worlds a search seat draws
agree with what it has seen (checked in Python against a record of the deal so far), its cards
are legal, its rows are reproducible and use the budget, and it runs in `run`, `record`/`replay`,
`bid` and `balance`; --search-worlds without a search seat is refused in one line."""

import json
import os
import random

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from musim.cli import cli
from musim.core.bits import bit
from musim.games.mu import policies, rules, search_player
from musim.games.mu import run as mu_run
from musim.games.mu import simulate as sim
from musim.games.mu.params import WEIGHTS
from musim.play.world_weights import resolve

HEURISTIC_PLAY = np.full(sim.MAX_PLAYERS, policies.HEURISTIC, np.int64)  # every seat's card-play code

HAND = "R9 R8 R7 R7 R6 G9 G7 G0 B1 B8 K0 K3 K5 K6 Y2"  # a 4-player hand for `musim bid`


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def mask(cards):
    return np.uint64(sum(1 << c for c in cards))


def cards_of(m):
    return {c for c in range(64) if int(m) >> c & 1}


def mid_deal(rng, n, exact_tricks=0):
    """A workspace with a search context in the middle of a random deal (random contract, laid
    cards and legal cards so far), and what the next seat has seen, kept here in Python:
    (ws, seat, leader, k, winner_pos, hands, public, voids)."""
    ws = sim.make_workspace(n, worlds=3, exact_tricks=exact_tricks)
    deck = list(range(36 if n == 3 else 60))
    rng.shuffle(deck)
    size = rules.hand_size(n)
    hands = [set(deck[s * size : (s + 1) * size]) for s in range(n)]
    chief = rng.randrange(n)
    partner = rng.choice([s for s in range(n) if s != chief]) if n >= 4 else -1
    chief_trump = rng.randrange(-1, 15)
    vice_trump = rng.choice([t for t in range(15) if t != chief_trump]) if n >= 4 else -1
    sim.set_team(n, chief, partner, ws)
    rules.fill_contract(chief_trump, vice_trump, ws.klass, ws.power, ws.class_mask)
    rules.fill_tier_masks(chief_trump, vice_trump, ws.tier_mask)
    laid = [set(rng.sample(sorted(h), rng.randrange(4))) for h in hands]
    laid_masks = np.zeros(sim.MAX_PLAYERS, np.uint64)
    for s in range(n):
        ws.held[s], laid_masks[s] = mask(hands[s]), mask(laid[s])
    search_player.announce(ws.search, n, laid_masks, 2)
    search_player.begin(ws.search, n, chief, chief_trump, vice_trump if n >= 4 else -1, HEURISTIC_PLAY)
    klass = ws.klass
    voids = [set() for _ in range(n)]
    leader, trick = chief, []
    for _ in range(rng.randrange(n * size - 1)):
        seat = (leader + len(trick)) % n
        follow = [c for c in hands[seat] if trick and klass[c] == klass[trick[0]]]
        card = rng.choice(sorted(follow or hands[seat]))
        if trick:
            search_player.note(ws.search, seat, card, trick[0])
            if klass[card] != klass[trick[0]]:
                voids[seat].add(int(klass[trick[0]]))
        hands[seat].discard(card)
        ws.held[seat] ^= bit(card)
        ws.trick[len(trick)] = card
        trick.append(card)
        if len(trick) == n:
            leader = (leader + rules.trick_winner(ws.trick, n, ws.klass, ws.power)) % n
            trick = []
    k = len(trick)
    winner_pos = rules.trick_winner(ws.trick, k, ws.klass, ws.power) if k else 0
    public = [laid[s] & hands[s] for s in range(n)]
    return ws, (leader + k) % n, leader, k, winner_pos, hands, public, voids


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_every_world_is_consistent_with_what_the_search_seat_has_seen(n):
    rng = random.Random(n)
    state = np.array([n], np.uint64)
    moved = 0
    for _ in range(60):
        ws, seat, leader, k, winner_pos, hands, public, voids = mid_deal(rng, n)
        ctx = ws.search
        points = np.zeros(sim.MAX_PLAYERS, np.int64)
        assert search_player.know(ctx, n, seat, leader, k, winner_pos, points, search_player.ALL_GROUPS, ws.klass)
        others = set().union(*(hands[s] for s in range(n) if s != seat))
        for _ in range(5):
            search_player.world(ctx, state)
            world = {s: cards_of(ctx.fixed[s]) for s in range(n)}
            for h in range(ctx.meta[search_player.HOLDERS]):
                world[int(ctx.seat_of[h])] |= cards_of(ctx.drawn[h])
            assert world[seat] == hands[seat]  # its own hand
            assert set().union(*(world[s] for s in range(n) if s != seat)) == others  # the unplayed cards
            for s in range(n):
                if s == seat:
                    continue
                assert len(world[s]) == len(hands[s])  # hand sizes (so no card twice)
                assert public[s] <= world[s]  # the laid cards stay with their holders
                assert not any(int(ws.klass[c]) in voids[s] for c in world[s])  # no card of a shown void
            moved += any(world[s] != hands[s] for s in range(n))
    assert moved > 0  # the hidden cards are dealt anew, not copied from the deal


@pytest.mark.slow  # compiles the search and its playouts (about 20 s cold), and the solver with exact endgames
@pytest.mark.parametrize("exact", [False, True])
def test_a_search_seats_card_is_legal(exact):
    """Either player's: the first (no exact endgame) and the second solving its last 3 tricks."""
    rng = random.Random(11)
    state = np.array([11], np.uint64)
    for n in (3, 4, 5, 6):
        for _ in range(15):
            ws, seat, leader, k, winner_pos, hands, _, _ = mid_deal(rng, n, 3 if exact else 0)
            card = search_player.seat_card(
                ws.search, n, seat, leader, k, winner_pos, np.zeros(sim.MAX_PLAYERS, np.int64), state, exact
            )
            klass, led = ws.klass, ws.trick[0]
            follow = {c for c in hands[seat] if k and klass[c] == klass[led]}
            assert card in (follow or hands[seat])


def test_search_worlds_without_a_search_seat_is_refused_in_one_line(tmp_path):
    commands = (
        ("run", "--deals", 5, "--out", tmp_path / "r"),
        ("record", "--seed", 0, "--deal", 0),
        ("balance", "--deals", 5, "--out", tmp_path / "b"),
        ("bid", "--hand", HAND),
    )
    for command in commands:
        res = invoke(*command, "--search-worlds", 4)
        assert res.exit_code == 2, res.output
        last = res.output.strip().splitlines()[-1]
        assert "--search-worlds applies only with --play search" in last and "Traceback" not in res.output
    res = invoke("run", "--deals", 5, "--play", "search-uniform", "--search-exact-tricks", 2, "--out", tmp_path / "u")
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    assert "--search-exact-tricks applies only with --play search" in res.output.strip().splitlines()[-1]


@pytest.mark.slow  # compiles the deal kernels with the search
def test_the_budget_is_used_and_rows_are_the_same_on_one_or_two_workers(tmp_path, monkeypatch):
    monkeypatch.setattr(mu_run, "CHUNK_SEARCH_DEALS", 4)  # several chunks, so that both workers play
    play = "search,heuristic,heuristic,heuristic"

    def run(name, *args):
        out = tmp_path / name
        res = invoke("run", "--deals", 12, "--seed", 3, "--play", play, "--out", out, "--no-progress", *args)
        assert res.exit_code == 0, res.output
        return pq.read_table(out).to_pydict()

    one, two = run("one", "--workers", 1, "--search-worlds", 5), run("two", "--workers", 2, "--search-worlds", 5)
    assert one == two
    exact = ("--search-worlds", 5, "--search-exact-tricks", 5)  # weighted worlds agree with the playouts at 3
    three = run("exact-two", "--workers", 2, *exact)
    monkeypatch.setattr(mu_run, "CHUNK_SEARCH_DEALS", 5)  # other chunks
    assert run("exact-one", "--workers", 1, *exact) == three
    assert three["card_points"] != one["card_points"]  # the exact endgames play otherwise
    other = run("three", "--workers", 1, "--search-worlds", 1)
    assert other["hands"] == one["hands"] and other["card_points"] != one["card_points"]
    heuristic = run("heuristic", "--workers", 1, "--play", "heuristic")
    assert heuristic["card_points"] != one["card_points"]  # the search seat plays otherwise


@pytest.mark.slow  # compiles the deal kernels with the search
def test_a_budget_other_than_the_default_names_the_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the default directory runs/ under the current one
    for extra in ((), ("--search-worlds", 3), ("--search-worlds", 3, "--search-exact-tricks", 2)):
        res = invoke("run", "--deals", 2, "--seed", 1, "--play", "search", "--no-progress", *extra)
        assert res.exit_code == 0, res.output
    weights = "-search-weights" + resolve(WEIGHTS, "")[0].replace("@", "_")  # the key names them, so the name does
    assert sorted(os.listdir("runs")) == [
        f"mu-4p-search{weights}-seed1",
        f"mu-4p-search-search-worlds3-search-exact-tricks2{weights}-seed1",
        f"mu-4p-search-search-worlds3{weights}-seed1",
    ]


@pytest.mark.slow  # compiles the deal kernels with the search
def test_a_search_runs_records_replay_to_its_rows(tmp_path):
    out = tmp_path / "run"
    res = invoke("run", "--deals", 4, "--seed", 2, "--play", "search", "--search-worlds", 3, "--out", out)
    assert res.exit_code == 0, res.output
    rows = pq.read_table(out).to_pylist()
    for deal, row in enumerate(rows):
        res = invoke("record", out, "--deal", deal)
        assert res.exit_code == 0, res.output
        path = tmp_path / f"{deal}.json"
        path.write_text(res.output)
        replayed = invoke("replay", path)
        assert replayed.exit_code == 0, replayed.output
        assert json.loads(replayed.output)["scores"] == [row[f"score_{i}"] for i in range(4)]


@pytest.mark.slow  # compiles the analyses' kernels with the search
def test_bid_and_balance_play_search(tmp_path):
    res = invoke("bid", "--hand", HAND, "--play", "search", "--search-worlds", 1, "--samples", 3, "--workers", 1)
    assert res.exit_code == 0 and "best bid" in res.output, res.output
    args = ("balance", "--players", 4, "--deals", 8, "--strength-deals", 2, "--workers", 1, "--no-progress")
    res = invoke(*args, "--play", "search", "--search-worlds", 2, "--out", tmp_path / "s")
    assert res.exit_code == 0, res.output
    heuristic = invoke(*args, "--out", tmp_path / "h")
    assert heuristic.exit_code == 0, heuristic.output
    read = lambda name: (tmp_path / name / "balance.csv").read_text()
    assert read("s") != read("h")  # the search's deals are played otherwise


def test_a_search_runs_estimate_counts_each_search_seats_worlds(monkeypatch):
    from types import SimpleNamespace

    from musim.games.mu import estimates

    monkeypatch.setattr(estimates, "COSTS", {("deal", 4, "heuristic"): 0.001})
    monkeypatch.setattr(estimates, "SEARCH_WORLD_SECONDS", {4: 0.01})
    spec = lambda play, worlds: SimpleNamespace(
        mode="deals", players=4, play=play, count=100, workers=2, options={"dd_tricks": 0, "search_worlds": worlds}
    )
    # 100 deals on 2 workers, each the heuristic's 1 ms and 10 ms a world of each search seat
    one = estimates.run_seconds(spec("search,heuristic,heuristic,heuristic", 8))
    assert one == pytest.approx(estimates.STARTUP_S + 100 * (0.001 + 8 * 0.01) / 2)
    every = estimates.run_seconds(spec("search", 8))
    assert every == pytest.approx(estimates.STARTUP_S + 100 * (0.001 + 4 * 8 * 0.01) / 2)


def test_a_balance_checkpoint_key_names_a_budget_other_than_the_default():
    from musim.games.mu.analysis.balance import checkpoint_key
    from musim.games.mu.params import MuParams
    from musim.play.search_budget import DEFAULT_WORLDS

    key = lambda **kw: checkpoint_key("balance-deals", MuParams(4, "search", auction="cautious", **kw), 1)
    assert key() == key(worlds=DEFAULT_WORLDS)
    assert "search_worlds" not in key()["params"]
    assert key(worlds=5)["params"]["search_worlds"] == 5


def test_a_balance_checkpoint_key_names_the_world_weights_of_a_search_seat(tmp_path):
    """Other weights play other cards: a `search` balance's checkpoints are keyed by the
    weights' id (version and digest), a `search-uniform` or heuristic one's not."""
    import shutil

    from musim.games.mu.analysis.balance import checkpoint_key
    from musim.games.mu.params import MuParams
    from musim.play.world_weights import GAMES

    key = lambda play, **kw: checkpoint_key("balance-deals", MuParams(4, play, **kw), 1)["params"]
    shipped = key("search")["search_weights"]
    assert shipped.startswith("v1@") and len(shipped) == len("v1@") + 8
    assert "search_weights" not in key("search-uniform") and "search_weights" not in key("heuristic")
    copy = shutil.copy(GAMES / "mu" / "models" / "world_weights_v1.npz", tmp_path / "w.npz")
    assert key("search", search_weights=str(copy))["search_weights"] == f"{copy}@{shipped[3:]}"


@pytest.mark.slow  # compiles the deal kernels with the search
def test_search_seats_search_their_trumps_and_partner_and_search_uniform_does_not():
    """On the same deals, `search` vices and chiefs name other trumps or partners than the
    heuristic's in some deals; `search-uniform` ones name the heuristic's always."""
    runs = {p: sim.simulate_deals(4, 5, p, 0, 40, worlds=8) for p in ("heuristic", "search-uniform", "search")}
    played = runs["heuristic"]["res"][:, sim.OUTCOME] == sim.PLAYED
    contract = lambda p: runs[p]["res"][played][:, [sim.CHIEF, sim.VICE, sim.VICE_TRUMP, sim.CHIEF_TRUMP, sim.PARTNER]]
    assert (contract("search-uniform") == contract("heuristic")).all()
    assert (contract("search")[:, :2] == contract("heuristic")[:, :2]).all()  # the auction is the heuristic's
    assert (contract("search")[:, 2] != contract("heuristic")[:, 2]).any()  # the vice's trump
    assert (contract("search")[:, 3:] != contract("heuristic")[:, 3:]).any()  # the chief's trump and partner


@pytest.mark.slow  # compiles the whole search deal driver
def test_a_search_chief_of_three_players_searches_its_trump():
    """With 3 players (no vice, no partner) `search` chiefs name other trumps than the
    heuristic's in some deals."""
    runs = {p: sim.simulate_deals(3, 5, p, 0, 60, worlds=8) for p in ("heuristic", "search")}
    played = runs["heuristic"]["res"][:, sim.OUTCOME] == sim.PLAYED
    trump = lambda p: runs[p]["res"][played][:, sim.CHIEF_TRUMP]
    assert (trump("search") != trump("heuristic")).any()
