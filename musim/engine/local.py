"""Run a job's fixed-size chunks on local worker threads and yield results in order.

Chunks are independent of the worker count (their size is a property of the
run), and each chunk's kernel releases the GIL, so threads give real
parallelism without pickling; at most 2 x workers chunks are in flight, which
keeps memory flat however long the run.
"""
from collections import deque
from concurrent.futures import ThreadPoolExecutor


def chunk_starts(total, chunk_size):
    """(start, count) of each chunk covering 0..total-1."""
    return [(s, min(chunk_size, total - s)) for s in range(0, total, chunk_size)]


def run_ordered(fn, chunks, workers):
    """Yield fn(start, count) for each chunk, in chunk order, computed on `workers` threads.

    Even one worker runs off the calling thread, so that the caller's writing
    overlaps the computing.
    """
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending = deque()
        try:
            for start, count in chunks:
                pending.append(pool.submit(fn, start, count))
                if len(pending) >= 2 * workers:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            for fut in pending:
                fut.cancel()
