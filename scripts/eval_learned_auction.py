"""Regenerate results/learned_auction/: how good a tested auction model is, on duplicate deals
(docs/plans/learned-auction.md §10; run from the repository root).

Each cell puts one seat on an auction model and compares its deal score with the same seat
bidding as a baseline on the same deals, the other seats fixed, every seat in turn, with a 95%
interval over deals (musim.games.mu.analysis.seat_auction.auction_advantage: the rows `musim run
--play P0,P1,... --auction A0,A1,...` writes); heuristic card play at every seat that is not
random.  With S the tested model (`--strong`, default `learned`):

  A   S among cautious seats, against the seat bidding cautious   goal: gain significantly > 0
  B   S among bold seats, against bold                            goal: gain significantly > 0
  C   S with heuristic play among random seats, against random    goal: gain significantly > 0
  D1  cautious among S seats, against S                           goal: gain not significantly > 0
  D2  bold among S seats, against S                               goal: gain not significantly > 0
  E   A under other target tables: the cautious and bold proposals (results/balance_auction/),
      a flat one and a steep one                                   goal: gain significantly > 0

Until the learned model lands, `--strong bold` runs every cell as a dry run (B and D2 are then
bold against itself: exactly 0).  Writes OUT/eval.csv (a row a cell and player count, with its
seconds) and OUT/README.md (the tables).

Usage: python scripts/eval_learned_auction.py --deals 20000 --seed 2027 --out results/learned_auction
       [--strong learned] [--players 3 4 5 6] [--cells A B C D1 D2 E] [--workers N]
"""

import argparse
import os
import time
from pathlib import Path

import pandas as pd

from musim.games.mu import rules, target_tables
from musim.games.mu.analysis.seat_auction import RANDOM, auction_advantage
from musim.games.mu.params import AUCTION_NAMES, BY_PLAY

# `musim balance --auction cautious,bold`'s proposals
PROPOSALS = str(Path(__file__).resolve().parent.parent / "results" / "balance_auction" / "{}" / "proposed_targets.csv")
ABOVE, NOT_ABOVE = "significantly > 0", "not significantly > 0"


def cells(strong):
    """{cell: (strong, weak, others or None, strong seat's card play or None, goal)} of the tested model."""
    return {
        "A": (strong, "cautious", None, None, ABOVE),
        "B": (strong, "bold", None, None, ABOVE),
        "C": (strong, RANDOM, None, "heuristic", ABOVE),
        "D1": ("cautious", strong, None, None, NOT_ABOVE),
        "D2": ("bold", strong, None, None, NOT_ABOVE),
        "E": (strong, "cautious", None, None, ABOVE),
    }


def tables(players):
    """{name: target table text} of cell E at `players`: the two proposals, a flat and a steep table."""
    book = target_tables.rulebook_rows(players)
    cap = target_tables.points_in_play(players)
    out = {}
    for model in ("cautious", "bold"):
        rows = target_tables.read_csv(PROPOSALS.format(model))
        out[f"{model} proposal"] = target_tables.to_text({players: rows[players]})
    out["flat"] = target_tables.to_text({players: [book[0]] * len(book)})  # every bid needs bid 1's points
    steep = [min(cap, book[0] + 2 * (t - book[0])) for t in book]  # twice the rulebook's step
    out["steep"] = target_tables.to_text({players: steep})
    return out


def measure(cell, spec, players, table, args):
    """One row of eval.csv: a cell at `players` under `table` (a name, its text)."""
    strong, weak, others, strong_play, goal = spec
    name, text = table
    start = time.perf_counter()
    mean, half = auction_advantage(
        players,
        args.seed,
        args.deals,
        strong,
        weak,
        others,
        strong_play=strong_play,
        workers=args.workers,
        targets=text,
    )
    low, high = mean - half, mean + half
    met = low > 0 if goal == ABOVE else low <= 0
    row = dict(cell=cell, players=players, strong=strong, weak=weak, others=others or weak, table=name)
    row |= dict(strong_play=strong_play or "heuristic", deals=args.deals, gain=round(mean, 3))
    row |= dict(
        low=round(low, 3), high=round(high, 3), goal=goal, met=met, seconds=round(time.perf_counter() - start, 1)
    )
    print(f"{cell} {players}p {name}: {mean:+.3f} [{low:+.3f}, {high:+.3f}] ({row['seconds']} s)", flush=True)
    return row


