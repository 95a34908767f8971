"""The Dask engine: chunks as tasks on a dask.distributed cluster, results in chunk order.

Each task is one chunk.  A run's chunk is computed by a worker from the RunSpec alone
(run_chunk: the worker builds the game's Job once and keeps it, and with it each worker
thread's solver table, between tasks; the table is made independent of earlier deals before
each deal, as on local threads).  A
chunk's rows depend only on (seed, index), so they are the same on any worker, any number of
them, and after Dask re-runs the tasks of a lost worker; the client writes each chunk once.
Without a scheduler address the engine starts a LocalCluster of `workers` single-threaded
processes on this machine.
"""

import logging
from collections import deque
from contextlib import ExitStack

from musim.engine.errors import EngineError
from musim.engine.stop import Stopped, awaited, listening

IN_FLIGHT_PER_WORKER = 4  # tasks queued per worker thread: enough to hide a task's round trip
_jobs = {}  # the Job of each spec a worker has run, by repr of the spec


def run_chunk(spec, start, count):
    """A worker's task: the Arrow batch of chunk (start, count) of `spec`'s run."""
    key = repr(spec)
    if key not in _jobs:
        from musim.engine.spec import checked

        _jobs[key] = checked(spec).job(spec)
    job = _jobs[key]
    return job.to_batch(job.simulate(start, count))


def dask_ordered(fn, chunks, workers, scheduler=None, done=None):
    """Yield fn(*chunk) for each chunk in order, computed on the cluster at `scheduler` (a
    LocalCluster of `workers` single-threaded processes if None); done(count) as each chunk
    finishes."""
    from dask.distributed import Client, LocalCluster

    with ExitStack() as stack:
        try:
            if scheduler:
                client = stack.enter_context(Client(scheduler, timeout="10s"))
            else:
                cluster = LocalCluster(
                    n_workers=workers, threads_per_worker=1, dashboard_address=None, silence_logs=logging.ERROR
                )
                client = stack.enter_context(Client(stack.enter_context(cluster)))
        except OSError as exc:
            raise EngineError(f"--scheduler {scheduler}: cannot connect ({exc})") from None
        threads = max(1, sum(client.nthreads().values()))
        try:
            yield from _in_order(client, fn, chunks, threads * IN_FLIGHT_PER_WORKER, done)
        except Stopped:
            stack.pop_all()  # the process exits next: closing the cluster would only delay the stop
            raise


def _in_order(client, fn, chunks, limit, done):
    pending = deque()
    with listening():
        for chunk in chunks:
            future = client.submit(fn, *chunk, pure=False)
            if done is not None:
                future.add_done_callback(lambda f, c=chunk[1]: f.status == "finished" and done(c))
            pending.append((chunk, future))
            if len(pending) >= limit:
                yield awaited(pending, _wait)
        while pending:
            yield awaited(pending, _wait)


def _wait(future, seconds):
    """Is `future` done within `seconds`?"""
    from dask.distributed import wait

    try:
        wait(future, timeout=seconds)
    except TimeoutError:
        return False
    return True
