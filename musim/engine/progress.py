"""The progress bar of every long command (`run`, `bid`, `balance`): its ETA, the long-run
estimate, and the reporting of finished deals from inside a chunk."""

import sys
import threading
import time
from contextlib import contextmanager

from tqdm import tqdm

from musim.compile import once

LONG_RUN_S = 600  # a run whose estimate passes this says so
CALIBRATE_S = 5  # seconds of progress the estimate is projected from
SLICE_S = 0.05  # a chunk's kernel calls grow while they take less than this: the bar moves several times a second
BAR_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed} elapsed, ETA {remaining}, {rate_fmt}]"
# exact play: a deal takes milliseconds to hours, so the ETA from the pace so far is a guess
HEAVY_TAILED_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed} elapsed, ETA {remaining}?: a guess, deals vary "
HEAVY_TAILED_FORMAT += "a thousandfold, {rate_fmt}]"

_listener = threading.local()  # .done: the callback of the chunk this thread computes


class _Reported:
    count = 0


@contextmanager
def reporting(done):
    """Within the block, report(k) on this thread passes k on to done(k); yields what counts
    how many were reported, so that the caller can report the rest of its chunk."""
    reported = _Reported()

    def listen(count):
        reported.count += count
        done(count)

    _listener.done = listen
    try:
        yield reported
    finally:
        _listener.done = None


def report(count):
    """Say that `count` more items (deals, samples) of the chunk computed on this thread are done."""
    done = getattr(_listener, "done", None)
    if done is not None:
        done(count)


def slices(count):
    """(first, stop) ranges covering 0..count-1 for a kernel wrapper to compute one after the
    other, each reported as done when the next is asked for: 1 item, then twice as many while
    a slice takes under SLICE_S, so that the bar moves deal by deal while deals are slow and a
    fast kernel still runs in calls of thousands.  Nobody listening (no bar, a Dask worker, a
    library call): the whole range at once.  The rows never depend on the slicing: each is
    keyed by (seed, index)."""
    if getattr(_listener, "done", None) is None or not count:
        yield 0, count
        return
    first, size = 0, 1
    while first < count:
        stop = min(count, first + size)
        started = time.perf_counter()
        yield first, stop
        report(stop - first)
        if time.perf_counter() - started < SLICE_S:
            size *= 2
        first = stop


def duration_text(seconds):
    """A duration as a person says it: '40 minutes', '3.5 hours', '12 days'."""
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            value = seconds / size
            return f"{value:.0f} {unit}" if value >= 10 else f"{value:.1f} {unit}"
    return f"{seconds:.0f} seconds"


class Estimate:
    """Says once if a run looks longer than LONG_RUN_S: at the start from `expected` (the
    seconds its work costs by measured figures, estimate_seconds), else projected from its
    first progress.

    The projection starts at the first update, not at the start, so that compiling the
    kernels (up to a minute on a fresh cache) is not taken for the pace of the work; it is
    made CALIBRATE_S seconds later, from the items done in between.  It is a poor guess
    where items differ in cost (the phases of `musim balance`): there, give `expected`."""

    def __init__(self, total, unit, advice, say, clock=time.monotonic, expected=None, what=None):
        self.total, self.unit, self.advice, self.say, self.clock = total, unit, advice, say, clock
        self.what = what or f"{total:,} {unit}s"
        self.start = clock()
        self.first = None  # (time, items done) at the first update
        self.done = 0
        self.decided = False
        self.lock = threading.Lock()  # updates come from worker threads
        if expected is not None:
            self.expect(expected)

    def expect(self, seconds):
        """Take `seconds` (None: not known) for the run's measured cost instead of projecting its pace."""
        if seconds is None:
            return
        self.decided = True
        if seconds > LONG_RUN_S:
            self.say(
                f"musim: estimate: this run should take about {duration_text(seconds)} ({self.what}).{self.advice}"
            )

    def update(self, count):
        with self.lock:
            self.done += count
            if self.decided:
                return
            now = self.clock()
            if self.first is None:
                self.first = (now, self.done)
                return
            since, done_then = self.first
            if now - since < CALIBRATE_S or self.done == done_then:
                return
            self.decided = True
            pace = (now - since) / (self.done - done_then)
            seconds = now - self.start + pace * (self.total - self.done)
        if seconds > LONG_RUN_S:
            self.say(
                f"musim: estimate: this run may take {duration_text(seconds)} or more "
                f"({self.what} at the pace of the first {self.done:,}).{self.advice}"
            )


def estimate_seconds(work, workers, costs, startup=0.0):
    """Seconds `work` ((key, items) pairs) should take on `workers` workers by `costs` (key ->
    the measured seconds an item takes one worker), plus `startup`; None if some key has no
    measured cost (the caller then lets Estimate project the pace)."""
    work = [(key, items) for key, items in work if items]
    if any(key not in costs for key, _ in work):
        return None
    items = sum(n for _, n in work)
    return startup + sum(costs[key] * n for key, n in work) / max(1, min(workers, items))


class _Bar(tqdm):
    """A tqdm bar whose updates also feed an Estimate, and whose clock leaves out compiling:
    its elapsed time, rate and ETA count the work alone (a first exact-play run compiles for
    minutes before its first deal; its ETA read 6218 hours)."""

    def __init__(self, *args, estimate, **options):
        self.estimate = estimate
        self.compiled = once.seconds()
        super().__init__(*args, **options)

    def update(self, n=1):
        self.estimate.update(n)
        if self.disable:
            return None
        compiled = once.seconds()
        self.start_t += compiled - self.compiled  # the rate is the plain average since then (smoothing=0)
        self.compiled = compiled
        return super().update(n)


def progress_bar(
    total, unit, show, file=None, advice="", clock=time.monotonic, expected=None, what=None, exact=False, **options
):
    """A tqdm bar on stderr with an ETA, drawing every update; shown or not, it says once if
    the run looks longer than LONG_RUN_S (Estimate: `expected` seconds, `what` the run is),
    followed by `advice` (the faster options).  `exact`: deals played exactly, whose cost
    is heavy-tailed, so the ETA says it is a guess.

    By default tqdm skips drawing an update that comes within 0.1 s of the last one it drew
    (or within as many updates as it learnt to skip), and draws nothing more until the next
    update: when deals finish close together and the next takes an hour, the bar shows too
    few all that hour (a 5-player balance run stood at 14 deals while 16 were done).  Updates
    come per slice of a chunk (slices), at most some twenty a second a worker, so drawing them
    all costs nothing that shows.  The rate and ETA are the plain average of the work so far
    (smoothing=0), compiling left out (_Bar)."""
    file = sys.stderr if file is None else file
    estimate = Estimate(total, unit, advice, lambda text: tqdm.write(text, file=file), clock, expected, what)
    return _Bar(
        total=total,
        unit=unit,
        disable=not show,
        miniters=1,
        mininterval=0,
        file=file,
        bar_format=HEAVY_TAILED_FORMAT if exact else BAR_FORMAT,
        smoothing=0,
        estimate=estimate,
        **options,
    )
