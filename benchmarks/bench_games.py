"""Game throughput of Safarü, Reverse Safarü and Calcory, and how much the heuristic beats random.

Prints, per game and player count:
  * kernel throughput on one thread (games/s, best of 5 chunks of 32768 games), random and heuristic
    (bench_tricks.rate);
  * with --duplicate N: the points a game one heuristic seat gains over the same seat playing
    random, the others random, on N duplicate games with the seats rotated, and its 95% interval
    (musim.duplicate.duplicate_advantage).  Reverse Safarü is won by the lowest score: there the
    heuristic's gain is negative.  Calcory's score is the cards won; `calcory` plays with perfect
    memory (--memory 1), `calcory-memory-0` with none.

Usage: python benchmarks/bench_games.py [--duplicate 100000] [--seed 2026] [--games safarue ...]
"""

import argparse
from functools import partial
from types import SimpleNamespace

from bench_tricks import rate

from musim.duplicate import duplicate_advantage
from musim.games.calcory import simulate as calcory
from musim.games.safarue import simulate as safarue


def variant(reverse):
    return SimpleNamespace(
        simulate_deals=partial(safarue.simulate_deals, reverse=reverse), make_workspace=safarue.make_workspace
    )


def calcory_memory(memory):
    return SimpleNamespace(
        simulate_deals=partial(calcory.simulate_deals, memory=memory), make_workspace=calcory.make_workspace
    )


GAMES = {
    "safarue": (variant(False), range(2, 5)),
    "reverse-safarue": (variant(True), range(2, 5)),
    "calcory": (calcory_memory(1.0), range(2, 5)),
    "calcory-memory-0": (calcory_memory(0.0), range(2, 5)),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duplicate", type=int, default=0, help="duplicate games per player count (0: skip)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--games", nargs="+", choices=sorted(GAMES), default=list(GAMES))
    a = ap.parse_args()
    header = "game             players  random games/s  heuristic games/s"
    print(header + ("  heuristic gain a game" if a.duplicate else ""))
    for name in a.games:
        sim, seats = GAMES[name]
        ws = sim.make_workspace()
        for n in seats:
            line = f"{name:16s} {n:7d}  {rate(sim, n, 'random', ws):14,.0f}  {rate(sim, n, 'heuristic', ws):17,.0f}"
            if a.duplicate:
                mean, half = duplicate_advantage(sim.simulate_deals, n, a.seed, a.duplicate)
                line += f"  {mean:+8.2f} +- {half:.2f}"
            print(line)


if __name__ == "__main__":
    main()
