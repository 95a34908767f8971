"""Parquet output that is either complete or absent.

Rows stream into `<out>.partial` and the file is renamed into place only after
the writer closed cleanly; any failure or interrupt removes the partial file,
so a file at the requested path is always a whole run.  (An interrupt ends the
process without unwinding the writing thread: musim.cli calls remove_partials.)
"""

import json
import os
from collections import namedtuple
from contextlib import contextmanager, suppress

import pyarrow as pa
import pyarrow.parquet as pq

from musim.engine.errors import OutputError

METADATA_KEY = b"musim"
DESCRIPTION_KEY = b"description"
MANIFEST = "_manifest.json"  # a run directory's list of finished parts (engine/parts.py)
ROW_GROUP_ROWS = 1 << 15  # batches are gathered into row groups of at least this many rows

# The keys of the JSON object under METADATA_KEY, with what each holds (docs/formats.md lists them).
METADATA_FIELDS = {
    "musim_version": "musim's version.",
    "result_version": "The game's result version, bumped whenever a rule, policy or kernel change alters rows.",
    "command": 'The command that wrote the file (`"run"`).',
    "params": "Every parameter of the run, by name (below).",
    "seed": "The root seed (drawn and recorded when `--seed` was not given).",
    "policy": "The play mode (`--play`): one policy of the game (`random`, `heuristic`, `dd`) for every seat, or the "
    "seats' policies in seat order joined by commas (`random,heuristic,heuristic`).",
    "models": "The model deciding each kind of choice where a game has several, by name "
    '(Mü: `{"auction": "cautious"}`, or one a seat joined by commas, docs/players.md; under the learned '
    "auction also `learned_model`, the model's id `v2@<sha8>`; with a `search` seat also `search_weights`, the id of "
    "its weighted worlds' parameters); `{}` for the other games.",
    "rng": "The random-stream scheme: item k of a run draws from a stream keyed by (seed, k).",
    "chunk_size": "Items per chunk of work (does not change rows).",
    "python": "Python's version.",
    "numba": "numba's version.",
    "numpy": "numpy's version.",
    "pyarrow": "pyarrow's version.",
}

Column = namedtuple("Column", "name type description")  # one column of a run's output
_PARTIALS = set()  # the partial files being written, for remove_partials
SEAT = "<i>"  # in a Column's name: one column per seat i = 0..players-1 (score_<i>: score_0, score_1...)


def schema_of(columns, players=None):
    """Arrow schema of Columns, each field carrying its description in its metadata; a column
    named with SEAT becomes one column per seat (kept as one template without `players`)."""
    fields = []
    for c in columns:
        names = [c.name.replace(SEAT, str(i)) for i in range(players)] if SEAT in c.name and players else [c.name]
        fields += [pa.field(name, c.type, metadata={DESCRIPTION_KEY: c.description}) for name in names]
    return pa.schema(fields)


def check_output(path, overwrite):
    """Refuse an existing output unless overwrite; make the parent directory."""
    if os.path.isdir(path):
        raise OutputError(f"--out {path} is a directory")
    if os.path.exists(path) and not overwrite:
        raise OutputError(f"--out {path} exists (use --overwrite to replace it)")
    ensure_writable_dir(os.path.dirname(os.path.abspath(path)), path)


def ensure_writable_dir(directory, out, option="--out"):
    """Create `directory` if needed; OutputError (naming the option's value) unless it is writable."""
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{option} {out}: cannot create directory {directory} ({exc.strerror})") from None
    if not os.access(directory, os.W_OK):
        raise OutputError(f"{option} {out}: directory {directory} is not writable")


@contextmanager
def atomic_parquet(path, schema, metadata, dictionary_columns=()):
    """Context yielding write(batch); the file appears at `path` only if the block completes.

    zstd level 1, with dictionary encoding only for the given low-cardinality
    columns: card masks are incompressible, and trying dictionaries on them
    doubled the writing time.  Small batches (a double-dummy deal each) are
    gathered into row groups of ROW_GROUP_ROWS, which readers handle far better
    than many tiny ones.
    """
    schema = schema.with_metadata({METADATA_KEY: json.dumps(metadata, sort_keys=True).encode()})
    partial = path + ".partial"
    try:
        writer = pq.ParquetWriter(
            partial, schema, compression="zstd", compression_level=1, use_dictionary=list(dictionary_columns)
        )
    except OSError as exc:
        raise OutputError(f"--out {path}: cannot write ({exc})") from None
    _PARTIALS.add(partial)
    gathered = []
    rows = 0

    def flush():
        nonlocal rows
        writer.write_table(pa.Table.from_batches(gathered, schema=schema).combine_chunks())
        gathered.clear()
        rows = 0

    def write(batch):
        nonlocal rows
        gathered.append(batch)
        rows += batch.num_rows
        if rows >= ROW_GROUP_ROWS:
            flush()

    try:
        yield write
        if gathered:
            flush()
        writer.close()
        os.replace(partial, path)
    except BaseException:
        writer.close()
        if os.path.exists(partial):
            os.unlink(partial)
        raise
    finally:
        _PARTIALS.discard(partial)


def remove_partials():
    """Delete the partial files still being written (an interrupted process's last act)."""
    for partial in list(_PARTIALS):
        with suppress(OSError):
            os.unlink(partial)


def read_manifest(path):
    """The manifest of the run directory at `path` (a dict); OutputError if there is none.  Here,
    not in engine/parts.py, which writes run directories on top of this module's files."""
    try:
        with open(os.path.join(path, MANIFEST), encoding="utf-8") as fh:
            manifest = json.load(fh)
    except (OSError, ValueError):
        manifest = None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("parts"), list):
        raise OutputError(f"{path} is not a musim run directory (no readable {MANIFEST})")
    return manifest


def read_metadata(path):
    """The musim metadata dict stored in a run's Parquet schema (a file, or a run directory's)."""
    if os.path.isdir(path):
        return read_manifest(path)["metadata"]
    return json.loads(pq.read_schema(path).metadata[METADATA_KEY])
