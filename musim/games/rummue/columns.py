"""The columns of Rummü's run output, each defined once: name, Arrow type, description.
One row is one deal (with --matches, one match)."""

import numpy as np
import pyarrow as pa

from musim.core.deck import MU
from musim.engine.parquet import SEAT, Column
from musim.games.rummue.simulate import ENDS, MAX_TURNS
from musim.play import seat_columns
from musim.play.drivers import MATCH_DEAL_CAP
from musim.play.seat_columns import PER_SEAT, SEAT_NUMBER, batch, card_indices, list_array, row_index, row_values

TEAMS = "with --teams each seat shows its side's points, the sum of the two partners opposite"
# name, Arrow type, description of each per-seat part (table.PARTS order)
_PARTS = (
    ("melds", pa.int8(), "Melds each seat laid"),
    (
        "meld_points",
        pa.int16(),
        "Points of each seat's melds: the table of docs/rules.md §5.1 applied to each of its melds' cards at the end "
        "of the deal, leaving out the cards other seats put there, plus 10 for each card it put into another seat's "
        "meld (added, or swapped in for a joker) that is still there at the end",
    ),
    ("added", pa.int8(), "Cards each seat added to melds on the table (its own or another's)"),
    ("swaps", pa.int8(), "Joker swaps each seat made (a card of its hand for a yellow card of a meld)"),
    ("left", pa.int8(), "Cards left in each seat's hand at the end"),
    (
        "penalty",
        pa.int16(),
        "Points of the cards left in each seat's hand: -10 for each red card, -5 for any other (0 for the partner "
        "of the seat going out, with --teams)",
    ),
    ("came_out", pa.int16(), "The turn (0-based) in which each seat laid its first meld, -1 if it never did"),
)

DEAL_COLUMNS = (
    row_index("deal"),
    Column("players", pa.int8(), "Number of players (3..6)."),
    Column("teams", pa.bool_(), "True if partners opposite played as a side (--teams, 4 or 6 players)."),
    Column("dealer", pa.int8(), f"The dealer (drawn), {SEAT_NUMBER}; the seat to its left starts."),
    Column("starter", pa.int8(), f"The seat that takes the first turn (left of the dealer), {SEAT_NUMBER}."),
    Column(
        f"score_{SEAT}",
        pa.int16(),
        f"The deal's points of seat i: meld_points, +10 for going out, and penalty for the cards left in hand "
        f"({TEAMS}).",
    ),
    *(Column(name, pa.list_(typ), f"{text}, {PER_SEAT}.") for name, typ, text in _PARTS),
    Column("out", pa.int8(), f"The seat that went out (discarded its last card), {SEAT_NUMBER}; null when nobody did."),
    Column(
        "end",
        pa.string(),
        f"What ended the deal: 'out' (a seat discarded its last card), 'cap' ({MAX_TURNS:,} turns played: scored "
        "as if nobody went out).",
    ),
    Column("turns", pa.int16(), "Turns played (one draw, any melds, one discard each)."),
    Column(
        "restocks",
        pa.int16(),
        "Times a seat had to draw from an empty stock and the discard pile, except its top card, was shuffled "
        "into a new stock.",
    ),
    Column("melds_laid", pa.int8(), "Melds on the table at the end."),
    Column(
        "deck",
        pa.list_(pa.int8()),
        "The 60 cards in dealing order: the hands one card at a time from the seat left of the dealer, then the "
        f"card turned up, then the stock from the top down. {card_indices(MU)}",
    ),
)

MATCH_COLUMNS = seat_columns.match_columns(
    "it ends after the deal in which a total reaches 200 (500 with --teams, where each seat's total is its side's, "
    "so both partners are the winners)",
    MATCH_DEAL_CAP,
)


def deal_batch(out, start, players):
    """Arrow record batch of deals start.. from simulate.simulate_deals output."""
    parts = out["parts"]
    values = {
        **row_values(out, start, players),
        "teams": pa.array(out["teams"], type=pa.bool_()),
        **{name: list_array(parts[:, :, k], pa.list_(typ)) for k, (name, typ, _) in enumerate(_PARTS)},
        "out": pa.array(out["out"], type=pa.int8(), mask=out["out"] < 0),
        "end": pa.array(np.array(ENDS, dtype=object)[out["end"]], type=pa.string()),
        "turns": pa.array(out["turns"], type=pa.int16()),
        "restocks": pa.array(out["restocks"], type=pa.int16()),
        "melds_laid": pa.array(out["melds"], type=pa.int8()),
        "deck": list_array(out["deck"], pa.list_(pa.int8())),
    }
    return batch(values, DEAL_COLUMNS, players)


def match_batch(out, start, players):
    """Arrow record batch of matches start.. from simulate.simulate_matches output."""
    return seat_columns.match_batch(out, start, players, MATCH_COLUMNS)
