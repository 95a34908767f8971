"""A run from its specification to its finished Parquet output and a summary.

Game-agnostic: the game (games/contract.py) supplies, per mode, a chunk size, a kernel
wrapper `simulate(start, count)` and a `to_batch(chunk)` converter with its schema
(job(spec)), and a summary accumulator fed those batches (make_summary(params)).
"""

import dataclasses
import hashlib
import os
import platform
import re
import secrets
import shlex
import time
from contextlib import ExitStack
from functools import partial

import numba
import numpy as np
import pyarrow.parquet as pq

from musim import __version__
from musim.compile import once
from musim.engine.dask import run_chunk
from musim.engine.engines import ordered
from musim.engine.errors import OutputError, SpecError
from musim.engine.key import result_key
from musim.engine.local import chunk_starts
from musim.engine.lock import describe, file_lock, holder
from musim.engine.parquet import atomic_parquet, check_output, read_manifest
from musim.engine.parts import RunDirectory, read_held
from musim.engine.seats import play_key, plays_exactly
from musim.engine.spec import RunSpec, checked, keyed_options
from musim.engine.stop import Stopped, listening
from musim.solver.version import node_count_params

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

    params = dataclasses.asdict(spec) | {"options": keyed_options(spec, game)}
    return {
        "musim_version": __version__,
        "result_version": game.result_version,
        "command": "run",
        "params": params,
        "seed": spec.seed,
        "policy": spec.play,
        "models": game.models(spec) if game.models else {},
        "rng": "SplitMix64 stream per item keyed by (seed, index); see musim/core/rng.py",
        "chunk_size": chunk_size,
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "pyarrow": pyarrow.__version__,
    }


def default_out(spec, game):
    """The directory a run without --out writes: runs/<game>-<players>p-<play>[-matches][-<option><value>...]
    -seed<seed>, naming each game option not at its default (`-dd-tricks4`; a flag by its name, `-teams`);
    <play> is the policy, or the seats' policies joined by commas (`mu-4p-random,heuristic,heuristic,heuristic`)."""
    kind = "-matches" if spec.mode == "matches" else ""
    changed = "".join(_changed(o, spec.options[o.name]) for o in game.options if spec.options[o.name] != o.default)
    return os.path.join(DEFAULT_DIR, f"{spec.game}-{spec.players}p-{spec.play}{kind}{changed}-seed{spec.seed}")


def _changed(option, value):
    """An option's part of a default run name: `-teams` for a flag set, `-no-teams` for one cleared,
    `-memory0.5`; a text value keeps letters, digits and `,=+-` (others become `_`); one
    `named_by_digest` (a table) shows the first 8 hex digits of its SHA-256, `-targets3f9a1c2b`."""
    name = option.flag[2:]
    if option.type is bool:
        return f"-{name}" if value else f"-no-{name}"
    if option.named_by_digest:
        return f"-{name}{hashlib.sha256(str(value).encode()).hexdigest()[:8]}"
    return f"-{name}{re.sub(r'[^A-Za-z0-9,=+-]', '_', value) if option.type is str else value}"


def _has_extension(path):
    """Does the name end in a file extension (`.csv`, not the `.5-seed1` of `memory0.5-seed1`)?"""
    return re.search(r"\.[A-Za-z][A-Za-z0-9]*$", os.path.basename(path.rstrip("/"))) is not None


def unfinished_text(path):
    """None for a finished run's output `path`; for an unfinished run directory, what it is
    (written by whom, or stopped and how to resume) and the rows written so far."""
    if not os.path.isdir(path):
        return None
    manifest = read_manifest(path)
    if manifest.get("complete"):
        return None
    spec = RunSpec(**manifest["metadata"]["params"])
    found = holder(path)
    if found is not None and not found["stale"]:
        state = f"being written by {describe(found)}"
    else:
        state = f"stopped (continue it with: {resume_command(spec, checked(spec))})"
    rows = sum(part["count"] for part in manifest["parts"] + manifest.get("held", []))
    return f"{path} is an unfinished run, {state}: {rows:,} of {spec.count:,} {spec.mode} so far"


