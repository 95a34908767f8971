"""The Last Panther's search player (`--play search`, docs/players.md "Search"): the worlds a seat
draws agree with what it has seen (checked in plain Python on random mid-deal states, and all of
them drawn on small ones), the voids the deal kernel notes, and runs: legal cards that replay,
rows independent of the workers, a budget that is used, the CLI's errors."""

import itertools
import json
import os
from collections import Counter

import numpy as np
import pyarrow.parquet as pq
import pytest
import reference_tricks as ref
from click.testing import CliRunner

from musim.cli import cli
from musim.engine.seats import seat_policies
from musim.games.panther import WEIGHTS, policies, rules, search
from musim.games.panther.simulate import make_workspace, simulate_deals
from musim.play import world_weights

COLOUR = [ref.colour(c) for c in range(60)]
NUMBER = [ref.number(c) for c in range(60)]


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def midgame(rng, n, played):
    """A random deal of n players after `played` cards of random legal play, in plain Python:
    held and passed (card lists per seat), the trick so far, its leader and winner's position,
    and the colours each seat showed it lacks."""
    deck = ref.panther_deck(n)
    rng.shuffle(deck)
    size, k = len(deck) // n, 3 if n < 6 else 2
    dealt = [deck[s * size : (s + 1) * size] for s in range(n)]
    passed = [list(rng.choice(hand, k, replace=False)) for hand in dealt]
    held = [[c for c in dealt[s] if c not in passed[s]] + passed[s - 1] for s in range(n)]
    voids = [set() for _ in range(n)]
    leader, trick = int(rng.integers(n)), []
    for _ in range(played):
        seat = (leader + len(trick)) % n
        led = trick[0] if trick else None
        card = int(rng.choice(ref.legal(held[seat], led, COLOUR, None, False)))
        if led is not None and COLOUR[card] != COLOUR[led]:
            voids[seat].add(COLOUR[led])
        held[seat].remove(card)
        trick.append(card)
        if len(trick) == n:
            leader, trick = (leader + ref.winner(trick, COLOUR, NUMBER, None, False)) % n, []
    winner = ref.winner(trick, COLOUR, NUMBER, None, False) if trick else 0
    return held, passed, trick, leader, winner, voids


def observe(ctx, n, held, passed, trick, leader, winner, voids):
    """search.observe for the seat to move; returns that seat."""
    seat = (leader + len(trick)) % n
    masks = np.zeros(rules.MAX_PLAYERS, np.uint64)
    for s in range(n):
        masks[s] = ref.mask_of(held[s])
    void_masks = np.zeros(rules.MAX_PLAYERS, np.uint64)
    for s in range(n):
        void_masks[s] = ref.mask_of(c for c in range(60) if COLOUR[c] in voids[s])
    passed_masks = np.zeros(rules.MAX_PLAYERS, np.uint64)
    for s in range(n):
        passed_masks[s] = ref.mask_of(passed[s])
    trick_array = np.zeros(rules.MAX_PLAYERS, np.int64)
    trick_array[: len(trick)] = trick
    scores = np.zeros(rules.MAX_PLAYERS, np.int64)
    played = cards_dealt(n) - sum(len(h) for h in held)
    args = (masks, trick_array, len(trick), leader, winner, played, scores, passed_masks, void_masks)
    search.observe(ctx, n, seat, *args)
    return seat


def drawn(ctx, n, state):
    search.world(ctx, state)
    return [set(ref.cards_of(ctx.base[s])) for s in range(n)]


def test_every_world_agrees_with_what_the_seat_has_seen():
    rng = np.random.default_rng(50)
    ctx, state = search.make_context(1), np.array([7], np.uint64)
    for trial in range(240):
        n = 3 + trial % 6
        held, passed, trick, leader, winner, voids = midgame(rng, n, int(rng.integers(0, cards_dealt(n))))
        seat = observe(ctx, n, held, passed, trick, leader, winner, voids)
        hidden = {c for s in range(n) if s != seat for c in held[s]}
        given = set(passed[seat]) & hidden  # passed and not yet played
        for _ in range(10):
            world = drawn(ctx, n, state)
            assert world[seat] == set(held[seat])
            others = [world[s] for s in range(n) if s != seat]
            assert set().union(*others) == hidden and sum(map(len, others)) == len(hidden)
            assert given <= world[(seat + 1) % n]
            for s in range(n):
                if s != seat:
                    assert len(world[s]) == len(held[s])
                    assert not {COLOUR[c] for c in world[s]} & voids[s], (s, voids[s], world[s])


def cards_dealt(n):
    return len(ref.panther_deck(n)) // n * n


