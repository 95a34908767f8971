"""Fit the solver's move ordering (musim/solver/ordering.py) to the moves that produced cuts.

Input: records of the nodes a search settled by a move (benchmarks/collect_cuts.py: the
position at the node and the card that produced the cut), from seeds other than the
evaluation sets' seed 1.  Each record's moves are made again with their cases and features
(moves.move_table), and a conditional logit is fitted: the chance that move j of a node is
its cutting move is proportional to exp(W[case_j] . x_j), W one row of weights per case.
The fit starts from today's ordering (HAND_ORDER, as logits at a fitted temperature) and is
pulled back towards it (--ridge), so where the cuts say nothing the hand ordering stands.  A
node counts by log2 of the nodes it took (a costly node's first move matters more).
Prints the weights as integers (the ordering's scores; 1000 a logit) for ordering.py, and
the share of held-out nodes whose cutting move comes first, under today's and the fitted
weights.

Usage: python benchmarks/fit_ordering.py --cuts /tmp/cuts.npz [--ridge 1.0] [--out weights.npy]
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
from musim.solver.ordering import FEATURE_NAMES, HAND_ORDER, KIND_NAMES, N_CASES, N_FEATURES, N_KINDS

SCALE = 1000  # the integer weights' unit: one logit


def node_starts(node_of):
    """Indices where each node's moves start (moves sorted by node)."""
    return np.flatnonzero(np.r_[True, node_of[1:] != node_of[:-1]])


def scores(w, case, x):
    return np.einsum("mf,mf->m", w[case], x)


def log_likelihood(w, case, x, starts, label, weight):
    """(weighted log-likelihood of the cutting moves, its gradient in w, each move's probability)."""
    s = scores(w, case, x)
    mx = np.maximum.reduceat(s, starts)
    sizes = np.diff(np.r_[starts, len(s)])
    e = np.exp(s - np.repeat(mx, sizes))
    z = np.add.reduceat(e, starts)
    p = e / np.repeat(z, sizes)
    ll = float((weight * (s[label] - mx - np.log(z))).sum())
    y = np.zeros(len(s))
    y[label] = 1.0
    coef = (y - p) * np.repeat(weight, sizes)
    grad = np.zeros_like(w)
    np.add.at(grad, case, coef[:, None] * x)
    return ll, grad, p


def first_right(w, case, x, starts, label):
    """The share of nodes whose cutting move scores highest (ties to the earlier move)."""
    s = scores(w, case, x)
    sizes = np.diff(np.r_[starts, len(s)])
    node = np.repeat(np.arange(len(starts)), sizes)
    order = np.lexsort((np.arange(len(s)), -s, node))
    firsts = order[starts]
    return float(np.mean(firsts == label))


def fit(case, x, starts, label, weight, ridge):
    """The fitted weights (float, per scaled feature), the scale of each feature and the hand
    ordering's temperature."""
    scale = np.maximum(np.abs(x).max(axis=0), 1.0)
    xs = x / scale
    hand = HAND_ORDER * scale  # per scaled feature
    # the temperature that makes today's ordering the best logit model of its own kind
    temps = [2.0**t for t in range(-2, 12)]
    temp = max(temps, key=lambda t: log_likelihood(hand / t, case, xs, starts, label, weight)[0])
    prior = hand / temp
    total = weight.sum()

    def objective(flat):
        w = flat.reshape(N_CASES, N_FEATURES)
        ll, grad, _ = log_likelihood(w, case, xs, starts, label, weight)
        d = w - prior
        return -ll / total + ridge * (d * d).sum(), (-grad / total + 2 * ridge * d).ravel()

    res = minimize(objective, prior.ravel(), jac=True, method="L-BFGS-B", options={"maxiter": 500})
    return res.x.reshape(N_CASES, N_FEATURES), scale, temp


def integer_weights(w, scale):
    """The weights for ordering.py: integer scores, SCALE a logit, per raw feature."""
    return np.round(SCALE * w / scale).astype(np.int64)


def print_weights(w):
    print("rows: case (kind, side); columns:", ", ".join(FEATURE_NAMES))
    for c in range(N_CASES):
        side = "max" if c >= N_KINDS else "min"
        print(f"  {KIND_NAMES[c % N_KINDS]:>9} {side}: [{', '.join(str(int(v)) for v in w[c])}],")


