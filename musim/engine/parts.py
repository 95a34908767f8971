"""A run's rows as a directory of Parquet parts, so that a run of hours survives a crash or a stop.

While a run goes on, its rows go to OUT.partial/: finished parts part-000000.parquet, ...
(each holds many chunks: a million heuristic deals make a handful of files, a double-dummy
run closes a part every few minutes), each written under a temporary name and renamed when
whole, and _manifest.json, which names the finished parts and the run's key (engine/key.py).
After the last part the directory is renamed to OUT, so a directory at OUT is always a whole
run; pyarrow, pandas and musim.read_run read it as one table (they skip names beginning with
`_` or `.`).  `--resume` continues OUT.partial/ after its last finished part, once its key
shows it is the same run: chunks are keyed by (seed, index), so the rows are those of an
uninterrupted run.

One process writes the directory: it holds OUT.partial/_lock.json (engine/lock.py).  A stop
(Ctrl-C, SIGTERM: engine/stop.py) closes the open part with the chunks written so far, and
keeps each chunk that finished behind one still in flight as a held file (_held-*.parquet,
listed under "held" in the manifest), which --resume writes in its place instead of
computing it again.
"""

import json
import os
import shutil
import time
from contextlib import ExitStack

import pyarrow.parquet as pq

from musim.engine.errors import OutputError
from musim.engine.lock import LOCK, DirectoryLock, describe, holder
from musim.engine.parquet import MANIFEST, atomic_parquet, ensure_writable_dir, read_manifest

PARTIAL = ".partial"  # suffix of an unfinished run's directory
PART_ROWS = 1 << 18  # a part closes at the first chunk boundary past this many rows ...
PART_SECONDS = 120.0  # ... or this long after it opened (slow double-dummy runs keep their progress)


def is_run_dir(path):
    """Does `path` hold a musim run directory (finished or not)?"""
    return os.path.isfile(os.path.join(path, MANIFEST))


def run_files(path):
    """The Parquet files of a run's output `path` (a file, or a run directory's parts in row order,
    then the chunks an unfinished one holds out of order)."""
    if not os.path.isdir(path):
        return [path]
    manifest = read_manifest(path)
    return [os.path.join(path, part["file"]) for part in manifest["parts"] + manifest.get("held", [])]


