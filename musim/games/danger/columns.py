"""The columns of Danger's run output, each defined once: name, Arrow type, description.
One row is one game (five rounds by default)."""

import pyarrow as pa

from musim.core.deck import DANGER
from musim.engine.parquet import SEAT, Column
from musim.games.danger.rules import (
    BLOCKED_ROWS,
    COLOUR_NAMES,
    DISCARDS,
    LIMIT,
    LOWEST,
    MAX_ROUND_TURNS,
    SECURED_ROWS,
    TAKEN,
    TURNS_OF,
)
from musim.play.seat_columns import PER_SEAT, SEAT_NUMBER, batch, card_indices, list_array, row_index, row_values

_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
# name, index in rules.PARTS, description of each per-seat part
_PARTS = (
    *(
        (f"secured_{c.lower()}", SECURED_ROWS + k, f"Rounds in which each seat secured its {_NAMES[c]} row")
        for k, c in enumerate(COLOUR_NAMES)
    ),
    *(
        (f"blocked_{c.lower()}", BLOCKED_ROWS + k, f"Rounds in which each seat's {_NAMES[c]} row went above {LIMIT}")
        for k, c in enumerate(COLOUR_NAMES)
    ),
    (
        "lowest",
        LOWEST,
        "Colours (over the rounds) in which each seat had cards in an open or secured row but the "
        "(possibly shared) lowest total, so scored nothing",
    ),
    ("taken", TAKEN, "Turns in which each seat took the card the previous seat had just discarded"),
    (
        "discards",
        DISCARDS,
        "Cards each seat had to discard because its row in the card's colour was secured or blocked",
    ),
    ("turns", TURNS_OF, "Turns each seat took"),
)

DEAL_COLUMNS = (
    row_index("game"),
    Column("players", pa.int8(), "Number of players (3..5)."),
    Column("dealer", pa.int8(), f"The dealer (drawn), {SEAT_NUMBER}; the seat to its left starts."),
    Column(
        "starter",
        pa.int8(),
        f"The seat that takes the first turn (left of the dealer), {SEAT_NUMBER}; each later round starts "
        "one seat further left.",
    ),
    Column(
        f"score_{SEAT}",
        pa.int16(),
        "Seat i's total over the rounds, highest wins: in each round, for each colour, the total of its row, or "
        f"nothing if that total is the colour's lowest, shared or not (a row above {LIMIT} counts 0).",
    ),
    *(Column(name, pa.list_(pa.int16()), f"{text}, {PER_SEAT}.") for name, _, text in _PARTS),
    Column("rounds_exhausted", pa.int8(), "Rounds that ended because no card was left to take (stock and pile empty)."),
    Column("rounds_capped", pa.int8(), f"Rounds stopped and scored after {MAX_ROUND_TURNS} turns."),
    Column("reshuffles", pa.int16(), "Times the stock ran out and the discard pile was shuffled into a new stock."),
    Column(
        "deck",
        pa.list_(pa.int8()),
        f"The stock at the start, the top card first. {card_indices(DANGER)} With --copies or --multicolour the "
        "deck is musim.core.deck.danger_deck(copies, multicolour), numbered the same way.",
    ),
)


def deal_batch(out, start, players):
    """Arrow record batch of games start.. from simulate.simulate_deals output."""
    parts = out["parts"]
    values = {
        **row_values(out, start, players),
        **{name: list_array(parts[:, :, k], pa.list_(pa.int16())) for name, k, _ in _PARTS},
        "rounds_exhausted": pa.array(out["ends"][:, 1], type=pa.int8()),
        "rounds_capped": pa.array(out["ends"][:, 2], type=pa.int8()),
        "reshuffles": pa.array(out["reshuffles"], type=pa.int16()),
        "deck": list_array(out["deck"], pa.list_(pa.int8())),
    }
    return batch(values, DEAL_COLUMNS, players)
