"""Helpers shared by the benchmark scripts."""
import multiprocessing as mp
import time


def _child(conn, fn, args):
    t = time.perf_counter()
    result = fn(*args)
    conn.send((time.perf_counter() - t, result))


def call_with_timeout(fn, args, timeout):
    """(seconds, result) of fn(*args) in a forked child, or (None, None) after `timeout` s.

    Forking keeps the parent's compiled kernels, so the child starts at once; its
    fresh transposition table costs some page faults (tens of ms).  timeout <= 0
    runs in this process, without a limit."""
    if timeout <= 0:
        t = time.perf_counter()
        result = fn(*args)
        return time.perf_counter() - t, result
    parent, child = mp.get_context("fork").Pipe(duplex=False)
    proc = mp.get_context("fork").Process(target=_child, args=(child, fn, args))
    proc.start()
    if parent.poll(timeout):
        out = parent.recv()
        proc.join()
        return out
    proc.kill()
    proc.join()
    return None, None


def percentiles(values):
    """(median, 90th percentile, max) of a list, None entries (timeouts) counted as +inf."""
    xs = sorted(float("inf") if v is None else v for v in values)
    return xs[len(xs) // 2], xs[min(len(xs) - 1, int(0.9 * len(xs)))], xs[-1]


def fmt_seconds(x):
    return "> limit" if x == float("inf") else f"{x * 1000:,.1f} ms"
