"""Checks of a trick game's simulator that read the same in each game (Mückenstich, The Last
Panther, Wimmüln): rows that do not depend on how a run's deals are split, and matches replayed
deal by deal from their streams."""

import numpy as np

from musim.core.rng import randint, stream_state
from musim.play.drivers import deal_arrays


def check_same_rows_whatever_the_split(simulate_deals, players):
    """Deals 10..49 of seed 99 give the same rows at once as in two halves; seed 100 deals other hands."""
    whole = simulate_deals(players, 99, "heuristic", 10, 40)
    parts = [simulate_deals(players, 99, "heuristic", 10 + a, 20) for a in (0, 20)]
    for key, col in whole.items():
        assert np.array_equal(col, np.concatenate([p[key] for p in parts])), key
    other = simulate_deals(players, 100, "heuristic", 10, 40)
    assert not np.array_equal(whole["hands"], other["hands"]), "seeds 99 and 100 deal the same hands"


def replayed_matches(simulate, n, seed, first, deals):
    """Heuristic matches first, first + 1, ... of `seed` replayed one deal at a time, `deals[m]` deals
    for match m: its stream (~seed, first + m) draws the dealer, who moves left after each deal.
    Yields each match's running totals by seat, from zeros before its first deal to its end."""
    ws = simulate.make_workspace()
    policy = np.ones(n, np.int64)  # every seat heuristic
    deal = deal_arrays(simulate.DEAL, n)
    for m, count in enumerate(deals):
        state = ws.rng
        state[0] = stream_state(~np.uint64(seed), first + m)
        dealer = randint(state, n)
        totals = [np.zeros(n, np.int64)]
        for _ in range(count):
            simulate.play_deal(n, dealer, policy, state, deal, ws)
            totals.append(totals[-1] + deal.scores)
            dealer = (dealer + 1) % n
        yield totals
