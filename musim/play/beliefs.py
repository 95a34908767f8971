"""What a search seat's worlds say about the hidden cards: for the fit of the world weights'
parameters (scripts/fit_trick_world_weights.py) and their calibration
(scripts/calibrate_trick_worlds.py, musim.analysis.calibration).

At one decision, after the game has taken in the seat's view, `shares` draws worlds and adds
each world's weight under each row of a grid of parameters to the cards each seat holds in it;
a game's beliefs module replays held-out deals to every decision and turns the shares into
predictions: p, the weighted share of the worlds in which a seat holds a hidden card.
"""

import numpy as np

from musim.compile.jit import flat_kernel
from musim.core.bits import drop_lowest, lowest
from musim.play.search import weight, world


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


def log_score(p, held):
    """Mean log likelihood of what happened (higher is better), p clipped away from 0 and 1."""
    q = np.clip(np.where(held, p, 1.0 - p), 1e-9, 1.0)
    return np.log(q).mean(axis=-1)
