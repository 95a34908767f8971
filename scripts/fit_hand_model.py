"""Fit the hand-evaluation model and publish it.

Heuristic play (default) at all four player counts: writes
musim/games/mu/hand_table.py (the coefficients the heuristic bids with: its bids
should predict what its own play makes) and results/hand_model/.  --play dd fits
the same model to the exact double-dummy values of the same contracts and writes
only its --out directory, with the heuristic's fit on the same deals beside it
(mean points per row under both).  Deterministic: fixed seed.

Usage: python scripts/fit_hand_model.py [--deals 20000] [--seed 2026]
       python scripts/fit_hand_model.py --play dd --players 3 --deals 600 --out results/hand_model_dd
"""

import argparse
import os
import sys
import time
from pathlib import Path

import pandas as pd

from musim.games.mu.analysis.handfit import fit, table_source
from musim.games.mu.hand_model import FEATURE_NAMES, KINDS
from musim.games.mu.params import MuParams

ROOT = Path(__file__).resolve().parent.parent


def coef_rows(n, coef):
    return [
        {"players": n, "kind": kind, **{f: round(float(coef[k, i]), 4) for i, f in enumerate(FEATURE_NAMES)}}
        for k, kind in enumerate(KINDS)
    ]


def positive(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number")
    return value


def player_counts(text):
    try:
        counts = [int(p) for p in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of player counts") from None
    if not counts or any(not 3 <= n <= 6 for n in counts):
        raise argparse.ArgumentTypeError(f"{text!r}: player counts are 3..6")
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=positive, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--play", choices=("heuristic", "dd"), default="heuristic")
    ap.add_argument("--players", type=player_counts, default="3,4,5,6")
    ap.add_argument("--workers", type=positive, default=os.cpu_count())
    ap.add_argument("--tt-mb", type=positive, default=256)
    ap.add_argument("--out", default="results/hand_model")
    a = ap.parse_args()
    players = a.players
    command = " ".join(["python scripts/fit_hand_model.py"] + sys.argv[1:])
    started = time.perf_counter()
    coefs, stats, rows = {}, [], []
    for n in players:
        coefs[n], st = fit(MuParams(n, a.play, tt_mb=a.tt_mb), a.deals, a.seed, a.workers)
        if a.play == "dd":  # the heuristic's play of the very same contracts, for comparison
            _, base = fit(MuParams(n), a.deals, a.seed, a.workers)
            for s, b in zip(st, base):
                s["heuristic_mean_team_points"] = b["mean_team_points"]
        stats += st
        rows += coef_rows(n, coefs[n])
    seconds = time.perf_counter() - started
    if a.play == "heuristic" and sorted(players) == [3, 4, 5, 6]:
        (ROOT / "musim/games/mu/hand_table.py").write_text(table_source(coefs, command))
    else:
        print(
            "hand_table.py left as it is (the heuristic's table needs heuristic play at 3,4,5,6 players)",
            file=sys.stderr,
        )
    out = ROOT / a.out
    out.mkdir(parents=True, exist_ok=True)
    table, fitstats = pd.DataFrame(rows), pd.DataFrame(stats)
    table.to_csv(out / "hand_model.csv", index=False)
    fitstats.to_csv(out / "fit_stats.csv", index=False, float_format="%.4f")
    play_text = (
        "heuristic card play"
        if a.play == "heuristic"
        else "double-dummy play: the exact value of each contract's starting position; "
        "`heuristic_mean_team_points` is what heuristic play makes of the same contracts"
    )
    md = [
        "# Hand-evaluation model" + (" under double-dummy play" if a.play == "dd" else ""),
        "",
        f"Regenerate: `{command}` ({seconds:.0f} s on this machine, {a.workers} workers).",
        "",
        "Expected points of the chief's team = sum of coefficient x feature, per player count and kind of "
        f"chief trump.  Data: for each of the {a.deals:,} deals, seat 0 is chief and names in turn every type "
        "it holds and `none`; a uniformly drawn other seat is vice (4+ players) naming the type it holds most "
        f"of, another one the partner; {play_text}.  Features: trumps = cards of the named type; high trumps = "
        "the 7s, 8 and 9 of a colour trump; side 9s/8s/7s = those not of the named type.",
        "",
    ]
    if a.play == "dd":
        md += [
            "The heuristic keeps bidding with the heuristic-play fit (`results/hand_model/`): it plays "
            "heuristically, so that is what its bids must predict.",
            "",
        ]
    md += [
        "## Coefficients",
        "",
        table.to_markdown(index=False),
        "",
        "## Fit",
        "",
        fitstats.to_markdown(index=False, floatfmt=".3f"),
        "",
    ]
    (out / "README.md").write_text("\n".join(md))
    print(table.to_string(index=False))
    print(fitstats.to_string(index=False))
    print(f"{seconds:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
