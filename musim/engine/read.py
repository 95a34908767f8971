"""`musim.read_run`: a run's Parquet output as a pandas DataFrame a person can read.

Compiles no kernels, so that reading results stays quick.
"""

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from musim.core.deck import MU
from musim.engine.parquet import DESCRIPTION_KEY, METADATA_KEY

CARD_MASKS = b"card mask"  # in the description of a list<uint64> column of per-seat card masks

# Arrow scalar types -> pandas nullable dtypes (a null stays pd.NA, never a float NaN)
_PANDAS_DTYPES = {
    pa.bool_(): pd.BooleanDtype(),
    pa.int8(): pd.Int8Dtype(),
    pa.int16(): pd.Int16Dtype(),
    pa.int32(): pd.Int32Dtype(),
    pa.int64(): pd.Int64Dtype(),
    pa.uint64(): pd.UInt64Dtype(),
    pa.float32(): pd.Float32Dtype(),
    pa.float64(): pd.Float64Dtype(),
    pa.string(): pd.StringDtype(),
    pa.large_string(): pd.StringDtype(),
}


def read_run(path):
    """The rows of a `musim run` output (a run directory, or a Parquet file) as a DataFrame.

    Integer, boolean and string columns get pandas nullable dtypes (Int8, boolean, string...);
    list columns hold Python lists per cell (pandas ArrowDtype), card-mask columns (`hands`...)
    one list of card texts per seat, in the deck of the run's game.  The run's `musim` metadata
    (parameters, versions) is in `df.attrs["musim"]`.
    """
    table = pq.read_table(path)
    meta = (table.schema.metadata or {}).get(METADATA_KEY)
    meta = json.loads(meta) if meta is not None else None
    texts, n_cards = _deck_texts(meta)
    for i, field in enumerate(table.schema):
        if pa.types.is_list(field.type) and CARD_MASKS in (field.metadata or {}).get(DESCRIPTION_KEY, b""):
            cards = pa.chunked_array([_card_lists(chunk, texts, n_cards) for chunk in table.column(i).chunks])
            table = table.set_column(i, field.name, cards)
    df = table.to_pandas(types_mapper=_pandas_dtype)
    if meta is not None:
        df.attrs["musim"] = meta
    return df


def _deck_texts(meta):
    """(card texts as an Arrow array, card count) of the deck of the run's game (Mü's if unknown)."""
    from musim.games import UnknownGame, get_game

    try:
        deck = get_game(meta["params"]["game"]).deck or MU
    except (TypeError, KeyError, UnknownGame):
        deck = MU
    return pa.array([deck.text(i) for i in range(deck.n_cards)]), deck.n_cards


def _pandas_dtype(typ):
    if pa.types.is_list(typ):
        return pd.ArrowDtype(typ)
    return _PANDAS_DTYPES.get(typ)


def _card_lists(masks, texts, n_cards):
    """list<list<string>> of a list<uint64> array of card masks (bit i: card i of the deck)."""
    flat = masks.flatten().to_numpy()
    bits = np.unpackbits(flat.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")[:, :n_cards]
    cards = np.flatnonzero(bits) % n_cards  # row by row, in card order
    hands = pa.ListArray.from_arrays(_offsets(bits.sum(axis=1)), texts.take(cards))
    return pa.ListArray.from_arrays(_offsets(masks.value_lengths().to_numpy()), hands)


def _offsets(lengths):
    return pa.array(np.concatenate([[0], np.cumsum(lengths)]), type=pa.int32())
