"""How far a partly heuristic balance table lies from the fully double-dummy one.

Both directories must come from `musim balance` with the same seed and deal count, so
that they hold the very same deals, auctions and bids: each level's difference is then
a paired one, between two ways of playing the same cards.  Writes a Markdown table per
player count (deals, success rate and mean team points of each, and their difference).

Usage: python scripts/compare_balance.py REFERENCE_DIR OTHER_DIR [--out FILE.md]
"""

import argparse
import sys

import pandas as pd


def compare(ref, other):
    """Rows of both balance.csv tables, matched by player count and bid (levels bid in both)."""
    m = ref.merge(other, on=["players", "bid"], suffixes=("_ref", "_other"))
    if m.empty:
        raise SystemExit("compare_balance.py: the two tables share no player count")
    if (m.deals_ref != m.deals_other).any():
        raise SystemExit("compare_balance.py: the two tables hold different deals (seed or --deals differ)")
    return m[m.deals_ref > 0]


def markdown(m, ref_name, other_name):
    lines = []
    for n, part in m.groupby("players"):
        w = part.deals_ref / part.deals_ref.sum()
        dp = part.p_made_other - part.p_made_ref
        dt = part.team_mean_other - part.team_mean_ref
        lines += [
            f"## {n} players: `{other_name}` against `{ref_name}`",
            "",
            f"Over all {int(part.deals_ref.sum()):,} played deals: success rate {(w * part.p_made_ref).sum():.1%}"
            f" against {(w * part.p_made_other).sum():.1%} ({(w * dp).sum() * 100:+.1f} points), mean team "
            f"points {(w * part.team_mean_ref).sum():.2f} against {(w * part.team_mean_other).sum():.2f}"
            f" ({(w * dt).sum():+.2f}).",
            "",
            "| bid | deals | p_made reference | p_made compared | difference | team mean reference | "
            "team mean compared | difference |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for x, a, b in zip(part.itertuples(), dp, dt):
            lines.append(
                f"| {x.bid} | {x.deals_ref:,} | {x.p_made_ref:.1%} | {x.p_made_other:.1%} | {a * 100:+.1f} | "
                f"{x.team_mean_ref:.2f} | {x.team_mean_other:.2f} | {b:+.2f} |"
            )
        lines.append("")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reference")
    ap.add_argument("other")
    ap.add_argument("--out", help="Markdown file to write (default: stdout)")
    a = ap.parse_args()
    try:
        ref, other = (pd.read_csv(f"{d}/balance.csv") for d in (a.reference, a.other))
    except OSError as exc:
        raise SystemExit(f"compare_balance.py: {exc.strerror}: {exc.filename}") from None
    text = markdown(compare(ref, other), a.reference, a.other)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
