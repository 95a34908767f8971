"""Mü's auction models (docs/players.md): the bold bidder against a plain-Python statement of its
lay, its legality, and `--auction` in `musim run` and `musim record`."""

import json
import random
import subprocess
import sys
from collections import Counter

import numpy as np
import pyarrow.parquet as pq
import pytest
import reference as ref
from click.testing import CliRunner

from musim.cli import cli
from musim.core.cards import COLOURS, SLOT_NUMBERS
from musim.engine.parquet import read_metadata
from musim.games.mu import AUCTION_NAMES, BY_PLAY
from musim.games.mu import policies as pol
from musim.games.mu import run as mu_run
from musim.games.mu import simulate as sim
from musim.games.mu.params import MuParams


def invoke(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def run_rows(tmp_path, name, *args):
    out = tmp_path / f"{name}.parquet"
    res = invoke("run", "--seed", 2026, "--no-progress", "--out", out, *args)
    assert res.exit_code == 0, res.output
    return pq.read_table(out), res.output, read_metadata(out)


# ---------------------------------------------------------------- the bold lay, in plain Python


def show(avail, t, k):
    """k of the cards `avail` (a list) that show type t: those of t first, each group by number, then card index."""
    return sorted(avail, key=lambda c: (not ref.matches(t, c), ref.number(c), c))[:k]


def bold_lay(n, seat, held, laid, plan_type, plan_bid, coin):
    """The bold bidder's cards for this turn (docs/players.md), straight from its description;
    coin() is the one-in-TIE_ODDS draw, asked only when a tie is in view."""
    avail = [c for c in held[seat] if c not in laid[seat]]
    own = len(laid[seat])
    others = [len(laid[s]) for s in range(n) if s != seat]
    top = max(others)
    if ref.lay_limit(own, top, len(avail)) == 0:
        return []
    t = plan_type[seat]
    would_be_vice = [s for s in range(n) if s != seat and len(laid[s]) == top > 0]
    threat = n >= 4 and any(ref.matches(t, c) for s in would_be_vice for c in laid[s])
    goal = plan_bid[seat] + (pol.THREAT_RAISE if threat else 0)
    if own > top:
        return show(avail, t, 1) if own < goal else []  # alone on top: climb towards the goal
    if goal > top:
        return show(avail, t, top + 1 - own)  # stand alone on top
    if own < top and goal >= 1 and top <= goal + pol.TIE_SLACK and coin():
        return show(avail, t, top - own)  # match the top: a tie
    if own == 0 and top >= 2 and goal >= 1:
        return show(avail, t, 1)  # underground
    return []


def random_position(rng):
    """A dealt deal part-way through an auction: hands, laid subsets, plans."""
    n = rng.randint(3, 6)
    deck = list(range(36 if n == 3 else 60))
    rng.shuffle(deck)
    size = len(deck) // n
    held = [sorted(deck[s * size : (s + 1) * size]) for s in range(n)]
    laid = [rng.sample(h, rng.choice((0, 0, 1, 1, 2, 3, rng.randint(0, len(h))))) for h in held]
    plan_type = [rng.choice([t for t in range(15) if any(ref.matches(t, c) for c in h)]) for h in held]
    plan_bid = [rng.randint(0, 9) for _ in range(n)]
    return n, rng.randrange(n), held, laid, plan_type, plan_bid


@pytest.mark.slow  # the kernels called one decision at a time: compiled apart from a run's
def test_the_bold_lay_kernel_is_its_plain_python_statement():
    rng = random.Random(49)
    tested = set()
    for i in range(4000):
        n, seat, held, laid, plan_type, plan_bid = random_position(rng)
        arrays = [np.zeros(sim.MAX_PLAYERS, np.uint64) for _ in range(2)]
        for s in range(n):
            arrays[0][s], arrays[1][s] = ref.mask_of(held[s]), ref.mask_of(laid[s])
        counts = np.array([len(x) for x in laid] + [0] * (sim.MAX_PLAYERS - n), np.int64)
        plans = [np.array(p + [0] * (sim.MAX_PLAYERS - n), np.int64) for p in (plan_type, plan_bid)]
        state = np.array([i], np.uint64)
        mirror = state.copy()
        got = pol.choose_lay(pol.BOLD, n, seat, *arrays, counts, *plans, state)
        want = bold_lay(n, seat, held, laid, plan_type, plan_bid, lambda m=mirror: pol.randint(m, pol.TIE_ODDS) == 0)
        assert ref.cards_of(got) == sorted(want), (n, seat, held, laid, plan_type, plan_bid)
        assert state[0] == mirror[0]  # the same draws
        top = max(len(laid[s]) for s in range(n) if s != seat)
        tested.add(
            ("climb" if len(laid[seat]) > top else "outbid" if len(want) > top - len(laid[seat]) else "tie")
            if want
            else "pass"
        )
    assert tested == {"climb", "outbid", "tie", "pass"}


@pytest.mark.parametrize("shift", [0, 3])  # the rulebook's table, and a variant 3 points harder at every level
def test_a_plan_is_the_level_its_estimate_reaches_in_the_runs_table(shift):
    """The bold plan (with its optimism) and the cautious one (without): the highest level whose
    target in the run's target table the hand's best estimate reaches."""
    rng = random.Random(7)
    table = np.zeros((sim.MAX_PLAYERS + 1, 16), np.int64)
    for n, size in ref.HAND_SIZE.items():
        table[n, 1 : size + 1] = [ref.target(n, b) + shift for b in range(1, size + 1)]
    for _ in range(300):
        n, _, held, _, _, _ = random_position(rng)
        masks = np.array([ref.mask_of(h) for h in held] + [0] * (sim.MAX_PLAYERS - n), np.uint64)
        for code, optimism in ((pol.BOLD, pol.BOLD_OPTIMISM), (pol.HEURISTIC, 0)):
            plans = [np.zeros(sim.MAX_PLAYERS, np.int64) for _ in range(2)]
            est = np.zeros(15, np.float64)
            pol.plan_auction(np.full(sim.MAX_PLAYERS, code), n, masks, *plans, est, table)
            for s in range(n):
                value = {
                    t: pol.expected_points(masks[s], t, n) for t in range(15) if any(ref.matches(t, c) for c in held[s])
                }
                best = max(value.values())
                assert value[plans[0][s]] == best
                reached = [b for b in range(1, ref.HAND_SIZE[n] + 1) if table[n, b] <= int(best + optimism)]
                assert plans[1][s] == max(reached, default=0), (code, n, s)


# ---------------------------------------------------------------- legality and the models' bids


def card(text):
    """A card text's index, the two copies of a 1 or a 7 as one (they cannot be told apart)."""
    return 12 * COLOURS.index(text[0]) + SLOT_NUMBERS.index(int(text[1:]))


@pytest.mark.slow  # the kernels called one decision at a time: compiled apart from a run's
def test_every_bold_lay_is_legal_and_the_cards_are_conserved():
    """The auctions of bold deals walked by the plain rules (reference.Auction raises on an
    illegal lay), ending as the rows say."""
    eklats = 0
    for n in (3, 4, 5, 6):
        for deal in range(60):
            record = mu_run.deal_record(MuParams(n, "heuristic", auction="bold"), 11, deal)
            dealt = Counter(c for h in record["hands"] for c in h)
            deck = [ref.card_text(c) for c in range(36 if n == 3 else 60)]
            assert dealt == Counter(deck)
            auction = ref.Auction([[card(c) for c in h] for h in record["hands"]], record["dealer"])
            for lay in record["auction"]:
                auction.act([card(c) for c in lay])
            assert auction.ended
            result = auction.result()
            eklats += result.eklat
            assert ("play" not in record) == result.eklat
            if not result.eklat:
                assert Counter(record["play"]) == dealt  # every card dealt is played once, laid ones too
    assert eklats > 0


def test_bold_bids_higher_than_cautious_and_ends_in_eklats_sometimes(tmp_path):
    """The same 3,000 deals at 4 players: the bold auction reaches higher levels and ties;
    the cautious one never ties."""
    cautious, _, _ = run_rows(tmp_path, "c", "--deals", 3000, "--players", 4)
    bold, summary, meta = run_rows(tmp_path, "b", "--deals", 3000, "--players", 4, "--auction", "bold")
    assert cautious["hands"] == bold["hands"]
    rate = lambda t: sum(o == "eklat" for o in t["outcome"].to_pylist()) / t.num_rows
    bids = lambda t: np.array(t["bid"].to_pylist())
    assert rate(cautious) == 0 and 0.02 < rate(bold) < 0.5
    assert bids(bold).mean() > bids(cautious).mean() + 1 and bids(bold).max() > bids(cautious).max()
    assert (bids(bold) >= 1).all() and (bids(bold) <= 15).all()
    assert "bold auction" in summary and meta["models"] == {"auction": "bold"}
    assert meta["params"]["options"]["auction"] == "bold"


# ---------------------------------------------------------------- --auction on the command line


def test_auction_cautious_is_todays_auction_and_the_default_keeps_key_name_and_metadata(tmp_path):
    default, summary, meta = run_rows(tmp_path, "d", "--deals", 1500, "--players", 5)
    cautious, _, cautious_meta = run_rows(tmp_path, "c", "--deals", 1500, "--players", 5, "--auction", "cautious")
    assert default.equals(cautious)
    assert "auction" not in meta["params"]["options"] and cautious_meta["params"]["options"]["auction"] == "cautious"
    assert meta["models"] == {"auction": "cautious"} and "cautious auction" in summary

    from musim.engine.key import result_key
    from musim.engine.run import default_out, run_key
    from musim.engine.spec import RunSpec, checked

    def key_and_name(**options):
        spec = RunSpec("mu", "deals", 100, 4, "heuristic", seed=1, options=options)
        game = checked(spec)
        return run_key(spec, game), default_out(spec, game)

    params = dict(mode="deals", count=100, players=4, play="heuristic", seed=1)
    key, name = key_and_name()
    assert key == result_key("mu", params | {"options": {"goal": 200, "dd_tricks": 0}})
    assert name.endswith("mu-4p-heuristic-seed1")
    bold_key, bold_name = key_and_name(auction="bold")
    assert bold_key != key and bold_name.endswith("mu-4p-heuristic-auctionbold-seed1")


def test_random_play_bids_at_random_and_says_so(tmp_path):
    _, summary, meta = run_rows(tmp_path, "r", "--deals", 200, "--players", 4, "--play", "random")
    assert meta["models"] == {"auction": "random"} and "the auction too" in summary


def test_record_replays_a_bold_deal_as_its_row(tmp_path):
    rows, _, _ = run_rows(tmp_path, "b", "--deals", 40, "--players", 6, "--auction", "bold")
    for deal in (0, 7, 39):
        record = invoke("record", "--players", 6, "--auction", "bold", "--seed", 2026, "--deal", deal)
        assert record.exit_code == 0, record.output
        assert json.loads(record.output) == mu_run.deal_record(MuParams(6, "heuristic", auction="bold"), 2026, deal)
        replayed = json.loads(invoke("replay", "-", input=record.output).output)
        assert replayed["scores"] == rows["scores"][deal].as_py()


@pytest.mark.parametrize(
    "args, words",
    [
        (["run", "--deals", 10, "--auction", "greedy"], "--auction"),
        (["record", "--seed", 1, "--deal", 0, "--play", "random", "--auction", "bold"], "--auction applies only"),
    ],
)
def test_a_bad_auction_is_a_one_line_error(args, words):
    res = subprocess.run([sys.executable, "-m", "musim", *map(str, args)], capture_output=True, text=True, timeout=300)
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2 and len(lines) == 1 and words in lines[0] and res.stdout == "", res.stderr


def test_the_auction_names_are_the_models_of_policies():
    assert (BY_PLAY, *pol.AUCTIONS) == AUCTION_NAMES and pol.AUCTIONS["cautious"] == pol.HEURISTIC
