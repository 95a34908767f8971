"""How well the heuristic bids: chief success rate, mean bid and chief score per player count.

Used to compare the heuristic's bidding before and after the hand-evaluation
model (issue 4): run it on both versions with the same seed.

Usage: python benchmarks/bench_bidding.py [--deals 200000] [--seed 1]
"""

import argparse

import numpy as np

from musim.games.mu import simulate as sim
from musim.games.mu.params import MuParams
from musim.games.mu.run import simulate_deal_chunk


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print("players  played  chief made  mean bid  mean chief score  eklats")
    for n in (3, 4, 5, 6):
        ch = simulate_deal_chunk(MuParams(n, "heuristic"), a.seed, 0, a.deals)
        played = ch.res[:, sim.OUTCOME] == sim.PLAYED
        res = ch.res[played]
        chief_scores = ch.scores[played][np.arange(played.sum()), res[:, sim.CHIEF]]
        print(
            f"{n:7d}  {played.sum():6d}  {res[:, sim.SUCCESS].mean():10.1%}  {res[:, sim.BID].mean():8.2f}  "
            f"{chief_scores.mean():16.2f}  {1 - played.mean():6.1%}"
        )


if __name__ == "__main__":
    main()
