"""Three example hands at 4 and 5 players, `musim bid`'s answer under each auction model side by side.

For each hand (a weak, a middling and a strong one, the same cards at both player counts where the
hand size allows) and each auction model of musim.games.mu.policies.AUCTIONS, the best bid
(`musim bid --players N --hand H --auction M --seed S`: highest expected score for the holder
committed to it, the others bidding by M), how often the holder then ends chief, and the best bid it
wins at least half the time. Heuristic card play at every seat, the rulebook's targets.

Writes OUT/bid_examples.csv and OUT/bid_examples.md, each whole or absent; docs/players.md quotes
the markdown table.

Usage: python scripts/bid_examples.py [--samples 1068] [--seed 1] [--out results/auction]
"""

import argparse
import os

import pandas as pd

from musim.games.mu.analysis.bid import best_row, bid_strength
from musim.games.mu.params import MuParams
from musim.games.mu.policies import AUCTIONS

HANDS = {  # name -> (4-player hand of 15 cards, 5-player hand of 12: its first 12 cards)
    "weak": "R1 Y2 G3 B4 K5 R6 Y7 G8 B9 K0 R2 Y3 G4 B5 K6",
    "middling": "R9 R8 R7 R7 R6 G9 G7 B1 K0 K3 Y2 Y5 G2 B3 K4",
    "strong": "R9 R8 R7 R7 R6 G9 G8 B9 K9 Y9 R0 B2 K1 G0 Y4",
}


def answer(players, hand, model, samples, seed):
    """The row of the best bid, and that of the best bid won half the time (None if none)."""
    cards = " ".join(hand.split()[: 15 if players == 4 else 12])
    rows = bid_strength(MuParams(players, auction=model), cards, samples, seed, workers=2)
    return cards, best_row(rows), best_row(rows, won=0.5)


def cell(r):
    if r is None:
        return "-"
    return f"{r['bid']} ({r['chief_trump']}) {r['expected_score']:+.1f}, chief {r['p_chief']:.0%}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=1068)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="results/auction")
    a = ap.parse_args()
    if a.samples < 1:
        ap.error("--samples must be positive")
    rows, lines = [], []
    for players in (4, 5):
        lines += [f"### {players} players", "", "| hand | model | best bid (trump) score, chief | best bid won 50%+ |"]
        lines.append("| --- | --- | --- | --- |")
        for name, hand in HANDS.items():
            for model in AUCTIONS:
                cards, best, won = answer(players, hand, model, a.samples, a.seed)
                lines.append(f"| {name}: `{cards}` | {model} | {cell(best)} | {cell(won)} |")
                rows += [
                    {"players": players, "hand": name, "cards": cards, "model": model, "answer": kind}
                    | {k: r[k] for k in ("bid", "chief_trump", "expected_score", "expected_score_low")}
                    | {k: r[k] for k in ("expected_score_high", "p_chief", "p_made")}
                    for kind, r in (("best", best), ("best won 50%+", won))
                    if r is not None
                ]
        lines.append("")
    head = (
        f"Written by `python scripts/bid_examples.py --samples {a.samples} --seed {a.seed} --out {a.out}`: "
        "heuristic card play at every seat, the rulebook's targets, the others bidding by the model; "
        "score: the holder's expected deal score committed to the bid.\n\n"
    )
    os.makedirs(a.out, exist_ok=True)
    for name, text in (
        ("bid_examples.csv", pd.DataFrame(rows).to_csv(index=False)),
        ("bid_examples.md", head + "\n".join(lines)),
    ):
        path = os.path.join(a.out, name)
        with open(path + ".partial", "w") as f:
            f.write(text)
        os.replace(path + ".partial", path)


if __name__ == "__main__":
    main()
