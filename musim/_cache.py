"""Keep numba's on-disk cache coherent with the whole package.

numba keys a cached kernel on its own source file only, so a kernel that
inlines or calls a kernel from another module keeps stale machine code after
that module changes.  Unless the user chose NUMBA_CACHE_DIR, musim's kernels
are cached under a directory named by a hash of every musim source file:
any change to the package starts a fresh cache.
"""

import hashlib
import os
from pathlib import Path


def source_digest():
    """Short hash of all musim .py sources (names and contents)."""
    h = hashlib.sha256()
    root = Path(__file__).resolve().parent
    for path in sorted(root.rglob("*.py")):
        h.update(str(path.relative_to(root)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def configure():
    """Point numba's cache at a per-source-version directory, unless NUMBA_CACHE_DIR is set."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    import numba

    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "musim" / "numba"
    numba.config.CACHE_DIR = str(base / source_digest())
