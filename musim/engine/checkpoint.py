"""Finished chunks kept on disk, so that a long run stopped part way continues where it was.

A double-dummy balance table at 4 or 5 players takes hours, and a few of its deals take
an hour each; a run that keeps nothing until every deal is done loses all of it when it
is stopped.  A chunk's arrays depend only on the job's result key (engine/key.py), so each
finished chunk is saved under a directory named for the key's hash, with the key in key.json
beside the chunks, and read back instead of recomputed.  Files appear whole or not at all.
"""

import json
import os

import numpy as np

from musim.engine.key import KEY_FILE, key_hash


class Checkpoint:
    """The saved chunks of one job under `root`; `key`: its result key (engine/key.py), which
    leaves out the chunk's range (each chunk file is named by its first item and count).
    Creates the directory with its key.json."""

    def __init__(self, root, key):
        self.dir = key_folder(root, key)
        os.makedirs(self.dir, exist_ok=True)
        _write_whole(os.path.join(self.dir, KEY_FILE), lambda fh: fh.write(json.dumps(key, indent=2).encode()))

    def _path(self, start, count):
        return os.path.join(self.dir, f"{start}+{count}.npz")

    def load(self, start, count):
        """The arrays saved for this chunk (a dict), or None."""
        try:
            with np.load(self._path(start, count)) as z:
                return {k: z[k] for k in z.files}
        except FileNotFoundError:
            return None

    def save(self, start, count, arrays):
        _write_whole(self._path(start, count), lambda fh: np.savez(fh, **arrays))


def key_folder(root, key):
    """The directory under `root` of the job whose result key is `key` (its writer locks it alone:
    engine/lock.py)."""
    return os.path.join(root, key_hash(key))


def _write_whole(path, write):
    """write(file) to `path` by way of a partial file, so that the path holds all or nothing."""
    with open(path + ".partial", "wb") as fh:
        write(fh)
    os.replace(path + ".partial", path)
