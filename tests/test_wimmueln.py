"""Wimmüln (docs/rules.md §3): rule kernels against the reference, the rules one by one,
invariants of simulated deals, records and their replay."""

import copy
from functools import partial

import numpy as np
import pytest
import reference_tricks as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from illegal_records import check_failure_to_follow, replay_error
from simulated_runs import check_same_rows_whatever_the_split, replayed_matches

from musim.core.deck import MU
from musim.games.wimmueln import rules
from musim.games.wimmueln.record import record, replay
from musim.games.wimmueln.simulate import simulate_deals
from musim.play.duplicate import duplicate_advantage

PLAYERS = range(3, 7)
POLICIES = ("random", "heuristic")
COLOUR = [ref.colour(c) for c in range(60)]
NUMBER = [ref.number(c) for c in range(60)]


def card(text):
    return MU.parse([text]).bit_length() - 1


# ---------------------------------------------------------------- the rules one by one


def test_estimate_bonus_table():
    """Lower estimate 5, higher 10, doubled (10, 20) if face up; both equal and matched 25."""
    bonus = rules.estimate_bonus
    assert (bonus(2, 2, 5), bonus(2, 5, 2)) == (10, 5)  # the lower hit: face up 10, hidden 5
    assert (bonus(5, 5, 2), bonus(5, 2, 5)) == (20, 10)  # the higher hit: face up 20, hidden 10
    assert (bonus(3, 3, 3), bonus(4, 3, 3)) == (25, 0)
    assert bonus(3, 2, 5) == 0
    for won in range(14):
        for up in range(10):
            for down in range(10):
                assert bonus(won, up, down) == ref.estimate_bonus(won, up, down), (won, up, down)


def test_trump_rule_for_every_pair_of_revealed_cards():
    assert rules.trump_of(card("G3"), card("R7")) == MU.colours.index("G")
    assert rules.trump_of(card("R7"), card("G3")) == MU.colours.index("G")
    assert rules.trump_of(card("G3"), card("R3")) == -1  # same number
    assert rules.trump_of(card("G3"), card("G7")) == -1  # same colour
    assert rules.first_lead(card("G3"), card("R7")) == card("R7")
    for a in range(60):
        for b in range(60):
            if a != b:
                want = ref.wimmueln_trump(a, b)
                assert rules.trump_of(a, b) == (-1 if want is None else want), (a, b)


def test_tricks_per_deal_is_the_hand_size_less_two():
    assert {n: int(rules.tricks_per_deal(n)) for n in PLAYERS} == {3: 10, 4: 13, 5: 10, 6: 8}


def test_legal_and_winner_against_the_reference():
    rng = np.random.default_rng(31)
    for _ in range(5000):
        trump = int(rng.integers(-1, 5))
        perm = [int(c) for c in rng.permutation(60)]
        hand = sorted(perm[: rng.integers(1, 16)])
        led = None if rng.random() < 0.1 else perm[-1]
        got = rules.legal(np.uint64(ref.mask_of(hand)), -1 if led is None else led, trump)
        assert ref.cards_of(got) == ref.legal(hand, led, COLOUR, trump, False)  # trumping never forced
        trick = perm[: rng.integers(1, 7)] if rng.random() < 0.5 else [int(c) for c in rng.permutation(24)[:6]]
        want = ref.winner(trick, COLOUR, NUMBER, trump, False)
        assert rules.trick_winner(np.array(trick, np.int64), len(trick), trump) == want


def test_card_points_are_the_triangles():
    rng = np.random.default_rng(32)
    for _ in range(2000):
        cards = [c for c in range(60) if rng.random() < 0.3]
        assert rules.points(np.uint64(ref.mask_of(cards))) == sum(ref.triangles(c) for c in cards)


