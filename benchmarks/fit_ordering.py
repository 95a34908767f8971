"""Fit the solver's move ordering (musim/solver/ordering.py) to the moves that produced cuts.

Input: records of the nodes a search settled by a move (benchmarks/collect_cuts.py: the
position at the node, the cutting move, the moves tried before it and the nodes they cost),
from seeds other than the evaluation panel's seed 1.  Each record's moves are made again with
their cases and features (moves.move_table), and each move scores W[case] . features, W one
row of weights per case.  The fit is a pairwise ranking: the cutting move should score above
each move tried before it (those failed), a pair weighing the nodes wasted on them to the
power --power; where today's first move produced the cut, it should stay above the others
(weighing the node's nodes likewise, times --keep).  It starts from today's ordering
(DEFAULT_ORDER at the temperature that fits the pairs best) and is pulled back towards it
(--ridge), so where the cuts say nothing the hand ordering stands.

Prints, for the fitting and the held-out searches (every --holdout-th search), the share of the
nodes' waste where the cutting move would now come first, and the weights as integers in
DEFAULT_ORDER's units (for ordering.py); --evaluate N runs N held-out searches again under both
orderings and prints their nodes.

Usage: python benchmarks/fit_ordering.py --cuts /tmp/cuts.npz [--ridge 1e-3] [--out weights.npy]
"""

import argparse
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ordering import position

from musim.games.mu.solve import MuSolver
from musim.solver.moves import move_table
from musim.solver.ordering import DEFAULT_ORDER, FEATURE_NAMES, KIND_NAMES, N_CASES, N_FEATURES, N_KINDS
from musim.solver.search import set_owners
from musim.solver.trace import (
    R_CARD,
    R_CUT,
    R_FIRST,
    R_INDEX,
    R_K,
    R_LEADER,
    R_NAMED,
    R_NODES,
    R_SEAT,
    R_TRICK,
    R_TRUMP,
    R_WASTE,
    R_WON,
)
from musim.solver.tt import make_table

Nodes = tuple  # (case, x, node_of, failed; label, waste, nodes, search, record, stands): moves', then nodes' arrays


def load_node(solver, st, setup, data, j):
    """Load record j into st; returns (game, seat, leader, k, trump)."""
    r = data["rec"][j]
    g, k, leader = setup.game, int(r[R_K]), int(r[R_LEADER])
    st.hands[:] = data["hands"][j]
    st.line[:k] = r[R_TRICK : R_TRICK + k]
    st.won[0], st.trump[0] = r[R_WON], r[R_TRUMP]
    set_owners(g, st)
    for m in range(k):
        st.owner[st.line[m]] = (leader + m) % g.n
    return g, int(r[R_SEAT]), leader, k, int(r[R_TRUMP])


def find(st, ply, count, card, named=-1):
    """The index of the move whose group holds `card` (and names `named`), or -1."""
    bit = np.uint64(1) << np.uint64(card)
    for i in range(count):
        if st.groups[ply, i] & bit and (named < 0 or st.names[ply, i] == named):
            return i
    return -1


def node_moves(data, max_records):
    """The cut nodes of a collect_cuts.py .npz (at most max_records, the costliest), each one's
    moves made again (gen_moves with no table move): Nodes, and the searches (set, seed, index,
    need) by number.  The moves tried before the cut (`failed`) are today's order with the move
    the search tried first (the table's, R_FIRST) moved to the front, up to the cut's index."""
    rec = data["rec"]
    keep = np.flatnonzero(rec[:, R_CUT] == 1)
    stands = data["weight"].astype(float)  # the records each one stands for (collect_cuts.py)
    if len(keep) > max_records:  # a uniform sample, each then standing for more
        stands = stands * len(keep) / max_records
        keep = np.sort(np.random.default_rng(0).choice(keep, max_records, replace=False))
    solver = MuSolver(make_table(16))
    st = solver.st
    search_id = {}
    cases, feats = np.zeros(64, np.int64), np.zeros((64, N_FEATURES), np.int64)
    names = ("case", "x", "node_of", "label", "failed", "waste", "nodes", "search", "record", "stands")
    cols = {name: [] for name in names}
    loaded = None
    for j in keep:
        r = rec[j]
        where = (int(data["set"][j]), int(data["seed"][j]), int(data["index"][j]))
        if where != loaded:
            setup, *_ = solver.load(position(str(data["sets"][where[0]]), where[1], where[2]))
            loaded = where
        g, seat, leader, k, trump = load_node(solver, st, setup, data, j)
        count = move_table(g, st, seat, leader, k, k, trump, cases, feats)
        label, first = find(st, k, count, r[R_CARD], r[R_NAMED]), find(st, k, count, r[R_FIRST])
        if label < 0 or first < 0 or count < 2:
            continue
        tried = [first] + [i for i in range(count) if i != first]
        failed = np.zeros(count, bool)
        failed[tried[: r[R_INDEX]]] = True
        cols["case"].append(cases[:count].copy())
        cols["x"].append(feats[:count].copy())
        cols["node_of"].append(np.full(count, len(cols["label"])))
        cols["failed"].append(failed)
        cols["label"].append(label)
        cols["waste"].append(r[R_WASTE])
        cols["nodes"].append(r[R_NODES])
        cols["search"].append(search_id.setdefault((*where, int(data["root_need"][j])), len(search_id)))
        cols["record"].append(j)
        cols["stands"].append(stands[j])
    case, x, node_of, failed = (np.concatenate(cols[c]) for c in ("case", "x", "node_of", "failed"))
    per_node = (np.array(cols[c]) for c in ("label", "waste", "nodes", "search", "record", "stands"))
    return (case, x, node_of, failed, *per_node), list(search_id)


