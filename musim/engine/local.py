"""Run a job's fixed-size chunks on local worker threads and yield results in order.

Chunks are independent of the worker count (their size is a property of the
run), and each chunk's kernel releases the GIL, so threads give real
parallelism without pickling.  A bounded number of chunks is in flight, which
keeps memory flat however long the run: two per worker of large chunks, more of
small ones (a double-dummy run has one deal a chunk, so that its progress shows
deal by deal), so that one slow deal at the head of the queue does not leave the
other workers idle while its results wait to be yielded in order.
"""

from collections import deque
from concurrent.futures import ThreadPoolExecutor, wait
from functools import partial

from musim.engine.progress import reporting
from musim.engine.stop import awaited, listening

IN_FLIGHT_ITEMS = 4096  # deals (samples, hands) in flight per worker: 2 chunks at least, MAX_AHEAD at most
MAX_AHEAD = 64


def chunk_starts(total, chunk_size, first=0):
    """(start, count) of each chunk covering first..total-1 (first: a chunk boundary), made as
    they are needed."""
    return ((s, min(chunk_size, total - s)) for s in range(first, total, chunk_size))


def run_ordered(fn, chunks, workers, done=None):
    """Yield fn(*chunk) for each chunk (start, count, any further arguments), in chunk order,
    computed on `workers` threads.

    Even one worker runs off the calling thread, so that the caller's writing
    overlaps the computing.  `done(count)`, if given, is called on the worker thread
    as deals finish, in any order: for each slice a kernel wrapper reports
    (musim.engine.progress.slices), and for the rest of each chunk as it finishes, so that a
    progress bar fed by it moves while a chunk runs, and while a slow deal holds back
    the results behind it.  A stop (engine/stop.py) raises Stopped with the chunks
    finished but not yet yielded.
    """
    pool = ThreadPoolExecutor(max_workers=workers)
    pending = deque()
    limit = 0
    result = lambda: awaited(pending, lambda future, seconds: not wait([future], seconds).not_done)
    try:
        with listening():
            for chunk in chunks:
                count = chunk[1]
                if not limit:  # sized by the first chunk, the largest
                    limit = workers * max(2, min(MAX_AHEAD, IN_FLIGHT_ITEMS // count))
                pending.append((chunk, pool.submit(fn if done is None else partial(_counted, fn, done), *chunk)))
                if len(pending) >= limit:
                    yield result()
            while pending:
                yield result()
    except BaseException:
        # an interrupt (or an error) must not wait for the chunks in flight: a double-dummy
        # deal can take hours.  The caller exits; the threads die with the process.
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _counted(fn, done, *chunk):
    """fn(*chunk), passing on to done what it reports done, and the rest of the chunk at its end."""
    with reporting(done) as reported:
        result = fn(*chunk)
    if chunk[1] > reported.count:
        done(chunk[1] - reported.count)
    return result
