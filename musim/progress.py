"""The progress bar of every long command (`run`, `bid`, `balance`): its ETA and the long-run estimate."""

import sys
import threading
import time

from tqdm import tqdm

LONG_RUN_S = 600  # a run whose estimate passes this says so
CALIBRATE_S = 5  # seconds of progress the estimate is projected from
BAR_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed} elapsed, ETA {remaining}, {rate_fmt}]"


def duration_text(seconds):
    """A duration as a person says it: '40 minutes', '3.5 hours', '12 days'."""
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            value = seconds / size
            return f"{value:.0f} {unit}" if value >= 10 else f"{value:.1f} {unit}"
    return f"{seconds:.0f} seconds"


class Estimate:
    """Projects a run's time from its first progress and says so once if it passes LONG_RUN_S.

    The projection starts at the first update, not at the start, so that compiling the
    kernels (up to a minute on a fresh cache) is not taken for the pace of the work; it is
    made CALIBRATE_S seconds later, from the items done in between."""

    def __init__(self, total, unit, advice, say, clock=time.monotonic):
        self.total, self.unit, self.advice, self.say, self.clock = total, unit, advice, say, clock
        self.start = clock()
        self.first = None  # (time, items done) at the first update
        self.done = 0
        self.decided = False
        self.lock = threading.Lock()  # updates come from worker threads

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
                f"({self.total:,} {self.unit}s at the pace of the first {self.done:,}).{self.advice}"
            )


class _Bar(tqdm):
    """A tqdm bar whose updates also feed an Estimate."""

    def __init__(self, *args, estimate, **options):
        self.estimate = estimate
        super().__init__(*args, **options)

    def update(self, n=1):
        self.estimate.update(n)
        return super().update(n)


def progress_bar(total, unit, show, file=None, advice="", clock=time.monotonic, **options):
    """A tqdm bar on stderr with an ETA, drawing every update; shown or not, it says once if
    the run looks longer than LONG_RUN_S, followed by `advice` (the faster options).

    By default tqdm skips drawing an update that comes within 0.1 s of the last one it drew
    (or within as many updates as it learnt to skip), and draws nothing more until the next
    update: when deals finish close together and the next takes an hour, the bar shows too
    few all that hour (a 5-player balance run stood at 14 deals while 16 were done).  Updates
    come per chunk or per deal, each after a millisecond of work or far more, so drawing them
    all costs nothing that shows."""
    file = sys.stderr if file is None else file
    estimate = Estimate(total, unit, advice, lambda text: tqdm.write(text, file=file), clock)
    return _Bar(
        total=total,
        unit=unit,
        disable=not show,
        miniters=1,
        mininterval=0,
        file=file,
        bar_format=BAR_FORMAT,
        estimate=estimate,
        **options,
    )
