"""The columns of Wimmüln's run output, each defined once: name, Arrow type, description."""

import numpy as np
import pyarrow as pa

from musim.core.deck import MU
from musim.engine.parquet import SEAT, Column
from musim.play import seat_columns
from musim.play.drivers import MATCH_DEAL_CAP
from musim.play.seat_columns import PER_SEAT, SEAT_NUMBER, batch, list_array, row_index, row_values

_TEXT = pa.array([MU.text(i) for i in range(MU.n_cards)])


DEAL_COLUMNS = (
    row_index(),
    Column("players", pa.int8(), "Number of players (3..6)."),
    Column("dealer", pa.int8(), f"The dealer, {SEAT_NUMBER}; it leads the first trick."),
    Column("trump", pa.string(), "The trump colour letter; null when the revealed cards share a number or colour."),
    Column("revealed", pa.list_(pa.string()), "The dealer's two revealed cards, as dealt."),
    Column(f"score_{SEAT}", pa.int16(), "The deal's points of seat i (card points plus estimate bonus)."),
    Column(f"tricks_{SEAT}", pa.int8(), "Tricks won by seat i."),
    Column("card_points", pa.list_(pa.int16()), f"Card points (triangles) won in tricks, {PER_SEAT}."),
    Column("bonus", pa.list_(pa.int16()), f"Estimate bonus (0, 5, 10, 20 or 25), {PER_SEAT}."),
    Column("estimate_up", pa.list_(pa.string()), f"The face-up estimate card, {PER_SEAT}."),
    Column("estimate_hidden", pa.list_(pa.string()), f"The hidden estimate card, {PER_SEAT}."),
    Column("hands", pa.list_(pa.uint64()), f"The cards dealt to each seat as card masks, {PER_SEAT}."),
)


def _texts(cards):
    """Arrow list<string> of the card texts of a 2-D array of card indices."""
    return pa.ListArray.from_arrays(
        pa.array(np.arange(0, cards.size + 1, cards.shape[1], dtype=np.int32)),
        _TEXT.take(pa.array(np.ascontiguousarray(cards).reshape(-1))),
    )


def deal_batch(out, start, players):
    """Arrow record batch of deals start.. from simulate.simulate_deals output."""
    trump = out["trump"]
    values = {
        **row_values(out, start, players),
        "trump": pa.array([None if t < 0 else MU.colours[t] for t in trump], type=pa.string()),
        "revealed": _texts(out["revealed"]),
        f"tricks_{SEAT}": out["tricks"],
        "card_points": list_array(out["card_points"], pa.list_(pa.int16())),
        "bonus": list_array(out["bonus"], pa.list_(pa.int16())),
        "estimate_up": _texts(out["estimates"][:, :, 0]),
        "estimate_hidden": _texts(out["estimates"][:, :, 1]),
        "hands": list_array(out["hands"], pa.list_(pa.uint64())),
    }
    return batch(values, DEAL_COLUMNS, players)


MATCH_COLUMNS = seat_columns.match_columns("it ends after the deal in which some total reaches 200", MATCH_DEAL_CAP)


def match_batch(out, start, players):
    """Arrow record batch of matches start.. from simulate.simulate_matches output."""
    return seat_columns.match_batch(out, start, players, MATCH_COLUMNS)
