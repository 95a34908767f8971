"""A pytest plugin for bench_xdist_compile.py: each process (the xdist controller and each worker)
appends to $COUNT_COMPILES_TO the kernels numba compiled in it (not those loaded from the cache),
one `pid compiles seconds` line at the end of its session."""

import os
import time

from numba.core import event

_count = {"compiles": 0, "seconds": 0.0, "depth": 0, "started": 0.0}


class _Counter(event.Listener):
    """numba's compile event fires once for each signature it compiles (nested ones too)."""

    def on_start(self, ev):
        _count["compiles"] += 1
        if not _count["depth"]:
            _count["started"] = time.perf_counter()
        _count["depth"] += 1

    def on_end(self, ev):
        _count["depth"] -= 1
        if not _count["depth"]:
            _count["seconds"] += time.perf_counter() - _count["started"]


event.register("numba:compile", _Counter())


def pytest_sessionfinish(session):
    with open(os.environ["COUNT_COMPILES_TO"], "a") as out:
        out.write(f"{os.getpid()} {_count['compiles']} {_count['seconds']:.1f}\n")