def resume_command(spec, game):
    """The command line that continues `spec`'s stopped run directory."""
    args = ["musim", "run", "--game", spec.game, f"--{spec.mode}", spec.count, "--players", spec.players]
    args += ["--play", spec.play, "--seed", spec.seed]
    for option in game.options:
        value = spec.options[option.name]
        if option.type is bool:
            args += [option.flag] if value and value != option.default else []
        elif value != option.default:
            args += [option.flag, value]
    args += ["--out", spec.out, "--workers", spec.workers, "--engine", spec.engine]
    args += ["--tt-mb", spec.tt_mb] if plays_exactly(spec.play) else []
    args += ["--scheduler", spec.scheduler] if spec.scheduler else []
    return shlex.join([*map(str, args), "--resume"])


def run_key(spec, game):
    """The result key (engine/key.py) of a run's rows: what --resume must find unchanged (the
    table size and the search's version too under an option that makes rows depend on the
    search's node counts: Option.table_sized, solver/version.py; the search player's version
    where a seat plays `search`: seats.play_key)."""
    params = dict(mode=spec.mode, count=spec.count, players=spec.players, seed=spec.seed)
    params |= play_key(spec.play)
    if any(o.table_sized and spec.options[o.name] != o.default for o in game.options):
        params |= node_count_params(spec.tt_mb)
    return result_key(spec.game, params | {"options": keyed_options(spec, game)})


def execute(spec, progress=False, started=lambda: None, notify=lambda text: None, advice="", resume=False):
    """Run `spec` into its output (default_out(spec) without spec.out): a directory of parts
    (engine/parts.py), or one Parquet file for an --out ending in .parquet; yields the summary
    lines at the end.  `resume` continues an unfinished run directory.  SpecError
    (engine/errors.py) for parameters that do not fit the game, OutputError for an unusable
    output path; started() is called once the spec is found valid, before any deal runs;
    notify(text) gets the notice naming a default output, and that of a stop (engine/stop.py),
    which keeps every finished chunk and names the --resume command; `advice` follows the
    long-run estimate (musim.engine.progress)."""
    from musim.engine.progress import progress_bar

    game = checked(spec)
    if spec.seed is None and resume:
        raise SpecError("--resume: give the --seed of the run to continue")
    if spec.seed is None:
        spec.seed = secrets.randbits(63)
    if spec.workers is None:
        spec.workers = os.cpu_count() or 1
    named = not spec.out
    if named:
        spec.out = default_out(spec, game)
    job = game.job(spec)
    output = _open_output(spec, game, job, resume)  # refuses an output in use before it is named
    if named:
        notify(f"musim: writing the rows to {spec.out}/ (--out names another directory, or a .parquet file)")
    started()
    summary = game.make_summary(dataclasses.asdict(spec))
    held = output.held(partial(_is_chunk, spec.count, job.chunk_size, output.done))
    for path in output.finished_files():
        for batch in pq.ParquetFile(path).iter_batches(columns=summary.COLUMNS):
            summary.add(batch)
    remaining = spec.count - output.kept
    t0, compiled = time.perf_counter(), once.seconds()
    expected = game.estimate(dataclasses.replace(spec, count=remaining)) if game.estimate else None
    exact = plays_exactly(spec.play)
    bar = progress_bar(remaining, spec.mode[:-1], progress, advice=advice, expected=expected, exact=exact, leave=False)
    try:
        with listening():  # a signal once the last chunk is written lets the run finish (engine/stop.py)
            for batch in _ordered_batches(spec, job, output, held, bar.update):
                output.write(batch)
                summary.add(batch)
            output.finish(spec.count)
    except Stopped as stop:
        kept = output.stop(stop.finished)
        if kept is not None:
            notify(
                f"musim: stopped: {kept:,} of {spec.count:,} {spec.mode} kept in {output.dir}/ (those in flight "
                f"are dropped); continue with: {resume_command(spec, game)}"
            )
        raise
    except BaseException:
        output.abandon()
        raise
    finally:
        bar.close()
    compiled = once.seconds() - compiled
    elapsed = time.perf_counter() - t0 - compiled
    yield from summary.lines()
    rate = remaining / elapsed if elapsed > 0 else float("inf")
    shown = f"{rate:,.0f}" if rate >= 100 else f"{rate:.3g}"
    unit = spec.mode if spec.mode == "matches" else getattr(summary, "UNIT", "deal") + "s"  # Safarü: games
    resumed = f"; {spec.count - remaining:,} {unit} were already written" if resume else ""
    compiling = f"; {compiled:.1f} s of compiling kernels not counted" if compiled >= 0.05 else ""
    yield f"{_engine_text(spec)}, {elapsed:.2f} s ({shown} {unit}/s{resumed}{compiling}), written to {spec.out}"