def node_moves(data, max_records):
    """The cut nodes of a collect_cuts.py .npz (at most max_records of them, the costliest), each
    one's moves made again: (case, features, node of each move, label index within its node,
    node weight, search of each node), and the searches (set, seed, index, need) by number.
    A node's moves are those gen_moves makes with no table move; its label is the move whose
    group holds the cutting card."""
    from musim.solver.trace import R_CARD, R_CUT, R_K, R_LEADER, R_NAMED, R_NODES, R_SEAT, R_TRICK, R_TRUMP, R_WON

    from musim.solver.search import set_owners
    from musim.solver.tt import make_table

    rec = data["rec"]
    keep = np.flatnonzero(rec[:, R_CUT] == 1)
    if len(keep) > max_records:
        keep = np.sort(keep[np.argsort(-rec[keep, R_NODES], kind="stable")[:max_records]])
    solver = MuSolver(make_table(16))
    st = solver.st
    search_id = {}
    cases, feats = np.zeros(64, np.int64), np.zeros((64, N_FEATURES), np.int64)
    out_case, out_x, out_node, labels, weights, searches = [], [], [], [], [], []
    loaded = None
    for j in keep:
        r = rec[j]
        where = (int(data["set"][j]), int(data["seed"][j]), int(data["index"][j]))
        if where != loaded:
            setup, *_ = solver.load(position(str(data["sets"][where[0]]), where[1], where[2]))
            loaded = where
        g, k = setup.game, int(r[R_K])
        st.hands[:] = data["hands"][j]
        st.line[:k] = r[R_TRICK : R_TRICK + k]
        st.won[0], st.trump[0] = r[R_WON], r[R_TRUMP]
        set_owners(g, st)
        leader = int(r[R_LEADER])
        for m in range(k):
            st.owner[st.line[m]] = (leader + m) % g.n
        count = move_table(g, st, int(r[R_SEAT]), leader, k, k, int(r[R_TRUMP]), cases, feats)
        card, named = np.uint64(1) << np.uint64(r[R_CARD]), r[R_NAMED]
        label = [i for i in range(count) if st.groups[k, i] & card and st.names[k, i] == named]
        if len(label) != 1 or count < 2:
            continue
        node = len(labels)
        out_case.append(cases[:count].copy())
        out_x.append(feats[:count].copy())
        out_node.append(np.full(count, node))
        labels.append(label[0])
        weights.append(np.log2(1 + r[R_NODES]))
        searches.append(search_id.setdefault((*where, int(data["root_need"][j])), len(search_id)))
    return (
        np.concatenate(out_case),
        np.concatenate(out_x),
        np.concatenate(out_node),
        np.array(labels),
        np.array(weights),
        np.array(searches),
    ), list(search_id)


def split(data, holdout):
    """(train, test) of the node data by search: every `holdout`-th search is held out."""
    case, x, node_of, label_of, weight, search_of = data
    test_search = search_of % holdout == 0
    out = []
    for keep in (~test_search, test_search):
        nodes = np.flatnonzero(keep)
        moves = np.isin(node_of, nodes)
        renum = np.full(len(keep), -1)
        renum[nodes] = np.arange(len(nodes))
        nd = renum[node_of[moves]]
        starts = node_starts(nd)
        out.append((case[moves], x[moves].astype(float), starts, starts + label_of[nodes], weight[nodes]))
    return out


def search_nodes(searches, weights, tt_mb=256, cap=10**8):
    """Nodes of each search (game, tricks, seed, index, need) on a fresh table generation with
    the Mü ordering `weights` (cap: past it a search counts as cap nodes)."""
    from common import positions, prefaulted

    from musim.games.mu.solve import MuSolver
    from musim.solver.search import NO_DEADLINE, available, can_reach, set_owners
    from musim.solver.stats import S_NODES
    from musim.solver.tt import make_table

    solver = MuSolver(prefaulted(make_table(tt_mb)))
    st = solver.st
    out = []
    for game, tricks, seed, index, need in searches:
        obj = positions(str(game), str(tricks), index + 1, seed)[index]
        setup, _, leader, trick = solver.load(obj)
        g, k = setup.game, len(trick)
        g.order[:] = weights
        avail = available(g, st.hands, st.line, k)
        set_owners(g, st)
        st.stats[S_NODES] = 0
        st.limit[0] = cap
        can_reach(g, solver.tt, st, leader, k, need, avail, k)
        st.limit[0] = NO_DEADLINE
        out.append(int(st.stats[S_NODES]))
    return np.array(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cuts", required=True, help="a collect_cuts.py .npz")
    ap.add_argument("--ridge", type=float, default=1.0, help="pull towards today's ordering")
    ap.add_argument("--max-records", type=int, default=200_000, help="the costliest cut nodes to fit on")
    ap.add_argument("--holdout", type=int, default=4, help="every N-th search held out to test on")
    ap.add_argument("--evaluate", type=int, default=0, help="held-out searches to run again under both orderings")
    ap.add_argument("--out", help="write the integer weights to this .npy")
    a = ap.parse_args()
    data = dict(np.load(a.cuts))
    moves, keys = node_moves(data, a.max_records)
    train, test = split(moves, a.holdout)
    w, scale, temp = fit(*train, ridge=a.ridge)
    print(f"{len(train[2]):,} nodes to fit on, {len(test[2]):,} held out; today's ordering at temperature {temp:g}")
    hand = HAND_ORDER * scale / temp
    for name, (case, x, starts, label, _) in (("train", train), ("held out", test)):
        xs = x / scale
        print(
            f"  {name}: cutting move first {first_right(hand, case, xs, starts, label):.1%} today, "
            f"{first_right(w, case, xs, starts, label):.1%} fitted"
        )
    weights = integer_weights(w, scale)
    print_weights(weights)
    if a.out:
        np.save(a.out, weights)
    if a.evaluate:
        held = keys[:: a.holdout][: a.evaluate]
        specs = [(*str(data["sets"][s]).split(":"), seed, index, need) for s, seed, index, need in held]
        old, new = search_nodes(specs, HAND_ORDER), search_nodes(specs, weights)
        ratio = np.exp(np.mean(np.log(np.maximum(new, 1) / np.maximum(old, 1))))
        print(f"held-out searches: {len(specs)}, nodes today {old.sum():,}, fitted {new.sum():,}; geomean {ratio:.3f}")
