"""The learned auction (musim/games/mu/learned/, docs/players.md): legal lays from any position,
no use of hidden cards, deterministic rows, its model files, keys and records.  One file, so
that one test worker compiles the learned kernels."""

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import cards_of

from musim.cli import cli
from musim.core.bits import popcount
from musim.core.cards import DECK, DECK_3P
from musim.core.deal import deal_cards
from musim.core.deck import MU
from musim.core.rng import randint, stream_state
from musim.engine.parquet import read_metadata
from musim.engine.run import run_key
from musim.engine.spec import RunSpec, checked
from musim.games.mu import policies as pol
from musim.games.mu import run as mu_run
from musim.games.mu import simulate as sim
from musim.games.mu.learned import bidder, model_file
from musim.games.mu.learned.features import LAYOUT, N_WEIGHTS
from musim.games.mu.params import MuParams
from musim.games.mu.rules import MAX_PLAYERS, hand_size, lay_limit, rulebook_targets, top_other

CODES = (pol.RANDOM, pol.HEURISTIC, pol.BOLD, pol.LEARNED)


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def synthetic(path, seed=1, version=0):
    """A model file of random weights: the checks and the kernels do not depend on the weights."""
    weights = np.random.default_rng(seed).normal(size=(4, N_WEIGHTS)).astype(np.float32)
    model_file.save(path, weights, {"version": version, "name": "synthetic"})
    return path


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return str(synthetic(tmp_path_factory.mktemp("model") / "synthetic.npz"))


# ---------------------------------------------------------------- positions


def random_table(n, rng):
    """A random non-decreasing target table for n players."""
    table = rulebook_targets()
    table[n, 1 : hand_size(n) + 1] = rng.integers(0, 30) + np.cumsum(rng.integers(0, 6, hand_size(n)))
    return table


def position(n, seed, codes, turns, table, learned):
    """A workspace after `turns` auction turns of a deal bid by `codes`, or before the turn that
    ended it: (ws, laid, seat to move, passes)."""
    ws = sim.make_workspace(n, targets=table, learned=learned)
    state = np.array([stream_state(seed, 0)], np.uint64)
    hands = np.zeros(MAX_PLAYERS, np.uint64)
    deal_cards(n, DECK_3P if n == 3 else DECK, ws.cards, state, hands)
    ws.held[:] = hands
    laid = np.zeros(MAX_PLAYERS, np.uint64)
    pol.plan_auction(codes, n, ws.held, ws.plan_type, ws.plan_bid, ws.est, ws.targets)
    sim.start_auction(n, codes, laid, ws, learned)
    seat, passes, turn = randint(state, n), 0, 0
    for _ in range(turns):
        kept = [a.copy() for a in (laid, ws.counts, ws.last_lay)]
        after = sim.auction_step(n, seat, passes, turn, codes, state, laid, ws, learned)
        if after[0] >= n:
            for a, b in zip((laid, ws.counts, ws.last_lay), kept, strict=True):
                a[:] = b
            break
        passes, turn, seat = after
    return ws, laid, seat, passes


def learned_lay(n, seat, passes, laid, ws):
    return int(bidder.learned_lay(n, seat, ws.held, laid, ws.counts, ws.last_lay, passes, ws, ws.learned))