def subset(nodes, keep):
    """The Nodes of the nodes where keep (a bool per node) holds, renumbered."""
    case, x, node_of, failed = nodes[:4]
    moves = keep[node_of]
    renum = np.cumsum(keep) - 1
    return (case[moves], x[moves], renum[node_of[moves]], failed[moves], *(a[keep] for a in nodes[4:]))


def pairs(nodes, power, keep_w):
    """(better, worse, weight): move pairs (global move indices) the ordering should rank so."""
    _, _, node_of, failed, label, waste, n_nodes, _, _, stands = nodes
    starts = np.flatnonzero(np.r_[True, node_of[1:] != node_of[:-1]])
    cut = starts + label
    moves = np.arange(len(node_of))
    lost = failed  # moves tried before the cut: below the cutting move
    n_failed = np.bincount(node_of, weights=failed, minlength=len(label))
    w_lost = (stands * np.maximum(waste, 1.0) ** power / np.maximum(n_failed, 1))[node_of]
    first_right = n_failed == 0  # today's first move cut: keep it above the rest
    sizes = np.diff(np.r_[starts, len(node_of)])
    kept = first_right[node_of] & (moves != cut[node_of])
    w_kept = (stands * keep_w * np.maximum(n_nodes, 1.0) ** power / np.maximum(sizes - 1, 1))[node_of]
    worse = np.r_[moves[lost], moves[kept]]
    better = cut[node_of][np.r_[np.flatnonzero(lost), np.flatnonzero(kept)]]
    return better, worse, np.r_[w_lost[lost], w_kept[kept]]


def scores(w, case, x):
    return np.einsum("mf,mf->m", w[case], x)


def pair_loss(w, case, x, better, worse, weight):
    """(weighted logistic loss of the pairs, its gradient in w)."""
    s = scores(w, case, x)
    d = s[worse] - s[better]
    loss = float((weight * np.logaddexp(0, d)).sum())
    sig = weight * np.exp(-np.logaddexp(0, -d))
    grad = np.zeros_like(w)
    np.add.at(grad, case[worse], sig[:, None] * x[worse])
    np.add.at(grad, case[better], -sig[:, None] * x[better])
    return loss, grad


def fit(nodes, power, keep_w, ridge):
    """(fitted weights per raw feature, in DEFAULT_ORDER's units, float; the hand temperature)."""
    case, x = nodes[0], nodes[1].astype(float)
    better, worse, weight = pairs(nodes, power, keep_w)
    scale = np.maximum(np.abs(x).max(axis=0), 1.0)
    xs = x / scale
    hand = DEFAULT_ORDER * scale
    temp = min((2.0**t for t in range(-2, 14)), key=lambda t: pair_loss(hand / t, case, xs, better, worse, weight)[0])
    prior = hand / temp
    total = weight.sum()

    def objective(flat):
        w = flat.reshape(N_CASES, N_FEATURES)
        loss, grad = pair_loss(w, case, xs, better, worse, weight)
        d = w - prior
        return loss / total + ridge * (d * d).sum(), (grad / total + 2 * ridge * d).ravel()

    res = minimize(objective, prior.ravel(), jac=True, method="L-BFGS-B", options={"maxiter": 1000})
    return res.x.reshape(N_CASES, N_FEATURES) * temp / scale, temp


