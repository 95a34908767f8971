"""How exploitable a learned auction model is: a best response trained against it, and measured.

Training (`train_best_response`): the method of train.py with every other seat fixed to the
frozen model (selfplay.draw_seats' `others`) instead of the population: the learner starts from
the frozen model's behaviour, and round r fits a model on deals where it bids by round r-1's
(policy iteration, rollouts and exploration as in training, target tables drawn as in training).
Measuring (`exploitability`): on fresh duplicate deals under the rulebook's table, every seat
taking the tested model in turn, 95% intervals over deals, each round's best response among
frozen-model seats against the same seat bidding the frozen model (the goal: at most
GOAL points a deal), and for scale the frozen model and the last best response among cautious
seats against the same seat bidding cautious (cell A).
"""

import csv
import time
from pathlib import Path

import numpy as np

from musim.games.mu import simulate as sim
from musim.games.mu.learned import LearnedModel, selfplay
from musim.games.mu.learned.train import COUNTS, fit_round, interval, root
from musim.games.mu.rules import MAX_PLAYERS

GOAL = 1.0  # points a deal a best response may gain over the frozen model (issue 60, cell D3)
FROZEN = 0  # the frozen model's index in the stack; round r's best response is at r


def train_best_response(seed, frozen, rounds, deals, explore, say=print):
    """The stack [rounds + 1, 4, P]: the frozen model's weights [4, P], then each round's best
    response (module doc); and one row a round and player count (positions, seconds)."""
    stack = np.zeros((rounds + 1, *frozen.shape), np.float32)
    stack[FROZEN] = frozen
    rows = []
    for r in range(1, rounds + 1):
        for i, n in enumerate(COUNTS):
            weights, positions, seconds = fit_round(
                seed, r, n, deals, explore, stack[:r], say, learner=r - 1, others=FROZEN
            )
            stack[r, i] = weights
            rows.append({"round": r, "players": n, "deals": deals, "positions": positions, "seconds": seconds})
    return stack, rows


def duplicate_scores(seed, n, deals, stack, models, others):
    """scores [deals, len(models)]: the learner seat's score with each of `models` on the same
    deals (selfplay.eval_deals under the rulebook's table), every other seat bidding by `others`."""
    learned = LearnedModel(stack, np.zeros(MAX_PLAYERS, np.int64))
    state, policy = selfplay.make_scratch()[:2]
    scores = np.zeros((deals, len(models)), np.int64)
    bids = np.zeros_like(scores)
    ws = sim.make_workspace(n, learned=learned)
    seats = (0, others)
    selfplay.eval_deals(n, root(seed, n), 0, deals, np.array(models), seats, state, policy, ws, learned, scores, bids)
    return scores


def exploitability(seed, stack, deals, say=print):
    """Rows of exploitability.csv (module doc): per player count, each round's best response
    among frozen-model seats over the frozen model, then the frozen model and the last best
    response among cautious seats over cautious."""
    rounds, rows = len(stack) - 1, []
    for n in COUNTS:
        started = time.perf_counter()
        d3 = duplicate_scores(seed, n, deals, stack, [*range(1, rounds + 1), FROZEN], FROZEN)
        a = duplicate_scores(seed, n, deals, stack, [FROZEN, rounds, selfplay.CAUTIOUS], selfplay.CAUTIOUS)
        cells = [(f"best response round {r}", "learned", d3[:, r - 1] - d3[:, -1]) for r in range(1, rounds + 1)]
        cells += [
            ("learned", "cautious", a[:, 0] - a[:, 2]),
            (f"best response round {rounds}", "cautious", a[:, 1] - a[:, 2]),
        ]
        for tested, base, gain in cells:
            row = {"players": n, "tested": tested, "others": base, "baseline": base, "deals": deals}
            row |= interval("gain", gain)
            if base == "learned":
                row["goal_met"] = verdict(row)
            rows.append(row)
            say(f"{n} players, {tested} among {base} seats: {fmt(row)}")
        say(f"{n} players measured in {time.perf_counter() - started:.0f} s")
    return rows


