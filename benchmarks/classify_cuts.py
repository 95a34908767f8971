"""Classify where today's ordering missed the cutting move, from a collect_cuts.py .npz.

Among the recorded nodes a move settled (trace records with a cut) whose cutting move was not
the move tried first, each is put in a class by the node and by the two moves (the one tried
first, and the cut):
- a lead (no card on the trick) or mid-trick; the mover a maximiser or a minimiser;
- mid-trick: whether the mover's side is winning the trick so far; each move as `beats` (it beats
  the trick's winning card so far) or `under`, and `trump` (a trump: a ruff or a trump follow),
  `points` (a card of points, not a trump) or `low` (no points, not a trump);
- a lead: each move as `trump` (a trump lead), `top` (no other seat holds a higher card of its
  class), `partner` (the highest other card of its class is a teammate's) or `low` (an opponent's
  is).
Per class (records weighted as collect_cuts.py sampled them): its share of those nodes and its
share of their wasted nodes (the nodes spent before
the cutting move: what the right first move would have saved there; a node's waste holds the
waste of the nodes below it, so shares of different depths overlap), costliest first; first by
the node alone (lead or mid-trick, mover, side winning), then by the node and the two moves.  The
first lines say what share of the cut nodes today's ordering got right.

Usage: python benchmarks/classify_cuts.py /tmp/cuts.npz [--top 30]
"""

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ordering import position, solver_with

from musim.solver.search import make_state
from musim.solver.trace import R_CARD, R_CUT, R_FIRST, R_INDEX, R_K, R_LEADER, R_SEAT, R_TRICK, R_TRUMP, R_WASTE
from musim.solver.trick import beats, trick_winner_pos
from musim.solver.tt import make_table


def lead_kind(g, hands, seat, c, trump):
    """trump, top, partner or low: a lead of card c by seat."""
    kl = g.klass[c]
    if kl == trump:
        return "trump"
    above = ~((1 << (c + 1)) - 1)
    best = -1
    for s in range(g.n):
        if s != seat:
            higher = int(hands[s]) & int(g.class_mask[kl]) & above
            if higher and higher.bit_length() - 1 > best:
                best, owner = higher.bit_length() - 1, s
    if best < 0:
        return "top"
    return "partner" if g.team[owner] == g.team[seat] else "low"


def mid_kind(g, c, win_card, trump):
    """(beats|under) (trump|points|low): a card c played to a trick whose winning card is win_card."""
    kind = "trump" if g.klass[c] == trump else ("points" if g.points[c] > 0 else "low")
    return ("beats " if beats(g, c, win_card, trump) else "under ") + kind


def classify(g, rec, hands):
    """The class of one record (a cut whose cutting move was not the first tried)."""
    k, seat, trump = int(rec[R_K]), int(rec[R_SEAT]), int(rec[R_TRUMP])
    role = "maximiser" if g.team[seat] else "minimiser"
    c, f = int(rec[R_CARD]), int(rec[R_FIRST])
    if k == 0:
        return f"lead, {role}: first {lead_kind(g, hands, seat, f, trump)}, cut {lead_kind(g, hands, seat, c, trump)}"
    line = np.array(rec[R_TRICK : R_TRICK + k], np.int64)
    pos = trick_winner_pos(g, line, 0, k, trump)
    ws = (int(rec[R_LEADER]) + pos) % g.n
    side = "own side winning" if g.team[ws] == g.team[seat] else "other side winning"
    win = int(line[pos])
    return f"mid, {role}, {side}: first {mid_kind(g, f, win, trump)}, cut {mid_kind(g, c, win, trump)}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("npz", help="a collect_cuts.py output")
    ap.add_argument("--top", type=int, default=30, help="classes to list (the costliest)")
    a = ap.parse_args()
    try:
        data = dict(np.load(a.npz))
        rec, hands, weight = data["rec"], data["hands"], data["weight"]
    except (OSError, ValueError, KeyError) as exc:
        ap.error(f"{a.npz}: not a collect_cuts.py output ({exc})")
    cut = rec[:, R_CUT] == 1
    missed = cut & (rec[:, R_INDEX] > 0)
    n_cut, n_missed = weight[cut].sum(), weight[missed].sum()
    print(f"{len(rec):,} records standing for {weight.sum():,.0f} recorded nodes (collect_cuts.py's weights):")
    print(f"{n_cut:,.0f} cut, {n_missed:,.0f} ({n_missed / max(n_cut, 1):.1%}) by a move other than the first tried")
    waste = (weight * rec[:, R_WASTE])[missed].sum()
    print(f"their waste {waste:,.0f} nodes")
    solver = solver_with(make_table(8), make_state())
    games = {}
    classes = {}
    for j in np.flatnonzero(missed):
        where = (int(data["set"][j]), int(data["seed"][j]), int(data["index"][j]))
        if where not in games:
            games[where] = solver.load(position(str(data["sets"][where[0]]), where[1], where[2]))[0].game
        label = classify(games[where], rec[j], hands[j])
        n, w = classes.get(label, (0, 0))
        classes[label] = (n + weight[j], w + weight[j] * rec[j, R_WASTE])
    kinds = {}
    for label, (n, w) in classes.items():
        kn, kw = kinds.get(label.split(":")[0], (0, 0))
        kinds[label.split(":")[0]] = (kn + n, kw + w)
    table("node", kinds, len(kinds))
    table("class", classes, a.top)


def table(what, classes, top):
    """Print the `top` costliest classes {label: (nodes, waste)} as a markdown table."""
    total_n = max(sum(n for n, _ in classes.values()), 1)
    total_w = max(sum(w for _, w in classes.values()), 1)
    print(f"\n| {what} | nodes | share of them | share of their waste |\n| --- | --- | --- | --- |")
    for label, (n, w) in sorted(classes.items(), key=lambda x: -x[1][1])[:top]:
        print(f"| {label} | {n:,.0f} | {n / total_n:.1%} | {w / total_w:.1%} |")


if __name__ == "__main__":
    main()
