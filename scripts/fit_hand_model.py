"""Fit the hand-evaluation model and publish it.

Writes musim/games/mu/hand_table.py (the coefficients the heuristic bids with)
and results/hand_model/ (the coefficient table and fit statistics as CSV and
Markdown).  Deterministic: fixed seed.

Usage: python scripts/fit_hand_model.py [--deals 20000] [--seed 2026]
"""
import argparse
import os
import sys
import time
from pathlib import Path

import pandas as pd

from musim.analysis.handfit import fit, table_source
from musim.games.mu.hand_model import FEATURE_NAMES, KINDS

ROOT = Path(__file__).resolve().parent.parent


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    command = f"python scripts/fit_hand_model.py --deals {a.deals} --seed {a.seed}"
    started = time.perf_counter()
    coefs, stats, rows = {}, [], []
    for n in (3, 4, 5, 6):
        coefs[n], st = fit(n, a.deals, a.seed, os.cpu_count())
        stats += st
        for k, kind in enumerate(KINDS):
            rows.append({"players": n, "kind": kind, **{f: round(float(coefs[n][k, i]), 4)
                                                        for i, f in enumerate(FEATURE_NAMES)}})
    seconds = time.perf_counter() - started
    (ROOT / "musim/games/mu/hand_table.py").write_text(table_source(coefs, command))
    out = ROOT / "results/hand_model"
    out.mkdir(parents=True, exist_ok=True)
    table, fitstats = pd.DataFrame(rows), pd.DataFrame(stats)
    table.to_csv(out / "hand_model.csv", index=False)
    fitstats.to_csv(out / "fit_stats.csv", index=False, float_format="%.4f")
    md = ["# Hand-evaluation model", "",
          f"Regenerate: `{command}` ({seconds:.0f} s on this machine).", "",
          "Expected points of the chief's team = sum of coefficient x feature, per player count and kind of "
          "chief trump.  Data: for each of the deals, seat 0 is chief and names in turn every type it holds "
          "and `none`; a uniformly drawn other seat is vice (4+ players) naming the type it holds most of, "
          "another one the partner; heuristic card play.  Features: trumps = cards of the named type; "
          "high trumps = the 7s, 8 and 9 of a colour trump; side 9s/8s/7s = those not of the named type.",
          "", "## Coefficients", "", table.to_markdown(index=False), "", "## Fit", "",
          fitstats.to_markdown(index=False, floatfmt=".3f"), ""]
    (out / "README.md").write_text("\n".join(md))
    print(table.to_string(index=False))
    print(fitstats.to_string(index=False))
    print(f"{seconds:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
