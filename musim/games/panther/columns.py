"""The columns of The Last Panther's run output, each defined once: name, Arrow type, description."""

import pyarrow as pa

from musim.engine.parquet import SEAT, Column
from musim.play import seat_columns
from musim.play.drivers import MATCH_DEAL_CAP
from musim.play.seat_columns import PER_SEAT, SEAT_NUMBER, batch, list_array, row_index, row_values

DEAL_COLUMNS = (
    row_index(),
    Column("players", pa.int8(), "Number of players (3..8)."),
    Column("dealer", pa.int8(), f"The dealer, {SEAT_NUMBER}; the seat to its left leads the first trick."),
    Column(
        f"score_{SEAT}",
        pa.int16(),
        "The deal's points of seat i: +5 for each yellow card it won, -10 for each red one, -50 for each black 7, and "
        "+50 for the last trick.",
    ),
    Column(f"tricks_{SEAT}", pa.int8(), "Tricks won by seat i."),
    Column("last_trick", pa.int8(), f"The seat that took the last trick (+50), {SEAT_NUMBER}."),
    Column("black_sevens", pa.list_(pa.int8()), f"Black 7s (-50 each) each seat took, {PER_SEAT}."),
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
    values = {
        **row_values(out, start, players),
        f"tricks_{SEAT}": out["tricks"],
        "last_trick": pa.array(out["last_trick"], type=pa.int8()),
        "black_sevens": list_array(out["sevens"], pa.list_(pa.int8())),
        "passed": list_array(out["passed"], pa.list_(pa.uint64())),
        "hands": list_array(out["hands"], pa.list_(pa.uint64())),
    }
    return batch(values, DEAL_COLUMNS, players)


MATCH_COLUMNS = seat_columns.match_columns(
    "it ends after the deal in which some total is at -200 or lower", MATCH_DEAL_CAP
)


def match_batch(out, start, players):
    """Arrow record batch of matches start.. from simulate.simulate_matches output."""
    return seat_columns.match_batch(out, start, players, MATCH_COLUMNS)
