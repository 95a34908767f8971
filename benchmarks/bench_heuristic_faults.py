"""The two faults of the heuristic players that issue 50 names, measured on all-heuristic games.

Calcory (perfect memory, the default): per game, the turns that begin with a remembered sure 13
(face-down cards the seat remembers whose numbers make exactly 13) and, of those, the turns that
made 13; of the games ended by a single surviving mark, the share whose ender finishes behind
(fewer cards than another seat) and tied.  Danger: rows secured per game by colour, all seats
together (a colour-blind player secures each colour alike).  Each figure with its 95% interval.

Run it on the code before and after a change of the policies to compare them:
    python benchmarks/bench_heuristic_faults.py [--games 20000] [--walked 2000] [--seed 2026]
"""

import argparse

import numpy as np

from musim.analysis.stats import mean_interval, wilson
from musim.games.calcory import rules as calcory_rules
from musim.games.calcory import simulate as calcory
from musim.games.danger import simulate as danger
from musim.games.danger.rules import COLOUR_NAMES, SECURED_ROWS

BIT = [np.uint64(1) << np.uint64(p) for p in range(64)]


def _show(name, m, lo, hi, unit=""):
    print(f"  {name:44s} {m:8.3f}{unit} [{lo:.3f}, {hi:.3f}]")


def _makes_13(t, positions):
    """Do the numbers at `positions` (face-down, remembered) hold a subset summing to exactly 13?"""
    sums = 1  # bit k: a subset sums to k
    for p in positions:
        sums |= (sums << int(calcory_rules.NUMBER[t.at[p]])) & ((1 << 14) - 1)
    return bool(sums >> calcory_rules.TARGET & 1)


def _positions(mask):
    return [p for p in range(calcory_rules.CELLS) if int(mask) >> p & 1]


def walk_calcory_game(players, seed, index, ws):
    """(turns beginning with a remembered sure 13, of those the turns that made 13) of one game,
    re-walked from its log on the rules kernels with the memory of simulate.play_game at 1.0."""
    row = calcory.simulate_deals(players, seed, "heuristic", index, 1, ws, 1.0)
    t = calcory_rules.new_table()
    calcory_rules.reset(t, players, (int(row["dealer"][0]) + 1) % players, row["grid"][0])
    known = [np.uint64(0)] * players
    sure, made, begun = 0, 0, None  # begun: (seat, thirteens at the turn's start) of a sure turn
    for _, kind, a, b in ws.log[: int(row["events"][0])]:
        s = int(t.g[calcory_rules.SEAT])
        if t.g[calcory_rules.PHASE] == calcory_rules.PLAY and t.m[calcory_rules.TURNED] == 0:
            if begun is not None:
                made += int(t.counts[begun[0], calcory_rules.THIRTEENS] > begun[1])
                begun = None
            if _makes_13(t, _positions(t.m[calcory_rules.DOWN] & known[s])):
                sure += 1
                begun = (s, int(t.counts[s, calcory_rules.THIRTEENS]))
        if kind == calcory.TURN_CARD:
            calcory_rules.turn(t, int(a))
            known = [k | BIT[a] for k in known]
        elif kind == calcory.STOP:
            calcory_rules.stop(t)
        else:
            calcory_rules.put_back(t, int(a), int(b))
            known[s] |= BIT[b]
        placed = t.m[calcory_rules.DOWN] | t.m[calcory_rules.MARKS] | t.m[calcory_rules.TURNED]
        known = [k & placed for k in known]
    if begun is not None:
        made += int(t.counts[begun[0], calcory_rules.THIRTEENS] > begun[1])
    return sure, made


def calcory_figures(players, seed, games, walked):
    ws = calcory.make_workspace()
    walks = np.array([walk_calcory_game(players, seed, k, ws) for k in range(walked)])
    print(f"calcory, {players} players, heuristic play, memory 1.0, seed {seed}")
    _show(f"turns a game with a remembered 13 ({walked:,} games)", *mean_interval(walks[:, 0]))
    _show("  of which made 13", *mean_interval(walks[:, 1]))
    out = calcory.simulate_deals(players, seed, "heuristic", 0, games, memory=1.0)
    single = out["end"] == calcory_rules.SINGLE
    ender = (out["dealer"] + out["turns"]) % players  # the seat of the last turn (the starter is dealer + 1)
    scores = out["scores"][single]
    mine = scores[np.arange(len(scores)), ender[single]]
    others = np.where(np.arange(players) == ender[single][:, None], -1, scores).max(axis=1)
    k = int(single.sum())
    for name, hits in (("behind", mine < others), ("tied for most", mine == others)):
        lo, hi = wilson(int(hits.sum()), k)
        _show(f"ender of a single-mark end {name} ({k:,} games)", 100 * hits.mean(), 100 * lo, 100 * hi, "%")


def danger_figures(players, seed, games):
    out = danger.simulate_deals(players, seed, "heuristic", 0, games)
    print(f"danger, {players} players, heuristic play, seed {seed}: rows secured a game, all seats ({games:,} games)")
    for c, name in enumerate(COLOUR_NAMES):
        _show(name, *mean_interval(out["parts"][:, :, SECURED_ROWS + c].sum(axis=1)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000, help="games per player count")
    ap.add_argument("--walked", type=int, default=2_000, help="Calcory games re-walked turn by turn for the memory")
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    for players in (2, 3, 4):
        calcory_figures(players, a.seed, a.games, a.walked)
    for players in (3, 4, 5):
        danger_figures(players, a.seed, a.games)


if __name__ == "__main__":
    main()