def _open_output(spec, game, job, resume):
    """The run's output: a RunDirectory, or a SingleFile for an --out ending in .parquet."""
    meta = metadata(spec, game, job.chunk_size)
    if spec.out.lower().endswith(".parquet"):
        if resume:
            raise OutputError(
                f"--resume: {spec.out} is a single file; only a run directory (--out without .parquet) resumes"
            )
        return SingleFile(spec.out, job, meta, spec.overwrite)
    if _has_extension(spec.out):
        raise OutputError(
            f"--out {spec.out}: give a run directory (a name without extension) or a file ending in .parquet"
        )
    if os.path.isfile(spec.out):
        raise OutputError(f"--out {spec.out} is a file; a run directory needs a new name (or end it in .parquet)")
    return RunDirectory(spec.out, run_key(spec, game), job.schema, meta, job.dictionary_columns, resume, spec.overwrite)


class SingleFile:
    """A run into one Parquet file (engine/parquet.py): nothing resumes, the file appears whole or
    not at all; its one writer holds OUT.lock (engine/lock.py), as both would write OUT.partial."""

    done = kept = 0

    def __init__(self, out, job, meta, overwrite):
        check_output(out, overwrite)
        self.lock = file_lock(out)
        with ExitStack() as stack:  # the lock released if the file cannot be opened
            stack.callback(self.lock.release)
            self._write = stack.enter_context(atomic_parquet(out, job.schema, meta, job.dictionary_columns))
            self._stack = stack.pop_all()
        self.rows = 0

    def finished_files(self):
        return []

    def held(self, fits):
        return {}

    def write(self, batch):
        self._write(batch)
        self.rows += batch.num_rows

    def finish(self, total):
        """Rename the file into place once it holds the run's `total` rows and the lock is still ours."""
        if self.rows != total:
            raise OutputError(f"--out {self.lock.target}: {self.rows:,} rows written, not {total:,}: not kept")
        self.lock.check()
        self._stack.close()

    def abandon(self):
        self._stack.__exit__(KeyboardInterrupt, KeyboardInterrupt(), None)

    def stop(self, finished):
        """A stopped single file keeps nothing (None: no --resume to offer)."""
        self.abandon()


def _is_chunk(total, chunk_size, first, start, count):
    """Is (start, count) a chunk of a run of `total` items in chunks of `chunk_size` from `first`?"""
    return start >= first and (start - first) % chunk_size == 0 and count == min(chunk_size, total - start)


def _ordered_batches(spec, job, output, held, done):
    """The Arrow batch of each chunk after output.done, in chunk order: those `held` ({(start,
    count): path}) read back, the others from the spec's engine (done(count) as each of those
    finishes)."""
    if spec.engine == "dask":
        fn = partial(run_chunk, spec)
    else:
        fn = lambda start, count: job.to_batch(job.simulate(start, count))
    first = output.done  # grows as parts close
    chunks = lambda: chunk_starts(spec.count, job.chunk_size, first)
    computed = ordered(fn, (c for c in chunks() if c not in held), spec.workers, done, spec.engine, spec.scheduler)
    for chunk in chunks():
        if chunk in held:
            yield read_held(held[chunk])
        else:
            yield next(computed)


def _engine_text(spec):
    if spec.engine == "dask":
        return f"dask at {spec.scheduler}" if spec.scheduler else f"dask LocalCluster of {spec.workers} worker(s)"
    return f"{spec.workers} worker(s)"
