"""The progress bar of every long command (`run`, `bid`, `balance`)."""

import sys

from tqdm import tqdm


def progress_bar(total, unit, show, file=None, **options):
    """A tqdm bar on stderr that draws every update.

    By default tqdm skips drawing an update that comes within 0.1 s of the last one it drew
    (or within as many updates as it learnt to skip), and draws nothing more until the next
    update: when deals finish close together and the next takes an hour, the bar shows too
    few all that hour (a 5-player balance run stood at 14 deals while 16 were done).  Updates come per chunk or per
    deal, each after a millisecond of work or far more, so drawing them all costs nothing
    that shows."""
    return tqdm(
        total=total,
        unit=unit,
        disable=not show,
        miniters=1,
        mininterval=0,
        file=sys.stderr if file is None else file,
        **options,
    )
