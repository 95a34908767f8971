"""`musim run --game calcory` and `musim record`: the kernels' arrays as rows."""

from functools import partial
from types import SimpleNamespace

from musim.games import seat_run
from musim.games.calcory import columns, simulate
from musim.games.calcory import record as records


def job(spec):
    """The engine's Job for a Calcory run (one row per game)."""
    memory = spec.options["memory"]
    return seat_run.job(spec, SimpleNamespace(simulate_deals=partial(simulate.simulate_deals, memory=memory)), columns)


def record(spec, index):
    """The game record of game `index` of a Calcory run."""
    return records.record(spec.players, spec.seed, spec.play, index, spec.options["memory"])
