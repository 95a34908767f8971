"""`musim bid` as a designer reads it: a table within 100 columns with 95% intervals, every
(bid, trump) in --json and --csv, and a best bid that is the argmax of the expected scores of a
holder committed to its bid against an auction model, checked against a reference auction."""

import io
import json
import math
import re

import numpy as np
import pandas as pd
import pytest
import reference as ref
from click.testing import CliRunner

from musim.analysis.stats import Z95
from musim.cli import cli
from musim.core.cards import N_CARDS, type_text
from musim.core.rng import stream_state
from musim.games.mu import policies
from musim.games.mu import simulate as sim
from musim.games.mu.analysis import samplers
from musim.games.mu.analysis.bid import parse_hand

HAND = "R9 R8 R7 R7 R6 G9 G7 G0 B1 B8 K0 K3 Y2 Y5 Y7"  # `musim bid --help`'s example, a 4-player hand


HAND5 = "R9 R4 R2 Y8 Y6 Y1 G7 G3 B9 B5 K8 K6"  # a middling 5-player hand


def bid(*args, players=4, hand=HAND):
    res = CliRunner().invoke(cli, ["bid", "--players", str(players), "--hand", hand, *map(str, args)])
    assert res.exit_code == 0, res.output
    return res.output


def as_json(*args, **kw):
    return json.loads(bid("--json", *args, **kw))


def trumps_of(hand):
    types = np.zeros(17, np.int64)
    return types[: samplers.hand_types(parse_hand(hand, 4)[0], types)].copy()


def test_text_fits_100_columns_with_intervals_and_names_its_model():
    text = bid("--samples", 40, "--seed", 1)
    lines = text.splitlines()
    assert max(map(len, lines)) <= 100
    assert "targets: rulebook" in lines[0] and "card play: heuristic at every seat" in lines[0]
    assert lines[1] == "made, score and best bid: the others bid by auction model cautious; partner: public"
    rows = [x for x in lines if re.match(r"\s+\d+\s+\d+ \|", x)]
    assert rows
    for row in rows:  # three trumps, each a rate with its interval and a score with its half-width
        assert len(re.findall(r"\d+\.\d \[\d+-\d+\]", row)) == 3
        assert len(re.findall(r"[+-]\d+\.\d±\d+\.\d", row)) == 3
    assert re.search(
        r"best bid: \d+ with trump \S+, expected score [+-]\d+\.\d \(95% [+-]\d+\.\d\.\.[+-]\d+\.\d\)", text
    )


def test_json_and_csv_keep_every_bid_and_trump():
    rows = as_json("--samples", 20, "--seed", 3)
    trumps = [type_text(t) for t in trumps_of(HAND)]
    assert len(trumps) > 3  # more than the text shows
    assert {(r["bid"], r["chief_trump"]) for r in rows} == {(b, t) for b in range(1, 16) for t in trumps}
    assert len(rows) == 15 * len(trumps)
    assert any(r["p_made"] < 0.01 for r in rows)  # the levels the text leaves out are kept
    assert {r["auction"] for r in rows} == {"cautious"}
    for r in rows:
        assert r["p_chief"] + r["p_outbid"] + r["p_eklat"] == pytest.approx(1)
    csv = pd.read_csv(io.StringIO(bid("--csv", "--samples", 20, "--seed", 3)))
    assert len(csv) == len(rows) and set(csv.columns) == set(rows[0])


def test_the_text_leaves_out_exactly_the_levels_below_one_percent_under_every_trump():
    rows = as_json("--samples", 300, "--seed", 1, players=5, hand=HAND5)
    text = bid("--samples", 300, "--seed", 1, players=5, hand=HAND5)
    shown = {int(m.group(1)) for m in re.finditer(r"^\s*(\d+)\s+\d+ \|", text, re.M)}
    kept = {b for b in range(1, 13) if any(r["p_made"] >= 0.01 for r in rows if r["bid"] == b)}
    assert shown == kept and kept != set(range(1, 13))
    left = sorted(set(range(1, 13)) - kept)
    assert f"left out: bid {left[0]}" in text