def verdict(row):
    """Against GOAL: met when the interval lies at or below it, missed when above, else undecided
    (saying on which side the mean is)."""
    if row["gain_high"] <= GOAL:
        return "met"
    if row["gain_low"] > GOAL:
        return "missed"
    return f"undecided (mean {'above' if row['gain'] > GOAL else 'at or below'} {GOAL:g})"


def summary(head):
    """One sentence: at which player counts the goal was met, missed or undecided."""
    by = {}
    for h in head:
        by.setdefault(h["goal_met"], []).append(str(h["players"]))
    parts = [f"{v} at {', '.join(ns)} players" for v, ns in by.items()]
    return f"Goal (at most {GOAL:g} point a deal over `learned`, last round): " + "; ".join(parts) + "."


def write_report(out, rows, training, meta):
    """exploitability.csv (the measured rows) and exploitability.md in `out`."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "exploitability.csv", "w", newline="") as f:
        w = csv.DictWriter(f, list(dict.fromkeys(k for row in rows for k in row)), restval="")
        w.writeheader()
        w.writerows({k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()} for row in rows)
    (out / "exploitability.md").write_text(report_text(rows, training, meta))


def report_text(rows, training, meta):
    """exploitability.md: the command, seeds, sizes, the figures and the verdict."""
    last = f"best response round {meta['rounds']}"
    head = [r for r in rows if r["tested"] == last and r["others"] == "learned"]
    lines = [
        "# Exploitability of the learned auction (issue 60, cell D3)",
        "",
        f"Command: `{meta['command']}` ({meta['minutes']:.0f} min on one thread).",
        "",
        f"A best response to `{meta['frozen']}`: every other seat bids by it, the learner starts from its behaviour "
        f"and improves by {meta['rounds']} rounds of policy iteration (the training's rollouts, exploration "
        f"{meta['explore']:.0%} and drawn target tables), {meta['deals']:,} deals per player count a round, "
        f"training seed {meta['seed']}; saved as `{meta['model']}` ({meta['model_id']}, not shipped).",
        f"Measured on {meta['eval_deals']:,} fresh duplicate deals a player count (seed {meta['eval_seed']}) under the "
        "rulebook's table, every seat taking the tested model in turn, heuristic card play; a gain is the seat's "
        "points a deal over the same seat bidding the baseline, with its 95% interval over deals. "
        f"Goal: the best response gains at most {GOAL:g} point a deal over `learned` (met: interval at or "
        "below it; missed: above it). The best response is found by the training's method (a linear table model, "
        "rollouts continuing its own later turns by the cautious bidder), so its gain is a lower bound of what a "
        "stronger exploiter could take.",
        "",
        summary(head),
        "",
        "| players | best response among `learned` seats, over `learned` | goal | for scale: `learned` among `cautious`"
        " seats, over `cautious` (cell A) | the best response among `cautious`, over `cautious` |",
        "| ---: | --- | --- | --- | --- |",
    ]
    for h in head:
        n = h["players"]
        a = next(r for r in rows if r["players"] == n and r["tested"] == "learned")
        b = next(r for r in rows if r["players"] == n and r["tested"] == last and r["others"] == "cautious")
        lines.append(f"| {n} | {fmt(h)} | {h['goal_met']} | {fmt(a)} | {fmt(b)} |")
    lines += ["", "Each round's best response among `learned` seats, over `learned` (the same deals):", ""]
    lines += ["| players | " + " | ".join(f"round {r}" for r in range(1, meta["rounds"] + 1)) + " |"]
    lines += ["| ---: |" + " --- |" * meta["rounds"]]
    for n in COUNTS:
        cells = [fmt(r) for r in rows if r["players"] == n and r["others"] == "learned"]
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    lines += ["", "Training: positions fitted and seconds, a round and player count:", ""]
    lines += ["| round | players | positions | seconds |", "| ---: | ---: | ---: | ---: |"]
    lines += [f"| {t['round']} | {t['players']} | {t['positions']:,} | {t['seconds']:.0f} |" for t in training]
    return "\n".join(lines) + "\n"


def fmt(row):
    return f"{row['gain']:+.2f} [{row['gain_low']:+.2f}, {row['gain_high']:+.2f}]"
