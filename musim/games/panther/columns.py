"""The columns of The Last Panther's run output, each defined once: name, Arrow type, description."""

import numpy as np
import pyarrow as pa

from musim import seat_columns
from musim.engine.parquet import Column
from musim.games.panther.simulate import MATCH_DEAL_CAP
from musim.seat_columns import PER_SEAT, SEAT, batch, list_array, per_seat, per_seat_arrays


def deal_columns(players):
    """Columns of a deal row with this many players."""
    return (
        Column("deal", pa.int64(), "Index of the deal within the run; deal k draws from the random stream (seed, k)."),
        Column("players", pa.int8(), "Number of players (3..8)."),
        Column("dealer", pa.int8(), f"The dealer, {SEAT}; the seat to its left leads the first trick."),
        *per_seat(
            "score",
            pa.int16(),
            "The deal's points (+5 a yellow card, -10 a red one, -50 a black 7 won; +50 for the last trick)",
            players,
        ),
        *per_seat("tricks", pa.int8(), "Tricks won", players),
        Column("last_trick", pa.int8(), f"The seat that took the last trick (+50), {SEAT}."),
        Column(
            "passed",
            pa.list_(pa.uint64()),
            f"The cards each seat passed to its left, as card masks, {PER_SEAT}.",
        ),
        Column(
            "hands", pa.list_(pa.uint64()), f"The cards dealt to each seat (before the pass) as card masks, {PER_SEAT}."
        ),
    )


def deal_batch(out, start, players):
    """Arrow record batch of deals start.. from simulate.simulate_deals output."""
    count = out["dealer"].shape[0]
    values = {
        "deal": pa.array(np.arange(start, start + count), type=pa.int64()),
        "players": pa.array(np.full(count, players), type=pa.int8()),
        "dealer": pa.array(out["dealer"], type=pa.int8()),
        **per_seat_arrays("score", out["scores"], pa.int16()),
        **per_seat_arrays("tricks", out["tricks"], pa.int8()),
        "last_trick": pa.array(out["last_trick"], type=pa.int8()),
        "passed": list_array(out["passed"], pa.list_(pa.uint64())),
        "hands": list_array(out["hands"], pa.list_(pa.uint64())),
    }
    return batch(values, deal_columns(players))


def match_columns(players):
    """Columns of a match row with this many players."""
    return seat_columns.match_columns(
        players, "it ends after the deal in which some total is at -200 or lower", MATCH_DEAL_CAP
    )


def match_batch(out, start, players):
    """Arrow record batch of matches start.. from simulate.simulate_matches output."""
    return seat_columns.match_batch(out, start, players, match_columns(players))
