"""Helpers shared by the benchmark scripts."""

import multiprocessing as mp
import time


def _serve(conn, fn):
    while True:
        args = conn.recv()
        t = time.perf_counter()
        result = fn(*args)
        conn.send((time.perf_counter() - t, result))


def prefaulted(tt):
    """The table with every page touched: a table made in a timed call would otherwise
    charge the first solves with its page faults (about 1.5 s for 512 MB here)."""
    for a in tt:
        a += 0
    return tt


class TimedWorker:
    """Runs fn(*args) in a long-lived forked child, giving up after `timeout` seconds.

    The child keeps its state between calls (the solver's transposition table: touching
    all of a fresh 512 MB table costs this machine about 1.5 s of page faults, which
    `musim run` pays once per worker, not per deal), so times are the solver's own.
    A call that times out kills the child; the next call forks a new one.  Forking keeps
    the parent's compiled kernels, so a child starts at once.  timeout <= 0 runs in
    this process, without a limit.  Make the child's state in an untimed first call."""

    def __init__(self, fn, timeout):
        self.fn, self.timeout, self.proc, self.conn = fn, timeout, None, None

    def __call__(self, *args):
        """(seconds, result), or (None, None) after the timeout."""
        if self.timeout <= 0:
            t = time.perf_counter()
            result = self.fn(*args)
            return time.perf_counter() - t, result
        if self.proc is None:
            ctx = mp.get_context("fork")
            self.conn, child = ctx.Pipe()
            self.proc = ctx.Process(target=_serve, args=(child, self.fn), daemon=True)
            self.proc.start()
        self.conn.send(args)
        if self.conn.poll(self.timeout):
            return self.conn.recv()
        self.proc.kill()
        self.proc.join()
        self.proc = None
        return None, None


def percentiles(values):
    """(median, 90th percentile, max) of a list, None entries (timeouts) counted as +inf."""
    xs = sorted(float("inf") if v is None else v for v in values)
    return xs[len(xs) // 2], xs[min(len(xs) - 1, int(0.9 * len(xs)))], xs[-1]


def fmt_seconds(x):
    return "> limit" if x == float("inf") else f"{x * 1000:,.1f} ms"
