"""What a search seat's worlds say about the hidden cards in Wimmüln, The Last Panther and
Mückenstich: for the fit of the world weights' parameters (scripts/fit_world_weights.py) and
their calibration (scripts/calibrate_worlds.py, musim.analysis.calibration).

At one decision, after the game has taken in the seat's view, `shares` draws worlds and adds
each world's weight under each row of a grid of parameters to the cards each seat holds in it;
a game's beliefs module replays held-out deals to every decision and turns the shares into
predictions: p, the weighted share of the worlds in which a seat holds a hidden card.  Every
seat plays the heuristic, the model the weights assume.  The fit (grid_hook) scores every row of
the game's grid, row 0 the uniform worlds, on the same worlds, and keeps the row of the best
mean log score (the Brier score beside it); the parameters are fitted at one player count and
serve at all.
"""

import itertools
from functools import partial

import numpy as np
import pandas as pd

from musim.analysis.calibration import log_score, long_form
from musim.compile.jit import flat_kernel
from musim.core.bits import drop_lowest, lowest
from musim.core.rng import stream_state
from musim.play.search import weight, world
from musim.play.world_weights import Hook

UNIFORM = 0.5  # row 0 of a grid, the uniform worlds: `shares` weighs none of them, whatever its values
SALT = 0x5EED_BE11EF  # the worlds' streams, apart from the deals'


@flat_kernel
def shares(ctx, state, worlds, hands, n, grid, out, totals):
    """Draw `worlds` worlds; for each grid row g add the world's weight, under params[1:] =
    grid[g] (row 0: unweighted), to totals[g] and to out[g, s, c] for each card c of hands[s]
    (the array the game's world deals the seats' hands into).  out, totals: zeroed by the caller."""
    for _ in range(worlds):
        world(ctx, state)
        for g in range(grid.shape[0]):
            ctx.params[0] = 0.0 if g == 0 else 1.0
            for j in range(grid.shape[1]):
                ctx.params[1 + j] = grid[g, j]
            w = weight(ctx)
            totals[g] += w
            for s in range(n):
                m = hands[s]
                while m:
                    out[g, s, lowest(m)] += w
                    m = drop_lowest(m)


def predictions(out, totals, seat, n, hidden, truth):
    """(p[g, i], held[i]) of every (other seat, hidden card) i at one decision: out, totals from
    `shares`; hidden: the card mask hidden from `seat`; truth[s]: the true hands."""
    cards = [c for c in range(64) if int(hidden) >> c & 1]
    others = [s for s in range(n) if s != seat]
    p = np.stack([out[:, s, cards] for s in others], axis=1).reshape(out.shape[0], -1)
    p = p / np.maximum(totals, np.finfo(float).tiny)[:, None]
    held = np.array([int(truth[s]) >> c & 1 for s in others for c in cards], bool)
    return p, held


def scratch(seed, deal, grid, seats):
    """One deal's scratch for at_decision: its worlds' stream (apart from the deals'), and the
    shares' out and totals."""
    state = np.array([stream_state(seed ^ SALT, deal)], np.uint64)
    return state, np.zeros((len(grid), seats, 64)), np.zeros(len(grid))


def at_decision(ctx, work, worlds, holders, n, grid, seat, truth, hidden=0):
    """(p, held) of one decision, ctx having taken in the seat's view: `shares` of the worlds
    it deals into `holders`, predicted for each card of the other seats' true hands `truth`
    and of `hidden` (more cards the seat cannot see); `work`: the deal's scratch."""
    state, out, totals = work
    out[:], totals[:] = 0.0, 0.0
    shares(ctx, state, worlds, holders, n, grid, out, totals)
    for s in range(n):
        if s != seat:
            hidden |= int(truth[s])
    return predictions(out, totals, seat, n, hidden, truth)


def replay(deal_predictions, ws, ctx, players, seed, start, count, worlds, grid):
    """The predictions of every decision of deals start..start+count-1: [(trick, p[g, i], held[i]), ...]
    (`deal_predictions`: a game's, one deal's, with its workspace `ws` and search context `ctx`)."""
    grid = np.ascontiguousarray(grid, np.float64)
    found = []
    for d in range(start, start + count):
        found += deal_predictions(players, seed, d, worlds, grid, ws, ctx)
    return found


def stacked(found):
    """(p[g, i], held[i]) of every decision's predictions together."""
    return np.concatenate([f[1] for f in found], axis=1), np.concatenate([f[2] for f in found])


def grid_fit(predictions, weights, values, players, deals, seed, worlds):
    """Hook.fit of a grid (`values`: each parameter's): (the best row, meta entries, every row's scores)."""
    (n,) = players  # one row of parameters serves every player count
    names = list(weights.names)
    grid = [[UNIFORM] * len(names)] + [list(row) for row in itertools.product(*values)]
    p, held = stacked(predictions(n, seed, 0, deals, worlds, grid))
    logs, briers = log_score(p, held), ((p - held) ** 2).mean(axis=1)
    best = 1 + int(np.argmax(logs[1:]))
    table = pd.DataFrame(grid[1:], columns=names).assign(log_score=logs[1:], brier=briers[1:])
    table.loc[-1] = [np.nan] * len(names) + [logs[0], briers[0]]  # the uniform worlds
    print(f"uniform worlds: log score {logs[0]:.4f}, Brier {briers[0]:.4f}")
    chosen = ", ".join(f"{name} {v}" for name, v in zip(names, grid[best]))
    print(f"best: {chosen}: log score {logs[best]:.4f}, Brier {briers[best]:.4f}")
    meta = {"players": n, "log_score": logs[best], "brier": briers[best]}
    meta |= {"uniform_log_score": logs[0], "uniform_brier": briers[0]}
    return grid[best], meta, table.sort_index()


def grid_calibration(predictions, game, players, deals, seed, worlds, params):
    """Hook.calibration: uniform and `params`' worlds, on the same worlds, at each of `players`."""
    parts = []
    for n in players:
        found = predictions(n, seed, 0, deals, worlds, [[UNIFORM] * len(params), list(params)])
        p, held = stacked(found)
        trick = np.concatenate([np.full(len(f[2]), f[0] + 1) for f in found])
        parts.append(long_form(game, n, trick, held, {"uniform": p[0], "weighted": p[1]}))
    return pd.concat(parts, ignore_index=True)


def grid_hook(weights, values, predictions):
    """The Hook of a game whose `predictions(players, seed, start, count, worlds, grid)` replays
    its deals (replay), fitted over the grid of `values`."""
    return Hook(
        weights,
        partial(grid_fit, predictions, weights, values),
        partial(grid_calibration, predictions, weights.game),
        scores=("brier", "log_score", "params", "deals", "worlds_per_decision", "seed"),
    )