def test_the_best_bid_is_the_argmax_of_the_json_expected_scores_and_not_bid_1():
    rows = as_json("--samples", 100, "--seed", 2)
    best = max(rows, key=lambda r: (r["expected_score"], -r["bid"]))
    text = bid("--samples", 100, "--seed", 2)
    assert (
        f"best bid: {best['bid']} with trump {best['chief_trump']}, expected score {best['expected_score']:+.1f}"
        in text
    )
    assert best["bid"] != 1
    # the auction model decides the expected score: committed high, a hand is outbid less often
    by_bid = {r["bid"]: r for r in rows if r["chief_trump"] == best["chief_trump"]}
    assert by_bid[1]["p_outbid"] > by_bid[best["bid"]]["p_outbid"]


def test_made_score_and_best_bid_rest_on_one_auction_model_by_default():
    """By default the success rates take the vice and laid cards of the --auction model's auction,
    as the expected score takes its bids: the model moves them; --vice strongest is said."""
    rows = as_json("--samples", 40, "--seed", 4)
    assert rows == as_json("--samples", 40, "--seed", 4, "--vice", "auction")
    assert {r["vice"] for r in rows} == {"auction"} and {r["play"] for r in rows} == {"heuristic"}
    bold = as_json("--samples", 40, "--seed", 4, "--auction", "bold")
    assert any(a["p_made"] != b["p_made"] for a, b in zip(rows, bold) if a["bid"] >= 2)
    assert [r["p_made"] for r in as_json("--samples", 40, "--seed", 4, "--vice", "strongest")] != [
        r["p_made"] for r in rows
    ]
    text = bid("--samples", 40, "--seed", 4, "--vice", "strongest").splitlines()[1]
    assert text == "score and best bid: the others bid by auction model cautious; made: vice strongest; partner: public"


WEAK = "R1 Y2 G3 B4 K5 R6 Y7 G8 B9 K0 R2 Y3 G4 B5 K6"  # a 4-player hand the cautious others outbid


STRONG = "R9 R8 R7 R7 R6 R5 R4 R3 R2 R1 R0 G9 B9 K9 Y9"  # 11 reds: it wins its best bid


@pytest.mark.parametrize("hand", [WEAK, HAND, STRONG])
def test_a_best_bid_won_less_than_half_the_time_says_so_beside_the_best_it_wins(hand):
    rows = as_json("--samples", 100, "--seed", 6, hand=hand)
    text = bid("--samples", 100, "--seed", 6, hand=hand)
    best = max(rows, key=lambda r: (r["expected_score"], -r["bid"]))
    won = [r for r in rows if r["p_chief"] >= 0.5]
    assert (", won under 50%" in text) == (best["p_chief"] < 0.5)
    assert (best["p_chief"] < 0.5) == (hand == WEAK) or hand == HAND  # the weak hand does best outbid
    if best["p_chief"] < 0.5:
        alt = max(won, key=lambda r: (r["expected_score"], -r["bid"]))
        line = f"  best bid won 50%+: {alt['bid']} with trump {alt['chief_trump']}, "
        assert line + f"expected score {alt['expected_score']:+.1f}" in text
        assert alt["expected_score"] < best["expected_score"]


