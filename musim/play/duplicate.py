"""Duplicate comparisons of two policies on the same deals (the seats' policies of a run:
musim/engine/seats.py).

A game's deal kernel draws the dealer and the deal before any policy decides
anything, so deal k of a seed is the same deal whichever policies sit at the table:
one `strong` seat among `weak` ones can be compared with the same seat on the same
deal played all `weak`, which removes the luck of the cards from the difference.
"""

import numpy as np


def duplicate_advantage(simulate, players, seed, count, strong="heuristic", weak="random", others=None):
    """(mean, half-width of its 95% interval) of the points a `strong` seat gains per deal over
    the same seat playing `weak`, the others playing `others` (default `weak`), on deals
    0..count-1 of `seed`.

    Every seat takes the strong policy in turn (seats rotated); a deal's gain is the mean over
    the rotations, and the interval is over deals, which are independent.
    `simulate` is a game's simulate_deals(players, seed, policy, start, count); `policy` one
    policy, or a list of one a seat."""
    others = weak if others is None else others
    base = simulate(players, seed, weak, 0, count)["scores"] if others == weak else None
    gain = np.zeros(count)
    for seat in range(players):
        own = _seat_scores(simulate, players, seed, count, weak, others, seat) if base is None else base[:, seat]
        gain += _seat_scores(simulate, players, seed, count, strong, others, seat) - own
    return interval(gain / players)


def rotated_scores(simulate, players, seed, count, policy, others):
    """Per deal, the mean over the seats of a seat's points when it alone plays `policy` among
    `others` (every seat in turn): differences of two policies' arrays, or with the all-`others`
    table's mean, are duplicate gains over the same runs (interval)."""
    total = np.zeros(count)
    for seat in range(players):
        total += _seat_scores(simulate, players, seed, count, policy, others, seat)
    return total / players


def interval(gain):
    """(mean, half-width of its 95% interval) of per-deal gains, over deals, which are independent."""
    return float(gain.mean()), float(1.96 * gain.std(ddof=1) / np.sqrt(len(gain)))


def _seat_scores(simulate, players, seed, count, policy, others, seat):
    """The scores of `seat` playing `policy` among `others`."""
    mix = [others] * players
    mix[seat] = policy
    return simulate(players, seed, mix, 0, count)["scores"][:, seat]


def game_simulate(name, workers=1, columns=(), **options):
    """simulate(players, seed, policy, start, count) for duplicate_advantage of any registered game:
    the rows `musim run --game NAME` writes (the game's Job, its own options given here), as
    {"scores": (count, players) array of score_<i>, and each of `columns` as an array}, chunks on
    `workers` threads.  Mü serves as the other games do."""

    def simulate(players, seed, policy, start, count):
        from musim.engine.local import chunk_starts, run_ordered
        from musim.engine.spec import RunSpec, checked

        play = policy if isinstance(policy, str) else ",".join(policy)
        spec = RunSpec(name, "deals", start + count, players, play, seed, workers=workers, options=dict(options))
        job = checked(spec).job(spec)
        chunks = chunk_starts(start + count, job.chunk_size, start)
        batches = list(run_ordered(lambda s, c: job.to_batch(job.simulate(s, c)), chunks, workers))
        out = {"scores": np.stack([_column(batches, f"score_{i}") for i in range(players)], axis=1)}
        return out | {c: _column(batches, c) for c in columns}

    return simulate


def _column(batches, name):
    return np.concatenate([b.column(name).to_numpy(zero_copy_only=False) for b in batches])