POSITIONS = st.tuples(
    st.integers(3, 6),
    st.integers(0, 2**31),
    st.lists(st.sampled_from(CODES), min_size=6, max_size=6),
    st.integers(0, 30),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(POSITIONS)
def test_every_learned_lay_is_legal_from_random_positions_of_mixed_auctions(model, case):
    n, seed, codes, turns = case
    rng = np.random.default_rng(seed)
    learned = MuParams(4, auction="learned", learned_model=model).learned
    codes = np.array(codes, np.int64)
    ws, laid, seat, passes = position(n, seed, codes, turns, random_table(n, rng), learned)
    bidder.plan_seat(seat, n, ws.held, ws.plan_type, ws.plan_est, ws.est)
    avail = int(ws.held[seat]) & ~int(laid[seat])
    lay = learned_lay(n, seat, passes, laid, ws)
    limit = lay_limit(ws.counts[seat], top_other(ws.counts, n, seat), popcount(np.uint64(avail)))
    assert lay & ~avail == 0
    assert bin(lay).count("1") <= max(limit, 0)
    if avail == 0:
        assert lay == 0


@settings(max_examples=100, deadline=None)
@given(POSITIONS)
def test_the_learned_lay_does_not_move_when_other_seats_hidden_cards_are_swapped(model, case):
    n, seed, codes, turns = case
    learned = MuParams(4, auction="learned", learned_model=model).learned
    ws, laid, seat, passes = position(n, seed, np.array(codes, np.int64), turns, rulebook_targets(), learned)
    bidder.plan_seat(seat, n, ws.held, ws.plan_type, ws.plan_est, ws.est)
    before = learned_lay(n, seat, passes, laid, ws)
    a, b = [s for s in range(n) if s != seat][:2]
    hidden_a, hidden_b = ws.held[a] & ~laid[a], ws.held[b] & ~laid[b]
    ws.held[a], ws.held[b] = laid[a] | hidden_b, laid[b] | hidden_a
    assert learned_lay(n, seat, passes, laid, ws) == before


# ---------------------------------------------------------------- runs, records, keys


def run_rows(tmp_path, name, *args):
    out = tmp_path / f"{name}.parquet"
    res = invoke("run", "--seed", 2026, "--no-progress", "--out", out, *args)
    assert res.exit_code == 0, res.output
    return pq.read_table(out), read_metadata(out)


def test_learned_rows_are_the_same_for_any_split_and_worker_count(tmp_path, model):
    params = MuParams(5, auction="learned", learned_model=model)
    whole = mu_run.simulate_deal_chunk(params, 7, 0, 300)
    parts = [mu_run.simulate_deal_chunk(params, 7, a, b - a) for a, b in ((0, 101), (101, 300))]
    for column in ("res", "scores", "laid", "hands"):
        assert np.array_equal(getattr(whole, column), np.concatenate([getattr(p, column) for p in parts]))
    args = ("--deals", 40_000, "--players", 4, "--auction", "learned", "--learned-model", model)
    one, _ = run_rows(tmp_path, "one", *args, "--workers", 1)
    two, _ = run_rows(tmp_path, "two", *args, "--workers", 2)
    assert one.equals(two)
    cautious, _ = run_rows(tmp_path, "c", "--deals", 2000, "--players", 4)
    assert one["hands"][:2000] == cautious["hands"] and one["laid"][:2000] != cautious["laid"]


def test_a_learned_run_names_its_model_in_key_and_metadata_and_others_keep_theirs(tmp_path, model):
    _, meta = run_rows(tmp_path, "l", "--deals", 200, "--players", 3, "--auction", "learned", "--learned-model", model)
    ident = model_file.resolve(model)[0]
    assert ident.startswith(model + "@") and len(ident) == len(model) + 9
    assert meta["models"] == {"auction": "learned", "learned_model": ident}
    assert meta["params"]["options"]["learned_model"] == ident

    def key(**options):
        spec = RunSpec("mu", "deals", 100, 4, "heuristic", seed=1, options=options)
        return run_key(spec, checked(spec))

    learned = key(auction="learned", learned_model=model)
    assert learned["params"]["options"]["learned_model"] == ident
    assert key(auction="learned", learned_model=ident) == learned  # the resume command's form
    assert learned != key(auction="learned", learned_model=str(synthetic(tmp_path / "other.npz", seed=2)))
    for options in ({}, {"auction": "cautious"}, {"auction": "bold"}):
        assert "learned_model" not in key(**options)["params"]["options"]
    shipped = key(auction="learned")["params"]["options"]["learned_model"]  # no --learned-model: the current one
    assert shipped == model_file.resolve(model_file.CURRENT)[0] and shipped.startswith(model_file.CURRENT + "@")
    assert len(shipped) == len(model_file.CURRENT) + 9


def test_a_learned_record_replays_as_its_row(tmp_path, model):
    rows, _ = run_rows(tmp_path, "l", "--deals", 30, "--players", 6, "--auction", "learned", "--learned-model", model)
    for deal in (0, 11, 29):
        args = ("record", "--players", 6, "--auction", "learned", "--learned-model", model, "--seed", 2026)
        record = invoke(*args, "--deal", deal)
        assert record.exit_code == 0, record.output
        replayed = json.loads(invoke("replay", "-", input=record.output).output)
        assert replayed["scores"] == rows["scores"][deal].as_py()


# ---------------------------------------------------------------- model files


def test_a_model_file_loads_without_pickle_and_is_small(model):
    with np.load(model, allow_pickle=False) as z:
        assert set(z.files) == {"weights", "layout", "meta"} and np.array_equal(z["layout"], LAYOUT)
    weights, meta = model_file.read(model)
    assert weights.shape == (4, N_WEIGHTS) and meta["format"] == model_file.FORMAT
    assert os.path.getsize(model) < 5 << 20


def one_line_refusal(*args):
    res = subprocess.run([sys.executable, "-m", "musim", *map(str, args)], capture_output=True, text=True, timeout=300)
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2 and len(lines) == 1 and res.stdout == "", res.stderr
    return lines[0]


def test_corrupted_or_mismatched_model_files_are_refused_in_one_line(tmp_path, model):
    good = Path(model).read_bytes()
    (tmp_path / "cut.npz").write_bytes(good[: len(good) // 2])
    weights, meta = model_file.read(model)
    with np.load(model, allow_pickle=False) as z:
        arrays = dict(z)
    bad = {
        "tampered": {**arrays, "weights": weights + np.float32(1)},
        "layout": {**arrays, "layout": LAYOUT + 1},
        "features": {**arrays, "meta": np.array(json.dumps({**meta, "features": 99}))},
        "hand": {**arrays, "meta": np.array(json.dumps({**meta, "hand_model_sha256": "0"}))},
    }
    for name, parts in bad.items():
        np.savez(tmp_path / f"{name}.npz", **parts)
    expect = {"cut": "not a readable", "tampered": "digest", "layout": "layout", "features": "features version"}
    for name, words in (expect | {"hand": "retrain"}).items():
        with pytest.raises(model_file.ModelError, match=words):
            model_file.read(tmp_path / f"{name}.npz")
    line = one_line_refusal("run", "--deals", 10, "--auction", "learned", "--learned-model", tmp_path / "cut.npz")
    assert "not a readable learned model file" in line
    assert "applies only with --auction learned" in one_line_refusal("run", "--deals", 10, "--learned-model", model)
    assert "the model there is" in one_line_refusal(
        "run", "--deals", 10, "--auction", "learned", "--learned-model", model + "@00000000"
    )


@pytest.mark.slow
def test_training_twice_with_one_seed_writes_the_same_bytes(tmp_path):
    from musim.games.mu.learned import train

    files = []
    for i in range(2):
        weights, rows = train.train(5, 2, 1500, 200, 0.15, tmp_path / f"cache{i}", say=lambda _: None)
        files.append(tmp_path / f"m{i}.npz")
        train.save_model(files[-1], weights, {"version": 1, "seed": 5})
        assert [r["round"] for r in rows] == [1, 1, 1, 1, 2, 2, 2, 2]
    assert files[0].read_bytes() == files[1].read_bytes()
    assert model_file.read(files[0])[0].any()


def test_a_fixed_table_sets_every_other_seat_to_its_model_and_leaves_the_stream_alone():
    from musim.games.mu.learned import selfplay

    for others, code in ((0, pol.LEARNED), (selfplay.CAUTIOUS, pol.HEURISTIC), (selfplay.BOLD, pol.BOLD)):
        state = np.array([stream_state(3, 0)], np.uint64)
        bid, play = np.full(6, -9, np.int64), np.full(6, -9, np.int64)
        model_of = np.full(6, 7, np.int64)
        selfplay.draw_seats(5, 2, 4, others, state, bid, play, model_of)
        assert state[0] == stream_state(3, 0)
        assert (
            list(bid[:5]) == [code, code, -9, code, code]
            and list(play[:5]) == [pol.HEURISTIC] * 2 + [-9] + [pol.HEURISTIC] * 2
        )
        assert list(model_of[:5]) == [max(others, 0)] * 2 + [7] + [max(others, 0)] * 2


@pytest.mark.slow
def test_the_best_response_mode_trains_writes_its_model_and_measures_it(tmp_path):
    from musim.games.mu.learned import best_response

    script = Path(__file__).resolve().parent.parent / "scripts" / "train_auction.py"
    args = ["--best-response", model_file.CURRENT, "--seed", 7, "--rounds", 2, "--deals", 400, "--eval-deals", 60]
    args += ["--out", tmp_path, "--model", tmp_path / "br.npz"]
    res = subprocess.run([sys.executable, script, *map(str, args)], capture_output=True, text=True, timeout=1800)
    assert res.returncode == 0, res.stderr
    weights, meta = model_file.read(tmp_path / "br.npz")
    assert meta["best_response_to"] == model_file.resolve(model_file.CURRENT)[0] and weights.any()
    rows = list(csv.DictReader((tmp_path / "exploitability.csv").read_text().splitlines()))
    assert [(r["players"], r["tested"], r["others"]) for r in rows[:4]] == [
        ("3", "best response round 1", "learned"),
        ("3", "best response round 2", "learned"),
        ("3", "learned", "cautious"),
        ("3", "best response round 2", "cautious"),
    ]
    assert len(rows) == 16 and {r["goal_met"].split()[0] for r in rows if r["others"] == "learned"} <= {
        "met",
        "missed",
        "undecided",
    }
    assert "| 6 |" in (tmp_path / "exploitability.md").read_text()
    # a "best response" with the frozen model's weights bids as it does: zero gain on every deal
    frozen = model_file.resolve(model_file.CURRENT)[1].weights[0]
    scores = best_response.duplicate_scores(1, 4, 200, np.stack([frozen, frozen]), [1, 0], best_response.FROZEN)
    assert np.array_equal(scores[:, 0], scores[:, 1]) and scores.any()
    refused = subprocess.run(
        [sys.executable, script, "--best-response", "v9", "--model", tmp_path / "x.npz"], capture_output=True, text=True
    )
    assert refused.returncode == 1 and len(refused.stderr.strip().splitlines()) == 1, refused.stderr


# ---------------------------------------------------------------- the shipped model's play


def masks(texts, within=None):
    """The card masks of card texts, one a seat, each repeat of a kind taking a copy left free."""
    free, out = MU.full if within is None else None, []
    for i, text in enumerate(texts):
        out.append(MU.parse(text.split(), within=free if within is None else within[i]))
        if within is None:
            free &= ~out[-1]
    return np.array(out, np.uint64)


def test_tied_on_top_having_laid_last_with_a_strong_hand_it_raises_rather_than_provoke():
    """4 players, rulebook: seat 1 laid 2, seat 0 matched with 2 cards of its green (the hand
    model gives green 45.9 team points, 12 above level 3's 34), everyone passed since: passing
    now makes seat 0 the provoker of an eklat (-20); one card more makes it chief at 3."""
    params = MuParams(4, auction="learned")
    ws = sim.make_workspace(4, learned=params.learned)
    hands = (
        "R8 Y8 G0 G1 G3 G6 G7 G7 G8 G9 B1 B9 K7 K8 K9",
        "R2 R7 Y1 Y2 Y5 Y7 Y7 Y9 G1 G4 B8 K1 K3 K6 K7",
        "R0 R5 R7 Y0 Y1 Y4 G2 B1 B2 B4 B5 B6 K1 K2 K5",
        "R1 R1 R3 R4 R6 R9 Y3 Y6 G5 B0 B3 B7 B7 K0 K4",
    )
    ws.held[:4] = masks(hands)
    codes = np.full(MAX_PLAYERS, pol.LEARNED, np.int64)
    pol.plan_auction(codes, 4, ws.held, ws.plan_type, ws.plan_bid, ws.est, ws.targets)
    laid = np.zeros(MAX_PLAYERS, np.uint64)
    sim.start_auction(4, codes, laid, ws, ws.learned)
    for turn, (seat, text) in enumerate([(1, "R2 R7"), (2, ""), (3, ""), (0, "G0 G1"), (1, ""), (2, ""), (3, "")]):
        sim.lay_cards(4, seat, masks([text], [ws.held[seat]])[0], 0, turn, laid, ws)
    assert list(ws.counts[:4]) == [2, 2, 0, 0] and ws.last_lay[0] > ws.last_lay[1]
    assert abs(ws.plan_est[0, 0] - 45.92) < 0.01
    assert bin(learned_lay(4, 0, 3, laid, ws)).count("1") == 1


def full_top_among_random_seats(seed):
    """6 players, the rulebook's table, dealer seat 0, seats 0 and 2-5 bidding at random and seat 1
    learned.  Nine rounds: seats 0 and 2-5 each lay one card of their hands in a random order (so
    their laid cards look random), seat 1 lays its best type's lowest cards up to 5, then passes.
    Round ten: seat 0 lays its last card, 10, a full hand.  Seat 1 to move, at 5 with 5 cards left,
    so it can tie but never raise; seats 2-5 after it at 9, one card left each.
    Returns (ws, laid, passes, turn)."""
    n, learner = 6, 1
    codes = np.full(MAX_PLAYERS, pol.RANDOM, np.int64)
    codes[learner] = pol.LEARNED
    ws = sim.make_workspace(n, learned=MuParams(n, auction="learned").learned)
    state = np.array([stream_state(seed, 0)], np.uint64)
    deal_cards(n, DECK, ws.cards, state, ws.deal.hands)
    ws.held[:] = ws.deal.hands
    pol.plan_auction(codes, n, ws.held, ws.plan_type, ws.plan_bid, ws.est, ws.targets)
    laid = ws.deal.laid
    sim.start_auction(n, codes, laid, ws, ws.learned)
    rng = np.random.default_rng(seed)
    order = [rng.permutation(cards_of(ws.held[s])) for s in range(n)]
    order[learner] = cards_of(pol.show_cards(ws.held[learner], ws.plan_type[learner], 5))
    passes = turn = 0
    for r in range(10):
        for s in range(n):
            if r == 9 and s == learner:
                return ws, laid, passes, turn
            lays = r < 9 if s != learner else r < 5
            lay = np.uint64(1 << int(order[s][r])) if lays or s == 0 else np.uint64(0)
            passes, turn, _ = sim.lay_cards(n, s, lay, passes, turn, laid, ws)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_among_random_seats_it_ties_a_full_hand_on_top_where_the_tie_is_clearly_worth_more(seed):
    """The tie is no raise put off here: the top is a full hand.  After seat 1's tie each random seat
    at 9 lays its last card (tying too, and taking the provoker's -100 from it) with chance 1/2, so
    the tie pays about 15/16 x 50 - 1/16 x 100; passing leaves seat 1 out of any eklat.  Rollouts of
    the rest of the deal over re-deals of the 4 cards it cannot see measure both; the model ties."""
    from musim.games.mu.learned import selfplay

    n, learner, samples = 6, 1, 300
    ws, laid, passes, turn = full_top_among_random_seats(seed)
    assert list(ws.counts[:n]) == [10, 5, 9, 9, 9, 9]
    assert lay_limit(5, top_other(ws.counts, n, learner), popcount(ws.held[learner] & ~laid[learner])) == 5
    policy = np.full((2, MAX_PLAYERS), pol.RANDOM, np.int64)
    policy[:, learner] = pol.HEURISTIC  # its later turns by the cautious bidder: a pass is for good
    scratch = selfplay.make_scratch()
    hands, rng = ws.held.copy(), np.random.default_rng(seed)
    unseen = [c for c in cards_of(DECK) if not int(hands[learner] | np.bitwise_or.reduce(laid[:n])) >> c & 1]
    gains = np.zeros(samples)
    for j in range(samples):
        hidden = rng.permutation(unseen)
        for i, s in enumerate(range(2, n)):  # seat 0 holds no card in hand; seats 2-5 one each
            ws.held[s] = laid[s] | np.uint64(1 << int(hidden[i]))
        scratch[0][0] = stream_state(seed, j + 1)
        selfplay.rollouts(n, learner, passes, turn, 5, policy, scratch[0], ws, ws.learned, scratch)
        gains[j] = scratch[5][5] - scratch[5][0]  # the tie's score less the pass's
    ws.held[:] = hands
    assert gains.mean() - 2.576 * gains.std(ddof=1) / np.sqrt(samples) > 20, gains.mean()
    assert popcount(learned_lay(n, learner, passes, laid, ws)) == 5


def test_every_table_training_draws_lies_in_the_trained_range_and_a_table_outside_is_warned(tmp_path):
    from musim.games.mu.learned import selfplay, train
    from musim.games.mu.learned.table_box import trained_range, warning

    rule, box = train.tables()
    targets, state = np.zeros_like(rule), np.zeros(1, np.uint64)
    for n in range(3, MAX_PLAYERS + 1):
        low, high = trained_range(n)
        for i in range(2000):
            state[0] = stream_state(n, i)
            selfplay.draw_table(n, state, rule, box, targets)
            t = targets[n, 1 : hand_size(n) + 1]
            assert (low <= t).all() and (t <= high).all()
    assert warning(rulebook_targets(), range(3, MAX_PLAYERS + 1)) is None
    _, high4 = trained_range(4)
    table = rulebook_targets()
    table[4, 1 : hand_size(4) + 1] = high4[0] + 1  # above every trained first level, within the others
    assert warning(table, [4]) == warning(table, [3, 4, 5, 6]) and "4 players: bids 1:" in warning(table, [4])
