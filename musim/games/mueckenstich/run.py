"""`musim run --game mueckenstich` and `musim record --game mueckenstich`: the kernels' arrays as rows."""

from musim.games import seat_run
from musim.games.mueckenstich import columns, simulate
from musim.games.mueckenstich import record as records


def job(spec):
    """The engine's Job for a deals or matches spec."""
    return seat_run.job(spec, simulate, columns)


def record(spec, index):
    """The game record of deal `index` of the run `spec`."""
    return seat_run.record(spec, index, records)
