"""`musim.read_run`: a run's Parquet output as a pandas DataFrame a person can read.

Compiles no kernels, so that reading results stays quick.
"""

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from musim.cards import CARD_TEXT, N_CARDS
from musim.engine.parquet import METADATA_KEY

CARD_COLUMNS = ("hands", "laid")  # per-seat card masks, shown as per-seat lists of card texts

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
_CARD_TEXTS = pa.array(CARD_TEXT)


def read_run(path):
    """The rows of a `musim run` output (a Parquet file, or a directory of them) as a DataFrame.

    Integer, boolean and string columns get pandas nullable dtypes (Int8, boolean, string...);
    list columns hold Python lists per cell (pandas ArrowDtype), `hands` and `laid` one list
    of card texts per seat.  The run's `musim` metadata (parameters, versions) is in
    `df.attrs["musim"]`.
    """
    table = pq.read_table(path)
    meta = (table.schema.metadata or {}).get(METADATA_KEY)
    for name in CARD_COLUMNS:
        if name in table.column_names:
            i = table.column_names.index(name)
            cards = pa.chunked_array([_card_lists(chunk) for chunk in table.column(i).chunks])
            table = table.set_column(i, name, cards)
    df = table.to_pandas(types_mapper=_pandas_dtype)
    if meta is not None:
        df.attrs["musim"] = json.loads(meta)
    return df


def _pandas_dtype(typ):
    if pa.types.is_list(typ):
        return pd.ArrowDtype(typ)
    return _PANDAS_DTYPES.get(typ)


def _card_lists(masks):
    """list<list<string>> of a list<uint64> array of card masks (RULES.md §1 bit layout)."""
    flat = masks.flatten().to_numpy()
    bits = np.unpackbits(flat.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")[:, :N_CARDS]
    cards = np.flatnonzero(bits) % N_CARDS  # row by row, in card order
    hands = pa.ListArray.from_arrays(_offsets(bits.sum(axis=1)), _CARD_TEXTS.take(cards))
    return pa.ListArray.from_arrays(_offsets(masks.value_lengths().to_numpy()), hands)


def _offsets(lengths):
    return pa.array(np.concatenate([[0], np.cumsum(lengths)]), type=pa.int32())
