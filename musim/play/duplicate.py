"""Per-seat policies, and duplicate comparisons of two policies on the same deals.

A game's deal kernel draws the dealer and the deal before any policy decides
anything, so deal k of a seed is the same deal whichever policies sit at the table:
one `strong` seat among `weak` ones can be compared with the same seat on the same
deal played all `weak`, which removes the luck of the cards from the difference.
"""

import numpy as np


def seat_names(players, policy, names):
    """The policy name of each seat: `policy` is one name for every seat, a list of names one a
    seat, or their text joined by commas (`--play random,heuristic,heuristic,heuristic`, seats
    in the order of the rows).  ValueError (one line, naming the fault) if it is none of these."""
    text = isinstance(policy, str)
    chosen = [p.strip() for p in policy.split(",")] if text else list(policy)
    chosen = chosen * players if text and len(chosen) == 1 else chosen  # a list is one a seat
    if len(chosen) != players:
        raise ValueError(f"expected one policy or {players} (one a seat), got {len(chosen)} in {policy!r}")
    unknown = [p for p in chosen if p not in names]
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not one of the policies ({', '.join(names)})")
    return chosen


def play_text(players, policy, names):
    """The run's --play text: the one name when every seat plays it (so a run's key and name
    stay those of a single policy), else the names of the seats joined by commas."""
    chosen = seat_names(players, policy, names)
    return chosen[0] if len(set(chosen)) == 1 else ",".join(chosen)


def seat_policies(players, policy, names):
    """int64 policy code per seat (seat_names) of names {name: code}."""
    return np.array([names[p] for p in seat_names(players, policy, names)], np.int64)


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
