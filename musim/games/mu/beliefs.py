"""What Mü's weighted worlds believe (docs/players.md "Search"): at each card decision of an
observer seat, the predicted chance that each other seat holds each card hidden from it, by
uniform and by weighted worlds, against whether it does; and the fit of their parameters on it
(HOOK: scripts/fit_world_weights.py, scripts/calibrate_worlds.py).

The observer plays `search-uniform` (its play, and so the deals, are the same whatever the
weights' parameters) and its search draws the worlds; a probe (world_weights.make_probe)
records each world with its likelihood under the parameters given.  The other seats play the
heuristic and bid by their auction models, as the weights assume.  The fit: a coordinate search
for the parameters that minimise the weighted Brier score at each player count, from START (the
weakest weights of the grids), each parameter in turn over its grid, the others held, twice
round; ties keep the earlier value.  Its seats other than the observer (cautious) bid learned,
cautious and bold in turn, so that every parameter has actions to explain.
"""

import numpy as np
import pandas as pd

from musim.analysis.calibration import long_form
from musim.games.mu import policies, world_weights
from musim.games.mu import simulate as sim
from musim.games.mu.params import WEIGHTS, learned_model
from musim.games.mu.rules import MIN_PLAYERS
from musim.play import drivers
from musim.play.world_weights import Hook

ROOM = 2500  # probe rows a deal (a 4-player deal writes about 700)
GRIDS = (
    (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0),  # tau (Q in points of a deal score)
    (0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9),  # eps_auction: the chance of a uniform choice
    (0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9),  # eps_setup
    (0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9),  # eps_play
)
START = (64.0, 0.9, 0.9, 0.9)  # the weak end: each parameter sharpens only where that pays
ROUNDS = 2
CRITERION = (
    "Brier score of the weighted worlds' chance that each other seat holds each hidden card "
    "(musim/games/mu/beliefs.py), coordinate search over GRIDS"
)


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


def brier(frame, kind):
    """Mean squared error of the `kind` (uniform, weighted) predictions."""
    return float(((frame[f"p_{kind}"] - frame["held"].astype(float)) ** 2).mean())


def fit_auction(players):
    """The fit's auction models: the observer cautious, the others learned, cautious, bold in turn."""
    cycle = ("learned", "cautious", "bold")
    return ",".join(["cautious"] + [cycle[i % 3] for i in range(players - 1)])


def fit_row(players, deals, seed, worlds):
    """(params row, uniform Brier, weighted Brier) of one player count (the module's coordinate search)."""
    score = lambda row: brier(predictions(players, deals, seed, row, worlds, fit_auction(players)), "weighted")
    best = np.array(START, np.float64)
    frame = predictions(players, deals, seed, best, worlds, fit_auction(players))
    uniform, best_score = brier(frame, "uniform"), brier(frame, "weighted")
    for _ in range(ROUNDS):
        for i, grid in enumerate(GRIDS):
            for v in grid:
                if v == best[i]:
                    continue
                trial = best.copy()
                trial[i] = v
                s = score(trial)
                if s < best_score:
                    best, best_score = trial, s
            print(f"  {players} players: {WEIGHTS.names[i]} = {best[i]:g}, Brier {best_score:.5f}", flush=True)
    return best, uniform, best_score


def fit(players, deals, seed, worlds):
    """HOOK.fit: (params [4, 4], meta entries, no table): a row fitted for each of `players`, START
    for the other player counts."""
    params = np.array([START] * WEIGHTS.shape[0], np.float64)
    scores = {}
    for n in players:
        row, uniform, weighted = fit_row(n, deals, seed, worlds)
        params[n - MIN_PLAYERS] = row
        scores[str(n)] = {"brier_uniform": round(uniform, 6), "brier_weighted": round(weighted, 6)}
        print(f"{n} players: {dict(zip(WEIGHTS.names, row.tolist()))}, Brier {uniform:.5f} -> {weighted:.5f}")
    return params, {"criterion": CRITERION, "scores": scores}, None


def calibration(players, deals, seed, worlds, params, auction="cautious"):
    """HOOK.calibration: the predictions of deals 0..deals-1 at each of `players`, by the rows of `params`."""
    frames = []
    for n in players:
        frame = predictions(n, deals, seed, WEIGHTS.row(params, n), worlds, auction)
        p = {kind: frame[f"p_{kind}"].to_numpy() for kind in ("uniform", "weighted")}
        frames.append(long_form("mu", n, frame["trick"].to_numpy(), frame["held"].to_numpy(), p))
    return pd.concat(frames, ignore_index=True)


HOOK = Hook(
    WEIGHTS,
    fit,
    calibration,
    scores=("brier", "weights", "deals", "seed", "worlds_per_decision"),
    options={"auction": ("cautious", "The seats' auction model (cautious, bold or learned).")},
)