def test_near_the_end_every_consistent_world_is_drawn_equally_often():
    """Late in a deal the worlds are few: every one the seat cannot rule out is drawn, about as
    often as each other (so no holder is barred from a card it may hold)."""
    rng = np.random.default_rng(51)
    ctx, state = search.make_context(1), np.array([11], np.uint64)
    checked = 0
    while checked < 6:
        n = 4
        held, passed, trick, leader, winner, voids = midgame(rng, n, 60 - 4 * 2 - int(rng.integers(0, 3)))
        seat = observe(ctx, n, held, passed, trick, leader, winner, voids)
        others = [s for s in range(n) if s != seat]
        given = set(passed[seat]) & {c for s in others for c in held[s]}
        left = (seat + 1) % n
        free = sorted(c for s in others for c in held[s] if c not in given)
        sizes = [len(held[s]) - (len(given) if s == left else 0) for s in others]
        consistent = set()
        for order in itertools.permutations(free):
            parts, j = [], 0
            for s, size in zip(others, sizes):
                part = frozenset(order[j : j + size])
                j += size
                if any(COLOUR[c] in voids[s] for c in part):
                    break
                parts.append(part | (given if s == left else set()))
            else:
                consistent.add(tuple(parts))
        if not 3 <= len(consistent) <= 60:
            continue
        draws = 200 * len(consistent)
        counts = Counter(tuple(frozenset(w[s]) for s in others) for w in (drawn(ctx, n, state) for _ in range(draws)))
        assert set(counts) == consistent
        assert min(counts.values()) > 0.6 * 200 and max(counts.values()) < 1.4 * 200
        checked += 1


def test_the_deal_notes_each_seats_voids():
    """ws.voids after a deal: the colours each seat failed to follow, from the log in plain Python."""
    for n, seed in ((3, 1), (4, 2), (6, 3), (8, 4)):
        ws = make_workspace(n, seat_policies(n, "random", policies.NAMES))
        row = simulate_deals(n, seed, "random", 0, 1, ws)
        log = list(ws.log[: cards_dealt(n)])
        leader, expected = (int(row["dealer"][0]) + 1) % n, [set() for _ in range(n)]
        for first in range(0, len(log), n):
            trick = log[first : first + n]
            for j, card in enumerate(trick):
                if COLOUR[card] != COLOUR[trick[0]]:
                    expected[(leader + j) % n].add(COLOUR[trick[0]])
            leader = (leader + ref.winner(trick, COLOUR, NUMBER, None, False)) % n
        got = [{COLOUR[c] for c in ref.cards_of(ws.voids[s])} for s in range(n)]
        assert got == expected


def test_search_worlds_without_a_search_seat_is_a_one_line_error(tmp_path):
    out = tmp_path / "out.parquet"
    res = invoke("run", "--game", "panther", "--deals", 5, "--search-worlds", 8, "--out", out)
    assert res.exit_code != 0
    last = res.output.strip().splitlines()[-1]
    assert last.endswith("--search-worlds applies only with --play search or search-uniform (at some seat)")
    assert "Traceback" not in res.output and not out.exists()


# ---------------------------------------------------------------- runs (compile the search's kernels)


@pytest.mark.slow
@pytest.mark.parametrize("exact", [(), ("--search-exact-tricks", 3)])
def test_a_search_run_plays_legal_cards_and_records_replay_to_its_rows(tmp_path, exact):
    """The second search player's, without and with exact endgames."""
    out = tmp_path / "search.parquet"
    args = ("--game", "panther", "--players", 4, "--seed", 5, "--play", "search", "--search-worlds", 4, *exact)
    res = invoke("run", *args, "--deals", 6, "--out", out, "--no-progress")
    assert res.exit_code == 0, res.output
    table = pq.read_table(out)
    for index in range(6):
        record = invoke("record", *args, "--deal", index)
        assert record.exit_code == 0, record.output
        path = tmp_path / f"{index}.json"
        path.write_text(record.output)
        replayed = invoke("replay", path)  # replay checks every card is legal
        assert replayed.exit_code == 0, replayed.output
        row = table.slice(index, 1).to_pylist()[0]
        assert json.loads(replayed.output)["scores"] == [row[f"score_{i}"] for i in range(4)]


@pytest.mark.slow
def test_a_search_budget_names_its_default_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ("--game", "panther", "--players", 3, "--deals", 2, "--seed", 1, "--play", "search", "--search-worlds", 5)
    res = invoke("run", *args, "--no-progress")
    assert res.exit_code == 0, res.output
    (name,) = os.listdir("runs")
    assert name.startswith("panther-3p-search-") and "5" in name and name.endswith("-seed1")
    again = invoke("run", *args[:-2], "--no-progress")  # the default budget: another run, named without it
    assert again.exit_code == 0, again.output
    tag = "search-weights" + world_weights.resolve(WEIGHTS, "")[0].replace("@", "_")
    assert sorted(os.listdir("runs")) == sorted([name, f"panther-3p-search-{tag}-seed1"])
    assert invoke("summary", os.path.join("runs", name)).exit_code == 0


@pytest.mark.slow
@pytest.mark.parametrize("exact", [(), ("--search-exact-tricks", 3)])
def test_search_rows_do_not_depend_on_the_workers_and_use_the_budget(tmp_path, exact):
    tables = {}
    for workers in (1, 2):
        out = tmp_path / f"{workers}.parquet"
        res = invoke(
            "run", "--game", "panther", "--players", 3, "--deals", 130, "--seed", 8,
            "--play", "search,heuristic,search", "--search-worlds", 2, "--workers", workers, "--out", out,
            "--no-progress", *exact,
        )  # fmt: skip
        assert res.exit_code == 0, res.output
        tables[workers] = pq.read_table(out)
    assert tables[1].num_rows == 130 and tables[1].equals(tables[2])
    one, more = (simulate_deals(4, 9, "search", 0, 20, worlds=w)["scores"] for w in (1, 8))
    assert not np.array_equal(one, more)
