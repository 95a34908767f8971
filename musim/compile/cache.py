"""Keep numba's on-disk cache coherent with the whole package.

numba keys a cached kernel on its own source file only, so a kernel that
inlines or calls a kernel from another module keeps stale machine code after
that module changes.  musim's kernels are therefore cached in a folder named by
a hash of every musim source file, under NUMBA_CACHE_DIR if the user set it
(else under the user's cache directory): any change to the package starts a
fresh cache.
"""

import hashlib
import os
from pathlib import Path


def source_digest():
    """Short hash of all musim .py sources (names and contents)."""
    h = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent  # the musim package
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_dir(environ=os.environ):
    """The folder of this source version's kernels: <NUMBA_CACHE_DIR or
    $XDG_CACHE_HOME/musim/numba>/<source digest>."""
    base = (
        environ.get("NUMBA_CACHE_DIR")
        or Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "musim" / "numba"
    )
    return Path(base) / source_digest()


def configure():
    """Point numba's cache at this source version's folder."""
    import numba

    numba.config.CACHE_DIR = str(cache_dir())