def evaluate(args):
    """Every chosen cell at every chosen player count, in order."""
    rows = []
    for cell, spec in cells(args.strong).items():
        if cell not in args.cells:
            continue
        for n in args.players:
            named = tables(n).items() if cell == "E" else [("rulebook", target_tables.RULEBOOK)]
            rows += [measure(cell, spec, n, table, args) for table in named]
    return rows


TEXT = """# How good is the `{strong}` auction: duplicate deals, every seat in turn

`python scripts/eval_learned_auction.py --deals {deals} --seed {seed} --strong {strong}` ({minutes:.1f} min on
{workers} workers). Each figure is a seat's mean gain in points a deal over the same seat bidding as
its baseline, on the same deals, every seat taking the tested model in turn, with its 95% interval
over deals (`musim.games.mu.analysis.seat_auction.auction_advantage`: the rows `musim run --auction
S,B,B,...` writes against `--auction B`). Heuristic card play at every seat that is not random;
`random` seats play and bid at random. `eval.csv` holds every figure with its seconds.
{model}

| cell | strong seat | baseline (the same seat) | other seats | goal |
| --- | --- | --- | --- | --- |
{legend}

{tables}
"""


def model_line(args):
    """Which learned model was tested, and that the deals are not its training's."""
    if "learned" not in (args.strong,):
        return ""
    from musim.games.mu.learned.model_file import CURRENT, MODELS, SHIPPED, read, resolve

    meta = read(MODELS / SHIPPED[CURRENT])[1]
    return (
        f"\nModel: `{resolve('')[0]}` (musim/games/mu/models/), trained by `{meta['command']}`: its deals come "
        f"from streams of their own (learned/train.py `root`), and seed {args.seed} was not used in training.\n"
    )


def legend(strong):
    lines = []
    for cell, (s, weak, others, play, goal) in cells(strong).items():
        seat = f"`{s}`" + (f" with `{play}` play" if play else "")
        where = " (under the tables below)" if cell == "E" else ""
        lines.append(f"| {cell} | {seat}{where} | `{weak}` | `{others or weak}` | gain {goal} |")
    return "\n".join(lines)


def cell_table(rows):
    """A Markdown table of one cell's rows."""
    lines = [
        "| players | table | gain | 95% interval | goal met | seconds |",
        "| ---: | --- | ---: | --- | --- | ---: |",
    ]
    for r in rows:
        interval = f"[{r['low']:+.3f}, {r['high']:+.3f}]"
        met = "yes" if r["met"] else "no"
        lines.append(f"| {r['players']} | {r['table']} | {r['gain']:+.3f} | {interval} | {met} | {r['seconds']} |")
    return "\n".join(lines)


def write(out, rows, args):
    os.makedirs(out, exist_ok=True)
    pd.DataFrame(rows).to_csv(os.path.join(out, "eval.csv"), index=False)
    parts = [
        f"## Cell {c}\n\n{cell_table([r for r in rows if r['cell'] == c])}"
        for c in dict.fromkeys(r["cell"] for r in rows)
    ]
    text = TEXT.format(
        strong=args.strong,
        deals=args.deals,
        seed=args.seed,
        workers=args.workers,
        minutes=sum(r["seconds"] for r in rows) / 60,
        legend=legend(args.strong),
        model=model_line(args),
        tables="\n\n".join(parts),
    )
    with open(os.path.join(out, "README.md"), "w") as fh:
        fh.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deals a cell and player count")
    parser.add_argument("--seed", type=int, default=2027, help="a seed the tested model was not trained on")
    parser.add_argument("--out", default="results/learned_auction")
    parser.add_argument("--strong", default="learned", help="the tested auction model")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    parser.add_argument("--cells", nargs="+", default=list(cells("S")), choices=list(cells("S")))
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    models = [m for m in AUCTION_NAMES if m != BY_PLAY]
    if args.strong not in models:
        parser.error(f"--strong {args.strong!r}: not an auction model here ({', '.join(models)})")
    bad = [n for n in args.players if not rules.MIN_PLAYERS <= n <= rules.MAX_PLAYERS]
    if bad or args.deals < 2:
        parser.error(f"--players {rules.MIN_PLAYERS}..{rules.MAX_PLAYERS} and --deals 2 or more")
    write(args.out, evaluate(args), args)


if __name__ == "__main__":
    main()