class RunDirectory:
    """The output directory of one run: `done` items are in finished parts; write(batch) adds
    rows; finish() renames the directory into place once every item is written."""

    def __init__(self, out, key, schema, metadata, dictionary_columns=(), resume=False, overwrite=False):
        self.out, self.dir = out, out + PARTIAL
        self.schema, self.dictionary_columns = schema, dictionary_columns
        if resume:
            self.manifest = self._resumed(key)
        else:
            self._check_fresh(overwrite)
            self.manifest = {"key": key, "metadata": metadata, "complete": False, "parts": []}
            self._save_manifest()
        self.manifest.setdefault("held", [])
        self.metadata = self.manifest["metadata"]
        self.done = sum(part["count"] for part in self.manifest["parts"])
        self._stack = None
        self._rows = 0

    def _check_fresh(self, overwrite):
        """Refuse an existing output unless `overwrite`; lock OUT.partial/, then (so that a writer
        who came meanwhile is refused, not deleted) empty it and delete OUT."""
        _refuse_if_held(self.dir)
        for path in (self.out, self.dir):
            if os.path.exists(path) and not (overwrite and is_run_dir(path)):
                raise OutputError(_exists_message(path, overwrite))
        ensure_writable_dir(self.dir, self.out)
        self.lock = DirectoryLock(self.dir)
        if os.path.exists(self.out):
            shutil.rmtree(self.out)
        for name in os.listdir(self.dir):
            path = os.path.join(self.dir, name)
            if path != self.lock.path:
                shutil.rmtree(path) if os.path.isdir(path) else os.unlink(path)

    def _resumed(self, key):
        if not os.path.exists(self.dir):
            if is_run_dir(self.out):
                raise OutputError(f"--resume: {self.out} is a finished run: nothing to resume")
            raise OutputError(f"--resume: no unfinished run at {self.dir}")
        manifest = read_manifest(self.dir)
        if manifest.get("key") != key:
            raise OutputError(f"--resume: {self.dir} was started with other parameters ({_difference(manifest, key)})")
        if not os.access(self.dir, os.W_OK):
            raise OutputError(f"--resume: {self.dir} is not writable")
        self.lock = DirectoryLock(self.dir)
        manifest = read_manifest(self.dir)  # as the last writer left it
        kept = {MANIFEST, *(part["file"] for part in manifest["parts"] + manifest.get("held", []))}
        for name in os.listdir(self.dir):  # parts begun or renamed but not recorded: rewritten below
            if name not in kept and not name.startswith(LOCK):
                os.unlink(os.path.join(self.dir, name))
        return manifest

    def finished_files(self):
        return [os.path.join(self.dir, part["file"]) for part in self.manifest["parts"]]

    @property
    def kept(self):
        """Items written: those in finished parts and those held."""
        return self.done + sum(held["count"] for held in self.manifest["held"])

    def held(self, fits):
        """{(first item, count): path} of the chunks a stopped run kept out of order (module doc)
        that are chunks of this one (fits(first, count)); the others (kept at another chunk
        size) are deleted, to be computed again."""
        unfit = [held for held in self.manifest["held"] if not fits(held["first"], held["count"])]
        if unfit:
            self.manifest["held"] = [held for held in self.manifest["held"] if held not in unfit]
            self._save_manifest()
            for held in unfit:
                os.unlink(os.path.join(self.dir, held["file"]))
        return {(held["first"], held["count"]): os.path.join(self.dir, held["file"]) for held in self.manifest["held"]}

    def write(self, batch):
        """Add a chunk's rows; closes the part at this chunk boundary once it is large or old enough."""
        if self._stack is None:
            self._open_part()
        self._write(batch)
        self._rows += batch.num_rows
        if self._rows >= PART_ROWS or time.monotonic() - self._opened >= PART_SECONDS:
            self._close_part()

    def _open_part(self):
        name = f"part-{len(self.manifest['parts']):06d}.parquet"
        self._part = {"file": name, "first": self.done, "count": 0}
        self._stack = ExitStack()
        path = os.path.join(self.dir, name)
        self._write = self._stack.enter_context(
            atomic_parquet(path, self.schema, self.metadata, self.dictionary_columns)
        )
        self._opened = time.monotonic()
        self._rows = 0

    def _close_part(self):
        self.lock.check()
        self._stack.close()  # renames the part into place
        self._stack = None
        self._part["count"] = self._rows
        self.done += self._rows
        self._rows = 0
        self.manifest["parts"].append(self._part)
        written = [held for held in self.manifest["held"] if held["first"] < self.done]
        self.manifest["held"] = [held for held in self.manifest["held"] if held["first"] >= self.done]
        self._save_manifest()
        for held in written:
            os.unlink(os.path.join(self.dir, held["file"]))

    def finish(self, total):
        """Close the last part and move the whole run to `out`, once its parts are found to hold
        rows 0..total-1 in order (OutputError, and the run stays unfinished, if not)."""
        if self._stack is not None:
            self._close_part()
        rows = 0
        for part in self.manifest["parts"]:
            path = os.path.join(self.dir, part["file"])
            if part["first"] != rows or pq.ParquetFile(path).metadata.num_rows != part["count"]:
                raise OutputError(f"--out {self.dir}: {part['file']} is not rows {rows:,}.. of the run: not finished")
            rows += part["count"]
        if rows != total:
            raise OutputError(f"--out {self.dir}: its parts hold {rows:,} rows, not {total:,}: not finished")
        self.manifest["complete"] = True
        del self.manifest["held"]  # none left: every chunk is in a part
        self._save_manifest()
        os.replace(self.dir, self.out)
        self.lock.release(moved_to=self.out)

    def abandon(self):
        """Drop the part being written (finished parts stay, for --resume)."""
        if self._stack is not None:
            stack, self._stack = self._stack, None
            stack.__exit__(KeyboardInterrupt, KeyboardInterrupt(), None)
        self.lock.release()

    def stop(self, finished):
        """Keep what a stopped run finished: the rows written so far and `finished` ((start,
        count), batch), the chunks done but not yet written, in order: those that follow the
        written rows close the open part, the others are held.  Returns the items kept."""
        for (start, count, *_), batch in finished:
            if start == self.done + self._rows:
                self.write(batch)
            else:
                name = f"_held-{start:012d}+{count}.parquet"
                with atomic_parquet(os.path.join(self.dir, name), self.schema, self.metadata) as write:
                    write(batch)
                self.manifest["held"].append({"file": name, "first": start, "count": count})
        if self._stack is not None:
            self._close_part()
        self._save_manifest()
        self.lock.release()
        return self.kept

    def _save_manifest(self):
        self.lock.check()
        path = os.path.join(self.dir, MANIFEST)
        with open(path + PARTIAL, "w", encoding="utf-8") as fh:
            json.dump(self.manifest, fh, indent=1)
        os.replace(path + PARTIAL, path)


def read_held(path):
    """The batch of a held chunk's file."""
    return pq.read_table(path).combine_chunks().to_batches()[0]


def _refuse_if_held(directory):
    """OutputError if a live process writes `directory` (engine/lock.py)."""
    found = holder(directory) if os.path.isdir(directory) else None
    if found is not None and not found["stale"]:
        raise OutputError(f"--out {directory} is being written by {describe(found)}")


def _exists_message(path, overwrite):
    if path.endswith(PARTIAL):
        return f"--out: {path} holds an unfinished run: continue it with --resume, or replace it with --overwrite"
    if overwrite:
        return f"--out {path} exists and is not a musim run directory: not replaced"
    return f"--out {path} exists (use --overwrite to replace it)"


def _difference(manifest, key):
    """The parameters in which the saved run's key differs from `key`, as text."""
    old = manifest.get("key") if isinstance(manifest.get("key"), dict) else {}
    flat_old = {**old.get("params", {}), **{k: v for k, v in old.items() if k != "params"}}
    flat_new = {**key["params"], **{k: v for k, v in key.items() if k != "params"}}
    diffs = [f"{k}: {flat_old.get(k)!r}, not {flat_new.get(k)!r}" for k in flat_new if flat_old.get(k) != flat_new[k]]
    return "; ".join(diffs) or "a foreign key"
