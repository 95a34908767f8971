"""The columns of Calcory's run output, each defined once: name, Arrow type, description.
One row is one game."""

import numpy as np
import pyarrow as pa

from musim.core.deck import MU
from musim.engine.parquet import SEAT, Column
from musim.games.calcory.rules import ENDS, MAX_TURNS
from musim.play.seat_columns import PER_SEAT, SEAT_NUMBER, batch, card_indices, list_array, row_index, row_values

_PARTS = (
    ("turns", "Turns each seat took (taking its own surviving marks counts as a turn)"),
    ("failed", "Turns of each seat that failed (over 13, a second 0, or no card left to turn)"),
    ("thirteens", "Turns of each seat that made exactly 13 and took the cards"),
    ("marks_taken", "Turns in which each seat took its own marked cards that survived a round"),
)

DEAL_COLUMNS = (
    row_index("game"),
    Column("players", pa.int8(), "Number of players (2..4)."),
    Column(
        "dealer", pa.int8(), f"The seat that laid out the grid (drawn), {SEAT_NUMBER}; the seat to its left starts."
    ),
    Column("starter", pa.int8(), f"The seat that takes the first turn (left of the dealer), {SEAT_NUMBER}."),
    Column(f"score_{SEAT}", pa.int8(), "Cards seat i won (kept) in the game; most cards wins."),
    Column("cards", pa.list_(pa.int8()), f"Cards each seat won, {PER_SEAT} (score_<i> again, as a list)."),
    *(Column(name, pa.list_(pa.int16()), f"{text}, {PER_SEAT}.") for name, text in _PARTS),
    Column(
        "end",
        pa.string(),
        "What ended the game: 'single' (a single marked card survived a round and its seat took it), "
        f"'exhausted' (no face-down card left at the start of a turn), 'cap' ({MAX_TURNS:,} turns played).",
    ),
    Column("left", pa.int8(), "Cards still on the grid at the end (face down or marked; nobody wins them)."),
    Column(
        "grid",
        pa.list_(pa.int8()),
        f"The card laid face down at each grid position p = 0..59 (row p // 10, column p % 10). {card_indices(MU)}",
    ),
)


def deal_batch(out, start, players):
    """Arrow record batch of games start.. from simulate.simulate_deals output."""
    parts = out["parts"]
    values = {
        **row_values(out, start, players),
        "cards": list_array(parts[:, :, 0], pa.list_(pa.int8())),
        **{name: list_array(parts[:, :, k + 1], pa.list_(pa.int16())) for k, (name, _) in enumerate(_PARTS)},
        "end": pa.array(np.array(ENDS, dtype=object)[out["end"]], type=pa.string()),
        "left": pa.array(out["left"], type=pa.int8()),
        "grid": list_array(out["grid"], pa.list_(pa.int8())),
    }
    return batch(values, DEAL_COLUMNS, players)
