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
"""

import json
import os
import shutil
import time
from contextlib import ExitStack

from musim.engine.errors import OutputError
from musim.engine.parquet import MANIFEST, atomic_parquet, ensure_writable_dir, read_manifest

PARTIAL = ".partial"  # suffix of an unfinished run's directory
PART_ROWS = 1 << 18  # a part closes at the first chunk boundary past this many rows ...
PART_SECONDS = 120.0  # ... or this long after it opened (slow double-dummy runs keep their progress)


def is_run_dir(path):
    """Does `path` hold a musim run directory (finished or not)?"""
    return os.path.isfile(os.path.join(path, MANIFEST))


def run_files(path):
    """The Parquet files of a run's output `path` (a file, or a run directory's parts in row order)."""
    if not os.path.isdir(path):
        return [path]
    return [os.path.join(path, part["file"]) for part in read_manifest(path)["parts"]]


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
        self.metadata = self.manifest["metadata"]
        self.done = sum(part["count"] for part in self.manifest["parts"])
        self._stack = None
        self._rows = 0

    def _check_fresh(self, overwrite):
        for path in (self.out, self.dir):
            if os.path.exists(path) and not (overwrite and is_run_dir(path)):
                raise OutputError(_exists_message(path, overwrite))
        for path in (self.out, self.dir):
            if os.path.exists(path):
                shutil.rmtree(path)
        ensure_writable_dir(self.dir, self.out)

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
        kept = {MANIFEST, *(part["file"] for part in manifest["parts"])}
        for name in os.listdir(self.dir):  # parts begun or renamed but not recorded: rewritten below
            if name not in kept:
                os.unlink(os.path.join(self.dir, name))
        return manifest

    def finished_files(self):
        return [os.path.join(self.dir, part["file"]) for part in self.manifest["parts"]]

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
        self._stack.close()  # renames the part into place
        self._stack = None
        self._part["count"] = self._rows
        self.done += self._rows
        self.manifest["parts"].append(self._part)
        self._save_manifest()

    def finish(self):
        """Close the last part and move the whole run to `out`."""
        if self._stack is not None:
            self._close_part()
        self.manifest["complete"] = True
        self._save_manifest()
        os.replace(self.dir, self.out)

    def abandon(self):
        """Drop the part being written (finished parts stay, for --resume)."""
        if self._stack is not None:
            stack, self._stack = self._stack, None
            stack.__exit__(KeyboardInterrupt, KeyboardInterrupt(), None)

    def _save_manifest(self):
        path = os.path.join(self.dir, MANIFEST)
        with open(path + PARTIAL, "w", encoding="utf-8") as fh:
            json.dump(self.manifest, fh, indent=1)
        os.replace(path + PARTIAL, path)


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
