"""Run-output columns shared by the games scored per seat (The Last Panther, Wimmüln, Mückenstich, Safarü), and the
phrases every game's column descriptions use for seats.

A deal row carries one scalar column per seat for what is compared seat by seat
(`score_<i>`, `tricks_<i>`: templates named with musim.engine.parquet.SEAT, declared
once for any player count), list columns (one entry per seat) for the rest, and a
match row the seats' totals and the winner.  Each game's columns.py lists its own
columns and fills them from its kernels' arrays with these helpers.
"""

import numpy as np
import pyarrow as pa

from musim.engine.parquet import SEAT, Column, schema_of

SEAT_NUMBER = "a seat number (0..players-1)"
PER_SEAT = "one entry per seat, in seat order"


def card_indices(deck):
    """The sentence saying how a column listing cards by index (musim.core.deck.Deck) numbers them, so
    that the description read from a file alone is enough to decode it."""
    last = deck.n_cards - 1
    return (
        f"Each card is its index in the {deck.name} deck, which numbers its cards colour by colour "
        f"({', '.join(deck.colours)}), each colour in rank order: {deck.text(0)} is 0, {deck.text(last)} is {last} "
        "(docs/decks.md)."
    )


def row_index(unit="deal"):
    """The `deal` column: the row's index within the run, which keys its random stream
    (`unit`: what a row is, a deal or a whole game)."""
    return Column(
        "deal", pa.int64(), f"Index of the {unit} within the run; {unit} k draws from the random stream (seed, k)."
    )


def row_values(out, start, players):
    """The values of the columns a seat game's row opens with, from its simulate_deals output:
    `deal`, `players`, `dealer`, `starter` (the seat left of the dealer; `batch` ignores it where
    the game has no such column) and `score_<i>`."""
    count = out["dealer"].shape[0]
    return {
        "deal": pa.array(np.arange(start, start + count), type=pa.int64()),
        "players": pa.array(np.full(count, players), type=pa.int8()),
        "dealer": pa.array(out["dealer"], type=pa.int8()),
        "starter": pa.array((out["dealer"] + 1) % players, type=pa.int8()),
        f"score_{SEAT}": out["scores"],
    }


def list_array(values, typ):
    """Arrow list array (type typ) with one list per row of a 2-D array."""
    rows, width = values.shape[0], values.shape[1]
    flat = np.ascontiguousarray(values).reshape(-1)
    offsets = pa.array(np.arange(0, rows * width + 1, width, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, pa.array(flat, type=typ.value_type), type=typ)


# With --node-limit (musim.play.node_limit) only.
DD_LIMITED = Column(
    "dd_cards_limited",
    pa.int16(),
    "The cards of the deal played double-dummy whose search passed --node-limit: each was chosen by the "
    "bounds its moves' searches proved within the limit, the best for its mover (docs/players.md), not "
    "necessarily a double-dummy card. 0: every dd card is exact double-dummy play.",
)


def match_columns(end, cap):
    """Columns of a match row: `end` says when a match ends, `cap` the deal cap."""
    return (
        Column("match", pa.int64(), "Index of the match within the run; match m draws from the stream (~seed, m)."),
        Column("players", pa.int8(), "Number of players."),
        Column("deals", pa.int32(), f"Deals the match took: {end}; the dealer moves one seat left each deal."),
        Column(f"total_{SEAT}", pa.int32(), "Total score of seat i at the end of the match."),
        Column("winner", pa.int8(), f"The seat with the highest total, {SEAT_NUMBER}; null when several share it."),
        Column("winners", pa.list_(pa.int8()), "The seats sharing the highest total, in seat order (one unless tied)."),
        Column("capped", pa.bool_(), f"True if the match stopped after {cap:,} deals without ending by the rules."),
    )


def match_batch(out, start, players, columns):
    """Arrow record batch of matches start.. from a game's simulate_matches output."""
    totals = out["totals"]
    top = totals == totals.max(axis=1, keepdims=True)
    winner = np.where(top.sum(axis=1) == 1, totals.argmax(axis=1), -1)
    count = totals.shape[0]
    values = {
        "match": pa.array(np.arange(start, start + count), type=pa.int64()),
        "players": pa.array(np.full(count, players), type=pa.int8()),
        "deals": pa.array(out["deals"], type=pa.int32()),
        f"total_{SEAT}": totals,
        "winner": pa.array(winner, type=pa.int8(), mask=winner < 0),
        "winners": pa.array([np.flatnonzero(row).tolist() for row in top], type=pa.list_(pa.int8())),
        "capped": pa.array(out["capped"], type=pa.bool_()),
    }
    return batch(values, columns, players)


def batch(values, columns, players):
    """Record batch of `values` (name -> Arrow array) in the order and with the descriptions of
    `columns`; a SEAT column's value is a 2-D array whose column i fills the column of seat i."""
    arrays = []
    for c in columns:
        v = values[c.name]
        arrays += [pa.array(v[:, i], type=c.type) for i in range(players)] if SEAT in c.name else [v]
    return pa.RecordBatch.from_arrays(arrays, schema=schema_of(columns, players))
