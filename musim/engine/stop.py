"""A stop (Ctrl-C, SIGTERM) that keeps every finished chunk.

The CLI's main thread handles the signal; while an engine yields a job's chunks (LISTENING)
it sets STOP and gives the command's thread time to save.  The engine, waiting for the
chunk at the head of its queue in short steps, then raises Stopped with the chunks that
finished behind it, so that the run can keep them (engine/run.py); the chunks still in
flight are dropped and redone by --resume.
"""

import threading
from contextlib import contextmanager

STOP = threading.Event()  # set by the CLI's main thread on a signal
LISTENING = threading.Event()  # set while an engine yields chunks and watches STOP
POLL_SECONDS = 0.2  # how soon a waiting engine sees STOP


class Stopped(KeyboardInterrupt):
    """A stop seen by an engine; `finished`: ((start, count, ...), result) of each chunk that
    had finished but was not yet yielded, in chunk order."""

    def __init__(self, finished):
        super().__init__()
        self.finished = finished


@contextmanager
def listening():
    """While the block runs, a signal stops the engine through STOP rather than at once (blocks
    nest: a run listens from its first chunk until its output is finished, its engine inside)."""
    outer = LISTENING.is_set()
    LISTENING.set()
    try:
        yield
    finally:
        if not outer:
            LISTENING.clear()


def awaited(pending, wait):
    """The result of the first (chunk, future) of the deque `pending`, popped; wait(future,
    seconds) -> done?.  Stopped (with the finished results of `pending`) once STOP is set."""
    future = pending[0][1]
    while not (STOP.is_set() or wait(future, POLL_SECONDS)):
        pass
    if STOP.is_set():
        raise Stopped([(c, f.result()) for c, f in pending if _succeeded(f)])
    pending.popleft()
    return future.result()


def _succeeded(future):
    return future.done() and not future.cancelled() and future.exception() is None
