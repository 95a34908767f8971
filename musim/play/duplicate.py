"""Per-seat policies, and duplicate comparisons of two policies on the same deals.

A game's deal kernel draws the dealer and the deal before any policy decides
anything, so deal k of a seed is the same deal whichever policies sit at the table:
one `strong` seat among `weak` ones can be compared with the same seat on the same
deal played all `weak`, which removes the luck of the cards from the difference.
"""

import numpy as np


def seat_policies(players, policy, names):
    """int64 policy code per seat from one policy name, or a list of names, one per seat."""
    chosen = [policy] * players if isinstance(policy, str) else list(policy)
    if len(chosen) != players or any(p not in names for p in chosen):
        raise ValueError(f"policy: expected one of {sorted(names)} or {players} of them, got {policy!r}")
    return np.array([names[p] for p in chosen], np.int64)


def duplicate_advantage(simulate, players, seed, count, strong="heuristic", weak="random"):
    """(mean, half-width of its 95% interval) of the points a `strong` seat gains per deal over
    the same seat playing `weak`, the others playing `weak`, on deals 0..count-1 of `seed`.

    Every seat takes the strong policy in turn (seats rotated); a deal's gain is the mean over
    the rotations, and the interval is over deals, which are independent.
    `simulate` is a game's simulate_deals(players, seed, policy, start, count)."""
    base = simulate(players, seed, weak, 0, count)["scores"]
    gain = np.zeros(count)
    for seat in range(players):
        mix = [weak] * players
        mix[seat] = strong
        gain += simulate(players, seed, mix, 0, count)["scores"][:, seat] - base[:, seat]
    gain /= players
    return float(gain.mean()), float(1.96 * gain.std(ddof=1) / np.sqrt(count))