# ---------------------------------------------------------------- simulated deals


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(3, 6), policy=st.sampled_from(POLICIES), seed=st.integers(0, 2**63 - 1), deal=st.integers(0, 2**40)
)
def test_deal_invariants(n, policy, seed, deal):
    """Cards conserved, estimates from the hands, tricks add up to the hand size less two,
    points add up to the deck's less the estimates', scores = card points + bonus."""
    out = simulate_deals(n, seed, policy, deal, 1)
    hands, est, dealer = out["hands"][0], out["estimates"][0], out["dealer"][0]
    union = 0
    for h in hands:
        assert bin(int(h)).count("1") == rules.hand_size(n) and union & int(h) == 0
        union |= int(h)
    assert union == (MU.full if n > 3 else sum(MU.colour_mask(c) for c in range(3)))
    a, b = out["revealed"][0]
    assert int(hands[dealer]) >> a & 1 and int(hands[dealer]) >> b & 1 and a != b
    want_trump = ref.wimmueln_trump(a, b)
    assert out["trump"][0] == (-1 if want_trump is None else want_trump)
    aside = 0
    for s in range(n):
        up, down = est[s]
        assert up != down and int(hands[s]) >> up & 1 and int(hands[s]) >> down & 1
        aside += ref.triangles(up) + ref.triangles(down)
        assert out["bonus"][0][s] == ref.estimate_bonus(out["tricks"][0][s], NUMBER[up], NUMBER[down])
    assert out["tricks"][0].sum() == rules.hand_size(n) - 2
    assert out["card_points"][0].sum() + aside == (36 if n == 3 else 60)
    assert (out["scores"][0] == out["card_points"][0] + out["bonus"][0]).all()


def test_same_seed_same_rows_whatever_the_split():
    check_same_rows_whatever_the_split(simulate_deals, 4)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("n", PLAYERS)
def test_simulated_records_replay_to_the_same_row(n, policy):
    count = 60
    out = simulate_deals(n, 7, policy, 0, count)
    trumps = set()
    for i in range(count):
        rec = record(n, 7, policy, i)
        res = replay(rec)
        trump, won, scores = ref.wimmueln_scores(rec)
        assert res["scores"] == out["scores"][i].tolist() == scores
        assert res["tricks_won"] == out["tricks"][i].tolist() == won
        assert res["bonus"] == out["bonus"][i].tolist()
        assert res["card_points"] == out["card_points"][i].tolist()
        assert res["trump"] == (None if trump is None else MU.colours[trump])
        assert res["tricks"][0]["leader"] == rec["dealer"] and len(res["tricks"]) == rules.tricks_per_deal(n)
        if trump is not None:
            assert rec["play"][0] == MU.text(int(rules.first_lead(*(card(t) for t in rec["revealed"]))))
        trumps.add(trump is None)
    assert trumps == {True, False}


def test_the_heuristic_hits_its_estimates_more_often_than_random():
    for n in PLAYERS:
        hits = {p: (simulate_deals(n, 5, p, 0, 2000)["bonus"] > 0).mean() for p in POLICIES}
        assert hits["heuristic"] > 2 * hits["random"], (n, hits)


# ---------------------------------------------------------------- illegal records


@pytest.fixture(scope="module")
def records_by_trump():
    """A 4-player record with a trump and one without."""
    found = {}
    for i in range(100):
        rec = record(4, 5, "heuristic", i)
        found.setdefault(replay(rec)["trump"] is None, rec)
        if len(found) == 2:
            return found[False], found[True]
    raise AssertionError("no deal of each kind")


_error = partial(replay_error, replay)  # the error replaying a copy of a record with fields changed


