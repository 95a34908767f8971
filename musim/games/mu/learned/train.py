"""Training the learned auction: rounds of self-play (selfplay.py), a fit each (fit.py), a report.

Fictitious play over a population: round r fits model r on deals where the learner bids by model
r-1 (the cautious bidder in round 1) with `explore` uniform exploration, and the other seats by
the cautious, bold and random bidders and models 1..r-1 (selfplay.draw_seats).  After each round,
on fresh deals under the rulebook's table: the new model's gain over the previous one and over
the cautious bidder in one seat (duplicate deals, the others drawn from the population, 95%
interval over deals), and in self-play its bid distribution and eklat rate.  Each round's weights
and figures are kept in `cache` (outside the repository), so a stopped training resumes; the last
round's weights become the model file (model_file.save).  One thread, deals in order: the same
seed gives the same file, byte for byte.
"""

import csv
import json
import time
from pathlib import Path

import numpy as np

from musim.core.cards import DECK, DECK_3P
from musim.core.rng import MAX_SEED, stream_state
from musim.games.mu import simulate as sim
from musim.games.mu.learned import LearnedModel, fit, model_file, selfplay
from musim.games.mu.learned.features import N_WEIGHTS
from musim.games.mu.learned.table_box import BOX
from musim.games.mu.rules import MAX_PLAYERS, MIN_PLAYERS, hand_size, mask_points, rulebook_targets

COUNTS = range(MIN_PLAYERS, MAX_PLAYERS + 1)
CHUNK = 50_000  # deals between progress lines


def tables():
    """(rulebook table, box [7, 5]) for selfplay.draw_table; a box's cap is the points in play."""
    box = np.zeros((MAX_PLAYERS + 1, 5))
    for n in COUNTS:
        box[n] = (*BOX[n], mask_points(DECK_3P if n == 3 else DECK))
    return rulebook_targets(), box


def root(seed, *key):
    """A stream root of its own for each (seed, round, players, purpose)."""
    r = int(seed)
    for k in key:
        r = int(stream_state(r, k)) & MAX_SEED
    return r


def fit_round(seed, r, n, deals, explore, stack, say, learner=None, others=selfplay.POPULATION):
    """Model r's weights for n players: self-play deals against the population `stack` [r, 4, P]
    (models 1..r-1 at 0..r-2; row r-1 unused), fitted; or, given `learner` (the behaviour model's
    index) and `others` (every other seat's model), a best response's round (best_response.py).
    Returns (weights, positions, seconds)."""
    started = time.perf_counter()
    learned = LearnedModel(stack, np.zeros(MAX_PLAYERS, np.int64))
    ws = sim.make_workspace(n, learned=learned)
    scratch = selfplay.make_scratch()
    gram, rhs = np.zeros((N_WEIGHTS, N_WEIGHTS)), np.zeros(N_WEIGHTS)
    behaviour = (selfplay.CAUTIOUS if r == 1 else r - 2) if learner is None else learner
    positions, key = 0, root(seed, r, n, 0)
    for start in range(0, deals, CHUNK):
        count = min(CHUNK, deals - start)
        positions += selfplay.train_deals(
            n, key, start, count, behaviour, (r - 1, others), explore, tables(), ws, learned, scratch, gram, rhs
        )
        say(f"round {r}, {n} players: {start + count:,} of {deals:,} deals, {positions:,} positions")
    return fit.solve(gram, rhs), positions, time.perf_counter() - started


def evaluate(seed, r, n, deals, stack):
    """Round r's figures for n players (module doc) under the rulebook's table."""
    learned = LearnedModel(stack, np.zeros(MAX_PLAYERS, np.int64))
    scratch = selfplay.make_scratch()
    scores, bids = np.zeros((deals, 3), np.int64), np.zeros((deals, 3), np.int64)
    models = np.array([r - 1, r - 2 if r > 1 else selfplay.CAUTIOUS, selfplay.CAUTIOUS])
    ws = sim.make_workspace(n, learned=learned)
    drawn, self_play = (r, selfplay.POPULATION), (-1, selfplay.POPULATION)  # eval_deals' seats
    selfplay.eval_deals(n, root(seed, r, n, 1), 0, deals, models, drawn, *scratch[:2], ws, learned, scores, bids)
    own = np.zeros((deals, 1), np.int64)
    self_bids = np.zeros((deals, 1), np.int64)
    ws = sim.make_workspace(n, learned=learned)
    selfplay.eval_deals(
        n, root(seed, r, n, 2), 0, deals, models[:1], self_play, *scratch[:2], ws, learned, own, self_bids
    )
    row = {"round": r, "players": n}
    for name, j in (("prev", 1), ("cautious", 2)):
        row |= interval(f"gain_{name}", scores[:, 0] - scores[:, j])
    eklats = int((self_bids == -1).sum())
    row |= {"eklat_rate": eklats / deals, **wilson("eklat", eklats, deals)}
    played = self_bids[self_bids >= 0]
    row["mean_bid"] = float(played.mean()) if played.size else float("nan")
    shares = np.bincount(played, minlength=hand_size(n) + 1)[1:] / deals
    return row | {f"bid_{b}": float(s) for b, s in enumerate(shares, 1)}


