"""Finished chunks kept on disk, so that a long run stopped part way continues where it was.

A double-dummy balance table at 4 or 5 players takes hours, and a few of its deals take
an hour each; a run that keeps nothing until every deal is done loses all of it when it
is stopped.  A chunk's arrays depend only on the job's parameters and the code, so each
finished chunk is saved under a directory named for both (a fingerprint of every source
file of the package: any change to the code starts afresh rather than mixing old rows
with new) and read back instead of recomputed.  Files appear whole or not at all.
"""

import hashlib
import os
from functools import cache
from pathlib import Path

import numpy as np

PACKAGE = Path(__file__).resolve().parent.parent


@cache
def code_fingerprint():
    """A hash of every source file of the package, by path and content."""
    h = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        h.update(str(path.relative_to(PACKAGE)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


class Checkpoint:
    """The saved chunks of one job (`params`: everything its results depend on) under `root`."""

    def __init__(self, root, **params):
        name = "-".join(f"{k}={params[k]}" for k in sorted(params))
        self.dir = os.path.join(root, code_fingerprint(), name)

    def _path(self, start, count):
        return os.path.join(self.dir, f"{start}+{count}.npz")

    def table_path(self, start, count):
        """Where the search table of this chunk's unfinished deal is kept (ddplay.save_table)."""
        return self._path(start, count)[: -len(".npz")] + ".table"

    def load(self, start, count):
        """The arrays saved for this chunk (a dict), or None."""
        try:
            with np.load(self._path(start, count)) as z:
                return {k: z[k] for k in z.files}
        except FileNotFoundError:
            return None

    def save(self, start, count, arrays):
        os.makedirs(self.dir, exist_ok=True)
        path = self._path(start, count)
        with open(path + ".partial", "wb") as fh:
            np.savez(fh, **arrays)
        os.replace(path + ".partial", path)
