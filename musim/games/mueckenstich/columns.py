"""The columns of Mückenstich's run output, each defined once: name, Arrow type, description."""

import numpy as np
import pyarrow as pa

from musim.core.deck import MUECKENSTICH as DECK
from musim.engine.parquet import SEAT, Column
from musim.play import seat_columns
from musim.play.drivers import MATCH_DEAL_CAP
from musim.play.seat_columns import PER_SEAT, SEAT_NUMBER, batch, list_array, row_index, row_values

_COLOURS = pa.array(list(DECK.colours))


DEAL_COLUMNS = (
    row_index(),
    Column("players", pa.int8(), "Number of players (3..6)."),
    Column("dealer", pa.int8(), f"The dealer, {SEAT_NUMBER}; the seat to its left leads the first trick."),
    Column(
        f"score_{SEAT}",
        pa.int16(),
        "The deal's points of seat i: 1 for each number card it won (2 in the double colour, 0 in the zero "
        "colour), and -5 for each colour of which it won a mosquito.",
    ),
    Column(f"tricks_{SEAT}", pa.int8(), "Tricks won by seat i."),
    Column(
        "mosquitoes_played",
        pa.list_(pa.int8()),
        f"Mosquitoes each seat played (each named a trump), {PER_SEAT}.",
    ),
    Column("mosquitoes_won", pa.list_(pa.int8()), f"Mosquitoes among each seat's won cards, {PER_SEAT}."),
    Column(
        "trumps_named",
        pa.list_(pa.string()),
        "The trump colour letter each mosquito named, in play order (empty when no mosquito was played: the deal "
        "had no trump).",
    ),
    Column(
        "double",
        pa.string(),
        "The colour whose number cards are worth 2, named by the single seat with the fewest tricks; "
        "null if several share the fewest.",
    ),
    Column(
        "double_by", pa.int8(), f"The seat that named the double colour, {SEAT_NUMBER}; null with no double colour."
    ),
    Column(
        "zero",
        pa.string(),
        "The colour whose number cards are worth 0, named by the single seat with the most mosquitoes won; null if "
        "several share it.",
    ),
    Column("zero_by", pa.int8(), f"The seat that named the zero colour, {SEAT_NUMBER}; null with no zero colour."),
    Column(
        "discards",
        pa.list_(pa.uint64()),
        f"The two cards each seat laid aside, as card masks (0, no cards, with 6 players), {PER_SEAT}.",
    ),
    Column(
        "hands",
        pa.list_(pa.uint64()),
        f"The cards dealt to each seat (before the discard) as card masks, {PER_SEAT}; "
        "the 4 cards in no hand were left undealt.",
    ),
)


def _trumps(trumps):
    """Arrow list<string> of the colours named per row (-1 pads each row's end)."""
    named = trumps >= 0
    offsets = np.concatenate([[0], np.cumsum(named.sum(axis=1))]).astype(np.int32)
    return pa.ListArray.from_arrays(pa.array(offsets), _COLOURS.take(pa.array(trumps[named])))


def _colour(values):
    return pa.array([DECK.colours[v] if v >= 0 else None for v in values], type=pa.string())


def _seat(values):
    return pa.array(values, type=pa.int8(), mask=values < 0)


def deal_batch(out, start, players):
    """Arrow record batch of deals start.. from simulate.simulate_deals output."""
    naming = out["naming"]
    values = {
        **row_values(out, start, players),
        f"tricks_{SEAT}": out["tricks"],
        "mosquitoes_played": list_array(out["mosquitoes_played"], pa.list_(pa.int8())),
        "mosquitoes_won": list_array(out["mosquitoes_won"], pa.list_(pa.int8())),
        "trumps_named": _trumps(out["trumps"]),
        "double": _colour(naming[:, 0]),
        "double_by": _seat(naming[:, 1]),
        "zero": _colour(naming[:, 2]),
        "zero_by": _seat(naming[:, 3]),
        "discards": list_array(out["discards"], pa.list_(pa.uint64())),
        "hands": list_array(out["hands"], pa.list_(pa.uint64())),
    }
    return batch(values, DEAL_COLUMNS, players)


MATCH_COLUMNS = tuple(  # a match always ends by the rules: no `capped` column
    c
    for c in seat_columns.match_columns("one deal per player (two with 3 players)", MATCH_DEAL_CAP)
    if c.name != "capped"
)


def match_batch(out, start, players):
    """Arrow record batch of matches start.. from simulate.simulate_matches output."""
    return seat_columns.match_batch(out, start, players, MATCH_COLUMNS)
