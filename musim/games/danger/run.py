"""`musim run --game danger` and `musim record`: the kernels' arrays as rows."""

from functools import partial
from types import SimpleNamespace

from musim.games import seat_run
from musim.games.danger import columns, simulate
from musim.games.danger import record as records


def job(spec):
    """The engine's Job for a Danger run (one row per game)."""
    return seat_run.job(spec, SimpleNamespace(simulate_deals=partial(simulate.simulate_deals, **spec.options)), columns)


def record(spec, index):
    """The game record of game `index` of a Danger run."""
    return records.record(spec.players, spec.seed, spec.play, index, **spec.options)
