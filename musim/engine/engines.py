"""Where a job's chunks run: local threads (engine/local.py) or a Dask cluster (engine/dask.py).

Both compute fn(*chunk) for each chunk (start, count, any further arguments) and yield the
results in chunk order; a chunk's result depends on the chunk alone, so the engine never
changes a row.  For Dask, fn and the chunks travel to other processes: fn must be a
module-level function or a functools.partial of one, with picklable arguments.
"""

from musim.engine.local import run_ordered

ENGINES = ("local", "dask")


def ordered(fn, chunks, workers, done=None, engine="local", scheduler=None):
    """fn(*chunk) for each chunk, in order, on `engine` (`workers` threads, or on Dask: the
    cluster at `scheduler`, else a LocalCluster of `workers` processes); done(count) is called
    as each chunk finishes, in any order."""
    if engine == "dask":
        from musim.engine.dask import dask_ordered

        return dask_ordered(fn, chunks, workers, scheduler, done)
    return run_ordered(fn, chunks, workers, done=done)
