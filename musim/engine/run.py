"""A run from its specification to a finished Parquet file and a summary.

Game-agnostic: the game (games/contract.py) supplies, per mode, a chunk size, a kernel
wrapper `simulate(start, count)` and a `to_batch(chunk)` converter with its schema
(job(spec)), and a summary accumulator fed those batches (make_summary(params)).
"""

import dataclasses
import os
import platform
import secrets
import time

import numba
import numpy as np

from musim import __version__
from musim.engine.errors import OutputError
from musim.engine.local import chunk_starts, run_ordered
from musim.engine.parquet import atomic_parquet, check_output
from musim.engine.spec import checked

DEFAULT_DIR = "runs"  # where a run without --out writes, relative to the current directory


@dataclasses.dataclass
class Job:
    """What a game supplies to run a spec: chunking, kernel wrapper, Arrow conversion."""

    chunk_size: int
    simulate: object  # (start, count) -> chunk with a .count
    to_batch: object  # chunk -> pyarrow.RecordBatch
    schema: object
    dictionary_columns: tuple = ()  # low-cardinality columns worth dictionary-encoding


def metadata(spec, game, chunk_size):
    """Provenance stored in the Parquet schema: enough to reproduce the file exactly."""
    import pyarrow

    params = dataclasses.asdict(spec)
    return {
        "musim_version": __version__,
        "result_version": game.result_version,
        "command": "run",
        "params": params,
        "seed": spec.seed,
        "policy": spec.play,
        "rng": "SplitMix64 stream per item keyed by (seed, index); see musim/rng.py",
        "chunk_size": chunk_size,
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "pyarrow": pyarrow.__version__,
    }


def default_out(spec, game):
    """The file a run without --out writes: runs/<game>-<players>p-<play>[-matches][-<option><value>...]
    -seed<seed>.parquet, naming each game option not at its default (`-dd-tricks4`)."""
    kind = "-matches" if spec.mode == "matches" else ""
    changed = "".join(f"-{o.flag[2:]}{spec.options[o.name]}" for o in game.options if spec.options[o.name] != o.default)
    return os.path.join(DEFAULT_DIR, f"{spec.game}-{spec.players}p-{spec.play}{kind}{changed}-seed{spec.seed}.parquet")


def execute(spec, progress=False, started=lambda: None, notify=lambda text: None, advice=""):
    """Run `spec` into its Parquet file (default_out(spec) without spec.out); yields the summary
    lines at the end.  SpecError (engine/errors.py) for parameters that do not fit the game,
    OutputError for an unusable output path; started() is called once the spec
    is found valid, before any deal runs; notify(text) gets the notice naming a default output;
    `advice` follows the long-run estimate (musim.progress)."""
    from musim.progress import progress_bar

    game = checked(spec)
    if spec.seed is None:
        spec.seed = secrets.randbits(63)
    if spec.workers is None:
        spec.workers = os.cpu_count() or 1
    if not spec.out:
        spec.out = default_out(spec, game)
        notify(f"musim: writing the rows to {spec.out} (--out names another file)")
    if not spec.out.lower().endswith(".parquet"):
        raise OutputError(f"--out {spec.out}: the output is Parquet; give a file name ending in .parquet")
    check_output(spec.out, spec.overwrite)
    started()
    job = game.job(spec)
    summary = game.make_summary(dataclasses.asdict(spec))
    t0 = time.perf_counter()
    bar = progress_bar(spec.count, spec.mode[:-1], progress, advice=advice, leave=False)
    results = run_ordered(job.simulate, chunk_starts(spec.count, job.chunk_size), spec.workers, done=bar.update)
    try:
        with atomic_parquet(
            spec.out, job.schema, metadata(spec, game, job.chunk_size), job.dictionary_columns
        ) as write:
            for chunk in results:
                batch = job.to_batch(chunk)
                write(batch)
                summary.add(batch)
    finally:
        bar.close()
    elapsed = time.perf_counter() - t0
    yield from summary.lines()
    rate = spec.count / elapsed if elapsed > 0 else float("inf")
    shown = f"{rate:,.0f}" if rate >= 100 else f"{rate:.3g}"
    yield f"{spec.workers} worker(s), {elapsed:.2f} s ({shown} {spec.mode}/s), written to {spec.out}"
