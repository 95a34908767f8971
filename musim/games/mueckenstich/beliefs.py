"""Held-out Mückenstich deals replayed to every card decision, for the fit and the calibration of
the search seat's world weights (musim.play.beliefs), as Wimmüln's beliefs.py: every seat plays
the heuristic, the model the weights assume; the hidden cards predicted are the other hands'
(the dead piles' are drawn too, and not predicted)."""

import numpy as np

from musim.engine.seats import seat_policies
from musim.games.mueckenstich import WEIGHTS, cardplay, policies, rules
from musim.games.mueckenstich import search as msearch
from musim.games.mueckenstich.simulate import make_workspace, simulate_deals
from musim.play import beliefs

GRID = ((0.1, 0.2, 0.3, 0.4, 0.5, 0.7),)  # the fit's values of each parameter


def decisions(players, seed, deal, ws, ctx):
    """Replay deal `deal` of a heuristic run: yield (trick, seat, table) at every card decision,
    ctx having observed it (search.observe)."""
    n = players
    row = {k: v[0] for k, v in simulate_deals(n, seed, "heuristic", deal, 1, ws).items()}
    play, named = ws.log.copy(), ws.named.copy()
    discards = np.zeros(rules.MAX_PLAYERS, np.uint64)
    discards[:n] = row["discards"][:n]
    tb = cardplay.make_table()
    cardplay.start(n, tb, (int(row["dealer"]) + 1) % n)
    for s in range(n):
        tb.held[s] = int(row["hands"][s]) & ~int(discards[s])
    msearch.begin(ctx, tb.at[cardplay.LEADER])
    stop = np.full(rules.MAX_PLAYERS, policies.SEARCH, np.int64)
    for pos in range(n * rules.tricks_per_deal(n)):
        seat = (tb.at[cardplay.LEADER] + pos % n) % n
        msearch.observe(ctx, n, seat, tb, discards)
        yield pos // n, seat, tb
        cardplay.play_on(n, stop, ws.rng, tb, None, play[pos], named[pos])


def deal_predictions(players, seed, deal, worlds, grid, ws, ctx):
    """[(trick, p[g, i], held[i]), ...] at every card decision of deal `deal` of a heuristic run
    (musim.play.beliefs.predictions)."""
    work = beliefs.scratch(seed, deal, grid, rules.MAX_PLAYERS)
    return [
        (t, *beliefs.at_decision(ctx, work, worlds, ctx.root.held, players, grid, seat, tb.held))
        for t, seat, tb in decisions(players, seed, deal, ws, ctx)
    ]


def predictions(players, seed, start, count, worlds, grid):
    """The decisions' predictions of deals start..start+count-1 (deal_predictions)."""
    codes = seat_policies(players, "heuristic", policies.NAMES)
    ctx = msearch.make_context(worlds, codes)
    ws = make_workspace(players, codes)
    return beliefs.replay(deal_predictions, ws, ctx, players, seed, start, count, worlds, grid)


HOOK = beliefs.grid_hook(WEIGHTS, GRID, predictions)