def waste_caught(w, nodes):
    """The share of the nodes' waste (nodes spent before the cut) at nodes where the cutting move
    scores highest under weights w (ties to the earlier move), and of all nodes' nodes at nodes
    where a move other than the cutting one now comes first."""
    case, x, node_of, _, label, waste, n_nodes, *_ = nodes
    s = scores(w.astype(float), case, x.astype(float))
    starts = np.flatnonzero(np.r_[True, node_of[1:] != node_of[:-1]])
    order = np.lexsort((np.arange(len(s)), -s, node_of))
    top = order[starts]
    right = top == starts + label
    return float(waste[right].sum() / max(waste.sum(), 1)), float(n_nodes[~right].sum() / max(n_nodes.sum(), 1))


def print_weights(w):
    print("rows: case (kind, side); columns:", ", ".join(FEATURE_NAMES))
    for c in range(N_CASES):
        side = "max" if c >= N_KINDS else "min"
        print(f"  {KIND_NAMES[c % N_KINDS]:>9} {side}: [{', '.join(str(int(v)) for v in w[c])}],")


def search_nodes(searches, order, tt_mb=256, cap=10**8):
    """Nodes of each search (game, tricks, seed, index, need) on a fresh table generation with
    the Mü ordering's weight table `order` (cap: past it a search counts as cap nodes)."""
    from ordering import search

    solver = MuSolver(make_table(tt_mb))
    out = []
    for game, tricks, seed, index, need in searches:
        obj = position(f"{game}:{tricks}", seed, index)
        solver.load(obj)
        out.append(search(solver, obj, need, cap, order=order)[2])
    return np.array(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cuts", required=True, help="a collect_cuts.py .npz")
    ap.add_argument("--ridge", type=float, default=1e-3, help="pull towards today's ordering")
    ap.add_argument("--power", type=float, default=0.5, help="a pair's weight: the nodes at stake to this power")
    ap.add_argument("--keep", type=float, default=1.0, help="weight of keeping today's first move where it cut")
    ap.add_argument("--max-records", type=int, default=200_000, help="the costliest cut nodes to fit on")
    ap.add_argument("--holdout", type=int, default=4, help="every N-th search held out to test on")
    ap.add_argument("--evaluate", type=int, default=0, help="held-out searches to run again under both orderings")
    ap.add_argument("--out", help="write the integer weights to this .npy")
    a = ap.parse_args()
    try:
        data = dict(np.load(a.cuts))
        nodes, keys = node_moves(data, a.max_records)
    except (OSError, ValueError, KeyError) as exc:
        ap.error(f"--cuts: {a.cuts} is not a collect_cuts.py file ({exc})")
    held = nodes[7] % a.holdout == 0  # by search
    train, test = subset(nodes, ~held), subset(nodes, held)
    w, temp = fit(train, a.power, a.keep, a.ridge)
    weights = np.round(w).astype(np.int64)
    print(f"{len(train[4]):,} nodes to fit on, {len(test[4]):,} held out; hand ordering at temperature {temp:g}")
    for name, part in (("fitted on", train), ("held out", test)):
        (h_caught, h_wrong), (f_caught, f_wrong) = waste_caught(DEFAULT_ORDER, part), waste_caught(weights, part)
        print(
            f"  {name}: waste at nodes whose cut now comes first {h_caught:.1%} today, {f_caught:.1%} fitted; "
            f"nodes at nodes whose cut does not come first {h_wrong:.1%} today, {f_wrong:.1%} fitted"
        )
    print_weights(weights)
    if a.out:
        np.save(a.out, weights)
    if a.evaluate:
        specs = [(*str(data["sets"][s]).split(":"), seed, index, need) for s, seed, index, need in keys]
        specs = specs[:: a.holdout][: a.evaluate]
        old, new = search_nodes(specs, DEFAULT_ORDER), search_nodes(specs, weights)
        ratio = np.exp(np.mean(np.log(np.maximum(new, 1) / np.maximum(old, 1))))
        print(f"held-out searches: {len(specs)}, nodes today {old.sum():,}, fitted {new.sum():,}; geomean {ratio:.3f}")
        for spec, o, n in zip(specs, old, new, strict=True):
            print(f"  {spec}: {o:,} -> {n:,}")


if __name__ == "__main__":
    main()