def reference_scores(n, hand_text, seat, dealer, seed, samples, bid_level, trump):
    """The holder's deal scores, one a sample, from the reference auction and scoring (tests/
    reference.py): the holder lays towards `bid_level` while no one else has laid as many, the
    others as the cautious model lays (its kernel), the deal played out as `musim run` plays it."""
    mask, _ = parse_hand(hand_text, n)
    rest = np.array([c for c in range(N_CARDS) if not int(mask) >> c & 1], np.int64)
    hands = np.zeros(sim.MAX_PLAYERS, np.uint64)
    state = np.zeros(1, np.uint64)
    est = np.zeros(15)
    ws = sim.make_workspace(n)
    plan_type, plan_bid = np.zeros(sim.MAX_PLAYERS, np.int64), np.zeros(sim.MAX_PLAYERS, np.int64)
    code = policies.AUCTIONS["cautious"]
    out = []
    for i in range(samples):
        state[0] = stream_state(seed, i)
        samplers.deal_others(n, seat, mask, rest.copy(), state, hands)
        policies.plan_auction(np.full(sim.MAX_PLAYERS, code), n, hands, plan_type, plan_bid, est, ws.targets)
        held_types = sum(1 << t for t in ref.trump_types_of(ref.cards_of(int(mask))))
        shown = trump if trump >= 0 else policies.best_type(mask, held_types, n, est)[0]  # `none`: its best type
        auction = ref.Auction([ref.cards_of(int(h)) for h in hands[:n]], dealer)
        while not auction.ended:
            s = auction.seat
            laid = np.array([ref.mask_of(x) for x in auction.laid] + [0] * (sim.MAX_PLAYERS - n), np.uint64)
            counts = np.array(auction.counts() + [0] * (sim.MAX_PLAYERS - n), np.int64)
            if s == seat:
                own, top = len(auction.laid[s]), auction.top_other(s)
                k = 0 if own >= bid_level or top >= bid_level else min(bid_level - own, auction.limit())
                avail = np.uint64(int(mask) & ~ref.mask_of(auction.laid[s]))
                lay = int(policies.show_cards(avail, shown, k)) if k else 0
            else:
                lay = int(policies.choose_lay(code, n, s, hands, laid, counts, plan_type, plan_bid, state))
            auction.act(ref.cards_of(lay))
        result = auction.result()
        if result.eklat:
            out.append(result.scores[seat])
            continue
        laid = np.array([ref.mask_of(x) for x in auction.laid] + [0] * (sim.MAX_PLAYERS - n), np.uint64)
        chief, vice = result.chief, -1 if result.vice is None else result.vice
        vt = -1 if vice < 0 else policies.choose_trump(code, n, hands[vice], laid[vice], -1, False, est, state)
        if chief == seat:
            ct = trump
            if trump >= 0 and trump == vt:  # the vice took it: the holder's best other laid type
                ct = policies.choose_trump(policies.HEURISTIC, n, mask, laid[seat], vt, True, est, state)
        else:
            ct = policies.choose_trump(code, n, hands[chief], laid[chief], vt, True, est, state)
        partner = policies.choose_partner(code, n, chief, vice, laid, ct, state) if n >= 4 else -1
        points = np.zeros(sim.MAX_PLAYERS, np.int64)
        for s in range(n):
            ws.held[s] = hands[s]
        sim.play_contract(n, chief, partner, ct, vt, np.full(sim.MAX_PLAYERS, policies.HEURISTIC), state, points, ws)
        scored = ref.score_deal(n, result.bid, chief, None if partner < 0 else partner, ct, list(points[:n]))
        out.append(scored.scores[seat])
    return np.array(out, float)


@pytest.mark.parametrize("bid_level, trump", [(1, "R"), (3, "R"), (5, "7"), (2, "none")])
def test_the_expected_score_is_the_mean_of_a_reference_auction_and_scoring(bid_level, trump):
    samples, seed, seat, dealer = 30, 4, 1, 3
    rows = as_json("--samples", samples, "--seed", seed, "--seat", seat, "--dealer", dealer)
    row = next(r for r in rows if r["bid"] == bid_level and r["chief_trump"] == trump)
    code = next(int(t) for t in trumps_of(HAND) if type_text(t) == trump)
    got = reference_scores(4, HAND, seat, dealer, seed, samples, bid_level, code)
    assert row["expected_score"] == pytest.approx(got.mean())
    half = Z95 * got.std(ddof=1) / math.sqrt(samples)
    assert row["expected_score_low"] == pytest.approx(got.mean() - half)
    assert row["expected_score_high"] == pytest.approx(got.mean() + half)


def test_auction_choices_and_a_bad_one():
    res = CliRunner().invoke(cli, ["bid", "--players", "4", "--hand", HAND, "--auction", "timid"])
    assert res.exit_code == 2 and "--auction" in res.output and "Traceback" not in res.output
    for name in policies.AUCTIONS:
        assert {r["auction"] for r in as_json("--samples", 5, "--auction", name)} == {name}
