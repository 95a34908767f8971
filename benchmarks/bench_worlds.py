"""What a search seat's worlds cost (musim/play/worlds.py): prepare() once per decision, then
draws per second, for the counting sampler and for rejection (the fallback past its table,
forced by a one-state table), on a few representative positions.  CPU time of the process
(the machine may be shared); prepare's includes the call from Python (about 3 µs).

Positions: a random deal of the hidden cards, Mü's five classes as groups (the trump class:
colour R and the 7s; the four other colours' non-trumps), mid-deal; a void is barred only
where the deal has it (so the position is consistent).  Mü 4p: 3 hidden hands of 8 cards;
Mü 6p: 5 hidden hands of 5; Wimmüln 6p: 5 hidden hands of 4 and the 5 hidden estimates
(single cards, any class).

Usage: python benchmarks/bench_worlds.py [--seconds 1] [--seed 2026]
"""

import argparse
import random
import time

import numpy as np
from numba import njit

from musim.core.cards import CARD_COLOUR, CARD_NUMBER, N_CARDS
from musim.play import worlds as W

TRUMP_CLASS = [c for c in range(N_CARDS) if CARD_COLOUR[c] == 0 or CARD_NUMBER[c] == 7]
GROUP = np.array([0 if c in TRUMP_CLASS else int(CARD_COLOUR[c]) for c in range(N_CARDS)] + [0] * 4, np.int64)
ALL = (1 << 5) - 1


@njit
def draw_many(sp, state, outs, n):
    for _ in range(n):
        W.draw(sp, state, outs)


def position(rng, hands, size, voids, dead=0):
    """`hands` hidden hands of `size` cards (`voids` bars among them where the deal allows) and
    `dead` single hidden cards allowed any group."""
    while True:
        cards = rng.sample(range(N_CARDS), hands * size + dead)
        held = [{int(GROUP[c]) for c in cards[h * size : (h + 1) * size]} for h in range(hands)]
        bars = [(h, g) for h in range(hands) for g in range(5) if g not in held[h]]
        if len(bars) >= voids:
            break
    allowed = [ALL] * (hands + dead)
    for h, g in rng.sample(bars, voids):
        allowed[h] &= ~(1 << g)
    capacity = [size] * hands + [1] * dead
    pool = np.uint64(sum(1 << c for c in cards))
    cap = np.zeros(W.MAX_HOLDERS, np.int64)
    allow = np.zeros(W.MAX_HOLDERS, np.int64)
    cap[: len(capacity)], allow[: len(allowed)] = capacity, allowed
    return pool, GROUP, cap, allow, len(capacity)


def rate(sp, seconds):
    """Draws per second (doubling the batch until it takes `seconds`)."""
    state, out = np.array([1], np.uint64), np.zeros(W.MAX_HOLDERS, np.uint64)
    n = 1
    while True:
        t = time.process_time()
        draw_many(sp, state, out, n)
        dt = time.process_time() - t
        if dt >= seconds:
            return n / dt
        n *= 2


def prepare_us(sp, pos):
    """The best of 5 batches of 200 calls (each call from Python: its dispatch included)."""
    best = np.inf
    for _ in range(5):
        t = time.process_time()
        for _ in range(200):
            W.prepare(sp, *pos)
        best = min(best, (time.process_time() - t) / 200 * 1e6)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    counting, rejection = W.make_sampler(), W.make_sampler(1)
    cases = [(f"Mü 4p, 3 hands of 8, {v} voids", (3, 8, v)) for v in (0, 2, 4)]
    cases += [(f"Mü 6p, 5 hands of 5, {v} voids", (5, 5, v)) for v in (0, 2, 4)]
    cases += [("Mü 6p, 5 hands of 8, 8 voids", (5, 8, 8))]
    cases += [(f"Wimmüln 6p, 5 hands of 4 + 5 estimates, {v} voids", (5, 4, v, 5)) for v in (0, 2, 4)]
    W.prepare(counting, *position(rng, 3, 8, 0))  # compile
    draw_many(counting, np.array([1], np.uint64), np.zeros(W.MAX_HOLDERS, np.uint64), 0)
    print(f"{'position':48} {'prepare µs':>11} {'counting draws/s':>17} {'rejection draws/s':>18}")
    for name, shape in cases:
        pos = position(rng, *shape)
        us = prepare_us(counting, pos)
        assert counting.meta[W.COUNTING] == 1
        fast = rate(counting, args.seconds)
        W.prepare(rejection, *pos)
        slow = f"{rate(rejection, args.seconds):18,.0f}" if not rejection.meta[W.COUNTING] else f"{'(one class)':>18}"
        print(f"{name:48} {us:11.1f} {fast:17,.0f} {slow}", flush=True)


if __name__ == "__main__":
    main()
