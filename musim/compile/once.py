"""Each kernel compiled once on a machine where processes share the cache, and the time compiling took.

Processes sharing a cache folder (pytest-xdist workers, a Dask LocalCluster, two commands
started together) compile the same kernels side by side, each minutes of CPU.  With
MUSIM_COMPILE_LOCK=1 in the environment when musim is imported, `compile_once` makes a dispatcher
take an inter-process file lock per kernel (fcntl.flock on <cache folder>/locks/<module>.<name>.lock)
around numba's compile, which looks in the on-disk cache only once it holds the lock: the second
process waits, then loads the first's machine code.  The lock also keeps two processes from
writing the kernel's cache index at once (numba rewrites it whole).  It is off by default: a
dispatcher whose compile is wrapped in Python compiles about twice as slowly in one process
(a cold `musim solve` of the examples: 54 s unwrapped, 110 s wrapped; docs/performance.md), which
is what a user's first command is.  The test suite turns it on (tests/conftest.py).

Deadlock: a kernel's lock is taken while compiling each kernel that calls it (numba compiles
a callee while typing its caller), so a process holds the locks of one call path, each a
caller of the next.  A cycle of processes each waiting for a lock another holds would make
a cycle of callers, which numba's call graph, a DAG, does not have; a kernel calling itself
re-enters its own lock (counted per process).  numba's process-wide compiler lock is taken
first, so that no thread of this process waits on a file lock another of its threads holds.

`seconds()` counts the time numba spends really compiling (its "numba:compile" events, the
outermost of nested ones; loading from the cache is not counted): rates and ETAs leave it out.
After `notice(text, say)` (musim/compile/notice.py) say(text) is called once when a kernel is
really compiled (or waited for), so that a command that would otherwise print nothing for
minutes says why at once, and a warm one says nothing.

numba internals relied on (tests/test_compile.py fails if they change): `_compile_for_args` and
`get_call_template` compile through `self.compile(sig)`, looked up on the dispatcher instance;
`Dispatcher.compile` looks in the on-disk cache before compiling, under
`numba.core.compiler_lock.global_compiler_lock` (re-entrant); the "numba:compile" event fires
only for a signature really compiled, nested for the kernels compiled while typing another.
"""

import fcntl
import os
import re
import time
from contextlib import contextmanager

import numba
from numba.core import event, sigutils
from numba.core.compiler_lock import global_compiler_lock

from musim.compile.notice import compiling

_held = {}  # lock path -> [file descriptor, depth] held by this process (under numba's compiler lock)
_state = {"depth": 0, "started": 0.0, "seconds": 0.0, "compiles": 0}
LOCKING = os.environ.get("MUSIM_COMPILE_LOCK") == "1"


def compile_once(dispatcher):
    """Make `dispatcher` (a cached numba kernel) compile under its inter-process lock where
    MUSIM_COMPILE_LOCK=1; returns it."""
    if not LOCKING:
        return dispatcher
    compile_now = dispatcher.compile
    name = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"
    name = re.sub(r"[^\w.-]", "_", name)

    def compile(sig):
        """numba's compile of `sig`, the kernel's file lock held unless it is compiled in this process already."""
        with global_compiler_lock:
            args, _ = sigutils.normalize_signature(sig)
            if tuple(args) in dispatcher.overloads:
                return compile_now(sig)
            with _file_lock(os.path.join(numba.config.CACHE_DIR, "locks", name + ".lock")):
                return compile_now(sig)

    dispatcher.compile = compile
    return dispatcher


@contextmanager
def _file_lock(path):
    """Hold the exclusive lock on `path` (re-entered by a kernel that calls itself)."""
    if path in _held:
        _held[path][1] += 1
    else:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # another process compiles this kernel: wait for it
            compiling()
            fcntl.flock(fd, fcntl.LOCK_EX)
        _held[path] = [fd, 1]
    try:
        yield
    finally:
        _held[path][1] -= 1
        if not _held[path][1]:
            os.close(_held.pop(path)[0])  # closing releases the lock


def seconds():
    """Seconds this process has spent compiling kernels (not loading them from the cache)."""
    return _state["seconds"]


def compiles():
    """How many kernel signatures this process has compiled (not loaded from the cache)."""
    return _state["compiles"]


class _Listener(event.Listener):
    """numba's compile event: it fires only for a kernel not found in the cache."""

    def on_start(self, ev):
        if not _state["depth"]:
            _state["started"] = time.perf_counter()
        _state["depth"] += 1
        _state["compiles"] += 1
        compiling()

    def on_end(self, ev):
        _state["depth"] -= 1
        if not _state["depth"]:
            _state["seconds"] += time.perf_counter() - _state["started"]


event.register("numba:compile", _Listener())
