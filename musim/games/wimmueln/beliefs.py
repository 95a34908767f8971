"""Held-out Wimmüln deals replayed to every card decision, for the fit and the calibration of
the search seat's world weights (musim.play.beliefs): at each, the seat to move draws its
worlds and predicts, for each other seat and each card hidden from it, the chance the seat holds
it, under each row of a grid of parameters (row 0: uniform worlds).  Every seat plays the
heuristic, the model the weights assume."""

import numpy as np

from musim.engine.seats import seat_policies
from musim.games.wimmueln import WEIGHTS, policies, rules
from musim.games.wimmueln import search as wsearch
from musim.games.wimmueln.simulate import make_workspace, simulate_deals
from musim.play import beliefs

GRID = ((0.75, 0.85, 0.9, 0.95, 0.999), (0.2, 0.3, 0.35, 0.45, 0.6))  # the fit's values of each parameter


def deal_predictions(players, seed, deal, worlds, grid, ws, ctx):
    """[(trick, p[g, i], held[i]), ...] at every card decision of deal `deal` of a heuristic run
    but the dealer's lead (musim.play.beliefs.predictions)."""
    n = players
    row = {k: v[0] for k, v in simulate_deals(n, seed, "heuristic", deal, 1, ws).items()}
    play = ws.log[: n * rules.tricks_per_deal(n)].copy()
    dealer, trump, est = int(row["dealer"]), int(row["trump"]), row["estimates"]
    a, b = (int(c) for c in row["revealed"])
    held = np.zeros(rules.MAX_PLAYERS, np.uint64)
    for s in range(n):
        held[s] = int(row["hands"][s]) & ~(1 << int(est[s, 0]) | 1 << int(est[s, 1]))
    held[dealer] = int(held[dealer]) & ~(1 << int(play[0]))
    trick = np.zeros(rules.MAX_PLAYERS, np.int64)
    won, points = np.zeros(rules.MAX_PLAYERS, np.int64), np.zeros(rules.MAX_PLAYERS, np.int64)
    work = beliefs.scratch(seed, deal, grid, rules.MAX_PLAYERS)
    wsearch.begin(ctx, n, dealer, a, b, trump)
    found, leader, wp = [], dealer, 0
    for i, card in enumerate(play):
        t, k = divmod(i, n)
        seat = (leader + k) % n
        if i > 0:
            found.append((t, *_decide(ctx, work, worlds, grid, seat, t, k, leader, wp, held, trick, won, points, est)))
            held[seat] = int(held[seat]) & ~(1 << int(card))
        trick[k] = card
        if k > 0 and rules.beats(card, trick[wp], trump):
            wp = k
        wsearch.note(ctx, seat, t, k, card, trick[0])
        if k == n - 1:
            leader = (leader + wp) % n
            won[leader] += 1
            points[leader] += rules.points(np.uint64(sum(1 << int(c) for c in trick[:n])))
            wp = 0
    return found


def _decide(ctx, work, worlds, grid, seat, t, k, leader, wp, held, trick, won, points, est):
    """(p, held) of one decision's predictions: the other hands' cards and face-down estimates."""
    n = ctx.meta[wsearch.N]
    wsearch.look(ctx, seat, t, k, leader, wp, held, trick, est, won, points)
    face_down = 0
    for s in range(n):
        if s != seat:
            face_down |= 1 << int(est[s, 1])
    return beliefs.at_decision(ctx, work, worlds, ctx.held, n, grid, seat, held, face_down)


def predictions(players, seed, start, count, worlds, grid):
    """The decisions' predictions of deals start..start+count-1 (deal_predictions)."""
    codes = seat_policies(players, "heuristic", policies.NAMES)
    ctx = wsearch.make_context(worlds, players, 0, codes)
    ws = make_workspace(players, codes)
    return beliefs.replay(deal_predictions, ws, ctx, players, seed, start, count, worlds, grid)


HOOK = beliefs.grid_hook(WEIGHTS, GRID, predictions)
