"""Helpers shared by the benchmark scripts: the benchmark's position sets, table set-up, statistics."""

import itertools
import random

from musim.core.cards import CARD_TEXT, N_CARDS, type_text
from musim.core.deck import MU
from musim.games.bridge.solve import SEATS, STRAINS, random_pbn
from musim.games.mu import simulate as sim
from musim.games.mu.params import MuParams
from musim.games.mu.run import simulate_deal_chunk


def full_tricks(n):
    """Tricks in a full Mü deal at n players (3 players play the 36-card deck)."""
    return 12 if n in (3, 5) else 60 // n


def random_position(rng, n, tricks):
    """A Mü position of `tricks` random cards a seat and a random contract, the chief leading."""
    deck = list(range(36 if n == 3 else N_CARDS))
    cards = rng.sample(deck, n * tricks)
    seats = rng.sample(range(n), n)
    chief_trump = rng.randrange(-1, 15)
    vice_trump = rng.choice([t for t in range(15) if t != chief_trump]) if n >= 4 else -1
    return {
        "game": "mu",
        "players": n,
        "hands": [[CARD_TEXT[c] for c in cards[s * tricks : (s + 1) * tricks]] for s in range(n)],
        "leader": seats[0],
        "trick": [],
        "chief": seats[0],
        "partner": seats[1] if n >= 4 else None,
        "vice": seats[2] if n >= 4 else None,
        "chief_trump": type_text(chief_trump),
        "vice_trump": None if vice_trump < 0 else type_text(vice_trump),
    }


def auction_positions(n, seed):
    """Start positions of the played deals of `musim run --play heuristic --seed seed`, in deal order."""
    deal = 0
    while True:
        ch = simulate_deal_chunk(MuParams(n, "heuristic"), seed, deal, 1)
        deal += 1
        r = ch.res[0]
        if r[sim.OUTCOME] != sim.PLAYED:
            continue
        opt = lambda s: None if s < 0 else int(s)
        yield {
            "game": "mu",
            "players": n,
            "hands": [MU.format(h) for h in ch.hands[0][:n]],
            "leader": int(r[sim.CHIEF]),
            "trick": [],
            "chief": int(r[sim.CHIEF]),
            "partner": opt(r[sim.PARTNER]),
            "vice": opt(r[sim.VICE]),
            "chief_trump": type_text(r[sim.CHIEF_TRUMP]),
            "vice_trump": None if r[sim.VICE_TRUMP] < 0 else type_text(r[sim.VICE_TRUMP]),
        }


def positions(game, tricks, count, seed):
    """The first `count` positions of a benchmark set: GAME (a Mü player count, or "bridge") and
    TRICKS (tricks left, or "auction": full Mü deals with a heuristic run's contracts), as text.
    Position i depends only on (game, tricks, seed, i), whatever the count.  The seeds are those
    the earlier bench_solver.py and bench_bridge.py drew from, so the deals their figures in
    docs/ name are the same; a bridge set rotates the strain over the deals, then the leader."""
    if tricks == "auction":
        return list(itertools.islice(auction_positions(int(game), seed), count))
    tricks = int(tricks)
    if game == "bridge":
        rng = random.Random(seed)
        return [
            {"game": "bridge", "pbn": random_pbn(rng, tricks), "trump": STRAINS[i % 5], "leader": SEATS[(i // 5) % 4]}
            for i in range(count)
        ]
    rng = random.Random(seed * 1000 + int(game) * 20 + tricks)
    return [random_position(rng, int(game), tricks) for _ in range(count)]


def prefaulted(tt):
    """The table with every page touched: a table made in a timed call would otherwise
    charge the first solves with its page faults (about 1.5 s for 512 MB here)."""
    for a in tt:
        a += 0
    return tt


def order_stats(values):
    """(median, 90th percentile, max) of a list, None entries (unresolved) counted as +inf."""
    xs = sorted(float("inf") if v is None else v for v in values)
    return xs[len(xs) // 2], xs[min(len(xs) - 1, int(0.9 * len(xs)))], xs[-1]
