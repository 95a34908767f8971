"""Throughput of the games scored per seat, and how much each heuristic beats random.

Prints, per game and player count:
  * kernel throughput on one thread (rows/s, best of 5 chunks of 32768 rows: deals of The Last
    Panther, Wimmüln and Mückenstich, whole games of Safarü, Reverse Safarü and Calcory), random
    and heuristic;
  * with --duplicate N: the points a row one heuristic seat gains over the same seat playing
    random, the others random, on N duplicate rows with the seats rotated, and its 95% interval
    (musim.play.duplicate.duplicate_advantage).  Reverse Safarü is won by the lowest score: there the
    heuristic's gain is negative.  Calcory's score is the cards won; `calcory` plays with perfect
    memory (--memory 1), `calcory-memory-0` with none.  A Zwickern row is one deal (a game is n deals).
    `rummue-teams` plays Rummü with partners opposite (--teams): the heuristic seat's partner plays
    random and both show the side's score.

Usage: python benchmarks/bench_games.py [--duplicate 100000] [--seed 2026] [--games panther ...]
"""

import argparse
import time
from functools import partial
from types import SimpleNamespace

from musim.games.calcory import simulate as calcory
from musim.games.danger import simulate as danger
from musim.games.mueckenstich import simulate as mueckenstich
from musim.games.panther import simulate as panther
from musim.games.rummue import simulate as rummue
from musim.games.safarue import simulate as safarue
from musim.games.wimmueln import simulate as wimmueln
from musim.games.zwickern import simulate as zwickern
from musim.play.duplicate import duplicate_advantage

CHUNK = 1 << 15


def bound(sim, **options):
    """The game's simulate module with its own options fixed."""
    fixed = {f: partial(getattr(sim, f), **options) for f in ("simulate_deals", "simulate_matches") if hasattr(sim, f)}
    return SimpleNamespace(**fixed, make_workspace=sim.make_workspace)


GAMES = {  # name: (simulate, player counts, what a row is)
    "panther": (panther, range(3, 9), "deal"),
    "wimmueln": (wimmueln, range(3, 7), "deal"),
    "mueckenstich": (mueckenstich, range(3, 7), "deal"),
    "safarue": (bound(safarue, reverse=False), range(2, 5), "game"),
    "reverse-safarue": (bound(safarue, reverse=True), range(2, 5), "game"),
    "calcory": (bound(calcory, memory=1.0), range(2, 5), "game"),
    "calcory-memory-0": (bound(calcory, memory=0.0), range(2, 5), "game"),
    "zwickern": (zwickern, range(2, 5), "deal"),
    "danger": (danger, range(3, 6), "game"),
    "rummue": (rummue, range(3, 7), "deal"),
    "rummue-teams": (bound(rummue, teams=True), (4, 6), "deal"),
}


def rate(sim, players, policy, ws):
    """Best rows/s over 5 chunks (the first call compiles or loads the kernels beforehand)."""
    sim.simulate_deals(players, 1, policy, 0, 10, ws)
    best = float("inf")
    for k in range(5):
        t = time.perf_counter()
        sim.simulate_deals(players, 1, policy, k * CHUNK, CHUNK, ws)
        best = min(best, time.perf_counter() - t)
    return CHUNK / best


def match_rate(sim, players, count):
    """Heuristic whole matches (games of several deals) a second, one run of `count` after a warm-up."""
    sim.simulate_matches(players, 1, "heuristic", 0, 1)
    t = time.perf_counter()
    sim.simulate_matches(players, 1, "heuristic", 1, count)
    return count / (time.perf_counter() - t)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duplicate", type=int, default=0, help="duplicate rows per player count (0: skip)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--games", nargs="+", choices=sorted(GAMES), default=list(GAMES))
    ap.add_argument("--matches", type=int, default=0, help="also time this many heuristic matches (0: skip)")
    a = ap.parse_args()
    print("game              players  random rows/s  heuristic rows/s  (a row: a deal or a game)", end="")
    print("  heuristic gain a row" if a.duplicate else "")
    for name in a.games:
        sim, seats, unit = GAMES[name]
        ws = sim.make_workspace()
        for n in seats:
            line = f"{name:17s} {n:7d}  {rate(sim, n, 'random', ws):13,.0f}  {rate(sim, n, 'heuristic', ws):16,.0f}"
            line += f"  ({unit}s)"
            if a.duplicate:
                mean, half = duplicate_advantage(sim.simulate_deals, n, a.seed, a.duplicate)
                line += f"  {mean:+8.2f} +- {half:.2f}"
            if a.matches and hasattr(sim, "simulate_matches"):
                line += f"  heuristic matches/s {match_rate(sim, n, a.matches):,.0f}"
            print(line)


if __name__ == "__main__":
    main()
