"""The Last Panther (docs/rules.md §4): rule kernels against the reference, the rules one by one,
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
from musim.games.panther import rules
from musim.games.panther.record import record, replay
from musim.games.panther.simulate import simulate_deals
from musim.play.duplicate import duplicate_advantage

PLAYERS = range(3, 9)
POLICIES = ("random", "heuristic")


# ---------------------------------------------------------------- the rules one by one


def test_deck_sizes_hand_sizes_and_pass_counts():
    sizes = {n: int(rules.hand_size(n)) for n in PLAYERS}
    assert sizes == {3: 15, 4: 15, 5: 12, 6: 10, 7: 8, 8: 7}
    assert {n: bin(int(rules.deck(n))).count("1") for n in PLAYERS} == {3: 45, 4: 60, 5: 60, 6: 60, 7: 56, 8: 56}
    assert {n: int(rules.pass_count(n)) for n in PLAYERS} == {3: 3, 4: 3, 5: 3, 6: 2, 7: 2, 8: 2}
    for n in PLAYERS:
        assert ref.cards_of(rules.deck(n)) == ref.panther_deck(n)
    assert "R1" not in MU.format(rules.deck(3)) and "K2" not in MU.format(rules.deck(3))
    assert [t for t in MU.format(rules.deck(7)) if t[1] == "2"] == ["Y2"]


def test_scores_of_a_deal_add_up_to_the_deck_constant():
    assert {n: int(rules.deck_total(n)) for n in PLAYERS} == {3: -95, 4: -110, 5: -110, 6: -110, 7: -100, 8: -100}
    for n in PLAYERS:
        assert rules.deck_total(n) == ref.panther_points(ref.panther_deck(n)) + 50


def test_card_points():
    assert [int(rules.points(np.uint64(MU.parse([t])))) for t in ("Y0", "Y9", "R5", "K7", "K8", "G7")] == [
        5,
        5,
        -10,
        -50,
        0,
        0,
    ]
    rng = np.random.default_rng(21)
    for _ in range(3000):
        cards = [c for c in range(60) if rng.random() < 0.2]
        assert rules.points(np.uint64(ref.mask_of(cards))) == ref.panther_points(cards)


def test_legal_and_winner_against_the_reference():
    rng = np.random.default_rng(22)
    colour = [ref.colour(c) for c in range(60)]
    number = [ref.number(c) for c in range(60)]
    for _ in range(5000):
        perm = [int(c) for c in rng.permutation(60)]
        hand = sorted(perm[: rng.integers(1, 16)])
        led = None if rng.random() < 0.1 else perm[-1]
        got = rules.legal(np.uint64(ref.mask_of(hand)), -1 if led is None else led)
        assert ref.cards_of(got) == ref.legal(hand, led, colour, None, False)
        trick = perm[: rng.integers(1, 9)] if rng.random() < 0.5 else [int(c) for c in rng.permutation(24)[:8]]
        want = ref.winner(trick, colour, number, None, False)
        assert rules.trick_winner(np.array(trick, np.int64), len(trick)) == want


def test_equal_cards_first_played_wins_and_no_trumps():
    trick = np.array([MU.index("G5", MU.full), MU.parse(["G7"]).bit_length() - 1, 33, 59], np.int64)  # G5 G7 G7 K9
    assert rules.trick_winner(trick, 4) == 1
    assert rules.trick_winner(np.array([0, 59], np.int64), 2) == 0  # R0 led, K9 of another colour loses


# ---------------------------------------------------------------- simulated deals


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(3, 8), policy=st.sampled_from(POLICIES), seed=st.integers(0, 2**63 - 1), deal=st.integers(0, 2**40)
)
def test_deal_invariants(n, policy, seed, deal):
    """Cards conserved, passes from the dealt hand, tricks add up, scores add up to the deck constant."""
    out = simulate_deals(n, seed, policy, deal, 1)
    hands, passed = out["hands"][0], out["passed"][0]
    union = 0
    for h, p in zip(hands, passed):
        assert bin(int(h)).count("1") == rules.hand_size(n) and union & int(h) == 0
        assert bin(int(p)).count("1") == rules.pass_count(n) and int(p) & ~int(h) == 0
        union |= int(h)
    assert union == int(rules.deck(n))
    assert out["tricks"][0].sum() == rules.hand_size(n)
    assert out["scores"][0].sum() == rules.deck_total(n)
    assert 0 <= out["dealer"][0] < n and out["tricks"][0][out["last_trick"][0]] >= 1


def test_same_seed_same_rows_whatever_the_split():
    check_same_rows_whatever_the_split(simulate_deals, 5)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("n", PLAYERS)
def test_simulated_records_replay_to_the_same_row(n, policy):
    count = 60
    out = simulate_deals(n, 7, policy, 0, count)
    for i in range(count):
        rec = record(n, 7, policy, i)
        res = replay(rec)
        assert res["scores"] == out["scores"][i].tolist() == ref.panther_scores(rec)
        assert res["tricks_won"] == out["tricks"][i].tolist()
        assert res["last_trick"] == out["last_trick"][i] == res["tricks"][-1]["winner"]
        assert rec["hands"] == [MU.format(h) for h in out["hands"][i]]
        assert rec["passed"] == [MU.format(p) for p in out["passed"][i]]
        assert res["tricks"][0]["leader"] == (rec["dealer"] + 1) % n
        sevens = [sum(t["cards"].count("K7") for t in res["tricks"] if t["winner"] == s) for s in range(n)]
        assert sevens == out["sevens"][i].tolist()


def test_the_heuristic_keeps_a_guard_and_passes_black_sevens_then_high_reds_then_high_cards():
    def danger(c):
        text = MU.text(c)
        return (2 if text == "K7" else 1 if text[0] == "R" else 0, ref.number(c), c)

    for n in (3, 6):
        out = simulate_deals(n, 3, "heuristic", 0, 200)
        for hand, passed in zip(out["hands"], out["passed"]):
            for h, p in zip(hand, passed):
                cards = ref.cards_of(h)
                safe = [c for c in cards if danger(c)[0] == 0]
                guard = max(safe, key=lambda c: (ref.number(c), c)) if safe else None
                want = sorted((c for c in cards if c != guard), key=danger)[-int(rules.pass_count(n)) :]
                assert ref.cards_of(p) == sorted(want)


def test_the_heuristic_takes_the_last_trick_more_often_than_its_share():
    for n in (3, 4, 6, 8):
        out = simulate_deals(n, 3, ["heuristic"] + ["random"] * (n - 1), 0, 3000)
        assert (out["last_trick"] == 0).mean() > 1 / n, n


# ---------------------------------------------------------------- illegal records


@pytest.fixture(scope="module")
def good():
    return record(4, 5, "heuristic", 0)


_error = partial(replay_error, replay)  # the error replaying a copy of a record with fields changed


def test_illegal_records_name_the_first_illegal_step(good):
    assert _error(good, game="mu").startswith("game:")
    assert _error(good, players=9).startswith("players: expected 3..8")
    assert _error(good, dealer=4).startswith("dealer:")
    hands = copy.deepcopy(good["hands"])
    hands[0] = hands[0][1:]
    assert _error(good, hands=hands) == "hands[0]: 14 cards, expected 15"
    hands = copy.deepcopy(good["hands"])
    hands[0][0] = hands[1][0]
    msg = _error(good, hands=hands)
    assert msg.startswith("hands[1]") or msg.startswith("hands: the deal is not")
    passed = copy.deepcopy(good["passed"])
    passed[2] = passed[2][:2]
    assert _error(good, passed=passed) == "passed[2]: 2 cards, expected 3"
    passed = copy.deepcopy(good["passed"])
    passed[1][0] = good["hands"][0][0] if good["hands"][0][0] not in good["hands"][1] else good["hands"][2][0]
    assert _error(good, passed=passed).startswith("passed[1]: ")
    play = list(good["play"])
    assert _error(good, play=play[:-1]) == "play: 59 cards, expected 60"


def test_a_card_not_held_and_a_failure_to_follow(good):
    rec = copy.deepcopy(good)
    play = rec["play"]
    # the second card of trick 0 replaced by a card the seat does not hold
    seat = (rec["dealer"] + 2) % 4
    held = set(rec["hands"][seat]) - set(rec["passed"][seat]) | set(rec["passed"][seat - 1])
    foreign = next(t for t in MU.format(MU.full) if t not in held)
    assert _error(rec, play=[play[0], foreign, *play[2:]]) == (
        f"play card 1 (seat {seat}, trick 0): {foreign} is not held"
    )
    # a seat that follows the led colour swaps in a card of another colour it plays later
    check_failure_to_follow(replay, rec)


def test_mixed_tables_play_the_same_deals_and_the_heuristic_beats_random():
    mixed = simulate_deals(4, 8, ["heuristic", "random", "random", "random"], 0, 200)
    plain = simulate_deals(4, 8, "random", 0, 200)
    assert np.array_equal(mixed["hands"], plain["hands"]) and np.array_equal(mixed["dealer"], plain["dealer"])
    mean, half = duplicate_advantage(simulate_deals, 4, 8, 2000)
    assert mean - half > 0, (mean, half)
    with pytest.raises(ValueError, match="policy"):
        simulate_deals(4, 8, ["heuristic"], 0, 1)


# ---------------------------------------------------------------- matches


@pytest.mark.parametrize("n", [3, 5, 8])
def test_matches_end_at_minus_200_and_replay_deal_by_deal(n):
    """The match rule from the outside: deals of stream (~seed, m), dealer moving left, until a total <= -200."""
    from musim.games.panther import simulate

    out = simulate.simulate_matches(n, 12, "heuristic", 3, 30)
    assert (out["totals"].sum(axis=1) == out["deals"] * rules.deck_total(n)).all()
    assert not out["capped"].any()
    for i, totals in enumerate(replayed_matches(simulate, n, 12, 3, out["deals"])):
        assert all(t.min() > -200 for t in totals[:-1]), i
        assert totals[-1].min() <= -200 and totals[-1].tolist() == out["totals"][i].tolist()
    again = simulate.simulate_matches(n, 12, "heuristic", 13, 20)
    assert np.array_equal(again["totals"], out["totals"][10:])
