"""What Mü's weighted worlds believe (docs/players.md "Search"): at each card decision of an
observer seat, the predicted chance that each other seat holds each card hidden from it, by
uniform and by weighted worlds, against whether it does.

The observer plays `search-uniform` (its play, and so the deals, are the same whatever the
weights' parameters) and its search draws the worlds; a probe (world_weights.make_probe)
records each world with its likelihood under the parameters given.  The other seats play the
heuristic and bid by their auction models, as the weights assume.  Used by
scripts/calibrate_worlds.py (calibration table, plot, Brier scores) and
scripts/fit_world_weights.py (the parameters that minimise the weighted Brier score).
"""

import numpy as np
import pandas as pd

from musim.games.mu import policies, world_weights
from musim.games.mu import simulate as sim
from musim.games.mu.params import learned_model
from musim.play import drivers

ROOM = 2500  # probe rows a deal (a 4-player deal writes about 700)


def predictions(players, deals, seed, weights, worlds=64, auction="cautious", observer=0, start=0):
    """DataFrame (trick, seat, card, p_uniform, p_weighted, held), one row a (decision of the
    observer, other seat, hidden card), of deals start..start+deals-1 of `seed`; `weights` a
    parameter row (world_weights.TAU..EPS_PLAY); `auction` one model for every seat or one a seat."""
    play = ["heuristic"] * players
    play[observer] = "search-uniform"
    _, card = sim.seat_codes(players, play)
    models = auction.split(",") * (players if "," not in auction else 1)
    bid = np.array([policies.AUCTIONS[m] for m in models], np.int64)
    learned = learned_model("")[1] if policies.LEARNED in bid else None
    ws = sim.make_workspace(players, worlds=worlds, learned=learned, weights=np.asarray(weights, np.float64))
    probe = world_weights.make_probe(ROOM * deals)
    ws = ws._replace(search=ws.search._replace(probe=probe))
    drivers.simulate_layout_deals(sim.DEAL, players, sim.run_policy(bid, card), seed, start, deals, ws)
    count = int(probe.count[0])
    if count > len(probe.rows):
        raise RuntimeError(f"the probe overflowed: {count} rows, room for {len(probe.rows)}")
    rows = probe.rows[:count]
    frame = pd.DataFrame(rows, columns=["trick", "seat", "card", "p_uniform", "p_weighted", "held"])
    return frame.astype({"trick": int, "seat": int, "card": int, "held": bool})


def long_form(frame, players):
    """The predictions as musim.analysis.calibration reads them: game, players, worlds
    (uniform, weighted), trick, p, held."""
    parts = []
    for kind in ("uniform", "weighted"):
        part = frame[["trick", "held"]].assign(p=frame[f"p_{kind}"], worlds=kind, game="mu", players=players)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def brier(frame, kind):
    """Mean squared error of the `kind` (uniform, weighted) predictions."""
    return float(((frame[f"p_{kind}"] - frame["held"].astype(float)) ** 2).mean())
