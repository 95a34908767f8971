"""`musim run --game panther` and `musim record --game panther`: the kernels' arrays as rows."""

from musim.games import seat_run
from musim.games.panther import columns, simulate
from musim.games.panther import record as records
from musim.play import node_limit
from musim.play.search_budget import WORLDS


def job(spec):
    """The engine's Job for a deals or matches spec."""
    return seat_run.job(spec, simulate, columns)


def record(spec, index):
    """The game record of deal `index` of the run `spec`."""
    return records.record(
        spec.players, spec.seed, spec.play, index, spec.options[WORLDS.name], spec.tt_mb, node_limit.limited(spec)
    )