def interval(name, x):
    """{name, name_low, name_high}: mean of x and its 95% normal interval."""
    m, half = float(x.mean()), 1.96 * float(x.std(ddof=1)) / np.sqrt(len(x))
    return {name: m, f"{name}_low": m - half, f"{name}_high": m + half}


def wilson(name, k, total):
    """{name_low, name_high}: the 95% Wilson interval of k in total."""
    z, p = 1.96, k / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * np.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return {f"{name}_low": centre - half, f"{name}_high": centre + half}


def train(seed, rounds, deals, eval_deals, explore, cache, say=print):
    """Every round (module doc), resuming from `cache`; returns (final weights [4, P], report rows)."""
    cache = Path(cache)
    cache.mkdir(parents=True, exist_ok=True)
    stack = np.zeros((rounds + 1, len(COUNTS), N_WEIGHTS), np.float32)
    rows = []
    for r in range(1, rounds + 1):
        done = cache / f"round_{r}.npz"
        if done.exists():
            with np.load(done, allow_pickle=False) as z:
                stack[r - 1], part = z["weights"], json.loads(str(z["rows"]))
            rows += part
            say(f"round {r}: kept from {done}")
            continue
        part = []
        for i, n in enumerate(COUNTS):
            weights, positions, seconds = fit_round(seed, r, n, deals, explore, stack[: max(r, 1)], say)
            stack[r - 1, i] = weights
            part.append({"round": r, "players": n, "deals": deals, "positions": positions, "seconds": seconds})
        for row in part:
            row |= evaluate(seed, r, row["players"], eval_deals, stack[: r + 1])
            say(summary_line(row))
        np.savez(done, weights=stack[r - 1], rows=np.array(json.dumps(part)))
        rows += part
    return stack[rounds - 1], rows


def summary_line(row):
    return (
        f"round {row['round']}, {row['players']} players: gain over round {row['round'] - 1} "
        f"{row['gain_prev']:+.2f} [{row['gain_prev_low']:+.2f}, {row['gain_prev_high']:+.2f}], over cautious "
        f"{row['gain_cautious']:+.2f}; self-play eklats {row['eklat_rate']:.1%}, mean bid {row['mean_bid']:.2f}"
    )


def write_report(out, rows, meta):
    """rounds.csv (one row a round and player count) and training.md in `out`."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    keys = list(dict.fromkeys(k for row in rows for k in row))
    with open(out / "rounds.csv", "w", newline="") as f:
        w = csv.DictWriter(f, keys, restval="")
        w.writeheader()
        w.writerows({k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()} for row in rows)
    (out / "training.md").write_text(training_text(rows, meta))


def training_text(rows, meta):
    """training.md: how the model was trained and each round's figures."""
    lines = [
        "# Training of the learned auction",
        "",
        f"Command: `{meta['command']}` ({meta['model_id']}).",
        f"{meta['rounds']} rounds of fictitious self-play, {meta['deals_per_round']:,} deals per player count a "
        f"round, exploration {meta['explore']:.0%}; figures on {meta['eval_deals']:,} fresh deals a round "
        "under the rulebook's table (rounds.csv has every column). Gains: the learner seat's points a deal, "
        "duplicate deals, others drawn from the population, 95% interval. Round 0 is the cautious bidder.",
        "",
        "| round | players | positions | gain over previous round | gain over cautious | self-play eklats "
        "| mean bid | bids (share of deals) |",
        "| ---: | ---: | ---: | --- | --- | --- | ---: | --- |",
    ]
    for r in rows:
        bids = ", ".join(f"{k[4:]}: {v:.0%}" for k, v in r.items() if k.startswith("bid_") and v >= 0.01)
        lines.append(
            f"| {r['round']} | {r['players']} | {r['positions']:,} "
            f"| {r['gain_prev']:+.2f} [{r['gain_prev_low']:+.2f}, {r['gain_prev_high']:+.2f}] "
            f"| {r['gain_cautious']:+.2f} [{r['gain_cautious_low']:+.2f}, {r['gain_cautious_high']:+.2f}] "
            f"| {r['eklat_rate']:.1%} [{r['eklat_low']:.1%}, {r['eklat_high']:.1%}] | {r['mean_bid']:.2f} | {bids} |"
        )
    return "\n".join(lines) + "\n"


def save_model(path, weights, meta):
    """The model file (model_file.save) and its id."""
    model_file.save(path, weights, meta)
    return model_file.model_id(*model_file.read(path))