def test_illegal_records_name_the_first_illegal_step(records_by_trump):
    good, _ = records_by_trump
    d = good["dealer"]
    assert _error(good, game="panther").startswith("game:")
    assert _error(good, players=7).startswith("players: expected 3..6")
    other = next(t for t in MU.format(MU.full) if t not in good["hands"][d])
    assert _error(good, revealed=[good["revealed"][0], other]).startswith(f"revealed (dealer seat {d}): ")
    wrong = next(t for t in good["hands"][d] if t not in good["revealed"])
    trump = replay(good)["trump"]
    assert _error(good, play=[wrong, *good["play"][1:]]) == (
        f"play card 0 (seat {d}, trick 0): must be {good['play'][0]}, the higher revealed card (trump {trump})"
    )
    estimates = copy.deepcopy(good["estimates"])
    estimates[d][0] = good["play"][0]
    if good["hands"][d].count(good["play"][0]) == 1:
        assert _error(good, estimates=estimates).startswith(f"estimates[{d}]: ")
    estimates = copy.deepcopy(good["estimates"])
    estimates[(d + 1) % 4] = estimates[(d + 1) % 4][:1]
    assert _error(good, estimates=estimates) == f"estimates[{(d + 1) % 4}]: 1 cards, expected 2"
    assert _error(good, play=good["play"][:-1]) == "play: 51 cards, expected 52"
    hands = copy.deepcopy(good["hands"])
    hands[1][0] = hands[2][0]
    assert _error(good, hands=hands).startswith(("hands[2]", "hands: the deal is not"))


def test_the_free_lead_and_a_three_player_deal_of_four_colours(records_by_trump):
    _, free = records_by_trump
    d = free["dealer"]
    assert replay(free)["trump"] is None
    three = record(3, 5, "heuristic", 0)
    hands = copy.deepcopy(three["hands"])
    hands[0][0] = "K0" if "K0" not in hands[0] else "K1"
    assert _error(three, hands=hands).startswith("hands: the deal is not three complete colours")
    estimates = copy.deepcopy(free["estimates"])
    led = free["play"][0]
    if free["hands"][d].count(led) == 1:
        estimates[d][1] = led
        assert _error(free, estimates=estimates).startswith(f"estimates[{d}]: ")


def test_a_failure_to_follow(records_by_trump):
    check_failure_to_follow(replay, *records_by_trump)


def test_mixed_tables_play_the_same_deals_and_the_heuristic_beats_random():
    mixed = simulate_deals(4, 8, ["random", "heuristic", "random", "random"], 0, 200)
    plain = simulate_deals(4, 8, "random", 0, 200)
    for key in ("hands", "dealer", "revealed", "trump"):
        assert np.array_equal(mixed[key], plain[key]), key
    mean, half = duplicate_advantage(simulate_deals, 4, 8, 2000)
    assert mean - half > 0, (mean, half)


def test_a_three_player_record_may_use_any_three_colours():
    """docs/rules.md §2 (Wimmüln's deck is Mü's): R Y G renamed B K G replays with the same scores."""
    rename = str.maketrans("RY", "BK")
    for i in range(20):
        rec = record(3, 4, "heuristic", i)
        moved = copy.deepcopy(rec)
        for key in ("hands", "estimates"):
            moved[key] = [[t.translate(rename) for t in cards] for cards in rec[key]]
        moved["revealed"] = [t.translate(rename) for t in rec["revealed"]]
        moved["play"] = [t.translate(rename) for t in rec["play"]]
        want, got = replay(rec), replay(moved)
        assert got["scores"] == want["scores"] and got["tricks_won"] == want["tricks_won"]
        assert got["trump"] == (None if want["trump"] is None else want["trump"].translate(rename))


# ---------------------------------------------------------------- matches


@pytest.mark.parametrize("n", [3, 4, 6])
def test_matches_end_at_200_and_replay_deal_by_deal(n):
    """The match rule from the outside: deals of stream (~seed, m), dealer moving left, until a total >= 200."""
    from musim.games.wimmueln import simulate

    out = simulate.simulate_matches(n, 12, "heuristic", 3, 20)
    assert not out["capped"].any()
    for i, totals in enumerate(replayed_matches(simulate, n, 12, 3, out["deals"])):
        assert all(t.max() < 200 for t in totals[:-1]), i
        assert totals[-1].max() >= 200 and totals[-1].tolist() == out["totals"][i].tolist()
    again = simulate.simulate_matches(n, 12, "heuristic", 13, 10)
    assert np.array_equal(again["totals"], out["totals"][10:])
