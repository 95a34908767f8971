"""Held-out deals of The Last Panther replayed to every card decision, for the fit and the
calibration of the search seat's world weights (musim.play.beliefs), as Wimmüln's beliefs.py:
every seat plays the heuristic, the model the weights assume."""

import numpy as np

from musim.engine.seats import seat_policies
from musim.games.panther import WEIGHTS, policies, rules
from musim.games.panther import search as psearch
from musim.games.panther.simulate import make_workspace, simulate_deals
from musim.play import beliefs

GRID = ((0.3, 0.5, 0.7, 0.85, 0.95), (0.2, 0.3, 0.4, 0.5, 0.65))  # the fit's values of each parameter


def decisions(players, seed, deal, ws, ctx):
    """Replay deal `deal` of a heuristic run: yield (trick, seat, held, passed) at every card
    decision, ctx having observed it (search.observe) and noted the cards before it."""
    n = players
    row = {k: v[0] for k, v in simulate_deals(n, seed, "heuristic", deal, 1, ws).items()}
    play = ws.log[: n * (rules.hand_size(n))].copy()
    held = np.zeros(rules.MAX_PLAYERS, np.uint64)
    passed = np.zeros(rules.MAX_PLAYERS, np.uint64)
    passed[:n] = row["passed"][:n]
    rules.after_pass(n, row["hands"].astype(np.uint64), passed, held)
    trick, zeros = np.zeros(rules.MAX_PLAYERS, np.int64), np.zeros(rules.MAX_PLAYERS, np.int64)
    voids = np.zeros(rules.MAX_PLAYERS, np.uint64)
    leader, wp = (int(row["dealer"]) + 1) % n, 0
    for pos, card in enumerate(play):
        t, k = divmod(pos, n)
        seat = (leader + k) % n
        psearch.observe(ctx, n, seat, held, trick, k, leader, wp, pos, zeros, passed, voids)
        yield t, seat, held, passed
        held[seat] = int(held[seat]) & ~(1 << int(card))
        trick[k] = card
        if k > 0 and rules.CARD_COLOUR[card] != rules.CARD_COLOUR[trick[0]]:
            voids[seat] = int(voids[seat]) | int(rules.COLOUR_MASK[rules.CARD_COLOUR[trick[0]]])
        if k > 0 and rules.beats(card, trick[wp]):
            wp = k
        psearch.note(ctx, n, pos, seat, card)
        if k == n - 1:
            leader, wp = (leader + wp) % n, 0


def deal_predictions(players, seed, deal, worlds, grid, ws, ctx):
    """[(trick, p[g, i], held[i]), ...] at every card decision of deal `deal` of a heuristic run
    (musim.play.beliefs.predictions)."""
    work = beliefs.scratch(seed, deal, grid, rules.MAX_PLAYERS)
    return [
        (t, *beliefs.at_decision(ctx, work, worlds, ctx.base, players, grid, seat, held))
        for t, seat, held, _ in decisions(players, seed, deal, ws, ctx)
    ]


def predictions(players, seed, start, count, worlds, grid):
    """The decisions' predictions of deals start..start+count-1 (deal_predictions)."""
    codes = seat_policies(players, "heuristic", policies.NAMES)
    ctx = psearch.make_context(worlds, players, 0, codes)
    ws = make_workspace(players, codes)
    return beliefs.replay(deal_predictions, ws, ctx, players, seed, start, count, worlds, grid)


HOOK = beliefs.grid_hook(WEIGHTS, GRID, predictions)
