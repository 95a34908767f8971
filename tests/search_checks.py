"""Checks of the trick games' search players that read the same in each game (Mückenstich, The
Last Panther, Wimmüln): unweighted worlds, weighted worlds against uniform ones, and the setup
decision (discards, pass) that `search` searches and `search-uniform` leaves to the heuristic."""

import numpy as np

from musim.analysis.calibration import brier
from musim.core.rng import stream_state
from musim.play import world_weights
from musim.play.beliefs import shares


def check_unweighted_worlds_are_the_uniform_samplers(ctx, world, held, grid):
    """At the 4-player decision set up in `ctx`, 200 worlds through `shares` under the parameter rows
    of `grid` (row 0 unweighted): unweighted, every world weighs 1 and they are the worlds that
    `world(ctx, state)` deals into `held` from the same stream; two weighted rows differ."""
    out, totals = np.zeros((3, 4, 64)), np.zeros(3)
    weighted, plain = np.array([stream_state(9, 1)], np.uint64), np.array([stream_state(9, 1)], np.uint64)
    shares(ctx, weighted, 200, held, 4, grid, out, totals)
    counts = np.zeros((4, 64))
    for _ in range(200):  # the same stream, no weights: the same worlds
        world(ctx, plain)
        for s in range(4):
            counts[s, [c for c in range(64) if int(held[s]) >> c & 1]] += 1
    assert weighted[0] == plain[0]
    assert totals[0] == 200 and (out[0] == counts).all()
    assert totals[1] != totals[2]  # the weights are used


def check_weighted_worlds_predict_better(beliefs, weights, deals, margin):
    """On held-out deals (never a fitting seed) at 4 players, through the hook scripts/calibrate_worlds.py
    calls, worlds weighted by the game's file `weights` beat uniform ones by `margin` in Brier score."""
    predictions = beliefs.HOOK.calibration([4], deals, 4040, 64, world_weights.resolve(weights, "")[1])
    uniform, weighted = brier(predictions)["brier"]
    assert weighted < uniform - margin, (weighted, uniform)


def check_search_seats_search_their_setup(simulate_deals, column):
    """`column` (the seats' discards or pass) of 20 deals: search-uniform's are the heuristic's,
    search's are not all."""
    heuristic = simulate_deals(4, 2, "heuristic", 0, 20)
    first = simulate_deals(4, 2, "search-uniform", 0, 20, worlds=4)
    second = simulate_deals(4, 2, "search", 0, 20, worlds=4)
    assert (first[column] == heuristic[column]).all()
    assert (second[column] != heuristic[column]).any()
