"""A run from its specification to a finished Parquet file and a summary.

Game-agnostic: the game module supplies, per mode, a chunk size, a kernel
wrapper `simulate(spec, start, count)`, a `to_batch(chunk)` converter with its
schema, and a summary accumulator.
"""

import contextlib
import dataclasses
import os
import platform
import secrets
import time

import numba
import numpy as np

from musim import __version__
from musim.engine.local import chunk_starts, run_ordered
from musim.engine.parquet import OutputError, atomic_parquet, check_output


@dataclasses.dataclass
class RunSpec:
    """Everything that determines a run's rows (and how it is executed)."""

    game: str
    mode: str  # "deals" or "matches"
    count: int
    players: int
    play: str
    seed: int | None = None
    workers: int | None = None
    goal: int = 200
    tt_mb: int = 256
    dd_tricks: int = 0
    out: str | None = None
    overwrite: bool = False


@dataclasses.dataclass
class Job:
    """What a game supplies to run a spec: chunking, kernel wrapper, Arrow conversion, summary."""

    chunk_size: int
    simulate: object  # (start, count) -> chunk with a .count
    to_batch: object  # chunk -> pyarrow.RecordBatch
    schema: object
    summary: object  # () -> accumulator with add(chunk) and lines()
    dictionary_columns: tuple = ()  # low-cardinality columns worth dictionary-encoding


def metadata(spec, chunk_size):
    """Provenance stored in the Parquet schema: enough to reproduce the file exactly."""
    params = dataclasses.asdict(spec)
    return {
        "musim_version": __version__,
        "command": "run",
        "params": params,
        "seed": spec.seed,
        "policy": spec.play,
        "rng": "SplitMix64 stream per item keyed by (seed, index); see musim/rng.py",
        "chunk_size": chunk_size,
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
    }


@contextlib.contextmanager
def _output_errors():
    """Report an unusable output path as a one-line click error."""
    import click

    try:
        yield
    except OutputError as exc:
        raise click.ClickException(str(exc)) from None


def execute(spec, progress=False, started=lambda: None):
    """Run `spec`; yields summary lines at the end.  Raises click errors for bad output paths;
    started() is called once the spec is found valid, before any deal runs."""
    import click

    from musim.games import get_game
    from musim.progress import progress_bar

    game = get_game(spec.game)
    if spec.seed is None:
        spec.seed = secrets.randbits(63)
    if spec.workers is None:
        spec.workers = os.cpu_count() or 1
    if spec.out:
        try:
            check_output(spec.out, spec.overwrite)
        except OutputError as exc:
            raise click.UsageError(str(exc)) from None
    started()
    job = game.job(spec)
    chunks = chunk_starts(spec.count, job.chunk_size)
    summary = job.summary()
    t0 = time.perf_counter()
    bar = progress_bar(spec.count, spec.mode[:-1], progress, leave=False)
    results = run_ordered(job.simulate, chunks, spec.workers, done=bar.update)
    try:
        if spec.out:
            with (
                _output_errors(),
                atomic_parquet(spec.out, job.schema, metadata(spec, job.chunk_size), job.dictionary_columns) as write,
            ):
                for chunk in results:
                    write(job.to_batch(chunk))
                    summary.add(chunk)
        else:
            for chunk in results:
                summary.add(chunk)
    finally:
        bar.close()
    elapsed = time.perf_counter() - t0
    yield from summary.lines()
    rate = spec.count / elapsed if elapsed > 0 else float("inf")
    shown = f"{rate:,.0f}" if rate >= 100 else f"{rate:.3g}"
    yield (
        f"seed {spec.seed}, {spec.workers} worker(s), {elapsed:.2f} s ({shown} {spec.mode}/s)"
        + (f", written to {spec.out}" if spec.out else "")
    )
