"""Regenerate results/balance_learned/: target tables as a fixed point of the fair step under the
learned auction, each re-verified on another seed, beside the rulebook's and the hand-written
bidders' proposals.

1. `musim balance --players 3,4,5,6 --deals 2e5 --auction learned --rounds 12 --alpha 0.5 --seed 2027`
   (OUT/learned: every round's table and figures, the verdict per player count, the final table);
2. `musim balance --targets OUT/learned/proposed_targets.csv --auction learned --seed 2028` on other
   deals (OUT/verify): is the final table balanced by the same criterion on deals it never saw?
3. OUT/README.md: per player count, each level's target under the rulebook, the cautious and bold
   bidders' one-shot proposals (results/balance_auction/), the learned fixed point, and the check's
   fair target with its 95% interval and basis.

Seeds 2027 and 2028 were not used in training the learned model (its deals come from streams of
their own: learned/train.py).  About 15 minutes on 2 cores.  Run from the repository root.

Usage: python scripts/balance_learned.py [--out results/balance_learned] [--deals 2e5] [--rounds 12]
"""

import argparse
import subprocess
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
SEED, CHECK_SEED = 2027, 2028
PROPOSALS = {m: ROOT / "results" / "balance_auction" / m / "proposed_targets.csv" for m in ("cautious", "bold")}


def musim(*args):
    """Run a musim command of this checkout; stop on its failure."""
    subprocess.run([sys.executable, "-m", "musim", *map(str, args), "--overwrite", "--no-progress"], check=True)


def targets(path):
    """{(players, bid): target} of a --targets CSV."""
    return {(r.players, r.bid): r.target for r in pd.read_csv(path).itertuples()}


def verdicts(text):
    """{players: the fixed point's verdict line} from fixed_point.md's headings."""
    out = {}
    for line in text.splitlines():
        if line.startswith("## ") and " players: " in line:
            n, verdict = line[3:].split(" players: ", 1)
            out[int(n)] = verdict
    return out


def side_by_side(out, deals, rounds):
    """README.md: the tables side by side, and the check on other deals."""
    from musim.games.mu.target_tables import rulebook_rows

    final = targets(out / "learned" / "proposed_targets.csv")
    shown = {m: targets(p) for m, p in PROPOSALS.items()}
    check = pd.read_csv(out / "verify" / "balance.csv")
    verdict = verdicts((out / "learned" / "fixed_point.md").read_text())
    lines = [
        "# Target tables as a fixed point under the learned auction",
        "",
        f"`python scripts/balance_learned.py --deals {deals:g} --rounds {rounds}`: the fixed point of the fair step "
        f"(docs/players.md) under `--auction learned` on seed {SEED} (`learned/fixed_point.md` has every round), "
        f"then its final table checked by `musim balance --targets learned/proposed_targets.csv --auction learned` "
        f"on seed {CHECK_SEED}, other deals (`verify/`). Heuristic card play; the learned model named in each "
        "folder's summary. Beside them the rulebook's table (docs/rules.md §2.8) and the one-shot proposals of the "
        "hand-written bidders (results/balance_auction/, seed 2026). A check's fair target comes with its 95% "
        "interval and basis: `extrapolated` levels (under 30 deals) are a line's continuation, not a measurement.",
        "",
    ]
    for n in sorted({p for p, _ in final}):
        c = check[check.players == n].set_index("bid")
        lines += [f"## {n} players: {verdict.get(n, 'no verdict')}", ""]
        lines += [
            "| bid | rulebook | cautious | bold | learned fixed point | check: deals | check: fair target [95%] "
            "| basis | fair |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |",
        ]
        for b, book in enumerate(rulebook_rows(n), 1):
            r = c.loc[b]
            fair = "-" if pd.isna(r.fair_target) else f"{r.fair_target:.0f} [{r.fair_low:.0f}, {r.fair_high:.0f}]"
            judged = "-" if pd.isna(r.fair) else ("yes" if r.fair else "no")
            cells = [book, shown["cautious"][n, b], shown["bold"][n, b], final[n, b], f"{r.deals:,}", fair]
            lines.append(f"| {b} | " + " | ".join(map(str, cells)) + f" | {r.basis} | {judged} |")
        lines.append("")
    (out / "README.md").write_text("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "balance_learned")
    ap.add_argument("--deals", type=float, default=2e5)
    ap.add_argument("--rounds", type=int, default=12)
    a = ap.parse_args()
    common = ["--players", "3,4,5,6", "--deals", f"{a.deals:g}", "--auction", "learned"]
    musim("balance", *common, "--rounds", a.rounds, "--alpha", 0.5, "--seed", SEED, "--out", a.out / "learned")
    final = a.out / "learned" / "proposed_targets.csv"
    musim(
        "balance", *common, "--targets", final, "--strength-deals", 0, "--seed", CHECK_SEED, "--out", a.out / "verify"
    )
    side_by_side(a.out, a.deals, a.rounds)


if __name__ == "__main__":
    main()
