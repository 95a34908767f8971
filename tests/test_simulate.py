"""Deal simulation: invariants of every simulated deal, agreement with the replay validator,
and reproducibility from the seed."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from musim.core.bits import popcount
from musim.core.cards import N_CARDS
from musim.core.deck import MU
from musim.core.rng import randint, stream_state
from musim.games.mu import simulate as sim
from musim.games.mu.params import MuParams
from musim.games.mu.record import replay
from musim.games.mu.run import deal_record, simulate_deal_chunk, simulate_match_chunk
from musim.play.drivers import deal_arrays

PLAYS = ("random", "heuristic")
TOTAL_POINTS = {3: 36, 4: 60, 5: 60, 6: 60}


def _row(ch, i):
    r = ch.res[i]
    n = ch.players
    return r, ch.scores[i, :n], ch.card_points[i, :n], ch.hands[i, :n], ch.laid[i, :n]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 6), play=st.sampled_from(PLAYS), seed=st.integers(0, 2**63 - 1), deal=st.integers(0, 2**40))
def test_deal_invariants(n, play, seed, deal):
    """Deck dealt exactly, laid within hands, every card played once, points add up."""
    rec = deal_record(MuParams(n, play), seed, deal)
    ch = simulate_deal_chunk(MuParams(n, play), seed, deal, 1)
    r, _scores, card_points, hands, laid = _row(ch, 0)
    union = 0
    for h in hands:
        assert popcount(h) == (12 if n == 3 else N_CARDS // n)
        assert union & int(h) == 0
        union |= int(h)
    assert union == (1 << (36 if n == 3 else 60)) - 1
    assert all(int(l) & ~int(h) == 0 for l, h in zip(laid, hands))
    if r[sim.OUTCOME] == sim.PLAYED:
        played = rec["play"]
        assert sorted(played) == sorted(c for h in rec["hands"] for c in h)
        assert card_points.sum() == TOTAL_POINTS[n]
        assert r[sim.TEAM_POINTS] == card_points[r[sim.CHIEF]] + (
            card_points[r[sim.PARTNER]] if r[sim.PARTNER] >= 0 else 0
        )
        assert r[sim.BID] == popcount(laid[r[sim.CHIEF]])
    else:
        assert card_points.sum() == 0
        assert "play" not in rec


@pytest.mark.parametrize("play", PLAYS)
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_simulated_deals_replay_to_the_same_row(n, play):
    """The validator, walking each simulated deal's full record, reaches the simulator's row."""
    count = 150
    ch = simulate_deal_chunk(MuParams(n, play), 11, 0, count)
    outcomes = set()
    for i in range(count):
        rec = deal_record(MuParams(n, play), 11, i)
        res = replay(rec)
        r, scores, card_points, _hands, laid = _row(ch, i)
        assert [sorted(l) for l in res["laid"]] == [sorted(MU.format(l)) for l in laid]
        assert res["scores"] == scores.tolist()
        outcomes.add(res["outcome"])
        if res["outcome"] == "played":
            assert res["card_points"] == card_points.tolist()
            assert (res["chief"], res["bid"], res["team_points"], res["success"], res["bonus"], res["shortfall"]) == (
                r[sim.CHIEF],
                r[sim.BID],
                r[sim.TEAM_POINTS],
                bool(r[sim.SUCCESS]),
                r[sim.BONUS],
                r[sim.SHORTFALL],
            )
            assert res["partner"] == (None if r[sim.PARTNER] < 0 else r[sim.PARTNER])
            assert res["vice"] == (None if r[sim.VICE] < 0 else r[sim.VICE])
        else:
            assert res["provoker"] == (None if r[sim.PROVOKER] < 0 else r[sim.PROVOKER])
    assert "played" in outcomes
    if play == "random":
        assert "eklat" in outcomes


def test_chunking_does_not_change_rows():
    """Deal k is a function of (seed, k) only: one chunk or several give the same arrays."""
    whole = simulate_deal_chunk(MuParams(5, "heuristic"), 3, 100, 64)
    parts = [simulate_deal_chunk(MuParams(5, "heuristic"), 3, 100 + s, 16) for s in range(0, 64, 16)]
    for name in ("res", "scores", "card_points", "hands", "laid", "dealers"):
        assert np.array_equal(getattr(whole, name), np.concatenate([getattr(p, name) for p in parts]))


def test_different_seeds_give_different_deals():
    a = simulate_deal_chunk(MuParams(4, "random"), 1, 0, 32)
    b = simulate_deal_chunk(MuParams(4, "random"), 2, 0, 32)
    assert not np.array_equal(a.hands, b.hands)


def test_heuristic_never_provokes_an_eklat():
    """The heuristic always outbids to a unique top, so its only eklat is 'nobody laid'."""
    for n in (3, 4, 5, 6):
        ch = simulate_deal_chunk(MuParams(n, "heuristic"), 5, 0, 2000)
        eklat = ch.res[:, sim.OUTCOME] == sim.EKLAT
        assert np.all(ch.res[eklat, sim.BID] == 0)


@pytest.mark.parametrize("n", [3, 4, 6])
def test_matches_reach_the_goal(n):
    ch = simulate_match_chunk(MuParams(n, "heuristic", goal=200), 9, 0, 8)
    totals = ch.totals[:, :n]
    assert np.all(totals.max(axis=1) >= 200)
    assert np.all(ch.chief_counts[:, :n].sum(axis=1) + ch.eklats == ch.deals)
    assert np.all(ch.deals >= 1)


def test_match_totals_are_the_sum_of_its_deals():
    """Re-playing a match's deals one by one with the same stream gives the same totals."""
    n = 4
    ch = simulate_match_chunk(MuParams(n, "random", goal=60), 21, 0, 3)
    ws = sim.make_workspace(n)
    for m in range(3):
        state = np.zeros(1, np.uint64)
        state[0] = stream_state(~np.uint64(21), m)
        dealer = randint(state, n)
        totals = np.zeros(n, np.int64)
        deal = deal_arrays(sim.DEAL, n)
        for _d in range(ch.deals[m]):
            sim.play_deal(n, dealer, sim.run_policy(0, 0), state, deal, ws)
            totals += deal.scores
            dealer = (dealer + 1) % n
        assert totals.tolist() == ch.totals[m, :n].tolist()
        assert totals.max() >= 60
